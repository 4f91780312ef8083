"""ROI against a counterfactual (issue 8, §1): every figure recomputed from the Plan JSON by
the definitions in docs/planning.md, never compared with hard-coded outputs."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console

from gputeam.catalog import load_catalog
from gputeam.errors import InputError
from gputeam.planning import plan
from gputeam.planning.roi import sensitivity
from gputeam.report import markdown
from gputeam.report.table import print_plan
from gputeam.scenario import example_text, load_example, load_scenario_text

from .helpers import person, scenario

EXAMPLES = ("finance", "healthcare", "startup")


def with_roi(sc: Any, **settings: Any) -> Any:
    return sc.model_copy(update={"roi": sc.roi.model_copy(update=settings)})


def first_gpu(data: dict[str, Any]) -> int:
    return next(m["month"] for m in data["roi"]["months"] if m["gpus"] > 0)


def headcount(data: dict[str, Any], month: int) -> int:
    return sum(s["count"] for s in data["target"]["months"][month - 1]["slots"])


def recompute(data: dict[str, Any]) -> None:
    """Investment, returns, cash flow, NPV and payback from the JSON's monthly series."""
    roi = data["roi"]
    months = roi["months"]
    rate = data["scenario"]["roi"]["discount_rate"]
    assert len(months) == data["scenario"]["horizon_months"]
    invest = {k: sum(m["investment"][k] for m in months) for k in roi["investment_lines"]}
    rets = {k: sum(m["returns"][k] for m in months) for k in roi["return_lines"]}
    for k, v in invest.items():
        assert roi["investment_lines"][k] == pytest.approx(v, abs=0.05)
    for k, v in rets.items():
        assert roi["return_lines"][k] == pytest.approx(v, abs=0.05)
    investment, returns = sum(invest.values()), sum(rets.values())
    assert roi["investment"] == pytest.approx(investment, abs=0.1)
    assert roi["returns"] == pytest.approx(returns, abs=0.1)
    running, npv = 0.0, 0.0
    for m in months:
        flow = sum(m["returns"].values()) - sum(m["investment"].values())
        assert m["cash_flow"] == pytest.approx(flow, abs=0.05)
        running += flow
        assert m["cumulative"] == pytest.approx(running, abs=0.5)
        npv += flow * (1 + rate) ** (-(m["month"] - 1) / 12)
    assert roi["npv"] == pytest.approx(npv, abs=1.0)
    assert roi["discount_rate"] == rate
    e = load_catalog().economics
    for m in months:  # operational benefits only for the difference in the share run
        assert m["returns"]["downtime avoided"] == pytest.approx(
            m["gpus"] * e.downtime_cost_per_gpu_year / 12 * (m["filled"] - m["alternative_filled"]), abs=0.01
        )
    if investment > 0:
        assert roi["net_roi"] == pytest.approx((returns - investment) / investment, rel=1e-6)
        assert roi["benefit_cost_ratio"] == pytest.approx(returns / investment, rel=1e-6)
        # payback (docs/planning.md): counted from the first month with an investment, each
        # month's investment paid at its start and its returns accrued evenly over it
        first = next(m["month"] for m in months if sum(m["investment"].values()) > 0)
        running, last = 0.0, None
        for m in months[first - 1 :]:
            start = running - sum(m["investment"].values())
            running = start + sum(m["returns"].values())
            if start < 0 or running < 0:
                last = (m["month"], start, sum(m["returns"].values()))
        if running < 0:
            assert roi["payback_months"] is None and "payback_months" in roi["reasons"]
        else:
            assert last is not None
            k, start, ret = last
            assert roi["payback_months"] == pytest.approx((k - 1) + -start / ret)
            assert roi["payback_months"] > 0
    else:
        assert roi["net_roi"] is None and roi["reasons"]["net_roi"]


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("counterfactual", ["outsourced", "hire-only", "managed-service"])
def test_examples_recompute_from_the_json(name: str, counterfactual: str, catalog: Any, today: Any) -> None:
    sc = with_roi(load_example(name), counterfactual=counterfactual)
    data = plan(sc, catalog, today, runs=0).to_json()
    recompute(data)
    assert data["roi"]["counterfactual"] == counterfactual


@pytest.mark.parametrize("name", EXAMPLES)
def test_returns_follow_coverage_gpus_and_the_contractor_rate(name: str, catalog: Any, today: Any) -> None:
    """Against `outsourced`: its cost = every target slot x FTE-month hours x the rate from the
    first GPU; downtime = GPUs that month x the per-GPU-year value / 12 x (share the plan
    runs - 1, the share the contractors would run); nothing of either before the first GPU."""
    data = plan(with_roi(load_example(name), counterfactual="outsourced"), catalog, today, runs=0).to_json()
    e = catalog.economics
    rate = data["scenario"]["constraints"]["contractors"]["rate_h"] or e.contractor_rate_usd_h
    g1 = first_gpu(data)
    hours = e.hours_per_fte_year / 12
    for m in data["roi"]["months"]:
        month = m["month"]
        heads = headcount(data, month)
        running = month >= g1 and heads > 0
        cov = data["sourcing"]["coverage_by_month"][month - 1] if running else 0.0
        assert m["coverage"] == pytest.approx(cov, abs=1e-6)
        fte = sum(c["hours"] for c in data["sourcing"]["contractors"] if c["month"] == month) / hours
        filled = min(1.0, cov + fte / heads) if running else 0.0
        assert m["filled"] == pytest.approx(filled, abs=1e-6)
        assert m["alternative_filled"] == (1.0 if running else 0.0)
        assert m["returns"]["outsourcing cost avoided"] == pytest.approx(
            heads * hours * rate if running else 0.0, abs=0.01
        )
        assert m["returns"]["downtime avoided"] == pytest.approx(
            m["gpus"] * e.downtime_cost_per_gpu_year / 12 * (filled - (1.0 if running else 0.0)), abs=0.01
        )


def test_finance_earns_nothing_before_its_gpus_arrive(catalog: Any, today: Any) -> None:
    """The finance fleet has no GPUs until month 5: nothing is avoided and no benefit earned
    before; what is paid before (the team's pay, shadowing contractors) counts as it is paid;
    payback after."""
    roi = plan(load_example("finance"), catalog, today, runs=0).roi
    assert [m.gpus for m in roi.months[:4]] == [0, 0, 0, 0]
    for m in roi.months[:4]:
        for line in ("downtime avoided", "efficiency (power)", "faster deployment"):
            assert m.returns[line] == 0
        assert m.filled == 0 and m.alternative_filled == 0
    assert roi.payback_months is not None and roi.payback_months > 4


def test_study_time_is_roadmap_hours_at_the_loaded_hourly_cost(catalog: Any, today: Any) -> None:
    data = plan(load_example("finance"), catalog, today, runs=0).to_json()
    e = catalog.economics
    people = {p["id"]: p for p in data["scenario"]["people"]}
    team = {a["person"] for a in data["sourcing"]["assignments"]}
    expected = 0.0
    for rm in data["roadmaps"]:
        if rm["person"] in team:
            hourly = people[rm["person"]]["salary"] * e.overhead_multiplier / e.hours_per_fte_year
            expected += sum(i["hours"] for i in rm["items"] if i["kind"] != "renewal") * hourly
    assert expected > 0
    assert data["roi"]["investment_lines"]["study time"] == pytest.approx(expected, abs=0.5)


def test_startup_has_an_investment_and_a_defined_roi(catalog: Any, today: Any) -> None:
    """Hires cost recruiting and ramp-up: the start-up's investment is not $0."""
    roi = plan(load_example("startup"), catalog, today, runs=0).roi
    assert roi.investment_lines["recruiting"] > 0
    assert roi.investment > 0 and roi.net_roi is not None and roi.net_roi != 0


def test_deployment_value_counted_once_for_added_gpus(catalog: Any, today: Any) -> None:
    """A fleet that never grows earns no deployment value, however long the horizon."""
    flat = scenario(horizon_months=24, constraints={"deadline_month": 6})
    roi = plan(flat, catalog, today, runs=0).roi
    assert roi.return_lines["faster deployment"] == 0
    grows = scenario(
        horizon_months=24, fleet={"gpus": [{"month": 1, "count": 64}, {"month": 12, "count": 164}]}
    )
    data = plan(grows, catalog, today, runs=0).to_json()
    m12 = data["roi"]["months"][11]
    assert data["roi"]["return_lines"]["faster deployment"] == pytest.approx(
        100
        * catalog.economics.deployment_speedup_value_per_gpu
        * (m12["filled"] - m12["alternative_filled"]),
        abs=0.01,
    )


def test_no_avoidance_while_contractors_do_the_work(catalog: Any, today: Any) -> None:
    """Nobody on staff and no hires: contractors run everything, so nothing is avoided."""
    sc = scenario(
        constraints={"max_hires_per_month": 0, "contractors": {"available": True, "max_share": 1.0}}
    )
    p = plan(with_roi(sc, counterfactual="outsourced"), catalog, today, runs=0)
    assert p.sourcing.contractors and not p.sourcing.hires
    lines = p.roi.return_lines
    # the plan's contractors are what the outsourced alternative would pay: nothing avoided
    assert lines["outsourcing cost avoided"] + lines["contractor cost"] == pytest.approx(0, abs=1)
    assert lines["downtime avoided"] == lines["efficiency (power)"] == lines["faster deployment"] == 0


def test_power_saving_only_where_the_organisation_pays_for_power(catalog: Any, today: Any) -> None:
    """Without contractors, hire-only leaves slots open until its hires arrive, which the
    plan's upskilled staff run: the power saving counts on that difference, on-prem only."""
    people = [person(f"p{i}", level=3, skills={"linux": 3}) for i in range(4)]
    none = {"contractors": {"available": False}}
    on_prem = plan(scenario(people=people, constraints=none), catalog, today, runs=0).roi
    cloud = plan(
        scenario(people=people, constraints=none, fleet={"deployment": "cloud"}), catalog, today, runs=0
    ).roi
    assert on_prem.return_lines["efficiency (power)"] != 0
    assert cloud.return_lines["efficiency (power)"] == 0
    for roi in (on_prem, cloud):
        assert roi.return_lines["downtime avoided"] != 0
        for m in roi.months:
            assert m.returns["downtime avoided"] == pytest.approx(
                m.gpus
                * catalog.economics.downtime_cost_per_gpu_year
                / 12
                * (m.filled - m.alternative_filled),
                abs=0.01,
            )


def test_hire_only_against_itself_is_zero(catalog: Any, today: Any) -> None:
    """With nobody to upskill, the greedy plan is the hire-only alternative: no cash flow."""
    sc = with_roi(scenario(people=[]), counterfactual="hire-only")
    roi = plan(sc, catalog, today, method="rule", runs=0).roi
    assert roi.investment > 0
    assert all(m.cash_flow == pytest.approx(0, abs=0.05) for m in roi.months)
    assert roi.net_roi == pytest.approx(0, abs=1e-6) and roi.npv == pytest.approx(0, abs=1)


def test_zero_investment_is_not_applicable_everywhere(catalog: Any, today: Any) -> None:
    """No GPUs and nobody: no investment; the measures are None with a reason, shown as
    n/a (reason), never as 0.0%."""
    sc = scenario(fleet={"gpus": [{"month": 1, "count": 0}]})
    p = plan(sc, catalog, today, runs=0)
    assert p.roi.investment == 0
    for measure in ("net_roi", "benefit_cost_ratio", "payback_months"):
        assert getattr(p.roi, measure) is None and p.roi.reasons[measure]
    text = markdown.render(p).decode("utf-8")
    assert "| Net ROI | n/a (no investment" in text
    assert "| Net ROI | 0.0%" not in text
    console = Console(record=True, width=200)
    print_plan(p, console)
    out = console.export_text()
    assert "net ROI n/a (no investment" in out and "0.0%" not in out.split("ROI against")[1]


def test_zero_payback_is_shown_as_zero_not_never(catalog: Any, today: Any) -> None:
    p = plan(load_example("finance"), catalog, today, runs=0)
    p = p.model_copy(update={"roi": p.roi.model_copy(update={"payback_months": 0.0})})
    console = Console(record=True, width=200)
    print_plan(p, console)
    assert "payback 0.0 months" in console.export_text()


def test_discount_rate_and_counterfactual_are_validated() -> None:
    base = example_text("finance")
    for bad, path in (
        ("roi: {discount_rate: -0.1}", "roi.discount_rate"),
        ("roi: {counterfactual: insource}", "roi.counterfactual"),
        ("roi: {power_paid_share: 2}", "roi.power_paid_share"),
    ):
        with pytest.raises(InputError) as info:
            load_scenario_text(base + bad + "\n", "team.yaml")
        assert [p.path for p in info.value.problems] == [path]
    sc = load_scenario_text(base + "roi: {discount_rate: 0.1, counterfactual: hire-only}\n")
    assert sc.roi.discount_rate == 0.1 and sc.roi.counterfactual == "hire-only"


def test_sensitivity_recomputes_npv_by_its_definition(catalog: Any, today: Any) -> None:
    """The tornado's discount-rate entry: the same cash flow discounted at the low and high
    rate; its contractor-rate entry moves the outsourcing cost avoided."""
    sc = with_roi(load_example("healthcare"), counterfactual="outsourced")
    p = plan(sc, catalog, today, runs=0)
    sens = sensitivity(sc, catalog, p.target, p.sourcing, p.roadmaps, top=20)
    names = {s["assumption"]: s for s in sens}
    d = names["discount rate"]
    for key, r in (("npv_low", d["low_value"]), ("npv_high", d["high_value"])):
        expected = sum(m.cash_flow * (1 + r) ** (-(m.month - 1) / 12) for m in p.roi.months)
        assert d[key] == pytest.approx(expected, abs=1.0)
    c = names["contractor rate (per hour)"]
    assert c["npv_low"] < p.roi.npv < c["npv_high"]
    swings = [abs(s["npv_high"] - s["npv_low"]) for s in sens]
    assert swings == sorted(swings, reverse=True)


@pytest.mark.parametrize("counterfactual", ["outsourced", "hire-only"])
def test_sensitivity_matches_a_full_replan_of_the_roi(counterfactual: str, catalog: Any, today: Any) -> None:
    """The tornado's contractor-rate and overhead entries equal the ROI computed afresh with
    that value (the same team plan)."""
    from gputeam.planning.roi import compute_roi

    sc = with_roi(load_example("healthcare"), counterfactual=counterfactual)
    p = plan(sc, catalog, today, runs=0)
    names = {s["assumption"]: s for s in sensitivity(sc, catalog, p.target, p.sourcing, p.roadmaps, top=20)}
    c = sc.constraints
    rate = names["contractor rate (per hour)"]["low_value"]
    cheaper = sc.model_copy(
        update={
            "constraints": c.model_copy(
                update={"contractors": c.contractors.model_copy(update={"rate_h": rate})}
            )
        }
    )
    roi = compute_roi(cheaper, catalog, p.target, p.sourcing, p.roadmaps)
    assert names["contractor rate (per hour)"]["npv_low"] == pytest.approx(roi.npv, abs=2)
    assert names["contractor rate (per hour)"]["roi_low"] == pytest.approx(roi.net_roi, abs=1e-5)
    e = catalog.economics
    high = names["overhead multiplier (loaded cost)"]["high_value"]
    dearer = catalog.model_copy(update={"economics": e.model_copy(update={"overhead_multiplier": high})})
    roi = compute_roi(sc, dearer, p.target, p.sourcing, p.roadmaps)
    assert names["overhead multiplier (loaded cost)"]["npv_high"] == pytest.approx(roi.npv, abs=2)
