"""The sourcing mixed-integer programme: built from an :class:`Instance` step by step and
solved with HiGHS (see :mod:`gputeam.planning.optimiser` for the decisions, constraints and
objective in words).

:func:`solve` builds the programme in named steps, one per decision or constraint family
(:class:`_Model` holds the columns they share), solves it, and reads the decisions back.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gputeam.planning.optimiser_model import (
    MENTOR_RATIO,
    SEAT_TIE,
    Decisions,
    HireOption,
    Instance,
    earliest_ready,
    seating_violations,
    terminal_cost,
)

FAMILIES = ("deadline", "lead", "contractors", "hires", "budget", "training", "mentors")
INF = float("inf")
PENALTY_OPEN = 1.5  # an open slot before the deadline, per FTE-month, x the contractor price
PENALTY_SHORT = 3.0  # elastic: an open slot from the deadline on
PENALTY_HARD = 50.0  # elastic: a unit of violation of any other family
SEATING_ROUNDS = 4  # re-solves that add the seating rule where a solution breaks it


def open_penalty(inst: Instance, d: Decisions) -> float:
    """The objective's penalty for slots left open before the deadline (not a cost)."""
    return sum(
        fte * PENALTY_OPEN * inst.contractor_fte_cost * inst.weights[m - 1]
        for (_, m), fte in d.uncovered.items()
    )


@dataclass
class Solution:
    status: str  # optimal | time_limit | infeasible | error
    objective: float | None
    gap: float | None
    seconds: float
    decisions: Decisions | None
    slack: dict[str, float] = field(default_factory=dict)
    short: dict[tuple[str, int], float] = field(default_factory=dict)  # (role, month) -> FTE
    #: the seating rule not kept everywhere: adding it where the solution broke it left no
    #: plan (the solution is the last round's, which keeps it where earlier rounds added it)
    seating_yielded: bool = False


_BANNER_SHOWN = False


def _highs() -> Any:
    """A silent HiGHS instance. The first one a process makes prints a banner on file
    descriptor 1, which would corrupt JSON written to stdout: send that one to /dev/null."""
    import highspy

    global _BANNER_SHOWN
    if _BANNER_SHOWN:
        return highspy.Highs()  # type: ignore[no-untyped-call]
    import os
    import sys

    sys.stdout.flush()
    saved = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        h = highspy.Highs()  # type: ignore[no-untyped-call]
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)
        _BANNER_SHOWN = True
    return h


class _Lp:
    """Columns and rows, gathered as plain lists and passed to HiGHS in one go."""

    def __init__(self) -> None:
        self.cost: list[float] = []
        self.lb: list[float] = []
        self.ub: list[float] = []
        self.integer: list[bool] = []
        self.rlb: list[float] = []
        self.rub: list[float] = []
        self.ri: list[int] = []
        self.ci: list[int] = []
        self.val: list[float] = []

    def col(self, cost: float, lb: float = 0.0, ub: float = INF, integer: bool = False) -> int:
        self.cost.append(cost)
        self.lb.append(lb)
        self.ub.append(ub)
        self.integer.append(integer)
        return len(self.cost) - 1

    def row(self, entries: Iterable[tuple[int, float]], lb: float = -INF, ub: float = INF) -> int:
        r = len(self.rlb)
        self.rlb.append(lb)
        self.rub.append(ub)
        for c, v in entries:
            self.ri.append(r)
            self.ci.append(c)
            self.val.append(v)
        return r

    def solve(
        self, gap: float, time_limit: float, threads: int | None = None
    ) -> tuple[str, float | None, float | None, list[float]]:
        """Solve; returns (status, objective, proven relative gap, column values).

        The sourcing LP relaxation is nearly integral (an assignment structure with a few
        group-discount and hire variables), so: solve the LP (its optimum is a lower bound);
        if its integer columns are integral, that is the optimum; otherwise fix the integral
        ones and solve the small MIP left. Its solution is feasible, and its gap to the LP
        bound is a proven bound on the true gap; only if that exceeds ``gap`` does the full
        MIP run, started from that solution.
        """
        import numpy as np

        t0 = time.perf_counter()
        integer = np.asarray(self.integer, dtype=bool)
        lb = np.asarray(self.lb, dtype=np.float64)
        ub = np.asarray(self.ub, dtype=np.float64)
        if not integer.any():
            return self._run(lb, ub, integer, gap, time_limit, threads)
        status, bound, _, values = self._run(lb, ub, np.zeros_like(integer), gap, time_limit, threads)
        if status != "optimal" or bound is None:
            return status, None, None, []
        v = np.asarray(values)
        frac = integer & (np.abs(v - np.round(v)) > 1e-6)
        if not frac.any():
            v[integer] = np.round(v[integer])
            return "optimal", bound, 0.0, list(v)
        fixed = integer & ~frac
        lb2, ub2 = lb.copy(), ub.copy()
        lb2[fixed] = ub2[fixed] = np.round(v[fixed])
        left = max(time_limit - (time.perf_counter() - t0), 0.1)
        status, obj, _, values = self._run(lb2, ub2, integer, gap, left, threads)
        if status in ("optimal", "time_limit") and obj is not None:
            proven = (obj - bound) / max(abs(obj), 1e-9)
            if proven <= gap:
                return "optimal", obj, max(proven, 0.0), values
            start = values
        else:
            start = None
        left = max(time_limit - (time.perf_counter() - t0), 0.1)
        return self._run(lb, ub, integer, gap, left, threads, start)

    def _run(
        self,
        lb: Any,
        ub: Any,
        integer: Any,
        gap: float,
        time_limit: float,
        threads: int | None,
        start: list[float] | None = None,
    ) -> tuple[str, float | None, float | None, list[float]]:
        import highspy
        import numpy as np

        n = len(self.cost)
        h = _highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("mip_rel_gap", gap)
        h.setOptionValue("time_limit", time_limit)
        h.setOptionValue("random_seed", 0)
        if threads:
            h.setOptionValue("threads", threads)
        lp = highspy.HighsLp()
        lp.num_col_ = n
        lp.num_row_ = len(self.rlb)
        lp.col_cost_ = np.asarray(self.cost, dtype=np.float64)
        lp.col_lower_ = lb
        lp.col_upper_ = ub
        lp.row_lower_ = np.asarray(self.rlb, dtype=np.float64)
        lp.row_upper_ = np.asarray(self.rub, dtype=np.float64)
        ci = np.asarray(self.ci, dtype=np.int64)
        order = np.argsort(ci, kind="stable")
        starts = np.searchsorted(ci[order], np.arange(n + 1))
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.num_col_ = n
        lp.a_matrix_.num_row_ = len(self.rlb)
        lp.a_matrix_.start_ = starts.astype(np.int32)
        lp.a_matrix_.index_ = np.asarray(self.ri, dtype=np.int32)[order]
        lp.a_matrix_.value_ = np.asarray(self.val, dtype=np.float64)[order]
        mip = bool(np.any(integer))
        if mip:
            lp.integrality_ = [
                highspy.HighsVarType.kInteger if i else highspy.HighsVarType.kContinuous for i in integer
            ]
        h.passModel(lp)
        if start is not None:
            sol = highspy.HighsSolution()
            sol.col_value = list(start)
            sol.value_valid = True
            h.setSolution(sol)
        h.run()
        ms = h.getModelStatus()
        info = h.getInfo()
        if ms == highspy.HighsModelStatus.kOptimal:
            status = "optimal"
        elif ms in (highspy.HighsModelStatus.kInfeasible, highspy.HighsModelStatus.kUnboundedOrInfeasible):
            return "infeasible", None, None, []
        elif info.primal_solution_status == 2:  # feasible point found before a limit
            status = "time_limit"
        else:  # a limit without a feasible point, or a solver error: no answer either way
            return "time_limit" if ms == highspy.HighsModelStatus.kTimeLimit else "error", None, None, []
        values = list(h.getSolution().col_value)
        gap_value = float(info.mip_gap) if mip else 0.0
        if gap_value > 1e20 or gap_value != gap_value:
            gap_value = 0.0
        return status, float(info.objective_function_value), gap_value, values


@dataclass
class _Model:
    """The programme being built: the LP and the columns the steps share."""

    inst: Instance
    lead: int
    due: int
    elastic: bool
    dropped: set[str]
    seat_keys: frozenset[tuple[str, int]] = frozenset()  # (role, month) under the seating rule
    lp: _Lp = field(default_factory=_Lp)
    xs: list[int] = field(default_factory=list)  # upskill option -> column
    hires: list[HireOption] = field(default_factory=list)
    hs: list[int] = field(default_factory=list)  # hire option -> column
    budget: list[tuple[int, float]] = field(default_factory=list)  # undiscounted cost per column
    slack: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    contractor: dict[tuple[str, int], int] = field(default_factory=dict)
    opened: dict[tuple[str, int], int] = field(default_factory=dict)
    short: dict[tuple[str, int], int] = field(default_factory=dict)
    group: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def scale(self) -> float:
        """Objective scale: keeps coefficients near 1 for the solver; costs stay in money."""
        return max(self.inst.contractor_fte_cost, 1.0)

    @property
    def terminal(self) -> float:
        """Weight of a monthly cost that continues past the horizon (the terminal year)."""
        inst = self.inst
        return inst.terminal_months * inst.weights[-1] if inst.horizon else 0.0

    def soft(
        self, family: str, entries: list[tuple[int, float]], penalty: float = PENALTY_HARD
    ) -> list[tuple[int, float]]:
        """``entries`` with a penalised slack column when the model is elastic."""
        if not self.elastic:
            return entries
        s = self.lp.col(penalty)
        self.slack[family].append(s)
        return entries + [(s, -1.0)]


def _upskilling(mdl: _Model) -> None:
    """x[o]: upskill options, at most one per person."""
    inst, lp = mdl.inst, mdl.lp
    by_person: dict[str, list[int]] = defaultdict(list)
    for o in inst.options:
        later = mdl.terminal * o.monthly if o.ready <= inst.horizon else 0.0
        col = lp.col((o.cost + o.prefer + later) / mdl.scale, 0, 1, True)
        mdl.xs.append(col)
        mdl.budget.append((col, o.flat_cost))
        by_person[o.person].append(col)
    for cols in by_person.values():
        if len(cols) > 1:
            lp.row(((c, 1.0) for c in cols), ub=1.0)


def _hiring(mdl: _Model) -> None:
    """h[r, l, t]: hires opened in month t, arriving after the lead time."""
    inst = mdl.inst
    mdl.hires = inst.hire_options(mdl.lead)
    for k in mdl.hires:
        top = max(inst.demand_at(k.role, m) for m in range(1, inst.horizon + 1))
        later = mdl.terminal * inst.hire_monthly(k.role, k.level)
        col = mdl.lp.col((k.cost + later) / mdl.scale, 0, float(top), True)
        mdl.hs.append(col)
        mdl.budget.append((col, k.flat_cost))


def _coverage(mdl: _Model) -> None:
    """Staff by role, level bucket and month; contractors c[r, m] and open slots u[r, m];
    coverage rows per level threshold (a senior fills a junior slot, never the reverse)."""
    inst, lp = mdl.inst, mdl.lp
    for role in inst.roles:
        thresholds = inst.levels(role)
        z = _staff_columns(mdl, role, thresholds)
        for m in range(1, inst.horizon + 1):
            if inst.demand_at(role, m) == 0:
                continue
            extra = _fillers(mdl, role, m)
            for t in thresholds:
                need = inst.demand_at(role, m, t)
                if need:
                    entries = [(z[(b, m)], 1.0) for b in thresholds if b >= t]
                    lp.row(entries + [(c, 1.0) for c in extra], lb=float(need))


def _staff_columns(mdl: _Model, role: str, thresholds: list[int]) -> dict[tuple[int, int], int]:
    """z[b, m]: staff of ``role`` in level bucket b (the highest threshold <= their level)
    ready by month m, as running sums of arrivals."""
    inst, lp = mdl.inst, mdl.lp

    def bucket(level: int) -> int | None:
        fits = [t for t in thresholds if t <= level]
        return fits[-1] if fits else None

    arrivals: dict[tuple[int, int], list[tuple[int, float]]] = defaultdict(list)
    for j, o in enumerate(inst.options):
        b = bucket(o.level) if o.role == role else None
        moves = o.then_role is not None and o.move <= inst.horizon
        if b is not None:
            arrivals[(b, o.ready)].append((mdl.xs[j], 1.0))
            if moves:  # leaves the seat for the later one
                arrivals[(b, o.move)].append((mdl.xs[j], -1.0))
        b = bucket(o.then_level) if o.then_role == role and moves else None
        if b is not None:
            arrivals[(b, o.move)].append((mdl.xs[j], 1.0))
    for i, k in enumerate(mdl.hires):
        if k.role == role and k.arrival <= inst.horizon:
            arrivals[(k.level, k.arrival)].append((mdl.hs[i], 1.0))
    z: dict[tuple[int, int], int] = {}
    for b in thresholds:
        for m in range(1, inst.horizon + 1):
            z[(b, m)] = lp.col(0.0)
            entries = [(z[(b, m)], 1.0)] + [(c, -v) for c, v in arrivals.get((b, m), [])]
            if m > 1:
                entries.append((z[(b, m - 1)], -1.0))
            lp.row(entries, lb=0.0, ub=0.0)
    return z


def _fillers(mdl: _Model, role: str, m: int) -> list[int]:
    """Contractors for ``role`` in month ``m``, and an open slot (before the deadline) or an
    elastic shortfall (from it on)."""
    inst, lp = mdl.inst, mdl.lp
    w = inst.weights[m - 1]
    price = inst.contractor_fte_cost
    later = mdl.terminal * price if m == inst.horizon else 0.0  # the final month continues
    # tie-break (not money): contractors take the junior seat, staff the senior one
    nudge = SEAT_TIE * max(inst.levels(role), default=1)
    c = lp.col((w * price + later + nudge) / mdl.scale)
    mdl.budget.append((c, price))
    mdl.contractor[(role, m)] = c
    out = [c]
    if m < mdl.due:
        mdl.opened[(role, m)] = lp.col(w * PENALTY_OPEN)
        out.append(mdl.opened[(role, m)])
    elif mdl.elastic:
        s = lp.col(PENALTY_SHORT)
        mdl.short[(role, m)] = s
        mdl.slack["deadline"].append(s)
        out.append(s)
    return out


def _contractor_cap(mdl: _Model) -> None:
    """Contractors at most ``max_share`` of the month's target."""
    if "contractors" in mdl.dropped:
        return
    per: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for (_, m), c in mdl.contractor.items():
        per[m].append((c, 1.0))
    for m, entries in sorted(per.items()):
        mdl.lp.row(mdl.soft("contractors", entries), ub=mdl.inst.contractor_cap[m - 1])


def _hiring_capacity(mdl: _Model) -> None:
    """At most ``max_hires_per_month`` requisitions a month."""
    if mdl.inst.max_hires is None or "hires" in mdl.dropped:
        return
    per: dict[int, list[int]] = defaultdict(list)
    for i, k in enumerate(mdl.hires):
        per[k.requisition].append(mdl.hs[i])
    for cols in per.values():
        mdl.lp.row(mdl.soft("hires", [(c, 1.0) for c in cols]), ub=float(mdl.inst.max_hires))


def _training_capacity(mdl: _Model) -> None:
    """At most ``max_in_training`` people studying in any month."""
    cap = mdl.inst.max_in_training
    if cap is None or "training" in mdl.dropped:
        return
    per: dict[int, list[int]] = defaultdict(list)
    for j, o in enumerate(mdl.inst.options):
        for m in o.training:
            per[m].append(mdl.xs[j])
    for cols in per.values():
        if len(cols) > cap:
            mdl.lp.row(mdl.soft("training", [(c, 1.0) for c in cols]), ub=float(cap))


def _mentors(mdl: _Model) -> None:
    """At most MENTOR_RATIO apprentices per senior on staff or hired by then."""
    if "mentors" in mdl.dropped:
        return
    per: dict[int, list[int]] = defaultdict(list)
    for j, o in enumerate(mdl.inst.options):
        for m in o.apprentice:
            per[m].append(mdl.xs[j])
    for m, cols in per.items():
        entries = [(c, 1.0) for c in cols]
        entries += [
            (mdl.hs[i], -float(MENTOR_RATIO))
            for i, k in enumerate(mdl.hires)
            if k.level >= 4 and k.arrival <= m
        ]
        mdl.lp.row(mdl.soft("mentors", entries), ub=float(MENTOR_RATIO * mdl.inst.seniors))


def _seating(mdl: _Model) -> None:
    """The seating rule, for each senior seat (Level 4+) and month in ``mdl.seat_keys``:
    b[r, m] (binary) is 1 when the seat is bought from outside (contractors that month, or a
    hire on staff by then); then every person who can be ready for it by that month (their
    roadmap for it) is seated (no one qualified sits idle), and none of them sits in a seat
    below its level while at or above it. :func:`solve` adds these rows only where a
    solution without them breaks the rule (see
    :func:`gputeam.planning.optimiser_model.seating_violations`), so a plan that keeps the
    rule anyway solves as fast as before."""
    inst, lp = mdl.inst, mdl.lp
    if not mdl.seat_keys:
        return
    ready = earliest_ready(inst)
    by_person: dict[str, list[int]] = defaultdict(list)
    for j, o in enumerate(inst.options):
        by_person[o.person].append(j)
    for role, m in sorted(mdl.seat_keys):
        level = inst.slot_level.get(role, 0)
        q = sorted(p for (p, r), first in ready.items() if r == role and first <= m)
        if not q:
            continue
        seated: list[int] = []
        below: list[int] = []
        for p in q:
            now = inst.person_level.get(p, 0)
            for j in by_person[p]:
                seat = inst.options[j].seat(m)
                if seat is None:
                    continue
                seated.append(mdl.xs[j])
                if inst.slot_level.get(seat[0], 0) < level <= max(now, seat[1]):
                    below.append(mdl.xs[j])
        b = lp.col(0.0, 0, 1, True)
        lp.row([(b, float(len(q)))] + [(c, -1.0) for c in seated], ub=0.0)  # none idle
        if below:  # none below the seat's level: sum <= |q| (1 - b)
            lp.row([(b, float(len(q)))] + [(c, 1.0) for c in below], ub=float(len(q)))
        c = mdl.contractor.get((role, m))
        if c is not None:
            lp.row([(c, 1.0), (b, -max(inst.contractor_cap[m - 1], 0.0))], ub=0.0)
        hired = [mdl.hs[i] for i, k in enumerate(mdl.hires) if k.role == role and k.arrival <= m]
        if hired:
            top = max(inst.demand_at(role, mm) for mm in range(1, inst.horizon + 1))
            lp.row([(h, 1.0) for h in hired] + [(b, -float(top))], ub=0.0)


def _group_discount(mdl: _Model) -> None:
    """g[k], y[k]: the vendor group discount on course k when enough people take it."""
    inst, lp = mdl.inst, mdl.lp
    if not inst.group_min:
        return
    takers: dict[str, list[int]] = defaultdict(list)
    people: dict[str, set[str]] = defaultdict(set)
    for j, o in enumerate(inst.options):
        for cid in o.courses:
            takers[cid].append(mdl.xs[j])
            people[cid].add(o.person)
    for cid, cols in takers.items():
        most = len(people[cid])
        if most < inst.group_min:
            continue
        saving = inst.group_discount * inst.course_price[cid]
        g = lp.col(0.0, 0, 1, True)
        y = lp.col(-saving / mdl.scale, 0, float(most))
        mdl.budget.append((y, -saving))
        lp.row([(y, 1.0)] + [(c, -1.0) for c in cols], ub=0.0)
        lp.row([(y, 1.0), (g, -float(most))], ub=0.0)
        lp.row([(g, float(inst.group_min))] + [(c, -1.0) for c in cols], ub=0.0)
        mdl.group[cid] = (g, y)


def _budget(mdl: _Model) -> None:
    """The undiscounted horizon cost, current staff included, within the budget."""
    inst = mdl.inst
    if inst.budget is None or "budget" in mdl.dropped:
        return
    entries = mdl.soft("budget", list(mdl.budget), PENALTY_HARD / mdl.scale)
    mdl.lp.row(entries, ub=inst.budget - inst.fixed_flat)


STEPS = (
    _upskilling,
    _hiring,
    _coverage,
    _contractor_cap,
    _hiring_capacity,
    _training_capacity,
    _mentors,
    _seating,
    _group_discount,
    _budget,
)


def solve(
    inst: Instance,
    *,
    gap: float = 1e-4,
    time_limit: float = 30.0,
    elastic: bool = False,
    drop: Iterable[str] = (),
    deadline: int | None = None,
    threads: int | None = None,
    objective: str = "cost",
) -> Solution:
    """Solve the sourcing MIP over ``inst``.

    ``drop`` removes constraint families (see :data:`FAMILIES`); ``elastic`` keeps them but
    lets each be violated at a penalty, which always gives a solution and shows where the
    conflict lies; ``deadline`` overrides the instance's.

    ``objective="budget"`` minimises the budget row's own expression instead (the
    undiscounted horizon cost the budget constraint measures, no terminal year, no
    tie-breaks; open slots before the deadline cost nothing there, as in the budget row):
    its optimum plus the fixed staff cost is the smallest budget at which the programme is
    feasible (see :func:`gputeam.planning.infeasibility.smallest_budget`).
    """
    t0 = time.perf_counter()
    dropped = set(drop)
    keys: frozenset[tuple[str, int]] = frozenset()
    kept: tuple[_Model, str, float | None, list[float]] | None = None
    yielded = False
    for _ in range(SEATING_ROUNDS + 1):
        mdl = _Model(
            inst,
            lead=0 if "lead" in dropped else inst.lead,
            due=inst.horizon + 1 if "deadline" in dropped else (deadline or inst.deadline),
            elastic=elastic,
            dropped=dropped,
            seat_keys=keys,
        )
        for step in STEPS:
            step(mdl)
        if objective == "budget":
            mdl.lp.cost = [0.0] * len(mdl.lp.cost)
            for col, amount in mdl.budget:
                mdl.lp.cost[col] += amount / mdl.scale
        left = max(time_limit - (time.perf_counter() - t0), 0.1)
        status, _, mip_gap, values = mdl.lp.solve(gap, left, threads)
        if not values:  # the seating rule yields when it alone leaves no plan
            yielded = kept is not None
            break
        kept = (mdl, status, mip_gap, values)
        if objective != "cost" or elastic or dropped:
            break  # the rule is the cost plan's: the diagnosis and the budget search go without
        broken = {(r, m) for r, m, _, _ in seating_violations(inst, _decisions(mdl, values))}
        if not broken or broken <= keys:
            break
        keys = keys | broken
    if kept is not None:
        mdl, status, mip_gap, values = kept
    seconds = time.perf_counter() - t0
    if not values:
        return Solution(status, None, None, seconds, None)
    d = _decisions(mdl, values)
    short = {key: values[c] for key, c in mdl.short.items() if values[c] > 1e-6}
    slack = {f: sum(values[c] for c in cols) for f, cols in mdl.slack.items()}
    slack = {f: v for f, v in slack.items() if v > 1e-6}
    money = (
        inst.fixed_flat + sum(amount * values[col] for col, amount in mdl.budget)
        if objective == "budget"
        else _money(mdl, d, values)
    )
    return Solution(status, money, mip_gap, seconds, d, slack, short, yielded)


def _decisions(mdl: _Model, values: list[float]) -> Decisions:
    inst = mdl.inst
    chosen = tuple(o for j, o in enumerate(inst.options) if values[mdl.xs[j]] > 0.5)
    hires = tuple(
        (k.role, k.level, k.requisition, round(values[mdl.hs[i]]))
        for i, k in enumerate(mdl.hires)
        if round(values[mdl.hs[i]]) > 0
    )
    contractors = {key: values[c] for key, c in mdl.contractor.items() if values[c] > 1e-6}
    opened = {key: values[c] for key, c in mdl.opened.items() if values[c] > 1e-6}
    return Decisions(chosen, hires, contractors, opened)


def _money(mdl: _Model, d: Decisions, values: list[float]) -> float:
    """The horizon cost of ``d`` (the objective without penalties, tie-breaks and the
    terminal year)."""
    inst = mdl.inst
    total = inst.fixed_cost + sum(o.cost for o in d.options)
    for role, level, req, n in d.hires:
        total += n * inst.hire_cost(role, level, req, req + mdl.lead)[0]
    for (_, m), fte in d.contractors.items():
        total += fte * inst.contractor_fte_cost * inst.weights[m - 1]
    for cid, (_, y) in mdl.group.items():
        total -= inst.group_discount * inst.course_price[cid] * values[y]
    return total


__all__ = ["FAMILIES", "Solution", "open_penalty", "solve", "terminal_cost"]
