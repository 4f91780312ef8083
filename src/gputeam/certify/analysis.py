"""Item analysis of marked attempts (NumPy, vectorised).

Input: a matrix of scores, one row per attempt and one column per item, each the fraction
of the item's mark earned (0-1), NaN where the attempt's form did not hold the item.

- **facility**: the mean score of the item over the attempts that saw it.
- **discrimination**: the corrected point-biserial, the Pearson correlation between the
  item's score and the attempt's total over the *other* items (so the item does not
  correlate with itself), over the attempts that saw it.
- **Cronbach's alpha**: ``k/(k-1) * (1 - sum(item variances) / variance(total))`` over the
  attempts that saw every item (population variances). For items scored 0/1 it equals
  **KR-20**, ``k/(k-1) * (1 - sum(p*q) / variance(total))``, reported when every score is 0 or 1.
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
    complete = scores[~np.isnan(scores).any(axis=1)]
    k = complete.shape[1]
    if k < 2 or complete.shape[0] < 2:
        return float("nan"), None
    total_var = complete.sum(axis=1).var()
    if total_var == 0:
        return float("nan"), None
    alpha = k / (k - 1) * (1 - complete.var(axis=0).sum() / total_var)
    kr20 = None
    if np.isin(complete, (0.0, 1.0)).all():
        p = complete.mean(axis=0)
        kr20 = float(k / (k - 1) * (1 - (p * (1 - p)).sum() / total_var))
    return float(alpha), kr20


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
                ("too easy", f > easy),
                ("too hard", f < hard),
                ("negative discrimination", d < 0),
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
