"""Teams as a team lead runs them: rename, archive and restore, assign people, and what
the team is learning. Creating and listing teams is in :mod:`gputeam.store.people`.

Every change is audited (entity ``team``; a person moved is audited as an update of the
person). An archived team keeps its people's history but takes no one new."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any, Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gputeam.i18n import N_, Nn_
from gputeam.store import audit
from gputeam.store.errors import not_found, refused
from gputeam.store.people import ARCHIVED_TEAM, CURRENT_TEAM, check_team_name, update_person
from gputeam.store.schema import Enrolment, Person, RoadmapItem, Team, utcnow

#: English, singular and plural (translated where shown, by the count's plural form).
_STILL_IN_TEAM = Nn_(
    "{n} active person is in this team; move them to another team first",
    "{n} active people are in this team; move them to another team first",
)


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
                _STILL_IN_TEAM[members != 1].format(n=members),
                team.name,
                N_("a team with no active people"),
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
    return _learning(session, org_id, today, None, team_id=team_id, person_id=person_id).get(
        None, empty_learning()
    )


def team_head_counts(session: Session, org_id: int) -> dict[int, int]:
    """Active people per team (teams without any are absent), in one query."""
    q = (
        select(Person.team_id, func.count(Person.id))
        .where(Person.org_id == org_id, Person.active.is_(True), Person.team_id.is_not(None))
        .group_by(Person.team_id)
    )
    return {int(t): int(n) for t, n in session.execute(q) if t is not None}


def learning_summaries(
    session: Session, org_id: int, today: date, *, by: Literal["person", "team"], team_id: int | None = None
) -> dict[int, dict[str, Any]]:
    """:func:`learning_summary` of each active person (``by="person"``, of one team with
    ``team_id``) or of each team (``by="team"``), in three queries whatever their number
    (a team page of 250 people, the list of teams). Someone (or a team) with nothing to
    count is absent: :func:`empty_learning` stands for them."""
    column = Person.id if by == "person" else Person.team_id
    return {
        int(k): v
        for k, v in _learning(session, org_id, today, column, team_id=team_id).items()
        if k is not None
    }


def empty_learning() -> dict[str, Any]:
    """The learning summary of someone with no enrolment and no roadmap item."""
    return _summary(0, 0, 0.0, 0, {}, 0)


def _learning(
    session: Session,
    org_id: int,
    today: date,
    group: Any,
    *,
    team_id: int | None = None,
    person_id: int | None = None,
) -> dict[Any, dict[str, Any]]:
    """The summaries keyed by ``group`` (a Person column), or by None for all together."""

    def scoped(q: Any) -> Any:
        q = q.where(Person.org_id == org_id, Person.active.is_(True))
        if team_id is not None:
            q = q.where(Person.team_id == team_id)
        if person_id is not None:
            q = q.where(Person.id == person_id)
        return q.group_by(group) if group is not None else q

    key = [group] if group is not None else []

    def keyed(row: Any) -> tuple[Any, tuple[Any, ...]]:
        return (row[0], tuple(row[1:])) if group is not None else (None, tuple(row))

    enrolments = dict(
        keyed(r)
        for r in session.execute(
            scoped(
                select(
                    *key,
                    func.count(Enrolment.id),
                    func.count(Enrolment.completed_on),
                    func.coalesce(func.sum(Enrolment.hours_done), 0.0),
                    func.count(func.distinct(Enrolment.person_id)),
                ).join(Person, Person.id == Enrolment.person_id)
            )
        )
    )
    items: dict[Any, dict[str, int]] = {}
    for r in session.execute(
        scoped(
            select(*key, RoadmapItem.status, func.count(RoadmapItem.id)).join(
                Person, Person.id == RoadmapItem.person_id
            )
        ).group_by(RoadmapItem.status)
    ):
        k, (status, n) = keyed(r)
        items.setdefault(k, {})[status] = int(n)
    overdue = dict(
        (k, int(v[0]))
        for k, v in map(
            keyed,
            session.execute(
                scoped(
                    select(*key, func.count(RoadmapItem.id))
                    .join(Person, Person.id == RoadmapItem.person_id)
                    .where(RoadmapItem.status.in_(("planned", "in-progress")), RoadmapItem.due < today)
                )
            ),
        )
    )
    out = {}
    for k in {*enrolments, *items, *overdue}:
        total, completed, hours, learners = enrolments.get(k, (0, 0, 0.0, 0))
        out[k] = _summary(total, completed, hours, learners, items.get(k, {}), overdue.get(k, 0))
    return out


def _summary(
    total: int, completed: int, hours: float, learners: int, items: dict[str, int], overdue: int
) -> dict[str, Any]:
    planned = sum(n for s, n in items.items() if s != "cancelled")
    done = items.get("done", 0)
    return {
        "enrolments_open": int(total) - int(completed),
        "enrolments_done": int(completed),
        "hours": round(float(hours or 0.0), 1),
        "learners": int(learners),
        "items": planned,
        "items_done": done,
        "items_overdue": int(overdue),
        "share_done": round(done / planned, 3) if planned else None,
    }
