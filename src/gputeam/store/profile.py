"""Read models for the web's hottest pages: one person's records, and who is in which team.

Plain rows (named tuples), not ORM entities: the person page is the most requested after
the dashboard, and building entities and statements per request was most of its cost, so
the statements are built once, at import.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from sqlalchemy import BindParameter, Row, bindparam, select
from sqlalchemy.orm import Session

from gputeam.store.schema import ApiToken, CertificationHeld, Enrolment, Person, RoadmapItem


class PersonRecords(NamedTuple):
    """One person's certifications (``id, cert_id, valid_from, valid_until, evidence``),
    enrolments (``id, course_id, started_on, hours_done, completed_on``) and roadmap items
    (``id, kind, ref, title, start, due, status, done_on, hours``), each in date order."""

    certifications: list[Row[Any]]
    enrolments: list[Row[Any]]
    roadmap: list[Row[Any]]


_PID: BindParameter[int] = bindparam("pid")
_CERTS = (
    select(
        CertificationHeld.id,
        CertificationHeld.cert_id,
        CertificationHeld.valid_from,
        CertificationHeld.valid_until,
        CertificationHeld.evidence,
    )
    .where(CertificationHeld.person_id == _PID)
    .order_by(CertificationHeld.cert_id, CertificationHeld.valid_from)
)
_ENROLMENTS = (
    select(
        Enrolment.id, Enrolment.course_id, Enrolment.started_on, Enrolment.hours_done, Enrolment.completed_on
    )
    .where(Enrolment.person_id == _PID)
    .order_by(Enrolment.started_on, Enrolment.id)
)
_ROADMAP = (
    select(
        RoadmapItem.id,
        RoadmapItem.kind,
        RoadmapItem.ref,
        RoadmapItem.title,
        RoadmapItem.start,
        RoadmapItem.due,
        RoadmapItem.status,
        RoadmapItem.done_on,
        RoadmapItem.hours,
    )
    .where(RoadmapItem.person_id == _PID)
    .order_by(RoadmapItem.start, RoadmapItem.id)
)


def person_records(session: Session, person_id: int) -> PersonRecords:
    """One person's certifications, enrolments and roadmap items, as plain rows."""
    args = {"pid": person_id}
    return PersonRecords(
        list(session.execute(_CERTS, args)),
        list(session.execute(_ENROLMENTS, args)),
        list(session.execute(_ROADMAP, args)),
    )


def person_teams(session: Session, org_id: int) -> dict[str, tuple[int, int | None]]:
    """Person key to (id, team id) for everyone in the organisation."""
    rows = session.execute(select(Person.key, Person.id, Person.team_id).where(Person.org_id == org_id))
    return {k: (i, t) for k, i, t in rows}


#: A person's record kinds, as :func:`record_person` names them.
RecordKind = Literal["certification", "enrolment", "roadmap item"]
_RECORDS: dict[str, Any] = {
    "certification": CertificationHeld,
    "enrolment": Enrolment,
    "roadmap item": RoadmapItem,
}


def record_person(session: Session, kind: RecordKind, record_id: int) -> int | None:
    """Whose record this is (a person id): a held certification, an enrolment or a roadmap
    item; None when there is no such record. Front ends check with it whether the caller
    may change the record before changing it."""
    model = _RECORDS[kind]
    return session.scalar(select(model.person_id).where(model.id == record_id))


def token_user(session: Session, token_id: int) -> int | None:
    """Whose API token this is (a user id), or None when there is no such token."""
    return session.scalar(select(ApiToken.user_id).where(ApiToken.id == token_id))
