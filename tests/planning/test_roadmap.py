"""Roadmaps: prerequisites, experience, study rate, bootcamps, transitions, renewals."""

from __future__ import annotations

from datetime import date, timedelta

from tests.differences import differences

from gputeam.planning.calendar import add_months, month_of
from gputeam.planning.result import RoadmapItem, TargetSlot
from gputeam.planning.roadmap import build_roadmap, certs_needed

from .helpers import person, scenario


def slot(role="operations-engineer", lmin=2, lmax=3, domains=None, certs=(("nca-aiio",),)):
    return TargetSlot(
        role=role,
        level_min=lmin,
        level_max=lmax,
        count=1,
        rule="test",
        domains=domains or {"linux": 2},
        certifications=certs,
    )


def test_professional_needs_the_associate_first(catalog):
    order = certs_needed(slot(lmin=3, certs=(("ncp-aii",),)), set(), catalog)
    assert order.index("nca-aiio") < order.index("ncp-aii")


def test_exam_waits_for_courses_prerequisites_and_experience(catalog):
    sc = scenario(people=[person("ana", experience_months=6, weekly_study_hours=10, skills={"linux": 3})])
    rm = build_roadmap(sc.people[0], slot(lmin=3, certs=(("ncp-aii",),)), sc, catalog)
    exams = {i.ref: i for i in rm.items if i.kind == "exam"}
    assert exams["nca-aiio"].start < exams["ncp-aii"].start
    # NCP-AII needs 24 months of experience: 6 now, so not before month 19
    assert exams["ncp-aii"].start >= add_months(sc.start, 18)
    foundation = catalog.paths["foundation"].courses
    last_course = max(i.end for i in rm.items if i.ref in foundation)
    assert exams["nca-aiio"].start >= last_course


def test_study_time_follows_weekly_hours(catalog):
    def span(hours_per_week):
        sc = scenario(
            people=[person("p", weekly_study_hours=hours_per_week)], constraints={"strategies": ["internal"]}
        )
        rm = build_roadmap(sc.people[0], slot(), sc, catalog)
        exam = next(i for i in rm.items if i.kind == "exam" and i.ref == "nca-aiio")
        return (exam.start - sc.start).days

    assert span(2) > span(4) > span(8)
    # 48 course hours + 10 h preparation at 8 h/week: about 7.25 weeks
    assert abs(span(8) - 58 / 8 * 7) <= 7


def test_bootcamp_replaces_professional_courses_when_allowed(catalog):
    s = slot(
        role="network-specialist",
        lmin=2,
        domains={"infiniband": 2, "storage-gds": 2, "cluster-ops": 3},
        certs=(),
    )
    allowed = scenario(people=[person("p")], constraints={"strategies": ["bootcamp", "internal"]})
    rm = build_roadmap(allowed.people[0], s, allowed, catalog)
    boot = [i for i in rm.items if i.kind == "bootcamp"]
    assert len(boot) == 1 and 15000 <= boot[0].cost <= 25000
    assert (boot[0].end - boot[0].start) <= timedelta(weeks=4)
    denied = scenario(people=[person("p")], constraints={"strategies": ["internal"]})
    rm2 = build_roadmap(denied.people[0], s, denied, catalog)
    assert not [i for i in rm2.items if i.kind == "bootcamp"]
    assert {"infiniband-for-ai", "storage-for-ai", "cluster-management"} <= {i.ref for i in rm2.items}


def test_foundation_path_is_never_a_bootcamp(catalog):
    sc = scenario(people=[person("p")], constraints={"strategies": ["bootcamp"]})
    rm = build_roadmap(sc.people[0], slot(), sc, catalog)
    assert {"fundamentals-dl", "intro-ai-infrastructure", "gpu-architecture-essentials"} <= {
        i.ref for i in rm.items if i.kind == "course"
    }


def test_network_engineer_transition_takes_six_months(catalog):
    """Article §2: network engineer to InfiniBand RDMA in 6-12 months."""
    sc = scenario(people=[person("n", background="network-engineer", skills={"networking": 3})])
    s = slot(role="network-specialist", lmin=1, domains={"infiniband": 3}, certs=())
    rm = build_roadmap(sc.people[0], s, sc, catalog)
    practice = [i for i in rm.items if i.kind == "practice" and i.ref == "infiniband"]
    assert practice and add_months(practice[0].start, 6) == practice[0].end
    assert rm.ready is not None and rm.ready >= practice[0].end


def test_held_certification_is_renewed_before_expiry(catalog):
    sc = scenario(
        horizon_months=24,
        people=[
            person(
                "r",
                level=2,
                experience_months=12,
                skills={"linux": 3},
                certifications=[{"id": "nca-aiio", "earned": "2025-06-01"}],
            )
        ],
    )
    rm = build_roadmap(sc.people[0], None, sc, catalog)
    ren = [i for i in rm.items if i.kind == "renewal"]
    assert len(ren) == 1
    assert ren[0].start == date(2027, 5, 1)  # one month before the 2-year expiry
    assert ren[0].cost == catalog.certifications["nca-aiio"].exam.price_usd


def test_level_two_needs_six_months_of_experience(catalog):
    sc = scenario(people=[person("x", weekly_study_hours=20, skills={"linux": 3})])
    rm = build_roadmap(sc.people[0], slot(), sc, catalog)
    assert rm.ready_month == 6 and rm.level_at_ready == 2
    assert month_of(sc.start, rm.ready) == 6


def test_no_study_time_means_no_roadmap(catalog):
    sc = scenario(people=[person("z", weekly_study_hours=0)])
    rm = build_roadmap(sc.people[0], slot(), sc, catalog)
    assert rm.ready is None and rm.ready_month is None


def test_fast_items_equal_validated_items(catalog):
    sc = scenario(people=[person("v", background="storage-admin")])
    rm = build_roadmap(
        sc.people[0],
        slot(role="storage-specialist", lmin=3, domains={"storage-gds": 3}, certs=(("ncp-aii",),)),
        sc,
        catalog,
    )
    assert rm.items
    for item in rm.items:
        assert not differences(RoadmapItem.model_validate(item.model_dump()), item)
