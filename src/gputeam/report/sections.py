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

from gputeam.i18n import _
from gputeam.i18n.codes import label as code_label
from gputeam.planning.result import Plan, Roi, RoiAlternative, TargetMonth
from gputeam.report.case_study_view import case_study_section
from gputeam.report.risk_section import readiness_plan_section, risk_section, sensitivity
from gputeam.report.tables import (
    Cell,
    Column,
    Kind,
    Section,
    Table,
    format_value,
    money,
    percent_text,
    plain_data,
)
from gputeam.report.words import item_name, item_note, line_name, localise, localise_all, roadmap_name

__all__ = [
    "Cell",
    "Column",
    "Kind",
    "Section",
    "Table",
    "contractor_hours_by_month",
    "deadline_month",
    "format_value",
    "money",
    "plain_data",
    "roi_cell",
    "roi_text",
    "sections",
    "sensitivity",
]


def _pairs(mapping: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in mapping.items())


def _anyof(certs: Iterable[Sequence[str]]) -> str:
    return "; ".join(_(" or ").join(group) for group in certs)


# ---------------------------------------------------------------- sections
def people_names(plan: Plan) -> dict[str, str]:
    """Person id to display name: the scenario's people and the roadmaps' planned hires."""
    names = {r.person: roadmap_name(r) for r in plan.roadmaps}
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


def mode_label(mode: str) -> str:
    """A sizing mode in words: template mode is the article's rosters, so labelled."""
    if mode == "template":
        return _("template (the article's §5 rosters)")
    return _("lean (sized from the fleet's work, cover and span of control)")


def _summary(plan: Plan) -> Section:
    sc = plan.scenario
    deadline = deadline_month(plan)
    at_deadline = plan.target.at(deadline)
    rows: list[tuple[Any, ...]] = [
        (_("Organisation"), Cell(sc.organisation, "text")),
        (_("Plan computed for"), Cell(plan.generated_for, "date")),
        (_("Catalog version"), Cell(plan.catalog_version, "text")),
        (_("Mode"), Cell(mode_label(plan.target.mode), "text")),
        (_("Start"), Cell(sc.start, "date")),
        (_("Horizon (months)"), Cell(len(plan.target.months), "int")),
        (_("Deadline month"), Cell(deadline, "month")),
        (_("GPUs at deadline"), Cell(at_deadline.gpus, "int")),
        (_("Target headcount at deadline"), Cell(at_deadline.headcount, "int")),
        (_("Current people"), Cell(len(sc.people), "int")),
        (_("People upskilled to a target role"), Cell(len(plan.sourcing.assignments), "int")),
        (_("Hires"), Cell(sum(h.count for h in plan.sourcing.hires), "int")),
        (_("Contractor hours"), Cell(sum(c.hours for c in plan.sourcing.contractors), "hours")),
        (_("First-year cost"), Cell(plan.costs.first_year, "money")),
        (_("Horizon cost"), Cell(plan.costs.horizon, "money")),
        (_("Annual run rate"), Cell(plan.costs.annual_run_rate, "money")),
        (_("ROI investment"), Cell(plan.roi.investment, "money")),
        (_("Net ROI"), roi_cell(plan.roi, "net_roi")),
        (_("Benefit-cost ratio"), roi_cell(plan.roi, "benefit_cost_ratio")),
        (_("Payback (months)"), roi_cell(plan.roi, "payback_months")),
        (_("Net present value"), roi_cell(plan.roi, "npv")),
        (_("Warnings"), Cell(len(plan.warnings), "int")),
        (_("Notes on the article's figures"), Cell(len(plan.notes), "int")),
    ]
    if plan.risk is not None:
        rows.append(
            (
                _("Probability ready by deadline (at least {share} covered)").format(
                    share=percent_text(plan.risk.readiness_threshold)
                ),
                Cell(plan.risk.p_ready_by_deadline, "pct"),
            )
        )
    return Section(
        "summary", _("Summary"), (Table("summary", (Column(_("Item")), Column(_("Value"))), tuple(rows)),)
    )


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
                    code_label(first.basis),
                    _("(none)"),
                    None,
                    None,
                    None,
                    "",
                    "",
                    _("no GPUs to run yet"),
                )
            )
        for s in first.slots:
            slots.append(
                (
                    first.month,
                    last,
                    first.date,
                    first.gpus,
                    code_label(first.basis),
                    code_label(s.role),
                    s.level_min,
                    s.level_max,
                    s.count,
                    _pairs(s.domains),
                    _anyof(s.certifications),
                    localise(s.rule_text, s.rule),
                )
            )
        for c in first.coverage:
            coverage.append(
                (first.month, last, c.domain, c.proficiency, c.people, localise(c.rule_text, c.rule))
            )
    cols = (
        Column(_("From month"), "month"),
        Column(_("To month"), "month"),
        Column(_("From date"), "date"),
        Column(_("GPUs"), "int"),
        Column(_("Basis")),
        Column(_("Role")),
        Column(_("Level min"), "int"),
        Column(_("Level max"), "int"),
        Column(_("Count"), "int"),
        Column(_("Domains needed")),
        Column(_("Certifications")),
        Column(_("Rule")),
    )
    cover_cols = (
        Column(_("From month"), "month"),
        Column(_("To month"), "month"),
        Column(_("Domain")),
        Column(_("Proficiency"), "int"),
        Column(_("People"), "int"),
        Column(_("Rule")),
    )
    assumptions = tuple(
        (k, Cell(v, "text" if isinstance(v, str) else "number")) for k, v in plan.target.assumptions.items()
    )
    return Section(
        "target",
        _("Target team"),
        (
            Table("target", cols, tuple(slots), title=_("Target roles by month")),
            Table(
                "target_coverage",
                cover_cols,
                tuple(coverage),
                title=_("Skill coverage required"),
                empty=_("No extra skill coverage required."),
            ),
            Table(
                "target_assumptions",
                (Column(_("Assumption")), Column(_("Value"))),
                assumptions,
                title=_("Assumptions"),
            ),
        ),
    )


def _workload(plan: Plan) -> Section | None:
    """The fleet's workload month by month (issue 18), and which roles absorb it."""
    w = plan.workload
    if w is None:
        return None
    rows = tuple(
        (
            m.month,
            m.date,
            m.gpus,
            m.interruptions,
            m.pages,
            m.hardware_swaps,
            m.incident_hours + m.maintenance_hours + m.deployment_hours + m.service_hours,
            m.rollout_hours,
            m.technician_hours,
            m.operations_fte,
            m.technician_fte,
        )
        for m in w.months
    )
    cols = (
        Column(_("Month"), "month"),
        Column(_("Date"), "date"),
        Column(_("GPUs"), "int"),
        Column(_("Interruptions"), "number"),
        Column(_("Pages"), "number"),
        Column(_("Hardware swaps"), "number"),
        Column(_("Operations hours"), "number"),
        Column(_("Roll-out hours"), "number"),
        Column(_("Technician hours"), "number"),
        Column(_("Operations FTE"), "number"),
        Column(_("Technician FTE"), "number"),
    )
    shares = tuple(
        (s.work, ", ".join(code_label(r) for r in s.roles) or "-", localise(s.note_text, s.note))
        for s in w.absorbed_by
    )
    rates = (
        (_("GPU generation"), Cell(w.generation, "text")),
        (_("Interruptions per GPU-year"), Cell(w.interruptions_per_gpu_year, "number")),
        (_("Automation"), Cell(f"{w.automation} (x{w.automation_factor:g})", "text")),
        (_("Support model"), Cell(w.support_model, "text")),
        (_("Source"), Cell(w.interruptions_source, "text")),
    )
    return Section(
        "workload",
        _("Workload"),
        (
            Table("workload", cols, rows, title=_("Work the fleet creates, a month")),
            Table(
                "workload_roles",
                (Column(_("Work")), Column(_("Roles")), Column(_("Note"))),
                shares,
                title=_("Who absorbs it"),
            ),
            Table("workload_rates", (Column(_("Assumption")), Column(_("Value"))), rates, title=_("Rates")),
        ),
    )


def _gaps(plan: Plan) -> Section:
    g = plan.gaps
    names = people_names(plan)
    roles = tuple((code_label(r.role), r.needed, r.ready_now, r.missing) for r in g.roles)
    domains = tuple((d, p) for d, p in g.domains.items())
    certs = tuple((c, n) for c, n in g.certifications.items())
    fits = tuple(
        (
            names.get(f.person, f.person),
            code_label(f.role),
            f.score,
            f.level_gap,
            _pairs(f.missing_domains),
            ", ".join(f.missing_certifications),
        )
        for f in g.fits
    )
    return Section(
        "gaps",
        _("Gaps (against month {month})").format(month=g.month),
        (
            Table(
                "gap_roles",
                (
                    Column(_("Role")),
                    Column(_("Needed"), "int"),
                    Column(_("Ready now"), "int"),
                    Column(_("Missing"), "int"),
                ),
                roles,
                title=_("Roles"),
            ),
            Table(
                "gap_domains",
                (Column(_("Domain")), Column(_("Proficiency missing"), "int")),
                domains,
                title=_("Skill domains"),
            ),
            Table(
                "gap_certifications",
                (Column(_("Certification")), Column(_("Holders missing"), "int")),
                certs,
                title=_("Certifications"),
            ),
            Table(
                "gap_fits",
                (
                    Column(_("Person")),
                    Column(_("Role")),
                    Column(_("Fit"), "pct"),
                    Column(_("Level gap"), "int"),
                    Column(_("Missing domains")),
                    Column(_("Missing certifications")),
                ),
                fits,
                title=_("Fit of each person to each target role"),
                empty=_("No current people to compare with the target."),
            ),
        ),
    )


def _sourcing(plan: Plan) -> Section:
    s = plan.sourcing
    names = people_names(plan)
    info: list[tuple[Any, ...]] = [
        (_("Method"), Cell(s.method, "text")),
        (_("Status"), Cell(code_label(s.status), "text")),
    ]
    for label, value, kind in (
        (_("Total cost"), s.total_cost, "money"),
        (_("Greedy cost"), s.greedy_cost, "money"),
        (_("MIP gap"), s.mip_gap, "pct"),
        (_("Solve time (s)"), s.solve_seconds, "float"),
    ):
        if value is not None:
            info.append((label, Cell(value, kind)))  # type: ignore[arg-type]
    assignments = tuple(
        (
            names.get(a.person, a.person),
            code_label(a.role),
            a.level,
            a.ready_month,
            localise(a.reason_text, a.reason),
        )
        for a in s.assignments
    )
    placements = tuple(
        (
            names.get(x.person, x.person),
            code_label(x.role),
            x.level,
            x.person_level,
            x.from_month,
            x.to_month,
            localise(x.reason_text, x.reason),
        )
        for x in s.placements
    )
    hires = tuple(
        (
            code_label(h.role),
            h.level,
            h.count,
            h.requisition_month,
            h.arrival_month,
            localise(h.reason_text, h.reason),
        )
        for h in s.hires
    )
    contractors = tuple(
        (c.month, code_label(c.role), c.level, c.hours, localise(c.reason_text, c.reason))
        for c in s.contractors
    )
    coverage: list[list[Any]] = []
    for month, share in enumerate(s.coverage_by_month, start=1):
        if coverage and coverage[-1][2] == share:
            coverage[-1][1] = month
        else:
            coverage.append([month, month, share])
    open_items = tuple((_("unassigned"), names.get(p, p)) for p in s.unassigned) + tuple(
        (_("uncovered"), u) for u in localise_all(s.uncovered_texts, s.uncovered)
    )
    return Section(
        "sourcing",
        _("Sourcing decisions"),
        (
            Table("sourcing", (Column(_("Item")), Column(_("Value"))), tuple(info)),
            Table(
                "assignments",
                (
                    Column(_("Person")),
                    Column(_("Role")),
                    Column(_("Level"), "int"),
                    Column(_("Ready month"), "month"),
                    Column(_("Why")),
                ),
                assignments,
                title=_("Upskill"),
                empty=_("Nobody on staff is upskilled to a target role."),
            ),
            Table(
                "placements",
                (
                    Column(_("Person")),
                    Column(_("Seat")),
                    Column(_("Seat level"), "int"),
                    Column(_("Person's level"), "int"),
                    Column(_("From month"), "month"),
                    Column(_("To month"), "month"),
                    Column(_("Why")),
                ),
                placements,
                title=_("Seats over time"),
                empty=_("Nobody on staff holds a target seat."),
            ),
            Table(
                "hires",
                (
                    Column(_("Role")),
                    Column(_("Level"), "int"),
                    Column(_("Count"), "int"),
                    Column(_("Requisition month"), "month"),
                    Column(_("Arrival month"), "month"),
                    Column(_("Why")),
                ),
                hires,
                title=_("Hire"),
                empty=_("No hires."),
            ),
            Table(
                "contractors",
                (
                    Column(_("Month"), "month"),
                    Column(_("Role")),
                    Column(_("Level"), "int"),
                    Column(_("Hours"), "hours"),
                    Column(_("Why")),
                ),
                contractors,
                title=_("Contractors"),
                empty=_("No contractors."),
            ),
            Table(
                "open",
                (Column(_("What")), Column(_("Detail"))),
                open_items,
                title=_("Left open"),
                empty=_("Every person has a target and every slot is covered."),
            ),
            Table(
                "coverage",
                (
                    Column(_("From month"), "month"),
                    Column(_("To month"), "month"),
                    Column(_("Staffed share"), "pct"),
                ),
                tuple(tuple(run) for run in coverage),
                title=_("Coverage by staff"),
            ),
        ),
        notes=localise_all(s.explanation_texts, s.explanation),
    )


def _roadmaps(plan: Plan) -> Section:
    summary = tuple(
        (
            roadmap_name(r),
            code_label(r.role) if r.role else "",
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
        (
            roadmap_name(r),
            code_label(i.kind),
            item_name(i),
            i.ref,
            i.start,
            i.end,
            i.hours,
            i.cost,
            code_label(i.strategy) if i.strategy else "",
            item_note(i),
        )
        for r in plan.roadmaps
        for i in r.items
    )
    return Section(
        "roadmaps",
        _("Roadmaps"),
        (
            Table(
                "roadmap_people",
                (
                    Column(_("Person")),
                    Column(_("Role")),
                    Column(_("Planned hire"), "bool"),
                    Column(_("Ready"), "date"),
                    Column(_("Ready month"), "month"),
                    Column(_("Level at ready"), "int"),
                    Column(_("Items"), "int"),
                    Column(_("Hours"), "hours"),
                    Column(_("Cost"), "money"),
                ),
                summary,
                title=_("People"),
                empty=_("No roadmaps: nobody on staff is upskilled."),
            ),
            Table(
                "roadmap_items",
                (
                    Column(_("Person")),
                    Column(_("Kind")),
                    Column(_("Item")),
                    Column(_("Ref")),
                    Column(_("Start"), "date"),
                    Column(_("End"), "date"),
                    Column(_("Hours"), "hours"),
                    Column(_("Cost"), "money"),
                    Column(_("Strategy")),
                    Column(_("Note")),
                ),
                items,
                title=_("Courses, exams and renewals"),
                empty=_("No roadmap items."),
            ),
        ),
    )


def _costs(plan: Plan) -> Section:
    c = plan.costs
    lines: tuple[tuple[Any, ...], ...] = tuple(
        (code_label(line.category), line.first_year, line.horizon, line.annual_run_rate) for line in c.lines
    )
    lines += ((_("total"), c.first_year, c.horizon, c.annual_run_rate),)
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
        _("Costs ({currency})").format(currency=c.currency),
        (
            Table(
                "cost_lines",
                (
                    Column(_("Category")),
                    Column(_("First year"), "money"),
                    Column(_("Horizon"), "money"),
                    Column(_("Annual run rate"), "money"),
                ),
                lines,
                title=_("By category"),
            ),
            Table(
                "cost_months",
                (Column(_("Month"), "month"), Column(_("Date"), "date"), Column(_("Cost"), "money")),
                by_month,
                title=_("By month"),
            ),
            Table(
                "cost_templates",
                (
                    Column(_("Template")),
                    Column(_("Computed low"), "money"),
                    Column(_("Computed high"), "money"),
                    Column(_("Article low"), "money"),
                    Column(_("Article high"), "money"),
                ),
                templates,
                title=_("Team templates: computed from salary bands beside the article's totals"),
            ),
            Table(
                "cost_outsourced",
                (Column(_("Item")), Column(_("Value"), "money")),
                ((_("The same target fully outsourced to contractors, per year"), c.outsourced_annual),),
            ),
        ),
    )


ROI_KINDS: dict[str, Kind] = {
    "net_roi": "pct",
    "benefit_cost_ratio": "ratio",
    "payback_months": "float",
    "npv": "money",
}


def roi_cell(roi: Roi | RoiAlternative, name: str) -> Cell:
    """An ROI measure as a cell: its value, or "n/a (why)" when it is undefined (None)."""
    value = getattr(roi, name)
    if value is None:
        why = localise(roi.reason_texts.get(name), roi.reasons.get(name, "")) or _("undefined")
        return Cell(_("n/a ({reason})").format(reason=why), "text")
    return Cell(value, ROI_KINDS[name])


def roi_text(roi: Roi | RoiAlternative, name: str, currency: str = "USD") -> str:
    """An ROI measure as text, the same in every door (terminal, reports, web)."""
    return format_value(roi_cell(roi, name), "text", currency)


def roi_alternatives_table(roi: Roi) -> Table | None:
    """The plan against each alternative, side by side (the headline first)."""
    if not roi.alternatives:
        return None
    rows = tuple(
        (
            Cell(code_label(x.counterfactual) + (" (" + _("headline") + ")" if x.headline else ""), "text"),
            x.investment,
            x.returns,
            roi_cell(x, "net_roi"),
            roi_cell(x, "benefit_cost_ratio"),
            roi_cell(x, "payback_months"),
            roi_cell(x, "npv"),
        )
        for x in roi.alternatives
    )
    return Table(
        "roi_alternatives",
        (
            Column(_("Compared with")),
            Column(_("Investment"), "money"),
            Column(_("Returns"), "money"),
            Column(_("Net ROI"), "pct"),
            Column(_("Benefit-cost ratio"), "ratio"),
            Column(_("Payback (months)"), "float"),
            Column(_("Net present value"), "money"),
        ),
        rows,
        title=_("The plan against each alternative"),
    )


def roi_detail_tables(roi: Roi) -> list[Table]:
    """The ROI's side-by-side alternatives, why each return line counts, and its
    risk-adjusted view: the same tables in every format."""
    out: list[Table] = []
    side = roi_alternatives_table(roi)
    if side is not None:
        out.append(side)
    if roi.return_reason_texts or roi.return_reasons:
        why = tuple(
            (line_name(k), localise(roi.return_reason_texts.get(k), roi.return_reasons.get(k, "")))
            for k in roi.return_lines
            if k in roi.return_reasons
        )
        out.append(
            Table(
                "roi_why",
                (Column(_("Return line")), Column(_("Why it counts"))),
                why,
                title=_("Why each return counts"),
            )
        )
    rk = roi.risk_adjusted
    if rk is not None:
        out.append(
            Table(
                "roi_risk",
                (
                    Column(_("Measure")),
                    Column(_("P10 (worst tenth)")),
                    Column(_("P50 (median)")),
                    Column(_("P90 (best tenth)")),
                ),
                (
                    (
                        _("Net present value"),
                        Cell(rk.npv_p10, "money"),
                        Cell(rk.npv_p50, "money"),
                        Cell(rk.npv_p90, "money"),
                    ),
                    (
                        _("Net ROI"),
                        Cell(rk.net_roi_p10, "pct"),
                        Cell(rk.net_roi_p50, "pct"),
                        Cell(rk.net_roi_p90, "pct"),
                    ),
                ),
                title=_(
                    "NPV and net ROI across {runs} Monte Carlo runs (each run's extra cost off the returns)"
                ).format(runs=rk.runs),
            )
        )
    return out


def _roi(plan: Plan) -> Section:
    r = plan.roi
    rows: list[tuple[Any, ...]] = [
        (_("Compared with"), Cell(code_label(r.counterfactual), "text")),
        (_("Investment"), Cell(r.investment, "money")),
    ]
    rows += [
        (_("  investment: {item}").format(item=line_name(k)), Cell(v, "money"))
        for k, v in r.investment_lines.items()
    ]
    rows.append((_("Returns"), Cell(r.returns, "money")))
    rows += [
        (_("  return: {item}").format(item=line_name(k)), Cell(v, "money")) for k, v in r.return_lines.items()
    ]
    rows += [
        (_("Annual return (last 12 months)"), Cell(r.annual_return, "money")),
        (_("Net ROI ((returns - investment) / investment)"), roi_cell(r, "net_roi")),
        (_("Benefit-cost ratio (returns / investment)"), roi_cell(r, "benefit_cost_ratio")),
        (_("Payback (months)"), roi_cell(r, "payback_months")),
        (
            _("Net present value at {rate} a year").format(rate=percent_text(r.discount_rate or 0, 1)),
            roi_cell(r, "npv"),
        ),
        (_("Basis"), Cell(localise(r.basis_text, r.basis), "text")),
    ]
    flows = tuple(
        (
            x.month,
            x.gpus,
            x.coverage,
            sum(x.investment.values()),
            sum(x.returns.values()),
            x.cash_flow,
            x.cumulative,
            x.discount_factor,
        )
        for x in r.months
    )
    tables = [Table("roi", (Column(_("Item")), Column(_("Value"))), tuple(rows))]
    tables += roi_detail_tables(r)
    if flows:
        tables.append(
            Table(
                "roi_months",
                (
                    Column(_("Month"), "month"),
                    Column(_("GPUs"), "int"),
                    Column(_("Staff coverage"), "pct"),
                    Column(_("Investment"), "money"),
                    Column(_("Returns"), "money"),
                    Column(_("Cash flow"), "money"),
                    Column(_("Cumulative"), "money"),
                    Column(_("Discount factor"), "number"),
                ),
                flows,
                title=_("Cash flow by month"),
            )
        )
    return Section("roi", _("Return on investment"), tuple(tables), notes=localise_all(r.note_texts, r.notes))


def _warnings(plan: Plan) -> Section:
    rows = tuple((w.code, localise(w.text, w.message), w.source or "") for w in plan.warnings)
    return Section(
        "warnings",
        _("Warnings"),
        (
            Table(
                "warnings",
                (Column(_("Code")), Column(_("Message")), Column(_("Source"))),
                rows,
                empty=_("No warnings."),
            ),
        ),
    )


def _notes(plan: Plan) -> Section:
    rows = tuple((n.code, localise(n.text, n.message), n.source or "") for n in plan.notes)
    return Section(
        "notes",
        _("Notes on the article's figures"),
        (
            Table(
                "notes",
                (Column(_("Code")), Column(_("Note")), Column(_("Source"))),
                rows,
                empty=_("No notes."),
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
        *(s for s in (_workload(plan),) if s is not None),
        _warnings(plan),
        _notes(plan),
    ]
    if plan.risk is not None:
        out.append(risk_section(plan, plan.risk))
    if plan.readiness_plan is not None:
        out.append(readiness_plan_section(plan.readiness_plan))
    case = case_study_section(plan)
    if case is not None:
        out.append(case)
    return out
