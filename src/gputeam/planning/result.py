"""The Plan: one immutable, JSON-serialisable result that every report renders.

Its JSON form (``Plan.model_dump(mode="json")``) is gputeam's stable contract; the schema
is published by ``gputeam schema plan``.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Result(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ---------------------------------------------------------------- sizing
class TargetSlot(Result):
    role: str
    level_min: int
    level_max: int
    count: int
    rule: str = Field(description="The rule that produced this count, in plain words.")
    domains: dict[str, int] = Field(description="Skill domain id to proficiency needed.")
    certifications: tuple[tuple[str, ...], ...] = Field(
        default=(), description="Required certifications; each inner list is 'any one of'.")


class DomainCover(Result):
    domain: str
    proficiency: int
    people: int = Field(description="How many people must hold it at that proficiency.")
    rule: str


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
        description="Staffing-density and rotation assumptions used (GPUs per engineer ...).")

    def at(self, month: int) -> TargetMonth:
        return self.months[min(max(month, 1), len(self.months)) - 1]


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
        description="Domain to the proficiency missing across the whole team (0 = covered).")
    certifications: dict[str, int] = Field(description="Certification to holders missing.")
    fits: tuple[Fit, ...]


# ---------------------------------------------------------------- sourcing
class Assignment(Result):
    person: str
    role: str
    level: int
    ready_month: int
    reason: str
    promotion: int | None = Field(
        default=None, description="The level the person is promoted to in the ready month, "
        "when it is above their current one (they meet its experience and certifications); "
        "raises come only with a promotion.")


class Hire(Result):
    role: str
    level: int
    count: int
    requisition_month: int
    arrival_month: int
    reason: str


class ContractorNeed(Result):
    month: int
    role: str
    level: int
    hours: float
    reason: str


class ConflictFixes(Result):
    """What makes an infeasible plan feasible, each found by re-solving."""

    deadline: int | None = Field(default=None, description="The earliest deadline month that works.")
    budget: float | None = Field(default=None, description="The smallest budget that works.")
    relax: tuple[str, ...] = Field(
        default=(), description="Constraint families whose removal alone makes a plan possible.")
    pairs: tuple[tuple[str, str], ...] = Field(
        default=(), description="Pairs to relax together when no single one is enough.")


class Conflict(Result):
    constraints: tuple[str, ...] = Field(description="The conflicting constraint families.")
    fixes: ConflictFixes
    violations: dict[str, float] = Field(
        description="Constraint family to its violation in the elastic plan shown.")


class SourcingDetails(Result):
    """How the sourcing was computed; empty for the greedy rule."""

    cost_basis: str = ""
    options: int = Field(default=0, description="Upskilling options the optimiser weighed.")
    solver: str | None = None
    greedy_open_slot_months: float | None = Field(
        default=None, description="Slot-months the greedy rule's plan leaves open.")
    start_delay_months: dict[str, int] = Field(
        default_factory=dict,
        description="Person id to the months their roadmap starts late (training capacity).")
    terminal_months: int = Field(
        default=0, description="Months past the horizon the objective prices the final "
        "month's running cost for (the terminal year); 0: none.")
    terminal_value: float | None = Field(
        default=None, description="That terminal cost of the plan (objective only).")
    greedy_terminal_value: float | None = Field(
        default=None, description="The same for the greedy rule's plan.")
    conflict: Conflict | None = Field(default=None, description="Set when infeasible.")


class Sourcing(Result):
    method: str = Field(description="'rule' (simple documented rule), 'greedy' or 'mip'.")
    assignments: tuple[Assignment, ...]
    hires: tuple[Hire, ...]
    contractors: tuple[ContractorNeed, ...]
    unassigned: tuple[str, ...] = Field(description="People without a target role.")
    uncovered: tuple[str, ...] = Field(default=(), description="Slots left uncovered, explained.")
    coverage_by_month: tuple[float, ...] = Field(
        description="Share of target slots covered by staff (not contractors), per month.")
    explanation: tuple[str, ...] = ()
    total_cost: float | None = None
    greedy_cost: float | None = None
    mip_gap: float | None = None
    solve_seconds: float | None = None
    status: str = "ok"
    details: SourcingDetails = Field(default_factory=SourcingDetails)


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
    goal: bool = Field(default=False, description="A certification (or its courses) pursued "
                       "after the person is ready for the role, not a condition of it.")


class Roadmap(Result):
    person: str
    name: str
    role: str | None
    hire: bool = Field(default=False, description="A planned hire, not a current person.")
    items: tuple[RoadmapItem, ...]
    ready: date | None
    ready_month: int | None
    level_at_ready: int | None


# ---------------------------------------------------------------- costs and ROI
class CostLine(Result):
    category: Literal["salaries", "hiring", "training", "exams", "contractors", "mentoring",
                      "retention"]
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
    outsourced_annual: float = Field(
        description="The same target covered fully by contractors, per year.")
    template_comparison: tuple[TemplateCost, ...]


class Roi(Result):
    investment: float
    investment_lines: dict[str, float]
    annual_return: float
    return_lines: dict[str, float]
    net_roi: float = Field(description="(returns - investment) / investment, a fraction.")
    benefit_cost_ratio: float = Field(description="returns / investment.")
    payback_months: float | None
    basis: str
    notes: tuple[str, ...] = ()


class Warning(Result):
    code: str
    message: str
    source: str | None = None


class Plan(Result):
    catalog_version: str
    generated_for: date = Field(description="The 'today' the plan was computed for.")
    scenario: dict[str, Any]
    target: Target
    gaps: Gaps
    sourcing: Sourcing
    roadmaps: tuple[Roadmap, ...]
    costs: Costs
    roi: Roi
    risk: dict[str, Any] | None = None
    warnings: tuple[Warning, ...]

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")
