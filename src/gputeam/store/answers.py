"""The saved answers of exam attempts: one row per question, each with its sequence number
(the stored changes of the answer, Moodle's per-question sequence number), read and written
here. A change is a compare-and-set: it is stored only while the answer's number is the
one read (:func:`compare_and_set`), so no newer answer is replaced on either engine.
What makes a submission stale is :func:`gputeam.certify.delivery.stale_questions`; the
saves themselves (the attempt locked, the time checked) are :mod:`gputeam.store.exams`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session

from gputeam.errors import Problem
from gputeam.i18n import N_
from gputeam.store.errors import StoreError
from gputeam.store.schema_exams import ExamAnswer

#: What a candidate is told when a save or hand-in came from an out-of-date page.
STALE_MESSAGE = N_(
    "this page is out of date: answers were saved from another tab or window since it was "
    "loaded, and nothing was saved from it; reload the page"
)


class Stale(StoreError):
    """A save or hand-in from a page shown with an older state of a question than the one
    stored (:func:`gputeam.certify.delivery.out_of_sequence`): nothing was stored, the
    attempt stays open (HTTP 409). One problem per stale question (``answers.<item id>``)."""

    kind = "stale"

    @property
    def items(self) -> list[str]:
        return [p.path.removeprefix("answers.") for p in self.problems]


def stale_error(items: Sequence[str]) -> Stale:
    return Stale([Problem(path=f"answers.{i}", message=STALE_MESSAGE) for i in items])


def stored_answers(session: Session, attempt_id: int, items: Sequence[str]) -> dict[str, tuple[int, Any]]:
    """``{item: (sequence, response)}`` of the stored answers among ``items``."""
    if not items:
        return {}
    if len(items) == 1:  # a save on change: one statement built once (see _STATEMENTS)
        rows = session.execute(_read_one_statement(), {"p_attempt": attempt_id, "p_item": items[0]})
    else:
        table: Any = ExamAnswer.__table__
        rows = session.execute(
            select(table.c.item_id, table.c.sequence, table.c.response).where(
                table.c.attempt_id == attempt_id, table.c.item_id.in_(list(items))
            )
        )
    return {r.item_id: (r.sequence, r.response) for r in rows}


def _read_one_statement() -> Any:
    stmt = _STATEMENTS.get("read")
    if stmt is None:
        table: Any = ExamAnswer.__table__
        stmt = select(table.c.item_id, table.c.sequence, table.c.response).where(
            table.c.attempt_id == bindparam("p_attempt"), table.c.item_id == bindparam("p_item")
        )
        _STATEMENTS["read"] = stmt
    return stmt


def compare_and_set(
    session: Session, attempt_id: int, item_id: str, before: int, response: Any, now: datetime
) -> bool:
    """Store ``response`` as the answer's change number ``before + 1`` if its number is
    still ``before`` (0: no row yet); whether it was stored. One statement: an UPDATE that
    matches the number read, or an INSERT that does nothing when a row appeared (both
    engines: ``ON CONFLICT DO NOTHING``, ``RETURNING``)."""
    values = {"attempt_id": attempt_id, "item_id": item_id, "response": response, "saved_at": now}
    dialect = session.get_bind().dialect.name
    if before == 0:
        result: Any = session.execute(_insert_statement(dialect), {**values, "sequence": 1})
    else:
        result = session.execute(
            _update_statement(),
            {
                "p_attempt": attempt_id,
                "p_item": item_id,
                "p_response": response,
                "p_saved_at": now,
                "p_before": before,
                "p_after": before + 1,
            },
        )
    return result.first() is not None  # RETURNING: a row when stored (rowcount is -1 on psycopg)


#: The save's statements, built once (per dialect for the insert) with their values as
#: parameters (building them per save was a tenth of a save's CPU time), so SQLAlchemy's
#: compiled cache serves every save.
_STATEMENTS: dict[str, Any] = {}


def _insert_statement(dialect: str) -> Any:
    stmt = _STATEMENTS.get(dialect)
    if stmt is None:
        table: Any = ExamAnswer.__table__
        if dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            stmt = pg_insert(table)
        else:
            from sqlalchemy.dialects.sqlite import insert as sqlite_insert

            stmt = sqlite_insert(table)
        stmt = stmt.on_conflict_do_nothing(index_elements=["attempt_id", "item_id"]).returning(
            table.c.sequence
        )
        _STATEMENTS[dialect] = stmt
    return stmt


def _update_statement() -> Any:
    stmt = _STATEMENTS.get("update")
    if stmt is None:
        table: Any = ExamAnswer.__table__
        stmt = (
            update(table)
            .where(
                table.c.attempt_id == bindparam("p_attempt"),
                table.c.item_id == bindparam("p_item"),
                table.c.sequence == bindparam("p_before"),
            )
            .values(
                response=bindparam("p_response", type_=table.c.response.type),
                saved_at=bindparam("p_saved_at", type_=table.c.saved_at.type),
                sequence=bindparam("p_after"),
            )
            .returning(table.c.sequence)
        )
        _STATEMENTS["update"] = stmt
    return stmt


def saved_answers(session: Session, attempt_id: int) -> dict[str, Any]:
    return {
        a.item_id: a.response
        for a in session.scalars(select(ExamAnswer).where(ExamAnswer.attempt_id == attempt_id))
    }
