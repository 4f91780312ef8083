"""Infeasible sourcing problems: which constraints conflict, found by relaxing them.

When no plan satisfies every constraint, :func:`diagnose`

1. solves an *elastic* version of the model (every constraint family softened with
   penalised slack), whose solution is the plan shown and whose slack says where it breaks;
2. re-solves with each constraint family dropped in turn (lead time, contractor cap, hiring
   capacity, budget, training capacity, mentors), and in pairs when no single one is enough;
3. finds the earliest deadline that works by bisection, and the smallest budget by solving
   the minimal-budget problem (:func:`smallest_budget`): the budget row's own expression
   minimised subject to every other constraint, so that budget is feasible and 0.99 of it
   is not.

The statement in plain words is built from those results only, never guessed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from typing import Any

from gputeam.i18n import N_, Nn_
from gputeam.planning.calendar import month_start, month_with_date_text
from gputeam.planning.optimiser_mip import Solution, solve
from gputeam.planning.optimiser_model import MENTOR_RATIO, Instance
from gputeam.planning.text import Either, Money, Term, Text, concat, say, say_n


@dataclass
class Diagnosis:
    conflicts: list[str]
    fixes: dict[str, Any]
    statement: Text
    elastic: Solution


def present_families(inst: Instance) -> list[str]:
    out = ["deadline"]
    if inst.lead > 0:
        out.append("lead")
    if any(c < inst.total_demand(m + 1) for m, c in enumerate(inst.contractor_cap)):
        out.append("contractors")
    if inst.max_hires is not None:
        out.append("hires")
    if inst.budget is not None:
        out.append("budget")
    if inst.max_in_training is not None:
        out.append("training")
    if any(o.apprentice for o in inst.options):
        out.append("mentors")
    return out


def smallest_budget(inst: Instance, time_limit: float = 5.0) -> float | None:
    """The smallest budget at which ``inst`` has a plan, or None when it has none at any
    budget (another constraint conflicts) or the solver found no answer in time.

    It is the optimum of the minimal-budget problem: every constraint but the budget kept,
    and the budget row's own expression (the undiscounted horizon cost, current staff
    included) minimised, solved with HiGHS as the optimiser is. Minimising the optimiser's
    objective instead (discounted, with a terminal year) and pricing its plan gives a budget
    that works but is not the smallest."""
    sol = solve(inst, drop=["budget"], objective="budget", gap=1e-7, time_limit=time_limit)
    if sol.decisions is None or sol.objective is None or sol.status != "optimal":
        return None
    return sol.objective


def budget_ceiling(amount: float) -> float:
    """``amount`` rounded up to four significant figures (at most 0.1 % more), so a budget
    shown as "at least" is one that works."""
    if amount <= 0:
        return 0.0
    step = 10.0 ** (math.floor(math.log10(amount)) - 3)
    near = round(amount / step) * step
    return near if near >= amount else math.ceil(amount / step) * step


def diagnose(inst: Instance, time_limit: float = 5.0, start: date | None = None) -> Diagnosis:
    """Which constraint families conflict, found by relaxing them (never guessed).

    ``start`` (the plan's first day), if given, lets the statement name the calendar date
    of the earliest deadline that works, besides its month number."""
    elastic = solve(inst, elastic=True, time_limit=time_limit, gap=1e-2)  # for display: 1% will do
    families = present_families(inst)
    fixes: dict[str, Any] = {}
    for f in families:
        if f == "deadline":
            continue
        if solve(inst, drop=[f], time_limit=time_limit).decisions is not None:
            fixes[f] = True
    # the earliest deadline that works, by bisection (a later deadline never hurts)
    lo, hi = inst.deadline + 1, inst.horizon
    found: int | None = None
    while lo <= hi:
        mid = (lo + hi) // 2
        if solve(inst, deadline=mid, time_limit=time_limit).decisions is not None:
            found, hi = mid, mid - 1
        else:
            lo = mid + 1
    if found is not None:
        fixes["deadline"] = found
        if start is not None:
            fixes["deadline_date"] = month_start(start, found).isoformat()
    if "budget" in fixes:
        least = smallest_budget(inst, time_limit=time_limit)
        if least is not None:
            fixes["budget"] = budget_ceiling(least)
    if not fixes and len(inst.options) <= 2000:  # no single relaxation: try them in pairs
        import itertools

        pairs = [
            list(pair)
            for pair in itertools.combinations([f for f in families if f != "deadline"], 2)
            if solve(inst, drop=pair, time_limit=time_limit).decisions is not None
        ]
        if pairs:
            fixes["pairs"] = pairs
    in_pairs = {f for pair in fixes.get("pairs", []) for f in pair}
    conflicts = ["deadline"] + [
        f for f in families if f != "deadline" and (f in fixes or f in in_pairs or f in elastic.slack)
    ]
    if len(conflicts) == 1:
        conflicts += [f for f in families if f != "deadline"]
    return Diagnosis(conflicts, fixes, _statement(inst, conflicts, fixes, elastic, start), elastic)


def _statement(
    inst: Instance, conflicts: list[str], fixes: dict[str, Any], el: Solution, start: date | None = None
) -> Text:
    short_roles = sorted({r for r, _ in el.short}) or inst.roles
    first_short = min((m for _, m in el.short), default=inst.deadline)
    facts: list[Text] = []
    unreachable = tuple(
        Term(term=inst.role_names.get(r, r))
        for r in short_roles
        if not any(o.role == r for o in inst.options)
    )
    if unreachable:
        facts.append(
            say(
                N_("nobody on staff can be upskilled to {roles} within the horizon"),
                roles=Either(items=unreachable),
            )
            if inst.people
            else say(
                N_("there is nobody on staff, so nobody can be upskilled to {roles} within the horizon"),
                roles=Either(items=unreachable),
            )
        )
    for role in short_roles:
        name = inst.role_names.get(role, role)
        opts = [o for o in inst.options if o.role == role]
        if opts:
            best = min(opts, key=lambda o: o.ready)
            if best.ready > first_short:
                facts.append(
                    say(
                        N_("nobody on staff can be ready as {role} before month {month} (earliest: {name})"),
                        role=Term(term=name),
                        month=best.ready,
                        name=inst.names.get(best.person, best.person),
                    )
                )
    if "lead" in conflicts:
        facts.append(
            say(
                N_(
                    "the hiring lead time of {lead} months means a hire opened in month 1 arrives "
                    "in month {month}"
                ),
                lead=inst.lead,
                month=1 + inst.lead,
            )
        )
    if "contractors" in conflicts:
        if max(inst.contractor_cap, default=0) == 0:
            facts.append(say(N_("contractors are not allowed")))
        else:
            facts.append(say(N_("contractors may cover only part of the target (the share cap)")))
    labels = {
        "hires": say_n(
            Nn_("at most {n} hire a month", "at most {n} hires a month"), "n", n=inst.max_hires or 0
        ),
        "budget": say(
            N_("the budget of {budget}"), budget=Money(amount=inst.budget or 0.0, currency=inst.currency)
        ),
        "training": say(N_("at most {n} people in training at once"), n=inst.max_in_training or 0),
        "mentors": say(N_("at most {n} apprentices per senior mentor"), n=MENTOR_RATIO),
    }
    for f in ("hires", "budget", "training", "mentors"):
        if f in conflicts and (f != "budget" or inst.budget is not None):
            facts.append(labels[f])
    parts: list[Text | str] = []
    for fact in facts or [say(N_("the other constraints"))]:
        parts += ["; ", fact] if parts else [fact]
    head = say(
        N_(
            "No plan meets every constraint. Full coverage from the deadline in month {month} conflicts "
            "with: {facts}."
        ),
        month=inst.deadline,
        facts=concat(*parts),
    )
    options: list[Text] = []
    if "deadline" in fixes:
        month = int(fixes["deadline"])
        when = (
            month_with_date_text(start, month) if start is not None else say(N_("month {month}"), month=month)
        )
        options.append(say(N_("a deadline of {when} or later"), when=when))
    if "lead" in fixes:
        options.append(say(N_("a shorter hiring lead time")))
    if "contractors" in fixes:
        options.append(
            say(N_("allowing contractors to cover more of the target"))
            if max(inst.contractor_cap, default=0) > 0
            else say(N_("allowing contractors"))
        )
    if "hires" in fixes:
        options.append(say(N_("more hires a month")))
    if "budget" in fixes:
        options.append(
            say(
                N_("a budget of at least {budget}"),
                budget=Money(amount=float(fixes["budget"]), currency=inst.currency),
            )
            if not isinstance(fixes["budget"], bool)
            else say(N_("a larger budget"))
        )
    if "training" in fixes:
        options.append(say(N_("more people in training at once")))
    if "mentors" in fixes:
        options.append(say(N_("more senior mentors")))
    names = {
        "lead": N_("the hiring lead time"),
        "contractors": N_("the contractor limit"),
        "hires": N_("the hiring capacity"),
        "budget": N_("the budget"),
        "training": N_("the training capacity"),
        "mentors": N_("the mentor limit"),
    }
    if options:
        tail = say(
            N_(" Any one of these makes a plan possible: {options}."), options=Either(items=tuple(options))
        )
    elif fixes.get("pairs"):
        pairs = tuple(
            say(N_("{first} and {second}"), first=say(names[a]), second=say(names[b]))
            for a, b in fixes["pairs"]
        )
        tail = say(
            N_(" No single change is enough; relaxing {pairs} together makes a plan possible."),
            pairs=Either(items=pairs),
        )
    else:
        tail = say(N_(" No single change is enough; several constraints must be relaxed together."))
    return concat(head, tail)
