"""Risk: a Monte Carlo simulation of the chosen plan (NumPy, vectorised, seeded).

Every planned person is a *unit*: a current person (with a target role or keeping their
duties) or one head of a planned hire. Each run draws, for every unit:

* exam attempts: each exam on the roadmap is failed ``Geometric(p) - 1`` times, where p is
  the certification's ``exam.pass_probability`` from the catalog (0.7 when unknown, a
  gputeam assumption); each retake waits ``exam.retake_wait_days`` (14 when unknown) plus
  7 days of revision and costs the exam fee again;
* course slippage: the study span stretches by a fraction drawn from a triangular
  distribution (0, 0.1, 0.5), a gputeam assumption; readiness moves only if the stretched
  study ends after the planned ready month;
* hiring lead time: ``Gamma(4, lead / 4)`` months rounded to the nearest month (mean the
  planned lead time, coefficient of variation 0.5), a gputeam assumption;
* attrition: a monthly hazard ``1 - (1 - a) ** (1 / 12)`` from the catalog's annual
  ``attrition_by_level`` a, cut by ``retention.attrition_reduction`` (the retention
  levers). A leaver with a target role is replaced by a hire after a fresh lead time
  (the replacement does not leave again within the horizon).

From these: coverage per month (staff present and ready against the target, role by role:
people only, a contractor is never counted as ready staff); the probability of being ready
by the deadline, i.e. that staff coverage in the deadline month reaches the scenario's
``constraints.readiness_threshold`` (default 95 % of the month's target slots; the share of
runs covering 100 % is given too), each with its Monte Carlo standard error (binomial,
``sqrt(p (1 - p) / runs)``); beside it, as their own lines, the share of each month's target
the plan covers with contractors and the probability of reaching the threshold when those
planned contractors are counted too; the probability that the run's cost stays within
``constraints.budget``, with its standard error;
the cost over the horizon (the plan's cost plus retake fees, contractors backfilling slots
left vacant when contractors are allowed, recruiting for replacements, less salaries not
paid while a post is vacant), and per skill domain the number of holders by month and the
probability that nobody holds it at some month from the deadline on (key-person risk;
computed on the first 1,000 runs). The plan's own cost is the run in which every exam is
passed at the first attempt, nobody leaves and every hire arrives on time, so it usually
lies low in the simulated distribution: its percentile and the mean of each cause that moves
a run away from it (retake fees, contractor backfill, recruiting, salaries) are reported.
The ROI tornado is :func:`gputeam.planning.roi.sensitivity`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gputeam.catalog import Catalog
from gputeam.planning.result import (
    BusFactor,
    CostDrivers,
    CostPercentiles,
    Costs,
    CoverageBands,
    Risk,
    Roadmap,
    Roi,
    Sensitivity,
    Sourcing,
    Target,
)
from gputeam.planning.roi import sensitivity
from gputeam.scenario import Scenario

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

DEFAULT_PASS = 0.7
DEFAULT_WAIT_DAYS = 14
REVISION_DAYS = 7
SLIP = (0.0, 0.1, 0.5)
LEAD_SHAPE = 4.0
DAYS_PER_MONTH = 30.44
BUS_RUNS = 1000
CHUNK = 250  # runs per batch: small enough that the (runs x units) arrays stay in cache
SAMPLES = 500
STUDY_KINDS = ("course", "bootcamp", "exam", "practice")
DRIVERS = ("exam_retakes", "contractor_backfill", "recruiting", "salaries")


@dataclass
class RiskInputs:
    """The plan as arrays: one entry per unit (U), per exam (E), per role (K), per month (H)."""

    horizon: int
    deadline: int
    role: NDArray[np.int64]  # role index, -1 = not in the target
    ready: NDArray[np.int64]  # planned month ready (or arriving)
    present_from: NDArray[np.int64]  # month the unit is on the payroll
    is_hire: NDArray[np.bool_]
    requisition: NDArray[np.int64]
    study_end_days: NDArray[np.float64]  # days from the plan start to the end of study (0: none)
    study_days: NDArray[np.float64]  # length of the study span
    hazard: NDArray[np.float64]  # monthly attrition probability
    salary_month: NDArray[np.float64]
    recruit_cost: NDArray[np.float64]
    exam_unit: NDArray[np.int64]  # per exam: its unit (sorted)
    exam_pass: NDArray[np.float64]
    exam_wait: NDArray[np.float64]
    exam_fee: NDArray[np.float64]
    demand: NDArray[np.float64]  # (K, H)
    contractors: NDArray[np.float64]  # (K, H) planned FTE
    contractor_month: float  # cost of one contractor FTE-month (0 if contractors not allowed)
    lead: int
    base_cost: float
    domains: tuple[str, ...]
    holds_now: NDArray[np.bool_]  # (U, D)
    gains: NDArray[np.bool_]  # (U, D): gains the domain when ready in their role
    role_domains: NDArray[np.bool_]  # (K, D)
    readiness: float  # share of the deadline month's slots a ready run covers
    budget: float | None = None  # constraints.budget: P(cost <= budget) is reported against it


def prepare(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    sourcing: Sourcing,
    roadmaps: Sequence[Roadmap],
    costs: Costs,
) -> RiskInputs:
    import numpy as np

    e = catalog.economics
    c = scenario.constraints
    h = scenario.horizon_months
    uplift = e.overhead_multiplier * (1 + scenario.retention.premium_pay)
    cut = 1 - (scenario.retention.attrition_reduction or 0.0)  # credited: planning.retention
    roles = sorted({s.role for tm in target.months for s in tm.slots})
    ridx = {r: i for i, r in enumerate(roles)}
    need: dict[str, int] = {}
    role_needs: dict[str, dict[str, int]] = {r: {} for r in roles}
    for tm in target.months:
        for s in tm.slots:
            for d, prof in s.domains.items():
                need[d] = max(need.get(d, 0), prof)
                role_needs[s.role][d] = max(role_needs[s.role].get(d, 0), prof)
        for cover in tm.coverage:  # the fleet's coverage needs: key-person risk too
            need[cover.domain] = max(need.get(cover.domain, 0), cover.proficiency)
    domains = tuple(sorted(need))
    didx = {d: i for i, d in enumerate(domains)}

    def hazard(level: int) -> float:
        a = catalog.economics.attrition_by_level.get(level, 0.15) * cut
        return float(1 - (1 - min(max(a, 0.0), 1.0)) ** (1 / 12))

    assigned = {a.person: a for a in sourcing.assignments}
    by_person = {rm.person: rm for rm in roadmaps}
    rows: list[dict[str, Any]] = []
    exams: list[tuple[int, float, float, float]] = []
    for p in scenario.people:
        a = assigned.get(p.id)
        rm = by_person.get(p.id)
        # only what readiness waits for: certifications after the ready date are goals
        gate = [i for i in rm.items if not i.goal] if rm and a else []
        study = [i for i in gate if i.kind in STUDY_KINDS and i.hours > 0]
        first = min((i.start for i in study), default=scenario.start)
        last = max((i.end for i in study), default=scenario.start)
        u = len(rows)
        for i in gate:
            if i.kind == "exam" and i.ref in catalog.certifications:
                ex = catalog.certifications[i.ref].exam
                exams.append(
                    (
                        u,
                        ex.pass_probability if ex.pass_probability is not None else DEFAULT_PASS,
                        float(ex.retake_wait_days if ex.retake_wait_days is not None else DEFAULT_WAIT_DAYS),
                        i.cost,
                    )
                )
        salary = p.salary if p.salary is not None else catalog.levels[p.level].salary_usd.mid
        # a person who moves seats counts in the seat they hold at the deadline
        seat = a.then_role if a and a.then_role and (a.move_month or 0) <= scenario.deadline else None
        seat = seat or (a.role if a else None)
        rows.append(
            dict(
                role=ridx.get(seat or "", -1),
                ready=a.ready_month if a else 1,
                present_from=1,
                is_hire=False,
                requisition=0,
                study_end=(last - scenario.start).days if study else 0.0,
                study_days=(last - first).days if study else 0.0,
                hazard=hazard(p.level),
                salary=salary / 12 * uplift,
                recruit=catalog.levels[p.level].salary_usd.mid * e.hiring_cost_share,
                skills={d for d, v in p.skills.items() if d in need and v >= need[d]},
                gains=(set(role_needs[seat]) | set(rm.covers if rm else ())) if seat in role_needs else set(),
            )
        )
    # hires' coverage training (planning.needs), in the order the pipeline numbers hires
    hire_covers: dict[str | None, list[tuple[str, ...]]] = {}
    for rm in roadmaps:
        if rm.hire:
            hire_covers.setdefault(rm.role, []).append(rm.covers)
    for hire in sourcing.hires:
        band = catalog.levels[hire.level].salary_usd.mid
        for _ in range(hire.count):
            rows.append(
                dict(
                    role=ridx.get(hire.role, -1),
                    ready=hire.arrival_month,
                    present_from=hire.arrival_month,
                    is_hire=True,
                    requisition=hire.requisition_month,
                    study_end=0.0,
                    study_days=0.0,
                    hazard=hazard(hire.level),
                    salary=band / 12 * uplift,
                    recruit=band * e.hiring_cost_share,
                    skills=set(role_needs.get(hire.role, {})),
                    gains={d for d in (hire_covers.get(hire.role) or [()]).pop(0) if d in need},
                )
            )
    n_u, n_d, n_k = len(rows), len(domains), len(roles)
    holds = np.zeros((n_u, n_d), dtype=bool)
    gains = np.zeros((n_u, n_d), dtype=bool)
    for u, row in enumerate(rows):
        for d in row["skills"]:
            holds[u, didx[d]] = True
        for d in row["gains"]:
            gains[u, didx[d]] = not holds[u, didx[d]]
    role_domains = np.zeros((n_k, n_d), dtype=bool)
    for r, needs in role_needs.items():
        for d in needs:
            role_domains[ridx[r], didx[d]] = True
    demand = np.zeros((n_k, h))
    for tm in target.months:
        for s in tm.slots:
            demand[ridx[s.role], tm.month - 1] += s.count
    hours = e.hours_per_fte_month
    contractors = np.zeros((n_k, h))
    for n in sourcing.contractors:
        if n.role in ridx and 1 <= n.month <= h:
            contractors[ridx[n.role], n.month - 1] += n.hours / hours
    rate = scenario.contractor_rate_h or e.contractor_rate_usd_h
    exams.sort(key=lambda x: x[0])

    def col(key: str, dtype: Any) -> Any:
        return np.array([r[key] for r in rows], dtype=dtype)

    return RiskInputs(
        horizon=h,
        deadline=scenario.deadline,
        role=col("role", np.int64),
        ready=col("ready", np.int64),
        present_from=col("present_from", np.int64),
        is_hire=col("is_hire", bool),
        requisition=col("requisition", np.int64),
        study_end_days=col("study_end", np.float64),
        study_days=col("study_days", np.float64),
        hazard=col("hazard", np.float64),
        salary_month=col("salary", np.float64),
        recruit_cost=col("recruit", np.float64),
        exam_unit=np.array([x[0] for x in exams], dtype=np.int64),
        exam_pass=np.array([x[1] for x in exams], dtype=np.float64),
        exam_wait=np.array([x[2] for x in exams], dtype=np.float64),
        exam_fee=np.array([x[3] for x in exams], dtype=np.float64),
        demand=demand,
        contractors=contractors,
        contractor_month=hours * rate if c.contractors.available else 0.0,
        lead=c.hiring_lead_time_months,
        base_cost=costs.horizon,
        domains=domains,
        holds_now=holds,
        gains=gains,
        role_domains=role_domains,
        readiness=c.readiness_threshold,
        budget=c.budget,
    )


@dataclass
class Draws:
    """One chunk of runs. For the units in a target role (``in_role(x)``, R of them): months
    ready, on the payroll from and replaced after leaving; for every unit: month leaving
    (``horizon + 1``: stays). Cost of each run."""

    ready: NDArray[np.int64]  # (runs, R)
    start: NDArray[np.int64]  # (runs, R)
    replaced: NDArray[np.int64]  # (runs, R)
    leave: NDArray[np.float32]  # (runs, U), whole months
    cost: NDArray[np.float64]  # (runs,)
    parts: NDArray[np.float64]  # (runs, 4): the cost added by each of DRIVERS

    def head(self, n: int) -> Draws:
        return Draws(
            self.ready[:n], self.start[:n], self.replaced[:n], self.leave[:n], self.cost[:n], self.parts[:n]
        )


def in_role(x: RiskInputs) -> NDArray[np.int64]:
    import numpy as np

    return np.flatnonzero(x.role >= 0)


def lead_cdf(lead: int) -> NDArray[np.float64]:
    """P(actual lead <= k months) for k = 0, 1, ...: ``Gamma(4, lead / 4)`` rounded to the
    nearest month, so P(G < k + 1/2), closed form for the integer shape:
    P(G <= t) = 1 - exp(-t/s) (1 + t/s + (t/s)^2/2 + (t/s)^3/6). (Rounding up instead made
    hires arrive half a month late on average.)"""
    import numpy as np

    if lead <= 0:
        return np.ones(1)
    scale = lead / LEAD_SHAPE
    k = np.arange(0, 20 * lead + 10, dtype=np.float64)
    t = (k + 0.5) / scale
    cdf = 1 - np.exp(-t) * (1 + t + t**2 / 2 + t**3 / 6)
    cdf[-1] = 1.0
    return cdf


def _lead(rng: np.random.Generator, cdf: NDArray[np.float64], n: int) -> NDArray[np.int64]:
    import numpy as np

    if len(cdf) == 1:
        return np.zeros(n, dtype=np.int64)
    return np.searchsorted(cdf, rng.random(n), side="left").astype(np.int64)


def _geometric_failures(
    rng: np.random.Generator, p: NDArray[np.float64], runs: int, cap: float = 1e9
) -> NDArray[np.float32]:
    """Failures before the first success, per column of success probability ``p`` (inverse
    CDF: floor(log U / log(1 - p)), single precision: months and attempts need no more)."""
    import numpy as np

    # p = 0 never succeeds: its column is the cap. p = 1 always does: 0 failures.
    with np.errstate(divide="ignore"):
        inv = np.where(p < 1, 1 / np.log1p(-np.minimum(p, 1 - 1e-12)), 0.0).astype(np.float32)
    inv = np.where(p <= 0, np.float32(-cap), inv).astype(np.float32)
    u = rng.random((runs, len(p)), dtype=np.float32)
    np.subtract(np.float32(1), u, out=u)  # (0, 1]: log never sees 0
    np.log(u, out=u)
    np.multiply(u, inv, out=u)
    u[:, p <= 0] = cap
    np.minimum(u, np.float32(cap), out=u)
    return np.floor(u, out=u)


def draw(x: RiskInputs, rng: np.random.Generator, runs: int) -> Draws:
    """Sample ``runs`` runs of every unit (vectorised over runs and units)."""
    import numpy as np

    h = x.horizon
    r_idx = in_role(x)
    n_r = len(r_idx)
    cdf = lead_cdf(x.lead)
    parts = np.zeros((runs, len(DRIVERS)))  # retakes, contractors, recruiting, salaries
    # exams: failures before the pass, each a wait plus revision, and a fee
    delay = np.zeros((runs, n_r))
    if len(x.exam_unit):
        fails = _geometric_failures(rng, x.exam_pass, runs)
        parts[:, 0] = fails @ x.exam_fee.astype(np.float32)
        first = np.flatnonzero(np.r_[True, x.exam_unit[1:] != x.exam_unit[:-1]])
        per_unit = np.add.reduceat(fails * (x.exam_wait + REVISION_DAYS), first, axis=1)
        delay[:, np.searchsorted(r_idx, x.exam_unit[first])] = per_unit
    # course slippage stretches the study span; readiness moves if study ends later
    ready0 = x.ready[r_idx]
    study = x.study_days[r_idx]
    studying = np.flatnonzero(study > 0)
    ready = np.broadcast_to(ready0, (runs, n_r)).copy()
    if len(studying):
        end = (
            x.study_end_days[r_idx][studying]
            + delay[:, studying]
            + rng.triangular(*SLIP, size=(runs, len(studying))) * study[studying]
        )
        ready[:, studying] = np.maximum(ready0[studying], 1 + (end / DAYS_PER_MONTH).astype(np.int64))
    # hires: a random lead time from the requisition month; salary runs from arrival
    start = np.broadcast_to(x.present_from[r_idx], (runs, n_r)).copy()
    hires = np.flatnonzero(x.is_hire[r_idx])
    if len(hires):
        arrive = x.requisition[r_idx][hires] + _lead(rng, cdf, runs * len(hires)).reshape(runs, len(hires))
        start[:, hires] = arrive
        ready[:, hires] = arrive
        shift = np.minimum(arrive, h + 1) - np.minimum(ready0[hires], h + 1)
        parts[:, 3] -= shift @ x.salary_month[r_idx][hires]
    # attrition: a geometric number of months on the payroll, for every unit
    stay = _geometric_failures(rng, x.hazard, runs, cap=h + 1)  # months on the payroll - 1
    leave_r = np.minimum(stay[:, r_idx].astype(np.int64) + 1 + start, h + 1)
    np.add(stay, (x.present_from + 1).astype(np.float32), out=stay)
    np.minimum(stay, np.float32(h + 1), out=stay)
    stay[:, r_idx] = leave_r
    leave = stay  # float32 months, whole numbers
    # a leaver in a target role is replaced after a fresh lead time
    left = leave_r <= h
    replaced = np.full((runs, n_r), h + 1, dtype=np.int64)
    n_left = int(left.sum())
    replaced[left] = np.minimum(leave_r[left] + _lead(rng, cdf, n_left), h + 1)
    # cost: vacancy backfilled by contractors, salaries not paid, recruiting replacements
    ready_c = np.minimum(ready, h + 1)
    planned = np.maximum(h + 1 - ready0, 0)
    actual = np.minimum(np.maximum(leave_r - ready_c, 0), h + 1 - ready_c) + (h + 1 - replaced)
    vacancy = np.maximum(planned - actual, 0)
    parts[:, 1] = vacancy.sum(axis=1) * x.contractor_month
    parts[:, 3] -= ((replaced - leave_r) * left).astype(np.float64) @ x.salary_month[r_idx]
    parts[:, 2] = left.astype(np.float64) @ x.recruit_cost[r_idx]
    if (x.role < 0).any():  # people outside the target: their salary stops when they leave
        pay = np.where(x.role < 0, x.salary_month, 0.0).astype(np.float32)
        parts[:, 3] -= (np.float32(h + 1) - leave) @ pay
    return Draws(ready, start, replaced, leave, x.base_cost + parts.sum(axis=1), parts)


def _count(
    runs: int, groups: int, h: int, group: NDArray[np.int64], starts: NDArray[Any], ends: NDArray[Any] | int
) -> NDArray[np.int64]:
    """Per run, group and month: how many [start, end) intervals cover it. ``group``: (P,);
    ``starts``/``ends``: (runs, P) months 1..h+1 (an empty interval adds nothing)."""
    import numpy as np

    size = h + 2
    n = runs * groups * size
    base = (np.arange(runs)[:, None] * groups + group[None, :]) * size
    starts = starts.astype(np.int64, copy=False)
    if not isinstance(ends, int):
        ends = ends.astype(np.int64, copy=False)
    if isinstance(ends, int):
        hist = np.bincount((base + starts).ravel(), minlength=n)  # open-ended: runs to the horizon
    else:
        hist = np.bincount((base + np.minimum(starts, ends)).ravel(), minlength=n) - np.bincount(
            (base + ends).ravel(), minlength=n
        )
    return np.cumsum(hist.reshape(runs, groups, size), axis=2)[:, :, 1 : h + 1]


def staff_counts(x: RiskInputs, d: Draws) -> NDArray[np.int64]:
    """(runs, roles, months): staff ready and present in each role."""
    import numpy as np

    runs = d.ready.shape[0]
    n_k, h = x.demand.shape
    r_idx = in_role(x)
    group = x.role[r_idx]
    first = _count(runs, n_k, h, group, np.minimum(d.ready, h + 1), d.leave[:, r_idx])
    return first + _count(runs, n_k, h, group, d.replaced, h + 1)


def coverage(x: RiskInputs, staff: NDArray[np.int64], contractors: bool = True) -> NDArray[np.float64]:
    """(runs, months): share of the target covered by staff, plus the planned contractors
    when ``contractors`` (readiness counts staff only: ``contractors=False``)."""
    import numpy as np

    have = staff + x.contractors[None, :, :] if contractors else staff
    covered = np.minimum(have, x.demand[None, :, :]).sum(axis=1)
    total = x.demand.sum(axis=0)
    return np.where(total > 0, covered / np.where(total > 0, total, 1), 1.0)


def contractor_coverage(x: RiskInputs) -> NDArray[np.float64]:
    """(months,): share of each month's target the plan covers with contractors (planned FTE,
    at most the role's target), 0 in a month with no target."""
    import numpy as np

    covered = np.minimum(x.contractors, x.demand).sum(axis=0)
    total = x.demand.sum(axis=0)
    return np.where(total > 0, covered / np.where(total > 0, total, 1), 0.0)


def binomial_se(p: float, runs: int) -> float:
    """The Monte Carlo standard error of a probability ``p`` estimated from ``runs``
    independent runs: ``sqrt(p (1 - p) / runs)`` (the binomial proportion's)."""
    if runs <= 0:
        return 0.0
    return math.sqrt(max(p * (1 - p), 0.0) / runs)


#: The plan's own cost is called a best case when at most this share of runs cost no more.
BEST_CASE_PERCENTILE = 0.10


def holders(x: RiskInputs, d: Draws) -> NDArray[np.int64]:
    """(runs, domains, months): people holding each target domain at its needed level."""
    import numpy as np

    runs = d.leave.shape[0]
    h = x.horizon
    n_d = len(x.domains)
    r_idx = in_role(x)
    pos = np.full(len(x.role), -1)
    pos[r_idx] = np.arange(len(r_idx))
    start_all = np.broadcast_to(x.present_from, d.leave.shape).copy()
    start_all[:, r_idx] = d.start
    out = np.zeros((runs, n_d, h), dtype=np.int64)
    u, k = np.nonzero(x.holds_now)
    if len(u):
        out += _count(runs, n_d, h, k, start_all[:, u], d.leave[:, u])
    u, k = np.nonzero(x.gains & (x.role >= 0)[:, None])
    if len(u):
        out += _count(runs, n_d, h, k, np.minimum(d.ready[:, pos[u]], h + 1), d.leave[:, u])
    u, k = np.nonzero(x.role_domains[x.role[r_idx]])
    if len(u):
        out += _count(runs, n_d, h, k, d.replaced[:, u], h + 1)
    return out


def simulate(x: RiskInputs, runs: int = 2000, seed: int = 0, bus_runs: int = BUS_RUNS) -> Risk:
    """The risk section (without sensitivity): seeded, so the same inputs give the same result.
    Key-person risk is counted on the first ``bus_runs`` runs."""
    import numpy as np

    rng = np.random.default_rng(seed)
    h = x.horizon
    cov = np.empty((runs, h))
    cov_with = np.empty((runs, h))  # counting the planned contractors too
    cost = np.empty(runs)
    parts = np.empty((runs, len(DRIVERS)))
    bus: list[NDArray[np.int64]] = []
    done = 0
    while done < runs:
        n = min(CHUNK, runs - done)
        d = draw(x, rng, n)
        staff = staff_counts(x, d)
        cov[done : done + n] = coverage(x, staff, contractors=False)
        cov_with[done : done + n] = coverage(x, staff)
        cost[done : done + n] = d.cost
        parts[done : done + n] = d.parts
        if done < bus_runs and len(x.domains):
            keep = min(n, bus_runs - done)
            bus.append(holders(x, d.head(keep)))
        done += n
    bands = np.percentile(cov, [10, 50, 90], axis=0)
    p10, p50, p90 = (round(float(v), 2) for v in np.percentile(cost, [10, 50, 90]))
    dl = min(max(x.deadline, 1), h)
    bus_factors: list[BusFactor] = []
    if bus:
        held = np.concatenate(bus, axis=0)
        now = x.holds_now[~x.is_hire].sum(axis=0)
        med = np.median(held, axis=0)
        zero = (held[:, :, dl - 1 :] == 0).any(axis=2).mean(axis=0)
        bus_factors = [
            BusFactor(
                domain=dom,
                holders_now=int(now[i]),
                holders_by_month=tuple(int(v) for v in med[i]),
                p_zero=round(float(zero[i]), 4),
            )
            for i, dom in enumerate(x.domains)
        ]
    mean_parts = parts.mean(axis=0)
    p_ready = float(np.mean(cov[:, dl - 1] >= x.readiness - 1e-9))
    within = float(np.mean(cost <= x.budget + 0.005)) if x.budget is not None else None
    hired = contractor_coverage(x)
    plan_pct = round(float(np.mean(cost <= x.base_cost + 0.005)), 4)
    return Risk(
        runs=runs,
        seed=seed,
        deadline_month=dl,
        readiness_threshold=x.readiness,
        p_ready_by_deadline=p_ready,
        p_ready_se=round(binomial_se(p_ready, runs), 6),
        p_fully_covered=float(np.mean(cov[:, dl - 1] >= 1 - 1e-9)),
        contractor_share_at_deadline=round(float(hired[dl - 1]), 4),
        contractor_coverage=tuple(round(float(v), 4) for v in hired),
        p_ready_with_contractors=float(np.mean(cov_with[:, dl - 1] >= x.readiness - 1e-9)),
        budget=x.budget,
        p_cost_within_budget=within,
        p_cost_within_budget_se=round(binomial_se(within, runs), 6) if within is not None else None,
        plan_cost_best_case=plan_pct <= BEST_CASE_PERCENTILE,
        coverage_bands=CoverageBands(
            **{
                k: tuple(round(float(v), 4) for v in row)
                for k, row in zip(("p10", "p50", "p90"), bands, strict=True)
            }
        ),
        cost_percentiles=CostPercentiles(p10=p10, p50=p50, p90=p90),
        mean_cost=round(float(cost.mean()), 2),
        plan_cost=round(x.base_cost, 2),
        plan_cost_percentile=plan_pct,
        cost_drivers=CostDrivers(**{k: round(float(v), 2) for k, v in zip(DRIVERS, mean_parts, strict=True)}),
        cost_samples=tuple(round(float(v), 2) for v in cost[:SAMPLES]),
        bus_factors=tuple(bus_factors),
    )


def assess(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    sourcing: Sourcing,
    roadmaps: Sequence[Roadmap],
    costs: Costs,
    roi: Roi,
    runs: int = 2000,
    seed: int = 0,
) -> Risk:
    """The plan's ``risk`` section."""
    x = prepare(scenario, catalog, target, sourcing, roadmaps, costs)
    out = simulate(x, runs=runs, seed=seed)
    out = out.model_copy(
        update={
            "bus_factors": tuple(
                b.model_copy(update={"name": catalog.domains[b.domain].name})
                if b.domain in catalog.domains
                else b
                for b in out.bus_factors
            )
        }
    )
    return out.model_copy(
        update={
            "sensitivity": tuple(
                Sensitivity.model_validate(s)
                for s in sensitivity(scenario, catalog, target, sourcing, roadmaps)
            )
        }
    )


def closed_form_survival(annual: float, months: int, reduction: float = 0.0) -> float:
    """P(a person is still there after ``months``) under the simulation's attrition model."""
    return float((1 - annual * (1 - reduction)) ** (months / 12))


def closed_form_attempts(p: float) -> float:
    """Expected exam attempts until a pass (geometric)."""
    return 1 / p if p > 0 else math.inf
