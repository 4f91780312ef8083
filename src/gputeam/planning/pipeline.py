"""The planning pipeline: scenario + catalog + today -> Plan. Pure: no I/O, no clock."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from gputeam.catalog import Catalog
from gputeam.planning import retention
from gputeam.planning.case_study import compare_case_study
from gputeam.planning.costs import compute_costs
from gputeam.planning.gaps import find_gaps
from gputeam.planning.needs import need_warnings, plan_needs
from gputeam.planning.notices import plan_notes, plan_warnings
from gputeam.planning.result import Plan
from gputeam.planning.risk import assess
from gputeam.planning.roi import compute_roi
from gputeam.planning.sizing import size
from gputeam.planning.sourcing import candidates, plan_roadmaps, source
from gputeam.planning.workload import workload
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

    given = scenario  # the plan keeps the scenario as given; its stages see it priced:
    scenario, catalog, levers = priced(scenario, catalog)
    tell("sizing", 0)
    target = size(scenario, catalog)
    tell("sizing")
    gaps = find_gaps(scenario, catalog, target.at(scenario.deadline), scenario.start)
    cands = candidates(scenario, catalog, target, progress=lambda done, total: tell("roadmaps", done, total))
    tell("sourcing", 0)
    sourcing = source(scenario, catalog, target, cands, method=method)
    tell("sourcing")
    mentor = any(p.level >= 4 for p in scenario.people)
    base = plan_roadmaps(scenario, catalog, target, cands, sourcing)
    # coverage needs (liquid cooling, a second vendor's stack ...): trained for, or warned of
    rm, needs = plan_needs(scenario, catalog, target, sourcing, base, mentor_available=mentor)
    tell("costs", 0)
    costs = compute_costs(scenario, catalog, target, sourcing, rm)
    needs_cost = 0.0
    if any(a is not b for a, b in zip(rm, base, strict=True)):  # what that training adds
        needs_cost = round(
            costs.horizon - compute_costs(scenario, catalog, target, sourcing, base).horizon, 2
        )
    roi = compute_roi(scenario, catalog, target, sourcing, rm)
    warnings = plan_warnings(scenario, catalog, target, sourcing, rm, costs)
    warnings += retention.warnings(scenario, catalog, levers)
    tell("costs")
    tell("risk", 0)
    risk = (
        assess(scenario, catalog, target, sourcing, rm, costs, roi, runs=runs, seed=seed)
        if runs > 0
        else None
    )
    tell("risk")
    warnings = (*warnings, *need_warnings(catalog, needs, risk, scenario.deadline))
    readiness_plan = None
    if scenario.constraints.target_p_ready is not None and method == "mip" and sourcing.status == "optimal":
        from gputeam.planning.readiness import optimise_readiness

        readiness_plan = optimise_readiness(scenario, catalog, target, cands, sourcing, seed=seed)
    return Plan(
        catalog_version=catalog.version,
        generated_for=today,
        scenario=given,
        target=target,
        gaps=gaps,
        sourcing=sourcing,
        roadmaps=rm,
        costs=costs,
        roi=roi,
        risk=risk,
        warnings=warnings,
        needs=needs,
        needs_cost=needs_cost,
        notes=plan_notes(scenario, catalog),
        case_study=compare_case_study(scenario, catalog, target, sourcing, rm, costs),
        workload=workload(scenario, catalog),
        readiness_plan=readiness_plan,
    )


def priced(scenario: Scenario, catalog: Catalog) -> tuple[Scenario, Catalog, retention.RetentionEffect]:
    """The scenario and catalog every stage of :func:`plan` sees: the catalog in the
    scenario's currency with each level's salary band (scenario, country, staff, scaled or
    converted US), and the scenario with its retention levers priced."""
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
    levers = retention.effect(scenario, catalog)  # retention levers' spend and credited cut
    return retention.priced(scenario, levers), catalog, levers
