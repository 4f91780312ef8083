"""The optimiser against brute-force enumeration of tiny instances (its reference), and the
budget found binding and diagnosed on them."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Iterable

import pytest

from gputeam.planning.infeasibility import diagnose
from gputeam.planning.optimiser import MENTOR_RATIO, open_penalty, solve
from gputeam.planning.optimiser_model import (
    Decisions,
    HireOption,
    Instance,
    Option,
    evaluate,
    month_weights,
    staff_by_month,
)


def brute_force(inst: Instance) -> float | None:
    """Optimal cost by enumeration (tiny instances only; used by the tests)."""
    per: dict[str, list[Option | None]] = defaultdict(lambda: [None])
    for o in inst.options:
        per[o.person].append(o)
    best: float | None = None
    hires = inst.hire_options()
    for combo in itertools.product(*per.values()):
        opts = [o for o in combo if o is not None]
        # the cheapest hires and contractors for this upskilling choice: enumerate one hire
        # month per open unit is exponential, so instances here have at most two units
        for plan_hires in _hire_sets(inst, hires):
            staff = staff_by_month(inst, opts, plan_hires)
            d = _fill(inst, opts, plan_hires, staff)
            if d is None:
                continue
            cost = evaluate(inst, d) + open_penalty(inst, d)
            if best is None or cost < best - 1e-6:
                best = cost
    return best


def _hire_sets(inst: Instance, hires: list[HireOption]) -> Iterable[list[tuple[str, int, int, int]]]:
    units = max(inst.total_demand(m) for m in range(1, inst.horizon + 1))
    keys = [(k.role, k.level, k.requisition) for k in hires]
    yield []
    for n in range(1, units + 1):
        for combo in itertools.combinations_with_replacement(keys, n):
            counts: dict[tuple[str, int, int], int] = defaultdict(int)
            for key in combo:
                counts[key] += 1
            if inst.max_hires is not None:
                per: dict[int, int] = defaultdict(int)
                for (_, _, t), c in counts.items():
                    per[t] += c
                if any(v > inst.max_hires for v in per.values()):
                    continue
            yield [(r, lv, t, c) for (r, lv, t), c in counts.items()]


def _fill(
    inst: Instance,
    opts: list[Option],
    hires: list[tuple[str, int, int, int]],
    staff: dict[tuple[str, int], list[int]],
) -> Decisions | None:
    """Contractors and open slots for fixed staff; None if infeasible."""
    contractors: dict[tuple[str, int], float] = {}
    opened: dict[tuple[str, int], float] = {}
    if inst.max_in_training is not None:
        for m in range(1, inst.horizon + 1):
            if sum(1 for o in opts if m in o.training) > inst.max_in_training:
                return None
    for m in range(1, inst.horizon + 1):
        apprentices = sum(1 for o in opts if m in o.apprentice)
        seniors = inst.seniors + sum(c for _, lv, t, c in hires if lv >= 4 and t + inst.lead <= m)
        if apprentices > MENTOR_RATIO * seniors:
            return None
    for m in range(1, inst.horizon + 1):
        used = 0.0
        for role in inst.roles:
            gap = 0
            for t in inst.levels(role):
                have = sum(v[m - 1] for (r, lv), v in staff.items() if r == role and lv >= t)
                gap = max(gap, inst.demand_at(role, m, t) - have)
            if gap <= 0:
                continue
            take = min(float(gap), inst.contractor_cap[m - 1] - used)
            rest = gap - take
            if take > 0:
                contractors[(role, m)] = take
                used += take
            if rest > 1e-9:
                if m >= inst.deadline:
                    return None
                opened[(role, m)] = rest
    d = Decisions(tuple(opts), tuple(hires), contractors, opened)
    if inst.budget is not None and evaluate(inst, d, discounted=False) > inst.budget + 1e-6:
        return None
    return d


def tiny(
    seed: int, *, training: int | None = None, budget: float | None = None, extras: bool = False
) -> Instance:
    """A random instance small enough to enumerate: <= 3 people, <= 2 roles, 6 months.
    ``extras``: apprenticeships needing the one senior mentor, and a course whose group
    discount needs two takers."""
    rng = random.Random(seed)
    h = 6
    roles = ["ops", "net"][: rng.randint(1, 2)]
    demand: dict[tuple[str, int], list[int]] = {}
    for r in roles:
        start = rng.randint(1, 4)
        count = rng.randint(1, 2 if len(roles) == 1 else 1)
        demand[(r, 2)] = [count if m >= start else 0 for m in range(1, h + 1)]
    people = tuple(f"p{i}" for i in range(rng.randint(1, 3)))
    options = []
    for p in people:
        for r in roles:
            if rng.random() < 0.7:
                ready = rng.randint(1, h)
                cost = float(rng.randint(1, 40) * 1000)
                appr = tuple(range(1, ready)) if extras and rng.random() < 0.6 else ()
                courses = ("c1",) if extras and rng.random() < 0.7 else ()
                options.append(
                    Option(
                        p,
                        r,
                        rng.choice([2, 3]),
                        ready,
                        0,
                        cost,
                        cost,
                        training=tuple(range(1, ready + 1)),
                        apprentice=appr,
                        courses=courses,
                    )
                )
    total = [sum(v[m] for v in demand.values()) for m in range(h)]
    share = rng.choice([0.0, 0.5, 1.0])
    return Instance(
        horizon=h,
        deadline=rng.randint(3, h),
        lead=rng.randint(0, 3),
        demand=demand,
        options=options,
        people=people,
        names={p: p for p in people},
        hire_salary={k: 100_000.0 + 20_000 * rng.random() for k in demand},
        contractor_fte_cost=52_000.0,
        contractor_cap=[share * t for t in total],
        max_hires=rng.choice([1, 2, None]),
        max_in_training=training,
        seniors=1 if extras else 0,
        course_price={"c1": 5000.0} if extras else {},
        group_min=2 if extras else None,
        group_discount=0.6 if extras else 0.0,
        budget=budget,
        fixed_cost=0.0,
        fixed_flat=0.0,
        weights=month_weights(h, 0.0),
        uplift=1.3,
        hiring_share=0.2,
        ramp_months=3,
        retention_bonus=0.0,
        hours_per_month=2080 / 12,
    )


@pytest.mark.parametrize("seed", range(32))
def test_optimal_against_brute_force(seed: int) -> None:
    """The MIP's penalised cost equals the best found by enumerating every decision."""
    inst = tiny(seed, training=1 if seed % 3 == 0 else None, extras=seed >= 20)
    best = brute_force(inst)
    sol = solve(inst, gap=1e-9)
    if best is None:
        assert sol.status == "infeasible"
        return
    assert sol.status == "optimal"
    assert sol.decisions is not None and sol.objective is not None
    got = sol.objective + open_penalty(inst, sol.decisions)
    assert got == pytest.approx(best, rel=1e-6, abs=1e-3)
    # the money the solver reports is the money the shared cost model charges
    assert sol.objective == pytest.approx(evaluate(inst, sol.decisions), rel=1e-9, abs=1e-3)


def test_budget_binds_and_is_diagnosed() -> None:
    inst = tiny(5)
    free = solve(inst)
    assert free.decisions is not None
    cost = evaluate(inst, free.decisions, discounted=False)
    tight = tiny(5, budget=cost * 0.5)
    assert solve(tight).status == "infeasible"
    diag = diagnose(tight)
    assert "budget" in diag.conflicts
    assert diag.fixes["budget"] == pytest.approx(round(cost, -3), abs=1000)
