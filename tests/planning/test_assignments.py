"""Assignments a team lead would make (issue 8 §2): certifications as goals, transition
times, raises only on promotion, promotions, soft experience prerequisites, onboarding
roadmaps for hires, people left out explained, no drift back to contractors."""

from __future__ import annotations

import pytest

from gputeam.catalog.currency import in_currency
from gputeam.planning import plan
from gputeam.planning.calendar import add_months, month_of
from gputeam.planning.costs import salary_at
from gputeam.planning.roadmap import build_roadmap
from gputeam.planning.sizing import size
from gputeam.scenario import load_example, parse_scenario

from .helpers import person, scenario

LEAD = {"gpu-architecture": 3, "cluster-ops": 3, "infiniband": 2, "cuda-drivers": 3, "automation": 2}
OPS = {"linux": 3, "cuda-drivers": 2, "cluster-ops": 2, "monitoring": 2, "gpu-architecture": 2}


def _slot(sc, catalog, role):
    return next(s for s in size(sc, catalog).months[-1].slots if s.role == role)


def test_level4_with_the_skills_takes_the_senior_slot_certificates_follow(catalog, today):
    """A Level-4 person holding the lead's domains but none of its certificates is the lead
    from month 1, with a roadmap to the certificates; no lead is hired or bridged."""
    lead = person("lee", level=4, experience_months=36, skills=LEAD, weekly_study_hours=4)
    sc = scenario(people=[lead], constraints={"deadline_month": 3, "hiring_lead_time_months": 2})
    p = plan(sc, catalog, today, runs=0)
    a = next(a for a in p.sourcing.assignments if a.person == "lee")
    assert a.role == "infrastructure-lead"
    assert a.ready_month == 1
    assert not any(h.role == "infrastructure-lead" for h in p.sourcing.hires)
    assert not any(n.role == "infrastructure-lead" for n in p.sourcing.contractors)
    rm = next(r for r in p.roadmaps if r.person == "lee")
    exams = {i.ref: i.start for i in rm.items if i.kind == "exam"}
    assert "ncp-aii" in exams  # the slot's certificate is still the goal
    assert month_of(sc.start, exams["ncp-aii"]) > a.ready_month


@pytest.mark.parametrize(("background", "months"), [("network-engineer", 6), ("storage-admin", 12)])
def test_study_does_not_make_an_infiniband_specialist(catalog, background, months):
    """Article §2: a network engineer needs 6-12 months on the job to be proficient with
    InfiniBand; a storage administrator is not faster. The networking exam alone is not it."""
    who = person(
        "x",
        background=background,
        level=3,
        experience_months=24,
        skills={"networking": 3, "nccl": 2},
        weekly_study_hours=10,
    )
    sc = scenario(people=[who], horizon_months=24, constraints={"deadline_month": 24})
    slot = _slot(sc, catalog, "network-specialist")
    assert slot.domains["infiniband"] == 3
    rm = build_roadmap(sc.people[0], slot, sc, catalog)
    practice = [i for i in rm.items if i.kind == "practice" and i.ref == "infiniband"]
    assert practice and practice[0].end >= add_months(practice[0].start, months)
    assert rm.ready is not None and rm.ready >= add_months(sc.start, months)


def _salaries(p, sc, catalog):
    return next(x for x in p.costs.lines if x.category == "salaries")


def test_no_raise_without_a_promotion(catalog, today):
    """A Level-2 person paid below the Level-2 band keeps their own salary in a Level-2 slot."""
    ops = person(
        "ops",
        level=2,
        experience_months=12,
        skills=OPS,
        salary=60_000,
        certifications=[{"id": "nca-aiio", "earned": "2026-06-01"}],
    )
    sc = scenario(
        people=[ops], horizon_months=12, constraints={"deadline_month": 6, "hiring_lead_time_months": 1}
    )
    p = plan(sc, catalog, today, runs=0)
    a = next(a for a in p.sourcing.assignments if a.person == "ops")
    assert a.role == "operations-engineer" and a.promotion is None
    uplift = catalog.economics.overhead_multiplier
    hires = sum(
        h.count
        * catalog.levels[h.level].salary_usd.mid
        / 12
        * uplift
        * (sc.horizon_months - h.arrival_month + 1)
        for h in p.sourcing.hires
    )
    expected = 60_000 * uplift + hires  # 12 months of their own salary, no band floor
    assert _salaries(p, sc, catalog).horizon == pytest.approx(expected, abs=1)


def test_promotion_raise_respects_local_salaries(catalog):
    """With converted US bands a promotion raises a local salary by the bands' ratio; it is
    never replaced by the converted US band. Regional bands are taken as they are."""
    inr = parse_scenario(
        {
            "organisation": "x",
            "start": "2027-01-01",
            "currency": "INR",
            "usd_rate": 83,
            "fleet": {"gpus": [{"month": 1, "count": 8}]},
            "people": [person("a", level=1, salary=1_200_000)],
        },
        "<t>",
    )
    cat = in_currency(catalog, 83)
    p = inr.people[0]
    assert salary_at(p, 1, inr, cat) == 1_200_000
    ratio = catalog.levels[2].salary_usd.low / catalog.levels[1].salary_usd.low
    assert salary_at(p, 2, inr, cat) == pytest.approx(1_200_000 * ratio)
    assert salary_at(p, 2, inr, cat) < cat.levels[2].salary_usd.low
    regional = parse_scenario(
        {**inr.model_dump(mode="json"), "salary_bands": {2: {"low": 1_500_000, "high": 2_000_000}}}, "<t>"
    )
    from gputeam.catalog.currency import with_salary_bands

    cat2 = with_salary_bands(cat, {2: (1_500_000, 2_000_000)})
    assert salary_at(p, 2, regional, cat2) == 1_500_000


def test_regional_bands_price_hires(catalog, today):
    """Scenario salary bands replace the catalog's for hires (recruiting = share x band middle)."""
    sc = scenario(
        people=[],
        currency="EUR",
        usd_rate=0.9,
        salary_bands={lv: {"low": 10_000 * lv, "high": 20_000 * lv} for lv in range(1, 6)},
        constraints={"deadline_month": 6, "hiring_lead_time_months": 2},
    )
    p = plan(sc, catalog, today, runs=0)
    assert p.sourcing.hires
    share = catalog.economics.hiring_cost_share
    recruiting = sum(h.count * 15_000 * h.level * share for h in p.sourcing.hires)
    ramp = sum(
        h.count
        * 15_000
        * h.level
        / 12
        * 0.5
        * min(catalog.economics.ramp_up_months, sc.horizon_months - h.arrival_month + 1)
        for h in p.sourcing.hires
    )
    hiring = next(x for x in p.costs.lines if x.category == "hiring")
    assert hiring.horizon == pytest.approx(recruiting + ramp, abs=1)


def test_promotion_instead_of_a_hire(catalog, today):
    """A Level-3 person with NCP-AII who reaches the Level-4 experience (24 months) before
    a hire could arrive is promoted to lead, with the raise only from then."""
    p3 = person(
        "pat",
        level=3,
        experience_months=21,
        skills=LEAD,
        salary=150_000,
        certifications=[
            {"id": "nca-aiio", "earned": "2026-01-10"},
            {"id": "ncp-aii", "earned": "2026-06-10"},
        ],
    )
    sc = scenario(people=[p3], constraints={"deadline_month": 6, "hiring_lead_time_months": 6})
    p = plan(sc, catalog, today, runs=0)
    a = next(a for a in p.sourcing.assignments if a.person == "pat")
    assert a.role == "infrastructure-lead" and a.promotion == 4
    assert a.ready_month == 3  # 21 months + the first 3 of the plan = 24, the Level-4 lower bound
    assert "promoted from Level 3 to Level 4" in a.reason
    assert not any(h.role == "infrastructure-lead" for h in p.sourcing.hires)


def test_soft_experience_prerequisite(catalog):
    """NCP-AII's 24 months' experience is a recommendation: with strictness 0 a person with
    none sits it within the first year; with the default they wait for it."""

    def exam_month(strictness: float) -> int:
        who = person(
            "n", level=3, skills={"networking": 3, "infiniband": 3, "nccl": 2}, weekly_study_hours=10
        )
        sc = scenario(
            people=[who],
            horizon_months=36,
            constraints={"deadline_month": 36, "prerequisite_strictness": strictness},
        )
        slot = _slot(sc, catalog, "infrastructure-lead")
        rm = build_roadmap(sc.people[0], slot.model_copy(update={"level_min": 3}), sc, catalog)
        return next(month_of(sc.start, i.start) for i in rm.items if i.ref == "ncp-aii" and i.kind == "exam")

    assert exam_month(0) <= 12
    assert exam_month(1) >= 25


def test_hires_get_onboarding_roadmaps(catalog, today):
    """The start-up hires everyone: each hire has a roadmap to the certifications its slot
    names, from its arrival, so the calendar is not empty."""
    sc = load_example("startup")
    p = plan(sc, catalog, today, runs=0)
    heads = sum(h.count for h in p.sourcing.hires)
    onboarding = [r for r in p.roadmaps if r.hire]
    assert len(onboarding) == heads > 0
    for h in p.sourcing.hires:
        mine = [r for r in onboarding if r.role == h.role]
        assert mine
    arrival = {
        h.role: min(x.arrival_month for x in p.sourcing.hires if x.role == h.role) for h in p.sourcing.hires
    }
    for r in onboarding:
        assert any(i.kind == "exam" for i in r.items)
        assert min(month_of(sc.start, i.start) for i in r.items) >= arrival[r.role or ""]
    lead = next(r for r in onboarding if r.role == "infrastructure-lead")
    assert {"nca-aiio", "ncp-aii"} <= {i.ref for i in lead.items if i.kind == "exam"}


def test_left_out_person_is_explained_when_the_role_is_hired(catalog, today):
    """Someone who could reach the network role only after the hire arrives is told so."""
    people = [
        person(
            f"ops{i}",
            level=2,
            experience_months=12,
            skills=OPS,
            certifications=[{"id": "nca-aiio", "earned": "2026-06-01"}],
        )
        for i in (1, 2)
    ]
    people.append(
        person("nia", background="network-engineer", level=1, skills={"networking": 3}, weekly_study_hours=6)
    )
    lead = person("lee", level=4, experience_months=36, skills=LEAD)
    sc = scenario(
        people=[*people, lead],
        horizon_months=24,
        constraints={"deadline_month": 6, "hiring_lead_time_months": 3, "contractors": {"available": False}},
    )
    p = plan(sc, catalog, today, runs=0)
    assert "nia" in p.sourcing.unassigned
    assert any(h.role == "network-specialist" for h in p.sourcing.hires)
    line = next(x for x in p.sourcing.explanation if x.startswith("Nia keeps"))
    assert "hires a Network Specialist" in line and "ready only in month" in line


def test_no_drift_back_to_contractors_at_the_end(catalog, today):
    """Demand grows late in the horizon: the plan hires for it (the terminal year prices the
    months after the horizon) instead of paying contractors to the end."""
    sc = scenario(
        people=[],
        horizon_months=12,
        mode="template",
        fleet={
            "gpus": [{"month": 1, "count": 64}, {"month": 9, "count": 400}],
            "interconnect": "infiniband",
            "storage": "nfs",
        },
        constraints={
            "deadline_month": 6,
            "hiring_lead_time_months": 2,
            "max_hires_per_month": 10,
            "contractors": {"available": True, "max_share": 1.0},
        },
    )
    p = plan(sc, catalog, today, runs=0)
    last = [n for n in p.sourcing.contractors if n.month == sc.horizon_months]
    assert not last, last
    assert p.sourcing.details.terminal_months == 12


def test_run_rate_is_the_steady_state(catalog, today):
    """The annual run rate is a year of the team at the end of the horizon: final payroll,
    final-month contractors, retention for every head, renewals per validity period."""
    sc = load_example("healthcare")
    p = plan(sc, catalog, today, runs=0)
    uplift = catalog.economics.overhead_multiplier * (1 + sc.retention.premium_pay)
    rms = {r.person: r for r in p.roadmaps}
    payroll = 0.0
    for q in sc.people:
        a = next((a for a in p.sourcing.assignments if a.person == q.id), None)
        level = max(a.level, rms[q.id].level_at_ready or 0) if a else q.level
        payroll += salary_at(q, level, sc, catalog)
    payroll += sum(h.count * catalog.levels[h.level].salary_usd.mid for h in p.sourcing.hires)
    line = next(x for x in p.costs.lines if x.category == "salaries")
    assert line.annual_run_rate == pytest.approx(payroll * uplift, abs=1)
    assert next(x for x in p.costs.lines if x.category == "training").annual_run_rate == 0
    hires_late = any(h.arrival_month > sc.horizon_months - 12 for h in p.sourcing.hires)
    assert hires_late  # the case where an average of the last twelve months understates


def test_finance_two_professionals_within_the_year_when_allowed(catalog, today):
    """Article §7A: "2 reached Professional within the first year". The specialists' slots
    are Level 2 (vendor support), their roles Level 3: the role's Professional certification
    is a goal after readiness, and with NCP-AII's experience as a recommendation only
    (strictness 0) both specialists sit a Professional exam within the 12-month horizon."""

    def professionals(strictness: float) -> set[str]:
        sc = load_example("finance")
        sc = sc.model_copy(
            update={"constraints": sc.constraints.model_copy(update={"prerequisite_strictness": strictness})}
        )
        p = plan(sc, catalog, today, runs=0)
        pro = {c.id for c in catalog.certifications.values() if c.level == 3}
        out = set()
        for r in p.roadmaps:
            for i in r.items:
                if i.kind == "exam" and i.ref in pro and month_of(sc.start, i.start) <= 12:
                    assert i.goal  # after readiness, not a condition of it
                    out.add(r.person)
        ready = {a.person: a.ready_month for a in p.sourcing.assignments}
        assert ready == {q.id: 6 for q in sc.people}  # goals never delay readiness
        return out

    assert len(professionals(0)) == 2
    assert len(professionals(1)) < 2  # NCP-AII waits for 24 months' experience


def test_goal_certifications_do_not_delay_readiness_in_the_simulation(catalog, today):
    """The risk simulation's exam retakes and course slippage apply to what readiness waits
    for, not to certifications pursued after it."""
    from gputeam.planning.risk import prepare

    lead = person("lee", level=4, experience_months=36, skills=LEAD, weekly_study_hours=4)
    sc = scenario(people=[lead], constraints={"deadline_month": 3, "hiring_lead_time_months": 2})
    p = plan(sc, catalog, today, runs=200)
    rm = next(r for r in p.roadmaps if r.person == "lee")
    assert any(i.goal and i.kind == "exam" for i in rm.items)
    x = prepare(sc, catalog, p.target, p.sourcing, p.roadmaps, p.costs)
    assert x.study_end_days[0] == 0 and 0 not in set(x.exam_unit.tolist())
