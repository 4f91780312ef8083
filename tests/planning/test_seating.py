"""People in the right seats over time.

A senior infrastructure lead found, with one target per person, a Level-4 engineer with 60
months' experience and NCP-AII (the midsize example's Priya Raman) training for the
architect seat that opens in month 13 while contractors covered the lead seat she could
hold from month 4 (1,733 h; total 3,744 h, USD 4,180,054). The optimiser may now move a
person between seats at a month boundary (lead now, architect later, on the roadmap for
the later seat), keeps the seating rule, and explains every placement in one sentence.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.optimiser_mip import open_penalty, solve
from gputeam.planning.optimiser_model import (
    SENIOR_SEAT,
    Instance,
    build_instance,
    peak_slots,
    seating_violations,
    terminal_cost,
)
from gputeam.planning.result import Plan
from gputeam.planning.sizing import size
from gputeam.planning.sourcing import candidates
from gputeam.scenario import Scenario, load_example

from .helpers import person, scenario

CATALOG = load_catalog()
TODAY = date(2026, 12, 1)
DOMAINS = ("gpu-architecture", "cluster-ops", "infiniband", "cuda-drivers", "automation", "linux", "nccl")


@pytest.fixture(scope="module")
def midsize() -> Plan:
    return plan(load_example("midsize"), CATALOG, TODAY, runs=0)


def test_the_senior_holds_the_lead_seat_then_moves_to_architect(midsize: Plan) -> None:
    """The finding reproduced on the midsize example: Priya Raman (Level 4, 60 months,
    NCP-AII) sits in the lead seat from the month she is ready for it and moves to the
    architect seat when the lead's need falls; nobody is paid to cover the lead."""
    s = midsize.sourcing
    priya = next(a for a in s.assignments if a.person == "mid-01")
    assert (priya.role, priya.ready_month) == ("infrastructure-lead", 4)
    assert (priya.then_role, priya.move_month, priya.then_level) == ("infrastructure-architect", 13, 5)
    seats = [(x.role, x.from_month, x.to_month) for x in s.placements if x.person == "mid-01"]
    assert seats == [("infrastructure-lead", 4, 12), ("infrastructure-architect", 13, 18)]
    # before: 1,733 h of lead contractors, 3,744 h in all, USD 4,180,054
    assert sum(n.hours for n in s.contractors if n.role == "infrastructure-lead") == 0
    assert sum(n.hours for n in s.contractors) == pytest.approx(2_011, abs=1)
    assert sum(h.count for h in s.hires) == 5
    assert s.total_cost == pytest.approx(3_699_971, abs=1)
    assert midsize.costs.horizon == pytest.approx(s.total_cost, abs=1)


def test_the_mover_follows_the_roadmap_for_the_later_seat(midsize: Plan) -> None:
    """The move's roadmap: the study for the lead seat, then the roadmap to architect."""
    rm = next(r for r in midsize.roadmaps if r.person == "mid-01")
    assert rm.role == "infrastructure-architect"
    assert rm.ready_month is not None and rm.ready_month <= 13
    refs = [i.ref for i in rm.items]
    assert "cluster-management" in refs  # the lead seat's course
    assert "storage-for-ai" in refs  # the architect seat's


def test_every_placement_is_one_sentence(midsize: Plan) -> None:
    """Each seat a person holds says who, which seat, which months and why, in one sentence."""
    s = midsize.sourcing
    assert s.placements
    names = {p.id: p.name for p in midsize.scenario.people}
    for x in s.placements:
        assert x.reason_text is not None and x.reason == x.reason_text.english()
        assert x.reason.startswith(names[x.person]) and x.reason.count(". ") == 0
        assert str(x.from_month) in x.reason
    lead = next(x for x in s.placements if x.role == "infrastructure-lead")
    assert "needs fewer people from month 13, when they move to Infrastructure Architect" in lead.reason
    # seated months per role never exceed... every seat month is a month the role is needed
    for x in s.placements:
        for m in range(x.from_month, x.to_month + 1):
            assert any(sl.role == x.role and sl.count > 0 for sl in midsize.target.months[m - 1].slots)


def test_the_plan_json_carries_the_placements(midsize: Plan) -> None:
    data = midsize.model_dump(mode="json")
    seats = data["sourcing"]["placements"]
    assert {"person", "role", "level", "person_level", "from_month", "to_month", "reason"} <= set(seats[0])
    moved = next(a for a in data["sourcing"]["assignments"] if a["person"] == "mid-01")
    assert moved["then_role"] == "infrastructure-architect" and moved["move_month"] == 13


# ---------------------------------------------------------------- properties

people_st = st.lists(
    st.fixed_dictionaries(
        {
            "level": st.integers(1, 5),
            "experience_months": st.integers(0, 80),
            "skills": st.dictionaries(st.sampled_from(DOMAINS), st.integers(0, 4), max_size=5),
            "ncp": st.booleans(),
        }
    ),
    min_size=1,
    max_size=4,
)


def _scenario(people: list[dict[str, Any]], gpus: list[int], contractors: float) -> Scenario:
    rows = []
    for i, p in enumerate(people):
        certs = [{"id": "ncp-aii", "earned": "2026-06-01"}] if p["ncp"] else []
        rows.append(
            person(
                f"p{i}",
                level=p["level"],
                experience_months=p["experience_months"],
                background="gpu-engineer",
                skills=p["skills"],
                certifications=certs,
                weekly_study_hours=6,
            )
        )
    steps = [{"month": 1 + 4 * k, "count": n} for k, n in enumerate(gpus)]
    return scenario(
        horizon_months=12,
        fleet={"gpus": steps, "interconnect": "infiniband", "storage": "nfs"},
        people=rows,
        constraints={
            "deadline_month": 6,
            "hiring_lead_time_months": 3,
            "contractors": {"available": True, "max_share": contractors},
        },
    )


def _instance(sc: Scenario) -> Instance:
    target = size(sc, CATALOG)
    return build_instance(sc, CATALOG, target, candidates(sc, CATALOG, target), peak_slots(target))


PROPS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GPUS = st.lists(st.sampled_from([32, 64, 128, 256, 512]), min_size=1, max_size=3).map(sorted)


@PROPS
@given(people_st, GPUS, st.sampled_from([0.5, 1.0]))
def test_no_senior_below_a_seat_bought_from_outside(
    people: list[dict[str, Any]], gpus: list[int], share: float
) -> None:
    """ "No person is seated below their level while a slot at or below their level above the
    seat is bought from outside" and "a qualified idle person is used before a contractor
    covers a slot they qualify for", for the senior seats (Level 4+): whenever a lead,
    senior or architect seat is covered by a contractor or a hire in a month, everyone whose
    own roadmap makes them ready for it by then is seated, and not below it."""
    inst = _instance(_scenario(people, gpus, share))
    sol = solve(inst, time_limit=20)
    if sol.decisions is None or sol.seating_yielded:
        return  # no plan, or the rule alone would leave none (the plan says so)
    assert seating_violations(inst, sol.decisions) == []
    ready: dict[tuple[str, str], int] = {}
    for o in inst.options:
        if o.delay == 0 and o.then_role is None:
            ready[(o.person, o.role)] = min(ready.get((o.person, o.role), o.ready), o.ready)
    chosen = {o.person: o for o in sol.decisions.options}
    for (role, m), fte in sol.decisions.contractors.items():
        if fte <= 1e-6 or inst.slot_level[role] < SENIOR_SEAT:
            continue
        for (p, r), first in ready.items():
            if r == role and first <= m:
                o = chosen.get(p)
                seat = o.seat(m) if o else None
                assert seat is not None, f"{p} idle in month {m} while contractors cover {role}"
                level = max(inst.person_level[p], seat[1])
                assert not inst.slot_level[seat[0]] < inst.slot_level[role] <= level


def _objective(inst: Instance, sc: Scenario) -> tuple[float, int]:
    sol = solve(inst, time_limit=20)
    assert sol.decisions is not None and sol.objective is not None
    d = sol.decisions
    money = sol.objective - inst.fixed_cost + terminal_cost(inst, d) + open_penalty(inst, d)
    return money, sum(n for _, _, _, n in d.hires)


@PROPS
@given(people_st, GPUS)
def test_adding_a_qualified_person_never_raises_cost_or_headcount(
    people: list[dict[str, Any]], gpus: list[int]
) -> None:
    """ "Headcount and cost never rise when a qualified person is added": one more Level-4
    engineer (60 months, NCP-AII, the lead seat's skills) never makes the plan's decisions
    (upskilling, raises, hires, contractors, open slots) cost more, nor adds a hire."""
    base = _scenario(people, gpus, 1.0)
    senior = {
        "level": 4,
        "experience_months": 60,
        "skills": {d: 3 for d in DOMAINS},
        "ncp": True,
    }
    more = _scenario([*people, senior], gpus, 1.0)
    before, hires_before = _objective(_instance(base), base)
    after, hires_after = _objective(_instance(more), more)
    assert after <= before + max(1.0, 1e-5 * abs(before))
    assert hires_after <= hires_before


def test_the_rule_binds_where_the_cheapest_plan_breaks_it() -> None:
    """A Level-5 engineer (40 months) who can be ready for the lead seat by month 4: the
    cheapest plan without the seating rule (as the diagnosis re-solves it, a family
    dropped) keeps them below the lead seat while a contractor covers the lead; the plan
    keeps the rule, at a cost it names."""
    people = [
        {"level": 5, "experience_months": 16, "skills": {}, "ncp": True},
        {"level": 5, "experience_months": 40, "skills": {"gpu-architecture": 1}, "ncp": False},
    ]
    inst = _instance(_scenario(people, [256, 512], 0.5))
    free = solve(inst, drop=["budget"], time_limit=20)  # no budget: only the rule is left out
    assert free.decisions is not None and free.objective is not None
    assert ("infrastructure-lead", 4, "p1", "below") in seating_violations(inst, free.decisions)
    kept = solve(inst, time_limit=20)
    assert kept.decisions is not None and kept.objective is not None and not kept.seating_yielded
    assert seating_violations(inst, kept.decisions) == []

    # the rule is a constraint: never cheaper on the objective (horizon, terminal year, open slots)
    def objective(d: Any, money: float) -> float:
        return money + terminal_cost(inst, d) + open_penalty(inst, d)

    assert objective(kept.decisions, kept.objective) >= objective(free.decisions, free.objective) - 1.0
