"""Course enrolments (hours done) and roadmap items (courses, exams, renewals ...)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from gputeam.catalog import Catalog
from gputeam.i18n import N_
from gputeam.store import audit
from gputeam.store.errors import not_found, refused
from gputeam.store.people import get_person, get_person_by_key
from gputeam.store.person_rules import one_line
from gputeam.store.schema import (
    ROADMAP_KINDS,
    ROADMAP_STATUSES,
    Enrolment,
    Person,
    RoadmapItem,
)

# ---------------------------------------------------------------- enrolments
#: the most hours recorded on a course, as a multiple of the catalog's hours for it (a
#: slow learner may take longer than the course's length, not ten times as long)
COURSE_HOURS_FACTOR = 1.5


def check_hours(catalog: Catalog | None, course_id: str, hours_done: float) -> None:
    """Refuse hours below 0, or above :data:`COURSE_HOURS_FACTOR` times the course's hours
    in the ``catalog`` (no bound but 0 without a catalog, or for a course whose hours the
    catalog does not give)."""
    if hours_done < 0:
        raise refused("hours_done", N_("must not be negative"), hours_done, ">= 0")
    course = catalog.courses.get(course_id) if catalog is not None else None
    if course is None or course.hours is None:
        return
    most = course.hours * COURSE_HOURS_FACTOR
    if hours_done > most:
        raise refused(
            "hours_done",
            N_("more than {factor} times the course's {hours} hours").format(
                factor=f"{COURSE_HOURS_FACTOR:g}", hours=f"{course.hours:g}"
            ),
            f"{hours_done:g}",
            f"0-{most:g}",
        )


def enrol(
    session: Session,
    person_id: int,
    course_id: str,
    started_on: date,
    *,
    hours_done: float = 0.0,
    actor: str | None = None,
    catalog: Catalog | None = None,
) -> Enrolment:
    """Enrol the person; ``hours_done`` within :func:`check_hours` (with the ``catalog``)."""
    get_person(session, person_id)
    check_hours(catalog, course_id, hours_done)
    return enrol_many(session, [(person_id, course_id)], started_on, hours_done=hours_done, actor=actor)[0]


def enrol_many(
    session: Session,
    pairs: Sequence[tuple[int, str]],
    started_on: date,
    *,
    hours_done: float = 0.0,
    actor: str | None = None,
) -> list[Enrolment]:
    """New enrolments, one per ``(person id, course id)``, written in one batch (a team of
    hundreds at once), each audited. The caller has checked the people."""
    if hours_done < 0:
        raise refused("hours_done", N_("must not be negative"), hours_done, ">= 0")
    made = [
        Enrolment(person_id=pid, course_id=course, started_on=started_on, hours_done=hours_done)
        for pid, course in pairs
    ]
    session.add_all(made)
    session.flush()
    for e in made:
        audit.record(session, actor, "create", "enrolment", e.id, None, audit.snapshot(e))
    return made


def record_hours(
    session: Session,
    enrolment_id: int,
    hours_done: float,
    *,
    completed_on: date | None = None,
    actor: str | None = None,
    catalog: Catalog | None = None,
) -> Enrolment:
    """Set the hours done so far (a total, not an increment; within :func:`check_hours`,
    with the ``catalog``); ``completed_on`` closes it."""
    e = session.get(Enrolment, enrolment_id)
    if e is None:
        raise not_found("enrolment", enrolment_id)
    check_hours(catalog, e.course_id, hours_done)
    before = audit.snapshot(e)
    e.hours_done = hours_done
    if completed_on is not None:
        if completed_on < e.started_on:
            raise refused(
                "completed_on",
                N_("before the enrolment started"),
                completed_on.isoformat(),
                f">= {e.started_on.isoformat()}",
            )
        e.completed_on = completed_on
    session.flush()
    audit.record(session, actor, "update", "enrolment", e.id, before, audit.snapshot(e))
    if completed_on is not None:
        close_course_items(session, e.person_id, e.course_id, completed_on, actor=actor)
    return e


#: Roadmap item kinds that a course enrolment completes.
COURSE_KINDS = ("course", "bootcamp")


def find_enrolment(session: Session, enrolment_id: int) -> Enrolment | None:
    """The enrolment with this id, or None (callers check whose it is: ``person_id``)."""
    return session.get(Enrolment, enrolment_id)


def close_course_items(
    session: Session, person_id: int, course_id: str, done_on: date, *, actor: str | None = None
) -> list[RoadmapItem]:
    """Mark the person's open roadmap items for this course done (a course finished is
    the roadmap item done, whichever page or call recorded it)."""
    items = session.scalars(
        select(RoadmapItem).where(
            RoadmapItem.person_id == person_id,
            RoadmapItem.ref == course_id,
            RoadmapItem.kind.in_(COURSE_KINDS),
            RoadmapItem.status.in_(("planned", "in-progress")),
        )
    ).all()
    return [
        update_roadmap_item(session, i.id, {"status": "done", "done_on": done_on}, actor=actor) for i in items
    ]


def list_enrolments(
    session: Session, *, person_id: int | None = None, org_id: int | None = None, open_only: bool = False
) -> Sequence[Enrolment]:
    q = select(Enrolment).join(Person, Person.id == Enrolment.person_id).options(joinedload(Enrolment.person))
    if person_id is not None:
        q = q.where(Enrolment.person_id == person_id)
    if org_id is not None:
        q = q.where(Person.org_id == org_id)
    if open_only:
        q = q.where(Enrolment.completed_on.is_(None))
    return session.scalars(q.order_by(Enrolment.started_on, Enrolment.id)).all()


# ---------------------------------------------------------------- roadmap items
def add_roadmap_item(
    session: Session,
    person_id: int,
    *,
    kind: str,
    ref: str,
    title: str,
    start: date,
    due: date,
    hours: float = 0.0,
    plan_id: int | None = None,
    actor: str | None = None,
) -> RoadmapItem:
    title = one_line("title", title)
    if kind not in ROADMAP_KINDS:
        raise refused("kind", N_("unknown roadmap item kind"), kind, ", ".join(ROADMAP_KINDS))
    if due < start:
        raise refused("due", N_("before start"), due.isoformat(), f">= {start.isoformat()}")
    get_person(session, person_id)
    item = RoadmapItem(
        person_id=person_id,
        kind=kind,
        ref=ref,
        title=title,
        start=start,
        due=due,
        hours=hours,
        plan_id=plan_id,
    )
    session.add(item)
    session.flush()
    audit.record(session, actor, "create", "roadmap_item", item.id, None, audit.snapshot(item))
    return item


def update_roadmap_item(
    session: Session, item_id: int, changes: Mapping[str, Any], *, actor: str | None = None
) -> RoadmapItem:
    """Change ``status``, ``done_on``, ``start``, ``due``, ``title`` or ``hours``."""
    item = get_roadmap_item(session, item_id)
    allowed = {"status", "done_on", "start", "due", "title", "hours"}
    if set(changes) - allowed:
        raise refused(
            "roadmap_item",
            N_("unknown fields"),
            ", ".join(sorted(set(changes) - allowed)),
            ", ".join(sorted(allowed)),
        )
    if isinstance(changes.get("title"), str):
        changes = {**changes, "title": one_line("title", changes["title"])}
    if "status" in changes and changes["status"] not in ROADMAP_STATUSES:
        raise refused("status", N_("unknown status"), changes["status"], ", ".join(ROADMAP_STATUSES))
    before = audit.snapshot(item)
    for k, v in changes.items():
        setattr(item, k, v)
    if item.due < item.start:
        raise refused("due", N_("before start"), item.due.isoformat(), f">= {item.start}")
    session.flush()
    audit.record(session, actor, "update", "roadmap_item", item.id, before, audit.snapshot(item))
    return item


def complete_roadmap_item(
    session: Session, item_id: int, done_on: date, *, actor: str | None = None
) -> RoadmapItem:
    return update_roadmap_item(session, item_id, {"status": "done", "done_on": done_on}, actor=actor)


def get_roadmap_item(session: Session, item_id: int) -> RoadmapItem:
    item = session.get(RoadmapItem, item_id)
    if item is None:
        raise not_found("roadmap item", item_id)
    return item


def list_roadmap_items(
    session: Session,
    *,
    person_id: int | None = None,
    org_id: int | None = None,
    team_id: int | None = None,
    open_only: bool = False,
) -> Sequence[RoadmapItem]:
    q = (
        select(RoadmapItem)
        .join(Person, Person.id == RoadmapItem.person_id)
        .options(joinedload(RoadmapItem.person))
    )
    if person_id is not None:
        q = q.where(RoadmapItem.person_id == person_id)
    if org_id is not None:
        q = q.where(Person.org_id == org_id)
    if team_id is not None:
        q = q.where(Person.team_id == team_id)
    if open_only:
        q = q.where(RoadmapItem.status.in_(("planned", "in-progress")))
    return session.scalars(q.order_by(RoadmapItem.start, RoadmapItem.id)).all()


def overdue_roadmap_items(
    session: Session, today: date, *, org_id: int | None = None
) -> Sequence[RoadmapItem]:
    """Open items of active people whose ``due`` date is before ``today``."""
    q = (
        select(RoadmapItem)
        .join(Person, Person.id == RoadmapItem.person_id)
        .options(joinedload(RoadmapItem.person))
        .where(
            RoadmapItem.status.in_(("planned", "in-progress")),
            RoadmapItem.due < today,
            Person.active.is_(True),
        )
    )
    if org_id is not None:
        q = q.where(Person.org_id == org_id)
    return session.scalars(q.order_by(RoadmapItem.due, RoadmapItem.id)).all()


def adopt_plan_roadmaps(
    session: Session,
    org_id: int,
    plan: Mapping[str, Any],
    *,
    plan_id: int | None = None,
    actor: str | None = None,
) -> list[RoadmapItem]:
    """Turn a plan's roadmaps (``Plan.to_json()["roadmaps"]``) into roadmap items for the
    people who exist in the organisation (planned hires are skipped). An item the person
    already has (same kind, reference and start, from any plan or added by hand, unless
    cancelled) is not added again: adopting twice changes nothing. A course the person has
    already finished (a completed enrolment) is adopted as done, on that day."""
    created: list[RoadmapItem] = adopt_roadmaps(session, org_id, plan, plan_id=plan_id, actor=actor)[
        "created"
    ]
    return created


def adopt_roadmaps(
    session: Session,
    org_id: int,
    plan: Mapping[str, Any],
    *,
    plan_id: int | None = None,
    team_id: int | None = None,
    actor: str | None = None,
) -> dict[str, Any]:
    """:func:`adopt_plan_roadmaps` with the counts: ``created`` (the items),
    ``already`` (items the people had), ``hires`` (planned hires, not tracked people) and
    ``unknown`` (roadmap people the organisation does not have, by id).

    ``team_id``: only the roadmaps of that team's people (what adopting for the whole
    organisation would give them, no more); the others (other teams' people, planned
    hires, people not tracked) are counted as ``outside`` and left alone."""
    created: list[RoadmapItem] = []
    already, hires, outside, unknown = 0, 0, 0, []
    finished: dict[tuple[int, str], date] = {}  # a course already done is an item done
    for roadmap in plan.get("roadmaps", ()):
        hire = bool(roadmap.get("hire"))
        person = None if hire else get_person_by_key(session, org_id, str(roadmap.get("person")))
        if team_id is not None and (person is None or person.team_id != team_id):
            outside += 1
            continue
        if hire:
            hires += 1
            continue
        if person is None:
            unknown.append(str(roadmap.get("person")))
            continue
        existing = {
            (i.kind, i.ref, i.start)
            for i in session.scalars(
                select(RoadmapItem).where(
                    RoadmapItem.person_id == person.id, RoadmapItem.status != "cancelled"
                )
            )
        }
        for course, done_on in session.execute(
            select(Enrolment.course_id, Enrolment.completed_on).where(
                Enrolment.person_id == person.id, Enrolment.completed_on.is_not(None)
            )
        ):
            if done_on is not None:  # (the query asks for completed ones only)
                finished[(person.id, course)] = done_on
        for it in roadmap.get("items", ()):
            start, end = date.fromisoformat(str(it["start"])), date.fromisoformat(str(it["end"]))
            if (it["kind"], it["ref"], start) in existing:
                already += 1
                continue
            existing.add((it["kind"], it["ref"], start))
            item = add_roadmap_item(
                session,
                person.id,
                kind=it["kind"],
                ref=it["ref"],
                title=it["name"],
                start=start,
                due=max(start, end),
                hours=float(it.get("hours") or 0),
                plan_id=plan_id,
                actor=actor,
            )
            done_on = finished.get((person.id, it["ref"]))
            if it["kind"] in COURSE_KINDS and done_on is not None:
                update_roadmap_item(session, item.id, {"status": "done", "done_on": done_on}, actor=actor)
            created.append(item)
    return {"created": created, "already": already, "hires": hires, "unknown": unknown, "outside": outside}
