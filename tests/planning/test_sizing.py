"""Sizing: templates inside the article's ranges, scaling beyond, features, modes."""

from __future__ import annotations

import math

from gputeam.planning.sizing import oncall_people, size, size_for

from .helpers import scenario


def counts(tm):  # role -> count
    return {s.role: s.count for s in tm.slots}


def test_templates_apply_at_their_anchors(catalog):
    """Article §5 rosters hold exactly at each template's anchor (100, 1,000, 3,000 GPUs)
    and the small one below it; the basis names the article's range the count falls in."""
    for gpus, template, basis in (
        (50, "small", "small"),
        (100, "small", "small"),
        (1000, "medium", "medium"),
        (3000, "large", "large"),
    ):
        assert catalog.templates[template].anchor in (gpus, 100)
        sc = scenario(fleet={"gpus": [{"month": 1, "count": gpus}], "interconnect": "ethernet"})
        tm = size_for(sc, catalog, gpus, 1)
        expected = {s.role: s.count for s in catalog.templates[template].slots}
        assert counts(tm) == expected, (gpus, counts(tm))
        assert tm.basis == basis
        assert all(s.rule for s in tm.slots)


def test_small_template_is_four_people(catalog):
    sc = scenario(fleet={"gpus": [{"month": 1, "count": 64}], "interconnect": "ethernet"})
    assert size_for(sc, catalog, 64, 1).headcount == 4


def test_beyond_the_large_anchor_each_role_scales_by_its_exponent(catalog):
    sc = scenario(fleet={"gpus": [{"month": 1, "count": 8000}], "interconnect": "ethernet"})
    tm = size_for(sc, catalog, 8000, 1)
    large = catalog.templates["large"]
    exps = catalog.economics.template_scale_exponent
    for s in large.slots:
        assert counts(tm)[s.role] == math.floor(s.count * (8000 / large.anchor) ** exps[s.role] + 0.5)
    assert "scaled" in next(s.rule for s in tm.slots if s.role == "operations-engineer")


def test_between_anchors_each_role_follows_the_log_scale(catalog):
    """Between two anchors a role's count is a + (b - a) x log(g/A) / log(B/A), rounded."""
    small, medium = catalog.templates["small"], catalog.templates["medium"]
    sc = scenario(fleet={"gpus": [{"month": 1, "count": 500}], "interconnect": "ethernet"})
    got = counts(size_for(sc, catalog, 500, 1))
    share = math.log(500 / small.anchor) / math.log(medium.anchor / small.anchor)
    a = {s.role: s.count for s in small.slots}
    b = {s.role: s.count for s in medium.slots}
    for role in set(a) | set(b):
        x = a.get(role, 0) + (b.get(role, 0) - a.get(role, 0)) * share
        assert got.get(role, 0) == round(x), role


def test_headcount_never_falls_as_gpus_grow(catalog):
    previous = 0
    for gpus in (10, 50, 100, 300, 1000, 2000, 5000, 20000, 100000):
        sc = scenario(fleet={"gpus": [{"month": 1, "count": gpus}]})
        n = size_for(sc, catalog, gpus, 1).headcount
        assert n >= previous, gpus
        previous = n


def test_oncall_rotation_covers_168_hours(catalog):
    """Staffed 24/7 shifts cover 168 hours a week per site. Issue 18 moved this from
    on_call_24x7 (now a paged rotation) to support_model: staffed-24x7."""
    e = catalog.economics
    n = oncall_people(catalog)
    assert n * e.shift_hours_per_week * (1 - e.leave_and_training_share) >= 168
    assert (n - 1) * e.shift_hours_per_week * (1 - e.leave_and_training_share) < 168
    sc = scenario(fleet={"gpus": [{"month": 1, "count": 64}], "support_model": "staffed-24x7", "sites": 2})
    tm = size_for(sc, catalog, 64, 1)
    assert counts(tm)["operations-engineer"] == n * 2
    assert "24/7" in next(s.rule for s in tm.slots if s.role == "operations-engineer")
    paged = scenario(fleet={"gpus": [{"month": 1, "count": 64}], "on_call_24x7": True, "sites": 2})
    tm = size_for(paged, catalog, 64, 1)
    assert paged.fleet.support == "on-call"
    assert counts(tm)["operations-engineer"] == 4  # a primary-only rotation, on call 25% of the time
    assert "on-call rotation" in next(s.rule for s in tm.slots if s.role == "operations-engineer")


def test_fleet_features_add_specialists_and_skills(catalog):
    sc = scenario(
        fleet={
            "gpus": [{"month": 1, "count": 64}],
            "storage": "gpudirect-storage",
            "compliance": ["HIPAA"],
            "cooling": "liquid",
            "interconnect": "roce",
            "deployment": "hybrid",
        }
    )
    tm = size_for(sc, catalog, 64, 1)
    c = counts(tm)
    assert c["storage-specialist"] == 1 and c["security-specialist"] == 1
    net = next(s for s in tm.slots if s.role == "network-specialist")
    assert "roce-ethernet" in net.domains and "infiniband" not in net.domains
    covered = {d.domain for d in tm.coverage}
    assert {"liquid-cooling", "cloud"} <= covered


def test_lean_mode_matches_the_case_studies(catalog):
    """Article §7B: 5 people for 400 GPUs; §7A: 5 engineers for 500 H100s with vendor support
    (on the case's parallel file system, which has its storage specialist: issue 18 sizes
    specialists by fabric and storage, no longer from a flat GPUs-per-person ratio)."""
    health = scenario(mode="lean", fleet={"gpus": [{"month": 1, "count": 400}], "interconnect": "roce"})
    assert size_for(health, catalog, 400, 1).headcount == 5
    fin = scenario(
        mode="lean",
        fleet={"gpus": [{"month": 1, "count": 500}], "vendor_support": True, "storage": "parallel-fs"},
    )
    tm = size_for(fin, catalog, 500, 1)
    assert tm.headcount == 5
    assert all(s.level_min == 2 for s in tm.slots)


def test_target_follows_the_gpu_schedule(catalog):
    sc = scenario(
        fleet={"gpus": [{"month": 1, "count": 0}, {"month": 4, "count": 64}, {"month": 9, "count": 600}]}
    )
    t = size(sc, catalog)
    assert len(t.months) == 12
    assert t.at(1).headcount == 0 and t.at(4).headcount == 4
    assert t.at(9).headcount == size_for(sc, catalog, 600, 9).headcount > 4
    assert [m.month for m in t.months] == list(range(1, 13))
    assert t.assumptions["span_of_control"] == catalog.workload.span_of_control
