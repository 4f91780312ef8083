"""Brute-force enumeration of tiny sourcing instances: the optimiser's reference."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable

from gputeam.planning.optimiser import MENTOR_RATIO, open_penalty
from gputeam.planning.optimiser_model import (
    Decisions,
    HireOption,
    Instance,
    Option,
    evaluate,
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


def _fill(inst: Instance, opts: list[Option], hires: list[tuple[str, int, int, int]],
          staff: dict[tuple[str, int], list[int]]) -> Decisions | None:
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
