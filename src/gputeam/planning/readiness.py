"""A plan optimised for readiness, not only for cost (issue 19 item 5).

With ``constraints.target_p_ready`` (say 0.9), the plan looks for the decisions that reach
that probability of being ready by the deadline (staff, never contractors: see
:mod:`gputeam.planning.risk`) at the least expected cost. It is a **sample-average
approximation** (SAA; Kleywegt, Shapiro & Homem-de-Mello, SIAM J. Optim. 12, 2001) over a
**bounded candidate set**, each candidate solved exactly, not one stochastic MIP:

1. candidates: the cost-optimal plan (the same MIP, solved with HiGHS) when staff, not
   contractors, must cover the target from ``k`` months before the deadline
   (k = 0 .. :data:`MONTHS_EARLY`), with no buffer, one buffer slot on one role of the
   deadline month, or one on every such role (:func:`buffers`); and the cheapest plan
   itself. Earlier staffing absorbs exam retakes, slipping studies and late hires; buffer
   slots absorb leavers. At most ``(MONTHS_EARLY + 1) x (roles + 2)`` MIPs, each the size
   of the cheapest plan's (a candidate changes bounds and right-hand sides, not the model's
   size);
2. each candidate's P(ready) and expected cost are estimated on ``saa_runs`` simulated
   runs drawn from one fixed seed (the same seed for every candidate: common random
   numbers as far as the candidates share people; hires they do not share draw from the
   same stream in a different order);
3. the chosen plan is the candidate of least expected cost whose SAA P(ready) reaches the
   target;
4. the chosen plan, the cheapest plan and every cheaper candidate are **validated on fresh
   draws** (another seed, ``validation_runs`` runs), each P(ready) with its binomial standard
   error; the statistical gap is stated: the chosen plan's in-sample minus validated
   P(ready), whether its validated lower bound (p - 1.645 SE) meets the target, and
   whether each cheaper candidate's validated upper bound (p + 1.645 SE) stays below it, so
   that no cheaper candidate in the set reaches the target at 95 % one-sided confidence.

What it does not do: search outside the candidate set (hires, starts and buffers are chosen
by the MIP inside each candidate, by cost), or count contractors as readiness.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace

from gputeam.catalog import Catalog
from gputeam.i18n import N_, Nn_
from gputeam.planning.costs import compute_costs
from gputeam.planning.optimiser import optimise_instance
from gputeam.planning.optimiser_model import Instance, build_instance, peak_slots
from gputeam.planning.result import (
    ReadinessCandidate,
    ReadinessPlan,
    Roadmap,
    Sourcing,
    Target,
)
from gputeam.planning.risk import binomial_se, prepare, simulate
from gputeam.planning.sourcing import plan_roadmaps
from gputeam.planning.text import Money, Term, Text, say, say_n
from gputeam.scenario import Scenario

MONTHS_EARLY = 3  # candidates staff the target up to this many months before the deadline
SAA_RUNS = 1000
VALIDATION_RUNS = 2000
Z = 1.645  # one-sided 95 %


@dataclass
class _Evaluated:
    cand: ReadinessCandidate
    sourcing: Sourcing | None


def buffered(inst: Instance, months_early: int, extra: tuple[str, ...] = ()) -> Instance:
    """``inst`` with staff covering the deadline month's target from ``months_early`` months
    before the deadline (no slot open and no contractor from then to the deadline) and one
    buffer slot, at the lowest level demanded, on each role of ``extra``."""
    due = max(1, inst.deadline - months_early)
    cap = list(inst.contractor_cap)
    for m in range(due, inst.deadline + 1):
        cap[m - 1] = 0.0
    demand = {k: list(v) for k, v in inst.demand.items()}
    for v in demand.values():  # the deadline month's target, from ``due`` on
        for m in range(due, inst.deadline):
            v[m - 1] = max(v[m - 1], v[inst.deadline - 1])
    for role in extra:
        key = (role, min(inst.levels(role)))
        for m in range(due, inst.deadline + 1):
            demand[key][m - 1] += 1
    return replace(inst, deadline=due, contractor_cap=cap, demand=demand)


def buffers(inst: Instance) -> list[tuple[str, ...]]:
    """The buffer sets tried: none, one slot on each role of the deadline month, one on
    every such role (at most roles + 2 sets)."""
    roles = tuple(r for r in inst.roles if inst.demand_at(r, inst.deadline) > 0)
    out: list[tuple[str, ...]] = [()] + [(r,) for r in roles]
    if len(roles) > 1:
        out.append(roles)
    return out


def optimise_readiness(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    cands: Mapping[tuple[str, str], Roadmap],
    cheapest: Sourcing,
    *,
    saa_runs: int = SAA_RUNS,
    validation_runs: int = VALIDATION_RUNS,
    seed: int = 0,
) -> ReadinessPlan:
    """The readiness-optimised plan beside ``cheapest`` (see the module docstring)."""
    goal = scenario.constraints.target_p_ready or 0.9
    t0 = time.perf_counter()
    slots = peak_slots(target)
    inst = build_instance(scenario, catalog, target, cands, slots)
    saa_seed, val_seed = seed + 1, seed + 2

    def simulated(sourcing: Sourcing, runs: int, at: int) -> tuple[float, float, float]:
        rm = plan_roadmaps(scenario, catalog, target, cands, sourcing)
        costs = compute_costs(scenario, catalog, target, sourcing, rm)
        risk = simulate(prepare(scenario, catalog, target, sourcing, rm, costs), runs, seed=at, bus_runs=0)
        return costs.horizon, risk.mean_cost, risk.p_ready_by_deadline

    base_cost, base_mean, base_saa = simulated(cheapest, saa_runs, saa_seed)
    found: list[_Evaluated] = [
        _Evaluated(
            ReadinessCandidate(
                months_early=-1,
                feasible=True,
                cost=base_cost,
                expected_cost=base_mean,
                p_ready_saa=base_saa,
            ),
            cheapest,
        )
    ]
    for k in range(MONTHS_EARLY + 1):
        for extra in buffers(inst):
            sourcing = optimise_instance(scenario, catalog, buffered(inst, k, extra), slots, time_limit=10.0)
            cand = ReadinessCandidate(months_early=k, buffer_roles=extra, feasible=sourcing is not None)
            if sourcing is not None:
                cost, mean, p = simulated(sourcing, saa_runs, saa_seed)
                cand = cand.model_copy(update={"cost": cost, "expected_cost": mean, "p_ready_saa": p})
            found.append(_Evaluated(cand, sourcing))
    ok = [e for e in found if e.sourcing is not None and (e.cand.p_ready_saa or 0) >= goal - 1e-12]
    best = min(ok, key=lambda e: (e.cand.expected_cost or 0.0, e.cand.cost or 0.0), default=None)
    # validation on fresh draws: the chosen plan, the cheapest plan, every cheaper candidate
    ceiling = best.cand.expected_cost if best is not None else float("inf")
    validated: list[ReadinessCandidate] = []
    for e in found:
        c = e.cand
        if e.sourcing is not None and (
            e is best or e is found[0] or (c.expected_cost or 0.0) < (ceiling or 0.0)
        ):
            _, _, p = simulated(e.sourcing, validation_runs, val_seed)
            c = c.model_copy(
                update={
                    "p_ready_validated": p,
                    "p_ready_validated_se": round(binomial_se(p, validation_runs), 6),
                }
            )
        validated.append(c)
    base = validated[0]
    chosen = next((i for i, e in enumerate(found) if e is best), None)
    seconds = time.perf_counter() - t0
    out = ReadinessPlan(
        target_p_ready=goal,
        saa_runs=saa_runs,
        saa_seed=saa_seed,
        validation_runs=validation_runs,
        validation_seed=val_seed,
        candidates=tuple(validated),
        chosen=chosen,
        baseline_cost=round(base_cost, 2),
        baseline_expected_cost=round(base_mean, 2),
        baseline_p_ready=base.p_ready_validated or 0.0,
        baseline_p_ready_se=base.p_ready_validated_se or 0.0,
        solve_seconds=round(seconds, 3),
    )
    if best is None or chosen is None or best.sourcing is None:
        text = say(
            N_(
                "no candidate reaches P(ready) {goal:.0%} on the SAA draws: the most ready one "
                "staffs the target {k} months early with {s} buffer slots"
            ),
            goal=goal,
            k=max((c.months_early for c in validated if c.feasible), default=0),
            s=max((len(c.buffer_roles) for c in validated if c.feasible), default=0),
        )
        return out.model_copy(update={"gap_text": text, "gap": text.english()})
    win = validated[chosen]
    changes = _changes(inst, cheapest, best.sourcing, scenario.currency)
    gap = _gap(
        goal, win, [c for i, c in enumerate(validated) if i != chosen and c.p_ready_validated is not None]
    )
    return out.model_copy(
        update={
            "cost": round(win.cost or 0.0, 2),
            "expected_cost": round(win.expected_cost or 0.0, 2),
            "p_ready_saa": win.p_ready_saa,
            "p_ready": win.p_ready_validated,
            "p_ready_se": win.p_ready_validated_se,
            "hires": best.sourcing.hires,
            "assignments": best.sourcing.assignments,
            "contractor_hours": round(sum(n.hours for n in best.sourcing.contractors), 2),
            "changes_texts": changes,
            "changes": tuple(t.english() for t in changes),
            "gap_text": gap,
            "gap": gap.english(),
        }
    )


def _gap(goal: float, win: ReadinessCandidate, cheaper: list[ReadinessCandidate]) -> Text:
    """The statistical gap in words: in-sample against validated P(ready), and whether any
    cheaper candidate could reach the target."""
    p, se = win.p_ready_validated or 0.0, win.p_ready_validated_se or 0.0
    saa = win.p_ready_saa or 0.0
    others = [c for c in cheaper if (c.expected_cost or 0.0) < (win.expected_cost or 0.0)]
    excluded = [
        c for c in others if (c.p_ready_validated or 0.0) + Z * (c.p_ready_validated_se or 0.0) < goal
    ]
    return say(
        N_(
            "SAA P(ready) {saa:.1%}, validated {p:.1%} ± {se:.1%} on fresh draws (in-sample bias "
            "{bias:+.1%}); validated lower bound {low:.1%} {verdict} the target {goal:.0%}; "
            "{excluded} of {others} cheaper candidates are below the target at 95 % confidence"
        ),
        saa=saa,
        p=p,
        se=se,
        bias=saa - p,
        low=p - Z * se,
        verdict=say(N_("meets")) if p - Z * se >= goal else say(N_("falls short of")),
        goal=goal,
        excluded=len(excluded),
        others=len(others),
    )


def _changes(inst: Instance, cheapest: Sourcing, chosen: Sourcing, currency: str) -> tuple[Text, ...]:
    """What the readiness plan does differently from the cheapest one, in words."""
    out: list[Text] = []

    def totals(s: Sourcing) -> dict[tuple[str, int], tuple[int, int]]:
        out: dict[tuple[str, int], tuple[int, int]] = {}
        for h in s.hires:
            n, first = out.get((h.role, h.level), (0, h.requisition_month))
            out[(h.role, h.level)] = (n + h.count, min(first, h.requisition_month))
        return out

    before = totals(cheapest)
    for (role, level), (count, first) in sorted(totals(chosen).items()):
        name = Term(term=inst.role_names.get(role, role))
        had, was_first = before.get((role, level), (0, 0))
        if count > had:
            out.append(
                say_n(
                    Nn_(
                        "hire {count} more Level-{level} {role} (first requisition month {month})",
                        "hire {count} more Level-{level} {role}s (first requisition month {month})",
                    ),
                    "count",
                    count=count - had,
                    level=level,
                    role=name,
                    month=first,
                )
            )
        if had and was_first > first:
            out.append(
                say_n(
                    Nn_(
                        "open the first Level-{level} {role} requisition {n} month earlier",
                        "open the first Level-{level} {role} requisition {n} months earlier",
                    ),
                    "n",
                    level=level,
                    role=name,
                    n=was_first - first,
                )
            )
    was = {a.person: a for a in cheapest.assignments}
    for a in chosen.assignments:
        prev = was.get(a.person)
        person = inst.names.get(a.person, a.person)
        if prev is None or prev.role != a.role:
            out.append(
                say(
                    N_("upskill {name} to {role}, ready in month {month}"),
                    name=person,
                    role=Term(term=inst.role_names.get(a.role, a.role)),
                    month=a.ready_month,
                )
            )
        elif prev.ready_month > a.ready_month:
            out.append(
                say(
                    N_("{name} ready {n} months earlier (month {month})"),
                    name=person,
                    n=prev.ready_month - a.ready_month,
                    month=a.ready_month,
                )
            )
    hours = sum(n.hours for n in chosen.contractors) - sum(n.hours for n in cheapest.contractors)
    if abs(hours) >= 1:
        fte = hours / inst.hours_per_month
        out.append(
            say(
                N_("{fte:+.1f} contractor FTE-months ({cost})"),
                fte=fte,
                cost=Money(amount=fte * inst.contractor_fte_cost, currency=currency),
            )
        )
    return tuple(out)
