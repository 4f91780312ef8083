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
from gputeam.catalog.models import Contradiction
from gputeam.i18n import N_, Nn_
from gputeam.planning import hardware
from gputeam.planning.calendar import month_list_text
from gputeam.planning.costs import band_warnings
from gputeam.planning.result import Costs, Note, Roadmap, Sourcing, Target, Warning
from gputeam.planning.sizing import size_for
from gputeam.planning.text import Money, Term, say, say_n
from gputeam.scenario import Scenario


def plan_warnings(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    sourcing: Sourcing,
    roadmaps: tuple[Roadmap, ...],
    costs: Costs,
) -> tuple[Warning, ...]:
    bands = band_warnings(scenario, catalog)  # what the plan's salary bands assume
    found = _warnings(scenario, catalog, target, sourcing, roadmaps, costs)
    return (*found, *(Warning(code="salary-bands", text=t) for t in bands))


def _warnings(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    sourcing: Sourcing,
    roadmaps: tuple[Roadmap, ...],
    costs: Costs,
) -> Iterator[Warning]:
    yield from hardware.warnings(scenario, catalog)
    con = catalog.contradictions
    deadline = scenario.deadline
    c = scenario.constraints
    if c.deadline_month is not None and sourcing.hires and deadline <= c.hiring_lead_time_months:
        yield Warning(
            code="deadline-before-lead-time",
            text=say_n(
                Nn_(
                    "deadline month {deadline} is not later than the hiring lead time of "
                    "{lead} month: hires cannot arrive in time",
                    "deadline month {deadline} is not later than the hiring lead time of "
                    "{lead} months: hires cannot arrive in time",
                ),
                "lead",
                deadline=deadline,
                lead=c.hiring_lead_time_months,
            ),
        )
    first_gpu = min((g.month for g in scenario.fleet.gpus if g.count > 0), default=None)
    if c.deadline_month is not None and (first_gpu is None or deadline < first_gpu):
        yield Warning(
            code="deadline-before-gpus",
            text=(
                say(
                    N_(
                        "deadline month {deadline} is before the first GPU arrives (month "
                        "{month}): readiness by the deadline is judged on a team for GPUs that "
                        "are not there yet; set the deadline to when the team must run them"
                    ),
                    deadline=deadline,
                    month=first_gpu,
                )
                if first_gpu is not None
                else say(
                    N_(
                        "deadline month {deadline} is set but no GPU arrives within the fleet's "
                        "steps: readiness by the deadline means nothing yet"
                    ),
                    deadline=deadline,
                )
            ),
        )
    late = [h for h in sourcing.hires if h.arrival_month > deadline]
    if late:
        yield Warning(
            code="hires-after-deadline",
            text=say_n(
                Nn_(
                    "{count} hire arrives after the deadline (month {month}); contractors bridge until then",
                    "{count} hires arrive after the deadline (month {month}); contractors bridge until then",
                ),
                "count",
                count=sum(h.count for h in late),
                month=deadline,
            ),
        )
    if sourcing.uncovered:  # each line starts 'month N:' (the sourcing explains them)
        months = [int(m.group(1)) for u in sourcing.uncovered if (m := re.match(r"month (\d+):", u))]
        forms = (
            Nn_(
                "{count} slot-month stays uncovered in {months}; the sourcing decisions say why",
                "{count} slot-months stay uncovered in {months}; the sourcing decisions say why",
            )
            if months
            else Nn_(
                "{count} slot-month stays uncovered; the sourcing decisions say why",
                "{count} slot-months stay uncovered; the sourcing decisions say why",
            )
        )
        yield Warning(
            code="uncovered",
            text=say_n(forms, "count", count=len(sourcing.uncovered), months=month_list_text(months)),
        )
    if deadline <= len(sourcing.coverage_by_month) and sourcing.coverage_by_month[deadline - 1] < 1:
        yield Warning(
            code="not-ready-by-deadline",
            text=say(
                N_(
                    "staff cover {share:.0%} of the target in the deadline month {month}; "
                    "the rest is contractors or open"
                ),
                share=sourcing.coverage_by_month[deadline - 1],
                month=deadline,
            ),
        )
    unknown = sorted(
        {i.ref for r in roadmaps for i in r.items if i.kind == "exam" and i.note == "exam price unknown"}
    )
    if unknown:
        yield Warning(
            code="unknown-price",
            text=say(
                N_("exam price unknown (counted as {zero}): {exams}"),
                zero=Money(amount=0, currency=scenario.currency),
                exams=tuple(unknown),
            ),
        )
    idle = [p.name for p in scenario.people if p.weekly_study_hours <= 0]
    if idle:
        yield Warning(
            code="no-study-time",
            text=say_n(
                Nn_(
                    "{people} has no weekly study hours: no training can be planned for them, "
                    "so they can take only a role they already fit; set weekly_study_hours to "
                    "plan their training",
                    "{people} have no weekly study hours: no training can be planned for them, "
                    "so they can take only a role they already fit; set weekly_study_hours to "
                    "plan their training",
                ),
                "count",
                people=tuple(idle),
                count=len(idle),
            ),
        )
    if c.budget is not None and costs.horizon > c.budget:
        yield Warning(
            code="over-budget",
            text=say(
                N_("the plan costs {cost} over the horizon, above the budget of {budget}"),
                cost=Money(amount=costs.horizon, currency=scenario.currency),
                budget=Money(amount=c.budget, currency=scenario.currency),
            ),
        )
    beyond = [s for s in scenario.fleet.gpus if s.month > scenario.horizon_months]
    if beyond:
        yield Warning(
            code="gpus-beyond-horizon",
            text=say_n(
                Nn_(
                    "{count} GPU step starts after the {horizon}-month horizon (first: month "
                    "{month}, {gpus:,} GPUs) and is not planned for; lengthen horizon_months "
                    "to include it",
                    "{count} GPU steps start after the {horizon}-month horizon (first: month "
                    "{month}, {gpus:,} GPUs) and are not planned for; lengthen horizon_months "
                    "to include them",
                ),
                "count",
                count=len(beyond),
                horizon=scenario.horizon_months,
                month=beyond[0].month,
                gpus=beyond[0].count,
            ),
        )
    if scenario.currency != "USD" and scenario.usd_rate is None:
        yield Warning(
            code="currency-not-converted",
            text=say(
                N_(
                    "currency is {currency} but no usd_rate is given: the catalog's US-dollar "
                    "figures (salary bands, prices, contractor rate) are shown unconverted as "
                    "{currency}; set usd_rate to convert them"
                ),
                currency=scenario.currency,
            ),
        )
    for old, new, value in (
        ("constraints.contractors.rate_usd_h", "constraints.contractors.rate_h", c.contractors.rate_usd_h),
        ("fleet.usd_per_kwh", "fleet.price_per_kwh", scenario.fleet.usd_per_kwh),
    ):
        if value is not None:
            yield Warning(
                code="deprecated-field",
                text=say(
                    N_(
                        "{old} is deprecated: its {value} is converted to {converted} at "
                        "usd_rate {rate:g}; give {new} in {currency} instead"
                    ),
                    old=old,
                    new=new,
                    value=Money(amount=value, currency="USD"),
                    converted=Money(amount=value * (scenario.usd_rate or 1), currency=scenario.currency),
                    rate=scenario.usd_rate or 1,
                    currency=scenario.currency,
                ),
            )
    # The one contradiction of the article that changes this plan: how densely to staff.
    peak = max(scenario.fleet.peak_gpus, 1)
    other = "lean" if scenario.mode == "template" else "template"
    alt = size_for(scenario.model_copy(update={"mode": other}), catalog, peak, 1).headcount
    here = size_for(scenario, catalog, peak, 1).headcount
    if here != alt:
        yield density_warning(con["staffing-density"], peak, here, alt, scenario.mode)
    if math.isclose(costs.horizon, 0.0):
        yield Warning(code="no-cost", text=say(N_("the plan has no cost: is the fleet empty?")))


def density_warning(d: Contradiction, gpus: int, here: int, alt: int, mode: str) -> Warning:
    """The staffing-density warning, whose words follow its numbers (issue 18): the
    contradiction's title ("templates staff far more densely") only where the template
    plan does need more people than lean mode; otherwise a sentence that says the reverse."""
    template, lean = (here, alt) if mode == "template" else (alt, here)
    if template > lean:
        text = say(
            N_(
                "{title}: at {gpus:,} GPUs the article's template rosters need {template} people, "
                "lean mode (sized from the fleet's work) {lean}. {detail}"
            ),
            title=Term(term=d.title),
            gpus=gpus,
            template=template,
            lean=lean,
            detail=Term(term=d.detail),
        )
    else:
        text = say(
            N_(
                "Staffing density (article §5, §7): at {gpus:,} GPUs the article's template rosters "
                "need {template} people, lean mode (sized from the fleet's work) {lean}: here the "
                "templates staff less densely, not more"
            ),
            gpus=gpus,
            template=template,
            lean=lean,
        )
    return Warning(code=d.id, source=d.source, text=text)


def plan_notes(scenario: Scenario, catalog: Catalog) -> tuple[Note, ...]:
    """The article's contradictions that bear on this plan's figures, as background."""
    con = catalog.contradictions
    ids = ["team-totals"] if scenario.mode == "template" else []
    ids += ["power-saving", "roi-measures"]
    if any("architect" in p.title.lower() and p.level < 5 for p in scenario.people):
        ids.append("titles")
    return tuple(
        Note(
            code=d.id,
            source=d.source,
            text=say(N_("{title}. {detail}"), title=Term(term=d.title), detail=Term(term=d.detail)),
        )
        for d in (con[i] for i in ids if i in con)
    )
