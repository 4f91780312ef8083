"""What a plan says besides its figures, in two kinds.

* **Warnings** are about the user's plan and ask for action: late hires, uncovered slots,
  unknown prices, a budget overrun, people with no study time, and the one contradiction in
  the article that changes this plan's size (staffing density: template or lean).
* **Notes** are background about the article's own figures: where they disagree with each
  other (team totals, the power saving, what "465% ongoing" measures, titles). They go to
  their own section and do not crowd the terminal summary.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from gputeam.catalog import Catalog
from gputeam.planning.calendar import month_list
from gputeam.planning.result import Costs, Note, Roadmap, Sourcing, Target, Warning
from gputeam.planning.sizing import size_for
from gputeam.scenario import Scenario


def plan_warnings(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    sourcing: Sourcing,
    roadmaps: tuple[Roadmap, ...],
    costs: Costs,
) -> tuple[Warning, ...]:
    return tuple(_warnings(scenario, catalog, target, sourcing, roadmaps, costs))


def _warnings(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    sourcing: Sourcing,
    roadmaps: tuple[Roadmap, ...],
    costs: Costs,
) -> Iterator[Warning]:
    con = catalog.contradictions
    deadline = scenario.deadline
    c = scenario.constraints
    if c.deadline_month is not None and sourcing.hires and deadline <= c.hiring_lead_time_months:
        yield Warning(
            code="deadline-before-lead-time",
            message=f"deadline month {deadline} is not later than the hiring lead time "
            f"of {c.hiring_lead_time_months} months: hires cannot arrive in time",
        )
    late = [h for h in sourcing.hires if h.arrival_month > deadline]
    if late:
        yield Warning(
            code="hires-after-deadline",
            message=f"{sum(h.count for h in late)} hire(s) arrive after the deadline "
            f"(month {deadline}); contractors bridge until then",
        )
    if sourcing.uncovered:  # each line starts 'month N:' (the sourcing explains them)
        months = [int(m.group(1)) for u in sourcing.uncovered if (m := re.match(r"month (\d+):", u))]
        where = f" in {month_list(months)}" if months else ""
        yield Warning(
            code="uncovered",
            message=f"{len(sourcing.uncovered)} slot-month(s) stay "
            f"uncovered{where}; the sourcing decisions say why",
        )
    if deadline <= len(sourcing.coverage_by_month) and sourcing.coverage_by_month[deadline - 1] < 1:
        yield Warning(
            code="not-ready-by-deadline",
            message=f"staff cover {sourcing.coverage_by_month[deadline - 1]:.0%} of the "
            f"target in the deadline month {deadline}; the rest is contractors or open",
        )
    unknown = sorted(
        {i.ref for r in roadmaps for i in r.items if i.kind == "exam" and i.note == "exam price unknown"}
    )
    if unknown:
        yield Warning(
            code="unknown-price", message="exam price unknown (counted as $0): " + ", ".join(unknown)
        )
    idle = [p.name for p in scenario.people if p.weekly_study_hours <= 0]
    if idle:
        who = idle[0] if len(idle) == 1 else ", ".join(idle[:-1]) + " and " + idle[-1]
        yield Warning(
            code="no-study-time",
            message=f"{who} {'has' if len(idle) == 1 else 'have'} no weekly study "
            "hours: no training can be planned for them, so they can take only a "
            "role they already fit; set weekly_study_hours to plan their training",
        )
    if c.budget is not None and costs.horizon > c.budget:
        yield Warning(
            code="over-budget",
            message=f"the plan costs {costs.horizon:,.0f} over the "
            f"horizon, above the budget of {c.budget:,.0f}",
        )
    beyond = [s for s in scenario.fleet.gpus if s.month > scenario.horizon_months]
    if beyond:
        yield Warning(
            code="gpus-beyond-horizon",
            message=f"{len(beyond)} GPU step(s) start after the {scenario.horizon_months}"
            f"-month horizon (first: month {beyond[0].month}, {beyond[0].count:,} GPUs) "
            "and are not planned for; lengthen horizon_months to include them",
        )
    if scenario.currency != "USD" and scenario.usd_rate is None:
        yield Warning(
            code="currency-not-converted",
            message=f"currency is {scenario.currency} but no usd_rate is given: the "
            "catalog's US-dollar figures (salary bands, prices, contractor rate) are "
            f"shown unconverted as {scenario.currency}; set usd_rate to convert them",
        )
    # The one contradiction of the article that changes this plan: how densely to staff.
    peak = max(scenario.fleet.peak_gpus, 1)
    other = "lean" if scenario.mode == "template" else "template"
    alt = size_for(scenario.model_copy(update={"mode": other}), catalog, peak, 1).headcount
    here = size_for(scenario, catalog, peak, 1).headcount
    if here != alt:
        d = con["staffing-density"]
        yield Warning(
            code=d.id,
            source=d.source,
            message=f"{d.title}: at {peak:,} GPUs this {scenario.mode} plan needs "
            f"{here} people; {other} mode would need {alt}. {d.detail}",
        )
    if math.isclose(costs.horizon, 0.0):
        yield Warning(code="no-cost", message="the plan has no cost: is the fleet empty?")


def plan_notes(scenario: Scenario, catalog: Catalog) -> tuple[Note, ...]:
    """The article's contradictions that bear on this plan's figures, as background."""
    con = catalog.contradictions
    ids = ["team-totals"] if scenario.mode == "template" else []
    ids += ["power-saving", "roi-measures"]
    if any("architect" in p.title.lower() and p.level < 5 for p in scenario.people):
        ids.append("titles")
    return tuple(
        Note(code=d.id, source=d.source, message=f"{d.title}. {d.detail}")
        for d in (con[i] for i in ids if i in con)
    )
