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
``discount_rate``. When no plan satisfies every constraint, :func:`diagnose` finds which
constraints conflict by solving an elastic version (every constraint family softened with
penalised slack) and by re-solving with each family dropped in turn (see
:mod:`gputeam.planning.infeasibility`).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gputeam.catalog import Catalog
from gputeam.planning.optimiser_model import MENTOR_RATIO, Decisions, HireOption, Instance
from gputeam.planning.result import Roadmap, Sourcing, Target
from gputeam.scenario import Scenario

FAMILIES = ("deadline", "lead", "contractors", "hires", "budget", "training", "mentors")
INF = float("inf")
PENALTY_OPEN = 1.5  # an open slot before the deadline, per FTE-month, x the contractor price
PENALTY_SHORT = 3.0  # elastic: an open slot from the deadline on (other families: 50)


def open_penalty(inst: Instance, d: Decisions) -> float:
    """The objective's penalty for slots left open before the deadline (not a cost)."""
    return sum(fte * PENALTY_OPEN * inst.contractor_fte_cost * inst.weights[m - 1]
               for (_, m), fte in d.uncovered.items())


@dataclass
class Solution:
    status: str  # optimal | time_limit | infeasible | error
    objective: float | None
    gap: float | None
    seconds: float
    decisions: Decisions | None
    slack: dict[str, float] = field(default_factory=dict)
    short: dict[tuple[str, int], float] = field(default_factory=dict)  # (role, month) -> FTE


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

    def solve(self, gap: float, time_limit: float, threads: int | None = None
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

    def _run(self, lb: Any, ub: Any, integer: Any, gap: float, time_limit: float,
             threads: int | None, start: list[float] | None = None
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
            lp.integrality_ = [highspy.HighsVarType.kInteger if i else highspy.HighsVarType.kContinuous
                               for i in integer]
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
        elif ms in (highspy.HighsModelStatus.kInfeasible,
                    highspy.HighsModelStatus.kUnboundedOrInfeasible):
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


def solve(inst: Instance, *, gap: float = 1e-4, time_limit: float = 30.0, elastic: bool = False,
          drop: Iterable[str] = (), deadline: int | None = None, threads: int | None = None
          ) -> Solution:
    """Solve the sourcing MIP over ``inst``.

    ``drop`` removes constraint families (see :data:`FAMILIES`); ``elastic`` keeps them but
    lets each be violated at a penalty, which always gives a solution and shows where the
    conflict lies; ``deadline`` overrides the instance's.
    """
    t0 = time.perf_counter()
    dropped = set(drop)
    lead = 0 if "lead" in dropped else inst.lead
    due = inst.horizon + 1 if "deadline" in dropped else (deadline or inst.deadline)
    lp = _Lp()
    # objective scale: keep coefficients near 1 for the solver, report in money
    scale = max(inst.contractor_fte_cost, 1.0)
    penalty_open = PENALTY_OPEN
    penalty_hard = 50.0
    budget_flat: list[tuple[int, float]] = []
    slack_cols: dict[str, list[int]] = defaultdict(list)

    # upskill options
    xs = [lp.col((o.cost + o.prefer) / scale, 0, 1, True) for o in inst.options]
    for j, o in enumerate(inst.options):
        budget_flat.append((xs[j], o.flat_cost))
    by_person: dict[str, list[int]] = defaultdict(list)
    for j, o in enumerate(inst.options):
        by_person[o.person].append(xs[j])
    for cols in by_person.values():
        if len(cols) > 1:
            lp.row(((c, 1.0) for c in cols), ub=1.0)

    # hires
    hires: list[HireOption] = inst.hire_options(lead)
    hs = []
    for k in hires:
        top = max(inst.demand_at(k.role, m) for m in range(1, inst.horizon + 1))
        col = lp.col(k.cost / scale, 0, float(top), True)
        hs.append(col)
        budget_flat.append((col, k.flat_cost))

    # cumulative staff by role, level bucket and month; coverage rows per level threshold
    cover_cols: dict[tuple[str, int], list[int]] = {}
    open_cols: dict[tuple[str, int], int] = {}
    short_cols: dict[tuple[str, int], int] = {}
    contractor_rows: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for role in inst.roles:
        thresholds = inst.levels(role)

        def bucket(level: int, thresholds: list[int] = thresholds) -> int | None:
            fits = [t for t in thresholds if t <= level]
            return fits[-1] if fits else None

        arrivals: dict[tuple[int, int], list[int]] = defaultdict(list)  # (bucket, month) -> cols
        for j, o in enumerate(inst.options):
            b = bucket(o.level) if o.role == role else None
            if b is not None:
                arrivals[(b, o.ready)].append(xs[j])
        for i, k in enumerate(hires):
            if k.role == role and k.arrival <= inst.horizon:
                arrivals[(k.level, k.arrival)].append(hs[i])
        z: dict[tuple[int, int], int] = {}
        for b in thresholds:
            for m in range(1, inst.horizon + 1):
                z[(b, m)] = lp.col(0.0)
                entries = [(z[(b, m)], 1.0)] + [(c, -1.0) for c in arrivals.get((b, m), [])]
                if m > 1:
                    entries.append((z[(b, m - 1)], -1.0))
                lp.row(entries, lb=0.0, ub=0.0)
        for m in range(1, inst.horizon + 1):
            if inst.demand_at(role, m) == 0:
                continue
            w = inst.weights[m - 1]
            extra = []
            c_col = lp.col(w * inst.contractor_fte_cost / scale)
            contractor_rows[m].append((c_col, 1.0))
            budget_flat.append((c_col, inst.contractor_fte_cost))
            cover_cols[(role, m)] = [c_col]
            extra.append(c_col)
            if m < due:
                u = lp.col(w * penalty_open)
                open_cols[(role, m)] = u
                extra.append(u)
            elif elastic:
                s = lp.col(PENALTY_SHORT)
                short_cols[(role, m)] = s
                slack_cols["deadline"].append(s)
                extra.append(s)
            for t in thresholds:
                need = inst.demand_at(role, m, t)
                if need == 0:
                    continue
                entries = [(z[(b, m)], 1.0) for b in thresholds if b >= t]
                lp.row(entries + [(c, 1.0) for c in extra], lb=float(need))

    # contractor share cap
    for m, entries in contractor_rows.items():
        cap = inst.contractor_cap[m - 1]
        if "contractors" in dropped:
            continue
        if elastic:
            s = lp.col(penalty_hard)
            slack_cols["contractors"].append(s)
            entries = entries + [(s, -1.0)]
        lp.row(entries, ub=cap)

    # hires per month
    if inst.max_hires is not None and "hires" not in dropped:
        per: dict[int, list[int]] = defaultdict(list)
        for i, k in enumerate(hires):
            per[k.requisition].append(hs[i])
        for cols in per.values():
            entries = [(c, 1.0) for c in cols]
            if elastic:
                s = lp.col(penalty_hard)
                slack_cols["hires"].append(s)
                entries.append((s, -1.0))
            lp.row(entries, ub=float(inst.max_hires))

    # training capacity
    if inst.max_in_training is not None and "training" not in dropped:
        per = defaultdict(list)
        for j, o in enumerate(inst.options):
            for m in o.training:
                per[m].append(xs[j])
        for cols in per.values():
            if len(cols) <= inst.max_in_training:
                continue
            entries = [(c, 1.0) for c in cols]
            if elastic:
                s = lp.col(penalty_hard)
                slack_cols["training"].append(s)
                entries.append((s, -1.0))
            lp.row(entries, ub=float(inst.max_in_training))

    # mentors: at most MENTOR_RATIO apprentices per senior on staff or hired by then
    if "mentors" not in dropped:
        per = defaultdict(list)
        for j, o in enumerate(inst.options):
            for m in o.apprentice:
                per[m].append(xs[j])
        for m, cols in per.items():
            entries = [(c, 1.0) for c in cols]
            entries += [(hs[i], -float(MENTOR_RATIO)) for i, k in enumerate(hires)
                        if k.level >= 4 and k.arrival <= m]
            if elastic:
                s = lp.col(penalty_hard)
                slack_cols["mentors"].append(s)
                entries.append((s, -1.0))
            lp.row(entries, ub=float(MENTOR_RATIO * inst.seniors))

    # vendor group discount
    group_cols: dict[str, tuple[int, int]] = {}
    if inst.group_min:
        takers: dict[str, list[int]] = defaultdict(list)
        people: dict[str, set[str]] = defaultdict(set)
        for j, o in enumerate(inst.options):
            for cid in o.courses:
                takers[cid].append(xs[j])
                people[cid].add(o.person)
        for cid, cols in takers.items():
            most = len(people[cid])
            if most < inst.group_min:
                continue
            saving = inst.group_discount * inst.course_price[cid]
            g = lp.col(0.0, 0, 1, True)
            y = lp.col(-saving / scale, 0, float(most))
            budget_flat.append((y, -saving))
            lp.row([(y, 1.0)] + [(c, -1.0) for c in cols], ub=0.0)
            lp.row([(y, 1.0), (g, -float(most))], ub=0.0)
            lp.row([(g, float(inst.group_min))] + [(c, -1.0) for c in cols], ub=0.0)
            group_cols[cid] = (g, y)

    # budget over the horizon (undiscounted), fixed staff costs included
    if inst.budget is not None and "budget" not in dropped:
        entries = list(budget_flat)
        if elastic:
            s = lp.col(penalty_hard / scale)
            slack_cols["budget"].append(s)
            entries.append((s, -1.0))
        lp.row(entries, ub=inst.budget - inst.fixed_flat)

    status, obj, mip_gap, values = lp.solve(gap, time_limit, threads)
    seconds = time.perf_counter() - t0
    if not values:
        return Solution(status, None, None, seconds, None)
    chosen = tuple(o for j, o in enumerate(inst.options) if values[xs[j]] > 0.5)
    hire_list: list[tuple[str, int, int, int]] = []
    for i, k in enumerate(hires):
        n = round(values[hs[i]])
        if n > 0:
            hire_list.append((k.role, k.level, k.requisition, n))
    contractors = {key: values[cols[0]] for key, cols in cover_cols.items() if values[cols[0]] > 1e-6}
    opened = {key: values[c] for key, c in open_cols.items() if values[c] > 1e-6}
    short = {key: values[c] for key, c in short_cols.items() if values[c] > 1e-6}
    slack = {f: sum(values[c] for c in cols) for f, cols in slack_cols.items()}
    slack = {f: v for f, v in slack.items() if v > 1e-6}
    d = Decisions(chosen, tuple(hire_list), contractors, opened)
    cost = _money(inst, d, lead, group_cols, values)
    return Solution(status, cost, mip_gap, seconds, d, slack, short)


def _money(inst: Instance, d: Decisions, lead: int, group_cols: dict[str, tuple[int, int]],
           values: list[float]) -> float:
    total = inst.fixed_cost + sum(o.cost for o in d.options)
    for role, level, req, n in d.hires:
        total += n * inst.hire_cost(role, level, req, req + lead)[0]
    for (_, m), fte in d.contractors.items():
        total += fte * inst.contractor_fte_cost * inst.weights[m - 1]
    for cid, (_, y) in group_cols.items():
        total -= inst.group_discount * inst.course_price[cid] * values[y]
    return total


# ---------------------------------------------------------------- entry point
def optimise(scenario: Scenario, catalog: Catalog, target: Target,
             cands: Mapping[tuple[str, str], Roadmap], greedy: Sourcing | None = None, *,
             gap: float = 1e-4, time_limit: float = 30.0) -> Sourcing:
    """The optimal Sourcing for ``scenario`` (``greedy``: the rule's, priced for comparison)."""
    from gputeam.planning.explain import build_sourcing, greedy_evaluation, versus_greedy
    from gputeam.planning.optimiser_model import build_instance, evaluate
    from gputeam.planning.sourcing import peak_slots

    slots = peak_slots(target)
    inst = build_instance(scenario, catalog, target, cands, slots)
    sol = solve(inst, gap=gap, time_limit=time_limit)
    basis = (f"discounted at {scenario.constraints.discount_rate:.1%} a year"
             if scenario.constraints.discount_rate else "undiscounted")
    details: dict[str, Any] = {"cost_basis": f"horizon total incl. current salaries, {basis}",
                               "options": len(inst.options), "solver": "HiGHS"}
    greedy_cost: float | None = None
    greedy_open = 0.0
    if greedy is not None:
        greedy_cost, greedy_open = greedy_evaluation(inst, greedy)
        details["greedy_open_slot_months"] = round(greedy_open, 2)
    cur = scenario.currency
    if sol.decisions is not None:
        d = sol.decisions
        cost = evaluate(inst, d)
        # no wall-clock time in the text: the same inputs give the same words
        line = (f"optimal plan (HiGHS, gap {100 * (sol.gap or 0):.2f}%): "
                f"{cur} {cost:,.0f} over {inst.horizon} months")
        if sol.status == "time_limit":
            line = line.replace("optimal plan", "best plan found within the time limit")
        line += versus_greedy(cost, greedy_cost, greedy_open, sum(d.uncovered.values()), cur)
        return build_sourcing(inst, d, scenario, catalog, slots, status=sol.status, total_cost=cost,
                              greedy_cost=greedy_cost, mip_gap=sol.gap, seconds=sol.seconds,
                              details=details, preface=(line,))
    if sol.status in ("time_limit", "error") and greedy is not None:
        # no feasible point within the time limit: keep the greedy plan, and say so
        note = (f"the optimiser found no plan within {time_limit:g} s; this is the greedy rule's plan"
                if sol.status == "time_limit" else "the solver failed; this is the greedy rule's plan")
        return greedy.model_copy(update={
            "explanation": (note, *greedy.explanation), "status": "time_limit",
            "solve_seconds": round(sol.seconds, 4), "greedy_cost": greedy_cost, "total_cost": greedy_cost,
            "details": details})
    from gputeam.planning.infeasibility import diagnose

    diag = diagnose(inst, start=scenario.start)
    el = diag.elastic
    details["conflict"] = {"constraints": diag.conflicts, "fixes": diag.fixes,
                           "violations": {k: round(v, 4) for k, v in el.slack.items()}}
    seconds = sol.seconds + el.seconds
    if el.decisions is None:  # cannot happen: the elastic model is always feasible
        d = Decisions((), (), {}, {})
    else:
        d = Decisions(el.decisions.options, el.decisions.hires, el.decisions.contractors,
                      {**el.decisions.uncovered, **el.short})
    return build_sourcing(inst, d, scenario, catalog, slots, status="infeasible",
                          total_cost=evaluate(inst, d), greedy_cost=greedy_cost, mip_gap=None,
                          seconds=seconds, details=details, preface=(diag.statement,))
