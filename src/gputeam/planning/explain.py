"""Plain-words explanations of the optimiser's decisions, and the Sourcing they make.

Every decision gets a reason computed from the instance, never a template filled with
guesses: a hire says why nobody on staff could take the slot (nobody can qualify within the
horizon, and what the closest person still needs; nobody can be ready before the month it is
needed, and what the earliest person still needs; the people who could are needed
elsewhere; or upskilling them costs more); an upskilling says what it costs against a hire
for the same months; contractors say what they bridge and how each run of months ends.
Months read as words ('month 5', 'months 1-3 and 16-18'), part-covered slots as full-time
equivalents, and people by name.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from datetime import date

from gputeam.catalog import Catalog
from gputeam.catalog.models import PROFICIENCY_NAMES
from gputeam.i18n import N_, Nn_
from gputeam.planning.calendar import month_list_text, month_spans
from gputeam.planning.gaps import fit
from gputeam.planning.optimiser_model import Decisions, Instance, Option, evaluate, staff_by_month
from gputeam.planning.result import (
    Assignment,
    ContractorNeed,
    Hire,
    Placement,
    Sourcing,
    SourcingDetails,
    TargetSlot,
)
from gputeam.planning.roadmap import held_valid
from gputeam.planning.text import Money, Term, Text, concat, say, say_n
from gputeam.scenario import Person, Scenario

#: The proficiency names as they read in a sentence (translated where shown).
PROFICIENCY_WORDS = (N_("none"), N_("aware"), N_("working"), N_("proficient"), N_("expert"))
assert len(PROFICIENCY_WORDS) == len(PROFICIENCY_NAMES)


def _money(x: float, currency: str) -> Money:
    return Money(amount=x, currency=currency)


def _proficiency(prof: int) -> Term | str:
    return Term(term=PROFICIENCY_WORDS[prof]) if 0 <= prof < len(PROFICIENCY_WORDS) else str(prof)


def person_needs(person: Person, slot: TargetSlot, catalog: Catalog, on: date) -> list[Text | str]:
    """What ``person`` still lacks for ``slot``, in words: 'Level 4', 'proficient GPU
    architecture', 'NCP-AII' (empty when they already fit)."""
    f = fit(person, slot, set(held_valid(person, catalog, on)))
    out: list[Text | str] = [say(N_("Level {level}"), level=slot.level_min)] if f.level_gap else []
    for d in f.missing_domains:
        name = catalog.domains[d].name if d in catalog.domains else d
        out.append(
            say(
                N_("{proficiency} {domain}"),
                proficiency=_proficiency(slot.domains.get(d, 0)),
                domain=Term(term=name),
            )
        )
    for c in f.missing_certifications:
        out.append(catalog.certifications[c].name if c in catalog.certifications else c)
    return out


def _needs_text(needs: list[Text | str]) -> Text | tuple[Text | str, ...]:
    if len(needs) <= 3:
        return tuple(needs)
    return say(
        N_("{first}, {second}, {third} and {more} more"),
        first=needs[0],
        second=needs[1],
        third=needs[2],
        more=len(needs) - 3,
    )


def budget_room(inst: Instance, d: Decisions) -> float | None:
    """What the budget leaves unspent by ``d`` (undiscounted, as the budget row counts it),
    or None without a budget."""
    if inst.budget is None:
        return None
    return inst.budget - evaluate(inst, d, discounted=False)


def versus_greedy(
    cost: float, greedy_cost: float | None, greedy_open: float, plan_open: float, currency: str
) -> Text | None:
    """How the plan's cost compares with the greedy rule's, in words (never a negative 'less')."""
    if greedy_cost is None or greedy_cost <= 0:
        return None
    diff = greedy_cost - cost
    if abs(diff) < 0.5:
        return say(N_("the same cost as the greedy rule"))
    share = abs(diff) / greedy_cost
    if diff > 0:
        return say(
            N_("{cost} ({share:.1%}) less than the greedy rule"), cost=_money(diff, currency), share=share
        )
    if greedy_open > plan_open:
        return say_n(
            Nn_(
                "{cost} ({share:.1%}) more than the greedy rule: the greedy rule leaves "
                "{greedy_open:g} slot-month uncovered, this plan {plan_open:g}",
                "{cost} ({share:.1%}) more than the greedy rule: the greedy rule leaves "
                "{greedy_open:g} slot-months uncovered, this plan {plan_open:g}",
            ),
            "greedy_open",
            cost=_money(-diff, currency),
            share=share,
            greedy_open=greedy_open,
            plan_open=plan_open,
        )
    return say(
        N_("{cost} ({share:.1%}) more than the greedy rule"), cost=_money(-diff, currency), share=share
    )


def open_slots(fte: float, demand: int, role: str) -> Text:
    """'2 of 3 Operations Engineer slots', or for a part-covered month '1.5 full-time
    equivalents of the 3 Operations Engineer slots'."""
    if float(fte).is_integer():
        forms = Nn_("{fte:g} of {demand} {role} slot", "{fte:g} of {demand} {role} slots")
    else:
        forms = Nn_(
            "{fte:g} full-time equivalents of the {demand} {role} slot",
            "{fte:g} full-time equivalents of the {demand} {role} slots",
        )
    return say_n(forms, "demand", fte=fte, demand=demand, role=Term(term=role))


def first_need(inst: Instance, role: str, level: int = 0) -> int | None:
    return next((m for m in range(1, inst.horizon + 1) if inst.demand_at(role, m, level) > 0), None)


def build_sourcing(
    inst: Instance,
    d: Decisions,
    scenario: Scenario,
    catalog: Catalog,
    slots: Mapping[str, TargetSlot],
    *,
    status: str,
    total_cost: float,
    greedy_cost: float | None,
    mip_gap: float | None,
    seconds: float,
    details: SourcingDetails,
    preface: tuple[Text, ...] = (),
) -> Sourcing:
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
        hire_flat = (
            inst.hire_cost(o.role, level, req, req + inst.lead)[1]
            if (o.role, level) in inst.hire_salary
            else None
        )
        name = inst.names.get(o.person, o.person)
        role = inst.role_names.get(o.role, o.role)
        parts: list[Text | str] = [
            say(
                N_(
                    "upskill {name} to {role} (Level {level}), ready in month {ready}: training, "
                    "exams and raise {cost} over the horizon"
                ),
                name=name,
                role=Term(term=role),
                level=level,
                ready=o.ready,
                cost=_money(o.flat_cost, cur),
            )
        ]
        if hire_flat is not None:
            parts.append(
                say(
                    N_(", against {cost} for a Level-{level} hire from month {month}"),
                    cost=_money(hire_flat, cur),
                    level=level,
                    month=req + inst.lead,
                )
            )
        if o.delay:
            parts.append(
                say(N_("; starts in month {month} to keep within the training capacity"), month=o.delay + 1)
            )
        now = inst.person_level.get(o.person, o.level)
        promotion = o.level if o.level > now else None
        if promotion:
            parts.append(
                say(
                    N_(
                        "; promoted from Level {now} to Level {promotion} in month {month}, when "
                        "they meet its experience and certifications (the raise comes with it)"
                    ),
                    now=now,
                    promotion=promotion,
                    month=o.ready,
                )
            )
        if o.then_role is not None:
            parts.append(
                say(
                    N_("; moves to {role} (Level {level}) in month {month}, following its roadmap"),
                    role=Term(term=inst.role_names.get(o.then_role, o.then_role)),
                    level=inst.slot_level.get(o.then_role, o.then_level),
                    month=o.move,
                )
            )
        assignments.append(
            Assignment(
                person=o.person,
                role=o.role,
                level=level,
                ready_month=o.ready,
                reason_text=parts[0] if len(parts) == 1 else concat(*parts),
                promotion=promotion,
                then_role=o.then_role,
                then_level=None if o.then_role is None else inst.slot_level.get(o.then_role, o.then_level),
                move_month=o.move if o.then_role is not None else None,
            )
        )
    placements = seating(inst, d)

    hires = []
    people = {p.id: p for p in scenario.people}

    def needs_of(pid: str, role_id: str) -> list[Text | str]:
        if pid not in people or role_id not in slots:
            return []
        return person_needs(people[pid], slots[role_id], catalog, scenario.start)

    for role_id, level, req, count in sorted(d.hires, key=lambda h: (h[2], -h[1], h[0])):
        arrival = req + inst.lead
        role = inst.role_names.get(role_id, role_id)
        need = max(arrival, first_need(inst, role_id, level) or arrival)
        why = _hire_reason(inst, role_id, need, chosen, options_by_role, needs_of)
        reason = say_n(
            Nn_(
                "hire {count} Level-{level} {role} in month {month} (arriving in month {arrival}): {why}",
                "hire {count} Level-{level} {role}s in month {month} (arriving in month {arrival}): {why}",
            ),
            "count",
            count=count,
            level=level,
            role=Term(term=role),
            month=req,
            arrival=arrival,
            why=why,
        )
        hires.append(
            Hire(
                role=role_id,
                level=level,
                count=count,
                requisition_month=req,
                arrival_month=arrival,
                reason_text=reason,
            )
        )

    contractors = []
    hours = inst.hours_per_month
    by_role: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for (role_id, m), fte in sorted(d.contractors.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        by_role[role_id].append((m, fte))
        staffed = sum(v[m - 1] for (r, _), v in staff.items() if r == role_id)
        contractors.append(
            ContractorNeed(
                month=m,
                role=role_id,
                level=min(inst.levels(role_id), default=1),
                hours=fte * hours,
                reason_text=say(
                    N_("{slots} not yet staffed ({staffed} staff ready)"),
                    slots=open_slots(fte, inst.demand_at(role_id, m), inst.role_names.get(role_id, role_id)),
                    staffed=staffed,
                ),
            )
        )

    uncovered: list[Text] = []
    budget_left = budget_room(inst, d)
    for (role_id, m), fte in sorted(d.uncovered.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        slots_open = open_slots(fte, inst.demand_at(role_id, m), inst.role_names.get(role_id, role_id))
        if m < inst.deadline:
            cap = inst.contractor_cap[m - 1]
            hired = sum(f for (_, mm), f in d.contractors.items() if mm == m)
            what = (
                say(
                    N_(
                        "month {month}: {slots} open before the deadline: contractors could "
                        "fill it for {cost}, but the budget of {budget} has {left} left"
                    ),
                    month=m,
                    slots=slots_open,
                    cost=_money(fte * inst.contractor_fte_cost, cur),
                    budget=_money(inst.budget or 0.0, cur),
                    left=_money(max(budget_left or 0.0, 0.0), cur),
                )
                if budget_left is not None
                and cap - hired > 1e-6
                and budget_left < fte * inst.contractor_fte_cost - 0.5
                else say(
                    N_(
                        "month {month}: {slots} open before the deadline: nobody can be ready, no "
                        "hire can arrive yet and contractors are capped at {cap:g} FTE that month"
                    ),
                    month=m,
                    slots=slots_open,
                    cap=cap,
                )
                if cap
                else say(
                    N_(
                        "month {month}: {slots} open before the deadline: nobody can be ready, no "
                        "hire can arrive yet and contractors are not allowed"
                    ),
                    month=m,
                    slots=slots_open,
                )
            )
        else:
            what = say(
                N_(
                    "month {month}: {slots} open after the deadline: the constraints conflict "
                    "(see the explanation)"
                ),
                month=m,
                slots=slots_open,
            )
        uncovered.append(what)

    explanation: list[Text] = list(preface)
    explanation += [a.reason_text for a in assignments if a.reason_text is not None]
    explanation += [h.reason_text for h in hires if h.reason_text is not None]
    for role_id, months in by_role.items():
        total = sum(f for _, f in months)
        runs: list[tuple[list[int], Text]] = []  # spans that end the same way, together
        for a, b in month_spans(m for m, _ in months):
            until = _bridged_until(inst, staff, role_id, b)
            if runs and runs[-1][1] == until:
                runs[-1][0].extend(range(a, b + 1))
            else:
                runs.append((list(range(a, b + 1)), until))
        spans = tuple(
            say(N_("in {months} {until}"), months=month_list_text(ms), until=until) for ms, until in runs
        )
        name = inst.role_names.get(role_id, role_id)
        explanation.append(
            say_n(
                Nn_(
                    "contractors bridge {total:g} FTE-month ({hours:,.0f} h) of {role} {spans}",
                    "contractors bridge {total:g} FTE-months ({hours:,.0f} h) of {role} {spans}",
                ),
                "total",
                total=total,
                hours=total * hours,
                role=Term(term=name),
                spans=spans,
            )
        )
    explanation += uncovered
    takers: Counter[str] = Counter(c for o in d.options for c in o.courses)
    groups = {c: n for c, n in takers.items() if inst.group_min and n >= inst.group_min}
    for cid, n in sorted(groups.items()):
        name = catalog.courses[cid].name if cid in catalog.courses else cid
        explanation.append(
            say(
                N_(
                    "vendor group discount on {course}: {n} people take it together (>= {min}), saving "
                    "{saving}"
                ),
                course=name,
                n=n,
                min=inst.group_min,
                saving=_money(inst.group_discount * inst.course_price[cid] * n, cur),
            )
        )
    unassigned = tuple(p for p in inst.people if p not in chosen)
    explanation += _left_out(inst, d, unassigned, cur, people)

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
    return Sourcing(
        method="mip",
        assignments=tuple(assignments),
        hires=tuple(hires),
        contractors=tuple(contractors),
        unassigned=unassigned,
        placements=placements,
        uncovered_texts=tuple(uncovered),
        coverage_by_month=tuple(coverage),
        explanation_texts=tuple(explanation),
        total_cost=round(total_cost, 2),
        greedy_cost=None if greedy_cost is None else round(greedy_cost, 2),
        mip_gap=mip_gap,
        solve_seconds=round(seconds, 4),
        status=status,
        details=details,
    )


def bought(inst: Instance, d: Decisions, role: str, month: int) -> bool:
    """Whether any of ``role``'s seats in ``month`` is bought from outside: a contractor
    that month, or a hire on staff by then."""
    if d.contractors.get((role, month), 0.0) > 1e-6:
        return True
    return any(r == role and req + inst.lead <= month for r, _, req, n in d.hires if n > 0)


def qualified(inst: Instance, person: str, month: int) -> dict[str, Option]:
    """The roles ``person`` can be ready for by ``month`` (their earliest such roadmap each)."""
    out: dict[str, Option] = {}
    for o in inst.options:
        mine = o.person == person and o.delay == 0 and o.then_role is None and o.ready <= month
        if mine and (o.role not in out or o.ready < out[o.role].ready):
            out[o.role] = o
    return out


def seating(inst: Instance, d: Decisions) -> tuple[Placement, ...]:
    """Every seated person's seats by months, one sentence each: why this seat, for how
    long, and (a senior in a junior seat) that no seat at their level they qualify for is
    bought from outside meanwhile, or which one is and why moving them costs more."""
    out: list[Placement] = []
    for o in sorted(d.options, key=lambda o: (o.ready, o.role, o.person)):
        name = inst.names.get(o.person, o.person)
        now = inst.person_level.get(o.person, o.level)
        runs: list[tuple[str, int, int, int]] = []  # role, person level, first, last
        if o.ready <= inst.horizon:
            last = o.move - 1 if o.then_role is not None else inst.horizon
            runs.append((o.role, max(now, o.level), o.ready, min(last, inst.horizon)))
        if o.then_role is not None and o.move <= inst.horizon:
            runs.append((o.then_role, max(now, o.level, o.then_level), o.move, inst.horizon))
        for k, (role, plevel, a, b) in enumerate(runs):
            # the seat is held from the first month the role is needed
            a = next((m for m in range(a, b + 1) if inst.demand_at(role, m) > 0), b + 1)
            if b < a:
                continue
            seat = inst.slot_level.get(role, 1)
            head = say(
                N_("{name} (Level {plevel}) sits in the {role} seat (Level {level}) in {months}"),
                name=name,
                plevel=plevel,
                role=Term(term=inst.role_names.get(role, role)),
                level=seat,
                months=month_list_text(range(a, b + 1)),
            )
            parts: list[Text | str] = [head]
            if k == 0 and o.then_role is not None:
                later = Term(term=inst.role_names.get(o.then_role, o.then_role))
                falls = b + 1 <= inst.horizon and inst.demand_at(role, b + 1) < inst.demand_at(role, b)
                parts.append(
                    say(
                        N_(": the role needs fewer people from month {month}, when they move to {later}"),
                        month=b + 1,
                        later=later,
                    )
                    if falls
                    else say(
                        N_(
                            ": a seat they already fit while they train for {later}, which they take in "
                            "month {month}"
                        ),
                        later=later,
                        month=b + 1,
                    )
                )
            elif k == 1:
                parts.append(
                    say(
                        N_(": ready for it in month {month} on the roadmap for this seat"), month=o.then_ready
                    )
                )
            else:
                parts.append(say(N_(": ready for it in month {month}"), month=o.ready))
            if plevel > seat:
                parts.append(_senior_clause(inst, d, o.person, role, seat, plevel, a, b))
            out.append(
                Placement(
                    person=o.person,
                    role=role,
                    level=seat,
                    person_level=plevel,
                    from_month=a,
                    to_month=b,
                    reason_text=concat(*parts),
                )
            )
    return tuple(out)


def _senior_clause(
    inst: Instance, d: Decisions, person: str, role: str, seat: int, plevel: int, a: int, b: int
) -> Text:
    """Why a senior sits in a junior seat: no seat above it, at or below their level, that
    they qualify for is bought from outside in those months (or the first that is)."""
    for m in range(a, b + 1):
        for r in sorted(qualified(inst, person, m)):
            lv = inst.slot_level.get(r, 0)
            if r != role and seat < lv <= plevel and bought(inst, d, r, m):
                return say(
                    N_(
                        "; a seat as {other} (Level {level}) is bought from outside in month {month}: "
                        "moving them there costs more"
                    ),
                    other=Term(term=inst.role_names.get(r, r)),
                    level=lv,
                    month=m,
                )
    return say(N_("; no seat at their level that they qualify for is bought from outside then"))


def _bridged_until(
    inst: Instance, staff: Mapping[tuple[str, int], list[int]], role_id: str, last: int
) -> Text:
    """Why contractors stop after ``last``: staff cover the role, it is no longer needed, or
    the horizon ends."""

    def staffed(m: int) -> int:
        return sum(v[m - 1] for (r, _), v in staff.items() if r == role_id)

    after = range(last + 1, inst.horizon + 1)
    ready = next((m for m in after if staffed(m) >= inst.demand_at(role_id, m) > 0), None)
    unneeded = next((m for m in after if inst.demand_at(role_id, m) == 0), None)
    if ready is not None and (unneeded is None or ready < unneeded):
        return say(N_("until staff cover it in month {month}"), month=ready)
    if unneeded is not None:
        return say(N_("until the role is no longer needed in month {month}"), month=unneeded)
    if last == inst.horizon:
        return say(N_("to the end of the horizon"))
    return say(N_("(no staff planned)"))


def _left_out(
    inst: Instance, d: Decisions, unassigned: tuple[str, ...], cur: str, people: Mapping[str, Person]
) -> list[Text]:
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
            if opts:
                why = N_(
                    "{name} keeps their current duties: the target does not need them in a role they "
                    "can reach"
                )
            elif pid in people and people[pid].weekly_study_hours <= 0:
                why = N_(
                    "{name} keeps their current duties: with no weekly study hours they cannot "
                    "train for a target role"
                )
            else:
                why = N_("{name} keeps their current duties: no target role is reachable within the horizon")
            out.append(say(why, name=name))
            continue
        o = min(hired, key=lambda o: (o.ready, o.flat_cost))
        role = inst.role_names.get(o.role, o.role)
        need = first_need(inst, o.role) or 1
        if o.ready > max(arrival[o.role], need):
            out.append(
                say(
                    N_(
                        "{name} keeps their current duties although the plan hires a {role}: they "
                        "could be ready only in month {ready}, and the {role} hire arrives in month "
                        "{arrival} for a slot needed from month {need}; contractors until month "
                        "{ready} would cost more than the hire"
                    ),
                    name=name,
                    role=Term(term=role),
                    ready=o.ready,
                    arrival=arrival[o.role],
                    need=need,
                )
            )
        else:
            out.append(
                say(
                    N_(
                        "{name} keeps their current duties although the plan hires a {role}: "
                        "upskilling them (ready in month {ready}, {cost} in training, exams and "
                        "raise) costs more over the horizon than the hire, or the training, mentor "
                        "or level limits leave no room"
                    ),
                    name=name,
                    role=Term(term=role),
                    ready=o.ready,
                    cost=_money(o.flat_cost, cur),
                )
            )
    return out


def _hire_reason(
    inst: Instance,
    role_id: str,
    need: int,
    chosen: Mapping[str, Option],
    options_by_role: Mapping[str, list[Option]],
    needs_of: Callable[[str, str], list[Text | str]],
) -> Text:
    opts = options_by_role.get(role_id, [])
    deadline = inst.deadline
    if not inst.people:
        return say(N_("there is nobody on staff to upskill"))
    if not opts:
        closest = [(len(n), pid, n) for pid in inst.people if (n := needs_of(pid, role_id))]
        if closest:
            _, pid, needs = min(closest, key=lambda c: (c[0], c[1]))
            return say(
                N_(
                    "nobody on staff can qualify for the role within the {horizon}-month horizon "
                    "(closest: {name}, who needs {needs})"
                ),
                horizon=inst.horizon,
                name=inst.names.get(pid, pid),
                needs=_needs_text(needs),
            )
        return say(
            N_("nobody on staff can qualify for the role within the {horizon}-month horizon"),
            horizon=inst.horizon,
        )
    best = min(opts, key=lambda o: (o.ready, o.flat_cost))
    name = inst.names.get(best.person, best.person)
    if best.ready > need:
        when = (
            say(N_("the deadline in month {month}"), month=deadline)
            if need == deadline
            else say(N_("month {month}, when it is needed"), month=need)
        )
        needs = needs_of(best.person, role_id)
        if needs:
            return say(
                N_(
                    "nobody on staff can be ready before {when} (earliest: {name}, month {ready}, who "
                    "needs {needs})"
                ),
                when=when,
                name=name,
                ready=best.ready,
                needs=_needs_text(needs),
            )
        return say(
            N_("nobody on staff can be ready before {when} (earliest: {name}, month {ready})"),
            when=when,
            name=name,
            ready=best.ready,
        )
    in_time = [o for o in opts if o.ready <= need]
    same = {o.person for o in in_time if o.person in chosen and chosen[o.person].role == role_id}
    other = {o.person for o in in_time if o.person in chosen and chosen[o.person].role != role_id}
    free = [o for o in in_time if o.person not in chosen]
    if not free:
        roles = tuple(sorted({inst.role_names.get(chosen[p].role, chosen[p].role) for p in other}))
        if same and other:
            return say(
                N_(
                    "everyone on staff who could be ready by month {month} is taken ({same} already "
                    "planned for this role; {other} needed as {roles})"
                ),
                month=need,
                same=len(same),
                other=len(other),
                roles=tuple(Term(term=r) for r in roles),
            )
        if other:
            return say(
                N_(
                    "everyone on staff who could be ready by month {month} is taken ({other} needed as "
                    "{roles})"
                ),
                month=need,
                other=len(other),
                roles=tuple(Term(term=r) for r in roles),
            )
        return say(
            N_(
                "everyone on staff who could be ready by month {month} is taken ({same} already "
                "planned for this role)"
            ),
            month=need,
            same=len(same),
        )
    alt = min(free, key=lambda o: o.flat_cost)
    return say(
        N_(
            "cheaper over the horizon than upskilling {name} (ready in month {ready}, {cost:,.0f} in "
            "training, exams and raise) and bridging until then"
        ),
        name=inst.names.get(alt.person, alt.person),
        ready=alt.ready,
        cost=alt.flat_cost,
    )


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
