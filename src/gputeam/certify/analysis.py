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
- **distractor counts**: how often each option of each item was chosen (``choices`` holds
  the option index per attempt and item, -1 for none).
- **flags**: ``too easy`` (facility above ``easy``), ``too hard`` (below ``hard``),
  ``negative discrimination`` (below zero).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gputeam.i18n import N_

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class ItemAnalysis:
    """Per-item statistics (arrays in the order of ``item_ids``) and the form's reliability."""

    item_ids: tuple[str, ...]
    attempts: npt.NDArray[np.int64]
    facility: FloatArray
    discrimination: FloatArray
    alpha: float
    kr20: float | None
    distractors: npt.NDArray[np.int64] | None
    flags: tuple[tuple[str, ...], ...]

    def by_domain(self, domains: Mapping[str, str]) -> dict[str, float]:
        """Mean facility of the items of each domain (items without a domain left out)."""
        out: dict[str, list[float]] = {}
        for item, facility in zip(self.item_ids, self.facility.tolist(), strict=True):
            if item in domains and facility == facility:  # NaN: never attempted
                out.setdefault(domains[item], []).append(facility)
        return {d: float(np.mean(v)) for d, v in sorted(out.items())}


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
) -> ItemAnalysis:
    """Item statistics of an attempts × items score matrix (see the module docstring)."""
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 2:
        raise ValueError(f"scores must be a 2-D attempts × items matrix (found {s.ndim} dimensions)")
    n_items = s.shape[1]
    ids = tuple(item_ids) if item_ids is not None else tuple(str(i) for i in range(n_items))
    if len(ids) != n_items:
        raise ValueError(f"{len(ids)} item ids for {n_items} columns")
    seen = ~np.isnan(s)
    x = np.where(seen, s, 0.0)
    n = seen.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        facility = x.sum(axis=0) / n
        rest = (x.sum(axis=1)[:, None] - x) * seen
        mean_x = facility
        mean_r = rest.sum(axis=0) / n
        cov = (x * rest).sum(axis=0) / n - mean_x * mean_r
        var_x = (x * x).sum(axis=0) / n - mean_x**2
        var_r = (rest * rest).sum(axis=0) / n - mean_r**2
        disc = cov / np.sqrt(var_x * var_r)
    disc = np.where((var_x > 1e-15) & (var_r > 1e-15), disc, np.nan)
    alpha, kr20 = _alpha(s)
    distractors = None
    if choices is not None:
        c = np.asarray(choices, dtype=np.int64)
        if c.shape != s.shape:
            raise ValueError(f"choices have shape {c.shape}, scores {s.shape}")
        options = int(c.max()) + 1 if c.size and c.max() >= 0 else 0
        valid = c >= 0
        cols = np.broadcast_to(np.arange(n_items), c.shape)
        flat = cols[valid] * options + c[valid]
        distractors = np.bincount(flat, minlength=n_items * options).reshape(n_items, options)
    flags = tuple(
        tuple(
            name
            for name, hit in (
                (N_("too easy"), f > easy),
                (N_("too hard"), f < hard),
                (N_("negative discrimination"), d < 0),
            )
            if hit
        )
        for f, d in zip(facility.tolist(), disc.tolist(), strict=True)
    )
    return ItemAnalysis(
        item_ids=ids,
        attempts=n.astype(np.int64),
        facility=facility,
        discrimination=disc,
        alpha=alpha,
        kr20=kr20,
        distractors=distractors,
        flags=flags,
    )
