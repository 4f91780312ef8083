"""Item analysis definitions, recomputed by hand on small matrices."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gputeam.certify import analyse_items

# 5 attempts × 3 items, scored 0/1
S = np.array([[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 0, 1], [1, 1, 0]], dtype=float)


def pearson(x: list[float], y: list[float]) -> float:
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    return cov / math.sqrt(sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y))


def test_facility_discrimination_and_kr20_by_hand() -> None:
    r = analyse_items(S, ["a", "b", "c"])
    assert r.facility.tolist() == [0.8, 0.6, 0.4]
    rows = S.tolist()
    for j in range(3):
        item = [row[j] for row in rows]
        rest = [sum(row) - row[j] for row in rows]  # the total without the item itself
        assert r.discrimination[j] == pytest.approx(pearson(item, rest))
    # KR-20 = k/(k-1) * (1 - Σ p q / σ²(total)), population variance
    totals = [2, 1, 3, 1, 2]
    mean = sum(totals) / 5
    var = sum((t - mean) ** 2 for t in totals) / 5  # 0.56
    pq = 0.8 * 0.2 + 0.6 * 0.4 + 0.4 * 0.6  # 0.64
    assert r.kr20 == pytest.approx(3 / 2 * (1 - pq / var))
    assert r.alpha == pytest.approx(r.kr20)


def test_cronbach_alpha_on_partial_credit_and_no_kr20() -> None:
    s = np.array([[1, 0.5, 1], [0.5, 0.5, 0], [1, 1, 1], [0, 0, 0.5]])
    r = analyse_items(s)
    item_var = sum(np.var(s[:, j]) for j in range(3))
    assert r.alpha == pytest.approx(3 / 2 * (1 - item_var / np.var(s.sum(axis=1))))
    assert r.kr20 is None


def test_items_not_on_a_form_are_left_out() -> None:
    s = S.copy()
    s[0, 2] = np.nan
    r = analyse_items(s)
    assert r.attempts.tolist() == [5, 5, 4]
    assert r.facility[2] == pytest.approx(2 / 4)
    item = [0, 1, 1, 0]
    rest = [1 + 0, 1 + 1, 0 + 0, 1 + 1]  # rows 1-4, totals of items a and b
    assert r.discrimination[2] == pytest.approx(pearson(item, rest))


def test_alpha_and_kr20_when_candidates_saw_different_items() -> None:
    """Random forms: six attempts, each saw two of three items (docs/certify.md, "Item
    analysis": alpha = k·c̄ / (v̄ + (k−1)·c̄), variances over the attempts that saw the item,
    covariances over the attempts that saw both, k the mean form length)."""
    n = np.nan
    s = np.array([[1, 1, n], [0, 0, n], [1, n, 1], [0, n, 0], [n, 1, 0], [n, 0, 1]])
    r = analyse_items(s)
    # by hand: every item is right in 2 of the 4 attempts that saw it: variance 0.5 × 0.5
    v = 0.25
    # pairs, each seen together by two attempts: a-b (1,1),(0,0): E[xy] − E[x]E[y] = 0.5 − 0.25
    # a-c (1,1),(0,0): 0.25; b-c (1,0),(0,1): 0 − 0.25
    c = (0.25 + 0.25 - 0.25) / 3  # 1/12
    k = 2  # every attempt held two items
    assert r.alpha == pytest.approx(k * c / (v + (k - 1) * c))
    assert r.alpha == pytest.approx(0.5)
    assert r.kr20 == pytest.approx(0.5)  # 0/1 scores: alpha is KR-20
    # a complete matrix gives the textbook formula (the test above): the same definition
    full = analyse_items(S)
    item_var = sum(np.var(S[:, j]) for j in range(3))
    assert full.alpha == pytest.approx(3 / 2 * (1 - item_var / np.var(S.sum(axis=1))))
    # the pairwise computation (an attempt that saw nothing forces it) agrees on complete data
    padded = np.vstack([S, [n, n, n]])
    assert analyse_items(padded).alpha == pytest.approx(full.alpha)


def test_alpha_with_partial_credit_on_random_forms_has_no_kr20() -> None:
    n = np.nan
    s = np.array([[1, 0.5, n], [0, 0, n], [1, n, 1], [0.5, n, 0], [n, 1, 0.5], [n, 0, 1]])
    r = analyse_items(s)
    # a: 1, 0, 1, 0.5 → mean 0.625, variance (1+0+1+0.25)/4 − 0.625² = 0.171875
    # b: 0.5, 0, 1, 0 → mean 0.375, variance (0.25+0+1+0)/4 − 0.375² = 0.171875
    # c: 1, 0, 0.5, 1 → mean 0.625, variance 0.171875
    v = 0.171875
    # a-b over rows 1-2: E[xy] = 0.25, E[x] = 0.5, E[y] = 0.25 → 0.125
    # a-c over rows 3-4: E[xy] = 0.5, E[x] = 0.75, E[y] = 0.5 → 0.125
    # b-c over rows 5-6: E[xy] = 0.25, E[x] = 0.5, E[y] = 0.75 → −0.125
    c = 0.125 / 3
    assert r.alpha == pytest.approx(2 * c / (v + c))
    assert r.kr20 is None


def test_flags_and_domains() -> None:
    s = np.array([[1, 0, 1, 1], [1, 0, 0, 1], [1, 0, 1, 0], [1, 1, 0, 0], [1, 0, 0, 0]], dtype=float)
    r = analyse_items(s, ["easy", "hard", "mid", "mid2"], easy=0.9, hard=0.25)
    flags = dict(zip(r.item_ids, r.flags, strict=True))
    assert "too easy" in flags["easy"] and "too hard" in flags["hard"]
    assert "negative discrimination" in flags["hard"]  # only the weakest attempt got it right
    assert math.isnan(r.discrimination[0])  # everyone right: no variance
    assert r.by_domain({"easy": "x", "hard": "x", "mid": "y"}) == {"x": pytest.approx(0.6), "y": 0.4}


def test_distractor_counts() -> None:
    choices = np.array([[0, 2], [1, 2], [0, -1], [3, 2]])
    r = analyse_items(np.ones((4, 2)), choices=choices)
    assert r.distractors is not None
    assert r.distractors.tolist() == [[2, 1, 0, 1], [0, 0, 3, 0]]
