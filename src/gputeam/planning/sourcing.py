"""Sourcing: who is upskilled to which role, what is hired and when, where contractors bridge.

:func:`source` is the one entry point; ``method`` picks the decision rule. The ``rule``
method is a documented greedy rule:

1. Every target slot becomes units, each due at the later of the deadline and the month it
   is first needed; units are taken by due month, higher levels first.
2. A unit goes to the unassigned person who is ready for it soonest (ties: better fit,
   deeper skills in the role's domains, then cheaper roadmap), if they are ready by its due
   month.
3. Otherwise a hire is opened ``hiring_lead_time_months`` before the month the unit is
   first needed (never before month 1, at most ``max_hires_per_month`` requisitions a
   month), so contractors bridge only until the hire arrives. If the hire
   cannot arrive by then and someone on staff can be ready before the hire would arrive,
   the person is upskilled instead.
4. Every month, slots not yet filled by ready staff are bridged by contractors (hours of
   one full-time person a month), up to ``contractors.max_share`` of the target.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from gputeam.catalog import Catalog
from gputeam.i18n import N_
from gputeam.planning.calendar import add_months, month_list_text
from gputeam.planning.explain import open_slots
from gputeam.planning.gaps import fit
from gputeam.planning.optimiser import optimise
from gputeam.planning.optimiser_model import peak_slots
from gputeam.planning.result import (
    Assignment,
    ContractorNeed,
    Hire,
    Roadmap,
    Sourcing,
    Target,
    TargetSlot,
)
from gputeam.planning.roadmap import build_roadmap, held_valid, hire_roadmaps, moving_roadmap
from gputeam.planning.text import Term, Text, concat, say
from gputeam.scenario import Scenario

Candidates = dict[tuple[str, str], Roadmap]


@dataclass(frozen=True)
class Unit:
    role: str
    level: int
    first_needed: int
    due: int
    slot: TargetSlot


def units(scenario: Scenario, target: Target) -> list[Unit]:
    deadline = scenario.deadline
    slots = peak_slots(target)
    out = []
    for role, slot in slots.items():
        for k in range(1, slot.count + 1):
            first = next(
                (tm.month for tm in target.months if any(s.role == role and s.count >= k for s in tm.slots)),
                None,
            )
            if first is None:
                continue
            out.append(Unit(role, slot.level_min, first, max(first, deadline), slot))
    out.sort(key=lambda u: (u.due, -u.level, u.role))
    return out


def candidates(
    scenario: Scenario, catalog: Catalog, target: Target, progress: Callable[[int, int], None] | None = None
) -> Candidates:
    """Roadmap of every current person towards every role in the target.

    ``progress(done, total)`` is called every 100 people (the front end draws a bar)."""
    mentor = any(p.level >= 4 for p in scenario.people)
    slots = peak_slots(target)
    out: Candidates = {}
    total = len(scenario.people)
    for i, p in enumerate(scenario.people, start=1):
        for role, slot in slots.items():
            out[(p.id, role)] = build_roadmap(p, slot, scenario, catalog, mentor_available=mentor)
        if progress is not None and (i % 100 == 0 or i == total):
            progress(i, total)
    return out


def roadmap_cost(r: Roadmap) -> float:
    return sum(i.cost for i in r.items if i.kind != "renewal")


def source(
    scenario: Scenario, catalog: Catalog, target: Target, cands: Candidates, method: str = "mip"
) -> Sourcing:
    """Decide upskilling, hires and contractors.

    ``method``: 'mip' (default), the exact optimiser of :mod:`gputeam.planning.optimiser`,
    with the greedy rule's cost priced beside it (``greedy_cost``); 'rule' (alias 'greedy'),
    the greedy baseline of this module.
    """
    if method in ("rule", "greedy"):
        return _rule(scenario, catalog, target, cands)
    if method == "mip":
        return optimise(scenario, catalog, target, cands, greedy=_rule(scenario, catalog, target, cands))
    raise ValueError(f"unknown sourcing method {method!r}: use 'mip', 'rule' or 'greedy'")


def _rule(scenario: Scenario, catalog: Catalog, target: Target, cands: Candidates) -> Sourcing:
    c = scenario.constraints
    lead = c.hiring_lead_time_months
    held = {p.id: set(held_valid(p, catalog, scenario.start)) for p in scenario.people}
    people = {p.id: p for p in scenario.people}
    free = [p.id for p in scenario.people]
    assignments: list[Assignment] = []
    hires: list[Hire] = []
    reqs_per_month: dict[int, int] = defaultdict(int)
    explanation: list[Text] = []
    # Each person's preference key per role does not change as units are taken: sort once.
    ranked: dict[str, list[tuple[int, float, int, float, str]]] = {}
    for role, slot in peak_slots(target).items():
        keys = []
        for pid in free:
            r = cands[(pid, role)]
            if r.ready_month is None:
                continue
            f = fit(people[pid], slot, held[pid]).score
            depth = sum(people[pid].skills.get(d, 0) for d in slot.domains)
            keys.append((r.ready_month, -f, -depth, roadmap_cost(r), pid))
        ranked[role] = sorted(keys)
    taken: set[str] = set()
    cursor: dict[str, int] = defaultdict(int)
    for u in units(scenario, target):
        options = ranked.get(u.role, [])
        i = cursor[u.role]
        while i < len(options) and options[i][4] in taken:
            i += 1
        cursor[u.role] = i
        best = options[i] if i < len(options) else None
        req = _requisition_month(u.first_needed, lead, reqs_per_month, c.max_hires_per_month)
        arrival = req + lead if req is not None else None
        if best and (best[0] <= u.due or arrival is None or best[0] < arrival):
            ready, negfit, _, _, pid = best
            taken.add(pid)
            why = say(
                N_(
                    "{name} can be ready as {role} by month {ready} (fit {fit:.2f}), after the due "
                    "month {due}, but before a hire could arrive"
                )
                if ready > u.due
                else N_("{name} can be ready as {role} by month {ready} (fit {fit:.2f})"),
                name=people[pid].name,
                role=Term(term=catalog.roles[u.role].name),
                ready=ready,
                fit=-negfit,
                due=u.due,
            )
            lvl = max(u.level, cands[(pid, u.role)].level_at_ready or 0)
            assignments.append(
                Assignment(
                    person=pid,
                    role=u.role,
                    level=u.level,
                    ready_month=ready,
                    reason_text=why,
                    promotion=lvl if lvl > people[pid].level else None,
                )
            )
            continue
        if req is None:
            req = 1
            arrival = 1 + lead
        reqs_per_month[req] += 1
        assert arrival is not None
        why = say(
            N_(
                "hire a Level-{level} {role}: nobody on staff can be ready by month {due} "
                "(earliest: month {earliest})"
            )
            if best
            else N_(
                "hire a Level-{level} {role}: nobody on staff can be ready by month {due} (no one "
                "left to upskill)"
            ),
            level=u.level,
            role=Term(term=catalog.roles[u.role].name),
            due=u.due,
            earliest=best[0] if best else 0,
        )
        if arrival > u.due:
            why = concat(
                why,
                say(
                    N_("; with a {lead}-month lead time the hire arrives in month {month}"),
                    lead=lead,
                    month=arrival,
                ),
            )
        hires.append(
            Hire(
                role=u.role,
                level=u.level,
                count=1,
                requisition_month=req,
                arrival_month=arrival,
                reason_text=why,
            )
        )
    hires = _merge_hires(hires)
    contractors, coverage, uncovered = _bridge(scenario, catalog, target, assignments, hires)
    for a in assignments:
        explanation.append(
            say(
                N_("upskill {name} to {role} (ready month {month})"),
                name=people[a.person].name,
                role=Term(term=catalog.roles[a.role].name),
                month=a.ready_month,
            )
        )
    for h in hires:
        explanation.append(
            say(
                N_(
                    "hire {count} x Level-{level} {role}: requisition month {requisition}, arrives month "
                    "{arrival}"
                ),
                count=h.count,
                level=h.level,
                role=Term(term=catalog.roles[h.role].name),
                requisition=h.requisition_month,
                arrival=h.arrival_month,
            )
        )
    if contractors:
        explanation.append(
            say(
                N_("contractors bridge {hours:,.0f} h in {months}"),
                hours=sum(n.hours for n in contractors),
                months=month_list_text(n.month for n in contractors),
            )
        )
    return Sourcing(
        method="rule",
        assignments=tuple(assignments),
        hires=tuple(hires),
        contractors=tuple(contractors),
        unassigned=tuple(p for p in free if p not in taken),
        uncovered_texts=tuple(uncovered),
        coverage_by_month=tuple(coverage),
        explanation_texts=tuple(explanation),
    )


def _requisition_month(due: int, lead: int, used: Mapping[int, int], cap: int) -> int | None:
    if cap <= 0:
        return None
    m = max(1, due - lead)
    while m >= 1:
        if used.get(m, 0) < cap:
            return m
        m -= 1
    m = max(1, due - lead) + 1
    while used.get(m, 0) >= cap:
        m += 1
    return m


def _merge_hires(hires: list[Hire]) -> list[Hire]:
    merged: dict[tuple[str, int, int], Hire] = {}
    for h in hires:
        key = (h.role, h.level, h.requisition_month)
        if key in merged:
            old = merged[key]
            merged[key] = old.model_copy(update={"count": old.count + h.count})
        else:
            merged[key] = h
    return sorted(merged.values(), key=lambda h: (h.requisition_month, -h.level, h.role))


def staffed_by_month(
    horizon: int, assignments: Sequence[Assignment], hires: Sequence[Hire]
) -> dict[str, list[int]]:
    """Per role, staff ready in each month 1..horizon (index 0 = month 1)."""
    starts: dict[str, list[int]] = defaultdict(lambda: [0] * (horizon + 2))
    for a in assignments:
        starts[a.role][min(max(a.ready_month, 1), horizon + 1)] += 1
    for h in hires:
        starts[h.role][min(max(h.arrival_month, 1), horizon + 1)] += h.count
    out = {}
    for role, arr in starts.items():
        run, series = 0, []
        for m in range(1, horizon + 1):
            run += arr[m]
            series.append(run)
        out[role] = series
    return out


def _bridge(
    scenario: Scenario, catalog: Catalog, target: Target, assignments: list[Assignment], hires: list[Hire]
) -> tuple[list[ContractorNeed], list[float], list[Text]]:
    c = scenario.constraints.contractors
    hours_month = catalog.economics.hours_per_fte_year / 12
    needs: list[ContractorNeed] = []
    coverage: list[float] = []
    uncovered: list[Text] = []
    staff = staffed_by_month(len(target.months), assignments, hires)
    for tm in target.months:
        total = tm.headcount
        covered = 0
        cap = int(c.max_share * total + 1e-9) if c.available else 0
        used = 0
        for slot in tm.slots:
            have = min(slot.count, staff[slot.role][tm.month - 1] if slot.role in staff else 0)
            covered += have
            short = slot.count - have
            take = min(short, cap - used)
            role_name = catalog.roles[slot.role].name if slot.role in catalog.roles else slot.role
            if take > 0:
                used += take
                needs.append(
                    ContractorNeed(
                        month=tm.month,
                        role=slot.role,
                        level=slot.level_min,
                        hours=take * hours_month,
                        reason_text=say(
                            N_("{slots} not yet staffed"), slots=open_slots(take, slot.count, role_name)
                        ),
                    )
                )
            if short - max(take, 0) > 0:
                uncovered.append(
                    say(
                        N_("month {month}: {slots} uncovered (contractor share cap reached)"),
                        month=tm.month,
                        slots=open_slots(short - max(take, 0), slot.count, role_name),
                    )
                    if c.available
                    else say(
                        N_("month {month}: {slots} uncovered (no contractors allowed)"),
                        month=tm.month,
                        slots=open_slots(short, slot.count, role_name),
                    )
                )
        coverage.append(covered / total if total else 1.0)
    return needs, coverage, uncovered


def plan_roadmaps(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    cands: Mapping[tuple[str, str], Roadmap],
    sourcing: Sourcing,
) -> tuple[Roadmap, ...]:
    """Every person's roadmap under ``sourcing`` (a delayed start rebuilt), then each planned
    hire's onboarding roadmap: the one home of it, for the plan and the readiness candidates."""
    assigned = {a.person: a.role for a in sourcing.assignments}
    slots = peak_slots(target)
    later = {a.person: a.then_role for a in sourcing.assignments if a.then_role in slots}
    delays = sourcing.details.start_delay_months
    mentor = any(p.level >= 4 for p in scenario.people)
    roadmaps: list[Roadmap] = []
    for p in scenario.people:
        if p.id in assigned and delays.get(p.id):
            # the optimiser starts this roadmap late to keep within the training capacity
            roadmaps.append(
                build_roadmap(
                    p,
                    slots[assigned[p.id]],
                    scenario,
                    catalog,
                    start=add_months(scenario.start, delays[p.id]),
                    mentor_available=mentor,
                )
            )
        elif p.id in later:  # a move: ready for the first seat, then the roadmap to the later
            roadmaps.append(
                moving_roadmap(p, slots[assigned[p.id]], slots[later[p.id]], scenario, catalog, mentor)
            )
        elif p.id in assigned:
            roadmaps.append(cands[(p.id, assigned[p.id])])
        else:
            roadmaps.append(build_roadmap(p, None, scenario, catalog))
    numbered: dict[str, int] = {}
    for hire in sourcing.hires:  # onboarding: the certifications a hire is not assumed to hold
        if hire.role not in slots:
            continue
        first = numbered.get(hire.role, 0) + 1
        numbered[hire.role] = first + hire.count - 1
        name = catalog.roles[hire.role].name if hire.role in catalog.roles else hire.role
        roadmaps += hire_roadmaps(
            hire.role,
            hire.level,
            hire.count,
            hire.arrival_month,
            slots[hire.role],
            scenario,
            catalog,
            first=first,
            role_name=name,
        )
    return tuple(roadmaps)
