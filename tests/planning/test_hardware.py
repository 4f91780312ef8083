"""The hardware matters (issue 18 items 4 and 6): the fleet's GPU models drive power,
skills and certifications, and experience accrues only while GPUs run."""

from __future__ import annotations

from datetime import date
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.hardware import experience_month, kw_per_gpu, level_certifications
from gputeam.planning.power import power_bill_per_gpu_year
from gputeam.planning.result import TargetSlot
from gputeam.planning.roadmap import build_roadmap
from gputeam.planning.sizing import size

from .helpers import person, scenario

CATALOG = load_catalog()
TODAY = date(2026, 12, 2)
NVIDIA_CERTS = {c.id for c in CATALOG.certifications.values() if c.vendor == "NVIDIA"}
AMD_MODELS = [m.name for m in CATALOG.gpu_models.values() if m.vendor == "amd"]


def fleet_plan(model: str, people: int = 4, gpus: int = 256, **fleet: Any) -> Any:
    sc = scenario(
        fleet={"gpu_model": model, "gpus": [{"month": 1, "count": gpus}], **fleet},
        people=[person(f"p{i}", level=2, experience_months=12) for i in range(people)],
    )
    return plan(sc, CATALOG, TODAY, runs=0)


def exams(p: Any) -> set[str]:
    return {i.ref for r in p.roadmaps for i in r.items if i.kind in ("exam", "renewal")}


def test_gb200_power_is_its_own_not_the_h100_default() -> None:
    """GB200 NVL72 draws 1.8 kW a GPU (rack about 130 kW / 72), not the 1.3 kW default."""
    sc = scenario(fleet={"gpu_model": "GB200 NVL72"})
    assert kw_per_gpu(sc, CATALOG) == 1.8
    h100 = scenario(fleet={"gpu_model": "H100"})
    assert power_bill_per_gpu_year(sc, CATALOG) > power_bill_per_gpu_year(h100, CATALOG)
    assert kw_per_gpu(scenario(fleet={"gpu_model": "GB200", "kw_per_gpu": 2.2}), CATALOG) == 2.2


def test_an_unknown_model_warns_and_keeps_the_default() -> None:
    p = fleet_plan("TPU v5p", people=1)
    w = next(w for w in p.warnings if w.code == "unknown-gpu-model")
    assert "TPU v5p" in w.message and "1.3 kW" in w.message
    assert kw_per_gpu(p.scenario, CATALOG) == CATALOG.economics.kw_per_gpu


def test_models_give_different_plans() -> None:
    """H100, GB200 NVL72, MI300X and Gaudi 3 no longer give identical plans."""
    plans = {m: fleet_plan(m) for m in ("H100", "GB200 NVL72", "MI300X", "Gaudi 3")}
    needs = {
        m: (
            frozenset(d for s in p.target.at(1).slots for d in s.domains),
            frozenset(c.domain for c in p.target.at(1).coverage),
            frozenset(exams(p)),
        )
        for m, p in plans.items()
    }
    assert len(set(needs.values())) == 4, needs


def test_amd_fleet_takes_the_rocm_path() -> None:
    p = fleet_plan("MI300X")
    assert not exams(p) & NVIDIA_CERTS
    assert "rocm-associate" in exams(p)
    assert all("cuda-drivers" not in s.domains for s in p.target.at(1).slots)
    assert any("rocm" in s.domains for s in p.target.at(1).slots)
    assert level_certifications(CATALOG, p.scenario.fleet).at(2) == ("rocm-associate",)
    w = next(w for w in p.warnings if w.code == "gpu-vendor-certifications")
    assert "13 July 2026" in w.message


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    model=st.sampled_from(AMD_MODELS),
    gpus=st.sampled_from([32, 256, 2048]),
    mode=st.sampled_from(["template", "lean"]),
    vendor_support=st.booleans(),
)
def test_amd_only_fleets_hold_no_nvidia_certification(
    model: str, gpus: int, mode: str, vendor_support: bool
) -> None:
    """Rule: "an AMD-only fleet's roadmaps hold no NVIDIA certification" and its target
    slots require none."""
    sc = scenario(
        mode=mode,
        fleet={"gpu_model": model, "gpus": [{"month": 1, "count": gpus}], "vendor_support": vendor_support},
        people=[person("a", level=1), person("b", level=3, experience_months=30)],
    )
    p = plan(sc, CATALOG, TODAY, runs=0)
    assert not exams(p) & NVIDIA_CERTS
    required = {c for tm in p.target.months for s in tm.slots for g in s.certifications for c in g}
    assert not required & NVIDIA_CERTS


def test_gaudi_fleet_says_no_certification_exists() -> None:
    p = fleet_plan("Gaudi 3")
    assert not exams(p) & NVIDIA_CERTS
    w = next(w for w in p.warnings if w.code == "gpu-vendor-certifications")
    assert "no public Gaudi certification" in w.message
    assert any("gaudi-software" in s.domains for s in p.target.at(1).slots)
    courses = {i.ref for r in p.roadmaps for i in r.items if i.kind == "course"}
    courses |= {c for r in p.roadmaps for i in r.items if i.kind == "bootcamp" for c in i.note.split(",")}
    assert "gaudi-software-essentials" in courses


def test_rack_scale_needs_liquid_cooling_and_nvlink_switch_skills() -> None:
    """A GB200 NVL72 fleet needs liquid cooling even where fleet.cooling is left at air,
    and NVLink switch / rack-scale skills; in the cloud the provider runs both."""
    p = fleet_plan("GB200 NVL72", sites=2)
    cover = {c.domain: c for c in p.target.at(1).coverage}
    assert cover["nvlink-rack-scale"].people == 2 and cover["nvlink-rack-scale"].proficiency == 3
    assert "liquid-cooling" in cover
    assert "liquid-cooled-gpu-model" in {w.code for w in p.warnings}
    cloud = size(scenario(fleet={"gpu_model": "GB200 NVL72", "deployment": "cloud"}), CATALOG)
    assert not {c.domain for c in cloud.at(1).coverage} & {"nvlink-rack-scale", "liquid-cooling"}


def test_mixed_fleet_mixes_needs() -> None:
    """H100 + Gaudi 3: NVIDIA's stack and certifications in the roles, Intel's Gaudi stack
    as a coverage need, and the plan says Gaudi has no certification."""
    p = fleet_plan("H100", gpu_models=["Gaudi 3"])
    slots = p.target.at(1).slots
    assert any("cuda-drivers" in s.domains for s in slots)
    cover = {c.domain for c in p.target.at(1).coverage}
    assert "gaudi-software" in cover
    assert "nca-aiio" in {c for s in slots for g in s.certifications for c in g}
    assert "gpu-vendor-certifications" in {w.code for w in p.warnings}
    assert kw_per_gpu(p.scenario, CATALOG) == (1.3 + 1.6) / 2


# ------------------------------------------------------------------ experience (item 6)
LEVEL2 = TargetSlot(role="operations-engineer", level_min=2, level_max=3, count=1, domains={})


@settings(max_examples=25, deadline=None)
@given(first=st.integers(min_value=1, max_value=14), access=st.none() | st.integers(1, 14))
def test_no_experience_accrues_before_the_first_gpu_month(first: int, access: int | None) -> None:
    """Rule: "no experience accrues before the first GPU month" (or before hands-on access
    to GPUs): a Level-1 person with no experience is ready for a Level-2 slot (6 months,
    article §3) no sooner than 6 months of GPU time after the GPUs (or the access) start."""
    gpus = (
        [{"month": 1, "count": 0}, {"month": first, "count": 64}]
        if first > 1
        else [{"month": 1, "count": 64}]
    )
    fleet: dict[str, Any] = {"gpus": gpus}
    if access is not None:
        fleet["gpu_access_from_month"] = access
    sc = scenario(horizon_months=36, fleet=fleet, people=[person("new", level=1, weekly_study_hours=8)])
    rm = build_roadmap(sc.people[0], LEVEL2, sc, CATALOG)
    begins = min(first, access) if access is not None else first
    assert rm.ready_month is not None
    assert rm.ready_month >= begins + 6 - 1
    assert rm.ready_month == max(begins + 6 - 1, rm.ready_month)
    assert experience_month(sc.fleet, 6) == begins + 5


def test_gpus_in_month_11_delay_readiness_and_say_so() -> None:
    """The issue's case: GPUs moved to month 11, people were still 'ready as Level 2 in
    month 6'. Now they are ready in month 16 (months 11-16) and a warning says why."""
    people = [person(f"p{i}", level=1, weekly_study_hours=6) for i in range(3)]
    late = scenario(
        horizon_months=24,
        fleet={"gpus": [{"month": 1, "count": 0}, {"month": 11, "count": 64}]},
        people=people,
        constraints={"deadline_month": 18},
    )
    p = plan(late, CATALOG, TODAY, runs=0)
    ready = [r.ready_month for r in p.roadmaps if not r.hire and r.role == "operations-engineer"]
    assert ready and all(m is not None and m >= 16 for m in ready), ready
    assert "gpus-arrive-late" in {w.code for w in p.warnings}


def test_exam_experience_waits_for_gpu_months() -> None:
    """NCP-AII asks for 24 months' experience: with GPUs only from month 7, an engineer
    with 12 months sits it no sooner than month 19 (12 more GPU months)."""
    slot = TargetSlot(
        role="senior-engineer", level_min=3, level_max=4, count=1, domains={}, certifications=(("ncp-aii",),)
    )
    sc = scenario(
        horizon_months=36,
        fleet={"gpus": [{"month": 1, "count": 0}, {"month": 7, "count": 64}]},
        people=[person("s", level=3, experience_months=12, weekly_study_hours=10)],
    )
    rm = build_roadmap(sc.people[0], slot, sc, CATALOG)
    exam = next(i for i in rm.items if i.kind == "exam" and i.ref == "ncp-aii")
    assert exam.start >= date(2028, 7, 1)  # start 2027-01-01 + 18 months (6 without GPUs)


@settings(max_examples=60, deadline=None)
@given(
    steps=st.lists(st.tuples(st.integers(1, 40), st.sampled_from([0, 0, 8, 64])), min_size=1, max_size=5),
    access=st.none() | st.integers(1, 40),
    first=st.integers(1, 30),
    months=st.integers(0, 30),
)
def test_experience_spans_agree_with_counting_month_by_month(
    steps: list[tuple[int, int]], access: int | None, first: int, months: int
) -> None:
    """The span arithmetic gives what counting each month with GPUs (or access) gives."""
    from gputeam.planning.hardware import experience_between, gains_experience
    from gputeam.scenario.models import Fleet

    by_month = dict(sorted(steps))
    fleet = Fleet(gpus=[{"month": m, "count": c} for m, c in by_month.items()], gpu_access_from_month=access)
    last = first + 40
    assert experience_between(fleet, first, last) == sum(
        1 for m in range(first, last + 1) if gains_experience(fleet, m)
    )
    counted, got = None, 0
    for m in range(first, first + 200):
        if months <= 0:
            counted = first - 1
            break
        got += gains_experience(fleet, m)
        if got >= months:
            counted = m
            break
    reached = experience_month(fleet, months, first)
    if counted is not None:
        assert reached == counted
    else:
        assert reached is None or reached >= first + 200
