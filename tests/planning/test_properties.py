"""Invariants of the planning pipeline over generated scenarios (Hypothesis)."""

from __future__ import annotations

from collections import Counter
from datetime import date

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.differences import differences

from gputeam.catalog import load_catalog
from gputeam.planning import Plan, plan
from gputeam.planning.calendar import add_months
from gputeam.scenario import Scenario, parse_scenario

CATALOG = load_catalog()
DOMAINS = sorted(CATALOG.domains)
TODAY = date(2026, 12, 2)
METHOD = "rule"  # the documented greedy rule; the optimiser has its own invariant tests


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    horizon = draw(st.integers(1, 30))
    months = sorted(draw(st.sets(st.integers(1, horizon), min_size=1, max_size=4)))
    counts = [draw(st.integers(0, 6000)) for _ in months]
    n = draw(st.integers(0, 12))
    people = []
    for i in range(n):
        level = draw(st.integers(1, 5))
        certs = []
        if draw(st.booleans()):
            certs.append(
                {
                    "id": draw(st.sampled_from(["nca-aiio", "cka", "comptia-linux-plus"])),
                    "earned": draw(st.dates(date(2022, 1, 1), date(2026, 12, 1))).isoformat(),
                }
            )
        people.append(
            {
                "id": f"p{i}",
                "name": f"P {i}",
                "level": level,
                "background": draw(st.sampled_from(["sysadmin", "network-engineer", "storage-admin"])),
                "experience_months": draw(st.integers(0, 80)),
                "skills": draw(st.dictionaries(st.sampled_from(DOMAINS), st.integers(0, 4), max_size=6)),
                "weekly_study_hours": draw(st.sampled_from([0, 1, 4, 10, 40])),
                "certifications": certs,
            }
        )
    data = {
        "organisation": "Generated",
        "start": "2027-01-01",
        "horizon_months": horizon,
        "mode": draw(st.sampled_from(["template", "lean"])),
        "fleet": {
            "gpus": [{"month": m, "count": c} for m, c in zip(months, counts, strict=True)],
            "interconnect": draw(st.sampled_from(["infiniband", "roce", "ethernet"])),
            "storage": draw(st.sampled_from(["nfs", "parallel-fs", "gpudirect-storage"])),
            "cooling": draw(st.sampled_from(["air", "liquid"])),
            "on_call_24x7": draw(st.booleans()),
            "vendor_support": draw(st.booleans()),
            "sites": draw(st.integers(1, 3)),
            "compliance": draw(st.sampled_from([[], ["HIPAA"]])),
        },
        "people": people,
        "constraints": {
            "deadline_month": draw(st.integers(1, horizon)),
            "hiring_lead_time_months": draw(st.integers(0, 6)),
            "max_hires_per_month": draw(st.integers(1, 5)),
            "strategies": draw(
                st.lists(
                    st.sampled_from(["bootcamp", "apprenticeship", "vendor", "internal"]),
                    min_size=1,
                    unique=True,
                )
            ),
            "contractors": {
                "available": draw(st.booleans()),
                "max_share": draw(st.sampled_from([0.0, 0.5, 1.0])),
            },
        },
    }
    return parse_scenario(data, "<generated>", catalog=CATALOG)


SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@SETTINGS
@given(scenarios())
def test_plan_invariants(sc: Scenario) -> None:
    p = plan(sc, CATALOG, TODAY, method=METHOD)
    c = sc.constraints
    # the target spans the horizon, month by month
    assert [m.month for m in p.target.months] == list(range(1, sc.horizon_months + 1))
    # "Each person gets at most one target"
    assigned = Counter(a.person for a in p.sourcing.assignments)
    assert all(v == 1 for v in assigned.values())
    assert set(assigned) | set(p.sourcing.unassigned) == {x.id for x in sc.people}
    target_roles = {s.role for m in p.target.months for s in m.slots}
    assert {a.role for a in p.sourcing.assignments} <= target_roles
    # "No hire arrives before its lead time"
    per_month: Counter[int] = Counter()
    for h in p.sourcing.hires:
        assert h.requisition_month >= 1
        assert h.arrival_month == h.requisition_month + c.hiring_lead_time_months
        per_month[h.requisition_month] += h.count
    assert all(v <= c.max_hires_per_month for v in per_month.values())
    # coverage is a share; contractors never exceed the cap
    assert all(0 <= x <= 1 for x in p.sourcing.coverage_by_month)
    hours_month = CATALOG.economics.hours_per_fte_year / 12
    for tm in p.target.months:
        used = sum(n.hours for n in p.sourcing.contractors if n.month == tm.month) / hours_month
        cap = c.contractors.max_share * tm.headcount if c.contractors.available else 0
        assert used <= cap + 1e-6
    _roadmap_invariants(p, sc)
    # costs are non-negative and add up
    assert all(x >= 0 for x in p.costs.by_month)
    assert abs(sum(p.costs.by_month) - p.costs.horizon) <= 1e-6 * max(1.0, p.costs.horizon) + 0.01


def _roadmap_invariants(p: Plan, sc: Scenario) -> None:
    people = {x.id: x for x in sc.people}
    for r in p.roadmaps:
        # a planned hire's onboarding roadmap: no certifications held, experience from arrival
        earned: dict[str, date] = {} if r.hire else {h.id: h.earned for h in people[r.person].certifications}
        for item in sorted(r.items, key=lambda i: i.start):
            assert item.start <= item.end
            if item.kind != "exam":
                continue
            cert = CATALOG.certifications[item.ref]
            # "No exam before its prerequisites"
            for pre in cert.prerequisites:
                assert pre in earned and earned[pre] < item.start + (item.end - item.start), (
                    r.person,
                    item.ref,
                    pre,
                )
            if cert.min_experience_months and not r.hire:
                short = cert.min_experience_months - people[r.person].experience_months
                if short > 0:
                    assert item.start >= add_months(sc.start, short)
            earned[item.ref] = item.start


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_plan_json_round_trips_and_is_deterministic(sc: Scenario) -> None:
    p = plan(sc, CATALOG, TODAY, method=METHOD)
    assert not differences(Plan.model_validate(p.to_json()), p)
    assert not differences(plan(sc, CATALOG, TODAY, method=METHOD).to_json(), p.to_json())
