"""The audit log: who changed what, when, with the record before and after."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from gputeam.store.schema import AuditEntry, Base, DataVersion, utcnow

#: Columns never copied into the audit log.
SECRET_COLUMNS = frozenset({"password_hash", "token_hash"})
#: Audit entities that are not tracked data: changing them (a new token, a user's role)
#: leaves the tracked version alone, so cached dashboards stay valid; it bumps the
#: accounts version instead, which caches of who is calling are keyed by.
ACCOUNT_ENTITIES = frozenset({"user", "user_teams", "api_token", "session"})
#: Audit entities whose id is an organisation's (an import names the organisation).
ORG_ENTITIES = frozenset({"organisation", "roster", "certifications"})
#: Audited events that change nothing stored about anyone (rate limiting counts them).
#: A login adds a session row, but no cache knows a session before its first use.
EVENTS = frozenset({"login", "login-failed", "password-failed"})
#: The :class:`DataVersion` rows.
TRACKED = "tracked"
ACCOUNTS = "accounts"
_CHANGED = "gputeam_changed_scopes"


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


def record(
    session: Session,
    actor: str | None,
    action: str,
    entity: str,
    entity_id: object = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    *,
    at: datetime | None = None,
) -> AuditEntry:
    """Add one audit entry to the session's transaction (written when it commits)."""
    entry = AuditEntry(
        actor=actor,
        action=action,
        entity=entity,
        entity_id=None if entity_id is None else str(entity_id),
        before=before,
        after=after,
        at=at or utcnow(),
        org_id=_org_of(session, entity, entity_id, before, after),
    )
    session.add(entry)
    if action not in EVENTS:
        scope = ACCOUNTS if entity in ACCOUNT_ENTITIES else TRACKED
        session.info.setdefault(_CHANGED, set()).add(scope)
    return entry


def _org_of(
    session: Session,
    entity: str,
    entity_id: object,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
) -> int | None:
    """The organisation an entry concerns: named by the entity (an organisation, an
    import), by the record's ``org_id``, or through its person or scenario. None for
    accounts, sessions and logins (they belong to the installation)."""
    from gputeam.store.schema import Person, SavedScenario

    if entity in ACCOUNT_ENTITIES:
        return None
    if entity in ORG_ENTITIES:
        return int(str(entity_id)) if str(entity_id).isdigit() else None
    for snap in (after, before):
        if not snap:
            continue
        if isinstance(snap.get("org_id"), int):
            return int(snap["org_id"])
        owner: Person | SavedScenario | None = None
        if isinstance(snap.get("person_id"), int):
            owner = session.get(Person, snap["person_id"])
        elif isinstance(snap.get("scenario_id"), int):
            owner = session.get(SavedScenario, snap["scenario_id"])
        if owner is not None:
            return owner.org_id
    return None


def list_audit(
    session: Session,
    *,
    entity: str | None = None,
    entity_id: object = None,
    actor: str | None = None,
    org_id: int | None = None,
    limit: int | None = 100,
    offset: int = 0,
    oldest_first: bool = False,
) -> Sequence[AuditEntry]:
    """Audit entries, newest first (or oldest first), optionally for one entity, actor or
    organisation."""
    q = select(AuditEntry).order_by(
        *((AuditEntry.at, AuditEntry.id) if oldest_first else (AuditEntry.at.desc(), AuditEntry.id.desc()))
    )
    if org_id is not None:
        q = q.where(AuditEntry.org_id == org_id)
    if entity is not None:
        q = q.where(AuditEntry.entity == entity)
    if entity_id is not None:
        q = q.where(AuditEntry.entity_id == str(entity_id))
    if actor is not None:
        q = q.where(AuditEntry.actor == actor)
    return session.scalars(q.limit(limit).offset(offset)).all()


def count_audit(
    session: Session,
    action: str,
    *,
    since: datetime | None = None,
    entity_id: object = None,
    actor: str | None = None,
) -> int:
    """How many entries with this ``action`` (e.g. ``login-failed``) since a time, for one
    entity id or actor: what login rate limiting counts."""
    return tally_audit(session, action, since=since, entity_id=entity_id, actor=actor)[0]


def tally_audit(
    session: Session,
    action: str,
    *,
    since: datetime | None = None,
    entity_id: object = None,
    actor: str | None = None,
) -> tuple[int, datetime | None]:
    """How many entries :func:`count_audit` counts, and when the latest was made (UTC;
    ``None`` if there is none): what the login throttle's backoff is counted from."""
    q = select(func.count(AuditEntry.id), func.max(AuditEntry.at)).where(AuditEntry.action == action)
    if since is not None:
        q = q.where(AuditEntry.at >= since)
    if entity_id is not None:
        q = q.where(AuditEntry.entity_id == str(entity_id))
    if actor is not None:
        q = q.where(AuditEntry.actor == actor)
    count, latest = session.execute(q).one()
    if latest is not None and latest.tzinfo is None:  # aggregates skip the column's type
        latest = latest.replace(tzinfo=UTC)
    return count or 0, latest


def data_version(session: Session) -> int:
    """A marker that changes with every committed change of tracked data (anything audited
    except accounts, tokens and logins): the key of caches of derived views such as the
    live team and the dashboard. Bumped by :func:`bump_data_version` at commit. Read
    on the session's connection (Core): every web request reads it, and the ORM's
    execution path costs several times the query itself; nothing pending needs a flush
    first, since only a commit changes the version."""
    return session.connection().execute(_TRACKED_VERSION).scalar() or 0


def versions(session: Session) -> tuple[int, int]:
    """``(tracked data version, accounts version)`` in one query. The accounts version
    changes with every committed change of users, their teams or API tokens."""
    found = {scope: n for scope, n in session.connection().execute(_ALL_VERSIONS)}
    return found.get(TRACKED, 0), found.get(ACCOUNTS, 0)


_TRACKED_VERSION = select(DataVersion.n).where(DataVersion.scope == TRACKED)
_ALL_VERSIONS = select(DataVersion.scope, DataVersion.n)


def bump_data_version(session: Session) -> None:
    """Before commit: increment the version of each scope the transaction changed (the
    row lock is held only from here to the commit)."""
    for scope in sorted(session.info.pop(_CHANGED, ())):  # one order: no deadlock
        done = session.execute(
            update(DataVersion).where(DataVersion.scope == scope).values(n=DataVersion.n + 1)
        )
        if not getattr(done, "rowcount", 1):  # the rows are made by the migration
            session.add(DataVersion(scope=scope, n=1))
            session.flush()


def forget_data_change(session: Session) -> None:
    """After rollback: the recorded change was not committed."""
    session.info.pop(_CHANGED, None)
