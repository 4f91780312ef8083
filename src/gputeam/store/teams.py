"""Teams as a team lead runs them: rename, archive and restore, assign people, and what
the team is learning. Creating and listing teams is in :mod:`gputeam.store.people`.

Every change is audited (entity ``team``; a person moved is audited as an update of the
person). An archived team keeps its people's history but takes no one new."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gputeam.store import audit
from gputeam.store.errors import not_found, refused
from gputeam.store.people import ARCHIVED_TEAM, CURRENT_TEAM, check_team_name, update_person
from gputeam.store.schema import Enrolment, Person, RoadmapItem, Team, utcnow


def team_in(session: Session, org_id: int, team_id: int) -> Team:
    """The team of this organisation, else NotFound (another organisation's team too)."""
    team = session.get(Team, team_id)
    if team is None or team.org_id != org_id:
        raise not_found("team", team_id)
    return team


def rename_team(session: Session, org_id: int, team_id: int, name: str, *, actor: str | None = None) -> Team:
    team = team_in(session, org_id, team_id)
    name = check_team_name(session, org_id, name, team.id)
    if name != team.name:
        before = audit.snapshot(team)
        team.name = name
        session.flush()
        audit.record(session, actor, "rename", "team", team.id, before, audit.snapshot(team))
    return team


def set_team_archived(
    session: Session, org_id: int, team_id: int, archived: bool, *, actor: str | None = None
) -> Team:
    """Archive (refused while active people are in it: move them first) or restore."""
    team = team_in(session, org_id, team_id)
    if archived == (team.archived_at is not None):
        return team
    if archived:
        members = (
            session.scalar(
                select(func.count(Person.id)).where(Person.team_id == team.id, Person.active.is_(True))
            )
            or 0
        )
        if members:
            raise refused(
                "team.archived",
                f"{members} active people are in this team; move them to another team first",
                team.name,
                "a team with no active people",
            )
    before = audit.snapshot(team)
    team.archived_at = utcnow() if archived else None
    session.flush()
    audit.record(
        session, actor, "archive" if archived else "restore", "team", team.id, before, audit.snapshot(team)
    )
    return team


def assign_to_team(
    session: Session, org_id: int, team_id: int, person_ids: Sequence[int], *, actor: str | None = None
) -> list[Person]:
    """Move these people of the organisation into the team (all or none: an unknown
    person or an archived team refuses the lot). Returns the people who moved."""
    team = team_in(session, org_id, team_id)
    if team.archived_at is not None:
        raise refused("team_id", ARCHIVED_TEAM, team.name, CURRENT_TEAM)
    moved = []
    for pid in dict.fromkeys(person_ids):
        p = session.get(Person, pid)
        if p is None or p.org_id != org_id:
            raise not_found("person", pid)
        if p.team_id != team.id:
            moved.append(update_person(session, p.id, {"team_id": team.id}, actor=actor))
    return moved


def team_members(
    session: Session, org_id: int, team_id: int, *, active: bool | None = None
) -> Sequence[Person]:
    team = team_in(session, org_id, team_id)
    q = select(Person).where(Person.team_id == team.id)
    if active is not None:
        q = q.where(Person.active.is_(active))
    return session.scalars(q.order_by(Person.name, Person.id)).all()


def learning_summary(
    session: Session, org_id: int, today: date, *, team_id: int | None = None, person_id: int | None = None
) -> dict[str, Any]:
    """Enrolments (open, completed, hours logged) and roadmap items (done, open,
    overdue) of the organisation's active people, or of one team or person."""

    def scoped(q: Any) -> Any:
        q = q.where(Person.org_id == org_id, Person.active.is_(True))
        if team_id is not None:
            q = q.where(Person.team_id == team_id)
        if person_id is not None:
            q = q.where(Person.id == person_id)
        return q

    e = scoped(
        select(
            func.count(Enrolment.id),
            func.count(Enrolment.completed_on),
            func.coalesce(func.sum(Enrolment.hours_done), 0.0),
            func.count(func.distinct(Enrolment.person_id)),
        ).join(Person, Person.id == Enrolment.person_id)
    )
    total, completed, hours, learners = session.execute(e).one()
    items = {
        status: n
        for status, n in session.execute(
            scoped(
                select(RoadmapItem.status, func.count(RoadmapItem.id)).join(
                    Person, Person.id == RoadmapItem.person_id
                )
            ).group_by(RoadmapItem.status)
        )
    }
    overdue = (
        session.scalar(
            scoped(
                select(func.count(RoadmapItem.id))
                .join(Person, Person.id == RoadmapItem.person_id)
                .where(RoadmapItem.status.in_(("planned", "in-progress")), RoadmapItem.due < today)
            )
        )
        or 0
    )
    planned = sum(n for s, n in items.items() if s != "cancelled")
    done = items.get("done", 0)
    return {
        "enrolments_open": int(total) - int(completed),
        "enrolments_done": int(completed),
        "hours": round(float(hours), 1),
        "learners": int(learners),
        "items": planned,
        "items_done": done,
        "items_overdue": int(overdue),
        "share_done": round(done / planned, 3) if planned else None,
    }
