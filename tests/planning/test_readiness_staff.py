"""Readiness that means staff (issue 19 item 4): P(ready) counts people, contractors are
their own line, Monte Carlo standard errors, P(cost <= budget), the plan's cost placed in
its distribution, a warning for a deadline before the first GPU."""

from __future__ import annotations

import math
import re
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.risk import binomial_se, simulate
from gputeam.report.risk_section import best_case_sentence, readiness_lines
from gputeam.scenario import Scenario, load_example

from .test_risk import inputs

TODAY = date(2026, 12, 2)
CATALOG = load_catalog()
DOCS = Path(__file__).resolve().parents[2] / "docs"


def finance(**constraints: Any) -> Scenario:
    sc = load_example("finance")
    return sc.model_copy(update={"constraints": sc.constraints.model_copy(update=constraints)})


def test_contractors_at_the_deadline_are_not_readiness() -> None:
    """Finance with deadline 5: contractors cover the whole target and nobody on staff is
    ready before month 6. Before: P(ready) 100 %. Now 0 %, with the contractors as their own
    line (100 % of the target; counting them, 100 % of runs reach the threshold)."""
    p = plan(finance(deadline_month=5), CATALOG, TODAY, runs=500)
    r = p.risk
    assert r is not None
    assert r.p_ready_by_deadline == 0.0
    assert r.contractor_share_at_deadline == 1.0
    assert r.p_ready_with_contractors == 1.0
    lines = readiness_lines(r, p.costs.currency)
    assert any(
        line.startswith("Covered by contractors: 100% of the deadline month's target") for line in lines
    )


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 12),
    hazard=st.sampled_from([0.0, 0.01, 0.05]),
    hired=st.lists(st.floats(0, 5), min_size=24, max_size=24),
    seed=st.integers(0, 10_000),
)
def test_p_ready_never_counts_a_contractor(n: int, hazard: float, hired: list[float], seed: int) -> None:
    """Rule: "P(ready) never counts a contractor": adding planned contractors to a plan
    changes neither P(ready), P(every slot covered) nor the coverage bands; it can only raise
    the separate figure that counts them."""
    bare = inputs(n, hazard=hazard)
    bare.readiness = 0.9
    with_c = inputs(n, hazard=hazard)
    with_c.readiness = 0.9
    with_c.contractors = np.array([hired])
    a, b = simulate(bare, 200, seed=seed), simulate(with_c, 200, seed=seed)
    assert a.p_ready_by_deadline == b.p_ready_by_deadline
    assert a.p_fully_covered == b.p_fully_covered
    assert a.coverage_bands == b.coverage_bands
    assert b.p_ready_with_contractors is not None and a.p_ready_with_contractors is not None
    assert b.p_ready_with_contractors >= b.p_ready_by_deadline
    assert a.p_ready_with_contractors == a.p_ready_by_deadline
    assert b.contractor_share_at_deadline == pytest.approx(min(hired[-1], n) / n, abs=1e-4)


@settings(max_examples=40, deadline=None)
@given(
    runs=st.integers(1, 600),
    hazard=st.sampled_from([0.0, 0.02, 0.08]),
    budget=st.floats(900, 1200),
    seed=st.integers(0, 10_000),
)
def test_standard_errors_are_binomial(runs: int, hazard: float, budget: float, seed: int) -> None:
    """Rule: a Monte Carlo probability p from n runs carries the standard error
    SE = sqrt(p (1 - p) / n): P(ready) and P(cost <= budget) both."""
    x = inputs(6, hazard=hazard)
    x.readiness = 0.8
    x.salary_month[:] = 10.0
    x.recruit_cost[:] = 50.0
    x.budget = budget
    r = simulate(x, runs, seed=seed)
    p = r.p_ready_by_deadline
    assert r.p_ready_se == pytest.approx(math.sqrt(p * (1 - p) / runs), abs=1e-6)
    q = r.p_cost_within_budget
    assert q is not None and r.p_cost_within_budget_se is not None
    assert r.p_cost_within_budget_se == pytest.approx(math.sqrt(q * (1 - q) / runs), abs=1e-6)
    if runs <= 500:  # every run's cost is in the samples: recompute P(cost <= budget)
        assert q == pytest.approx(float(np.mean(np.array(r.cost_samples) <= budget + 0.005)))


def test_no_budget_no_budget_probability() -> None:
    r = simulate(inputs(3), 100, seed=0)
    assert r.budget is None and r.p_cost_within_budget is None and r.p_cost_within_budget_se is None
    assert binomial_se(0.5, 0) == 0.0 and binomial_se(0.5, 100) == 0.05


def test_the_worked_example_in_planning_md() -> None:
    """docs/planning.md's worked example, recomputed from the plan JSON: finance with
    deadline month 5 and a budget of $950,000, 500 runs, seed 0."""
    p = plan(finance(deadline_month=5, budget=950_000), CATALOG, TODAY, runs=500, seed=0)
    risk = p.to_json()["risk"]
    samples = np.array(risk["cost_samples"])
    within = float(np.mean(samples <= 950_000))
    se = math.sqrt(within * (1 - within) / 500)
    assert risk["p_cost_within_budget"] == pytest.approx(within)
    assert risk["p_cost_within_budget_se"] == pytest.approx(se, abs=1e-6)
    assert risk["p_ready_by_deadline"] == 0.0 and risk["p_ready_with_contractors"] == 1.0
    plain = plan(finance(budget=950_000), CATALOG, TODAY, runs=500, seed=0).to_json()["risk"]
    ready = plain["p_ready_by_deadline"]
    text = re.sub(r"\s+", " ", (DOCS / "planning.md").read_text(encoding="utf-8"))
    assert f"P(cost ≤ budget) is {within:.1%} ± {se:.1%}" in text
    assert f"P(ready) {ready:.1%} ± {math.sqrt(ready * (1 - ready) / 500):.1%}" in text


def test_a_best_case_plan_cost_is_said_to_be_one() -> None:
    """Midsize: the plan's own cost is at P0 of its runs; the report says it is a best case
    and what to budget for instead."""
    p = plan(load_example("midsize"), CATALOG, TODAY, runs=500)
    r = p.risk
    assert r is not None and r.plan_cost_percentile <= 0.10 and r.plan_cost_best_case
    sentence = best_case_sentence(r, p.costs.currency)
    assert sentence.startswith("The plan's own cost is a best case: it is at P0 of the simulated runs")
    assert sentence in readiness_lines(r, p.costs.currency)
    fin = plan(finance(), CATALOG, TODAY, runs=500).risk
    assert fin is not None and not fin.plan_cost_best_case and best_case_sentence(fin, "USD") == ""


@pytest.mark.parametrize(("deadline", "warned"), [(4, True), (5, False), (6, False)])
def test_a_deadline_before_the_first_gpu_is_warned_about(deadline: int, warned: bool) -> None:
    """Finance's GPUs arrive in month 5: a deadline in month 4 judges a team for no GPUs."""
    p = plan(finance(deadline_month=deadline), CATALOG, TODAY, runs=0)
    codes = [w.code for w in p.warnings]
    assert ("deadline-before-gpus" in codes) is warned
    if warned:
        w = next(w for w in p.warnings if w.code == "deadline-before-gpus")
        assert "deadline month 4 is before the first GPU arrives (month 5)" in w.message
