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
    assert r.domains == ()  # no domains given


def _var(xs: list[float]) -> float:
    mean = sum(xs) / len(xs)
    return sum((x - mean) ** 2 for x in xs) / len(xs)  # population variance


# 6 attempts × 5 items, 0/1: items a, b, c in domain "net", d and e in "ops"
D = [
    [1, 1, 1, 1, 0],
    [1, 1, 0, 0, 0],
    [1, 0, 1, 1, 1],
    [0, 0, 0, 1, 0],
    [1, 1, 1, 1, 1],
    [0, 1, 0, 0, 1],
]
DOMAINS = {"a": "net", "b": "net", "c": "net", "d": "ops", "e": "ops"}


def test_per_domain_facility_discrimination_and_kr20_by_hand() -> None:
    """Per domain (docs/certify.md, "Item analysis"): facility = the mean score over every
    answer to the domain's items; discrimination = the correlation between the domain's
    subscore and the total over the other items; KR-20 = k/(k−1)·(1 − Σp·q/σ²) over the
    domain's items alone, σ² the population variance of the subscore."""
    r = analyse_items(np.array(D, dtype=float), list("abcde"), domains=DOMAINS)
    net, ops = r.domains
    assert (net.domain, net.items, net.attempts) == ("net", 3, 6)
    assert (ops.domain, ops.items, ops.attempts) == ("ops", 2, 6)
    net_sub = [3.0, 2, 2, 0, 3, 1]  # a + b + c per attempt
    ops_sub = [1.0, 0, 2, 1, 2, 1]  # d + e: the total without the domain
    assert net.facility == pytest.approx(11 / 18)
    assert ops.facility == pytest.approx(7 / 12)
    assert net.discrimination == pytest.approx(pearson(net_sub, ops_sub))
    assert ops.discrimination == pytest.approx(pearson(ops_sub, net_sub))
    p_net = [4 / 6, 4 / 6, 3 / 6]
    kr20_net = 3 / 2 * (1 - sum(p * (1 - p) for p in p_net) / _var(net_sub))
    assert net.kr20 == pytest.approx(kr20_net)
    assert net.alpha == pytest.approx(kr20_net)
    p_ops = [4 / 6, 3 / 6]
    kr20_ops = 2 / 1 * (1 - sum(p * (1 - p) for p in p_ops) / _var(ops_sub))
    assert ops.kr20 == pytest.approx(kr20_ops)
    # the numbers themselves, so a change of definition shows
    assert net.kr20 == pytest.approx(0.5854, abs=1e-4)
    assert net.discrimination == pytest.approx(42 / math.sqrt(246 * 102))  # 0.2651
    # items without a domain are left out of every domain
    assert [
        d.domain for d in analyse_items(np.array(D, dtype=float), list("abcde"), domains={"a": "x"}).domains
    ] == ["x"]


def test_per_domain_facility_on_random_forms_counts_the_answers_given() -> None:
    """Attempts that saw no item of a domain are left out of it; partial credit counts."""
    n = np.nan
    s = np.array([[1, 0.5, n], [0, n, 1], [n, n, 0]])
    r = analyse_items(s, ["a", "b", "c"], domains={"a": "net", "b": "net", "c": "ops"})
    net, ops = r.domains
    assert net.attempts == 2 and net.facility == pytest.approx((1 + 0.5 + 0) / 3)
    assert ops.attempts == 2 and ops.facility == pytest.approx(0.5)
    assert net.kr20 is None  # a 0.5 score: alpha only


def test_distractor_counts_of_multiple_response_questions_and_their_flags() -> None:
    """picks: (attempt, item, option) per option chosen; an attempt counts once per option."""
    scores = np.ones((5, 1))
    rows = [0, 0, 1, 1, 2, 3, 3, 4, 4, 4]
    options = [0, 1, 0, 2, 1, 0, 1, 0, 1, 1]  # attempt 4 sent option 1 twice
    keys = [[(0, True), (0, True), (0, False), (0, False)]]
    r = analyse_items(scores, ["mr"], picks=(rows, [0] * 10, options), keys=keys)
    assert r.distractors is not None
    assert r.distractors.tolist() == [[4, 4, 1]]  # option 3 never chosen: no column
    # option 3 (wrong) chosen by 0 of 5 < 5 %: rarely chosen; option 2 (1 of 5) is not
    assert r.flags[0] == ("too easy", "distractor rarely chosen")


def test_distractor_counts_of_matching_questions_per_pairing() -> None:
    """A matching question's options are its pairings, stem × answer (2 stems × 3 answers
    numbered stem·3 + answer); stem 0's answer is 0, stem 1's is 2. Four attempts pair
    stem 1 with answer 1 and one with 2: the wrong pairing is chosen more than the key."""
    keys = [[(0, True), (0, False), (0, False), (1, False), (1, False), (1, True)]]
    picks = [(a, 0) for a in range(5)] + [(a, 4) for a in range(4)] + [(4, 5)]
    rows, codes = [a for a, _ in picks], [c for _, c in picks]
    r = analyse_items(np.full((5, 1), 0.5), ["m"], picks=(rows, [0] * len(rows), codes), keys=keys)
    assert r.distractors is not None
    assert r.distractors.tolist() == [[5, 0, 0, 0, 4, 1]]
    assert "distractor chosen more than the key" in r.flags[0]
    assert "distractor rarely chosen" in r.flags[0]  # stem 0's wrong answers: nobody


def test_single_choice_flags_a_possible_wrong_key() -> None:
    choices = np.array([[1], [1], [1], [2], [0], [2]])
    keys = [[(0, True), (0, False), (0, False)]]
    scores = np.array([[0.0], [0], [0], [0], [1], [0]])
    r = analyse_items(scores, ["q"], choices, keys=keys)
    assert r.flags[0] == ("too hard", "distractor chosen more than the key")
    flat = analyse_items(scores, ["q"], choices)
    assert flat.flags[0] == ("too hard",)  # without keys: no distractor flags


def test_bad_picks_and_keys_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match="out of range"):
        analyse_items(np.ones((2, 1)), picks=([0, 2], [0, 0], [0, 0]))
    with pytest.raises(ValueError, match="differ in length"):
        analyse_items(np.ones((2, 1)), picks=([0], [0, 0], [0]))
    with pytest.raises(ValueError, match="option keys"):
        analyse_items(np.ones((2, 1)), keys=[None, None])


def test_distractor_counts() -> None:
    choices = np.array([[0, 2], [1, 2], [0, -1], [3, 2]])
    r = analyse_items(np.ones((4, 2)), choices=choices)
    assert r.distractors is not None
    assert r.distractors.tolist() == [[2, 1, 0, 1], [0, 0, 3, 0]]
