"""Catalog models: the data behind every default, each entry with its source.

Nothing here imports the rest of gputeam but its shared error types. Every entry carries
``source`` (where the figure comes from, e.g. ``article §4`` or a vendor page) and ``as_of``
(when it was true). Values that nobody has published are ``None``, never invented.
"""

from __future__ import annotations

from datetime import date
from functools import cached_property
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gputeam.errors import FieldConflicts
from gputeam.i18n import N_

#: "unknown role 'x'" and the like, one sentence per kind of reference (a language
#: declines the noun).
_UNKNOWN = {
    "skill domain": N_("unknown skill domain {name}"),
    "certification": N_("unknown certification {name}"),
    "course": N_("unknown course {name}"),
    "role": N_("unknown role {name}"),
}

Proficiency = int  # 0 none, 1 aware, 2 working, 3 proficient, 4 expert
NonNegative = Annotated[float, Field(ge=0)]
Share = Annotated[float, Field(ge=0, le=1)]
PROFICIENCY_NAMES = ("none", "aware", "working", "proficient", "expert")
#: Fleet features a skill domain's or a role's need can depend on (the scenario's fleet fields).
FleetFeature = Literal["interconnect", "storage", "cooling", "orchestration", "deployment"]
FleetCondition = dict[FleetFeature, tuple[str, ...]]


class Entry(BaseModel):
    """Base of every catalog entry: frozen, no unknown fields, sourced."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str = Field(min_length=1, description="Where the figure comes from.")
    as_of: date | None = Field(default=None, description="When the figure was true.")


class Range(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    low: float = Field(ge=0)
    high: float = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.low > self.high:
            raise ValueError(N_("low ({low}) is above high ({high})").format(low=self.low, high=self.high))
        return self

    @property
    def mid(self) -> float:
        return (self.low + self.high) / 2


class Level(Entry):
    number: int = Field(ge=1, le=5)
    name: str
    experience_months: Range = Field(description="Typical time in GPU infrastructure work.")
    competencies: tuple[str, ...]
    typical_certifications: tuple[str, ...] = ()
    salary_usd: Range
    us_salary: Range | None = Field(
        default=None,
        description="The US band (converted) a plan's regional band replaced (set by the planner).",
    )
    sfia_levels: tuple[int, ...] = Field(
        default=(), description="SFIA levels (1-7) by number only; SFIA's text is licensed."
    )


class SkillDomain(Entry):
    id: str
    name: str
    group: Literal[
        "foundation",
        "gpu",
        "fabric",
        "storage",
        "facilities",
        "operations",
        "platform",
        "security",
        "cloud",
        "performance",
    ]
    description: str = ""
    needed_when: FleetCondition = Field(
        default_factory=dict,
        description="Fleet features under which a role's need for this domain holds, e.g. "
        "{interconnect: [infiniband]}; every listed feature must match; empty: always.",
    )
    otherwise: str | None = Field(
        default=None,
        description="On a fleet where this domain is not needed, the domain a "
        "role needs instead (e.g. RoCE for InfiniBand); none: the need is dropped.",
    )
    fleet_note: str = Field(default="", description="Why the need depends on the fleet.")


class DomainGain(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    domain: str
    to: int = Field(ge=1, le=4, description="Proficiency reached (1-4).")


class Course(Entry):
    id: str
    name: str
    provider: str = "NVIDIA"
    hours: float | None = Field(ge=0)
    price_usd: float | None = Field(default=None, ge=0)
    grants: tuple[DomainGain, ...] = ()


class Exam(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    questions_min: int | None = Field(default=None, ge=0)
    questions_max: int | None = Field(default=None, ge=0)
    minutes: int | None = Field(default=None, ge=0)
    price_usd: float | None = Field(default=None, ge=0)
    hands_on: bool = False
    remote_proctored: bool | None = None
    domain_weights: dict[str, float] = Field(default_factory=dict)
    pass_probability: float | None = Field(default=None, ge=0, le=1)
    retake_wait_days: int | None = Field(default=None, ge=0)


class Certification(Entry):
    id: str
    name: str
    vendor: str
    level: int | None = Field(default=None, ge=1, le=5, description="Competency level it marks.")
    exam: Exam = Field(default_factory=Exam)
    validity_months: int | None = Field(default=None, ge=1)
    prerequisites: tuple[str, ...] = ()
    min_experience_months: int | None = Field(default=None, ge=0)
    study_hours: float | None = Field(
        default=None, ge=0, description="Self-study besides courses before the exam."
    )
    grants: tuple[DomainGain, ...] = ()
    available_from: date | None = Field(
        default=None,
        description="First day the exam can be taken (a programme announced before it "
        "opens); none: available now or date not published.",
    )


class TrainingPath(Entry):
    id: str
    name: str
    months: int = Field(ge=0)
    courses: tuple[str, ...]
    exam: str


class RoleNeed(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    domain: str
    proficiency: int = Field(ge=1, le=4)


class Role(Entry):
    id: str
    name: str
    level_min: int = Field(ge=1, le=5)
    level_max: int = Field(ge=1, le=5)
    domains: tuple[RoleNeed, ...]
    operations: bool = Field(default=False, description="Counts towards on-call rotation.")
    needed_when: FleetCondition = Field(
        default_factory=dict,
        description="Fleet features under which the role is staffed at all (as for skill "
        "domains); on another fleet its slots are left out of the target.",
    )
    fleet_note: str = Field(default="", description="Why the role depends on the fleet.")


class CountryBands(Entry):
    """Salary bands of one country, by level, in that country's currency. The US bands are the
    levels' own (``salary_usd``, article §3); a level left out has no published figure."""

    country: str = Field(min_length=2, max_length=2, description="ISO 3166-1 alpha-2 code.")
    currency: str = Field(min_length=3, max_length=3, description="ISO 4217 code of the bands.")
    levels: dict[int, Range] = Field(
        default_factory=dict, description="Level (1-5) to its annual salary band; none where unsourced."
    )


GpuVendor = Literal["nvidia", "amd", "intel"]


class GpuModel(Entry):
    """A GPU (accelerator) model: what the hardware brings to a plan."""

    id: str
    name: str
    aliases: tuple[str, ...] = Field(default=(), description="Other names a scenario may use.")
    vendor: GpuVendor
    generation: str = Field(description="Architecture generation (keys failure rates and skills).")
    tdp_w: float | None = Field(default=None, gt=0, description="The accelerator's rated power (W).")
    kw_per_gpu: float = Field(
        gt=0, le=20, description="Wall power per GPU with its server share, before PUE."
    )
    rack_scale: bool = Field(default=False, description="Sold as a rack-scale system (e.g. NVL72).")
    cooling: Literal["air", "liquid", "either"] = Field(description="How the model is cooled.")
    scale_up: str = Field(description="The scale-up interconnect between GPUs of a node or rack.")

    def matches(self, name: str) -> bool:
        """Whether a scenario's ``fleet.gpu_model`` names this model (case and spacing ignored)."""
        key = _gpu_key(name)
        return key in {_gpu_key(n) for n in (self.id, self.name, *self.aliases)}


class GpuVendorStack(Entry):
    """What a GPU vendor's hardware asks of the team: its software stack (a skill domain)
    and the vendor certifications that mark each competency level (article §3, §4, §10)."""

    id: GpuVendor
    name: str
    stack_domain: str = Field(description="The skill domain of the vendor's GPU software stack.")
    level_certifications: dict[int, tuple[str, ...]] = Field(
        default_factory=dict,
        description="Level (2-5) to the certifications, any one of which marks it; empty: "
        "the vendor has no public certification.",
    )
    network_certification: str | None = Field(
        default=None, description="The certification a network specialist prefers at a level."
    )
    replaces: dict[str, str | None] = Field(
        default_factory=dict,
        description="A template's (NVIDIA) certification to this vendor's equivalent; "
        "null: no equivalent, the requirement is dropped.",
    )
    certification_note: str = Field(
        default="", description="What the plan says about this vendor's certifications."
    )


def _gpu_names(models: dict[str, GpuModel]) -> dict[str, GpuModel]:
    """Each model's id, name and aliases as :meth:`GpuModel.matches` compares them (the
    first model wins a name two share)."""
    out: dict[str, GpuModel] = {}
    for g in models.values():
        for n in (g.id, g.name, *g.aliases):
            out.setdefault(_gpu_key(n), g)
    return out


RetentionLeverId = Literal["premium-pay", "equity", "stability-bonus", "career-track", "mentoring"]


class RetentionLever(Entry):
    """A retention lever (article §8): what it costs and the share of attrition it cuts."""

    id: RetentionLeverId
    name: str
    cost: float = Field(ge=0, le=1, description="Share of each person's salary a year, fully funded.")
    attrition_cut: float = Field(
        ge=0, le=1, description="Share by which the lever, fully funded, cuts each level's annual attrition."
    )


def _gpu_key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


class Slot(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    role: str
    count: int = Field(ge=0)
    level_min: int = Field(ge=1, le=5)
    level_max: int = Field(ge=1, le=5)


class Template(Entry):
    id: str
    name: str
    gpus: Range
    slots: tuple[Slot, ...]
    certifications: dict[str, tuple[tuple[str, ...], ...]] = Field(
        default_factory=dict,
        description="Role id to required certifications; each inner list is 'any one of'.",
    )
    certification_note: str = ""
    article_cost_usd: Range
    anchor_gpus: float | None = Field(
        default=None,
        gt=0,
        description="Fleet size at which the roster applies exactly; between two templates' "
        "anchors each role's count is interpolated on a log scale of GPUs (none: the top of "
        "the GPU range).",
    )
    anchor_note: str = Field(default="", description="Why the anchor sits where it does.")

    @property
    def anchor(self) -> float:
        return self.anchor_gpus if self.anchor_gpus is not None else self.gpus.high


class Strategy(Entry):
    id: str
    name: str
    weeks: Range | None = None
    cost_per_participant_usd: Range | None = None
    mentor_time_share: float | None = Field(default=None, ge=0, le=1)
    months: Range | None = None
    group_discount: Range | None = None
    group_min: int | None = Field(default=None, ge=1)
    description: str = ""


class Transition(Entry):
    background: str
    domain: str
    months: Range


class ManagedService(Entry):
    """What an operated (managed) service charges to run the team's slots (the ROI's
    ``managed-service`` alternative)."""

    markup_over_loaded_cost: float = Field(
        ge=0, description="A staffed slot's hourly price over the loaded hourly cost of its level."
    )
    per_gpu_month_usd: NonNegative | None = Field(
        default=None, description="Price per GPU in service a month, when the service is priced so."
    )


class Economics(Entry):
    contractor_rate_usd_h: float = Field(ge=0)
    employee_rate_usd_h: float = Field(ge=0)
    retention_premium: Range
    efficiency_gain: Range
    overhead_multiplier: float = Field(ge=1, description="Salary to fully loaded cost.")
    hours_per_fte_year: float = Field(gt=0, le=8760)
    hiring_cost_share: float = Field(ge=0, description="Recruiting cost as a share of salary.")
    ramp_up_months: float = Field(ge=0)
    leave_and_training_share: float = Field(
        ge=0, lt=1, description="Share of contracted hours lost to leave, sickness and training."
    )
    gpus_per_engineer_lean: float = Field(gt=0, description="Lean staffing density (GPUs per person).")
    gpus_per_engineer_vendor_supported: float = Field(
        gt=0, description="Lean density when a vendor support contract covers escalations."
    )
    oncall_hours_per_week: float = Field(ge=0, le=168, description="Hours a 24/7 rotation must cover.")
    shift_hours_per_week: float = Field(gt=0, le=168, description="Contracted hours a week per engineer.")
    course_cost_per_hour_usd: float = Field(ge=0, description="List price of course time.")
    practice_hours_per_step: float = Field(
        ge=0, description="Hands-on hours to raise a domain one proficiency step without a course."
    )
    contractor_hours_avoided_per_gpu_year: float = Field(ge=0)
    efficiency_power_share: float = Field(ge=0, le=1, description="Share of the power bill saved.")
    kw_per_gpu: float = Field(gt=0)
    pue: float = Field(ge=1)
    usd_per_kwh: float = Field(ge=0)
    downtime_cost_per_gpu_year: float = Field(ge=0)
    deployment_speedup_value_per_gpu: float = Field(ge=0)
    attrition_by_level: dict[int, Share]
    template_scale_exponent: dict[str, NonNegative] = Field(
        default_factory=dict, description="Per role: count grows as (GPUs/1000)^exponent."
    )
    managed_service: ManagedService | None = Field(
        default=None, description="The managed-service alternative's prices (the ROI)."
    )

    @property
    def hours_per_fte_month(self) -> float:
        """Contracted hours in one full-time month: the one home of ``hours_per_fte_year / 12``."""
        return self.hours_per_fte_year / 12


Automation = Literal["manual", "scripted", "self-healing"]


class SpecialistRule(BaseModel):
    """When a fleet gets dedicated specialists of one role, and how many."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: str
    when: FleetCondition = Field(default_factory=dict, description="Fleet features that must hold.")
    compliance: bool = Field(default=False, description="Only on a fleet with compliance regimes.")
    from_gpus: int = Field(ge=1, description="Fleet size from which the role is staffed at all.")
    gpus_per_person: float = Field(gt=0, description="Then one person per this many GPUs (rounded up).")
    per_site: int = Field(default=0, ge=0, description="At least this many per site.")


class WorkloadRates(Entry):
    """The work a fleet creates and the norms the team is sized from."""

    interruptions_per_gpu_year: dict[str, NonNegative | None] = Field(
        description="Unplanned interruptions per GPU-year by GPU generation (null: unknown)."
    )
    interruptions_source: str = Field(min_length=1, description="Where each generation's figure comes from.")
    fallback_generation: str = Field(description="Generation whose figure stands in for an unknown one.")
    hardware_share: Share = Field(description="Share of interruptions caused by hardware.")
    fabric_share: Share = Field(description="Share of interruptions in switches and cables.")
    hands_on_hours_per_interruption: NonNegative = Field(description="Follow-up hours per incident, by hand.")
    automation_factor: dict[Automation, Share] = Field(description="Hands-on hours kept, by automation.")
    maintenance_hours_per_gpu_year: NonNegative = Field(description="Planned maintenance, by hand.")
    hard_failures_per_gpu_year: NonNegative = Field(description="GPUs failing for good (hardware swaps).")
    hours_per_hard_failure: NonNegative = Field(description="On-site hours per hard failure.")
    on_site_hours_per_hardware_interruption: NonNegative = Field(
        description="On-site hours (reseat, swap, cable) per hardware interruption."
    )
    deployment_hours_per_gpu: NonNegative = Field(description="Project hours per new GPU, by hand.")
    refresh_years: float = Field(gt=0, description="Years after which a GPU is replaced (steady installs).")
    service_hours_per_site_week: NonNegative = Field(description="Fixed service work per site a week.")
    operational_share_cap: Share = Field(description="Largest share of an engineer's time on operations.")
    oncall_share_cap: Share = Field(description="Largest share of an engineer's time on call.")
    rotation_primary_secondary_one_site: int = Field(ge=1, description="Engineers for a one-site rotation.")
    rotation_per_site_multi_site: int = Field(ge=1, description="Engineers per site, multi-site rotation.")
    incidents_per_shift_max: float = Field(gt=0, description="Incidents one on-call engineer takes a shift.")
    secondary_from_pages_per_week: float = Field(ge=0, description="Pages a week from which a secondary.")
    technician_hands_on_share: Share = Field(description="Share of a technician's time on hands-on work.")
    technician_from_fte: NonNegative = Field(description="Technician work (FTE) from which one is staffed.")
    span_of_control: int = Field(ge=1, description="Engineers per lead.")
    specialists: tuple[SpecialistRule, ...] = ()


class RoiExample(Entry):
    gpus: int = Field(ge=1)
    engineers: int = Field(ge=1)
    investment: dict[str, NonNegative]
    returns: dict[str, NonNegative]
    stated_first_year: float
    stated_ongoing: float


CaseMeasureKind = Literal[
    "certified", "cost", "hires", "headcount", "staffed_share", "ready_month", "saving_vs_outsourced"
]


class CaseMeasure(Entry):
    """One outcome a case study states, as a figure a plan can be set beside.

    ``kind`` says what to read from the plan: ``certified`` people holding one of
    ``certifications`` by the end of plan month ``month``; ``cost`` the ``period`` total of
    the cost lines ``categories``; ``hires`` people hired at ``level`` arriving in months
    ``from_month``..``month``; ``headcount`` the target team in ``month``; ``staffed_share``
    the share of the target staff cover in ``month``; ``ready_month`` the month from which
    staff cover the whole target; ``saving_vs_outsourced`` 1 - the annual run rate / the
    same target fully outsourced.
    """

    id: str
    label: str = Field(description="What the article states, in a few words.")
    article: float = Field(description="The article's figure, in the kind's unit.")
    stated: str = Field(description="The figure as the article words it.")
    kind: CaseMeasureKind
    month: int | None = Field(default=None, ge=1)
    from_month: int = Field(default=1, ge=1)
    level: int | None = Field(default=None, ge=1, le=5)
    certifications: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    period: Literal["first_year", "horizon"] = "first_year"
    why: str = Field(description="Why a plan can differ from the article on this figure.")


class CaseStudy(Entry):
    id: str
    name: str
    summary: str
    outcomes: tuple[str, ...]
    measures: tuple[CaseMeasure, ...] = Field(
        default=(), description="The stated outcomes as figures a plan is compared with."
    )


class Contradiction(Entry):
    id: str
    title: str
    detail: str


class VendorTrack(Entry):
    vendor: str
    programme: str
    formal_certification: bool
    note: str


class Specialisation(Entry):
    id: str
    name: str


class Catalog(BaseModel):
    """The whole catalog, indexed by id."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: str
    levels: dict[int, Level]
    domains: dict[str, SkillDomain]
    courses: dict[str, Course]
    certifications: dict[str, Certification]
    paths: dict[str, TrainingPath]
    roles: dict[str, Role]
    templates: dict[str, Template]
    strategies: dict[str, Strategy]
    transitions: tuple[Transition, ...]
    economics: Economics
    roi_example: RoiExample
    case_studies: dict[str, CaseStudy]
    contradictions: dict[str, Contradiction]
    vendor_tracks: tuple[VendorTrack, ...]
    specialisations: tuple[Specialisation, ...]
    gpu_models: dict[str, GpuModel] = Field(default_factory=dict)
    gpu_vendors: dict[str, GpuVendorStack] = Field(default_factory=dict)
    workload: WorkloadRates
    retention_levers: dict[str, RetentionLever] = Field(default_factory=dict)
    salary_bands: dict[str, CountryBands] = Field(
        default_factory=dict, description="Salary bands by country (ISO 3166-1 alpha-2)."
    )

    def gpu_model(self, name: str) -> GpuModel | None:
        """The catalog's GPU model a scenario's ``fleet.gpu_model`` names, or None if unknown."""
        models, index = self._gpu_index
        if models is not self.gpu_models:  # a copy with other models: not this index
            index = _gpu_names(self.gpu_models)
        return index.get(_gpu_key(name))

    @cached_property
    def _gpu_index(self) -> tuple[dict[str, GpuModel], dict[str, GpuModel]]:
        """The GPU models and their index by name, built once per catalog: the planner asks
        for the fleet's model for every roadmap."""
        return self.gpu_models, _gpu_names(self.gpu_models)

    @model_validator(mode="after")
    def _references(self) -> Catalog:
        problems: list[tuple[tuple[str | int, ...], str, str | None]] = []

        def unknown(path: tuple[str | int, ...], what: str, value: str) -> None:
            problems.append((path, _UNKNOWN[what].format(name=repr(value)), repr(value)))

        for c in self.courses.values():
            for i, g in enumerate(c.grants):
                if g.domain not in self.domains:
                    unknown(("courses", c.id, "grants", i, "domain"), "skill domain", g.domain)
        for cert in self.certifications.values():
            for i, pre in enumerate(cert.prerequisites):
                if pre not in self.certifications:
                    unknown(("certifications", cert.id, "prerequisites", i), "certification", pre)
            for i, g in enumerate(cert.grants):
                if g.domain not in self.domains:
                    unknown(("certifications", cert.id, "grants", i, "domain"), "skill domain", g.domain)
        for p in self.paths.values():
            for i, course in enumerate(p.courses):
                if course not in self.courses:
                    unknown(("paths", p.id, "courses", i), "course", course)
            if p.exam not in self.certifications:
                unknown(("paths", p.id, "exam"), "certification", p.exam)
        for r in self.roles.values():
            for i, n in enumerate(r.domains):
                if n.domain not in self.domains:
                    unknown(("roles", r.id, "domains", i, "domain"), "skill domain", n.domain)
            if r.level_min > r.level_max:
                problems.append((("roles", r.id, "level_min"), N_("above level_max"), str(r.level_min)))
        for t in self.templates.values():
            for i, s in enumerate(t.slots):
                if s.role not in self.roles:
                    unknown(("templates", t.id, "slots", i, "role"), "role", s.role)
            for role, certs in t.certifications.items():
                if role not in self.roles:
                    unknown(("templates", t.id, "certifications", role), "role", role)
                for group in certs:
                    for cid in group:
                        if cid not in self.certifications:
                            unknown(("templates", t.id, "certifications", role), "certification", cid)
        for d in self.domains.values():
            if d.otherwise is not None and d.otherwise not in self.domains:
                unknown(("domains", d.id, "otherwise"), "skill domain", d.otherwise)
            seen, nxt = {d.id}, d.otherwise
            while nxt is not None and nxt in self.domains and nxt not in seen:
                seen.add(nxt)
                nxt = self.domains[nxt].otherwise
            if nxt is not None and nxt in seen:
                problems.append(
                    (
                        ("domains", d.id, "otherwise"),
                        N_("the 'otherwise' chain comes back to a domain already in it"),
                        repr(d.otherwise),
                    )
                )
        for i, rule in enumerate(self.workload.specialists):
            if rule.role not in self.roles:
                unknown(("workload", "specialists", i, "role"), "role", rule.role)
        for cs in self.case_studies.values():
            for i, m in enumerate(cs.measures):
                for cid in m.certifications:
                    if cid not in self.certifications:
                        unknown(
                            ("case_studies", cs.id, "measures", i, "certifications"), "certification", cid
                        )
        for v in self.gpu_vendors.values():
            if v.stack_domain not in self.domains:
                unknown(("gpu_vendors", v.id, "stack_domain"), "skill domain", v.stack_domain)
            named = [c for certs in v.level_certifications.values() for c in certs]
            named += [c for pair in v.replaces.items() for c in pair if c is not None]
            if v.network_certification is not None:
                named.append(v.network_certification)
            for cid in named:
                if cid not in self.certifications:
                    unknown(("gpu_vendors", v.id), "certification", cid)
        for i, tr in enumerate(self.transitions):
            if tr.domain not in self.domains:
                unknown(("transitions", i, "domain"), "skill domain", tr.domain)
        if set(self.levels) != {1, 2, 3, 4, 5}:
            problems.append((("levels",), N_("levels must be exactly 1-5"), str(sorted(self.levels))))
        if problems:
            raise FieldConflicts(problems)
        return self

    def level_for_salary(self, salary: float) -> int:
        for n in sorted(self.levels):
            if salary <= self.levels[n].salary_usd.high:
                return n
        return 5
