"""The exact sourcing optimiser: a mixed-integer programme solved with HiGHS.

Decisions, month by month over the horizon (see :mod:`gputeam.planning.optimiser_model`
for the cost of each):

* ``x[o]`` (binary): upskill option ``o`` = (person, role, start delay), ready in the month
  its roadmap gives; each person takes at most one option;
* ``h[r, l, t]`` (integer): hires of role r at level l opened in month t, arriving in
  month ``t + hiring_lead_time_months``;
* ``c[r, m]`` (continuous): contractor full-time equivalents for role r in month m;
* ``u[r, m]`` (continuous): slots left open before the deadline, at a penalty above the
  contractor price (so they stay open only when nothing else can fill them);
* ``g[k]`` (binary), ``y[k]``: the vendor group discount on course k when enough people
  take it.

Constraints: every month, for every role and every level L demanded, staff at level >= L
plus contractors (plus open slots before the deadline) cover the slots at level >= L (so a
senior may fill a junior slot, never the reverse); from the deadline month on, no slot is
open; contractors at most ``max_share`` of the month's target (none if unavailable); at most
``max_hires_per_month`` requisitions a month; at most ``max_in_training`` people studying in
any month (roadmaps may then start up to six months late); at most two apprentices per
senior (Level 4+) on staff or hired; total cost over the horizon within the budget.

Objective: total cost over the horizon, discounted monthly at the scenario's
``discount_rate``, plus a terminal year (the final month's running cost of each decision for
twelve more months, :func:`gputeam.planning.optimiser_model.terminal_cost`) so the plan does
not drift back to contractors at the end of the horizon. When no plan satisfies every
constraint, :func:`diagnose` finds which constraints conflict by solving an elastic version
(every constraint family softened with penalised slack) and by re-solving with each family
dropped in turn (see :mod:`gputeam.planning.infeasibility`).

The programme itself is built and solved in :mod:`gputeam.planning.optimiser_mip`; this
module turns a scenario into it and its solution into a :class:`Sourcing`. Imports run one
way: sourcing -> optimiser -> infeasibility -> optimiser_mip -> optimiser_model.
"""

from __future__ import annotations

from collections.abc import Mapping

from gputeam.catalog import Catalog
from gputeam.i18n import N_
from gputeam.planning.explain import build_sourcing, greedy_evaluation, versus_greedy
from gputeam.planning.infeasibility import diagnose
from gputeam.planning.optimiser_mip import FAMILIES, Solution, open_penalty, solve
from gputeam.planning.optimiser_model import (
    MENTOR_RATIO,
    Decisions,
    Instance,
    build_instance,
    evaluate,
    peak_slots,
    terminal_cost,
)
from gputeam.planning.result import (
    Conflict,
    ConflictFixes,
    Roadmap,
    Sourcing,
    SourcingDetails,
    Target,
    TargetSlot,
)
from gputeam.planning.text import Money, Text, concat, say
from gputeam.scenario import Scenario

__all__ = ["FAMILIES", "MENTOR_RATIO", "Solution", "open_penalty", "optimise", "optimise_instance", "solve"]


def optimise(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    cands: Mapping[tuple[str, str], Roadmap],
    greedy: Sourcing | None = None,
    *,
    gap: float = 1e-4,
    time_limit: float = 30.0,
) -> Sourcing:
    """The optimal Sourcing for ``scenario`` (``greedy``: the rule's, priced for comparison)."""
    slots = peak_slots(target)
    inst = build_instance(scenario, catalog, target, cands, slots)
    sol = solve(inst, gap=gap, time_limit=time_limit)
    basis = (
        f"discounted at {scenario.constraints.discount_rate:.1%} a year"
        if scenario.constraints.discount_rate
        else "undiscounted"
    )
    details = SourcingDetails(
        cost_basis=f"horizon total incl. current salaries, {basis}",
        options=len(inst.options),
        solver="HiGHS",
        terminal_months=inst.terminal_months,
    )
    greedy_cost = None
    if greedy is not None:
        greedy_cost, greedy_open = greedy_evaluation(inst, greedy)
        details = details.model_copy(
            update={
                "greedy_open_slot_months": round(greedy_open, 2),
                "greedy_terminal_value": round(_greedy_terminal(inst, greedy), 2),
            }
        )
    if sol.decisions is not None:
        return _optimal(scenario, catalog, inst, sol, sol.decisions, slots, details, greedy_cost)
    if sol.status in ("time_limit", "error") and greedy is not None:
        # no feasible point within the time limit: keep the greedy plan, and say so
        note = (
            say(
                N_("the optimiser found no plan within {seconds:g} s; this is the greedy rule's plan"),
                seconds=time_limit,
            )
            if sol.status == "time_limit"
            else say(N_("the solver failed; this is the greedy rule's plan"))
        )
        texts = (note, *greedy.explanation_texts) if greedy.explanation_texts else ()
        return greedy.model_copy(
            update={
                "explanation": (note.english(), *greedy.explanation),
                "explanation_texts": texts,
                "status": "time_limit",
                "solve_seconds": round(sol.seconds, 4),
                "greedy_cost": greedy_cost,
                "total_cost": greedy_cost,
                "details": details,
            }
        )
    return _infeasible(scenario, catalog, inst, sol, slots, details, greedy_cost)


def optimise_instance(
    scenario: Scenario,
    catalog: Catalog,
    inst: Instance,
    slots: Mapping[str, TargetSlot],
    *,
    gap: float = 1e-4,
    time_limit: float = 30.0,
) -> Sourcing | None:
    """The optimal Sourcing over a given (e.g. buffered) instance, or None when it has no
    feasible plan within the time limit (no diagnosis: a candidate, not the plan)."""
    sol = solve(inst, gap=gap, time_limit=time_limit)
    if sol.decisions is None:
        return None
    details = SourcingDetails(
        cost_basis="horizon total incl. current salaries",
        options=len(inst.options),
        solver="HiGHS",
        terminal_months=inst.terminal_months,
    )
    return _optimal(scenario, catalog, inst, sol, sol.decisions, slots, details, None)


def _greedy_terminal(inst: Instance, greedy: Sourcing) -> float:
    from gputeam.planning.optimiser_model import decisions_of

    return terminal_cost(inst, decisions_of(inst, greedy))


def _optimal(
    scenario: Scenario,
    catalog: Catalog,
    inst: Instance,
    sol: Solution,
    d: Decisions,
    slots: Mapping[str, TargetSlot],
    details: SourcingDetails,
    greedy_cost: float | None,
) -> Sourcing:
    cur = scenario.currency
    cost = evaluate(inst, d)
    terminal = terminal_cost(inst, d)
    details = details.model_copy(update={"terminal_value": round(terminal, 2)})
    # no wall-clock time in the text: the same inputs give the same words
    head = say(
        N_("best plan found within the time limit (HiGHS, gap {gap:.2f}%): {cost} over {months} months")
        if sol.status == "time_limit"
        else N_("optimal plan (HiGHS, gap {gap:.2f}%): {cost} over {months} months"),
        gap=100 * (sol.gap or 0),
        cost=Money(amount=cost, currency=cur),
        months=inst.horizon,
    )
    parts: list[Text | str] = [head]
    versus = versus_greedy(
        cost, greedy_cost, details.greedy_open_slot_months or 0.0, sum(d.uncovered.values()), cur
    )
    if versus is not None:
        parts.append(say(N_(", {comparison}"), comparison=versus))
    greedy_terminal = details.greedy_terminal_value
    if (
        greedy_cost is not None
        and cost > greedy_cost + 0.5
        and greedy_terminal is not None
        and terminal < greedy_terminal
    ):
        parts.append(
            say(
                N_("; its team costs {cost} less to keep in the year after the horizon"),
                cost=Money(amount=greedy_terminal - terminal, currency=cur),
            )
        )
    if sol.seating_yielded:
        parts.append(
            say(
                N_(
                    "; the seating rule (a senior seat is bought from outside only when nobody who "
                    "can be ready for it sits idle or below it) is not kept in every month: kept in "
                    "all of them, no plan meets the other constraints"
                )
            )
        )
    line = concat(*parts)
    return build_sourcing(
        inst,
        d,
        scenario,
        catalog,
        slots,
        status=sol.status,
        total_cost=cost,
        greedy_cost=greedy_cost,
        mip_gap=sol.gap,
        seconds=sol.seconds,
        details=details,
        preface=(line,),
    )


def _infeasible(
    scenario: Scenario,
    catalog: Catalog,
    inst: Instance,
    sol: Solution,
    slots: Mapping[str, TargetSlot],
    details: SourcingDetails,
    greedy_cost: float | None,
) -> Sourcing:
    diag = diagnose(inst, start=scenario.start)
    el = diag.elastic
    fixes = diag.fixes
    details = details.model_copy(
        update={
            "conflict": Conflict(
                constraints=tuple(diag.conflicts),
                fixes=ConflictFixes(
                    deadline=fixes.get("deadline"),
                    deadline_date=fixes.get("deadline_date"),
                    budget=fixes["budget"] if not isinstance(fixes.get("budget", True), bool) else None,
                    relax=tuple(f for f in FAMILIES if f in fixes and f != "deadline"),
                    pairs=tuple((a, b) for a, b in fixes.get("pairs", [])),
                ),
                violations={k: round(v, 4) for k, v in el.slack.items()},
            )
        }
    )
    seconds = sol.seconds + el.seconds
    if el.decisions is None:  # cannot happen: the elastic model is always feasible
        d = Decisions((), (), {}, {})
    else:
        d = Decisions(
            el.decisions.options,
            el.decisions.hires,
            el.decisions.contractors,
            {**el.decisions.uncovered, **el.short},
        )
    return build_sourcing(
        inst,
        d,
        scenario,
        catalog,
        slots,
        status="infeasible",
        total_cost=evaluate(inst, d),
        greedy_cost=greedy_cost,
        mip_gap=None,
        seconds=seconds,
        details=details,
        preface=(diag.statement,),
    )
