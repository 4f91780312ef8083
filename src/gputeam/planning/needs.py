"""Needs: every coverage need of the fleet is planned, not only listed (issue 18).

Sizing lists coverage needs beside the slots (``TargetMonth.coverage``: liquid cooling two
people per site, one cloud-proficient person, Kubernetes staff, one network-proficient
person per site, a second vendor's stack, rack-scale skills). Each need, at its peak over
the horizon (the highest proficiency and the most people any month asks for), is met by, in
this order:

1. people who hold it now (their skills at the need's proficiency);
2. people whose target role needs it at that proficiency (their roadmap gets them there)
   and hires whose slot needs it (a hire brings the slot's skills);
3. training: current people with study time (those with a target role first, then the
   highest current proficiency in the domain, then the highest level), then the planned
   hires (at the default study hours), get the catalog's courses for the domain and
   practice on the job (:func:`gputeam.planning.roadmap.extend_roadmap`), after their
   other study; counted only if it ends within the horizon.

People still missing are named in a warning with the need, its rule and, when the plan
simulates risk, the key-person risk: the chance that nobody holds the domain at some month
from the deadline on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gputeam.catalog import Catalog
from gputeam.i18n import N_, Nn_
from gputeam.planning.calendar import add_months, month_of
from gputeam.planning.optimiser_model import peak_slots
from gputeam.planning.result import DomainCover, NeedCover, Risk, Roadmap, Sourcing, Target, Warning
from gputeam.planning.roadmap import extend_roadmap
from gputeam.planning.text import Term, say, say_n
from gputeam.scenario import Person, Scenario


def peak_needs(target: Target) -> tuple[DomainCover, ...]:
    """Each domain's coverage need at its peak over the horizon (first-seen order)."""
    out: dict[str, DomainCover] = {}
    for tm in target.months:
        for c in tm.coverage:
            had = out.get(c.domain)
            if had is None:
                out[c.domain] = c
            elif c.people > had.people or c.proficiency > had.proficiency:
                out[c.domain] = had.model_copy(
                    update={
                        "people": max(c.people, had.people),
                        "proficiency": max(c.proficiency, had.proficiency),
                    }
                )
    return tuple(out.values())


def plan_needs(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    sourcing: Sourcing,
    roadmaps: Sequence[Roadmap],
    mentor_available: bool = False,
) -> tuple[tuple[Roadmap, ...], tuple[NeedCover, ...]]:
    """The roadmaps with the training coverage needs ask for, and how each need is met."""
    needs = peak_needs(target)
    if not needs:
        return tuple(roadmaps), ()
    slots = peak_slots(target)
    role = {a.person: a.role for a in sourcing.assignments}
    by_id = {r.person: r for r in roadmaps}
    horizon_end = add_months(scenario.start, scenario.horizon_months)
    # what each current person holds at the end of their roadmap (their role's needs met)
    skills: dict[str, dict[str, int]] = {}
    for p in scenario.people:
        have = dict(p.skills)
        slot = slots.get(role.get(p.id, ""))
        if slot is not None and by_id.get(p.id) is not None and by_id[p.id].ready is not None:
            for d, v in slot.domains.items():
                have[d] = max(have.get(d, 0), v)
        skills[p.id] = have
    people = {p.id: p for p in scenario.people}
    for r in roadmaps:  # a hire brings the slot's skills (hire_roadmaps)
        hslot = slots.get(r.role or "") if r.hire else None
        if hslot is None:
            continue
        skills[r.person] = dict(hslot.domains)
        people[r.person] = Person(
            id=r.person,
            name=r.name,
            background="gpu-engineer",
            level=r.level_at_ready or hslot.level_min,
            skills=skills[r.person],
            role=r.role,
        )
    hired = {r.person for r in roadmaps if r.hire}
    # the plan month from which each holds what they hold now or reach on their roadmap
    when = {pid: (by_id[pid].ready_month or 1) if pid in by_id else 1 for pid in people}

    def rank(p: Person) -> tuple[bool, bool, int, int, str]:
        return (p.id in hired, p.id not in role, -skills[p.id].get(d, 0), -p.level, p.id)

    out: list[NeedCover] = []
    for need in needs:
        d, prof = need.domain, need.proficiency
        holders = [pid for pid in people if skills[pid].get(d, 0) >= prof]
        month = {pid: 1 if people[pid].skills.get(d, 0) >= prof else when[pid] for pid in holders}
        trained: list[str] = []
        order = sorted(
            (p for p in people.values() if p.id not in holders and p.weekly_study_hours > 0), key=rank
        )
        for p in order:
            if len(holders) >= need.people:
                break
            rm = by_id.get(p.id)
            if rm is None:
                continue
            ext = extend_roadmap(rm, p, skills[p.id], {d: prof}, scenario, catalog, mentor_available)
            before = {id(i) for i in rm.items}
            ends = [i.end for i in ext.items if id(i) not in before]
            if ext is rm or not ends or max(ends) > horizon_end:
                continue  # cannot reach it within the horizon
            by_id[p.id] = ext
            skills[p.id][d] = prof
            holders.append(p.id)
            trained.append(p.id)
            month[p.id] = month_of(scenario.start, max(ends))
        out.append(
            NeedCover(
                domain=d,
                proficiency=prof,
                people=need.people,
                holders=tuple(holders),
                trained=tuple(trained),
                missing=max(0, need.people - len(holders)),
                from_month=sorted(month.values())[need.people - 1] if len(holders) >= need.people else None,
                rule=need.rule,
                rule_text=need.rule_text,
            )
        )
    return tuple(by_id.get(r.person, r) for r in roadmaps), tuple(out)


def need_warnings(
    catalog: Catalog, needs: Sequence[NeedCover], risk: Risk | None, deadline: int
) -> Iterator[Warning]:
    """One warning per need people are still missing for, with its key-person risk, and
    per need met only after the deadline."""
    zero = {b.domain: b.p_zero for b in risk.bus_factors} if risk is not None else {}
    for n in needs:
        name = Term(term=catalog.domains[n.domain].name if n.domain in catalog.domains else n.domain)
        rule = n.rule_text if n.rule_text is not None else n.rule
        if n.missing <= 0:
            if n.from_month is not None and n.from_month > deadline:
                yield Warning(
                    code="need-covered-late",
                    text=say(
                        N_(
                            "{domain} at proficiency {proficiency}: the {people} people it "
                            "needs ({rule}) hold it only from month {month}, after the "
                            "deadline (month {deadline}): hire, contract or train sooner"
                        ),
                        domain=name,
                        proficiency=n.proficiency,
                        people=n.people,
                        rule=rule,
                        month=n.from_month,
                        deadline=deadline,
                    ),
                )
            continue
        if n.domain in zero:
            text = say_n(
                Nn_(
                    "uncovered need: {domain} at proficiency {proficiency} needs {people} "
                    "people ({rule}); the plan has {holders}, {missing} is missing: hire, "
                    "contract or train for it; key-person risk: {p_zero:.0%} chance that "
                    "nobody holds it at some month from the deadline on",
                    "uncovered need: {domain} at proficiency {proficiency} needs {people} "
                    "people ({rule}); the plan has {holders}, {missing} are missing: hire, "
                    "contract or train for them; key-person risk: {p_zero:.0%} chance that "
                    "nobody holds it at some month from the deadline on",
                ),
                "missing",
                domain=name,
                proficiency=n.proficiency,
                people=n.people,
                rule=rule,
                holders=len(n.holders),
                missing=n.missing,
                p_zero=zero[n.domain],
            )
        else:
            text = say_n(
                Nn_(
                    "uncovered need: {domain} at proficiency {proficiency} needs {people} "
                    "people ({rule}); the plan has {holders}, {missing} is missing: hire, "
                    "contract or train for it",
                    "uncovered need: {domain} at proficiency {proficiency} needs {people} "
                    "people ({rule}); the plan has {holders}, {missing} are missing: hire, "
                    "contract or train for them",
                ),
                "missing",
                domain=name,
                proficiency=n.proficiency,
                people=n.people,
                rule=rule,
                holders=len(n.holders),
                missing=n.missing,
            )
        yield Warning(code="uncovered-need", text=text)
