"""Plain-words explanations of the optimiser's decisions, and the Sourcing they make.

Every decision gets a reason computed from the instance, never a template filled with
guesses: a hire says why nobody on staff could take the slot (no one can reach the skill
within the horizon, no one can be ready before the month it is needed, the people who could
are needed elsewhere, or upskilling them costs more); an upskilling says what it costs
against a hire for the same months; contractors say what they bridge and until when.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping

from gputeam.catalog import Catalog
from gputeam.catalog.models import PROFICIENCY_NAMES
from gputeam.planning.gaps import fit
from gputeam.planning.optimiser_model import Decisions, Instance, Option, evaluate, staff_by_month
from gputeam.planning.result import (
    Assignment,
    ContractorNeed,
    Hire,
    Sourcing,
    SourcingDetails,
    TargetSlot,
)
from gputeam.planning.roadmap import held_valid
from gputeam.scenario import Scenario


def _money(x: float, currency: str) -> str:
    return f"{currency} {x:,.0f}"


def _plural(n: int | float, word: str) -> str:
    return word if n == 1 else (word[:-1] + "ies" if word.endswith("y") else word + "s")


def missing_skill(scenario: Scenario, catalog: Catalog, slot: TargetSlot) -> str | None:
    """The skill most of the staff lack for ``slot``, e.g. 'proficient InfiniBand / RDMA'."""
    counts: Counter[tuple[str, int]] = Counter()
    for p in scenario.people:
        f = fit(p, slot, set(held_valid(p, catalog, scenario.start)))
        for d, _ in f.missing_domains.items():
            counts[(d, slot.domains.get(d, 0))] += 1
    if not counts:
        return None
    (domain, prof), _ = counts.most_common(1)[0]
    name = catalog.domains[domain].name if domain in catalog.domains else domain
    return f"{PROFICIENCY_NAMES[prof] if 0 <= prof < len(PROFICIENCY_NAMES) else prof} {name}"


def first_need(inst: Instance, role: str, level: int = 0) -> int | None:
    return next((m for m in range(1, inst.horizon + 1) if inst.demand_at(role, m, level) > 0), None)


def build_sourcing(inst: Instance, d: Decisions, scenario: Scenario, catalog: Catalog,
                   slots: Mapping[str, TargetSlot], *, status: str, total_cost: float,
                   greedy_cost: float | None, mip_gap: float | None, seconds: float,
                   details: SourcingDetails, preface: tuple[str, ...] = ()) -> Sourcing:
    cur = scenario.currency
    delays = {o.person: o.delay for o in d.options if o.delay}
    if delays:  # the pipeline rebuilds these roadmaps from the later start
        details = details.model_copy(update={"start_delay_months": delays})
    staff = staff_by_month(inst, d)
    chosen = {o.person: o for o in d.options}
    options_by_role: dict[str, list[Option]] = defaultdict(list)
    for o in inst.options:
        if o.delay == 0:
            options_by_role[o.role].append(o)

    assignments = []
    for o in sorted(d.options, key=lambda o: (o.ready, o.role, o.person)):
        level = inst.slot_level.get(o.role, o.level)
        req = max(1, o.ready - inst.lead)
        hire_flat = inst.hire_cost(o.role, level, req, req + inst.lead)[1] \
            if (o.role, level) in inst.hire_salary else None
        name = inst.names.get(o.person, o.person)
        role = inst.role_names.get(o.role, o.role)
        why = (f"upskill {name} to {role} (Level {level}), ready in month {o.ready}: "
               f"training, exams and raise {_money(o.flat_cost, cur)} over the horizon")
        if hire_flat is not None:
            why += f", against {_money(hire_flat, cur)} for a Level-{level} hire from month {req + inst.lead}"
        if o.delay:
            why += f"; starts in month {o.delay + 1} to keep within the training capacity"
        now = inst.person_level.get(o.person, o.level)
        promotion = o.level if o.level > now else None
        if promotion:
            why += (f"; promoted from Level {now} to Level {promotion} in month {o.ready}, when they "
                    f"meet its experience and certifications (the raise comes with it)")
        assignments.append(Assignment(person=o.person, role=o.role, level=level,
                                      ready_month=o.ready, reason=why, promotion=promotion))

    hires = []
    skills: dict[str, str | None] = {}
    for role_id, level, req, count in sorted(d.hires, key=lambda h: (h[2], -h[1], h[0])):
        arrival = req + inst.lead
        role = inst.role_names.get(role_id, role_id)
        need = max(arrival, first_need(inst, role_id, level) or arrival)
        head = (f"hire {count} Level-{level} {role if count == 1 else role + 's'} in month {req} "
                f"(arriving in month {arrival})")
        if role_id not in skills:
            skills[role_id] = missing_skill(scenario, catalog, slots[role_id]) if role_id in slots else None
        why = _hire_reason(inst, skills[role_id], role_id, need, chosen, options_by_role)
        hires.append(Hire(role=role_id, level=level, count=count, requisition_month=req,
                          arrival_month=arrival, reason=f"{head}: {why}"))

    contractors = []
    hours = inst.hours_per_month
    by_role: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for (role_id, m), fte in sorted(d.contractors.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        by_role[role_id].append((m, fte))
        staffed = sum(v[m - 1] for (r, _), v in staff.items() if r == role_id)
        contractors.append(ContractorNeed(
            month=m, role=role_id, level=min(inst.levels(role_id), default=1), hours=fte * hours,
            reason=f"{fte:g} of {inst.demand_at(role_id, m)} {inst.role_names.get(role_id, role_id)} "
                   f"slot(s) not yet staffed ({staffed} staff ready)"))

    uncovered = []
    for (role_id, m), fte in sorted(d.uncovered.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        what = f"month {m}: {fte:g} {inst.role_names.get(role_id, role_id)} slot(s) open"
        if m < inst.deadline:
            what += (" before the deadline: nobody can be ready, no hire can arrive yet and contractors "
                     f"are {'capped' if inst.contractor_cap[m - 1] else 'not allowed'}")
        else:
            what += " after the deadline: the constraints conflict (see the explanation)"
        uncovered.append(what)

    explanation = list(preface)
    explanation += [a.reason for a in assignments]
    explanation += [h.reason for h in hires]
    for role_id, months in by_role.items():
        first, last = months[0][0], months[-1][0]
        total = sum(f for _, f in months)
        ready = next((m for m in range(1, inst.horizon + 1)
                      if sum(v[m - 1] for (r, _), v in staff.items() if r == role_id)
                      >= inst.demand_at(role_id, m) > 0), None)
        until = f" until staff cover it in month {ready}" if ready else " (no staff planned)"
        name = inst.role_names.get(role_id, role_id)
        explanation.append(f"contractors bridge {total:g} FTE-months of {name} "
                           f"in months {first}-{last} ({total * hours:,.0f} h){until}")
    explanation += uncovered
    takers: Counter[str] = Counter(c for o in d.options for c in o.courses)
    groups = {c: n for c, n in takers.items() if inst.group_min and n >= inst.group_min}
    for cid, n in sorted(groups.items()):
        name = catalog.courses[cid].name if cid in catalog.courses else cid
        explanation.append(f"vendor group discount on {name}: {n} people take it together "
                           f"(>= {inst.group_min}), saving "
                           f"{_money(inst.group_discount * inst.course_price[cid] * n, cur)}")
    unassigned = tuple(p for p in inst.people if p not in chosen)
    explanation += _left_out(inst, d, unassigned, cur)

    coverage = []
    for m in range(1, inst.horizon + 1):
        total = inst.total_demand(m)
        if total == 0:
            coverage.append(1.0)
            continue
        covered = 0
        for role_id in inst.roles:
            have = sum(v[m - 1] for (r, _), v in staff.items() if r == role_id)
            covered += min(have, inst.demand_at(role_id, m))
        coverage.append(covered / total)
    return Sourcing(method="mip", assignments=tuple(assignments), hires=tuple(hires),
                    contractors=tuple(contractors), unassigned=unassigned,
                    uncovered=tuple(uncovered), coverage_by_month=tuple(coverage),
                    explanation=tuple(explanation), total_cost=round(total_cost, 2),
                    greedy_cost=None if greedy_cost is None else round(greedy_cost, 2),
                    mip_gap=mip_gap, solve_seconds=round(seconds, 4), status=status,
                    details=details)


def _left_out(inst: Instance, d: Decisions, unassigned: tuple[str, ...], cur: str) -> list[str]:
    """Why each person without a target role is left out, naming the hire that takes a role
    they could reach when there is one."""
    arrival: dict[str, int] = {}
    for role_id, _, req, _ in d.hires:
        arrival[role_id] = min(arrival.get(role_id, req + inst.lead), req + inst.lead)
    by_person: dict[str, list[Option]] = defaultdict(list)
    for o in inst.options:
        if o.delay == 0:
            by_person[o.person].append(o)
    out = []
    for pid in unassigned:
        name = inst.names.get(pid, pid)
        opts = by_person.get(pid, [])
        hired = [o for o in opts if o.role in arrival]
        if not hired:
            out.append(f"{name} keeps their current duties: " + (
                "the target does not need them in a role they can reach" if opts
                else "no target role is reachable within the horizon"))
            continue
        o = min(hired, key=lambda o: (o.ready, o.flat_cost))
        role = inst.role_names.get(o.role, o.role)
        need = first_need(inst, o.role) or 1
        if o.ready > max(arrival[o.role], need):
            why = (f"they could be ready only in month {o.ready}, and the {role} hire arrives in "
                   f"month {arrival[o.role]} for a slot needed from month {need}; contractors "
                   f"until month {o.ready} would cost more than the hire")
        else:
            why = (f"upskilling them (ready in month {o.ready}, {_money(o.flat_cost, cur)} in "
                   f"training, exams and raise) costs more over the horizon than the hire, or "
                   f"the training, mentor or level limits leave no room")
        out.append(f"{name} keeps their current duties although the plan hires a {role}: {why}")
    return out


def _hire_reason(inst: Instance, skill: str | None, role_id: str, need: int,
                 chosen: Mapping[str, Option], options_by_role: Mapping[str, list[Option]]) -> str:
    opts = options_by_role.get(role_id, [])
    deadline = inst.deadline
    if not inst.people:
        return "there is nobody on staff to upskill"
    if not opts:
        what = f"reach {skill}" if skill else "qualify for the role"
        return f"nobody on staff can {what} within the {inst.horizon}-month horizon"
    best = min(opts, key=lambda o: (o.ready, o.flat_cost))
    name = inst.names.get(best.person, best.person)
    if best.ready > need:
        what = f"reach {skill}" if skill else "be ready"
        when = f"the deadline in month {deadline}" if need == deadline else f"month {need}, when it is needed"
        return f"nobody on staff can {what} before {when} (earliest: {name}, month {best.ready})"
    in_time = [o for o in opts if o.ready <= need]
    same = {o.person for o in in_time if o.person in chosen and chosen[o.person].role == role_id}
    other = {o.person for o in in_time if o.person in chosen and chosen[o.person].role != role_id}
    free = [o for o in in_time if o.person not in chosen]
    if not free:
        parts = []
        if same:
            parts.append(f"{len(same)} already planned for this role")
        if other:
            roles = sorted({inst.role_names.get(chosen[p].role, chosen[p].role) for p in other})
            parts.append(f"{len(other)} needed as " + ", ".join(roles))
        return (f"everyone on staff who could be ready by month {need} is taken ("
                + "; ".join(parts) + ")")
    alt = min(free, key=lambda o: o.flat_cost)
    return (f"cheaper over the horizon than upskilling {inst.names.get(alt.person, alt.person)} "
            f"(ready in month {alt.ready}, {alt.flat_cost:,.0f} in training, exams and raise) and "
            f"bridging until then")


def greedy_evaluation(inst: Instance, greedy: Sourcing) -> tuple[float, float]:
    """(cost, open slot-months) of the greedy rule's decisions under the optimiser's costs."""
    from gputeam.planning.optimiser_model import decisions_of

    d = decisions_of(inst, greedy)
    open_months = 0.0
    staff = staff_by_month(inst, d)
    for m in range(1, inst.horizon + 1):
        for role_id in inst.roles:
            have = sum(v[m - 1] for (r, _), v in staff.items() if r == role_id)
            bridged = d.contractors.get((role_id, m), 0.0)
            open_months += max(0.0, inst.demand_at(role_id, m) - have - bridged)
    return evaluate(inst, d), open_months
