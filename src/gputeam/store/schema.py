"""The database schema: SQLAlchemy 2 typed declarative models.

Only portable column types are used (JSON, not JSONB; plain strings for enumerations, checked
by constraints) so that the same schema and migrations run on SQLite and PostgreSQL.
Timestamps are stored as naive UTC and read back as aware UTC (:class:`UTCDateTime`).
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ROLES = ("admin", "manager", "engineer", "viewer")
ROADMAP_KINDS = ("course", "bootcamp", "exam", "renewal", "practice", "apprenticeship")
ROADMAP_STATUSES = ("planned", "in-progress", "done", "cancelled")


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in, aware UTC datetimes out, naive UTC in the database."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; pass an aware (UTC) datetime")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: UTCDateTime, dict[str, Any]: JSON, list[str]: JSON}


class Organisation(Base):
    __tablename__ = "organisations"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    currency: Mapped[str] = mapped_column(String(3), default="USD")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    teams: Mapped[list[Team]] = relationship(back_populates="organisation")


class Team(Base):
    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("org_id", "name", name="uq_teams_org_name"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organisations.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: set when the team is archived: kept with its history, offered no more
    archived_at: Mapped[datetime | None] = mapped_column()

    organisation: Mapped[Organisation] = relationship(back_populates="teams")


#: the unique index of people's e-mail addresses (migration 0008)
EMAIL_INDEX = "uq_people_org_email"


class Person(Base):
    """A member of the live team. ``key`` is the stable identifier (``Person.id`` in a
    scenario, the ``id`` column of a roster import), unique within an organisation."""

    __tablename__ = "people"
    __table_args__ = (
        UniqueConstraint("org_id", "key", name="uq_people_org_key"),
        # the people list's order: pages of it are read from the index, not sorted
        Index("ix_people_org_name", "org_id", "name", "id"),
        # the site filter and the list of an organisation's sites
        Index("ix_people_org_site", "org_id", "site"),
        # one person per e-mail address in an organisation, whatever its ASCII case (the
        # store compares Unicode case too before it writes; this holds against a race)
        Index(
            EMAIL_INDEX,
            "org_id",
            text("lower(email)"),
            unique=True,
            sqlite_where=text("email IS NOT NULL"),
            postgresql_where=text("email IS NOT NULL"),
        ),
        CheckConstraint("level BETWEEN 1 AND 5", name="level"),
        CheckConstraint("experience_months >= 0", name="experience"),
        CheckConstraint("weekly_study_hours BETWEEN 0 AND 40", name="study_hours"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organisations.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id", ondelete="SET NULL"), index=True)
    key: Mapped[str] = mapped_column(String(100))
    name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str | None] = mapped_column(String(320))
    title: Mapped[str] = mapped_column(String(200), default="")
    background: Mapped[str] = mapped_column(String(50), default="sysadmin")
    level: Mapped[int] = mapped_column(Integer, default=1)
    experience_months: Mapped[int] = mapped_column(Integer, default=0)
    weekly_study_hours: Mapped[float] = mapped_column(Float, default=4.0)
    salary: Mapped[float | None] = mapped_column(Float)
    role: Mapped[str | None] = mapped_column(String(100))
    #: where the person works (free text: a data-centre site, a city); None: not recorded
    site: Mapped[str | None] = mapped_column(String(100))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    team: Mapped[Team | None] = relationship()


class SkillRating(Base):
    """One rating of one skill domain; the latest ``rated_at`` per domain is current."""

    __tablename__ = "skill_ratings"
    __table_args__ = (
        CheckConstraint("proficiency BETWEEN 0 AND 4", name="proficiency"),
        Index("ix_skill_ratings_person_domain", "person_id", "domain", "rated_at"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"))
    domain: Mapped[str] = mapped_column(String(100))
    proficiency: Mapped[int] = mapped_column(Integer)
    rated_at: Mapped[datetime] = mapped_column(default=utcnow)
    rated_by: Mapped[str | None] = mapped_column(String(100))
    note: Mapped[str] = mapped_column(Text, default="")


class CertificationHeld(Base):
    __tablename__ = "certifications_held"
    __table_args__ = (
        UniqueConstraint("person_id", "cert_id", "valid_from", name="uq_cert_held"),
        CheckConstraint("valid_until IS NULL OR valid_until >= valid_from", name="validity"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"), index=True)
    cert_id: Mapped[str] = mapped_column(String(100))
    valid_from: Mapped[date] = mapped_column(Date)
    valid_until: Mapped[date | None] = mapped_column(Date, index=True)
    evidence: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    person: Mapped[Person] = relationship()


class Enrolment(Base):
    __tablename__ = "enrolments"
    __table_args__ = (CheckConstraint("hours_done >= 0", name="hours"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"), index=True)
    course_id: Mapped[str] = mapped_column(String(100))
    started_on: Mapped[date] = mapped_column(Date)
    hours_done: Mapped[float] = mapped_column(Float, default=0.0)
    completed_on: Mapped[date | None] = mapped_column(Date)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    person: Mapped[Person] = relationship()


class RoadmapItem(Base):
    __tablename__ = "roadmap_items"
    __table_args__ = (
        CheckConstraint("kind IN ('" + "','".join(ROADMAP_KINDS) + "')", name="kind"),
        CheckConstraint("status IN ('" + "','".join(ROADMAP_STATUSES) + "')", name="status"),
        CheckConstraint("due >= start", name="dates"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"), index=True)
    plan_id: Mapped[int | None] = mapped_column(ForeignKey("plans.id", ondelete="SET NULL"))
    kind: Mapped[str] = mapped_column(String(20))
    ref: Mapped[str] = mapped_column(String(100))
    title: Mapped[str] = mapped_column(String(300))
    start: Mapped[date] = mapped_column(Date)
    due: Mapped[date] = mapped_column(Date, index=True)
    status: Mapped[str] = mapped_column(String(20), default="planned")
    done_on: Mapped[date | None] = mapped_column(Date)
    hours: Mapped[float] = mapped_column(Float, default=0.0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    person: Mapped[Person] = relationship()


class SavedScenario(Base):
    """Scenario inputs saved under a name; saving again adds a new version."""

    __tablename__ = "scenarios"
    __table_args__ = (UniqueConstraint("org_id", "name", "version", name="uq_scenarios_version"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organisations.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    version: Mapped[int] = mapped_column(Integer)
    inputs: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by: Mapped[str | None] = mapped_column(String(100))


class SavedPlan(Base):
    """A plan computed from a saved scenario (plan JSON as produced by ``Plan.to_json()``);
    versioned per scenario name."""

    __tablename__ = "plans"
    __table_args__ = (UniqueConstraint("scenario_id", "version", name="uq_plans_version"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    scenario_id: Mapped[int] = mapped_column(ForeignKey("scenarios.id", ondelete="CASCADE"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    computed_for: Mapped[date] = mapped_column(Date)
    plan: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by: Mapped[str | None] = mapped_column(String(100))

    scenario: Mapped[SavedScenario] = relationship()


class TeamMembership(Base):
    __tablename__ = "team_memberships"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), primary_key=True)


class User(Base):
    __tablename__ = "users"
    __table_args__ = (CheckConstraint("role IN ('" + "','".join(ROLES) + "')", name="role"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(100), unique=True)
    password_hash: Mapped[str] = mapped_column(String(300))
    role: Mapped[str] = mapped_column(String(20))
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id", ondelete="SET NULL"))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_login_at: Mapped[datetime | None] = mapped_column()
    #: The user's language for pages and mail (one of gputeam.i18n.LANGUAGES); None: the
    #: browser's (Accept-Language, or the language switcher's cookie).
    language: Mapped[str | None] = mapped_column(String(10))

    person: Mapped[Person | None] = relationship()
    teams: Mapped[list[Team]] = relationship(secondary="team_memberships", viewonly=True)


class ApiToken(Base):
    """An API token; only the SHA-256 of the secret is stored (tokens are 256-bit random)."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    scopes: Mapped[list[str]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column()
    last_used_at: Mapped[datetime | None] = mapped_column()
    revoked_at: Mapped[datetime | None] = mapped_column()

    user: Mapped[User] = relationship()


class UserSession(Base):
    """A signed-in browser session. The cookie carries a random session id; only its
    SHA-256 is stored. A session ends server-side when ``revoked_at`` is set (logout,
    password change, deactivation, "log out everywhere") or when it expires."""

    __tablename__ = "sessions"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    sid_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(index=True)
    revoked_at: Mapped[datetime | None] = mapped_column()
    #: the last request seen on it (to ``SESSION_SEEN_RESOLUTION``; None: ``created_at``),
    #: against which the idle timeout counts
    last_seen_at: Mapped[datetime | None] = mapped_column()


class AuditEntry(Base):
    """One audited change. ``org_id`` is the organisation it concerns (derived by
    :func:`gputeam.store.audit.record`); null for accounts, sessions and logins, which
    belong to the installation."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_entity", "entity", "entity_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    org_id: Mapped[int | None] = mapped_column(ForeignKey("organisations.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    actor: Mapped[str | None] = mapped_column(String(100))
    action: Mapped[str] = mapped_column(String(50))
    entity: Mapped[str] = mapped_column(String(50))
    entity_id: Mapped[str | None] = mapped_column(String(100))
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class DataVersion(Base):
    """Counters bumped by every commit that changes what they count: scope ``tracked``
    for tracked data (people, certificates, skills, learning, plans), ``accounts`` for
    users, their teams and API tokens (logins change neither). Caches are keyed by them:
    the live team and dashboard by ``tracked``, who is calling by both. An UPDATE of the
    row serialises concurrent writers at commit, so a counter follows commit order (an
    id sequence would not: a lower id can commit after a higher one is read)."""

    __tablename__ = "data_versions"
    scope: Mapped[str] = mapped_column(String(30), primary_key=True)
    n: Mapped[int] = mapped_column(BigInteger, default=0)


class ReminderSent(Base):
    """One reminder already sent (or listed); its ``key`` makes ``remind`` idempotent."""

    __tablename__ = "reminders_sent"
    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(300), unique=True)
    recipient: Mapped[str | None] = mapped_column(String(320))
    channel: Mapped[str] = mapped_column(String(20))
    sent_at: Mapped[datetime] = mapped_column(default=utcnow)


class IssuerKey(Base):
    """An organisation's Ed25519 issuing key, sealed with the server's secret
    (:mod:`gputeam.credentials.keys`). The newest key not retired signs; retired keys stay so
    that what they signed (and their status lists) still verify."""

    __tablename__ = "issuer_keys"
    id: Mapped[int] = mapped_column(primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organisations.id", ondelete="CASCADE"), index=True)
    did: Mapped[str] = mapped_column(String(200), unique=True)
    sealed: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    retired_at: Mapped[datetime | None] = mapped_column()


class IssuedCredential(Base):
    """An Open Badges 3.0 credential issued to a person: the signed document as issued, its
    place in its key's status list, and its revocation."""

    __tablename__ = "credentials_issued"
    __table_args__ = (
        UniqueConstraint("key_id", "status_index", name="uq_credentials_issued_status"),
        CheckConstraint("status_index >= 0", name="status_index"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organisations.id", ondelete="CASCADE"), index=True)
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id", ondelete="SET NULL"), index=True)
    key_id: Mapped[int] = mapped_column(ForeignKey("issuer_keys.id", ondelete="RESTRICT"))
    uuid: Mapped[str] = mapped_column(String(36), unique=True)
    achievement_id: Mapped[str] = mapped_column(String(100))
    status_index: Mapped[int] = mapped_column(Integer)
    issued_at: Mapped[datetime] = mapped_column(default=utcnow)
    valid_until: Mapped[date | None] = mapped_column(Date)
    document: Mapped[dict[str, Any]] = mapped_column(JSON)
    revoked_at: Mapped[datetime | None] = mapped_column()
    revoked_reason: Mapped[str] = mapped_column(Text, default="")

    person: Mapped[Person | None] = relationship()


APPROVAL_KINDS = ("certification", "skill", "hours")
APPROVAL_STATUSES = ("pending", "approved", "rejected")


class Approval(Base):
    """A record a person made for themself (a certificate, a skill rating, course hours),
    waiting for a manager of their team or an admin: counted nowhere until approved, when
    the record itself is written (``record_id``). ``payload`` holds the record's values."""

    __tablename__ = "approvals"
    __table_args__ = (
        CheckConstraint("kind IN ('" + "','".join(APPROVAL_KINDS) + "')", name="kind"),
        CheckConstraint("status IN ('" + "','".join(APPROVAL_STATUSES) + "')", name="status"),
        Index("ix_approvals_status_person", "status", "person_id"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    evidence_url: Mapped[str] = mapped_column(String(2000), default="")
    status: Mapped[str] = mapped_column(String(20), default="pending")
    requested_by: Mapped[str | None] = mapped_column(String(100))
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided_by: Mapped[str | None] = mapped_column(String(100))
    decided_at: Mapped[datetime | None] = mapped_column()
    note: Mapped[str] = mapped_column(Text, default="")
    record_id: Mapped[int | None] = mapped_column(Integer)

    person: Mapped[Person] = relationship()


# the programmes' tables (issue 11) live in their own module; registered with Base here
from gputeam.store import schema_exams  # noqa: E402, F401
