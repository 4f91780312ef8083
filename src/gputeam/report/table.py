"""Terminal output: the plan summary as rich tables."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from gputeam.planning.result import Plan


def money(x: float, currency: str = "USD") -> str:
    sign = "$" if currency == "USD" else f"{currency} "
    return f"{sign}{x:,.0f}"


def print_plan(plan: Plan, console: Console) -> None:
    sc = plan.scenario
    cur = plan.costs.currency
    deadline = (sc["constraints"].get("deadline_month") or sc["horizon_months"])
    tm = plan.target.at(deadline)
    console.print(f"[bold]{sc['organisation']}[/] - {plan.target.mode} plan, "
                  f"{sc['horizon_months']} months from {sc['start']}, deadline month {deadline}, "
                  f"catalog {plan.catalog_version}")
    t = Table(title=f"Target team at month {deadline} ({tm.gpus:,} GPUs, basis {tm.basis})")
    for col in ("role", "levels", "count", "rule"):
        t.add_column(col, overflow="fold")
    for s in tm.slots:
        t.add_row(s.role, f"{s.level_min}-{s.level_max}", str(s.count), s.rule)
    console.print(t)

    _sourcing(plan, console, cur)

    t = Table(title="Roadmaps")
    for col in ("person", "role", "ready", "items", "exams"):
        t.add_column(col, overflow="fold")
    for r in plan.roadmaps:
        exams = ", ".join(i.ref for i in r.items if i.kind == "exam")
        t.add_row(r.name, r.role or "-", f"month {r.ready_month}" if r.ready_month else "-",
                  str(len(r.items)), exams or "-")
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
    console.print(f"[bold]ROI[/]: investment {money(roi.investment, cur)}, annual return "
                  f"{money(roi.annual_return, cur)}, net ROI {roi.net_roi:.1%}, benefit-cost "
                  f"ratio {roi.benefit_cost_ratio:.2f}, payback "
                  + (f"{roi.payback_months:.1f} months" if roi.payback_months else "never"))
    if plan.risk:
        _risk(plan.risk, console, cur)
    from gputeam.report.case_study_view import print_case_study

    print_case_study(plan, console)
    if plan.warnings:
        console.print("[bold yellow]Warnings[/]")
        for w in plan.warnings:
            console.print(f"  - [{w.code}] {w.message}", markup=False, highlight=False)


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
    if src.status == "infeasible":
        console.print("[bold red]The constraints cannot all hold:[/]")
        for line in src.explanation[:1]:
            console.print(f"  {line}", markup=False, highlight=False)
    t = Table(title=title)
    t.add_column("decision", overflow="fold")
    lines = list(src.explanation)
    if not lines:  # a method without explanations: list the decisions themselves
        lines = [f"upskill {a.person} -> {a.role} (L{a.level}), ready month {a.ready_month}: "
                 f"{a.reason}" for a in src.assignments]
        lines += [f"hire {h.count} x L{h.level} {h.role}: requisition month "
                  f"{h.requisition_month}, arrives {h.arrival_month}: {h.reason}" for h in src.hires]
    for line in lines:
        t.add_row(line)
    for p in src.unassigned:
        t.add_row(f"{p}: no target role")
    for u in src.uncovered[:5]:
        t.add_row(f"uncovered: {u}")
    console.print(t)


def _risk(risk: dict[str, Any], console: Console, cur: str) -> None:
    p = risk.get("p_ready_by_deadline")
    cp = risk.get("cost_percentiles") or {}
    text = "[bold]Risk[/]:"
    if p is not None:
        text += f" P(ready by deadline) {p:.0%};"
    if cp:
        text += (" cost P10/P50/P90 " + " / ".join(money(cp.get(k, 0), cur)
                                                   for k in ("p10", "p50", "p90")) + ";")
    console.print(text)
    weak = [b for b in risk.get("bus_factors", []) if b.get("p_zero", 0) > 0.05]
    for b in weak[:5]:
        console.print(f"  key-person risk: {b['domain']} held by {b['holders_now']} now, "
                      f"P(none) {b['p_zero']:.0%}")


def print_roi(roi: Any, console: Console) -> None:
    t = Table(title=f"ROI - {roi.basis}")
    t.add_column("item")
    t.add_column("USD", justify="right")
    for k, v in roi.investment_lines.items():
        t.add_row(f"investment: {k}", money(v))
    t.add_row("[bold]investment", money(roi.investment))
    for k, v in roi.return_lines.items():
        t.add_row(f"annual return: {k}", money(v))
    t.add_row("[bold]annual return", money(roi.annual_return))
    t.add_row("net ROI ((return - investment) / investment)", f"{roi.net_roi:.1%}")
    t.add_row("benefit-cost ratio (return / investment)", f"{roi.benefit_cost_ratio:.3f}")
    if roi.payback_months is not None:
        t.add_row("payback", f"{roi.payback_months:.1f} months")
    console.print(t)
    for n in roi.notes:
        console.print(f"note: {n}", markup=False, highlight=False)
