"""The schema of internal certification programmes (issue 11): programmes, their versioned
bank items, exam attempts and their answers, practical assessments, and the people's time
accommodations. Same conventions as :mod:`gputeam.store.schema` (portable types only)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from gputeam.store.schema import Base, Person, utcnow

ATTEMPT_STATES = ("in_progress", "finished")
OUTCOMES = ("pass", "fail")


class Programme(Base):
    """An internal certification programme; ``spec`` is a :class:`gputeam.certify.programme.
    ProgrammeSpec` as JSON, ``code`` its id (unique within the organisation)."""

    __tablename__ = "programmes"
    __table_args__ = (UniqueConstraint("org_id", "code", name="uq_programmes_org_code"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    org_id: Mapped[int] = mapped_column(ForeignKey("organisations.id", ondelete="CASCADE"), index=True)
    code: Mapped[str] = mapped_column(String(100))
    spec: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class BankItem(Base):
    """One version of one question of a programme's bank. ``item_id`` is stable across
    versions (statistics are kept under it); a version used by an attempt is never changed
    (an edit adds a new version); a retired item is no longer drawn."""

    __tablename__ = "bank_items"
    __table_args__ = (
        UniqueConstraint("programme_id", "item_id", "version", name="uq_bank_items_version"),
        Index("ix_bank_items_programme_item", "programme_id", "item_id"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    programme_id: Mapped[int] = mapped_column(ForeignKey("programmes.id", ondelete="CASCADE"))
    item_id: Mapped[str] = mapped_column(String(100))
    version: Mapped[int] = mapped_column(Integer)
    content_hash: Mapped[str] = mapped_column(String(64))
    qtype: Mapped[str] = mapped_column(String(20))
    domain: Mapped[str | None] = mapped_column(String(100))
    question: Mapped[dict[str, Any]] = mapped_column(JSON)
    used: Mapped[bool] = mapped_column(Boolean, default=False)
    drawn: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    retired_at: Mapped[datetime | None] = mapped_column()


class ExamAttempt(Base):
    """One sitting: the seed and the frozen form (bank item row ids, in the order shown),
    the server's deadline, and once finished the result. At most one attempt per person and
    programme is in progress (a partial unique index)."""

    __tablename__ = "exam_attempts"
    __table_args__ = (
        CheckConstraint("state IN ('" + "','".join(ATTEMPT_STATES) + "')", name="state"),
        UniqueConstraint("programme_id", "person_id", "number", name="uq_exam_attempts_number"),
        Index(
            "uq_exam_attempts_open",
            "programme_id",
            "person_id",
            unique=True,
            sqlite_where=text("state = 'in_progress'"),
            postgresql_where=text("state = 'in_progress'"),
        ),
        Index("ix_exam_attempts_state_deadline", "state", "deadline"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    programme_id: Mapped[int] = mapped_column(ForeignKey("programmes.id", ondelete="CASCADE"))
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    form: Mapped[list[int]] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column()
    deadline: Mapped[datetime] = mapped_column()
    state: Mapped[str] = mapped_column(String(20), default="in_progress")
    finished_at: Mapped[datetime | None] = mapped_column()
    finished_how: Mapped[str | None] = mapped_column(String(20))
    score: Mapped[float | None] = mapped_column(Float)
    passed: Mapped[bool | None] = mapped_column(Boolean)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    person: Mapped[Person] = relationship()


class ExamAnswer(Base):
    """The latest saved response to one item of an attempt (one row per item: a save is
    an upsert, so concurrent saves of different items never lose each other).
    ``sequence`` counts the stored changes of the answer (1 after the first; Moodle's
    per-question sequence number): a page carries the numbers it was shown with, and a
    change from an older page is refused (:func:`gputeam.certify.delivery.out_of_sequence`)."""

    __tablename__ = "exam_answers"
    attempt_id: Mapped[int] = mapped_column(
        ForeignKey("exam_attempts.id", ondelete="CASCADE"), primary_key=True
    )
    item_id: Mapped[str] = mapped_column(String(100), primary_key=True)
    response: Mapped[Any] = mapped_column(JSON, nullable=True)
    saved_at: Mapped[datetime] = mapped_column()
    sequence: Mapped[int] = mapped_column(Integer, default=1, server_default=text("1"))


class PracticalAssessment(Base):
    """A practical (lab) assessment of a candidate: per-criterion grades with evidence,
    the assessor, and the sign-off."""

    __tablename__ = "practical_assessments"
    __table_args__ = (
        CheckConstraint("outcome IS NULL OR outcome IN ('" + "','".join(OUTCOMES) + "')", name="outcome"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    programme_id: Mapped[int] = mapped_column(ForeignKey("programmes.id", ondelete="CASCADE"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"), index=True)
    assessor: Mapped[str] = mapped_column(String(100))
    grades: Mapped[dict[str, Any]] = mapped_column(JSON)
    outcome: Mapped[str | None] = mapped_column(String(10))
    signed_at: Mapped[datetime | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Accommodation(Base):
    """A person's extra exam time: the time limit is multiplied by ``time_multiplier``."""

    __tablename__ = "exam_accommodations"
    __table_args__ = (CheckConstraint("time_multiplier BETWEEN 1 AND 4", name="multiplier"),)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"), primary_key=True)
    time_multiplier: Mapped[float] = mapped_column(Float, default=1.0)
    note: Mapped[str] = mapped_column(Text, default="")
    set_by: Mapped[str | None] = mapped_column(String(100))
    set_at: Mapped[datetime] = mapped_column(default=utcnow)
