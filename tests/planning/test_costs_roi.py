"""Costs and ROI: bands, overheads, contractors, the article's example and contradictions."""

from __future__ import annotations

import math

import pytest

from gputeam.planning import article_roi, plan
from gputeam.planning.costs import template_costs
from gputeam.scenario import EXAMPLES, load_example

from .helpers import person, scenario


def test_article_roi_is_reproduced_exactly(catalog):
    roi = article_roi(catalog)
    assert roi.investment == 145_000
    assert roi.annual_return == 675_000
    assert roi.net_roi == pytest.approx((675_000 - 145_000) / 145_000)
    assert round(roi.net_roi * 100, 1) == 365.5
    assert roi.benefit_cost_ratio == pytest.approx(4.655, abs=5e-4)
    assert any("benefit-cost ratio" in n and "465%" in n for n in roi.notes)


def test_template_totals_show_the_article_contradiction(catalog):
    """SEED_FACTS contradiction 1: bands over rosters vs the article's totals."""
    got = {t.template: (t.computed_low, t.computed_high) for t in template_costs(catalog)}
    assert got["small"] == (490_000, 775_000)
    assert got["medium"] == (1_355_000, 2_275_000)
    assert got["large"] == (3_110_000, 5_200_000)


def test_salaries_follow_the_bands_and_overhead(catalog, today):
    sc = scenario(
        fleet={"gpus": [{"month": 1, "count": 0}]},
        horizon_months=12,
        people=[person("a", level=3, weekly_study_hours=0)],
    )
    p = plan(sc, catalog, today)
    salaries = next(x for x in p.costs.lines if x.category == "salaries")
    expected = catalog.levels[3].salary_usd.mid * catalog.economics.overhead_multiplier
    assert salaries.first_year == pytest.approx(expected)


def test_premium_pay_and_bonuses_are_costed(catalog, today):
    empty = {"gpus": [{"month": 1, "count": 0}]}  # no target: no hires, only this person
    base = scenario(fleet=empty, people=[person("a", level=2, salary=100_000)])
    levered = scenario(
        fleet=empty,
        people=[person("a", level=2, salary=100_000)],
        retention={"premium_pay": 0.2, "retention_bonus": 6000},
    )
    a, b = plan(base, catalog, today), plan(levered, catalog, today)
    sal = lambda p: next(x.horizon for x in p.costs.lines if x.category == "salaries")  # noqa: E731
    ret = lambda p: next(x.horizon for x in p.costs.lines if x.category == "retention")  # noqa: E731
    assert sal(b) == pytest.approx(sal(a) * 1.2)
    assert ret(b) - ret(a) == pytest.approx(6000)


def test_contractors_bridge_unstaffed_months_at_the_catalog_rate(catalog, today):
    sc = scenario(
        people=[],
        constraints={
            "deadline_month": 6,
            "hiring_lead_time_months": 3,
            "contractors": {"available": True, "max_share": 1.0},
        },
    )
    p = plan(sc, catalog, today)
    hours = sum(c.hours for c in p.sourcing.contractors)
    line = next(x for x in p.costs.lines if x.category == "contractors")
    assert hours > 0
    assert line.horizon == pytest.approx(hours * catalog.economics.contractor_rate_usd_h)
    assert all(c.month < max(h.arrival_month for h in p.sourcing.hires) + 1 for c in p.sourcing.contractors)


def test_no_contractors_means_uncovered_and_warned(catalog, today):
    sc = scenario(people=[], constraints={"contractors": {"available": False}})
    p = plan(sc, catalog, today)
    assert not p.sourcing.contractors
    assert p.sourcing.uncovered
    assert "uncovered" in {w.code for w in p.warnings}


def test_plan_roi_is_computed_from_physical_inputs(catalog, today):
    """Efficiency each month: GPUs x kW x PUE x 730 h x price/kWh x 15% x (share of the target
    run in the plan - in the alternative)."""
    sc = scenario(
        fleet={"gpus": [{"month": 1, "count": 100}], "kw_per_gpu": 1.3, "pue": 1.4, "price_per_kwh": 0.12}
    )
    roi = plan(sc, catalog, today).roi
    month_bill = 100 * 1.3 * 1.4 * 8760 / 12 * 0.12
    # credited on the difference in the share of the target run (plan - alternative)
    expected = sum(month_bill * 0.15 * (m.filled - m.alternative_filled) for m in roi.months)
    assert roi.return_lines["efficiency (power)"] == pytest.approx(expected, abs=0.1)
    assert roi.return_lines["downtime avoided"] == pytest.approx(
        sum(100 * 1000 / 12 * (m.filled - m.alternative_filled) for m in roi.months), abs=0.1
    )
    if roi.investment:
        assert roi.benefit_cost_ratio == pytest.approx(roi.returns / roi.investment)
        assert roi.net_roi == pytest.approx(roi.benefit_cost_ratio - 1)


def test_vendor_discount_needs_ten_in_the_same_course(catalog, today):
    def training(n, strategies):
        people = [person(f"p{i}", skills={"linux": 3}) for i in range(n)]
        # 4,000 GPUs: the scaled large template has more operations slots than people,
        # so everyone is assigned and takes the Foundation courses. No hires (contractors
        # cover the rest): their onboarding courses would count in the training line too.
        sc = scenario(
            people=people,
            fleet={"gpus": [{"month": 1, "count": 4000}]},
            constraints={
                "strategies": strategies,
                "deadline_month": 12,
                "max_hires_per_month": 0,
                "contractors": {"available": True, "max_share": 1.0},
            },
        )
        p = plan(sc, catalog, today)
        assert not p.sourcing.unassigned
        return next(x.horizon for x in p.costs.lines if x.category == "training")

    per_head_9 = training(9, ["vendor", "internal"]) / 9
    per_head_10 = training(10, ["vendor", "internal"]) / 10
    assert per_head_10 < per_head_9 * 0.8
    assert training(10, ["internal"]) / 10 == pytest.approx(per_head_9, rel=0.35)


def test_costs_add_up(catalog, today):
    for name in EXAMPLES:
        p = plan(load_example(name), catalog, today)
        assert math.isclose(sum(p.costs.by_month), p.costs.horizon, rel_tol=1e-6)
        assert math.isclose(sum(x.horizon for x in p.costs.lines), p.costs.horizon, rel_tol=1e-6)
