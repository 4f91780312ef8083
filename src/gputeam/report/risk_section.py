"""The Risk section (issue 3's simulation) as typed tables, and the ROI sensitivity order
the tornado chart shares."""

from __future__ import annotations

import math
from typing import Any

from gputeam.i18n import _
from gputeam.planning.result import Plan, ReadinessPlan, Risk, Sensitivity
from gputeam.report.tables import Cell, Column, Section, Table, money, percent_text
from gputeam.report.words import line_name, localise, localise_all

__all__ = [
    "best_case_sentence",
    "plan_cost_sentence",
    "readiness_lines",
    "readiness_plan_section",
    "risk_section",
    "sensitivity",
]


def risk_section(plan: Plan, risk: Risk) -> Section:
    cp = risk.cost_percentiles
    head: list[tuple[Any, ...]] = [
        (_("Probability ready by deadline"), Cell(risk.p_ready_by_deadline, "pct")),
        (
            _("Readiness threshold (share of the deadline month's slots covered)"),
            Cell(risk.readiness_threshold, "pct"),
        ),
        (_("Deadline month"), Cell(risk.deadline_month, "month")),
        (_("Probability every slot is covered at the deadline"), Cell(risk.p_fully_covered, "pct")),
        (_("Standard error of the probability ready (Monte Carlo)"), Cell(risk.p_ready_se, "pct")),
        (
            _("Covered by contractors at the deadline (planned)"),
            Cell(risk.contractor_share_at_deadline, "pct"),
        ),
        (
            _("Probability ready counting the planned contractors"),
            Cell(risk.p_ready_with_contractors, "pct"),
        ),
        (_("Plan's own cost"), Cell(risk.plan_cost, "money")),
        (_("Share of runs costing no more than the plan"), Cell(risk.plan_cost_percentile, "pct")),
        (_("Mean simulated cost"), Cell(risk.mean_cost, "money")),
        *(
            [
                (_("Budget"), Cell(risk.budget, "money")),
                (_("Probability the cost is within the budget"), Cell(risk.p_cost_within_budget, "pct")),
                (
                    _("Standard error of that probability (Monte Carlo)"),
                    Cell(risk.p_cost_within_budget_se, "pct"),
                ),
            ]
            if risk.budget is not None
            else []
        ),
        (_("Cost P10"), Cell(cp.p10, "money")),
        (_("Cost P50"), Cell(cp.p50, "money")),
        (_("Cost P90"), Cell(cp.p90, "money")),
        (_("Simulated runs"), Cell(risk.runs, "int")),
        (_("Random seed"), Cell(risk.seed, "int")),
    ]
    tables: list[Table] = [Table("risk", (Column(_("Item")), Column(_("Value"))), tuple(head))]
    d = risk.cost_drivers
    tables.append(
        Table(
            "risk_cost_drivers",
            (Column(_("Cause")), Column(_("Mean per run"), "money")),
            (
                (_("Exam retakes"), d.exam_retakes),
                (_("Contractors covering vacant or late slots"), d.contractor_backfill),
                (_("Recruiting replacements for leavers"), d.recruiting),
                (_("Salaries (negative: not paid while posts are vacant)"), d.salaries),
            ),
            title=_("What moves a simulated run away from the plan's cost"),
        )
    )
    bands = risk.coverage_bands
    n = max(len(bands.p10), len(bands.p50), len(bands.p90))

    def band(values: tuple[float, ...], i: int) -> float | None:
        return values[i] if i < len(values) else None

    tables.append(
        Table(
            "risk_coverage",
            (
                Column(_("Month"), "month"),
                Column(_("Coverage P10"), "pct"),
                Column(_("Coverage P50"), "pct"),
                Column(_("Coverage P90"), "pct"),
            ),
            tuple((i + 1, band(bands.p10, i), band(bands.p50, i), band(bands.p90, i)) for i in range(n)),
            title=_("Coverage by month"),
        )
    )
    bus = tuple(
        (
            _(b.name) if b.name else b.domain,
            b.holders_now,
            min(b.holders_by_month, default=None),
            b.holders_by_month[-1] if b.holders_by_month else None,
            b.p_zero,
        )
        for b in risk.bus_factors
    )
    tables.append(
        Table(
            "risk_bus",
            (
                Column(_("Domain")),
                Column(_("Holders now"), "number"),
                Column(_("Fewest holders (any month)"), "number"),
                Column(_("Holders at end"), "number"),
                Column(_("P(no holder)"), "pct"),
            ),
            bus,
            title=_("Key-person risk by skill domain"),
        )
    )
    sens = tuple(
        (line_name(s.assumption), s.low_value, s.high_value, s.npv_low, s.npv_high, s.roi_low, s.roi_high)
        for s in sensitivity(risk)
    )
    tables.append(
        Table(
            "risk_sensitivity",
            (
                Column(_("Assumption")),
                Column(_("Low value"), "number"),
                Column(_("High value"), "number"),
                Column(_("NPV at low"), "money"),
                Column(_("NPV at high"), "money"),
                Column(_("Net ROI at low"), "pct"),
                Column(_("Net ROI at high"), "pct"),
            ),
            sens,
            title=_("ROI sensitivity (the team plan held fixed)"),
        )
    )
    notes = (plan_cost_sentence(risk, plan.costs.currency), *readiness_lines(risk, plan.costs.currency))
    return Section("risk", _("Risk"), tuple(tables), notes=notes)


def readiness_plan_section(rp: ReadinessPlan) -> Section:
    """The cheapest plan and the one optimised for readiness, in one table (issue 19 item 5)."""
    rows: list[tuple[Any, ...]] = [
        (
            _("cheapest"),
            Cell(rp.baseline_cost, "money"),
            Cell(rp.baseline_expected_cost, "money"),
            Cell(rp.baseline_p_ready, "pct"),
            Cell(rp.baseline_p_ready_se, "pct"),
            "",
        )
    ]
    if rp.cost is not None:
        rows.append(
            (
                _("for readiness"),
                Cell(rp.cost, "money"),
                Cell(rp.expected_cost, "money"),
                Cell(rp.p_ready, "pct"),
                Cell(rp.p_ready_se, "pct"),
                "; ".join(localise_all(rp.changes_texts, rp.changes)),
            )
        )
    table = Table(
        "readiness_plan",
        (
            Column(_("plan")),
            Column(_("cost"), "money"),
            Column(_("expected cost"), "money"),
            Column(_("P(ready), validated"), "pct"),
            Column(_("Standard error of the probability ready (Monte Carlo)"), "pct"),
            Column(_("what changes")),
        ),
        tuple(rows),
    )
    title = _("Optimised for readiness: target P(ready) {p}").format(p=percent_text(rp.target_p_ready))
    return Section("readiness_plan", title, (table,), notes=(localise(rp.gap_text, rp.gap),))


def readiness_lines(risk: Risk, currency: str) -> tuple[str, ...]:
    """What the headline probability leaves out, each its own sentence: the contractors the
    plan counts on at the deadline, the chance of staying within the budget, a best case."""
    out: list[str] = []
    if risk.contractor_share_at_deadline > 0:
        out.append(
            _(
                "Covered by contractors: {share} of the deadline month's target; they are not "
                "counted as ready (counting them, {p} of runs reach the threshold)."
            ).format(
                share=percent_text(risk.contractor_share_at_deadline),
                p=percent_text(risk.p_ready_with_contractors or 0.0),
            )
        )
    if risk.budget is not None and risk.p_cost_within_budget is not None:
        out.append(
            _("P(cost within the budget of {budget}) {p} ± {se} (Monte Carlo standard error).").format(
                budget=money(risk.budget, currency),
                p=percent_text(risk.p_cost_within_budget, 1),
                se=percent_text(risk.p_cost_within_budget_se or 0.0, 1),
            )
        )
    sentence = best_case_sentence(risk, currency)
    if sentence:
        out.append(sentence)
    return tuple(out)


def best_case_sentence(risk: Risk, currency: str) -> str:
    """When the plan's own cost is a best case (at or below P10 of the runs), say so and
    give the costs to budget for instead; empty otherwise."""
    if not risk.plan_cost_best_case:
        return ""
    pct = risk.plan_cost_percentile
    return _(
        "The plan's own cost is a best case: it is at P{percentile} of the simulated runs. "
        "Budget for the median run, {p50}, or {p90} to be safe in nine runs out of ten."
    ).format(
        percentile=f"{pct * 100:.0f}",
        p50=money(risk.cost_percentiles.p50, currency),
        p90=money(risk.cost_percentiles.p90, currency),
    )


def plan_cost_sentence(risk: Risk, currency: str) -> str:
    """Where the plan's own cost lies in its simulated distribution, and why, in words."""
    d = risk.cost_drivers
    causes = [
        (d.exam_retakes, _("exam retakes")),
        (
            d.contractor_backfill,
            _(
                "contractors covering slots whose staff are late (studies "
                "running over, exam retakes, hires arriving after the planned month) or gone"
            ),
        ),
        (d.recruiting, _("recruiting replacements for leavers")),
    ]
    added = "; ".join(
        _("{amount} of {what}").format(amount=money(v, currency), what=what)
        for v, what in causes
        if abs(v) >= 0.5
    ) or _("nothing")
    if abs(d.salaries) < 0.5:
        saved = ""
    elif d.salaries < 0:
        saved = _("; salaries not paid while posts are vacant save {amount}").format(
            amount=money(abs(d.salaries), currency)
        )
    else:
        saved = _("; salaries add {amount}").format(amount=money(abs(d.salaries), currency))
    pct = risk.plan_cost_percentile
    share = _("fewer than 1%") if 0 < pct < 0.005 else percent_text(pct)
    return _(
        "The plan's own cost ({cost}) is the run in which every exam is passed at the first "
        "attempt, every study ends on time, nobody leaves and every hire arrives in the "
        "planned month; {share} of the simulated runs cost no more than that. On average a "
        "run adds {added}{saved}, for a mean of {mean}. Delays are uneven in cost: a slot that "
        "is late is covered by contractors at their rate, while one that is early saves "
        "little, so uncertainty alone raises the expected cost above the plan's."
    ).format(
        cost=money(risk.plan_cost, currency),
        share=share,
        added=added,
        saved=saved,
        mean=money(risk.mean_cost, currency),
    )


def sensitivity(risk: Risk) -> list[Sensitivity]:
    """The sensitivity entries, widest NPV swing first (NPV is always defined; net ROI is not
    when the plan has no investment)."""

    def swing(s: Sensitivity) -> float:
        width = abs(s.npv_high - s.npv_low)
        return width if math.isfinite(width) else 0.0

    return sorted(risk.sensitivity, key=swing, reverse=True)
