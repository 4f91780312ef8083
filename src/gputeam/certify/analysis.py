"""Item analysis of marked attempts (NumPy, vectorised).

Input: a matrix of scores, one row per attempt and one column per item, each the fraction
of the item's mark earned (0-1), NaN where the attempt's form did not hold the item.

- **facility**: the mean score of the item over the attempts that saw it.
- **discrimination**: the corrected point-biserial, the Pearson correlation between the
  item's score and the attempt's total over the *other* items (so the item does not
  correlate with itself), over the attempts that saw it.
- **Cronbach's alpha** of a form of ``k`` items, from the mean item variance ``v`` and the
  mean covariance ``c`` of pairs of items: ``k*c / (v + (k-1)*c)``. With every attempt
  holding every item this is the usual ``k/(k-1) * (1 - sum(item variances) /
  variance(total))`` (the total's variance is ``k*v + k*(k-1)*c``). When candidates saw
  different items (random forms drawn from a larger bank) the same formula is used with
  each variance taken over the attempts that saw the item, each covariance over the
  attempts that saw both items (pairs seen together fewer than twice left out), and ``k``
  the mean number of items per attempt: the reliability of a form of the usual length
  drawn from this bank. Population variances throughout. For items scored 0/1 an item's
  variance is ``p*q`` and alpha is **KR-20**, reported when every score is 0 or 1.
- **distractor counts**: how many attempts chose each option of each item. ``choices``
  holds the option a single-response item's attempt chose (-1 for none); ``picks`` lists
  the options chosen where an attempt may choose several (a multiple-response question's
  options; a matching question's pairings, each stem × answer one option number) as
  ``(attempt row, item column, option)`` triples.
- **per domain** (``domains`` maps item ids to domains; items without one are left out):
  the facility is the mean score over every answer to the domain's items; the
  discrimination is the corrected point-biserial of the domain's subscore, the correlation
  between an attempt's total over the domain's items and its total over the other items,
  over the attempts that saw an item of the domain; alpha and KR-20 are computed as for the
  form, on the domain's items alone.
- **flags**: ``too easy`` (facility above ``easy``), ``too hard`` (below ``hard``),
  ``negative discrimination`` (below zero); with ``keys`` (per item, per option: its
  group, the stem of a matching question or 0, and whether it is right), ``distractor
  rarely chosen`` (a wrong option chosen by fewer than ``rare`` of the attempts that saw the
  item) and ``distractor chosen more than the key`` (a wrong option chosen more often than
  every right option of its group: a possible wrong key).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gputeam.i18n import N_

FloatArray = npt.NDArray[np.float64]


#: The flags analyse_items gives, in the order they are listed (marked for translation:
#: the page shows them in its language, the API and CSV keep these codes).
FLAGS = (
    N_("too easy"),
    N_("too hard"),
    N_("negative discrimination"),
    N_("distractor rarely chosen"),
    N_("distractor chosen more than the key"),
)

#: Per option of an item: (group, right). The group is the stem of a matching question
#: (each of its pairings is an option), 0 for a choice question.
OptionKey = tuple[int, bool]


@dataclass(frozen=True)
class DomainAnalysis:
    """The statistics of one domain's items (see the module docstring)."""

    domain: str
    items: int
    attempts: int
    facility: float
    discrimination: float
    alpha: float
    kr20: float | None


@dataclass(frozen=True)
class ItemAnalysis:
    """Per-item statistics (arrays in the order of ``item_ids``), the form's reliability and
    the statistics per domain (sorted by domain)."""

    item_ids: tuple[str, ...]
    attempts: npt.NDArray[np.int64]
    facility: FloatArray
    discrimination: FloatArray
    alpha: float
    kr20: float | None
    distractors: npt.NDArray[np.int64] | None
    flags: tuple[tuple[str, ...], ...]
    domains: tuple[DomainAnalysis, ...] = ()


def _corrected_point_biserial(part: FloatArray, total: FloatArray, seen: npt.NDArray[np.bool_]) -> FloatArray:
    """Per column: the Pearson correlation (population moments) between ``part`` and
    ``total − part`` over the rows where ``seen``; NaN where either does not vary."""
    n = seen.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        x = part * seen
        rest = (total[:, None] - part) * seen
        mean_x = x.sum(axis=0) / n
        mean_r = rest.sum(axis=0) / n
        cov = (x * rest).sum(axis=0) / n - mean_x * mean_r
        var_x = (x * x).sum(axis=0) / n - mean_x**2
        var_r = (rest * rest).sum(axis=0) / n - mean_r**2
        disc = cov / np.sqrt(var_x * var_r)
    return np.where((var_x > 1e-15) & (var_r > 1e-15), disc, np.nan)


def _distractor_flags(
    counts: Sequence[int], keys: Sequence[OptionKey], attempts: int, rare: float
) -> list[str]:
    out: list[str] = []
    groups: dict[int, list[tuple[int, bool]]] = {}
    padded = list(counts[: len(keys)]) + [0] * (len(keys) - len(counts))  # options nobody chose
    for n, (group, right) in zip(padded, keys, strict=True):
        groups.setdefault(group, []).append((n, right))
    for options in groups.values():
        wrong = [n for n, right in options if not right]
        keyed = [n for n, right in options if right]
        if any(n < rare * attempts for n in wrong) and "distractor rarely chosen" not in out:
            out.append("distractor rarely chosen")
        if keyed and any(n > max(keyed) for n in wrong) and "distractor chosen more than the key" not in out:
            out.append("distractor chosen more than the key")
    return out


def _alpha(scores: FloatArray) -> tuple[float, float | None]:
    """Alpha (and KR-20 when every score is 0 or 1) as the module docstring defines them."""
    seen = ~np.isnan(scores)
    per_attempt = seen.sum(axis=1)
    per_attempt = per_attempt[per_attempt > 0]
    if per_attempt.size < 2:
        return float("nan"), None
    k = float(per_attempt.mean())
    binary = bool(np.isin(scores[seen], (0.0, 1.0)).all())
    if seen.all():  # every attempt holds every item: the textbook formula, no pair products
        total_var = float(scores.sum(axis=1).var())
        if scores.shape[1] < 2 or abs(total_var) < 1e-15:
            return float("nan"), None
        n = scores.shape[1]
        alpha = n / (n - 1) * (1 - float(scores.var(axis=0).sum()) / total_var)
        return alpha, alpha if binary else None
    m = seen.astype(np.float64)
    x = np.where(seen, scores, 0.0)
    together = m.T @ m  # attempts that saw both items
    with np.errstate(invalid="ignore", divide="ignore"):
        sums = (x.T @ m) / together  # [i, j]: mean of item i over the attempts that saw i and j
        cov = (x.T @ x) / together - sums * sums.T
    usable = together >= 2
    variances = np.diag(cov)[np.diag(usable)]
    upper = np.triu(usable, 1)
    if k < 2 or variances.size < 2 or not upper.any():
        return float("nan"), None
    v, c = float(variances.mean()), float(cov[upper].mean())
    denominator = v + (k - 1) * c
    if abs(denominator) < 1e-15:
        return float("nan"), None
    alpha = k * c / denominator
    return alpha, alpha if binary else None


def analyse_items(
    scores: npt.ArrayLike,
    item_ids: Sequence[str] | None = None,
    choices: npt.ArrayLike | None = None,
    easy: float = 0.9,
    hard: float = 0.2,
    *,
    picks: tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike] | None = None,
    domains: Mapping[str, str] | None = None,
    keys: Sequence[Sequence[OptionKey] | None] | None = None,
    rare: float = 0.05,
) -> ItemAnalysis:
    """Item statistics of an attempts × items score matrix (see the module docstring)."""
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 2:
        raise ValueError(f"scores must be a 2-D attempts × items matrix (found {s.ndim} dimensions)")
    n_items = s.shape[1]
    ids = tuple(item_ids) if item_ids is not None else tuple(str(i) for i in range(n_items))
    if len(ids) != n_items:
        raise ValueError(f"{len(ids)} item ids for {n_items} columns")
    if keys is not None and len(keys) != n_items:
        raise ValueError(f"{len(keys)} option keys for {n_items} items")
    seen = ~np.isnan(s)
    x = np.where(seen, s, 0.0)
    n = seen.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        facility = x.sum(axis=0) / n
    disc = _corrected_point_biserial(x, x.sum(axis=1), seen)
    alpha, kr20 = _alpha(s)
    distractors = _count_options(s.shape, choices, picks)
    flags = []
    for j, (f, d) in enumerate(zip(facility.tolist(), disc.tolist(), strict=True)):
        item_flags = [
            name
            for name, hit in (
                (N_("too easy"), f > easy),
                (N_("too hard"), f < hard),
                (N_("negative discrimination"), d < 0),
            )
            if hit
        ]
        key = keys[j] if keys is not None else None
        if key and distractors is not None and n[j]:
            item_flags += _distractor_flags(distractors[j].tolist(), key, int(n[j]), rare)
        flags.append(tuple(item_flags))
    return ItemAnalysis(
        item_ids=ids,
        attempts=n.astype(np.int64),
        facility=facility,
        discrimination=disc,
        alpha=alpha,
        kr20=kr20,
        distractors=distractors,
        flags=tuple(flags),
        domains=_domains(s, ids, domains or {}),
    )


def _count_options(
    shape: tuple[int, int],
    choices: npt.ArrayLike | None,
    picks: tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike] | None,
) -> npt.NDArray[np.int64] | None:
    """Items × options: how many attempts chose each option (an attempt counted once per
    option, however often ``picks`` repeats it)."""
    if choices is None and picks is None:
        return None
    n_attempts, n_items = shape
    cols = np.zeros(0, dtype=np.int64)
    opts = np.zeros(0, dtype=np.int64)
    if choices is not None:
        c = np.asarray(choices, dtype=np.int64)
        if c.shape != shape:
            raise ValueError(f"choices have shape {c.shape}, scores {shape}")
        valid = c >= 0
        cols = np.broadcast_to(np.arange(n_items), shape)[valid]
        opts = c[valid]
    if picks is not None:
        r, k, o = (np.asarray(a, dtype=np.int64).ravel() for a in picks)
        if not r.size == k.size == o.size:
            raise ValueError("picks: attempt rows, item columns and options differ in length")
        if r.size and (min(r.min(), k.min(), o.min()) < 0 or r.max() >= n_attempts or k.max() >= n_items):
            raise ValueError("picks: an attempt row, item column or option is out of range")
        width = int(o.max()) + 1 if o.size else 1
        cell = np.unique((r * n_items + k) * width + o)  # each attempt's option once
        cols = np.concatenate([cols, cell // width % n_items])
        opts = np.concatenate([opts, cell % width])
    options = int(opts.max()) + 1 if opts.size else 0
    counts = np.bincount(cols * options + opts, minlength=n_items * options)
    return counts.reshape(n_items, options).astype(np.int64)


def _domains(s: FloatArray, ids: tuple[str, ...], domains: Mapping[str, str]) -> tuple[DomainAnalysis, ...]:
    columns: dict[str, list[int]] = {}
    for j, item in enumerate(ids):
        if item in domains:
            columns.setdefault(domains[item], []).append(j)
    if not columns:
        return ()
    seen = ~np.isnan(s)
    x = np.where(seen, s, 0.0)
    total = x.sum(axis=1)
    names = sorted(columns)
    sub = np.stack([x[:, columns[d]].sum(axis=1) for d in names], axis=1)
    answered = np.stack([seen[:, columns[d]].sum(axis=1) for d in names], axis=1)
    disc = _corrected_point_biserial(sub, total, answered > 0)
    out = []
    for k, d in enumerate(names):
        cells = int(answered[:, k].sum())
        alpha, kr20 = _alpha(s[:, columns[d]])
        out.append(
            DomainAnalysis(
                domain=d,
                items=len(columns[d]),
                attempts=int((answered[:, k] > 0).sum()),
                facility=float(sub[:, k].sum() / cells) if cells else float("nan"),
                discrimination=float(disc[k]),
                alpha=alpha,
                kr20=kr20,
            )
        )
    return tuple(out)
