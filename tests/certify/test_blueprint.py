"""Blueprints: largest-remainder domain counts, seeded forms, retakes, exposure control."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gputeam.catalog import Catalog
from gputeam.certify import Answer, BlueprintError, Question, Text, domain_counts, form_seed, select_form


def largest_remainder(total: int, weights: dict[str, float]) -> dict[str, int]:
    """The Hamilton method written out: floors, then one more for the largest remainders."""
    s = sum(weights.values())
    quota = {d: total * w / s for d, w in weights.items()}
    out = {d: math.floor(q) for d, q in quota.items()}
    for d in sorted(weights, key=lambda d: quota[d] - out[d], reverse=True)[: total - sum(out.values())]:
        out[d] += 1
    return out


def test_nca_aiio_weights_from_the_catalog(catalog: Catalog) -> None:
    cert = catalog.certifications["nca-aiio"]
    weights = dict(cert.exam.domain_weights)
    assert sorted(domain_counts(50, weights).values(), reverse=True) == [20, 19, 11]
    assert domain_counts(50, weights) == largest_remainder(50, weights)


@given(st.integers(0, 300), st.dictionaries(st.sampled_from("abcdefg"), st.integers(1, 100), min_size=1))
def test_counts_add_up_and_stay_within_one_of_the_quota(total: int, weights: dict[str, int]) -> None:
    counts = domain_counts(total, {k: float(v) for k, v in weights.items()})
    assert sum(counts.values()) == total
    s = sum(weights.values())
    assert all(abs(counts[d] - total * w / s) < 1 for d, w in weights.items())


@pytest.mark.parametrize("weights", [{}, {"a": -1.0}, {"a": 0.0}, {"a": float("nan")}])
def test_bad_weights_are_refused(weights: dict[str, float]) -> None:
    with pytest.raises(BlueprintError):
        domain_counts(10, weights)


def pool(per_domain: dict[str, int]) -> list[Question]:
    tf = (Answer(text=Text(text="true"), fraction=1.0), Answer(text=Text(text="false"), fraction=0.0))
    return [
        Question(qtype="truefalse", name=f"{d}{i}", idnumber=f"{d}-{i}", domain=d, answers=tf)
        for d, n in per_domain.items()
        for i in range(n)
    ]


POOL = pool({"infra": 60, "knowledge": 55, "ops": 30})
COUNTS = domain_counts(50, {"infra": 0.40, "knowledge": 0.38, "ops": 0.22})


def test_exact_domain_counts_over_1000_seeded_forms() -> None:
    by_id = {q.item_id: q.domain for q in POOL}
    for seed in range(1000):
        form = select_form(POOL, COUNTS, seed)
        assert len(set(form.items)) == 50
        assert Counter(by_id[i] for i in form.items) == COUNTS


def test_same_seed_same_form_whatever_the_pool_order() -> None:
    seed = form_seed("exam-7", "person-3", 1)
    assert select_form(POOL, COUNTS, seed) == select_form(list(reversed(POOL)), COUNTS, seed)
    assert form_seed("exam-7", "person-3", 1) == seed


def test_a_retake_draws_a_different_form() -> None:
    first = select_form(POOL, COUNTS, form_seed("exam-7", "person-3", 1))
    for attempt in range(2, 50):
        again = select_form(POOL, COUNTS, form_seed("exam-7", "person-3", attempt))
        assert again.items != first.items and set(again.items) != set(first.items)


def test_exposure_control_prefers_the_least_drawn_items() -> None:
    small = pool({"a": 10})
    exposure = {f"a-{i}": 5 for i in range(6)}  # a-6 .. a-9 never drawn
    form = select_form(small, {"a": 4}, seed=1, exposure=exposure)
    assert set(form.items) == {"a-6", "a-7", "a-8", "a-9"}
    # over many forms with counts fed back, every item is drawn about equally often
    drawn: Counter[str] = Counter()
    for seed in range(100):
        drawn.update(select_form(small, {"a": 4}, seed, exposure=drawn).items)
    assert max(drawn.values()) - min(drawn.values()) <= 1


def test_not_enough_questions_names_the_domain() -> None:
    with pytest.raises(BlueprintError, match="not enough questions in ops: 11 needed, the bank has 5") as e:
        select_form(pool({"infra": 30, "knowledge": 30, "ops": 5}), COUNTS, 1)
    assert e.value.messages == ("not enough questions in ops: 11 needed, the bank has 5",)  # one per domain


def test_descriptions_are_never_drawn_and_shared_ids_are_refused() -> None:
    intro = Question(qtype="description", name="intro", idnumber="intro", domain="ops")
    form = select_form([*pool({"ops": 3}), intro], {"ops": 3}, seed=5)
    assert "intro" not in form.items
    twins = pool({"ops": 2}) + pool({"ops": 1})  # ops-0 twice
    with pytest.raises(BlueprintError, match="ops-0"):
        select_form(twins, {"ops": 2}, seed=5)
