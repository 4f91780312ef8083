"""The audit log: who changed what, when, with the record before and after."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gputeam.store.schema import AuditEntry, Base, Person, utcnow

#: Columns never copied into the audit log.
SECRET_COLUMNS = frozenset({"password_hash", "token_hash"})


def snapshot(obj: Base | None) -> dict[str, Any] | None:
    """A JSON-safe dict of a row's column values (secrets left out)."""
    if obj is None:
        return None
    out: dict[str, Any] = {}
    for col in obj.__table__.columns:
        if col.key in SECRET_COLUMNS:
            continue
        value = getattr(obj, col.key)
        if isinstance(value, datetime | date):
            value = value.isoformat()
        out[col.key] = value
    return out


def record(session: Session, actor: str | None, action: str, entity: str,
           entity_id: object = None, before: dict[str, Any] | None = None,
           after: dict[str, Any] | None = None, *, at: datetime | None = None) -> AuditEntry:
    """Add one audit entry to the session's transaction (written when it commits)."""
    entry = AuditEntry(actor=actor, action=action, entity=entity,
                       entity_id=None if entity_id is None else str(entity_id),
                       before=before, after=after, at=at or utcnow())
    session.add(entry)
    return entry


def list_audit(session: Session, *, entity: str | None = None, entity_id: object = None,
               actor: str | None = None, limit: int = 100, offset: int = 0
               ) -> Sequence[AuditEntry]:
    """Audit entries, newest first, optionally for one entity or actor."""
    q = select(AuditEntry).order_by(AuditEntry.at.desc(), AuditEntry.id.desc())
    if entity is not None:
        q = q.where(AuditEntry.entity == entity)
    if entity_id is not None:
        q = q.where(AuditEntry.entity_id == str(entity_id))
    if actor is not None:
        q = q.where(AuditEntry.actor == actor)
    return session.scalars(q.limit(limit).offset(offset)).all()


def count_audit(session: Session, action: str, *, since: datetime | None = None,
                entity_id: object = None, actor: str | None = None) -> int:
    """How many entries with this ``action`` (e.g. ``login-failed``) since a time, for one
    entity id or actor: what login rate limiting counts."""
    q = select(func.count(AuditEntry.id)).where(AuditEntry.action == action)
    if since is not None:
        q = q.where(AuditEntry.at >= since)
    if entity_id is not None:
        q = q.where(AuditEntry.entity_id == str(entity_id))
    if actor is not None:
        q = q.where(AuditEntry.actor == actor)
    return session.scalar(q) or 0


def data_version(session: Session) -> tuple[int, int]:
    """A cheap marker that changes when tracked data changes (latest audit entry id and
    number of people): for caches of derived views such as the dashboard. Writes that
    bypass the audit log (none in the store) would not change it."""
    return (session.scalar(select(func.max(AuditEntry.id))) or 0,
            session.scalar(select(func.count(Person.id))) or 0)
