"""The article's case-study outcomes beside the plan's (article §7).

A scenario that models one of the case studies names it (``case_study``); each outcome the
case study states as a figure (catalog ``case_studies[].measures``) is read from the plan
the same way, and the two are set side by side with the reason a plan can differ.

Agreement tolerances: counts and months exactly; money within :data:`MONEY_TOLERANCE` of the
article's figure; shares within :data:`SHARE_TOLERANCE`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from gputeam.catalog import Catalog
from gputeam.catalog.models import CaseMeasure
from gputeam.i18n import N_
from gputeam.planning.calendar import month_of
from gputeam.planning.result import (
    CaseOutcome,
    CaseStudyComparison,
    Costs,
    Roadmap,
    Sourcing,
    Target,
)
from gputeam.planning.text import Term, concat, say
from gputeam.scenario import Scenario

MONEY_TOLERANCE = 0.10
SHARE_TOLERANCE = 0.05

Unit = Literal["count", "money", "share", "month"]
_UNITS: dict[str, Unit] = {
    "certified": "count",
    "hires": "count",
    "headcount": "count",
    "cost": "money",
    "staffed_share": "share",
    "saving_vs_outsourced": "share",
    "ready_month": "month",
}


def _certified(m: CaseMeasure, scenario: Scenario, roadmaps: Sequence[Roadmap]) -> int:
    """People holding one of the certifications by the end of month ``m.month``: held now
    (and not expired by then) or passed on a roadmap by then."""
    wanted = set(m.certifications)
    by_month = m.month or scenario.horizon_months
    holders: set[str] = set()
    for p in scenario.people:
        if any(
            h.id in wanted and (h.expires is None or month_of(scenario.start, h.expires) >= by_month)
            for h in p.certifications
        ):
            holders.add(p.id)
    for r in roadmaps:
        if any(
            i.kind == "exam" and i.ref in wanted and month_of(scenario.start, i.end) <= by_month
            for i in r.items
        ):
            holders.add(r.person)
    return len(holders)


def _figure(
    m: CaseMeasure,
    scenario: Scenario,
    target: Target,
    sourcing: Sourcing,
    roadmaps: Sequence[Roadmap],
    costs: Costs,
) -> float | None:
    last = m.month or scenario.horizon_months
    if m.kind == "certified":
        return float(_certified(m, scenario, roadmaps))
    if m.kind == "cost":
        return sum(
            (line.first_year if m.period == "first_year" else line.horizon)
            for line in costs.lines
            if line.category in m.categories
        )
    if m.kind == "hires":
        return float(
            sum(
                h.count
                for h in sourcing.hires
                if (m.level is None or h.level == m.level) and m.from_month <= h.arrival_month <= last
            )
        )
    if m.kind == "headcount":
        return float(target.at(last).headcount)
    if m.kind == "staffed_share":
        shares = sourcing.coverage_by_month
        return shares[last - 1] if 1 <= last <= len(shares) else None
    if m.kind == "ready_month":
        month = sourcing.ready_month()
        return None if month is None else float(month)
    # saving_vs_outsourced
    if costs.outsourced_annual <= 0:
        return None
    return 1 - costs.annual_run_rate / costs.outsourced_annual


def _agrees(unit: Unit, article: float, plan: float | None) -> bool:
    if plan is None:
        return False
    if unit == "money":
        return abs(plan - article) <= MONEY_TOLERANCE * abs(article)
    if unit == "share":
        return abs(plan - article) <= SHARE_TOLERANCE
    return round(plan) == round(article)


def compare_case_study(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    sourcing: Sourcing,
    roadmaps: Sequence[Roadmap],
    costs: Costs,
) -> CaseStudyComparison | None:
    """The case study's stated outcomes beside the plan's, or None when the scenario models
    none (or the catalog in use does not have it)."""
    study = catalog.case_studies.get(scenario.case_study or "")
    if study is None:
        return None
    outcomes = []
    for m in study.measures:
        unit = _UNITS[m.kind]
        figure = _figure(m, scenario, target, sourcing, roadmaps, costs)
        agrees = _agrees(unit, m.article, figure)
        if figure is None:
            reason = say(N_("The plan has no such figure. {why}"), why=Term(term=m.why))
        elif agrees:
            reason = say(N_("Agrees with the article."))
        else:
            reason = concat(Term(term=m.why))
        outcomes.append(
            CaseOutcome(
                id=m.id,
                label=m.label,
                stated=m.stated,
                article=m.article,
                plan=figure,
                unit=unit,
                agrees=agrees,
                reason_text=reason,
                source=m.source,
            )
        )
    return CaseStudyComparison(id=study.id, name=study.name, source=study.source, outcomes=tuple(outcomes))


__all__ = ["MONEY_TOLERANCE", "SHARE_TOLERANCE", "compare_case_study"]
