"""Issue 19 item 1: an ROI a finance review accepts. The question of article §9 (invest in
certifying the team?) against named alternatives side by side; benefits only where the plan
and the alternative differ; investment and returns classified by the cash, never by the
deadline; payback a month of the cumulative cash flow; NPV and ROI percentiles across the
Monte Carlo runs."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.result import Plan, RoiMonth
from gputeam.planning.roi import compute_roi, hire_only, payback_month, service_rates
from gputeam.report import markdown
from gputeam.scenario import load_example

from ..conftest import TODAY


@cache
def midsize() -> Plan:
    return plan(load_example("midsize"), load_catalog(), TODAY, runs=0)


def with_deadline(p: Plan, deadline: int) -> Any:
    sc = p.scenario
    return sc.model_copy(
        update={"constraints": sc.constraints.model_copy(update={"deadline_month": deadline})}
    )


@settings(max_examples=12, deadline=None)
@given(deadline=st.integers(min_value=1, max_value=18))
def test_the_same_cash_flows_give_the_same_roi_whatever_the_deadline(deadline: int) -> None:
    """Rule (a finance review's): investment and returns are classified by the cash, never by
    the deadline, so the same cash flows give the same ROI. The midsize plan held fixed
    (same hires, training, contractors) and so is the hire-only alternative's sourcing; only
    `constraints.deadline_month` changes."""
    p = midsize()
    alt = hire_only(p.scenario, load_catalog(), p.target)  # the alternative's cash held fixed too
    roi = compute_roi(with_deadline(p, deadline), load_catalog(), p.target, p.sourcing, p.roadmaps, alt)
    assert roi.investment == p.roi.investment
    assert roi.returns == p.roi.returns
    assert roi.net_roi == p.roi.net_roi and roi.npv == p.roi.npv
    assert roi.payback_months == p.roi.payback_months


def _months(flows: list[tuple[float, float]]) -> list[RoiMonth]:
    out, running = [], 0.0
    for m, (inv, ret) in enumerate(flows, start=1):
        running += ret - inv
        out.append(
            RoiMonth(
                month=m,
                gpus=1,
                coverage=1,
                alternative_coverage=0,
                investment={"training": inv},
                returns={"in-house run cost": ret},
                cash_flow=ret - inv,
                cumulative=running,
                discount_factor=1,
            )
        )
    return out


money = st.floats(min_value=0, max_value=1e6, allow_nan=False)


@settings(max_examples=200)
@given(
    flows=st.lists(
        st.tuples(money, st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)), min_size=1, max_size=24
    )
)
def test_payback_is_a_month_of_the_cumulative_cash_flow_and_never_zero_while_invested(
    flows: list[tuple[float, float]],
) -> None:
    """Rule: payback is a month of the cumulative cash flow (counted from the first
    investment, paid at the start of its month, returns accruing over it) after which it
    never falls below zero again, and never 0.0 while anything was invested."""
    months = _months(flows)
    p = payback_month(months)
    invested = any(inv > 0 for inv, _ in flows)
    if not invested:
        assert p is None
        return
    if p is None:
        return
    assert 0 < p <= len(months)
    first = next(i for i, (inv, _) in enumerate(flows) if inv > 0)
    running = 0.0
    for m, (inv, ret) in enumerate(flows[first:], start=first + 1):
        start = running - inv
        running = start + ret
        if m - 1 >= p:  # every month starting after the payback starts and ends at or above zero
            assert start >= -1e-6 and running >= -1e-6


def test_the_twenty_thousand_gpu_kind_of_plan_does_not_pay_back_in_zero_months() -> None:
    """Returns in the first month larger than its investment: the old rule said 0.0."""
    months = _months([(50_000, 900_000), (0, 900_000)])
    p = payback_month(months)
    assert p is not None and p == pytest.approx(50_000 / 900_000)


def test_alternatives_side_by_side_in_the_json_and_every_format() -> None:
    p = midsize()
    side = {x.counterfactual: x for x in p.roi.alternatives}
    assert list(side) == ["hire-only", "managed-service"]
    assert side["hire-only"].headline and not side["managed-service"].headline
    assert side["hire-only"].net_roi == p.roi.net_roi and side["hire-only"].npv == p.roi.npv
    data = p.to_json()
    assert [x["counterfactual"] for x in data["roi"]["alternatives"]] == ["hire-only", "managed-service"]
    md = markdown.render(p).decode()
    # the alternatives by name in every format (their codes stay in the JSON)
    assert "The plan against each alternative" in md and "managed service" in md
    assert "Why each return counts" in md
    # XLSX: the same tables, the side-by-side figures as numbers
    import io

    from openpyxl import load_workbook

    from gputeam.report import xlsx

    book = load_workbook(io.BytesIO(xlsx.render(p)))
    cells = [c for ws in book.worksheets for row in ws.iter_rows() for c in row]
    assert any(c.value == "The plan against each alternative" for c in cells)
    side_row = next(c.row for c in cells if c.value == "managed service")
    ws = next(
        ws
        for ws in book.worksheets
        if any(c.value == "managed service" for row in ws.iter_rows() for c in row)
    )
    values = [c.value for c in ws[side_row]]
    assert side["managed-service"].investment in values
    # terminal: the other alternative beside the headline
    from rich.console import Console

    from gputeam.report.table import print_plan

    console = Console(record=True, width=200)
    print_plan(p, console)
    assert "against managed service: net ROI" in console.export_text()
    # the headline follows roi.counterfactual; the others stay beside it
    sc = p.scenario
    other = sc.model_copy(update={"roi": sc.roi.model_copy(update={"counterfactual": "managed-service"})})
    roi = compute_roi(other, load_catalog(), p.target, p.sourcing, p.roadmaps)
    assert roi.counterfactual == "managed-service"
    assert [x.counterfactual for x in roi.alternatives] == ["managed-service", "hire-only"]
    assert roi.alternatives[1].net_roi == p.roi.net_roi


def test_benefits_are_credited_only_where_plan_and_alternative_differ() -> None:
    """A managed service runs the whole target: a month the plan runs all of it too earns no
    downtime, power or deployment benefit; every return line says why it counts."""
    p = midsize()
    sc = p.scenario
    ms = sc.model_copy(update={"roi": sc.roi.model_copy(update={"counterfactual": "managed-service"})})
    roi = compute_roi(ms, load_catalog(), p.target, p.sourcing, p.roadmaps)
    for m in roi.months:
        if m.filled == m.alternative_filled:
            assert m.returns["downtime avoided"] == m.returns["efficiency (power)"] == 0
        assert m.returns["downtime avoided"] <= 0  # the service runs at least as much
    assert set(roi.return_reasons) == set(roi.return_lines)
    assert "also reduces downtime" in roi.return_reasons["downtime avoided"]


def test_the_managed_service_is_priced_by_level_not_one_rate() -> None:
    """Each slot at the article's contractor markup over its level's loaded cost: Level 2 at
    the article's $300/h, Level 1 below it, Level 5 far above."""
    cat = load_catalog()
    p = midsize()
    rates = service_rates(p.scenario, cat)
    assert rates[2] == pytest.approx(300, abs=0.5)
    assert rates[1] < rates[2] < rates[3] < rates[4] < rates[5]
    sc = p.scenario
    ms = sc.model_copy(update={"roi": sc.roi.model_copy(update={"counterfactual": "managed-service"})})
    roi = compute_roi(ms, cat, p.target, p.sourcing, p.roadmaps)
    hours = cat.economics.hours_per_fte_month
    g1 = next(m.month for m in roi.months if m.gpus > 0)
    for m in roi.months:
        slots = p.target.at(m.month).slots
        fee = sum(s.count * hours * rates[s.level_min] for s in slots) if m.month >= g1 else 0.0
        assert m.returns["managed-service fees avoided"] == pytest.approx(fee, abs=0.01)
    # a quote per GPU-month replaces the per-slot prices
    quoted = ms.model_copy(update={"roi": ms.roi.model_copy(update={"service_per_gpu_month": 150.0})})
    roi = compute_roi(quoted, cat, p.target, p.sourcing, p.roadmaps)
    for m in roi.months:
        assert m.returns["managed-service fees avoided"] == pytest.approx(
            m.gpus * 150.0 if m.month >= g1 and p.target.at(m.month).headcount else 0.0
        )


def test_risk_adjusted_npv_and_roi_come_from_the_monte_carlo_costs() -> None:
    p = plan(load_example("healthcare"), load_catalog(), TODAY, runs=200, seed=3)
    assert p.risk is not None and p.roi.risk_adjusted is not None
    rk, roi, cp = p.roi.risk_adjusted, p.roi, p.risk.cost_percentiles
    d = sum(m.discount_factor for m in roi.months) / len(roi.months)
    assert rk.npv_p50 == pytest.approx(roi.npv - (cp.p50 - p.risk.plan_cost) * d, abs=0.05)
    assert rk.npv_p10 == pytest.approx(roi.npv - (cp.p90 - p.risk.plan_cost) * d, abs=0.05)
    assert rk.net_roi_p50 == pytest.approx(
        (roi.returns - (cp.p50 - p.risk.plan_cost) - roi.investment) / roi.investment
    )
    assert rk.npv_p10 <= rk.npv_p50 <= rk.npv_p90 and rk.runs == 200
    assert "NPV and net ROI across 200 Monte Carlo runs" in markdown.render(p).decode()
