"""The article's three case studies (§7), bundled as examples, agree with its outcomes."""

from __future__ import annotations

from gputeam.planning import plan
from gputeam.planning.calendar import month_of
from gputeam.scenario import load_example


def test_finance_five_start_foundation_early_and_are_ready_by_month_6(catalog, today):
    """§7A: months 1-2 the whole team takes NVIDIA Fundamentals; month 5 shadows a
    contractor team; month 6 independent operation with vendor support."""
    sc = load_example("finance")
    p = plan(sc, catalog, today)
    assert len(p.roadmaps) == 5
    foundation = set(catalog.paths["foundation"].courses)
    for r in p.roadmaps:
        starts = [month_of(sc.start, i.start) for i in r.items if i.ref in foundation]
        assert len(starts) == 3, r.name
        assert max(starts) <= 2, (r.name, starts)
        assert "nca-aiio" in {i.ref for i in r.items if i.kind == "exam"}
        assert r.ready_month is not None and r.ready_month <= 6
    assert len(p.sourcing.assignments) == 5 and not p.sourcing.hires
    assert p.sourcing.coverage_by_month[5] == 1.0
    bridged = {c.month for c in p.sourcing.contractors}
    assert bridged and max(bridged) < 6, bridged
    assert p.target.at(6).headcount == 5


def test_healthcare_lean_runs_400_gpus_with_about_five(catalog, today):
    """§7B: a 5-person team supports 400 GPUs; a Level-4 lead; two Level-2 engineers added."""
    sc = load_example("healthcare")
    p = plan(sc, catalog, today)
    final = p.target.at(sc.horizon_months)
    assert final.gpus == 400
    assert 4 <= final.headcount <= 6
    assert any(s.role == "infrastructure-lead" and s.level_min == 4 for s in final.slots)
    template = plan(sc.model_copy(update={"mode": "template"}), catalog, today)
    assert template.target.at(sc.horizon_months).headcount > final.headcount
    assert "staffing-density" in {w.code for w in p.warnings}


def test_startup_in_house_costs_less_than_outsourcing(catalog, today):
    """§7C: a Level-4 architect and Level-2 engineers replace the outsourced operation;
    costs fell 60%."""
    sc = load_example("startup")
    p = plan(sc, catalog, today)
    levels = sorted(h.level for h in p.sourcing.hires for _ in range(h.count))
    assert levels.count(4) == 1 and levels.count(2) == 4
    lead = next(h for h in p.sourcing.hires if h.level == 4)
    assert lead.requisition_month <= 6
    in_house = p.costs.annual_run_rate
    outsourced = p.costs.outsourced_annual
    assert in_house <= 0.4 * outsourced, (in_house, outsourced)
