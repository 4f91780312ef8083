"""The planning pipeline: scenario + catalog + today -> Plan. Pure: no I/O, no clock."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from gputeam.catalog import Catalog
from gputeam.planning.calendar import add_months
from gputeam.planning.case_study import compare_case_study
from gputeam.planning.costs import compute_costs
from gputeam.planning.gaps import find_gaps
from gputeam.planning.notices import plan_notes, plan_warnings
from gputeam.planning.optimiser_model import peak_slots
from gputeam.planning.result import Plan, Roadmap
from gputeam.planning.risk import assess
from gputeam.planning.roadmap import build_roadmap, hire_roadmaps
from gputeam.planning.roi import compute_roi
from gputeam.planning.sizing import size
from gputeam.planning.sourcing import candidates, source
from gputeam.scenario import Scenario

#: The pipeline's stages, in order, as reported to a ``progress`` callback.
STAGES = ("sizing", "roadmaps", "sourcing", "costs", "risk")


def plan(
    scenario: Scenario,
    catalog: Catalog,
    today: date,
    method: str = "mip",
    seed: int = 0,
    runs: int = 2000,
    progress: Callable[[str, int, int], None] | None = None,
) -> Plan:
    """Compute the whole plan for ``scenario`` against ``catalog``.

    ``today`` is passed in (never read from the clock) so the same inputs give the same plan.
    ``method`` picks the sourcing decision: 'mip' (the exact optimiser, default) or 'rule'
    (the greedy baseline). ``runs`` Monte Carlo runs (0: no risk section) from ``seed``
    simulate the plan's risk (:mod:`gputeam.planning.risk`). ``progress(stage, done, total)``,
    if given, is told how far each of :data:`STAGES` has got (it must not change anything).
    """

    def tell(stage: str, done: int = 1, total: int = 1) -> None:
        if progress is not None:
            progress(stage, done, total)

    if scenario.usd_rate is not None:
        from gputeam.catalog.currency import in_currency

        catalog = in_currency(catalog, scenario.usd_rate)
    if scenario.currency != "USD" or scenario.country not in (None, "US"):
        from gputeam.catalog.currency import with_salary_bands
        from gputeam.planning.costs import salary_bands  # each level's band: country, staff ...

        catalog = with_salary_bands(catalog, salary_bands(scenario, catalog).bands)
    if scenario.salary_bands:
        from gputeam.catalog.currency import with_salary_bands

        catalog = with_salary_bands(
            catalog, {lvl: (b.low, b.high) for lvl, b in scenario.salary_bands.items()}
        )
    tell("sizing", 0)
    target = size(scenario, catalog)
    tell("sizing")
    gaps = find_gaps(scenario, catalog, target.at(scenario.deadline), scenario.start)
    cands = candidates(scenario, catalog, target, progress=lambda done, total: tell("roadmaps", done, total))
    tell("sourcing", 0)
    sourcing = source(scenario, catalog, target, cands, method=method)
    tell("sourcing")
    assigned = {a.person: a.role for a in sourcing.assignments}
    delays = sourcing.details.start_delay_months
    slots = peak_slots(target)
    mentor = any(p.level >= 4 for p in scenario.people)
    roadmaps: list[Roadmap] = []
    for p in scenario.people:
        if p.id in assigned and delays.get(p.id):
            # the optimiser starts this roadmap late to keep within the training capacity
            roadmaps.append(
                build_roadmap(
                    p,
                    slots[assigned[p.id]],
                    scenario,
                    catalog,
                    start=add_months(scenario.start, delays[p.id]),
                    mentor_available=mentor,
                )
            )
        elif p.id in assigned:
            roadmaps.append(cands[(p.id, assigned[p.id])])
        else:
            roadmaps.append(build_roadmap(p, None, scenario, catalog))
    numbered: dict[str, int] = {}
    for hire in sourcing.hires:  # onboarding: the certifications a hire is not assumed to hold
        if hire.role not in slots:
            continue
        first = numbered.get(hire.role, 0) + 1
        numbered[hire.role] = first + hire.count - 1
        name = catalog.roles[hire.role].name if hire.role in catalog.roles else hire.role
        roadmaps += hire_roadmaps(
            hire.role,
            hire.level,
            hire.count,
            hire.arrival_month,
            slots[hire.role],
            scenario,
            catalog,
            first=first,
            role_name=name,
        )
    rm = tuple(roadmaps)
    tell("costs", 0)
    costs = compute_costs(scenario, catalog, target, sourcing, rm)
    roi = compute_roi(scenario, catalog, target, sourcing, rm)
    warnings = plan_warnings(scenario, catalog, target, sourcing, rm, costs)
    tell("costs")
    tell("risk", 0)
    risk = (
        assess(scenario, catalog, target, sourcing, rm, costs, roi, runs=runs, seed=seed)
        if runs > 0
        else None
    )
    tell("risk")
    return Plan(
        catalog_version=catalog.version,
        generated_for=today,
        scenario=scenario,
        target=target,
        gaps=gaps,
        sourcing=sourcing,
        roadmaps=rm,
        costs=costs,
        roi=roi,
        risk=risk,
        warnings=warnings,
        notes=plan_notes(scenario, catalog),
        case_study=compare_case_study(scenario, catalog, target, sourcing, rm, costs),
    )
