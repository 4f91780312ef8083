"""Roadmaps: per person, the courses, bootcamps, exams, practice and renewals that take
them to an assigned role, in calendar dates.

Rules, in order:

1. Certifications needed: the slot's required certifications (the first of each "any one
   of" group the person lacks), those of the slot's level for the fleet's GPU vendor
   (:func:`gputeam.planning.hardware.level_certifications`; NVIDIA: Level 2 NCA-AIIO,
   Level 3 an NVIDIA Professional, Level 4 NCP-AII or NCP-AIO, article §3; AMD: the ROCm
   Associate, Professional, Expert; Intel: none), and, recursively, their
   prerequisites (NCP-AII needs NCA-AIIO, article §4). For a person whose level already
   fits the slot they are goals, not gates: the skills come first, the person is ready
   when they have them, and the certifications follow on the same roadmap.
2. Courses: a training path's courses come before its exam (Foundation before NCA-AIIO,
   Professional before NCP-AII, article §4); then any catalog course that raises a domain
   the role still lacks.
3. Two or more courses of one path beyond the Foundation are taken as a bootcamp (2-4 weeks full time,
   $15-25k, article §6) when the scenario allows bootcamps.
4. Skill a course or exam does not give is practice on the job: for a background with a
   known transition (network engineer to InfiniBand, storage admin to GPUDirect Storage:
   6-12 months, article §2) that many months; a domain with a known transition from
   another background takes at least its upper end (a storage administrator is not an
   InfiniBand specialist sooner than a network engineer); otherwise ``practice_hours_per_step`` per
   proficiency step at the person's study rate, or a 3-6-month apprenticeship with a
   senior when allowed and a Level-4+ mentor exists.
   Courses and exams alone raise such a transition domain at most to "working"
   (:data:`STUDY_CAP`): 40 hours for an exam do not replace the months on the job.
5. Study items run back to back at the person's weekly study hours; an exam waits for its
   courses, its prerequisites and its minimum experience, times the scenario's
   ``constraints.prerequisite_strictness`` (1: all of it; 0: the vendor only recommends it),
   and for the day a not-yet-open programme opens (``available_from``). Experience, for an
   exam and for a level, accrues only in months the organisation runs GPUs (or has
   hands-on access to them, :mod:`gputeam.planning.hardware` rule 4).
   A slot below its role's own level (vendor-supported lean staffing) keeps the role level's
   certifications as goals after readiness, when their exams fall within the horizon.
6. Every certification held or earned is renewed one month before it expires, if that
   falls inside the horizon.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from gputeam.catalog import Catalog, certificate_expiry
from gputeam.catalog.models import Course
from gputeam.i18n import N_, Nn_
from gputeam.planning.calendar import add_months, month_of, weeks
from gputeam.planning.hardware import (
    EXPERIENCE_LOOKAHEAD,
    Experience,
    LevelCertifications,
    level_certifications,
)
from gputeam.planning.result import ItemKind, Roadmap, RoadmapItem, TargetSlot
from gputeam.planning.text import Day, Term, Text, say, say_n
from gputeam.scenario import Person, Scenario
from gputeam.scenario.models import HeldCertification

_ALL_FIELDS = set(RoadmapItem.model_fields)
#: What pydantic itself stores as a validated item's private state: ``None`` in some
#: releases, ``{}`` in others (2.13); equality compares it, so copy the installed one's.
_PRIVATE = RoadmapItem(
    kind="course", ref="", name="", start=date.min, end=date.min, hours=0, cost=0
).__pydantic_private__
#: Highest proficiency courses and exams alone give in a domain with a known transition
#: time (article §2): "working"; "proficient" and above take the months on the job.
STUDY_CAP = 2


def _item(**values: Any) -> RoadmapItem:
    """A RoadmapItem without re-validation: every value here comes from typed catalog and
    scenario models (tests check that validating the same values gives the same item).
    Roadmaps are built for every person x role, so this is the planner's hot path."""
    if "strategy" not in values:
        values["strategy"] = None
    if "goal" not in values:
        values["goal"] = False
    for key in ("name", "note"):  # a Text: kept beside its English sentence
        value = values.get(key, "")
        values[key], values[f"{key}_text"] = (
            (value.english(), value) if isinstance(value, Text) else (value, None)
        )
    item = RoadmapItem.__new__(RoadmapItem)
    object.__setattr__(item, "__dict__", values)
    object.__setattr__(item, "__pydantic_fields_set__", _ALL_FIELDS)  # frozen: never mutated
    object.__setattr__(item, "__pydantic_extra__", None)
    object.__setattr__(item, "__pydantic_private__", None if _PRIVATE is None else {})
    return item


@dataclass
class _State:
    """What the person has at the cursor date while their roadmap is built."""

    skills: dict[str, int]
    certs: dict[str, date]  # id -> date earned
    cursor: date
    items: list[RoadmapItem] = field(default_factory=list)
    capped: frozenset[str] = frozenset()  # transition domains: study gives at most STUDY_CAP
    levels: LevelCertifications | None = None  # the fleet's vendor's level certifications
    experience: Experience | None = None  # the months that add experience (GPUs run)
    plan_start: date | None = None


def held_valid(person: Person, catalog: Catalog, on: date) -> dict[str, date]:
    """Certifications the person holds that are still valid on ``on``."""
    out = {}
    for held in person.certifications:
        expires = certificate_expiry(catalog, held.id, held.earned, held.expires)
        if expires is None or expires > on:
            out[held.id] = held.earned
    return out


def certs_needed(
    slot: TargetSlot,
    have: Iterable[str],
    catalog: Catalog,
    prefer_network: bool = False,
    levels: LevelCertifications | None = None,
) -> list[str]:
    """Certifications to earn, prerequisites first (``levels``: the fleet's vendor's level
    certifications, :func:`gputeam.planning.hardware.level_certifications`; NVIDIA's when
    not given)."""
    have = set(have)
    levels = levels or level_certifications(catalog)
    wanted: list[str] = []
    for group in slot.certifications:
        if not any(c in have for c in group):
            wanted.append(group[0])
    for lvl in range(2, slot.level_min + 1):
        options = levels.at(lvl)
        if options and not any(c in have or c in wanted for c in options):
            net = levels.network
            wanted.append(net if prefer_network and net in options else options[0])
    ordered: list[str] = []

    def visit(cid: str) -> None:
        if cid in ordered or cid in have or cid not in catalog.certifications:
            return
        for pre in catalog.certifications[cid].prerequisites:
            visit(pre)
        ordered.append(cid)

    for cid in wanted:
        visit(cid)
    return ordered


def level_eligible(
    person: Person,
    catalog: Catalog,
    certs: Iterable[str],
    months_in: int,
    levels: LevelCertifications | None = None,
    experience: Experience | None = None,
    since_month: int = 1,
) -> int:
    """Highest level the person qualifies for after ``months_in`` months of the plan. With
    ``experience``, only its months from ``since_month`` on (GPUs in service) count."""
    have = set(certs)
    levels = levels or level_certifications(catalog)
    gained = months_in - since_month + 1
    if experience is not None:
        gained = experience.between(since_month, months_in)
    exp = person.experience_months + max(0, gained)
    best = person.level
    for lvl in range(person.level + 1, 6):
        if exp < catalog.levels[lvl].experience_months.low:
            break
        options = levels.at(lvl)
        if options and not have.intersection(options):
            break
        best = lvl
    return best


def build_roadmap(
    person: Person,
    slot: TargetSlot | None,
    scenario: Scenario,
    catalog: Catalog,
    start: date | None = None,
    horizon_end: date | None = None,
    mentor_available: bool = False,
    experience_on: date | None = None,
) -> Roadmap:
    """The roadmap that takes ``person`` to ``slot`` (or only renewals with no slot).

    ``experience_on``: the date their ``experience_months`` refer to (the plan start unless
    given; a hire's arrival)."""
    return _build(person, slot, scenario, catalog, start, horizon_end, mentor_available, experience_on)[0]


def moving_roadmap(
    person: Person,
    first: TargetSlot,
    later: TargetSlot,
    scenario: Scenario,
    catalog: Catalog,
    mentor_available: bool = False,
) -> Roadmap:
    """The roadmap of a person who takes the ``first`` seat and later moves to the ``later``
    one: the study that makes them ready for the first seat (its goals left out), then, from
    the end of that study, the roadmap that takes them, with the skills and certifications
    it gave, to the later seat (its renewals kept from then on). Ready when ready for the
    later seat; the role is the later seat's (the plan's seating names both)."""
    rm1, state = _build(person, first, scenario, catalog, mentor_available=mentor_available)
    gates = [i for i in rm1.items if not i.goal and i.kind != "renewal"]
    resume = max([scenario.start, *(i.end for i in gates)])
    held = {h.id: h for h in person.certifications}
    for cid, earned in state.certs.items():
        if cid not in held and earned <= resume:
            held[cid] = HeldCertification(id=cid, earned=earned)
    skills = dict(person.skills)
    for i in gates:  # the skills that study gave by the time it ends
        for d, to in _gains(i, first, catalog):
            skills[d] = max(skills.get(d, 0), min(to, STUDY_CAP) if d in state.capped else to)
    after = person.model_copy(
        update={
            "skills": skills,
            "certifications": tuple(held.values()),
            "level": max(person.level, rm1.level_at_ready or person.level),
        }
    )
    rm2, _ = _build(
        after,
        later,
        scenario,
        catalog,
        start=resume,
        mentor_available=mentor_available,
        experience_on=scenario.start,
    )
    renewed = {(i.ref, i.start) for i in rm2.items if i.kind == "renewal"}
    early = [
        i for i in rm1.items if i.kind == "renewal" and i.start < resume and (i.ref, i.start) not in renewed
    ]
    items = tuple(sorted((*gates, *early, *rm2.items), key=lambda i: (i.start, i.end, i.kind)))
    levels = [lv for lv in (rm1.level_at_ready, rm2.level_at_ready) if lv is not None]
    return Roadmap.model_construct(
        person=person.id,
        name=person.name,
        role=later.role,
        items=items,
        ready=rm2.ready,
        ready_month=rm2.ready_month,
        level_at_ready=max(levels) if levels else None,
        hire=False,
    )


def _gains(item: RoadmapItem, slot: TargetSlot, catalog: Catalog) -> list[tuple[str, int]]:
    """The skill domains a finished roadmap item grants: a course's or certification's
    grants; practice or an apprenticeship in a domain, the proficiency ``slot`` needs in it."""
    if item.kind in ("practice", "apprenticeship"):
        return [(item.ref, slot.domains.get(item.ref, 0))]
    if item.kind in ("course", "bootcamp") and item.ref in catalog.courses:
        return [(g.domain, g.to) for g in catalog.courses[item.ref].grants]
    if item.kind == "exam" and item.ref in catalog.certifications:
        return [(g.domain, g.to) for g in catalog.certifications[item.ref].grants]
    return []


def _build(
    person: Person,
    slot: TargetSlot | None,
    scenario: Scenario,
    catalog: Catalog,
    start: date | None = None,
    horizon_end: date | None = None,
    mentor_available: bool = False,
    experience_on: date | None = None,
) -> tuple[Roadmap, _State]:
    start = start or scenario.start
    horizon_end = horizon_end or add_months(scenario.start, scenario.horizon_months)
    allowed: set[str] = set(scenario.constraints.strategies)
    held = held_valid(person, catalog, start)
    levels = level_certifications(catalog, scenario.fleet)
    state = _State(
        skills=dict(person.skills),
        certs=dict(held),
        cursor=start,
        capped=frozenset(t.domain for t in catalog.transitions),
        levels=levels,
        experience=Experience.of(scenario.fleet),
        plan_start=scenario.start,
    )
    rate = person.weekly_study_hours
    strict = scenario.constraints.prerequisite_strictness
    skills_end: date | None = None
    first_goal = 0  # items from here on are goals, not conditions of readiness
    if slot is not None and rate > 0:
        needed = certs_needed(slot, held, catalog, slot.role == "network-specialist", levels)
        goals = person.level >= slot.level_min  # certifications are goals, not gates
        if goals:
            _domain_courses(slot.domains, state, catalog, rate, allowed)
            _practice(person, slot.domains, state, catalog, rate, allowed, mentor_available)
            skills_end = max((i.end for i in state.items), default=start)
            first_goal = len(state.items)
        for cid in needed:
            _path_courses(cid, state, catalog, rate, allowed)
            _exam(cid, person, state, catalog, rate, experience_on or scenario.start, strict)
        if not goals:
            _domain_courses(slot.domains, state, catalog, rate, allowed)
            _practice(person, slot.domains, state, catalog, rate, allowed, mentor_available)
    study_end = skills_end if skills_end is not None else max((i.end for i in state.items), default=start)
    if skills_end is None:
        first_goal = len(state.items)
    if slot is not None and rate > 0:
        _role_level_goals(
            person, slot, state, catalog, rate, allowed, experience_on or scenario.start, strict, horizon_end
        )
    if slot is not None:
        state.items[first_goal:] = [i.model_copy(update={"goal": True}) for i in state.items[first_goal:]]
    stuck = slot is not None and rate <= 0 and _lacks(person, slot, held, catalog, levels)
    _renewals(state, catalog, horizon_end)
    ready: date | None = None
    ready_month: int | None = None
    level_at: int | None = None
    if slot is not None and not stuck:
        ready, level_at = _level_ready(
            person,
            slot,
            state,
            catalog,
            scenario.start,
            study_end,
            skills_only=skills_end is not None,
            since=experience_on or scenario.start,
        )
        ready_month = month_of(scenario.start, ready) if ready else None
    items = tuple(sorted(state.items, key=lambda i: (i.start, i.end, i.kind)))
    # Items are built from typed catalog values above: skip re-validation (hot path at scale).
    rm = Roadmap.model_construct(
        person=person.id,
        name=person.name,
        role=slot.role if slot else None,
        items=items,
        ready=ready,
        ready_month=ready_month,
        level_at_ready=level_at,
        hire=False,
    )
    return rm, state


def _role_level_goals(
    person: Person,
    slot: TargetSlot,
    state: _State,
    catalog: Catalog,
    rate: float,
    allowed: set[str],
    experience_on: date,
    strictness: float,
    horizon_end: date,
) -> None:
    """A slot below its role's own level (a vendor-supported lean slot: a Level-2 network
    specialist) keeps the role's level certifications as goals after readiness (a Level-3
    network specialist holds an NVIDIA Professional), each only if its exam falls within
    the horizon (article §7A: "2 reached Professional within the first year")."""
    role = catalog.roles.get(slot.role)
    if role is None or role.level_min <= slot.level_min:
        return
    full = slot.model_copy(update={"level_min": role.level_min, "certifications": ()})
    for cid in certs_needed(full, state.certs, catalog, slot.role == "network-specialist", state.levels):
        saved = (len(state.items), state.cursor, dict(state.skills), dict(state.certs))
        _path_courses(cid, state, catalog, rate, allowed)
        _exam(cid, person, state, catalog, rate, experience_on, strictness)
        if state.certs[cid] >= horizon_end:  # not within the horizon: leave it out
            del state.items[saved[0] :]
            state.cursor, state.skills, state.certs = saved[1], saved[2], saved[3]
            return


def _lacks(
    person: Person,
    slot: TargetSlot,
    held: Mapping[str, date],
    catalog: Catalog,
    levels: LevelCertifications | None = None,
) -> bool:
    if certs_needed(slot, held, catalog, levels=levels):
        return True
    return any(person.skills.get(d, 0) < p for d, p in slot.domains.items()) or person.level < slot.level_min


def _study(
    state: _State,
    kind: ItemKind,
    ref: str,
    name: str | Text,
    hours: float,
    rate: float,
    cost: float,
    strategy: str | None = None,
    note: str | Text = "",
) -> None:
    end = state.cursor + weeks(hours / rate) if rate > 0 else state.cursor
    end = max(end, state.cursor + timedelta(days=1))
    state.items.append(
        _item(
            kind=kind,
            ref=ref,
            name=name,
            start=state.cursor,
            end=end,
            hours=hours,
            cost=cost,
            strategy=strategy,
            note=note,
        )
    )
    state.cursor = end


def _grant(state: _State, gains: Iterable[tuple[str, int]]) -> None:
    for domain, to in gains:
        if domain in state.capped:
            to = min(to, STUDY_CAP)
        if state.skills.get(domain, 0) < to:
            state.skills[domain] = to


def _path_courses(cert_id: str, state: _State, catalog: Catalog, rate: float, allowed: set[str]) -> None:
    path = next((p for p in catalog.paths.values() if p.exam == cert_id), None)
    if path is None:
        return
    taken = {i.ref for i in state.items if i.kind == "course"} | {
        r for i in state.items if i.kind == "bootcamp" for r in i.note.split(",")
    }
    todo = [catalog.courses[c] for c in path.courses if c not in taken]
    # Foundation courses are short and online (article §7A months 1-2): never a bootcamp.
    entry_level = (catalog.certifications[cert_id].level or 0) <= 2
    _take_courses(todo, state, catalog, rate, allowed - {"bootcamp"} if entry_level else allowed, path.name)


def _take_courses(
    todo: list[Course], state: _State, catalog: Catalog, rate: float, allowed: set[str], label: str | Text
) -> None:
    e = catalog.economics
    boot = catalog.strategies.get("bootcamp")
    if "bootcamp" in allowed and boot and boot.weeks and boot.cost_per_participant_usd and len(todo) >= 2:
        hours = sum(c.hours or 0 for c in todo)
        span = boot.weeks.mid
        end = state.cursor + weeks(span)
        state.items.append(
            _item(
                kind="bootcamp",
                ref="bootcamp",
                name=say(N_("Bootcamp: {label}"), label=label),
                start=state.cursor,
                end=end,
                hours=hours,
                cost=boot.cost_per_participant_usd.mid,
                strategy="bootcamp",
                note=",".join(c.id for c in todo),
            )
        )
        state.cursor = end
        for c in todo:
            _grant(state, ((g.domain, g.to) for g in c.grants))
        return
    strategy = "vendor" if "vendor" in allowed else "internal"
    for c in todo:
        hours = c.hours or 0
        cost = c.price_usd if c.price_usd is not None else hours * e.course_cost_per_hour_usd
        _study(state, "course", c.id, c.name, hours, rate, cost, strategy)
        _grant(state, ((g.domain, g.to) for g in c.grants))


def _exam(
    cert_id: str,
    person: Person,
    state: _State,
    catalog: Catalog,
    rate: float,
    experience_on: date,
    strictness: float = 1.0,
) -> None:
    cert = catalog.certifications[cert_id]
    if cert.study_hours:
        _study(
            state,
            "course",
            f"{cert_id}-prep",
            say(N_("Exam preparation: {certification}"), certification=cert.name),
            cert.study_hours,
            rate,
            0.0,
            "internal",
            say(N_("self-study")),
        )
    earliest = state.cursor
    if cert.min_experience_months:
        short = math.ceil(cert.min_experience_months * strictness) - person.experience_months
        if short > 0:
            earliest = max(earliest, _experienced(state, experience_on, short))
    if cert.available_from is not None:  # a programme announced before its exams open
        earliest = max(earliest, cert.available_from)
    day = earliest
    state.items.append(
        _item(
            kind="exam",
            ref=cert_id,
            name=cert.name,
            start=day,
            end=day + timedelta(days=1),
            hours=(cert.exam.minutes or 0) / 60,
            cost=cert.exam.price_usd or 0.0,
            note="" if cert.exam.price_usd is not None else say(N_("exam price unknown")),
        )
    )
    state.cursor = day + timedelta(days=1)
    state.certs[cert_id] = day
    _grant(state, ((g.domain, g.to) for g in cert.grants))


def _experienced(state: _State, since: date, months: int) -> date:
    """The day ``months`` more months of GPU experience have accrued since ``since``: only
    months in which the fleet runs GPUs count (:mod:`gputeam.planning.hardware`, rule 4)."""
    if state.experience is None or state.plan_start is None:
        return add_months(since, months)
    day = state.experience.date(state.plan_start, since, months)
    return day if day is not None else add_months(since, months + EXPERIENCE_LOOKAHEAD)


def _domain_courses(
    needs: Mapping[str, int], state: _State, catalog: Catalog, rate: float, allowed: set[str]
) -> None:
    taken = {i.ref for i in state.items if i.kind == "course"} | {
        r for i in state.items if i.kind == "bootcamp" for r in i.note.split(",")
    }
    todo: list[Course] = []
    for domain, need in needs.items():
        have = state.skills.get(domain, 0)
        top = min(need, STUDY_CAP) if domain in state.capped else need  # the rest is practice
        if have >= top:
            continue
        for c in catalog.courses.values():
            if c.id in taken:
                continue
            if any(g.domain == domain and g.to > have for g in c.grants):
                todo.append(c)
                taken.add(c.id)
                break
    if todo:
        _take_courses(todo, state, catalog, rate, allowed, say(N_("role skills")))


def _practice(
    person: Person,
    needs: Mapping[str, int],
    state: _State,
    catalog: Catalog,
    rate: float,
    allowed: set[str],
    mentor_available: bool,
) -> None:
    e = catalog.economics
    appr = catalog.strategies.get("apprenticeship")
    for domain, need in needs.items():
        have = state.skills.get(domain, 0)
        if have >= need:
            continue
        steps = need - have
        name = catalog.domains[domain].name
        transition = next(
            (t for t in catalog.transitions if t.background == person.background and t.domain == domain), None
        )
        others = [t for t in catalog.transitions if t.domain == domain]
        if transition is not None or others:
            if transition is not None:
                months = int(transition.months.low)
                why = say(
                    N_("{background} to {domain}: {low:g}-{high:g} months ({source})"),
                    background=person.background,
                    domain=Term(term=name),
                    low=transition.months.low,
                    high=transition.months.high,
                    source=transition.source,
                )
            else:  # from a farther background: not faster than the slow end of the known one
                far = max(others, key=lambda t: t.months.high)
                months = int(math.ceil(far.months.high))
                why = say(
                    N_("{background} to {domain}: at least the {months:g} months a {other} needs ({source})"),
                    background=person.background,
                    domain=Term(term=name),
                    months=far.months.high,
                    other=far.background,
                    source=far.source,
                )
            end = add_months(state.cursor, months)
            state.items.append(
                _item(
                    kind="practice",
                    ref=domain,
                    name=say(N_("On the job: {domain}"), domain=Term(term=name)),
                    start=state.cursor,
                    end=end,
                    hours=0,
                    cost=0,
                    note=why,
                )
            )
            # practice on the job runs alongside study: the cursor does not move
        elif "apprenticeship" in allowed and mentor_available and appr and appr.months:
            months = int(appr.months.low)
            end = add_months(state.cursor, months)
            state.items.append(
                _item(
                    kind="apprenticeship",
                    ref=domain,
                    name=say(N_("Apprenticeship: {domain}"), domain=Term(term=name)),
                    start=state.cursor,
                    end=end,
                    hours=0,
                    cost=0,
                    strategy="apprenticeship",
                    note=say(
                        N_("shadowing a senior for {months} months; mentor loses {share:.0%} of their time"),
                        months=months,
                        share=appr.mentor_time_share or 0.0,
                    ),
                )
            )
        else:
            _study(
                state,
                "practice",
                domain,
                say(N_("Hands-on practice: {domain}"), domain=Term(term=name)),
                steps * e.practice_hours_per_step,
                rate,
                0.0,
                "internal",
                say_n(
                    Nn_(
                        "{steps} proficiency step x {hours:g} h",
                        "{steps} proficiency steps x {hours:g} h",
                    ),
                    "steps",
                    steps=steps,
                    hours=e.practice_hours_per_step,
                ),
            )
        state.skills[domain] = need


def _renewals(state: _State, catalog: Catalog, horizon_end: date) -> None:
    queue = list(state.certs.items())
    while queue:
        cid, earned = queue.pop()
        if cid not in catalog.certifications:
            continue
        cert = catalog.certifications[cid]
        expires = certificate_expiry(catalog, cid, earned)
        if expires is None:
            continue
        day = add_months(expires, -1)
        if day >= horizon_end:
            continue
        state.items.append(
            _item(
                kind="renewal",
                ref=cid,
                name=say(N_("Renew {certification}"), certification=cert.name),
                start=day,
                end=day + timedelta(days=1),
                hours=(cert.exam.minutes or 0) / 60,
                cost=cert.exam.price_usd or 0.0,
                note=say(N_("expires {date:iso}"), date=Day(day=expires)),
            )
        )
        queue.append((cid, day))


def _level_ready(
    person: Person,
    slot: TargetSlot,
    state: _State,
    catalog: Catalog,
    plan_start: date,
    study_end: date,
    skills_only: bool = False,
    since: date | None = None,
) -> tuple[date | None, int]:
    """First date when skills, certifications and level all fit the slot: the end of the
    study and practice, or the end of the plan month in which the person reaches the
    experience the slot's level needs (article §3), whichever is later. Experience accrues
    from ``since`` (the plan start or a hire's arrival), in months the fleet runs GPUs."""
    practice_end = max(
        (i.end for i in state.items if i.kind in ("practice", "apprenticeship")), default=study_end
    )
    day = study_end if skills_only else max(study_end, practice_end)
    certs = {c for c, earned in state.certs.items() if earned <= day}
    first = month_of(plan_start, day)
    levels = state.levels or level_certifications(catalog)
    since_month = max(1, month_of(plan_start, since)) if since is not None else 1
    if person.level < slot.level_min:
        for lvl in range(person.level + 1, slot.level_min + 1):
            options = levels.at(lvl)
            if options and not certs.intersection(options):
                return None, person.level
    short = math.ceil(catalog.levels[slot.level_min].experience_months.low - person.experience_months)
    months_in = first
    if person.level < slot.level_min:
        if state.experience is None:
            months_in = max(first, short)
        else:
            reached = state.experience.month(short, since_month)
            if reached is None:  # no GPUs to gain the experience on
                return None, person.level
            months_in = max(first, reached)
    lvl = level_eligible(person, catalog, certs, months_in, levels, state.experience, since_month)
    if months_in == first:
        return day, lvl
    return add_months(plan_start, months_in) - timedelta(days=1), lvl


def extend_roadmap(
    roadmap: Roadmap,
    person: Person,
    skills: Mapping[str, int],
    needs: Mapping[str, int],
    scenario: Scenario,
    catalog: Catalog,
    mentor_available: bool = False,
) -> Roadmap:
    """``roadmap`` with courses and practice that take ``person`` (with ``skills`` at the end
    of it) to ``needs`` beyond their role (the fleet's coverage needs,
    :mod:`gputeam.planning.needs`), after their other study; goals, not conditions of
    readiness for the role. The domains go to ``covers``."""
    rate = person.weekly_study_hours
    todo = {d: p for d, p in needs.items() if skills.get(d, 0) < p}
    if rate <= 0 or not todo:
        return roadmap
    study = [i.end for i in roadmap.items if i.kind != "renewal"]
    state = _State(
        skills=dict(skills),
        certs={},
        cursor=max([scenario.start, *([roadmap.ready] if roadmap.ready else []), *study]),
        items=list(roadmap.items),
        capped=frozenset(t.domain for t in catalog.transitions),
    )
    allowed: set[str] = set(scenario.constraints.strategies)
    first = len(state.items)
    _domain_courses(todo, state, catalog, rate, allowed)
    _practice(person, todo, state, catalog, rate, allowed, mentor_available)
    added = [i.model_copy(update={"goal": True}) for i in state.items[first:]]
    items = tuple(sorted((*roadmap.items, *added), key=lambda i: (i.start, i.end, i.kind)))
    return roadmap.model_copy(update={"items": items, "covers": (*roadmap.covers, *todo)})


def hire_roadmaps(
    role: str,
    level: int,
    count: int,
    arrival_month: int,
    slot: TargetSlot,
    scenario: Scenario,
    catalog: Catalog,
    first: int = 1,
    role_name: str | None = None,
) -> list[Roadmap]:
    """Onboarding roadmaps of ``count`` hires of ``role`` at ``level`` arriving in plan month
    ``arrival_month``, numbered from ``first``.

    A hire is assumed to bring the slot's skills and level and the experience of that level's
    lower bound (article §3), not its certifications: from arrival they work towards the
    certifications their slot and level name, at the default weekly study hours, ready from
    the day they arrive (the certifications are goals)."""
    name = role_name or role
    exp = int(catalog.levels[level].experience_months.low) if level in catalog.levels else 0
    start = add_months(scenario.start, arrival_month - 1)
    out = []
    for k in range(first, first + count):
        person = Person(
            id=f"hire-{role}-{k}",
            name=say(N_("{role} hire {n} (Level {level})"), role=Term(term=name), n=k, level=level).english(),
            title=name,
            background="gpu-engineer",
            level=level,
            experience_months=exp,
            skills=dict(slot.domains),
            role=role,
        )
        rm = build_roadmap(
            person,
            slot.model_copy(update={"level_min": min(slot.level_min, level)}),
            scenario,
            catalog,
            start=start,
            experience_on=start,
        )
        label = say(N_("{role} hire {n} (Level {level})"), role=Term(term=name), n=k, level=level)
        out.append(rm.model_copy(update={"hire": True, "name_text": label}))
    return out
