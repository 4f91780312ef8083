"""Enrolling people (one, several, a whole team) in courses and learning paths, marking
them done, and adopting a saved plan's roadmaps. The single-enrolment and roadmap rules
are in :mod:`gputeam.store.learning`; this module applies them to many at once, all or
nothing in the caller's transaction, every change audited."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from gputeam.catalog import Catalog
from gputeam.errors import Problem
from gputeam.i18n import N_
from gputeam.store import audit
from gputeam.store.errors import StoreError, not_found
from gputeam.store.learning import adopt_roadmaps, enrol_many, record_hours
from gputeam.store.schema import Enrolment, Person, SavedPlan, SavedScenario
from gputeam.store.teams import team_in


def courses_of(catalog: Catalog, course_id: str | None = None, path_id: str | None = None) -> list[str]:
    """The catalog courses a course id or a learning path id stands for (a path: its
    courses in order); refused when neither or both are given, or unknown."""
    if (course_id is None) == (path_id is None):
        raise StoreError(
            [
                Problem(
                    path="course_id",
                    message=N_("give a course or a path"),
                    expected=N_("one of {choices}").format(choices="course_id, path_id"),
                )
            ]
        )
    if course_id is not None:
        if course_id not in catalog.courses:
            raise StoreError(
                [
                    Problem(
                        path="course_id",
                        message=N_("not in the catalog"),
                        found=course_id,
                        expected=N_("a catalog course id"),
                    )
                ]
            )
        return [course_id]
    assert path_id is not None
    path = catalog.paths.get(path_id)
    if path is None:
        raise StoreError(
            [
                Problem(
                    path="path_id",
                    message=N_("not in the catalog"),
                    found=path_id,
                    expected=N_("a catalog learning path id"),
                )
            ]
        )
    return list(path.courses)


def enrol_people(
    session: Session,
    org_id: int,
    person_ids: Sequence[int],
    course_ids: Sequence[str],
    started_on: date,
    *,
    actor: str | None = None,
) -> dict[str, Any]:
    """Enrol each person in each course, skipping courses a person is already enrolled in
    and has not finished. ``{"created": [Enrolment], "already": n}``. A few queries
    whatever the number of people (a team of hundreds)."""
    ids = list(dict.fromkeys(person_ids))
    courses = list(dict.fromkeys(course_ids))
    # the people loaded at once, and held: the audit finds each enrolment's organisation
    # through its person in the session, not by a query (and a flush) per enrolment
    found: dict[int, Person] = {}
    open_: set[tuple[int, str]] = set()
    for chunk in (ids[i : i + 1000] for i in range(0, len(ids), 1000)):
        found.update((p.id, p) for p in session.scalars(select(Person).where(Person.id.in_(chunk))))
        open_.update(
            (person_id, course_id)
            for person_id, course_id in session.execute(
                select(Enrolment.person_id, Enrolment.course_id).where(
                    Enrolment.person_id.in_(chunk), Enrolment.completed_on.is_(None)
                )
            )
        )
    for pid in ids:
        if pid not in found or found[pid].org_id != org_id:
            raise not_found("person", pid)
    wanted = [(pid, course) for pid in ids for course in courses]
    new = [pair for pair in wanted if pair not in open_]
    created = enrol_many(session, new, started_on, actor=actor)
    return {"created": created, "already": len(wanted) - len(new)}


def complete_enrolment(
    session: Session,
    enrolment_id: int,
    done_on: date,
    *,
    hours_done: float | None = None,
    actor: str | None = None,
    catalog: Catalog | None = None,
) -> Enrolment:
    """Mark the enrolment done on ``done_on`` (hours kept unless given); the person's open
    roadmap items for the course are marked done with it."""
    e = session.get(Enrolment, enrolment_id)
    if e is None:
        raise not_found("enrolment", enrolment_id)
    return record_hours(
        session,
        e.id,
        e.hours_done if hours_done is None else hours_done,
        completed_on=done_on,
        actor=actor,
        catalog=catalog,
    )


def adopt_saved_plan(
    session: Session, org_id: int, plan_id: int, *, team_id: int | None = None, actor: str | None = None
) -> dict[str, Any]:
    """Adopt the organisation's saved plan ``plan_id`` (NotFound for another's): its
    roadmaps become the people's roadmap items (see
    :func:`gputeam.store.learning.adopt_roadmaps`; idempotent). Audited as ``adopt``.
    Answers counts: ``created``, ``already``, ``hires``, ``unknown`` (ids).

    ``team_id`` (a team of the organisation, else NotFound): for that team's people only,
    as a team's manager adopts it; the counts are then ``created``, ``already`` and
    ``outside`` (the plan's roadmaps of anyone else, left for their own teams)."""
    row = session.get(SavedPlan, plan_id)
    scenario = session.get(SavedScenario, row.scenario_id) if row is not None else None
    if row is None or scenario is None or scenario.org_id != org_id:
        raise not_found("plan", plan_id)
    if team_id is not None:
        team_in(session, org_id, team_id)
    result = adopt_roadmaps(session, org_id, row.plan, plan_id=row.id, team_id=team_id, actor=actor)
    counts: dict[str, Any] = {"created": len(result["created"]), "already": result["already"]}
    if team_id is None:
        counts |= {"hires": result["hires"], "unknown": result["unknown"]}
    else:
        counts["outside"] = result["outside"]
    scope = {"org_id": org_id} if team_id is None else {"org_id": org_id, "team_id": team_id}
    audit.record(session, actor, "adopt", "plan", row.id, None, {**scope, **counts})
    return counts
