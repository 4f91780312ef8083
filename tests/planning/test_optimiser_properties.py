"""Invariants of the optimiser's plans on generated scenarios (hypothesis)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.calendar import month_of
from gputeam.planning.result import Plan

from .helpers import person, scenario

CATALOG = load_catalog()
TODAY = date(2026, 12, 2)
DOMAINS = ("linux", "networking", "gpu-architecture", "infiniband", "monitoring", "automation")


@st.composite
def scenarios(draw: st.DrawFn) -> Any:
    n = draw(st.integers(0, 5))
    people = []
    for i in range(n):
        level = draw(st.integers(1, 4))
        skills = {
            d: draw(st.integers(0, 4))
            for d in draw(st.lists(st.sampled_from(DOMAINS), max_size=4, unique=True))
        }
        people.append(
            person(
                f"p{i}",
                level=level,
                experience_months=draw(st.integers(0, 36)),
                skills=skills,
                weekly_study_hours=draw(st.sampled_from([0, 4, 8])),
            )
        )
    horizon = draw(st.integers(6, 18))
    gpus = draw(st.sampled_from([32, 64, 200, 600]))
    return scenario(
        people=people,
        horizon_months=horizon,
        mode=draw(st.sampled_from(["template", "lean"])),
        fleet={
            "gpus": [{"month": 1, "count": gpus // 2}, {"month": 3, "count": gpus}],
            "interconnect": "infiniband",
            "storage": "nfs",
        },
        constraints={
            "deadline_month": draw(st.integers(1, horizon)),
            "hiring_lead_time_months": draw(st.integers(0, 4)),
            "max_hires_per_month": draw(st.integers(1, 3)),
            "max_in_training": draw(st.sampled_from([None, None, 1, 2])),
            "contractors": {
                "available": draw(st.booleans()),
                "max_share": draw(st.sampled_from([0.25, 0.5, 1.0])),
            },
        },
    )


def staff(p: Plan, role: str, month: int) -> int:
    s = p.sourcing
    return sum(1 for a in s.assignments if a.role == role and a.ready_month <= month) + sum(
        h.count for h in s.hires if h.role == role and h.arrival_month <= month
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_plan_invariants(sc: Any) -> None:
    p = plan(sc, CATALOG, TODAY)
    s = p.sourcing
    c = sc.constraints
    # "each person gets at most one target"
    people = [a.person for a in s.assignments]
    assert len(people) == len(set(people))
    assert set(people).isdisjoint(s.unassigned)
    # "no hire arriving before its lead time"
    for h in s.hires:
        assert h.requisition_month >= 1
        assert h.arrival_month - h.requisition_month == c.hiring_lead_time_months
    per_month: dict[int, int] = {}
    for h in s.hires:
        per_month[h.requisition_month] = per_month.get(h.requisition_month, 0) + h.count
    assert all(v <= c.max_hires_per_month for v in per_month.values())
    # "no exam before its prerequisites"
    for rm in p.roadmaps:
        exams = {i.ref: i.start for i in rm.items if i.kind == "exam"}
        held = {h.id for q in sc.people if q.id == rm.person for h in q.certifications}
        for cid, day in exams.items():
            for pre in CATALOG.certifications[cid].prerequisites:
                assert pre in held or (pre in exams and exams[pre] < day)
    # assignments are ready when their roadmap says
    by_person = {rm.person: rm for rm in p.roadmaps}
    for a in s.assignments:
        assert by_person[a.person].ready_month == a.ready_month
    # at most max_in_training people studying in any month
    if c.max_in_training is not None and s.status == "optimal":
        chosen = {a.person for a in s.assignments}
        for m in range(1, sc.horizon_months + 1):
            busy = sum(
                1
                for rm in p.roadmaps
                if rm.person in chosen
                and any(
                    month_of(sc.start, i.start) <= m <= month_of(sc.start, i.end)
                    for i in rm.items
                    if i.kind in ("course", "bootcamp", "exam", "practice") and i.hours > 0
                )
            )
            assert busy <= c.max_in_training, (m, busy)
    # "the target is covered every month" from the deadline on, within the contractor cap
    hours = CATALOG.economics.hours_per_fte_year / 12
    if s.status == "optimal":
        for tm in p.target.months:
            bridged = sum(n.hours for n in s.contractors if n.month == tm.month) / hours
            cap = c.contractors.max_share * tm.headcount if c.contractors.available else 0.0
            assert bridged <= cap + 1e-5
            if tm.month < sc.deadline:
                continue
            for slot in tm.slots:
                have = staff(p, slot.role, tm.month)
                extra = (
                    sum(n.hours for n in s.contractors if n.month == tm.month and n.role == slot.role) / hours
                )
                assert have + extra >= slot.count - 1e-5, (tm.month, slot.role)
        assert s.total_cost is not None
        # the optimiser prices its plan exactly as the costs module does
        assert s.total_cost + p.needs_cost == pytest.approx(p.costs.horizon, rel=1e-6, abs=0.05)
        # the greedy rule knows neither the training capacity nor the mentor limit: compare
        # only where it cannot break them
        comparable = c.max_in_training is None and all(q.level < 4 for q in sc.people)
        if comparable and s.greedy_cost is not None and s.details.greedy_open_slot_months == 0:
            # the objective: the horizon plus the terminal year (the final month continued)
            assert s.details.terminal_value is not None and s.details.greedy_terminal_value is not None
            assert (
                s.total_cost + s.details.terminal_value
                <= s.greedy_cost + s.details.greedy_terminal_value + 1e-3
            )
    else:
        assert s.status == "infeasible"
        assert s.explanation[0].startswith("No plan meets every constraint.")
        assert s.details.conflict is not None and s.details.conflict.constraints[0] == "deadline"
    assert month_of(sc.start, sc.start) == 1
