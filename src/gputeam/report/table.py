"""Terminal output: the plan summary as rich tables."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from gputeam.i18n import _, ngettext
from gputeam.i18n import formats as _locale
from gputeam.i18n.codes import label as code_label
from gputeam.planning.result import Plan, ReadinessPlan, Risk, Roi
from gputeam.report.risk_section import readiness_lines
from gputeam.report.sections import people_names, roi_text
from gputeam.report.tables import format_value, money, percent_text
from gputeam.report.words import line_name, localise, localise_all, roadmap_name

#: Longest text shown for a name (organisation, person) and for a sentence in the terminal;
#: files (JSON, HTML, Markdown, XLSX ...) keep the text whole.
NAME_LIMIT = 120
SENTENCE_LIMIT = 1000


def shown(text: object, limit: int = SENTENCE_LIMIT) -> Text:
    """``text`` for the terminal: clipped to ``limit`` characters (absurd input stays fast
    and readable) and never read as rich markup."""
    value = str(text)
    if len(value) > limit:
        value = value[: limit - 1] + "…"
    return Text(value)


def print_plan(plan: Plan, console: Console) -> None:
    sc = plan.scenario
    cur = plan.costs.currency
    deadline = sc.deadline
    tm = plan.target.at(deadline)
    head = Text.assemble(
        (shown(sc.organisation, NAME_LIMIT).plain, "bold"),
        _(
            " - {mode} plan, {months} months from {start}, deadline month {deadline}, catalog {catalog}"
        ).format(
            mode=code_label(plan.target.mode),
            months=sc.horizon_months,
            start=format_value(sc.start, "date"),
            deadline=deadline,
            catalog=plan.catalog_version,
        ),
    )
    console.print(head)
    t = Table(
        title=_("Target team at month {month} ({gpus} GPUs, basis {basis})").format(
            month=deadline, gpus=format_value(tm.gpus, "int"), basis=code_label(tm.basis)
        )
    )
    for col in (_("role"), _("levels"), _("count"), _("rule")):
        t.add_column(col, overflow="fold")
    for s in tm.slots:
        t.add_row(
            shown(code_label(s.role), NAME_LIMIT),
            f"{s.level_min}-{s.level_max}",
            str(s.count),
            shown(localise(s.rule_text, s.rule)),
        )
    console.print(t)

    _sourcing(plan, console, cur)

    t = Table(title=_("Roadmaps"))
    for col in (_("person"), _("role"), _("ready"), _("items"), _("exams")):
        t.add_column(col, overflow="fold")
    for r in plan.roadmaps:
        exams = ", ".join(i.ref for i in r.items if i.kind == "exam")
        t.add_row(
            shown(roadmap_name(r), NAME_LIMIT),
            shown(code_label(r.role) if r.role else "-", NAME_LIMIT),
            _("month {n}").format(n=r.ready_month) if r.ready_month is not None else "-",
            str(len(r.items)),
            shown(exams or "-"),
        )
    console.print(t)

    t = Table(title=_("Costs ({currency})").format(currency=cur))
    for i, col in enumerate((_("category"), _("first year"), _("horizon"), _("annual run rate"))):
        t.add_column(col, justify="right" if i else "left")
    for line in plan.costs.lines:
        t.add_row(
            code_label(line.category),
            money(line.first_year, cur),
            money(line.horizon, cur),
            money(line.annual_run_rate, cur),
        )
    t.add_row(
        "[bold]" + _("total"),
        money(plan.costs.first_year, cur),
        money(plan.costs.horizon, cur),
        money(plan.costs.annual_run_rate, cur),
    )
    t.add_row(_("fully outsourced (contractors)"), "", "", money(plan.costs.outsourced_annual, cur))
    console.print(t)

    roi = plan.roi
    payback = roi_text(roi, "payback_months")
    console.print(
        _(
            "ROI against {counterfactual}: investment {investment}, returns {returns} over "
            "{months} months, net ROI {roi}, NPV {npv}, payback {payback}"
        ).format(
            counterfactual=code_label(roi.counterfactual),
            investment=money(roi.investment, cur),
            returns=money(roi.returns, cur),
            months=len(roi.months),
            roi=roi_text(roi, "net_roi"),
            npv=roi_text(roi, "npv", cur),
            payback=_("{n} months").format(n=payback) if roi.payback_months is not None else payback,
        ),
        markup=False,
        highlight=False,
    )
    for x in roi.alternatives[1:]:
        console.print(
            "  "
            + _("against {counterfactual}: net ROI {roi}, NPV {npv}, payback {payback}").format(
                counterfactual=code_label(x.counterfactual),
                roi=roi_text(x, "net_roi"),
                npv=roi_text(x, "npv", cur),
                payback=roi_text(x, "payback_months"),
            ),
            markup=False,
            highlight=False,
        )
    if roi.risk_adjusted is not None:
        rk = roi.risk_adjusted
        console.print(
            "  "
            + _("risk-adjusted NPV P10 {p10}, P50 {p50}, P90 {p90}").format(
                p10=money(rk.npv_p10, cur), p50=money(rk.npv_p50, cur), p90=money(rk.npv_p90, cur)
            ),
            markup=False,
            highlight=False,
        )
    if plan.risk is not None:
        _risk(plan.risk, console, cur)
    if plan.readiness_plan is not None:
        _readiness(plan.readiness_plan, console, cur)
    from gputeam.report.case_study_view import print_case_study

    print_case_study(plan, console)
    if plan.warnings:
        console.print("[bold yellow]" + _("Warnings") + "[/]")
        for w in plan.warnings:
            console.print(Text(f"  - [{w.code}] ") + shown(localise(w.text, w.message)), highlight=False)
    if plan.notes:  # background on the article's figures: in the reports, not here
        n = len(plan.notes)
        console.print(
            ngettext(
                "{n} note on the article's figures ({codes}): in the report's Notes section "
                "(--format html, md, xlsx or json)",
                "{n} notes on the article's figures ({codes}): in the report's Notes section "
                "(--format html, md, xlsx or json)",
                n,
            ).format(n=n, codes=", ".join(x.code for x in plan.notes)),
            markup=False,
            highlight=False,
        )


def _sourcing(plan: Plan, console: Console, cur: str) -> None:
    src = plan.sourcing
    title = _("Sourcing") + f" ({src.method}, {code_label(src.status)}"
    if src.total_cost is not None:
        title += _(", cost {amount}").format(amount=money(src.total_cost, cur))
    if src.greedy_cost is not None:
        title += _(" vs greedy {amount}").format(amount=money(src.greedy_cost, cur))
    if src.mip_gap is not None:
        title += _(", gap {gap}").format(gap=percent_text(src.mip_gap, 2))
    if src.solve_seconds is not None:
        title += ", " + _locale.duration(src.solve_seconds)
    title += ")"
    lines = list(localise_all(src.explanation_texts, src.explanation))
    if src.status == "infeasible":
        console.print("[bold red]" + _("The constraints cannot all hold:") + "[/]")
        for line in lines[:1]:  # the statement: shown here, not again in the table
            console.print(Text("  ") + shown(line), highlight=False)
        lines = lines[1:]
    t = Table(title=title)
    t.add_column(_("decision"), overflow="fold")
    names = people_names(plan)
    if not src.explanation:  # a method without explanations: list the decisions themselves
        lines = [
            _("upskill {person} -> {role} (L{level}), ready month {month}: {reason}").format(
                person=names.get(a.person, a.person),
                role=code_label(a.role),
                level=a.level,
                month=a.ready_month,
                reason=localise(a.reason_text, a.reason),
            )
            for a in src.assignments
        ]
        lines += [
            _(
                "hire {count} x L{level} {role}: requisition month {requisition}, arrives {arrival}: {reason}"
            ).format(
                count=h.count,
                level=h.level,
                role=code_label(h.role),
                requisition=h.requisition_month,
                arrival=h.arrival_month,
                reason=localise(h.reason_text, h.reason),
            )
            for h in src.hires
        ]
    # the people left out and the open slots, unless the explanation already says so
    said = "\n".join(src.explanation)
    lines += [
        _("{person}: no target role").format(person=names.get(p, p))
        for p in src.unassigned
        if f"{names.get(p, p)} keeps" not in said
    ]
    shown_uncovered = localise_all(src.uncovered_texts, src.uncovered)
    lines += [
        _("uncovered: {slot}").format(slot=local)
        for u, local in list(zip(src.uncovered, shown_uncovered, strict=True))[:5]
        if u not in said
    ]
    for line in lines:
        t.add_row(shown(line))
    console.print(t)


def _readiness(rp: ReadinessPlan, console: Console, cur: str) -> None:
    """The cheapest plan and the readiness-optimised one, in one table."""
    t = Table(
        title=_("Optimised for readiness: target P(ready) {p}").format(p=percent_text(rp.target_p_ready))
    )
    for head in (_("plan"), _("cost"), _("expected cost"), _("P(ready), validated"), _("what changes")):
        t.add_column(head)

    def p_text(p: float | None, se: float | None) -> str:
        return "-" if p is None else f"{percent_text(p, 1)} ± {percent_text(se or 0.0, 1)}"

    t.add_row(
        _("cheapest"),
        money(rp.baseline_cost, cur),
        money(rp.baseline_expected_cost, cur),
        p_text(rp.baseline_p_ready, rp.baseline_p_ready_se),
        "",
    )
    if rp.cost is not None:
        t.add_row(
            _("for readiness"),
            money(rp.cost, cur),
            money(rp.expected_cost or 0.0, cur),
            p_text(rp.p_ready, rp.p_ready_se),
            shown("; ".join(localise_all(rp.changes_texts, rp.changes))),
        )
    console.print(t)
    console.print(shown("  " + localise(rp.gap_text, rp.gap)), highlight=False)


def _risk(risk: Risk, console: Console, cur: str) -> None:
    cp = risk.cost_percentiles
    console.print(
        "[bold]"
        + _("Risk")
        + "[/]: "
        + _(
            "P(ready by deadline, staff cover at least {threshold}) {p} ± {se}; cost P10/P50/P90 "
            "{costs}; the plan's own cost is at P{percentile}"
        ).format(
            threshold=percent_text(risk.readiness_threshold),
            p=percent_text(risk.p_ready_by_deadline, 1),
            se=percent_text(risk.p_ready_se, 1),
            costs=" / ".join(money(v, cur) for v in (cp.p10, cp.p50, cp.p90)),
            percentile=f"{risk.plan_cost_percentile * 100:.0f}",
        )
    )
    for line in readiness_lines(risk, cur):
        console.print(shown("  " + line), highlight=False)
    for b in [b for b in risk.bus_factors if b.p_zero > 0.05][:5]:
        console.print(
            shown(
                _("  key-person risk: {domain} held by {holders} now, P(none) {p}").format(
                    domain=_(b.name) if b.name else b.domain, holders=b.holders_now, p=percent_text(b.p_zero)
                )
            ),
            highlight=False,
        )


def print_roi(roi: Roi, console: Console, currency: str = "USD") -> None:
    t = Table(title=_("ROI - {basis}").format(basis=localise(roi.basis_text, roi.basis)))
    t.add_column(_("item"))
    t.add_column(currency, justify="right")
    for k, v in roi.investment_lines.items():
        t.add_row(_("investment: {item}").format(item=line_name(k)), money(v, currency))
    t.add_row("[bold]" + _("investment"), money(roi.investment, currency))
    for k, v in roi.return_lines.items():
        t.add_row(_("return: {item}").format(item=line_name(k)), money(v, currency))
    t.add_row("[bold]" + _("returns"), money(roi.returns, currency))
    if roi.months:
        t.add_row(_("annual return (last 12 months)"), money(roi.annual_return, currency))
    t.add_row(_("net ROI ((returns - investment) / investment)"), roi_text(roi, "net_roi"))
    t.add_row(
        _("benefit-cost ratio (returns / investment)"),
        _ratio(roi.benefit_cost_ratio)
        if roi.benefit_cost_ratio is not None
        else roi_text(roi, "benefit_cost_ratio"),
    )
    t.add_row(_("payback (months)"), roi_text(roi, "payback_months"))
    t.add_row(_("net present value"), roi_text(roi, "npv", currency))
    for x in roi.alternatives[1:]:
        t.add_row(
            _("against {counterfactual}: net ROI, NPV").format(counterfactual=code_label(x.counterfactual)),
            roi_text(x, "net_roi") + ", " + roi_text(x, "npv", currency),
        )
    console.print(t)
    for n in localise_all(roi.note_texts, roi.notes):
        console.print(_("note: {note}").format(note=n), markup=False, highlight=False)


def _ratio(value: float) -> str:
    from gputeam.i18n import formats

    return f"{value:.3f}" if formats.is_english() else formats.decimal(value, 3)
