"""Infeasible sourcing problems: which constraints conflict, found by relaxing them.

When no plan satisfies every constraint, :func:`diagnose`

1. solves an *elastic* version of the model (every constraint family softened with
   penalised slack), whose solution is the plan shown and whose slack says where it breaks;
2. re-solves with each constraint family dropped in turn (lead time, contractor cap, hiring
   capacity, budget, training capacity, mentors), and in pairs when no single one is enough;
3. finds the earliest deadline that works by bisection, and the smallest budget by solving
   without the budget.

The statement in plain words is built from those results only, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from gputeam.planning.calendar import month_start, month_with_date
from gputeam.planning.optimiser_mip import Solution, solve
from gputeam.planning.optimiser_model import MENTOR_RATIO, Instance, evaluate


@dataclass
class Diagnosis:
    conflicts: list[str]
    fixes: dict[str, Any]
    statement: str
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
        free = solve(inst, drop=["budget"], time_limit=time_limit)
        if free.decisions is not None:
            fixes["budget"] = round(evaluate(inst, free.decisions, discounted=False), -3)
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
) -> str:
    short_roles = sorted({r for r, _ in el.short}) or inst.roles
    first_short = min((m for _, m in el.short), default=inst.deadline)
    facts = []
    unreachable = [
        inst.role_names.get(r, r) for r in short_roles if not any(o.role == r for o in inst.options)
    ]
    if unreachable:
        who = "nobody on staff" if inst.people else "there is nobody on staff, so nobody"
        facts.append(f"{who} can be upskilled to {_join(unreachable, 'or')} within the horizon")
    for role in short_roles:
        name = inst.role_names.get(role, role)
        opts = [o for o in inst.options if o.role == role]
        if opts:
            best = min(opts, key=lambda o: o.ready)
            if best.ready > first_short:
                facts.append(
                    f"nobody on staff can be ready as {name} before month {best.ready} "
                    f"(earliest: {inst.names.get(best.person, best.person)})"
                )
    if "lead" in conflicts:
        facts.append(
            f"the hiring lead time of {inst.lead} months means a hire opened in month 1 "
            f"arrives in month {1 + inst.lead}"
        )
    if "contractors" in conflicts:
        if max(inst.contractor_cap, default=0) == 0:
            facts.append("contractors are not allowed")
        else:
            facts.append("contractors may cover only part of the target (the share cap)")
    labels = {
        "hires": f"at most {inst.max_hires} hire(s) a month",
        "budget": f"the budget of {inst.budget:,.0f}" if inst.budget is not None else "",
        "training": f"at most {inst.max_in_training} people in training at once",
        "mentors": f"at most {MENTOR_RATIO} apprentices per senior mentor",
    }
    for f in ("hires", "budget", "training", "mentors"):
        if f in conflicts:
            facts.append(labels[f])
    text = (
        f"No plan meets every constraint. Full coverage from the deadline in month "
        f"{inst.deadline} conflicts with: " + "; ".join(facts or ["the other constraints"]) + "."
    )
    options = []
    if "deadline" in fixes:
        month = int(fixes["deadline"])
        when = month_with_date(start, month) if start is not None else f"month {month}"
        options.append(f"a deadline of {when} or later")
    if "lead" in fixes:
        options.append("a shorter hiring lead time")
    if "contractors" in fixes:
        options.append(
            "allowing contractors to cover more of the target"
            if max(inst.contractor_cap, default=0) > 0
            else "allowing contractors"
        )
    if "hires" in fixes:
        options.append("more hires a month")
    if "budget" in fixes:
        options.append(f"a budget of at least {fixes['budget']:,.0f}")
    if "training" in fixes:
        options.append("more people in training at once")
    if "mentors" in fixes:
        options.append("more senior mentors")
    names = {
        "lead": "the hiring lead time",
        "contractors": "the contractor limit",
        "hires": "the hiring capacity",
        "budget": "the budget",
        "training": "the training capacity",
        "mentors": "the mentor limit",
    }
    if options:
        text += " Any one of these makes a plan possible: " + _join(options, "or") + "."
    elif fixes.get("pairs"):
        text += (
            " No single change is enough; relaxing "
            + _join([f"{names[a]} and {names[b]}" for a, b in fixes["pairs"]], "or")
            + " together makes a plan possible."
        )
    else:
        text += " No single change is enough; several constraints must be relaxed together."
    return text


def _join(items: list[str], word: str = "and") -> str:
    items = [i for i in items if i]
    if not items:
        return "the other constraints"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {word} " + items[-1]
