"""The packaged catalog holds the article's facts exactly as SEED_FACTS.md gives them
(§2-§10 and the contradictions), and --catalog-extra files add or override entries without
code, or are refused with a CatalogError that says where."""

from __future__ import annotations

import copy
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.doc_paths import doc_paths
from typer.testing import CliRunner

from gputeam.catalog import SECTIONS, load_catalog
from gputeam.catalog.models import Catalog
from gputeam.cli.main import app
from gputeam.errors import CatalogError, InputError

CAT = load_catalog()


def rng(r: Any) -> tuple[float, float]:
    return (r.low, r.high)


# --- §3 levels --------------------------------------------------------------------------

LEVELS = {  # number: (name, experience months, salary band)
    1: ("Foundation", (0, 6), (75_000, 95_000)),
    2: ("Operational", (6, 12), (95_000, 125_000)),
    3: ("Professional", (12, 24), (125_000, 175_000)),
    4: ("Expert", (24, 48), (175_000, 250_000)),
}


@pytest.mark.parametrize("number", sorted(LEVELS))
def test_levels_and_bands(number: int) -> None:
    """§3: five levels with their experience and salary bands."""
    name, experience, band = LEVELS[number]
    level = CAT.levels[number]
    assert (level.name, rng(level.experience_months), rng(level.salary_usd)) == (name, experience, band)
    assert level.source.startswith("article §3")


def test_architect_level() -> None:
    """§3: Level 5 has 4+ years, $250-400k and no certification exists for it."""
    level = CAT.levels[5]
    assert level.name == "Architect"
    assert level.experience_months.low == 48
    assert rng(level.salary_usd) == (250_000, 400_000)
    assert level.typical_certifications == ()
    assert set(CAT.levels) == {1, 2, 3, 4, 5}


def test_level_certifications() -> None:
    """§3: Linux+ and the Fundamentals course at 1, NCA-AIIO at 2, NCP-AII and an NVIDIA
    networking certification at 3."""
    assert set(CAT.levels[1].typical_certifications) == {"comptia-linux-plus", "fundamentals-dl"}
    assert CAT.levels[2].typical_certifications == ("nca-aiio",)
    assert set(CAT.levels[3].typical_certifications) == {"ncp-aii", "ncp-ain"}


def test_sfia_mapping_is_numbers_only() -> None:
    """§2 of issue 2: levels map to SFIA 1-7 by number only, in order, covering 1-7."""
    seen = [n for lv in sorted(CAT.levels) for n in CAT.levels[lv].sfia_levels]
    assert seen == sorted(seen) and set(seen) == set(range(1, 8))
    data = Path(__file__).resolve().parent.parent / "src/gputeam/catalog/data/levels.yaml"
    assert "sfia_description" not in data.read_text("utf-8")


# --- §2 domains and transitions ---------------------------------------------------------


def test_skill_domains_cover_the_issue_list() -> None:
    names = " | ".join(d.name.lower() for d in CAT.domains.values())
    for words in (
        "linux",
        "networking",
        "gpu architecture",
        "cuda",
        "slurm",
        "kubernetes",
        "monitoring",
        "infiniband",
        "rdma",
        "roce",
        "ethernet",
        "nccl",
        "parallel file systems",
        "gpudirect storage",
        "liquid cooling",
        "mig",
        "virtualisation",
        "automation",
        "security",
        "cloud",
        "performance",
    ):
        assert words in names, words


def test_transitions() -> None:
    """§2: network engineer -> InfiniBand RDMA and storage admin -> parallel FS / GDS,
    6-12 months each."""
    found = {(t.background, t.domain): rng(t.months) for t in CAT.transitions}
    assert found[("network-engineer", "infiniband")] == (6, 12)
    assert found[("storage-admin", "storage-gds")] == (6, 12)


# --- §4 courses, paths, certifications -------------------------------------------------

COURSES = [
    ("fundamentals-dl", "Fundamentals of Deep Learning", 8),
    ("intro-ai-infrastructure", "Introduction to AI Infrastructure", 16),
    ("gpu-architecture-essentials", "GPU Architecture Essentials", 24),
    ("multi-gpu-programming", "Multi-GPU Programming", 40),
    ("infiniband-for-ai", "InfiniBand Networking for AI", 32),
    ("storage-for-ai", "Storage Systems for AI", 24),
    ("cluster-management", "Cluster Management", 40),
]


def test_seven_courses_with_hours() -> None:
    """The article's seven NVIDIA courses (§4), then the courses for other vendors' stacks,
    rack-scale systems and liquid cooling (issue 18), each from a provider of its own."""
    nvidia = [c for c in CAT.courses.values() if c.source == "article §4"]
    assert [(c.id, c.name, c.hours) for c in nvidia] == COURSES
    assert [c.hours for c in nvidia] == [8, 16, 24, 40, 32, 24, 40]
    others = {c.id: c.provider for c in CAT.courses.values() if c not in nvidia}
    assert others == {
        "rocm-certification-workshop": "AMD",
        "rocm-multi-gpu": "AMD",
        "gaudi-software-essentials": "Intel",
        "nvl72-rack-operations": "NVIDIA",
        "liquid-cooling-operations": "rack or CDU vendor",
    }


def test_paths() -> None:
    """§4: Foundation 3 months ending in NCA-AIIO; Professional 6 months ending in NCP-AII."""
    foundation, professional = CAT.paths["foundation"], CAT.paths["professional"]
    assert (foundation.months, foundation.courses, foundation.exam) == (
        3,
        tuple(c for c, _, _ in COURSES[:3]),
        "nca-aiio",
    )
    assert (professional.months, professional.courses, professional.exam) == (
        6,
        tuple(c for c, _, _ in COURSES[3:]),
        "ncp-aii",
    )


def test_certification_list() -> None:
    assert set(CAT.certifications) >= {
        "nca-aiio",
        "ncp-aii",
        "ncp-aio",
        "ncp-ain",
        "comptia-linux-plus",
        "cka",
        "rhce",
        "vcp-dcv",
        "aws-sa-pro",
        "azure-architect",
        "gcp-architect",
        "cissp",
        "ccsp",
        "six-sigma",
    }


def test_nca_aiio_facts() -> None:
    """§4 and the vendor page: 50 questions, 60 minutes, remote, $125, valid 2 years,
    domains 40/38/22."""
    c = CAT.certifications["nca-aiio"]
    assert (c.exam.questions_min, c.exam.questions_max, c.exam.minutes) == (50, 50, 60)
    assert c.exam.price_usd == 125 and c.exam.remote_proctored is True
    assert c.validity_months == 24
    assert sorted(c.exam.domain_weights.values()) == [0.22, 0.38, 0.40]
    assert c.as_of is not None and "nvidia.com" in c.source


def test_ncp_aii_facts() -> None:
    """§4: the Associate is a prerequisite plus documented experience; valid 2 years;
    vendor: 70-75 questions, 120 minutes, $400."""
    c = CAT.certifications["ncp-aii"]
    assert c.prerequisites == ("nca-aiio",)
    assert c.min_experience_months is not None and c.min_experience_months >= 24
    assert c.validity_months == 24
    assert (c.exam.questions_min, c.exam.questions_max, c.exam.minutes, c.exam.price_usd) == (
        70,
        75,
        120,
        400,
    )


def test_ncp_aio_and_cka_facts() -> None:
    aio = CAT.certifications["ncp-aio"]
    assert (aio.exam.questions_min, aio.exam.minutes, aio.exam.price_usd, aio.exam.hands_on) == (
        30,
        120,
        500,
        True,
    )
    cka = CAT.certifications["cka"]
    assert (cka.exam.minutes, cka.exam.hands_on, cka.validity_months) == (120, True, 24)


def test_unknown_figures_are_null_not_invented() -> None:
    """Nobody publishes NCP-AIN's exam format in the article: the catalog says null."""
    ain = CAT.certifications["ncp-ain"]
    assert ain.exam.questions_min is None and ain.exam.minutes is None
    assert ain.exam.price_usd is None


# --- §5 templates -----------------------------------------------------------------------

TEMPLATES = {
    "small": (
        (10, 100),
        (450_000, 550_000),
        [("infrastructure-lead", 1, 4, 4), ("operations-engineer", 2, 2, 3), ("network-specialist", 1, 3, 3)],
    ),
    "medium": (
        (100, 1000),
        (1_200_000, 1_600_000),
        [
            ("infrastructure-architect", 1, 5, 5),
            ("senior-engineer", 2, 4, 4),
            ("operations-engineer", 4, 2, 3),
            ("network-specialist", 2, 3, 4),
            ("storage-specialist", 1, 3, 3),
        ],
    ),
    "large": (
        (1000, None),
        (3_500_000, 4_500_000),
        [
            ("infrastructure-architect", 2, 5, 5),
            ("senior-engineer", 4, 4, 4),
            ("operations-engineer", 8, 2, 3),
            ("network-specialist", 3, 3, 4),
            ("storage-specialist", 2, 3, 4),
            ("performance-engineer", 2, 4, 4),
            ("security-specialist", 1, 4, 4),
        ],
    ),
}


@pytest.mark.parametrize("tid", sorted(TEMPLATES))
def test_templates(tid: str) -> None:
    gpus, cost, slots = TEMPLATES[tid]
    t = CAT.templates[tid]
    assert t.gpus.low == gpus[0] and (gpus[1] is None or t.gpus.high == gpus[1])
    assert rng(t.article_cost_usd) == cost
    assert [(s.role, s.count, s.level_min, s.level_max) for s in t.slots] == slots
    assert t.source == "article §5"


def test_template_headcounts() -> None:
    assert [sum(s.count for s in CAT.templates[t].slots) for t in ("small", "medium", "large")] == [4, 10, 22]


def test_eight_roles() -> None:
    """The article's eight template roles (§5), and issue 18's two on-premises hardware roles."""
    hardware = {"datacenter-technician", "facilities-engineer"}
    assert len(CAT.roles) == 10 and hardware <= set(CAT.roles)
    assert set(CAT.roles) - hardware == {s.role for t in CAT.templates.values() for s in t.slots}


def test_template_certifications_by_scale() -> None:
    """§5: small - Professional for the lead, Associate for operations, networking for the
    network specialist; medium adds CKA, RHCE, VCP-DCV; large adds cloud architect,
    CISSP or CCSP, Six Sigma."""

    def certs(tid: str) -> set[str]:
        return {c for groups in CAT.templates[tid].certifications.values() for g in groups for c in g}

    small = CAT.templates["small"].certifications
    assert small["infrastructure-lead"] == (("ncp-aii",),)
    assert small["operations-engineer"] == (("nca-aiio",),)
    assert small["network-specialist"] == (("ncp-ain",),)
    assert {"cka", "rhce", "vcp-dcv"} <= certs("medium") - certs("small")
    assert {"aws-sa-pro", "azure-architect", "gcp-architect", "cissp", "ccsp", "six-sigma"} <= certs(
        "large"
    ) - certs("medium")
    assert ("cissp", "ccsp") in CAT.templates["large"].certifications["security-specialist"]


@pytest.mark.parametrize(
    ("tid", "low", "high"),
    [("small", 490_000, 775_000), ("medium", 1_355_000, 2_275_000), ("large", 3_110_000, 5_200_000)],
)
def test_bands_over_rosters_give_the_seed_totals(tid: str, low: int, high: int) -> None:
    """Contradiction 1: the §3 bands summed over the §5 rosters."""
    t = CAT.templates[tid]
    assert sum(s.count * CAT.levels[s.level_min].salary_usd.low for s in t.slots) == low
    assert sum(s.count * CAT.levels[s.level_max].salary_usd.high for s in t.slots) == high


# --- §6 strategies, §8-§9 economics, §9 ROI, §7 cases, §10 landscape -------------------


def test_strategies() -> None:
    s = CAT.strategies
    assert set(s) == {"bootcamp", "apprenticeship", "vendor", "internal"}
    assert rng(s["bootcamp"].weeks) == (2, 4)
    assert rng(s["bootcamp"].cost_per_participant_usd) == (15_000, 25_000)
    assert rng(s["apprenticeship"].months) == (3, 6)
    assert s["apprenticeship"].mentor_time_share == 0.2
    assert rng(s["vendor"].group_discount) == (0.5, 0.7)
    assert s["vendor"].group_min == 10
    assert all(x.source == "article §6" for x in s.values())


def test_economics() -> None:
    e = CAT.economics
    assert (e.contractor_rate_usd_h, e.employee_rate_usd_h) == (300, 70)
    assert rng(e.retention_premium) == (0.15, 0.25)
    assert rng(e.efficiency_gain) == (0.20, 0.30)
    assert e.efficiency_power_share == 0.15


def test_roi_example() -> None:
    ex = CAT.roi_example
    assert (ex.gpus, ex.engineers) == (100, 5)
    assert sorted(ex.investment.values()) == [20_000, 50_000, 75_000]
    assert sum(ex.investment.values()) == 145_000
    assert sorted(ex.returns.values()) == [75_000, 100_000, 200_000, 300_000]
    assert sum(ex.returns.values()) == 675_000
    assert (ex.stated_first_year, ex.stated_ongoing) == (3.65, 4.65)


def test_case_studies() -> None:
    assert set(CAT.case_studies) == {"finance", "healthcare", "startup"}
    assert "$180,000" in " ".join(CAT.case_studies["finance"].outcomes)
    assert "400 GPUs" in " ".join(CAT.case_studies["healthcare"].outcomes)


def test_landscape() -> None:
    tracks = {v.vendor: v for v in CAT.vendor_tracks}
    assert "ROCm 7.0" in tracks["AMD"].programme and "September 2025" in tracks["AMD"].programme
    assert tracks["AMD"].formal_certification is False
    assert "Gaudi" in tracks["Intel"].programme and tracks["Intel"].formal_certification is False
    assert tracks["NVIDIA"].formal_certification is True
    assert len(CAT.specialisations) == 4


def test_contradictions_present() -> None:
    c = CAT.contradictions
    assert set(c) >= {"team-totals", "roi-measures", "power-saving", "staffing-density", "titles"}
    assert "$490k-775k" in c["team-totals"].detail
    assert "4.655" in c["roi-measures"].detail and "365.5%" in c["roi-measures"].detail


# --- --catalog-extra --------------------------------------------------------------------


def test_override_economics_field_by_field() -> None:
    cat = load_catalog({"economics": {"contractor_rate_usd_h": 250}}, file="x.yaml")
    assert cat.economics.contractor_rate_usd_h == 250
    assert cat.economics.employee_rate_usd_h == 70
    assert load_catalog().economics.contractor_rate_usd_h == 300  # the packaged one is intact


def test_override_certification_keeps_other_fields() -> None:
    cat = load_catalog(
        {
            "certifications": [
                {
                    "id": "nca-aiio",
                    "exam": {"price_usd": 150},
                    "source": "vendor quote",
                    "as_of": "2026-11-01",
                }
            ]
        }
    )
    c = cat.certifications["nca-aiio"]
    assert (c.exam.price_usd, c.exam.questions_min, c.validity_months) == (150, 50, 24)
    assert (c.source, c.as_of) == ("vendor quote", date(2026, 11, 1))
    assert CAT.certifications["nca-aiio"].exam.price_usd == 125


def test_add_domain_course_certification_and_transition() -> None:
    cat = load_catalog(
        {
            "domains": [
                {
                    "id": "photonics",
                    "name": "Photonics",
                    "group": "fabric",
                    "source": "me",
                    "as_of": "2026-12-01",
                }
            ],
            "courses": [
                {
                    "id": "photonics-101",
                    "name": "Photonics 101",
                    "hours": 12,
                    "grants": [{"domain": "photonics", "to": 2}],
                    "source": "me",
                }
            ],
            "certifications": [
                {
                    "id": "acme-ops",
                    "name": "ACME Ops",
                    "vendor": "ACME",
                    "prerequisites": ["nca-aiio"],
                    "source": "me",
                }
            ],
            "transitions": [
                {
                    "background": "facilities",
                    "domain": "liquid-cooling",
                    "months": {"low": 3, "high": 6},
                    "source": "me",
                }
            ],
        }
    )
    assert cat.courses["photonics-101"].grants[0].domain == "photonics"
    assert cat.certifications["acme-ops"].prerequisites == ("nca-aiio",)
    assert len(cat.transitions) == len(CAT.transitions) + 1
    assert len(cat.courses) == len(CAT.courses) + 1


def test_extra_file_through_the_cli(tmp_path: Path) -> None:
    extra = tmp_path / "extra.yaml"
    extra.write_text("economics:\n  contractor_rate_usd_h: 123\n", "utf-8")
    result = CliRunner().invoke(
        app, ["catalog", "show", "economics", "--format", "json", "--catalog-extra", str(extra)]
    )
    assert result.exit_code == 0, result.output
    assert '"contractor_rate_usd_h": 123' in result.output


def _problems(extra: Any) -> list[Any]:
    with pytest.raises(CatalogError) as info:
        load_catalog(extra, file="extra.yaml")
    assert info.value.problems
    assert all(p.file == "extra.yaml" for p in info.value.problems)
    return list(info.value.problems)


@pytest.mark.parametrize(
    ("extra", "path"),
    [
        ({"economics": {"contractor_rate_usd_h": "lots"}}, "economics.contractor_rate_usd_h"),
        ({"economics": 5}, "economics"),
        ({"economics": {"retention_premium": {"low": 0.3, "high": 0.1}}}, "economics.retention_premium"),
        ({"certifications": [{"id": "nca-aiio", "bogus": 1}]}, "certifications.nca-aiio.bogus"),
        ({"certifications": [{"id": "new-x", "vendor": "v", "source": "s"}]}, "certifications.new-x.name"),
        ({"levels": [{"number": 6, "name": "Wizard"}]}, "levels.6.number"),
        ({"economicks": {"contractor_rate_usd_h": 1}}, "economicks"),
    ],
)
def test_bad_extra_names_the_path(extra: Any, path: str) -> None:
    assert path in [p.path for p in _problems(extra)]


@pytest.mark.parametrize(
    "extra",
    [
        {"levels": 5},
        {"transitions": 5},
        {"levels": [{"number": [1]}]},
        {"domains": [{"id": {"a": 1}}]},
    ],
    ids=["keyed-int", "appended-int", "list-key", "mapping-key"],
)
def test_wrongly_shaped_sections_are_catalog_errors(extra: Any) -> None:
    """A section of the wrong shape, or an id that is a list or mapping, is a CatalogError
    naming the section (not a TypeError from merging)."""
    section = next(iter(extra))
    assert any(p.path.startswith(section) for p in _problems(extra))


def test_unknown_section_hint() -> None:
    (p,) = _problems({"economicks": {}})
    assert p.hint == "did you mean 'economics'?"
    assert all(s in (p.expected or "") for s in SECTIONS)


def test_extra_must_be_a_mapping() -> None:
    _problems(["economics"])
    _problems({"certifications": "nca-aiio"})


def test_bad_reference_names_the_entry() -> None:
    """A dangling reference names the entry and the value, not the whole catalog."""
    (p,) = _problems(
        {
            "courses": [
                {"id": "c1", "name": "C", "hours": 3, "source": "s", "grants": [{"domain": "nope", "to": 2}]}
            ]
        }
    )
    assert p.path.startswith("courses.c1")
    assert p.found in (None, "'nope'")


def test_bad_reference_in_a_path() -> None:
    (p,) = _problems({"paths": [{"id": "foundation", "exam": "no-such-exam"}]})
    assert p.path == "paths.foundation.exam"
    assert "no-such-exam" in str(p)


def test_catalog_check_command(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text("certifications:\n  - id: ncp-aii\n    exam: {price_usd: 450}\n", "utf-8")
    bad.write_text("economics:\n  contractor_rate_usd_h: lots\n", "utf-8")
    runner = CliRunner()
    ok = runner.invoke(app, ["catalog", "check", str(good)])
    assert ok.exit_code == 0 and "ok" in ok.output
    ko = runner.invoke(app, ["catalog", "check", str(bad)])
    assert ko.exit_code == 2
    assert "economics.contractor_rate_usd_h" in ko.output and "'lots'" in ko.output


def test_catalog_model_refuses_wrong_levels() -> None:
    from gputeam.catalog.load import packaged_data

    raw = packaged_data()
    data = {**raw, "levels": raw["levels"][:4]}
    with pytest.raises(InputError):
        from gputeam.catalog import build

        build(data)
    assert isinstance(CAT, Catalog)


# --- property: mutated extra files ------------------------------------------------------

EXTRA = {
    "economics": {"contractor_rate_usd_h": 250, "retention_premium": {"low": 0.1, "high": 0.2}},
    "certifications": [
        {"id": "nca-aiio", "exam": {"price_usd": 150}, "source": "quote"},
        {
            "id": "acme",
            "name": "ACME",
            "vendor": "ACME",
            "source": "ours",
            "prerequisites": ["nca-aiio"],
            "grants": [{"domain": "linux", "to": 2}],
        },
    ],
    "levels": [{"number": 2, "salary_usd": {"low": 90000, "high": 120000}}],
    "courses": [
        {"id": "c1", "name": "C", "hours": 3, "source": "s", "grants": [{"domain": "linux", "to": 2}]}
    ],
    "paths": [{"id": "foundation", "months": 4}],
    "templates": [{"id": "small", "article_cost_usd": {"low": 1, "high": 2}}],
    "transitions": [
        {
            "background": "facilities",
            "domain": "liquid-cooling",
            "months": {"low": 3, "high": 6},
            "source": "ours",
        }
    ],
    "roi_example": {"gpus": 200},
}
JUNK = (
    st.none()
    | st.booleans()
    | st.integers(-10, 10**6)
    | st.floats()
    | st.text(max_size=8)
    | st.lists(st.integers(0, 3) | st.text(max_size=3), max_size=2)
    | st.dictionaries(st.text(max_size=5), st.integers(), max_size=2)
    | st.sampled_from(["nca-aiio", "linux", "small", 5, [1], {"a": 1}, {"low": 2, "high": 1}])
)


@st.composite
def mutated_extras(draw: st.DrawFn) -> Any:
    doc: Any = copy.deepcopy(EXTRA)
    for _ in range(draw(st.integers(1, 3))):
        paths = doc_paths(doc)
        if not paths:
            break
        *head, last = draw(st.sampled_from(paths))
        parent = doc
        for step in head:
            parent = parent[step]
        op = draw(st.sampled_from(["drop", "replace", "replace", "add-key"]))
        if op == "drop":
            del parent[last]
        elif op == "replace":
            parent[last] = draw(JUNK)
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["bogus", "economicks", "id", "number", "as_of"]))] = draw(JUNK)
    return doc


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_extras())
def test_mutated_extras_load_or_raise_catalog_error(extra: Any) -> None:
    """Rule: an extra file either patches the catalog or is refused with a CatalogError
    whose problems name the file and a path; nothing else escapes (no TypeError from
    merging oddly shaped sections)."""
    try:
        cat = load_catalog(extra, file="extra.yaml")
    except CatalogError as exc:
        assert exc.problems
        assert all(p.file == "extra.yaml" and isinstance(p.path, str) for p in exc.problems)
        assert all(str(p) for p in exc.problems)
        return
    assert set(cat.levels) == {1, 2, 3, 4, 5}
    assert load_catalog().economics.contractor_rate_usd_h == 300  # packaged data untouched
