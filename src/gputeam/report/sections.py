"""The section tables every document format shares.

``sections(plan)`` builds the plan's sections (Summary, Target, Gaps, Sourcing, Roadmaps,
Costs, ROI, Warnings, Notes and, when the plan carries a simulation, Risk; then, for a
scenario that models one of the article's case studies, Case study) once, as typed tables:
raw values plus a *kind* per column (money, pct, date ...). The Markdown, HTML and XLSX
renderers format those same tables their own way, so the three always agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gputeam.planning.result import Plan, Roi, TargetMonth
from gputeam.report.case_study_view import case_study_section
from gputeam.report.risk_section import risk_section, sensitivity
from gputeam.report.tables import (
    Cell,
    Column,
    Kind,
    Section,
    Table,
    format_value,
    money,
    plain_data,
)

__all__ = ["Cell", "Column", "Kind", "Section", "Table", "contractor_hours_by_month",
           "deadline_month", "format_value", "money", "plain_data", "roi_cell", "roi_text", "sections",
           "sensitivity"]


def _pairs(mapping: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in mapping.items())


def _anyof(certs: Iterable[Sequence[str]]) -> str:
    return "; ".join(" or ".join(group) for group in certs)


# ---------------------------------------------------------------- sections
def people_names(plan: Plan) -> dict[str, str]:
    """Person id to display name: the scenario's people and the roadmaps' planned hires."""
    names = {r.person: r.name for r in plan.roadmaps}
    for person in plan.scenario.people:
        names[person.id] = person.name
    return names


def deadline_month(plan: Plan) -> int:
    return plan.scenario.constraints.deadline_month or plan.gaps.month


def _month_signature(m: TargetMonth) -> tuple[Any, ...]:
    return (m.gpus, m.basis, m.slots, m.coverage)


def month_runs(plan: Plan) -> list[tuple[TargetMonth, int]]:
    """Consecutive target months with identical staffing, as (first month, last month number)."""
    runs: list[tuple[TargetMonth, int]] = []
    for m in plan.target.months:
        if runs and _month_signature(runs[-1][0]) == _month_signature(m) and runs[-1][1] == m.month - 1:
            runs[-1] = (runs[-1][0], m.month)
        else:
            runs.append((m, m.month))
    return runs


def contractor_hours_by_month(plan: Plan) -> list[float]:
    hours = [0.0] * len(plan.target.months)
    for need in plan.sourcing.contractors:
        if 1 <= need.month <= len(hours):
            hours[need.month - 1] += need.hours
    return hours


def _summary(plan: Plan) -> Section:
    sc = plan.scenario
    deadline = deadline_month(plan)
    at_deadline = plan.target.at(deadline)
    rows: list[tuple[Any, ...]] = [
        ("Organisation", Cell(sc.organisation, "text")),
        ("Plan computed for", Cell(plan.generated_for, "date")),
        ("Catalog version", Cell(plan.catalog_version, "text")),
        ("Mode", Cell(plan.target.mode, "text")),
        ("Start", Cell(sc.start, "date")),
        ("Horizon (months)", Cell(len(plan.target.months), "int")),
        ("Deadline month", Cell(deadline, "month")),
        ("GPUs at deadline", Cell(at_deadline.gpus, "int")),
        ("Target headcount at deadline", Cell(at_deadline.headcount, "int")),
        ("Current people", Cell(len(sc.people), "int")),
        ("People upskilled to a target role", Cell(len(plan.sourcing.assignments), "int")),
        ("Hires", Cell(sum(h.count for h in plan.sourcing.hires), "int")),
        ("Contractor hours", Cell(sum(c.hours for c in plan.sourcing.contractors), "hours")),
        ("First-year cost", Cell(plan.costs.first_year, "money")),
        ("Horizon cost", Cell(plan.costs.horizon, "money")),
        ("Annual run rate", Cell(plan.costs.annual_run_rate, "money")),
        ("ROI investment", Cell(plan.roi.investment, "money")),
        ("Net ROI", roi_cell(plan.roi, "net_roi")),
        ("Benefit-cost ratio", roi_cell(plan.roi, "benefit_cost_ratio")),
        ("Payback (months)", roi_cell(plan.roi, "payback_months")),
        ("Net present value", roi_cell(plan.roi, "npv")),
        ("Warnings", Cell(len(plan.warnings), "int")),
        ("Notes on the article's figures", Cell(len(plan.notes), "int")),
    ]
    if plan.risk is not None:
        rows.append((f"Probability ready by deadline (at least {plan.risk.readiness_threshold:.0%} "
                     "covered)", Cell(plan.risk.p_ready_by_deadline, "pct")))
    return Section("summary", "Summary", (Table("summary", (Column("Item"), Column("Value")), tuple(rows)),))


def _target(plan: Plan) -> Section:
    slots: list[tuple[Any, ...]] = []
    coverage: list[tuple[Any, ...]] = []
    for first, last in month_runs(plan):
        if not first.slots:
            slots.append(
                (
                    first.month,
                    last,
                    first.date,
                    first.gpus,
                    first.basis,
                    "(none)",
                    None,
                    None,
                    None,
                    "",
                    "",
                    "no GPUs to run yet",
                )
            )
        for s in first.slots:
            slots.append(
                (
                    first.month,
                    last,
                    first.date,
                    first.gpus,
                    first.basis,
                    s.role,
                    s.level_min,
                    s.level_max,
                    s.count,
                    _pairs(s.domains),
                    _anyof(s.certifications),
                    s.rule,
                )
            )
        for c in first.coverage:
            coverage.append((first.month, last, c.domain, c.proficiency, c.people, c.rule))
    cols = (
        Column("From month", "month"),
        Column("To month", "month"),
        Column("From date", "date"),
        Column("GPUs", "int"),
        Column("Basis"),
        Column("Role"),
        Column("Level min", "int"),
        Column("Level max", "int"),
        Column("Count", "int"),
        Column("Domains needed"),
        Column("Certifications"),
        Column("Rule"),
    )
    cover_cols = (
        Column("From month", "month"),
        Column("To month", "month"),
        Column("Domain"),
        Column("Proficiency", "int"),
        Column("People", "int"),
        Column("Rule"),
    )
    assumptions = tuple(
        (k, Cell(v, "text" if isinstance(v, str) else "number")) for k, v in plan.target.assumptions.items()
    )
    return Section(
        "target",
        "Target team",
        (
            Table("target", cols, tuple(slots), title="Target roles by month"),
            Table(
                "target_coverage",
                cover_cols,
                tuple(coverage),
                title="Skill coverage required",
                empty="No extra skill coverage required.",
            ),
            Table(
                "target_assumptions",
                (Column("Assumption"), Column("Value")),
                assumptions,
                title="Assumptions",
            ),
        ),
    )


def _gaps(plan: Plan) -> Section:
    g = plan.gaps
    names = people_names(plan)
    roles = tuple((r.role, r.needed, r.ready_now, r.missing) for r in g.roles)
    domains = tuple((d, p) for d, p in g.domains.items())
    certs = tuple((c, n) for c, n in g.certifications.items())
    fits = tuple(
        (
            names.get(f.person, f.person),
            f.role,
            f.score,
            f.level_gap,
            _pairs(f.missing_domains),
            ", ".join(f.missing_certifications),
        )
        for f in g.fits
    )
    return Section(
        "gaps",
        f"Gaps (against month {g.month})",
        (
            Table(
                "gap_roles",
                (
                    Column("Role"),
                    Column("Needed", "int"),
                    Column("Ready now", "int"),
                    Column("Missing", "int"),
                ),
                roles,
                title="Roles",
            ),
            Table(
                "gap_domains",
                (Column("Domain"), Column("Proficiency missing", "int")),
                domains,
                title="Skill domains",
            ),
            Table(
                "gap_certifications",
                (Column("Certification"), Column("Holders missing", "int")),
                certs,
                title="Certifications",
            ),
            Table(
                "gap_fits",
                (
                    Column("Person"),
                    Column("Role"),
                    Column("Fit", "pct"),
                    Column("Level gap", "int"),
                    Column("Missing domains"),
                    Column("Missing certifications"),
                ),
                fits,
                title="Fit of each person to each target role",
                empty="No current people to compare with the target.",
            ),
        ),
    )


def _sourcing(plan: Plan) -> Section:
    s = plan.sourcing
    names = people_names(plan)
    info: list[tuple[Any, ...]] = [("Method", Cell(s.method, "text")), ("Status", Cell(s.status, "text"))]
    for label, value, kind in (
        ("Total cost", s.total_cost, "money"),
        ("Greedy cost", s.greedy_cost, "money"),
        ("MIP gap", s.mip_gap, "pct"),
        ("Solve time (s)", s.solve_seconds, "float"),
    ):
        if value is not None:
            info.append((label, Cell(value, kind)))  # type: ignore[arg-type]
    assignments = tuple(
        (names.get(a.person, a.person), a.role, a.level, a.ready_month, a.reason) for a in s.assignments
    )
    hires = tuple((h.role, h.level, h.count, h.requisition_month, h.arrival_month, h.reason) for h in s.hires)
    contractors = tuple((c.month, c.role, c.level, c.hours, c.reason) for c in s.contractors)
    coverage: list[list[Any]] = []
    for month, share in enumerate(s.coverage_by_month, start=1):
        if coverage and coverage[-1][2] == share:
            coverage[-1][1] = month
        else:
            coverage.append([month, month, share])
    open_items = tuple(("unassigned", names.get(p, p)) for p in s.unassigned) + tuple(
        ("uncovered", u) for u in s.uncovered
    )
    return Section(
        "sourcing",
        "Sourcing decisions",
        (
            Table("sourcing", (Column("Item"), Column("Value")), tuple(info)),
            Table(
                "assignments",
                (
                    Column("Person"),
                    Column("Role"),
                    Column("Level", "int"),
                    Column("Ready month", "month"),
                    Column("Why"),
                ),
                assignments,
                title="Upskill",
                empty="Nobody on staff is upskilled to a target role.",
            ),
            Table(
                "hires",
                (
                    Column("Role"),
                    Column("Level", "int"),
                    Column("Count", "int"),
                    Column("Requisition month", "month"),
                    Column("Arrival month", "month"),
                    Column("Why"),
                ),
                hires,
                title="Hire",
                empty="No hires.",
            ),
            Table(
                "contractors",
                (
                    Column("Month", "month"),
                    Column("Role"),
                    Column("Level", "int"),
                    Column("Hours", "hours"),
                    Column("Why"),
                ),
                contractors,
                title="Contractors",
                empty="No contractors.",
            ),
            Table(
                "open",
                (Column("What"), Column("Detail")),
                open_items,
                title="Left open",
                empty="Every person has a target and every slot is covered.",
            ),
            Table(
                "coverage",
                (Column("From month", "month"), Column("To month", "month"), Column("Staffed share", "pct")),
                tuple(tuple(run) for run in coverage),
                title="Coverage by staff",
            ),
        ),
        notes=s.explanation,
    )


def _roadmaps(plan: Plan) -> Section:
    summary = tuple(
        (
            r.name,
            r.role or "",
            r.hire,
            r.ready,
            r.ready_month,
            r.level_at_ready,
            len(r.items),
            sum(i.hours for i in r.items),
            sum(i.cost for i in r.items),
        )
        for r in plan.roadmaps
    )
    items = tuple(
        (r.name, i.kind, i.name, i.ref, i.start, i.end, i.hours, i.cost, i.strategy or "", i.note)
        for r in plan.roadmaps
        for i in r.items
    )
    return Section(
        "roadmaps",
        "Roadmaps",
        (
            Table(
                "roadmap_people",
                (
                    Column("Person"),
                    Column("Role"),
                    Column("Planned hire", "bool"),
                    Column("Ready", "date"),
                    Column("Ready month", "month"),
                    Column("Level at ready", "int"),
                    Column("Items", "int"),
                    Column("Hours", "hours"),
                    Column("Cost", "money"),
                ),
                summary,
                title="People",
                empty="No roadmaps: nobody on staff is upskilled.",
            ),
            Table(
                "roadmap_items",
                (
                    Column("Person"),
                    Column("Kind"),
                    Column("Item"),
                    Column("Ref"),
                    Column("Start", "date"),
                    Column("End", "date"),
                    Column("Hours", "hours"),
                    Column("Cost", "money"),
                    Column("Strategy"),
                    Column("Note"),
                ),
                items,
                title="Courses, exams and renewals",
                empty="No roadmap items.",
            ),
        ),
    )


def _costs(plan: Plan) -> Section:
    c = plan.costs
    lines: tuple[tuple[Any, ...], ...] = tuple(
        (line.category, line.first_year, line.horizon, line.annual_run_rate) for line in c.lines
    )
    lines += (("total", c.first_year, c.horizon, c.annual_run_rate),)
    months = plan.target.months
    by_month = tuple(
        (i + 1, months[i].date if i < len(months) else None, v) for i, v in enumerate(c.by_month)
    )
    templates = tuple(
        (t.template, t.computed_low, t.computed_high, t.article_low, t.article_high)
        for t in c.template_comparison
    )
    return Section(
        "costs",
        f"Costs ({c.currency})",
        (
            Table(
                "cost_lines",
                (
                    Column("Category"),
                    Column("First year", "money"),
                    Column("Horizon", "money"),
                    Column("Annual run rate", "money"),
                ),
                lines,
                title="By category",
            ),
            Table(
                "cost_months",
                (Column("Month", "month"), Column("Date", "date"), Column("Cost", "money")),
                by_month,
                title="By month",
            ),
            Table(
                "cost_templates",
                (
                    Column("Template"),
                    Column("Computed low", "money"),
                    Column("Computed high", "money"),
                    Column("Article low", "money"),
                    Column("Article high", "money"),
                ),
                templates,
                title="Team templates: computed from salary bands beside the article's totals",
            ),
            Table(
                "cost_outsourced",
                (Column("Item"), Column("Value", "money")),
                (("The same target fully outsourced to contractors, per year", c.outsourced_annual),),
            ),
        ),
    )


ROI_KINDS: dict[str, Kind] = {"net_roi": "pct", "benefit_cost_ratio": "ratio",
                              "payback_months": "float", "npv": "money"}


def roi_cell(roi: Roi, name: str) -> Cell:
    """An ROI measure as a cell: its value, or "n/a (why)" when it is undefined (None)."""
    value = getattr(roi, name)
    if value is None:
        return Cell(f"n/a ({roi.reasons.get(name, 'undefined')})", "text")
    return Cell(value, ROI_KINDS[name])


def roi_text(roi: Roi, name: str, currency: str = "USD") -> str:
    """An ROI measure as text, the same in every door (terminal, reports, web)."""
    return format_value(roi_cell(roi, name), "text", currency)


def _roi(plan: Plan) -> Section:
    r = plan.roi
    rows: list[tuple[Any, ...]] = [("Compared with", Cell(r.counterfactual, "text")),
                                   ("Investment", Cell(r.investment, "money"))]
    rows += [(f"  investment: {k}", Cell(v, "money")) for k, v in r.investment_lines.items()]
    rows.append(("Returns", Cell(r.returns, "money")))
    rows += [(f"  return: {k}", Cell(v, "money")) for k, v in r.return_lines.items()]
    rows += [
        ("Annual return (last 12 months)", Cell(r.annual_return, "money")),
        ("Net ROI ((returns - investment) / investment)", roi_cell(r, "net_roi")),
        ("Benefit-cost ratio (returns / investment)", roi_cell(r, "benefit_cost_ratio")),
        ("Payback (months)", roi_cell(r, "payback_months")),
        (f"Net present value at {r.discount_rate or 0:.1%} a year", roi_cell(r, "npv")),
        ("Basis", Cell(r.basis, "text")),
    ]
    flows = tuple((x.month, x.gpus, x.coverage, sum(x.investment.values()), sum(x.returns.values()),
                   x.cash_flow, x.cumulative, x.discount_factor) for x in r.months)
    tables = [Table("roi", (Column("Item"), Column("Value")), tuple(rows))]
    if flows:
        tables.append(Table(
            "roi_months",
            (Column("Month", "month"), Column("GPUs", "int"), Column("Staff coverage", "pct"),
             Column("Investment", "money"), Column("Returns", "money"),
             Column("Cash flow", "money"), Column("Cumulative", "money"),
             Column("Discount factor", "number")),
            flows, title="Cash flow by month"))
    return Section("roi", "Return on investment", tuple(tables), notes=r.notes)


def _warnings(plan: Plan) -> Section:
    rows = tuple((w.code, w.message, w.source or "") for w in plan.warnings)
    return Section(
        "warnings",
        "Warnings",
        (
            Table(
                "warnings", (Column("Code"), Column("Message"), Column("Source")), rows, empty="No warnings."
            ),
        ),
    )


def _notes(plan: Plan) -> Section:
    rows = tuple((n.code, n.message, n.source or "") for n in plan.notes)
    return Section(
        "notes",
        "Notes on the article's figures",
        (
            Table(
                "notes", (Column("Code"), Column("Note"), Column("Source")), rows, empty="No notes."
            ),
        ),
    )


def sections(plan: Plan) -> list[Section]:
    """The plan's sections as typed tables, in report order."""
    out = [
        _summary(plan),
        _target(plan),
        _gaps(plan),
        _sourcing(plan),
        _roadmaps(plan),
        _costs(plan),
        _roi(plan),
        _warnings(plan),
        _notes(plan),
    ]
    if plan.risk is not None:
        out.append(risk_section(plan, plan.risk))
    case = case_study_section(plan)
    if case is not None:
        out.append(case)
    return out
