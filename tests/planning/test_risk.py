"""Risk simulation: statistics against closed forms, reproducibility, the plan's risk section."""

from __future__ import annotations

from datetime import date
from typing import Any

import numpy as np
import pytest

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.result import Risk
from gputeam.planning.risk import (
    REVISION_DAYS,
    RiskInputs,
    closed_form_attempts,
    closed_form_survival,
    draw,
    simulate,
)
from gputeam.scenario import EXAMPLES, load_example

TODAY = date(2026, 12, 2)
KEYS = {
    "p_ready_by_deadline",
    "coverage_bands",
    "cost_percentiles",
    "cost_samples",
    "bus_factors",
    "sensitivity",
    "runs",
    "seed",
    "deadline_month",
    "readiness_threshold",
    "p_fully_covered",
    "mean_cost",
    "plan_cost",
    "plan_cost_percentile",
    "cost_drivers",
    # issue 19 item 4: readiness that means staff, with standard errors and the budget
    "p_ready_se",
    "contractor_share_at_deadline",
    "contractor_coverage",
    "p_ready_with_contractors",
    "budget",
    "p_cost_within_budget",
    "p_cost_within_budget_se",
    "plan_cost_best_case",
}


def inputs(
    n: int,
    *,
    hazard: float = 0.0,
    exams: list[tuple[int, float, float, float]] | None = None,
    horizon: int = 24,
    ready: int = 1,
) -> RiskInputs:
    """``n`` current people in one role (demand n every month), nothing else uncertain."""
    exams = exams or []
    return RiskInputs(
        horizon=horizon,
        deadline=horizon,
        role=np.zeros(n, dtype=np.int64),
        ready=np.full(n, ready, dtype=np.int64),
        present_from=np.ones(n, dtype=np.int64),
        is_hire=np.zeros(n, dtype=bool),
        requisition=np.zeros(n, dtype=np.int64),
        study_end_days=np.zeros(n),
        study_days=np.zeros(n),
        hazard=np.full(n, hazard),
        salary_month=np.zeros(n),
        recruit_cost=np.zeros(n),
        exam_unit=np.array([e[0] for e in exams], dtype=np.int64),
        exam_pass=np.array([e[1] for e in exams]),
        exam_wait=np.array([e[2] for e in exams]),
        exam_fee=np.array([e[3] for e in exams]),
        demand=np.full((1, horizon), float(n)),
        contractors=np.zeros((1, horizon)),
        contractor_month=0.0,
        lead=0,
        base_cost=1000.0,
        domains=("linux",),
        holds_now=np.ones((n, 1), dtype=bool),
        gains=np.zeros((n, 1), dtype=bool),
        role_domains=np.ones((1, 1), dtype=bool),
        readiness=1.0,
    )


@pytest.mark.parametrize("annual,reduction", [(0.15, 0.0), (0.2, 0.5), (0.18, 0.25)])
def test_attrition_matches_survival_closed_form(annual: float, reduction: float) -> None:
    """Attrition only: P(still there after m months) = (1 - a (1 - r)) ** (m / 12)."""
    a = annual * (1 - reduction)
    hazard = 1 - (1 - a) ** (1 / 12)
    x = inputs(200, hazard=hazard)
    d = draw(x, np.random.default_rng(1), 500)  # 100,000 person-draws
    for months in (6, 12, 23):
        observed = float(np.mean(d.leave > months + 1))  # present in month months + 1
        expected = closed_form_survival(annual, months, reduction)
        assert observed == pytest.approx(expected, abs=0.01)


@pytest.mark.parametrize("p", [0.6, 0.8, 0.95])
def test_pass_rate_matches_geometric_closed_form(p: float) -> None:
    """Pass rate only: retake fees average fee x (1/p - 1); P(no delay) = p."""
    fee, wait = 400.0, 21.0
    x = inputs(1, exams=[(0, p, wait, fee)])
    x.study_days[:] = 0.0
    x.study_end_days[:] = 10.0  # study ends on day 10: one failure (28 days) crosses month 1
    x.study_days[0] = 1e-9  # a roadmap with study, so exams can move readiness
    d = draw(x, np.random.default_rng(2), 200_000)
    attempts = 1 + d.parts[:, 0] / fee
    assert float(attempts.mean()) == pytest.approx(closed_form_attempts(p), rel=0.01)
    # one failure delays by wait + revision days: readiness moves past month 1 only then
    on_time = float(np.mean(d.ready == 1))
    assert on_time == pytest.approx(p, abs=0.005)
    assert 10 + wait + REVISION_DAYS > 30.44


def test_seeded_and_reproducible() -> None:
    x = inputs(20, hazard=0.02)
    a, b, c = simulate(x, 1000, seed=3), simulate(x, 1000, seed=3), simulate(x, 1000, seed=4)
    assert a == b
    assert a != c


def test_no_uncertainty_gives_certain_plan() -> None:
    out = simulate(inputs(5), 300, seed=0).model_dump(mode="json")
    assert out["p_ready_by_deadline"] == 1.0
    assert out["coverage_bands"]["p10"] == [1.0] * 24
    assert out["cost_percentiles"] == {"p10": 1000.0, "p50": 1000.0, "p90": 1000.0}
    assert out["bus_factors"][0]["p_zero"] == 0.0


def check_shape(model: Risk, months: int) -> None:
    risk: dict[str, Any] = model.model_dump(mode="json")
    assert set(risk) == KEYS
    assert 0.0 <= risk["p_ready_by_deadline"] <= 1.0
    bands = risk["coverage_bands"]
    assert set(bands) == {"p10", "p50", "p90"}
    for lo, mid, hi in zip(bands["p10"], bands["p50"], bands["p90"], strict=True):
        assert 0.0 <= lo <= mid <= hi <= 1.0
    assert len(bands["p50"]) == months
    cp = risk["cost_percentiles"]
    assert cp["p10"] <= cp["p50"] <= cp["p90"]
    assert 0 < len(risk["cost_samples"]) <= 500
    for b in risk["bus_factors"]:
        assert set(b) == {"domain", "name", "holders_now", "holders_by_month", "p_zero"}
        assert b["name"] == load_catalog().domains[b["domain"]].name  # shown instead of the id
        assert len(b["holders_by_month"]) == months and 0 <= b["p_zero"] <= 1
    sens = risk["sensitivity"]
    assert len(sens) <= 6
    for s in sens:
        assert set(s) == {
            "assumption",
            "value",
            "low_value",
            "high_value",
            "npv_low",
            "npv_high",
            "roi_low",
            "roi_high",
        }
    swings = [abs(s["npv_high"] - s["npv_low"]) for s in sens]
    assert swings == sorted(swings, reverse=True)


def test_plan_risk_section_for_examples() -> None:
    catalog = load_catalog()
    for name in EXAMPLES:
        sc = load_example(name)
        p = plan(sc, catalog, TODAY, runs=500, seed=7)
        assert p.risk is not None
        check_shape(p.risk, sc.horizon_months)
        assert p.risk.runs == 500 and p.risk.seed == 7
    p = plan(load_example("finance"), catalog, TODAY, runs=0)
    assert p.risk is None


def test_finance_key_person_risk_on_infiniband() -> None:
    """Only one person will hold InfiniBand: a real chance it drops to zero."""
    p = plan(load_example("finance"), load_catalog(), TODAY)
    assert p.risk is not None
    ib = next(b for b in p.risk.bus_factors if b.domain == "infiniband")
    assert ib.holders_now == 0 and ib.holders_by_month[-1] == 1
    assert 0.02 < ib.p_zero < 0.5
    assert len(p.risk.sensitivity) == 6


def test_retention_levers_lower_attrition_risk() -> None:
    catalog = load_catalog()
    sc = load_example("finance")
    kept = sc.model_copy(
        update={
            "retention": sc.retention.model_copy(
                update={"levers": ("equity", "stability-bonus", "career-track", "mentoring")}
            )
        }
    )  # the same decisions, fewer leavers (issue 19: a reduction must be bought by its levers)
    a = plan(sc, catalog, TODAY, runs=3000).risk
    b = plan(kept, catalog, TODAY, runs=3000).risk
    assert a is not None and b is not None
    ib_a = next(x for x in a.bus_factors if x.domain == "infiniband").p_zero
    ib_b = next(x for x in b.bus_factors if x.domain == "infiniband").p_zero
    assert ib_b < ib_a
    assert b.p_ready_by_deadline >= a.p_ready_by_deadline - 0.02
