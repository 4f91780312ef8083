"""The Risk section (issue 3's simulation) as typed tables, and the ROI sensitivity order
the tornado chart shares."""

from __future__ import annotations

import math
from typing import Any

from gputeam.i18n import _
from gputeam.planning.result import Plan, Risk, Sensitivity
from gputeam.report.tables import Cell, Column, Section, Table, money, percent_text
from gputeam.report.words import line_name

__all__ = ["plan_cost_sentence", "risk_section", "sensitivity"]


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
        (_("Plan's own cost"), Cell(risk.plan_cost, "money")),
        (_("Share of runs costing no more than the plan"), Cell(risk.plan_cost_percentile, "pct")),
        (_("Mean simulated cost"), Cell(risk.mean_cost, "money")),
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
    return Section("risk", _("Risk"), tuple(tables), notes=(plan_cost_sentence(risk, plan.costs.currency),))


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
