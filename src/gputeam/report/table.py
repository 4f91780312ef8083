"""Terminal output: the plan summary as rich tables."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from gputeam.planning.result import Plan, Risk, Roi
from gputeam.report.sections import people_names, roi_text
from gputeam.report.tables import money

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
    head = Text.assemble((shown(sc.organisation, NAME_LIMIT).plain, "bold"),
                         f" - {plan.target.mode} plan, {sc.horizon_months} months from "
                         f"{sc.start.isoformat()}, deadline month {deadline}, "
                         f"catalog {plan.catalog_version}")
    console.print(head)
    t = Table(title=f"Target team at month {deadline} ({tm.gpus:,} GPUs, basis {tm.basis})")
    for col in ("role", "levels", "count", "rule"):
        t.add_column(col, overflow="fold")
    for s in tm.slots:
        t.add_row(shown(s.role, NAME_LIMIT), f"{s.level_min}-{s.level_max}", str(s.count),
                  shown(s.rule))
    console.print(t)

    _sourcing(plan, console, cur)

    t = Table(title="Roadmaps")
    for col in ("person", "role", "ready", "items", "exams"):
        t.add_column(col, overflow="fold")
    for r in plan.roadmaps:
        exams = ", ".join(i.ref for i in r.items if i.kind == "exam")
        t.add_row(shown(r.name, NAME_LIMIT), shown(r.role or "-", NAME_LIMIT),
                  f"month {r.ready_month}" if r.ready_month is not None else "-",
                  str(len(r.items)), shown(exams or "-"))
    console.print(t)

    t = Table(title=f"Costs ({cur})")
    for col in ("category", "first year", "horizon", "annual run rate"):
        t.add_column(col, justify="right" if col != "category" else "left")
    for line in plan.costs.lines:
        t.add_row(line.category, money(line.first_year, cur), money(line.horizon, cur),
                  money(line.annual_run_rate, cur))
    t.add_row("[bold]total", money(plan.costs.first_year, cur), money(plan.costs.horizon, cur),
              money(plan.costs.annual_run_rate, cur))
    t.add_row("fully outsourced (contractors)", "", "", money(plan.costs.outsourced_annual, cur))
    console.print(t)

    roi = plan.roi
    payback = roi_text(roi, "payback_months")
    console.print(f"ROI against {roi.counterfactual}: investment {money(roi.investment, cur)}, "
                  f"returns {money(roi.returns, cur)} over {len(roi.months)} months, net ROI "
                  f"{roi_text(roi, 'net_roi')}, NPV {roi_text(roi, 'npv', cur)}, payback "
                  + (f"{payback} months" if roi.payback_months is not None else payback),
                  markup=False, highlight=False)
    if plan.risk is not None:
        _risk(plan.risk, console, cur)
    from gputeam.report.case_study_view import print_case_study

    print_case_study(plan, console)
    if plan.warnings:
        console.print("[bold yellow]Warnings[/]")
        for w in plan.warnings:
            console.print(Text(f"  - [{w.code}] ") + shown(w.message), highlight=False)
    if plan.notes:  # background on the article's figures: in the reports, not here
        n = len(plan.notes)
        console.print(f"{n} {'note' if n == 1 else 'notes'} on the article's figures "
                      f"({', '.join(x.code for x in plan.notes)}): in the report's Notes section "
                      "(--format html, md, xlsx or json)", markup=False, highlight=False)


def _sourcing(plan: Plan, console: Console, cur: str) -> None:
    src = plan.sourcing
    title = f"Sourcing ({src.method}, {src.status}"
    if src.total_cost is not None:
        title += f", cost {money(src.total_cost, cur)}"
    if src.greedy_cost is not None:
        title += f" vs greedy {money(src.greedy_cost, cur)}"
    if src.mip_gap is not None:
        title += f", gap {src.mip_gap:.2%}"
    if src.solve_seconds is not None:
        title += f", {src.solve_seconds:.2f} s"
    title += ")"
    lines = list(src.explanation)
    if src.status == "infeasible":
        console.print("[bold red]The constraints cannot all hold:[/]")
        for line in lines[:1]:  # the statement: shown here, not again in the table
            console.print(Text("  ") + shown(line), highlight=False)
        lines = lines[1:]
    t = Table(title=title)
    t.add_column("decision", overflow="fold")
    names = people_names(plan)
    if not src.explanation:  # a method without explanations: list the decisions themselves
        lines = [f"upskill {names.get(a.person, a.person)} -> {a.role} (L{a.level}), ready month "
                 f"{a.ready_month}: {a.reason}" for a in src.assignments]
        lines += [f"hire {h.count} x L{h.level} {h.role}: requisition month "
                  f"{h.requisition_month}, arrives {h.arrival_month}: {h.reason}" for h in src.hires]
    # the people left out and the open slots, unless the explanation already says so
    said = "\n".join(src.explanation)
    lines += [f"{names.get(p, p)}: no target role" for p in src.unassigned
              if f"{names.get(p, p)} keeps" not in said]
    lines += [f"uncovered: {u}" for u in src.uncovered[:5] if u not in said]
    for line in lines:
        t.add_row(shown(line))
    console.print(t)


def _risk(risk: Risk, console: Console, cur: str) -> None:
    cp = risk.cost_percentiles
    console.print(f"[bold]Risk[/]: P(ready by deadline, at least {risk.readiness_threshold:.0%} "
                  f"covered) {risk.p_ready_by_deadline:.0%}; cost P10/P50/P90 "
                  + " / ".join(money(v, cur) for v in (cp.p10, cp.p50, cp.p90))
                  + f"; the plan's own cost is at P{risk.plan_cost_percentile * 100:.0f}")
    for b in [b for b in risk.bus_factors if b.p_zero > 0.05][:5]:
        console.print(shown(f"  key-person risk: {b.name or b.domain} held by {b.holders_now} now, "
                            f"P(none) {b.p_zero:.0%}"), highlight=False)


def print_roi(roi: Roi, console: Console, currency: str = "USD") -> None:
    t = Table(title=f"ROI - {roi.basis}")
    t.add_column("item")
    t.add_column(currency, justify="right")
    for k, v in roi.investment_lines.items():
        t.add_row(f"investment: {k}", money(v, currency))
    t.add_row("[bold]investment", money(roi.investment, currency))
    for k, v in roi.return_lines.items():
        t.add_row(f"return: {k}", money(v, currency))
    t.add_row("[bold]returns", money(roi.returns, currency))
    if roi.months:
        t.add_row("annual return (last 12 months)", money(roi.annual_return, currency))
    t.add_row("net ROI ((returns - investment) / investment)", roi_text(roi, "net_roi"))
    t.add_row("benefit-cost ratio (returns / investment)",
              f"{roi.benefit_cost_ratio:.3f}" if roi.benefit_cost_ratio is not None
              else roi_text(roi, "benefit_cost_ratio"))
    t.add_row("payback (months)", roi_text(roi, "payback_months"))
    t.add_row("net present value", roi_text(roi, "npv", currency))
    console.print(t)
    for n in roi.notes:
        console.print(f"note: {n}", markup=False, highlight=False)
