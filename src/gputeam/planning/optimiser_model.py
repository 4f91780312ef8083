"""The sourcing optimiser's data: a plain numeric instance built from a scenario, and the
cost of any set of decisions over it.

The instance knows nothing of HiGHS: :mod:`gputeam.planning.optimiser` turns it into a
mixed-integer programme, and :func:`evaluate` prices any decisions (the optimiser's, the
greedy rule's, a brute-force enumeration's) with the same cost model, so their costs can be
compared.

Cost model (per plan month ``m``, weighted by ``(1 + discount_rate) ** (-(m - 1) / 12)``),
the same as :mod:`gputeam.planning.costs` charges:

* upskilling person p to role r: the roadmap's courses, bootcamps, practice, exams and
  renewals beyond the renewals p would take anyway, certification bonuses, mentoring (20%
  of a senior's loaded salary per apprentice-month, article §6) and, from the ready month,
  the raise of a promotion (:func:`gputeam.planning.costs.salary_at`; times overhead and
  premium pay);
* a hire of role r at level l: recruiting (``hiring_cost_share`` of the band middle) in the
  requisition month, loaded salary and retention bonus from arrival, half salary during
  ramp-up, and their onboarding roadmap (the certifications of their slot, from arrival);
* contractors: full-time-equivalent months at ``hours_per_fte_year / 12`` hours x the rate;
* the vendor group discount (article §6): when ``group_min`` or more people take the same
  priced course and vendor training is allowed, each pays ``1 - discount`` of its price;
* current staff's salaries, retention bonuses and routine renewals are a fixed cost.

The objective adds a **terminal year** (:func:`terminal_cost`): the final month's running
cost of each decision (a raise, a hire's salary, a contractor) continues for
``TERMINAL_MONTHS`` more months, so a plan does not drift back to contractors near the end
of the horizon only because a hire's recruiting and ramp-up would not pay back before it
ends. Reported costs stay those of the horizon.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gputeam.catalog import Catalog
from gputeam.planning.calendar import add_months, month_of
from gputeam.planning.costs import base_salary, salary_at
from gputeam.planning.result import Roadmap, Sourcing, Target, TargetSlot
from gputeam.planning.roadmap import build_roadmap, hire_roadmaps, moving_roadmap
from gputeam.scenario import Person, Scenario

MENTOR_RATIO = 2  # apprentices per senior mentor (article §6: a junior shadows a senior)
MAX_DELAY = 6  # months a roadmap may start late when training capacity is limited
STUDY_KINDS = ("course", "bootcamp", "exam", "practice")
TIE_BREAK = 1.0  # USD-sized nudge per month of readiness / proficiency step, objective only
TERMINAL_MONTHS = 12  # the final month's running costs continue this long in the objective
SEAT_TIE = 0.01  # objective only, per month and level a person sits below their own level


@dataclass(frozen=True)
class Option:
    """Upskill ``person`` to ``role``, starting ``delay`` months after the plan start."""

    person: str
    role: str
    level: int
    ready: int
    delay: int
    cost: float
    flat_cost: float
    training: tuple[int, ...] = ()
    apprentice: tuple[int, ...] = ()
    courses: tuple[str, ...] = ()
    prefer: float = 0.0  # tie-break only (not money): sooner ready, deeper skills in the role
    monthly: float = 0.0  # running cost a month once ready (a promotion's raise, loaded)
    #: a move: from month ``move`` on the person sits in ``then_role`` (at ``then_level``),
    #: ready for it in month ``then_ready``; ``role`` is their seat from ``ready`` until then
    then_role: str | None = None
    then_level: int = 0
    then_ready: int = 0
    move: int = 0

    def seat(self, month: int) -> tuple[str, int] | None:
        """(role, level) of the person's seat in ``month``, or None before they are ready."""
        if month < self.ready:
            return None
        if self.then_role is not None and month >= self.move:
            return self.then_role, self.then_level
        return self.role, self.level


@dataclass(frozen=True)
class HireOption:
    role: str
    level: int
    requisition: int
    arrival: int
    cost: float
    flat_cost: float


@dataclass
class Instance:
    """Everything the optimiser needs, as numbers. Months are 1..horizon."""

    horizon: int
    deadline: int
    lead: int
    demand: dict[tuple[str, int], list[int]]
    options: list[Option]
    people: tuple[str, ...]
    names: dict[str, str]
    hire_salary: dict[tuple[str, int], float]
    contractor_fte_cost: float
    contractor_cap: list[float]
    max_hires: int | None
    max_in_training: int | None
    seniors: int
    course_price: dict[str, float]
    group_min: int | None
    group_discount: float
    budget: float | None
    fixed_cost: float
    fixed_flat: float
    weights: list[float]
    uplift: float
    hiring_share: float
    ramp_months: float
    retention_bonus: float
    hours_per_month: float
    role_names: dict[str, str] = field(default_factory=dict)
    slot_level: dict[str, int] = field(default_factory=dict)
    #: (role, level) -> cost of a hire's onboarding roadmap by month after arrival (0 = arrival)
    onboarding: dict[tuple[str, int], dict[int, float]] = field(default_factory=dict)
    terminal_months: int = 0  # see TERMINAL_MONTHS; 0: the horizon alone
    person_level: dict[str, int] = field(default_factory=dict)  # current level by person id
    currency: str = "USD"  # of every amount above (the scenario's)

    @property
    def roles(self) -> list[str]:
        return sorted({r for r, _ in self.demand})

    def levels(self, role: str) -> list[int]:
        """The levels demanded for ``role`` (coverage thresholds), lowest first."""
        return sorted({lv for r, lv in self.demand if r == role})

    def demand_at(self, role: str, month: int, at_least: int = 0) -> int:
        return sum(v[month - 1] for (r, lv), v in self.demand.items() if r == role and lv >= at_least)

    def total_demand(self, month: int) -> int:
        return sum(v[month - 1] for v in self.demand.values())

    def hire_cost(self, role: str, level: int, requisition: int, arrival: int) -> tuple[float, float]:
        """(discounted, undiscounted) cost of one hire."""
        salary = self.hire_salary[(role, level)]
        disc = flat = 0.0
        if 1 <= requisition <= self.horizon:
            c = salary * self.hiring_share
            disc += c * self.weights[requisition - 1]
            flat += c
        for m in range(max(arrival, 1), self.horizon + 1):
            c = self.hire_monthly(role, level)
            if m < arrival + self.ramp_months:
                c += salary / 12 * 0.5
            c += self.onboarding.get((role, level), {}).get(m - arrival, 0.0)
            disc += c * self.weights[m - 1]
            flat += c
        return disc, flat

    def hire_monthly(self, role: str, level: int) -> float:
        """A hire's running cost a month once ramped up: loaded salary and retention bonus."""
        return self.hire_salary[(role, level)] / 12 * self.uplift + self.retention_bonus / 12

    def hire_options(self, lead: int | None = None) -> list[HireOption]:
        lead = self.lead if lead is None else lead
        out = []
        for role, level in sorted(self.hire_salary):
            for req in range(1, self.horizon - lead + 1):
                disc, flat = self.hire_cost(role, level, req, req + lead)
                out.append(HireOption(role, level, req, req + lead, disc, flat))
        return out

    @property
    def contractor_cost(self) -> list[float]:
        return [self.contractor_fte_cost * w for w in self.weights]


@dataclass(frozen=True)
class Decisions:
    """A sourcing decision set over an :class:`Instance`."""

    options: tuple[Option, ...]
    hires: tuple[tuple[str, int, int, int], ...]  # role, level, requisition, count
    contractors: Mapping[tuple[str, int], float]  # (role, month) -> FTE
    uncovered: Mapping[tuple[str, int], float] = field(default_factory=dict)


def terminal_cost(inst: Instance, d: Decisions) -> float:
    """The terminal year of decisions ``d``: the final month's running cost of each (a raise,
    a hire, contractors) for ``inst.terminal_months`` more months, at the final month's
    discount weight. In the objective only, never in a reported cost."""
    if not inst.terminal_months or not inst.horizon:
        return 0.0
    h = inst.horizon
    monthly = sum(o.monthly for o in d.options if o.ready <= h)
    monthly += sum(n * inst.hire_monthly(r, lv) for r, lv, req, n in d.hires if req + inst.lead <= h)
    monthly += sum(fte * inst.contractor_fte_cost for (_, m), fte in d.contractors.items() if m == h)
    return monthly * inst.terminal_months * inst.weights[h - 1]


def peak_slots(target: Target) -> dict[str, TargetSlot]:
    """For each role, the slot definition with the largest count over the horizon."""
    out: dict[str, TargetSlot] = {}
    for tm in target.months:
        for s in tm.slots:
            if s.role not in out or s.count > out[s.role].count:
                out[s.role] = s
    return out


def month_weights(horizon: int, rate: float) -> list[float]:
    return [(1 + rate) ** (-(m - 1) / 12) for m in range(1, horizon + 1)]


def _months(start: int, end: int, horizon: int) -> tuple[int, ...]:
    return tuple(m for m in range(max(start, 1), min(end, horizon) + 1))


def roadmap_costs(
    rm: Roadmap, scenario: Scenario, catalog: Catalog, mentor_salary: float
) -> dict[int, float]:
    """Cost by plan month of a roadmap's items (before any group discount), as costs.py."""
    e = catalog.economics
    appr = catalog.strategies.get("apprenticeship")
    share = appr.mentor_time_share if appr and appr.mentor_time_share else 0.2
    out: dict[int, float] = defaultdict(float)
    for item in rm.items:
        m = month_of(scenario.start, item.start)
        if item.kind in ("course", "bootcamp", "practice"):
            out[m] += item.cost
        elif item.kind in ("exam", "renewal"):
            out[m] += item.cost
            if item.kind == "exam":
                out[m] += scenario.retention.certification_bonus
        elif item.kind == "apprenticeship":
            for mm in range(m, month_of(scenario.start, item.end)):
                out[mm] += mentor_salary * e.overhead_multiplier / 12 * share
    return out


def demand_by_level(target: Target) -> dict[tuple[str, int], list[int]]:
    h = len(target.months)
    out: dict[tuple[str, int], list[int]] = {}
    for tm in target.months:
        for s in tm.slots:
            if s.count > 0:
                out.setdefault((s.role, s.level_min), [0] * h)[tm.month - 1] += s.count
    return out


def build_instance(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    cands: Mapping[tuple[str, str], Roadmap],
    slots: Mapping[str, TargetSlot],
) -> Instance:
    """The numeric instance for ``scenario`` with the candidate roadmaps ``cands``."""
    e = catalog.economics
    c = scenario.constraints
    h = scenario.horizon_months
    weights = month_weights(h, c.discount_rate)
    uplift = e.overhead_multiplier * (1 + scenario.retention.premium_pay)
    demand = demand_by_level(target)
    levels: dict[str, list[int]] = defaultdict(list)
    for r, lv in demand:
        levels[r].append(lv)
    seniors = [p for p in scenario.people if p.level >= 4]
    salaries = {p.id: base_salary(catalog, p) for p in scenario.people}
    mentor_salary = max((salaries[p.id] for p in seniors), default=catalog.levels[4].salary_usd.mid)
    vendor = catalog.strategies.get("vendor")
    group = (
        "vendor" in c.strategies
        and vendor is not None
        and vendor.group_min is not None
        and vendor.group_discount is not None
    )
    mentor = bool(seniors)
    fixed = fixed_flat = 0.0
    options: list[Option] = []
    course_price: dict[str, float] = {}
    delays: Sequence[int] = (0,)
    if c.max_in_training:  # later starts let the training capacity bind; fewer on big teams
        delays = range(0, MAX_DELAY + 1) if len(scenario.people) * len(slots) <= 2000 else (0, 2, 4, 6)
    for p in scenario.people:
        base = build_roadmap(p, None, scenario, catalog)
        base_cost = roadmap_costs(base, scenario, catalog, mentor_salary)
        for m in range(1, h + 1):
            amount = (
                salaries[p.id] / 12 * uplift + scenario.retention.retention_bonus / 12 + base_cost.get(m, 0.0)
            )
            fixed += amount * weights[m - 1]
            fixed_flat += amount
        for role, slot in slots.items():
            if role not in levels:
                continue
            for k in delays:
                if k == 0:
                    rm = cands[(p.id, role)]
                else:
                    rm = build_roadmap(
                        p,
                        slot,
                        scenario,
                        catalog,
                        start=add_months(scenario.start, k),
                        mentor_available=mentor,
                    )
                if rm.ready_month is None or rm.ready_month > h:
                    continue
                ready = max(rm.ready_month, 1)
                lvl = max(slot.level_min, rm.level_at_ready or 0)
                by_month = roadmap_costs(rm, scenario, catalog, mentor_salary)
                raise_ = (salary_at(p, lvl, scenario, catalog) - salaries[p.id]) / 12 * uplift
                disc, flat = _option_cost(by_month, base_cost, raise_, ready, weights, h)
                training, apprentice, courses = _roadmap_months(rm, scenario, h, group, course_price)
                depth = sum(p.skills.get(d, 0) for d in slot.domains)
                options.append(
                    Option(
                        p.id,
                        role,
                        rm.level_at_ready or slot.level_min,
                        ready,
                        k,
                        disc,
                        flat,
                        tuple(sorted(training)),
                        tuple(sorted(apprentice)),
                        tuple(courses),
                        TIE_BREAK * (ready - depth) + SEAT_TIE * seat_gap(p.level, lvl, slot, ready, h),
                        raise_,
                    )
                )
                if k == 0 and not training:
                    break  # nothing to schedule: a later start is never better
    options += moves(
        scenario,
        catalog,
        slots,
        demand,
        options,
        salaries,
        uplift,
        weights,
        mentor_salary,
        group,
        course_price,
    )
    hire_salary = {(r, lv): catalog.levels[lv].salary_usd.mid for r, lv in demand}
    onboarding = {}
    for r, lv in demand:
        rm = hire_roadmaps(r, lv, 1, 1, slots[r], scenario, catalog)[0]
        by_month = roadmap_costs(rm, scenario, catalog, mentor_salary)
        onboarding[(r, lv)] = {m - 1: v for m, v in by_month.items() if m >= 1}
    cs = c.contractors
    rate = scenario.contractor_rate_h or e.contractor_rate_usd_h
    hours_month = e.hours_per_fte_year / 12
    cap = [cs.max_share * sum(v[m] for v in demand.values()) if cs.available else 0.0 for m in range(h)]
    return Instance(
        horizon=h,
        deadline=scenario.deadline,
        lead=c.hiring_lead_time_months,
        demand=demand,
        options=options,
        people=tuple(p.id for p in scenario.people),
        names={p.id: p.name for p in scenario.people},
        hire_salary=hire_salary,
        contractor_fte_cost=hours_month * rate,
        contractor_cap=cap,
        max_hires=c.max_hires_per_month,
        max_in_training=c.max_in_training,
        seniors=len(seniors),
        course_price=course_price,
        group_min=vendor.group_min if group and vendor else None,
        group_discount=vendor.group_discount.mid if group and vendor and vendor.group_discount else 0.0,
        budget=c.budget,
        fixed_cost=fixed,
        fixed_flat=fixed_flat,
        weights=weights,
        uplift=uplift,
        hiring_share=e.hiring_cost_share,
        ramp_months=e.ramp_up_months,
        retention_bonus=scenario.retention.retention_bonus,
        hours_per_month=hours_month,
        role_names={r: catalog.roles[r].name if r in catalog.roles else r for r in levels},
        slot_level={r: slots[r].level_min for r in slots},
        onboarding=onboarding,
        terminal_months=TERMINAL_MONTHS,
        person_level={p.id: p.level for p in scenario.people},
        currency=scenario.currency,
    )


def seat_gap(person_level: int, level: int, slot: TargetSlot, first: int, last: int) -> int:
    """Level-months a person at ``max(person_level, level)`` sits below ``slot``'s level in
    months ``first..last`` (the seating rule's tie-break: a senior takes the senior seat)."""
    return max(0, max(person_level, level) - slot.level_min) * max(0, last - first + 1)


def _is_free(o: Option) -> bool:
    """A seat the person fits with nothing to study and no promotion."""
    return not o.training and not o.apprentice and o.monthly == 0 and abs(o.flat_cost) < 0.5


def move_months(o: Option, later: str, role_demand: Mapping[str, list[int]]) -> list[int]:
    """The months in which a person seated as ``o`` may move to ``later``: where the need
    for ``o``'s role falls, and (a seat they fit without study, held while they train) the
    first month ``later`` is needed after they are ready."""
    first = role_demand[o.role]
    out = {m for m in range(o.ready + 1, len(first) + 1) if first[m - 1] < first[m - 2]}
    if _is_free(o):
        nxt = role_demand[later]
        start = next((m for m in range(o.ready + 1, len(nxt) + 1) if nxt[m - 1] > 0), None)
        if start is not None:
            out.add(start)
    return sorted(out)


def moves(
    scenario: Scenario,
    catalog: Catalog,
    slots: Mapping[str, TargetSlot],
    demand: Mapping[tuple[str, int], list[int]],
    options: Sequence[Option],
    salaries: Mapping[str, float],
    uplift: float,
    weights: Sequence[float],
    mentor_salary: float,
    group: bool,
    course_price: dict[str, float],
) -> list[Option]:
    """Options that seat a person in one role and move them to another at a month boundary
    (:func:`gputeam.planning.roadmap.moving_roadmap`): when the first role's need falls
    within the horizon, or while they train for a later seat in one they already fit. Only
    moves that need no second promotion (the later seat's level is reached with the first),
    so the raise comes once, in the first ready month, as for any option."""
    h = scenario.horizon_months
    role_demand: dict[str, list[int]] = defaultdict(lambda: [0] * h)
    for (r, _), v in demand.items():
        for m in range(h):
            role_demand[r][m] += v[m]
    people = {p.id: p for p in scenario.people}
    mentor = any(p.level >= 4 for p in scenario.people)
    first = [o for o in options if o.delay == 0 and o.role in role_demand]
    by_person: dict[str, list[Option]] = defaultdict(list)
    for o in first:
        by_person[o.person].append(o)
    out: list[Option] = []
    for pid, opts in by_person.items():
        p = people[pid]
        base = build_roadmap(p, None, scenario, catalog)
        base_cost = roadmap_costs(base, scenario, catalog, mentor_salary)
        for o in opts:
            lvl1 = max(slots[o.role].level_min, o.level)
            for later in opts:
                if later.role == o.role or max(slots[later.role].level_min, later.level) > lvl1:
                    continue
                months = move_months(o, later.role, role_demand)
                if not months:
                    continue
                rm = moving_roadmap(p, slots[o.role], slots[later.role], scenario, catalog, mentor)
                if rm.ready_month is None or rm.ready_month > h:
                    continue
                then_level = rm.level_at_ready or slots[later.role].level_min
                if max(slots[later.role].level_min, then_level) > lvl1:
                    continue
                seen: set[int] = set()
                for d in months:
                    move = max(d, rm.ready_month)
                    if move in seen or move > h or role_demand[later.role][move - 1] == 0:
                        continue
                    if not any(role_demand[o.role][m - 1] for m in range(o.ready, move)):
                        continue  # the first seat is never needed before the move
                    seen.add(move)
                    out.append(
                        _moving_option(
                            o,
                            later.role,
                            then_level,
                            rm,
                            move,
                            scenario,
                            catalog,
                            base_cost,
                            salaries[pid],
                            uplift,
                            weights,
                            mentor_salary,
                            group,
                            slots,
                            p,
                            course_price,
                        )
                    )
    return out


def _moving_option(
    o: Option,
    later: str,
    then_level: int,
    rm: Roadmap,
    move: int,
    scenario: Scenario,
    catalog: Catalog,
    base_cost: Mapping[int, float],
    salary: float,
    uplift: float,
    weights: Sequence[float],
    mentor_salary: float,
    group: bool,
    slots: Mapping[str, TargetSlot],
    person: Person,
    course_price: dict[str, float],
) -> Option:
    h = scenario.horizon_months
    by_month = roadmap_costs(rm, scenario, catalog, mentor_salary)
    lvl = max(slots[o.role].level_min, o.level)
    raise_ = (salary_at(person, lvl, scenario, catalog) - salary) / 12 * uplift
    disc, flat = _option_cost(by_month, base_cost, raise_, o.ready, weights, h)
    training, apprentice, courses = _roadmap_months(rm, scenario, h, group, course_price)
    below = seat_gap(person.level, o.level, slots[o.role], o.ready, move - 1) + seat_gap(
        person.level, then_level, slots[later], move, h
    )
    return Option(
        o.person,
        o.role,
        o.level,
        o.ready,
        0,
        disc,
        flat,
        tuple(sorted(training)),
        tuple(sorted(apprentice)),
        tuple(courses),
        o.prefer + SEAT_TIE * (below - seat_gap(person.level, o.level, slots[o.role], o.ready, h)),
        raise_,
        then_role=later,
        then_level=then_level,
        then_ready=rm.ready_month or move,
        move=move,
    )


SENIOR_SEAT = 4  # the seating rule's seats: Level 4 and above (lead, senior, architect ...)


def earliest_ready(inst: Instance) -> dict[tuple[str, str], int]:
    """(person, role) -> the earliest month the person's own roadmap for the role makes them
    ready (no move, no late start)."""
    out: dict[tuple[str, str], int] = {}
    for o in inst.options:
        if o.delay == 0 and o.then_role is None:
            key = (o.person, o.role)
            out[key] = min(out.get(key, o.ready), o.ready)
    return out


def bought_from_outside(inst: Instance, d: Decisions, role: str, month: int) -> bool:
    """Whether a ``role`` seat is bought from outside in ``month``: contractors that month,
    or a hire on staff by then."""
    if d.contractors.get((role, month), 0.0) > 1e-6:
        return True
    return any(r == role and req + inst.lead <= month and n > 0 for r, _, req, n in d.hires)


def seating_violations(inst: Instance, d: Decisions) -> list[tuple[str, int, str, str]]:
    """Where ``d`` breaks the seating rule: (role, month, person, 'idle' | 'below') for each
    senior seat (Level 4+) bought from outside in a month when a person who can be ready
    for it by then (their roadmap for it) sits idle, or sits in a seat below its level while
    at or above that level."""
    ready = earliest_ready(inst)
    chosen = {o.person: o for o in d.options}
    out: list[tuple[str, int, str, str]] = []
    for role in inst.roles:
        level = inst.slot_level.get(role, 0)
        if level < SENIOR_SEAT:
            continue
        for m in range(1, inst.horizon + 1):
            if inst.demand_at(role, m) == 0 or not bought_from_outside(inst, d, role, m):
                continue
            for (p, r), first in sorted(ready.items()):
                if r != role or first > m:
                    continue
                o = chosen.get(p)
                seat = o.seat(m) if o is not None else None
                if seat is None:
                    out.append((role, m, p, "idle"))
                elif inst.slot_level.get(seat[0], 0) < level <= max(inst.person_level.get(p, 0), seat[1]):
                    out.append((role, m, p, "below"))
    return out


def evaluate(inst: Instance, d: Decisions, discounted: bool = True) -> float:
    """Total cost over the horizon of decisions ``d`` (fixed staff costs included)."""
    total = inst.fixed_cost if discounted else inst.fixed_flat
    takers: dict[str, int] = defaultdict(int)
    for o in d.options:
        total += o.cost if discounted else o.flat_cost
        for cid in o.courses:
            takers[cid] += 1
    if inst.group_min:
        for cid, n in takers.items():
            if n >= inst.group_min:
                total -= inst.group_discount * inst.course_price[cid] * n
    for role, level, req, count in d.hires:
        disc, flat = inst.hire_cost(role, level, req, req + inst.lead)
        total += count * (disc if discounted else flat)
    for (_, m), fte in d.contractors.items():
        if 1 <= m <= inst.horizon:
            total += fte * inst.contractor_fte_cost * (inst.weights[m - 1] if discounted else 1.0)
    return total


def decisions_of(inst: Instance, s: Sourcing) -> Decisions:
    """The decisions of a finished Sourcing (e.g. the greedy rule's), over ``inst``."""
    by_key = {(o.person, o.role): o for o in inst.options if o.delay == 0 and o.then_role is None}
    opts = tuple(by_key[(a.person, a.role)] for a in s.assignments if (a.person, a.role) in by_key)
    hires = tuple(
        (h.role, h.level, h.requisition_month, h.count)
        for h in s.hires
        if (h.role, h.level) in inst.hire_salary
    )
    contractors: dict[tuple[str, int], float] = defaultdict(float)
    for n in s.contractors:
        contractors[(n.role, n.month)] += n.hours / inst.hours_per_month
    return Decisions(opts, hires, dict(contractors))


def staff_by_month(
    inst: Instance, d: Decisions | Sequence[Option], hires: Sequence[tuple[str, int, int, int]] = ()
) -> dict[tuple[str, int], list[int]]:
    """Per (role, level), staff ready in each month (index 0 = month 1)."""
    opts = d.options if isinstance(d, Decisions) else d
    if isinstance(d, Decisions):
        hires = d.hires
    out: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0] * inst.horizon)
    for o in opts:
        for m in range(o.ready, inst.horizon + 1):
            seat = o.seat(m)
            if seat is not None:
                out[seat][m - 1] += 1
    for role, level, req, count in hires:
        for m in range(req + inst.lead, inst.horizon + 1):
            out[(role, level)][m - 1] += count
    return out


def _option_cost(
    by_month: Mapping[int, float],
    base_cost: Mapping[int, float],
    raise_: float,
    ready: int,
    weights: Sequence[float],
    h: int,
) -> tuple[float, float]:
    """(discounted, undiscounted) cost of an option over the horizon: its roadmap's monthly
    cost beyond the person's base cost, plus the raise from the month they are ready."""
    disc = flat = 0.0
    for m in range(1, h + 1):
        amount = by_month.get(m, 0.0) - base_cost.get(m, 0.0) + (raise_ if m >= ready else 0)
        disc += amount * weights[m - 1]
        flat += amount
    return disc, flat


def _roadmap_months(
    rm: Roadmap, scenario: Scenario, h: int, group: bool, course_price: dict[str, float]
) -> tuple[set[int], set[int], list[str]]:
    """The months a roadmap studies in and apprentices in, and its priced courses (for the
    group discount; each course's price noted in ``course_price``)."""
    training: set[int] = set()
    apprentice: set[int] = set()
    courses: list[str] = []
    for it in rm.items:
        m0 = month_of(scenario.start, it.start)
        if it.kind in STUDY_KINDS and it.hours > 0:
            training.update(_months(m0, month_of(scenario.start, it.end), h))
        elif it.kind == "apprenticeship":
            apprentice.update(_months(m0, month_of(scenario.start, it.end) - 1, h))
        if group and it.kind == "course" and it.cost > 0:
            courses.append(it.ref)
            course_price.setdefault(it.ref, it.cost)
    return training, apprentice, courses
