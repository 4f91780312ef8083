"""The Plan: one immutable, JSON-serialisable result that every report renders.

Its JSON form (``Plan.model_dump(mode="json")``) is gputeam's stable contract; the schema
is published by ``gputeam schema plan``.
"""

from __future__ import annotations

from datetime import date
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gputeam.planning.text import Text
from gputeam.scenario import Scenario


class Result(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    #: (English field, its Text field): the English sentence is written from the Text when
    #: only the Text is given.
    _sentences: ClassVar[tuple[tuple[str, str], ...]] = ()

    @model_validator(mode="before")
    @classmethod
    def _english(cls, data: Any) -> Any:
        return _english_from(data, cls._sentences) if cls._sentences else data


def _english_from(data: Any, pairs: tuple[tuple[str, str], ...]) -> Any:
    """Fill each English sentence field from its :class:`Text` (given as ``name_text`` or
    ``text``) when only the Text is given: one source for both."""
    if not isinstance(data, dict):
        return data
    for english, text in pairs:
        t = data.get(text)
        if isinstance(t, Text) and not data.get(english):
            data = {**data, english: t.english()}
        elif isinstance(t, tuple | list) and t and not data.get(english):
            data = {**data, english: tuple(x.english() if isinstance(x, Text) else x for x in t)}
    return data


_TEXT = "The sentence as an English template and its parameters (translated where shown)."


# ---------------------------------------------------------------- sizing
class TargetSlot(Result):
    role: str
    level_min: int
    level_max: int
    count: int
    rule: str = Field(default="", description="The rule that produced this count, in plain words.")
    rule_text: Text | None = Field(default=None, description=_TEXT)
    _sentences = (("rule", "rule_text"),)
    domains: dict[str, int] = Field(description="Skill domain id to proficiency needed.")
    certifications: tuple[tuple[str, ...], ...] = Field(
        default=(), description="Required certifications; each inner list is 'any one of'."
    )


class DomainCover(Result):
    domain: str
    proficiency: int
    people: int = Field(description="How many people must hold it at that proficiency.")
    rule: str = ""
    rule_text: Text | None = Field(default=None, description=_TEXT)
    _sentences = (("rule", "rule_text"),)


class TargetMonth(Result):
    month: int
    date: date
    gpus: int
    basis: str = Field(description="Template id or 'lean'.")
    slots: tuple[TargetSlot, ...]
    coverage: tuple[DomainCover, ...] = ()

    @property
    def headcount(self) -> int:
        return sum(s.count for s in self.slots)


class Target(Result):
    mode: Literal["template", "lean"]
    months: tuple[TargetMonth, ...]
    assumptions: dict[str, float | str] = Field(
        description="Staffing-density and rotation assumptions used (GPUs per engineer ...)."
    )

    def at(self, month: int) -> TargetMonth:
        return self.months[min(max(month, 1), len(self.months)) - 1]


# ---------------------------------------------------------------- workload
class WorkloadMonth(Result):
    """The work the fleet creates in one plan month, and the staff it takes."""

    month: int
    date: date
    gpus: int
    interruptions: float = Field(description="Unplanned interruptions expected this month.")
    pages: float = Field(description="Interruptions that reach a person (after automation).")
    hardware_swaps: float = Field(description="Hard failures: GPUs or boards swapped for good.")
    incident_hours: float = Field(description="Hands-on follow-up hours of in-house staff.")
    maintenance_hours: float = Field(description="Planned maintenance hours.")
    deployment_hours: float = Field(description="Steady installation work (the refresh cycle).")
    service_hours: float = Field(description="Fixed service work of the sites.")
    rollout_hours: float = Field(description="Project hours for GPUs newly installed this month.")
    technician_hours: float = Field(description="On-site hardware hours (swaps, reseats, cables).")
    operations_fte: float = Field(description="Operations staff the month's work takes, at the cap.")
    technician_fte: float = Field(description="Data-centre technicians the on-site work takes.")


class WorkShare(Result):
    """Which roles absorb one kind of work, and why."""

    work: str
    roles: tuple[str, ...]
    note: str = ""
    note_text: Text | None = Field(default=None, description=_TEXT)
    _sentences = (("note", "note_text"),)


class Workload(Result):
    """The fleet's workload model: rates, month by month figures and who absorbs them."""

    gpu_model: str
    generation: str
    interruptions_per_gpu_year: float
    interruptions_source: str
    hardware_share: float
    automation: str
    automation_factor: float
    support_model: str
    own_hardware: bool = Field(description="Whether the team's own staff handle the hardware.")
    productive_hours_per_fte_year: float
    operational_share_cap: float
    months: tuple[WorkloadMonth, ...]
    absorbed_by: tuple[WorkShare, ...]
    source: str


# ---------------------------------------------------------------- gaps
class Fit(Result):
    person: str
    role: str
    score: float = Field(ge=0, le=1, description="0 (no fit) to 1 (ready now).")
    missing_domains: dict[str, int] = Field(description="Domain to proficiency still needed.")
    missing_certifications: tuple[str, ...]
    level_gap: int


class RoleGap(Result):
    role: str
    needed: int
    ready_now: int
    missing: int


class Gaps(Result):
    month: int = Field(description="The target month compared (the deadline).")
    roles: tuple[RoleGap, ...]
    domains: dict[str, int] = Field(
        description="Domain to the proficiency missing across the whole team (0 = covered)."
    )
    certifications: dict[str, int] = Field(description="Certification to holders missing.")
    fits: tuple[Fit, ...]


# ---------------------------------------------------------------- sourcing
class Assignment(Result):
    person: str
    role: str
    level: int
    ready_month: int
    reason: str = ""
    reason_text: Text | None = Field(default=None, description=_TEXT)
    _sentences = (("reason", "reason_text"),)
    promotion: int | None = Field(
        default=None,
        description="The level the person is promoted to in the ready month, "
        "when it is above their current one (they meet its experience and certifications); "
        "raises come only with a promotion.",
    )
    then_role: str | None = Field(
        default=None,
        description="The seat the person moves to at the start of ``move_month`` (the roadmap "
        "is for this later seat); None: they keep ``role`` to the end of the horizon.",
    )
    then_level: int | None = Field(default=None, description="The later seat's level.")
    move_month: int | None = Field(default=None, description="The month the move takes effect.")


class Placement(Result):
    """One seat a person holds over a run of months (people move at month boundaries)."""

    person: str
    role: str
    level: int = Field(description="The seat's level (the slot's minimum).")
    person_level: int = Field(description="The person's level while in the seat.")
    from_month: int
    to_month: int
    reason: str = ""
    reason_text: Text | None = Field(default=None, description=_TEXT)
    _sentences = (("reason", "reason_text"),)


class Hire(Result):
    role: str
    level: int
    count: int
    requisition_month: int
    arrival_month: int
    reason: str = ""
    reason_text: Text | None = Field(default=None, description=_TEXT)
    _sentences = (("reason", "reason_text"),)


class ContractorNeed(Result):
    month: int
    role: str
    level: int
    hours: float
    reason: str = ""
    reason_text: Text | None = Field(default=None, description=_TEXT)
    _sentences = (("reason", "reason_text"),)


class ConflictFixes(Result):
    """What makes an infeasible plan feasible, each found by re-solving."""

    deadline: int | None = Field(default=None, description="The earliest deadline month that works.")
    deadline_date: date | None = Field(
        default=None, description="The first day of that month, as a calendar date."
    )
    budget: float | None = Field(default=None, description="The smallest budget that works.")
    relax: tuple[str, ...] = Field(
        default=(), description="Constraint families whose removal alone makes a plan possible."
    )
    pairs: tuple[tuple[str, str], ...] = Field(
        default=(), description="Pairs to relax together when no single one is enough."
    )


class Conflict(Result):
    constraints: tuple[str, ...] = Field(description="The conflicting constraint families.")
    fixes: ConflictFixes
    violations: dict[str, float] = Field(
        description="Constraint family to its violation in the elastic plan shown."
    )


class SourcingDetails(Result):
    """How the sourcing was computed; empty for the greedy rule."""

    cost_basis: str = ""
    options: int = Field(default=0, description="Upskilling options the optimiser weighed.")
    solver: str | None = None
    greedy_open_slot_months: float | None = Field(
        default=None, description="Slot-months the greedy rule's plan leaves open."
    )
    start_delay_months: dict[str, int] = Field(
        default_factory=dict,
        description="Person id to the months their roadmap starts late (training capacity).",
    )
    terminal_months: int = Field(
        default=0,
        description="Months past the horizon the objective prices the final "
        "month's running cost for (the terminal year); 0: none.",
    )
    terminal_value: float | None = Field(
        default=None, description="That terminal cost of the plan (objective only)."
    )
    greedy_terminal_value: float | None = Field(
        default=None, description="The same for the greedy rule's plan."
    )
    conflict: Conflict | None = Field(default=None, description="Set when infeasible.")


class Sourcing(Result):
    method: str = Field(description="'rule' (simple documented rule), 'greedy' or 'mip'.")
    assignments: tuple[Assignment, ...]
    hires: tuple[Hire, ...]
    contractors: tuple[ContractorNeed, ...]
    unassigned: tuple[str, ...] = Field(description="People without a target role.")
    placements: tuple[Placement, ...] = Field(
        default=(),
        description="Who sits in which seat in which months, one sentence each (the seating "
        "rule: docs/optimiser.md).",
    )
    uncovered: tuple[str, ...] = Field(default=(), description="Slots left uncovered, explained.")
    coverage_by_month: tuple[float, ...] = Field(
        description="Share of target slots covered by staff (not contractors), per month."
    )
    explanation: tuple[str, ...] = ()
    explanation_texts: tuple[Text, ...] = Field(default=(), description=_TEXT)
    uncovered_texts: tuple[Text, ...] = Field(default=(), description=_TEXT)
    _sentences = (("explanation", "explanation_texts"), ("uncovered", "uncovered_texts"))
    total_cost: float | None = None
    greedy_cost: float | None = None
    mip_gap: float | None = None
    solve_seconds: float | None = None
    status: str = "ok"
    details: SourcingDetails = Field(default_factory=SourcingDetails)

    def ready_month(self, share: float = 1.0) -> int | None:
        """The first month from which staff cover at least ``share`` of the target's slots
        in every later month of the horizon (None: not within the horizon)."""
        ready: int | None = None
        for month, covered in enumerate(self.coverage_by_month, start=1):
            ready = (ready or month) if covered >= share - 1e-9 else None
        return ready


# ---------------------------------------------------------------- roadmaps
ItemKind = Literal["course", "bootcamp", "exam", "renewal", "practice", "apprenticeship"]


class RoadmapItem(Result):
    kind: ItemKind
    ref: str = Field(description="Catalog id (course, certification, domain ...).")
    name: str
    start: date
    end: date
    hours: float
    cost: float
    strategy: str | None = None
    note: str = ""
    note_text: Text | None = Field(default=None, description=_TEXT)
    name_text: Text | None = Field(default=None, description=_TEXT)
    _sentences = (("note", "note_text"), ("name", "name_text"))
    goal: bool = Field(
        default=False,
        description="A certification (or its courses) pursued "
        "after the person is ready for the role, not a condition of it.",
    )


class Roadmap(Result):
    person: str
    name: str
    name_text: Text | None = Field(default=None, description=_TEXT)
    role: str | None
    hire: bool = Field(default=False, description="A planned hire, not a current person.")
    items: tuple[RoadmapItem, ...]
    ready: date | None
    ready_month: int | None
    level_at_ready: int | None
    covers: tuple[str, ...] = Field(
        default=(),
        description="Skill domains this roadmap trains beyond the role, for the fleet's "
        "coverage needs (liquid cooling, a second vendor's stack ...).",
    )


class NeedCover(Result):
    """How one coverage need of the fleet (``TargetMonth.coverage``, at its peak over the
    horizon) is met: by whom, and how many people are still missing."""

    domain: str
    proficiency: int
    people: int = Field(description="How many people must hold it at that proficiency.")
    holders: tuple[str, ...] = Field(
        description="People and hires who hold it or reach it on their roadmap (ids)."
    )
    trained: tuple[str, ...] = Field(
        default=(), description="Of the holders: people whose roadmaps add it for this need."
    )
    missing: int = Field(ge=0, description="People still missing: named in a warning.")
    from_month: int | None = Field(
        default=None,
        description="Plan month from which enough people hold it (None: never within the horizon).",
    )
    rule: str = ""
    rule_text: Text | None = Field(default=None, description=_TEXT)
    _sentences = (("rule", "rule_text"),)


# ---------------------------------------------------------------- costs and ROI
class CostLine(Result):
    category: Literal["salaries", "hiring", "training", "exams", "contractors", "mentoring", "retention"]
    first_year: float
    horizon: float
    annual_run_rate: float


class TemplateCost(Result):
    template: str
    computed_low: float = Field(description="Sum of the salary bands' low ends over the roster.")
    computed_high: float
    article_low: float
    article_high: float


class Costs(Result):
    currency: str
    lines: tuple[CostLine, ...]
    first_year: float
    horizon: float
    annual_run_rate: float
    by_month: tuple[float, ...]
    outsourced_annual: float = Field(description="The same target covered fully by contractors, per year.")
    hours_per_fte_month: float = Field(
        description="Hours in one full-time month (the catalog's "
        "economics.hours_per_fte_year / 12), to turn contractor hours into FTEs."
    )
    template_comparison: tuple[TemplateCost, ...]


class RoiMonth(Result):
    """One plan month of the ROI's cash flow; ``investment`` and ``returns`` hold every line
    (zeros included) so the totals can be recomputed by hand."""

    month: int
    gpus: int = Field(description="GPUs in service that month.")
    coverage: float = Field(
        description="Share of the target that staff cover that month (0 before the first GPU)."
    )
    alternative_coverage: float = Field(
        description="The same share in the alternative (0 when it is fully outsourced)."
    )
    investment: dict[str, float] = Field(description="One-off building costs paid that month.")
    returns: dict[str, float] = Field(
        description="Costs avoided against the alternative, less the in-house run cost, plus "
        "operational benefits, that month."
    )
    filled: float = Field(
        default=0.0,
        description="Share of the target that someone runs in the plan that month: staff "
        "plus its contractors' full-time equivalents, at most 1 (0 before the first GPU).",
    )
    alternative_filled: float = Field(
        default=0.0, description="The same share in the alternative (1 for a managed service)."
    )
    cash_flow: float = Field(description="sum(returns) - sum(investment).")
    cumulative: float = Field(description="Cash flow summed from month 1 to this month.")
    discount_factor: float = Field(description="(1 + discount_rate) ** (-(month - 1) / 12).")


class RoiAlternative(Result):
    """The plan's ROI against one alternative (the ROI's side-by-side view)."""

    counterfactual: Literal["managed-service", "hire-only", "outsourced"]
    headline: bool = Field(description="The alternative `roi.counterfactual` picks.")
    investment: float
    returns: float
    return_lines: dict[str, float]
    net_roi: float | None
    benefit_cost_ratio: float | None
    payback_months: float | None
    npv: float | None
    reasons: dict[str, str] = Field(default_factory=dict)
    reason_texts: dict[str, Text] = Field(default_factory=dict, description=_TEXT)
    basis: str = ""
    basis_text: Text | None = Field(default=None, description=_TEXT)
    _sentences = (("basis", "basis_text"),)


class RoiRisk(Result):
    """NPV and net ROI across the Monte Carlo runs: each run's cost above (or below) the
    plan's own is taken off (or added to) the returns; the alternative's cost is held fixed."""

    runs: int
    npv_p10: float
    npv_p50: float
    npv_p90: float
    net_roi_p10: float | None
    net_roi_p50: float | None
    net_roi_p90: float | None
    mean_discount_factor: float = Field(
        description="The horizon's mean discount factor, applied to the extra cost (spread evenly)."
    )


class Roi(Result):
    basis: str = ""
    counterfactual: Literal["managed-service", "outsourced", "hire-only", "article"] = Field(
        description="What the plan is compared with; 'article' for the article's own example."
    )
    alternatives: tuple[RoiAlternative, ...] = Field(
        default=(), description="The plan against each alternative, the headline first."
    )
    return_reasons: dict[str, str] = Field(
        default_factory=dict, description="Return line to why it counts (or why it is zero)."
    )
    return_reason_texts: dict[str, Text] = Field(default_factory=dict, description=_TEXT)
    risk_adjusted: RoiRisk | None = Field(
        default=None, description="NPV and net ROI percentiles across the Monte Carlo runs."
    )
    investment: float = Field(description="Sum of investment_lines.")
    investment_lines: dict[str, float]
    returns: float = Field(description="Sum of return_lines: returns over the whole period.")
    return_lines: dict[str, float]
    annual_return: float = Field(
        description="Returns in the last 12 months of the horizon (annualised if shorter)."
    )
    net_roi: float | None = Field(
        description="(returns - investment) / investment, a fraction; None when undefined."
    )
    benefit_cost_ratio: float | None = Field(description="returns / investment; None when undefined.")
    payback_months: float | None = Field(
        description="Plan months until the cumulative cash flow turns non-negative for good "
        "(linear within the month); None when undefined or not within the horizon."
    )
    npv: float | None = Field(
        default=None, description="Net present value: sum of cash_flow x discount_factor."
    )
    discount_rate: float | None = None
    reasons: dict[str, str] = Field(
        default_factory=dict, description="Measure name to why it is None (undefined)."
    )
    months: tuple[RoiMonth, ...] = ()
    notes: tuple[str, ...] = ()
    note_texts: tuple[Text, ...] = Field(default=(), description=_TEXT)
    basis_text: Text | None = Field(default=None, description=_TEXT)
    reason_texts: dict[str, Text] = Field(default_factory=dict, description=_TEXT)
    _sentences = (("notes", "note_texts"), ("basis", "basis_text"))


# ---------------------------------------------------------------- risk
class CoverageBands(Result):
    p10: tuple[float, ...] = Field(
        description="Per month: staff coverage (people, not contractors) the worst 10 % of runs fall below."
    )
    p50: tuple[float, ...]
    p90: tuple[float, ...]


class CostPercentiles(Result):
    p10: float
    p50: float
    p90: float


class CostDrivers(Result):
    """Mean per run of what the simulation adds to (or saves on) the plan's own cost."""

    exam_retakes: float = Field(description="Fees of failed exam attempts taken again.")
    contractor_backfill: float = Field(
        description="Contractors covering slots left vacant by leavers, late hires or late "
        "readiness (0 when contractors are not allowed)."
    )
    recruiting: float = Field(description="Recruiting replacements for leavers.")
    salaries: float = Field(
        description="Change in salaries paid: negative while posts are vacant or hires arrive "
        "late, positive when hires arrive early."
    )


class BusFactor(Result):
    domain: str
    name: str = Field(default="", description="The skill domain's name in the catalog.")
    holders_now: int
    holders_by_month: tuple[int, ...] = Field(description="Median holders per month.")
    p_zero: float = Field(description="P(nobody holds it in some month from the deadline on).")


class Sensitivity(Result):
    """One bar of the ROI tornado: NPV and net ROI with one assumption at its low and high
    value, the team plan held fixed (:func:`gputeam.planning.roi.sensitivity`)."""

    assumption: str
    value: float = Field(description="The value the plan uses.")
    low_value: float
    high_value: float
    npv_low: float
    npv_high: float
    roi_low: float | None = Field(description="None where net ROI is undefined (no investment).")
    roi_high: float | None


class Risk(Result):
    """The Monte Carlo simulation of the plan (:mod:`gputeam.planning.risk`)."""

    runs: int
    seed: int
    deadline_month: int
    readiness_threshold: float = Field(
        description="Share of the deadline month's target slots that staff (people, not "
        "contractors) must cover for a run to count as ready."
    )
    p_ready_by_deadline: float = Field(
        description="Share of runs whose staff coverage in the deadline month reaches the "
        "threshold (contractors are not counted: see p_ready_with_contractors)."
    )
    p_ready_se: float = Field(
        default=0.0,
        description="Monte Carlo standard error of p_ready_by_deadline: sqrt(p (1 - p) / runs).",
    )
    p_fully_covered: float = Field(
        description="Share of runs whose staff cover every slot of the deadline month (100 %)."
    )
    contractor_share_at_deadline: float = Field(
        default=0.0, description="Share of the deadline month's target the plan covers with contractors."
    )
    contractor_coverage: tuple[float, ...] = Field(
        default=(), description="Per month: share of the target the plan covers with contractors."
    )
    p_ready_with_contractors: float | None = Field(
        default=None,
        description="Share of runs reaching the threshold when the planned contractors are "
        "counted beside staff (not readiness: its own line).",
    )
    budget: float | None = Field(default=None, description="constraints.budget, if any.")
    p_cost_within_budget: float | None = Field(
        default=None, description="Share of runs whose horizon cost is within the budget."
    )
    p_cost_within_budget_se: float | None = Field(
        default=None,
        description="Monte Carlo standard error of p_cost_within_budget: sqrt(p (1 - p) / runs).",
    )
    plan_cost_best_case: bool = Field(
        default=False,
        description="The plan's own cost is at or below the 10th percentile of the runs: a best case.",
    )
    coverage_bands: CoverageBands
    cost_percentiles: CostPercentiles
    mean_cost: float
    plan_cost: float = Field(description="The plan's own horizon cost (costs.horizon).")
    plan_cost_percentile: float = Field(
        description="Share of runs costing no more than the plan's own cost (0-1)."
    )
    cost_drivers: CostDrivers
    cost_samples: tuple[float, ...] = Field(description="The first runs' costs, for charts.")
    bus_factors: tuple[BusFactor, ...] = ()
    sensitivity: tuple[Sensitivity, ...] = ()


class Warning(Result):
    """Something about the user's plan to act on (a late hire, an open slot, a price unknown)."""

    code: str
    message: str = Field(default="", description="The sentence in English.")
    text: Text | None = Field(default=None, description=_TEXT)
    source: str | None = None
    _sentences = (("message", "text"),)


class Note(Result):
    """Background about the article's own figures (where they disagree, what a figure
    measures): nothing in the plan to fix."""

    code: str
    message: str = Field(default="", description="The sentence in English.")
    text: Text | None = Field(default=None, description=_TEXT)
    source: str | None = None
    _sentences = (("message", "text"),)


class CaseOutcome(Result):
    """One outcome a case study states, beside the plan's figure for it."""

    id: str
    label: str
    stated: str = Field(description="The figure as the article words it.")
    article: float
    plan: float | None = Field(description="The plan's figure (None: the plan has none).")
    unit: Literal["count", "money", "share", "month"]
    agrees: bool = Field(description="Within the tolerance of its unit (docs/planning.md).")
    reason: str = Field(default="", description="Why the plan differs, or that it agrees.")
    reason_text: Text | None = Field(default=None, description=_TEXT)
    _sentences = (("reason", "reason_text"),)
    source: str


class CaseStudyComparison(Result):
    id: str
    name: str
    source: str
    outcomes: tuple[CaseOutcome, ...]


class ReadinessCandidate(Result):
    """One candidate of the readiness-optimised plan: the cost-optimal plan (solved exactly)
    with staff, not contractors, covering the target from ``months_early`` months before the
    deadline (-1: the cheapest plan itself), plus one buffer slot on each of ``buffer_roles``."""

    months_early: int
    buffer_roles: tuple[str, ...] = ()
    feasible: bool
    cost: float | None = Field(default=None, description="The candidate plan's horizon cost.")
    expected_cost: float | None = Field(default=None, description="Mean cost over the SAA draws.")
    p_ready_saa: float | None = Field(default=None, description="P(ready) on the fixed SAA draws.")
    p_ready_validated: float | None = Field(default=None, description="P(ready) on fresh draws.")
    p_ready_validated_se: float | None = None


class ReadinessPlan(Result):
    """The plan optimised for ``constraints.target_p_ready`` beside the cheapest one (issue 19
    item 5): sample-average approximation over a bounded candidate set, validated on fresh
    draws (docs/optimiser.md, Readiness-optimised plan)."""

    target_p_ready: float
    saa_runs: int
    saa_seed: int
    validation_runs: int
    validation_seed: int
    candidates: tuple[ReadinessCandidate, ...]
    chosen: int | None = Field(description="Index of the chosen candidate; None: none reaches the target.")
    baseline_cost: float
    baseline_expected_cost: float
    baseline_p_ready: float = Field(description="The cheapest plan's P(ready), validated.")
    baseline_p_ready_se: float
    cost: float | None = None
    expected_cost: float | None = None
    p_ready_saa: float | None = None
    p_ready: float | None = Field(default=None, description="The chosen plan's P(ready), validated.")
    p_ready_se: float | None = None
    hires: tuple[Hire, ...] = ()
    assignments: tuple[Assignment, ...] = ()
    contractor_hours: float = 0.0
    changes: tuple[str, ...] = Field(default=(), description="What the chosen plan does differently.")
    changes_texts: tuple[Text, ...] = ()
    gap: str = Field(default="", description="The statistical gap, in words.")
    gap_text: Text | None = None
    solve_seconds: float = Field(description="Wall time of the candidates' solves and simulations.")
    _sentences = (("gap", "gap_text"),)


class Plan(Result):
    catalog_version: str
    generated_for: date = Field(description="The 'today' the plan was computed for.")
    scenario: Scenario = Field(description="The scenario the plan was computed from.")
    target: Target
    gaps: Gaps
    sourcing: Sourcing
    roadmaps: tuple[Roadmap, ...]
    costs: Costs
    roi: Roi
    risk: Risk | None = None
    warnings: tuple[Warning, ...] = Field(description="About this plan: act on these.")
    notes: tuple[Note, ...] = Field(
        default=(), description="About the article's own figures: background, not faults."
    )
    needs: tuple[NeedCover, ...] = Field(
        default=(), description="How each of the fleet's coverage needs is met (or not)."
    )
    needs_cost: float = Field(
        default=0.0,
        description="What the training for coverage needs adds to costs.horizon (decided "
        "after sourcing, so not in sourcing.total_cost).",
    )
    case_study: CaseStudyComparison | None = Field(
        default=None,
        description="The article's stated outcomes beside the plan's, when the "
        "scenario models one of its case studies (scenario field case_study).",
    )
    workload: Workload | None = Field(
        default=None, description="The work the fleet creates month by month, and who absorbs it."
    )
    readiness_plan: ReadinessPlan | None = Field(
        default=None,
        description="With constraints.target_p_ready: the plan optimised for readiness "
        "beside this (the cheapest) one.",
    )

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @model_validator(mode="before")
    @classmethod
    def _roi_under_risk(cls, data: Any) -> Any:
        """The ROI's risk-adjusted view (NPV and net ROI at the simulation's cost percentiles,
        :func:`risk_adjusted`) filled in from ``risk`` when a plan is
        built from its parts and the ROI does not have it yet; a plan read from JSON keeps
        what it says."""
        if not isinstance(data, dict):
            return data
        roi, risk = data.get("roi"), data.get("risk")
        if isinstance(roi, Roi) and isinstance(risk, Risk) and roi.risk_adjusted is None:
            cp = risk.cost_percentiles
            view = risk_adjusted(roi, cp.p10, cp.p50, cp.p90, risk.plan_cost, risk.runs)
            data = {**data, "roi": roi.model_copy(update={"risk_adjusted": view})}
        return data


def risk_adjusted(
    roi: Roi, cost_p10: float, cost_p50: float, cost_p90: float, plan_cost: float, runs: int
) -> RoiRisk | None:
    """NPV and net ROI at the Monte Carlo cost percentiles: a run costing ``x`` more than the
    plan's own cost has ``x`` less returns (the alternative's cost held fixed), spread evenly
    over the horizon for the NPV (the horizon's mean discount factor). A dearer run has the
    lower NPV and ROI, so the NPV's 10th percentile is at the cost's 90th."""
    if not roi.months or roi.npv is None:
        return None
    d = sum(x.discount_factor for x in roi.months) / len(roi.months)

    def at(cost: float) -> tuple[float, float | None]:
        extra = cost - plan_cost
        net = (roi.returns - extra - roi.investment) / roi.investment if roi.investment > 0 else None
        return round(roi.npv - extra * d, 2) if roi.npv is not None else 0.0, net

    lo, mid, hi = at(cost_p90), at(cost_p50), at(cost_p10)
    return RoiRisk(
        runs=runs,
        npv_p10=lo[0],
        npv_p50=mid[0],
        npv_p90=hi[0],
        net_roi_p10=lo[1],
        net_roi_p50=mid[1],
        net_roi_p90=hi[1],
        mean_discount_factor=round(d, 8),
    )
