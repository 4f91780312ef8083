"""Essay marking (issue 11 §3): an attempt whose form holds essays is finished *awaiting
marking*; an assessor marks each essay with a mark and a comment.

- Who marks: the same people as a practical (admins, managers, the programme's named
  assessors), **never the candidate** (:func:`gputeam.store.practical.check_assessor`).
- A mark is a number from 0 to the question's mark (decimals allowed); it counts as that
  fraction of the question, in the score, the domain scores and item analysis. A mark may
  be changed while other essays of the attempt still wait; once every essay is marked the
  result is final: pass or fail is decided then, and a pass (with the practical, where the
  programme has one) records the certification and issues the credential.
- Every mark is audited (``mark`` on ``exam_attempt``, with the mark before).

The marks live in the attempt's result (``result["manual"]``, by item id), next to what
they change.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from gputeam.catalog import Catalog
from gputeam.i18n import N_
from gputeam.store import audit
from gputeam.store.errors import not_found, refused
from gputeam.store.exams import Issuer, _form_rows, _locked, mark_result, saved_answers
from gputeam.store.practical import check_assessor, may_assess, record_pass
from gputeam.store.programmes import question_of
from gputeam.store.schema import Person
from gputeam.store.schema_exams import ExamAttempt, Programme

COMMENT_LONGEST = 5000


def awaiting_marking(session: Session, programme_id: int) -> Sequence[ExamAttempt]:
    """The programme's finished attempts with essays still to mark, oldest first."""
    return session.scalars(
        select(ExamAttempt)
        .where(
            ExamAttempt.programme_id == programme_id,
            ExamAttempt.state == "finished",
            ExamAttempt.passed.is_(None),
        )
        .order_by(ExamAttempt.finished_at, ExamAttempt.id)
    ).all()


def essays(session: Session, attempt: ExamAttempt) -> list[dict[str, Any]]:
    """The attempt's essays for an assessor: position on the form, item id, the question,
    the candidate's answer, the question's mark, and the mark and comment given so far."""
    manual = (attempt.result or {}).get("manual", {})
    answers = saved_answers(session, attempt.id)
    out = []
    for n, row in enumerate(_form_rows(session, attempt), start=1):
        q = question_of(row)
        if q.qtype != "essay":
            continue
        given = manual.get(q.item_id)
        out.append(
            {
                "number": n,
                "item_id": q.item_id,
                "name": q.name,
                "text": q.text.text,
                "format": q.text.format,
                "answer": answers.get(q.item_id) or "",
                "max_mark": q.default_mark,
                "mark": None if given is None else given["mark"],
                "comment": "" if given is None else given["comment"],
                "marked_by": None if given is None else given["by"],
            }
        )
    return out


def essay_feedback(session: Session, attempt: ExamAttempt) -> list[dict[str, Any]]:
    """What the candidate sees of their marked essays: position, mark, maximum, comment."""
    return [
        {"number": e["number"], "mark": e["mark"], "max_mark": e["max_mark"], "comment": e["comment"]}
        for e in essays(session, attempt)
        if e["mark"] is not None
    ]


def _mark_value(value: Any, top: float, item_id: str) -> float:
    if isinstance(value, str):
        try:
            value = float(value.strip().replace(",", "."))
        except ValueError:
            raise refused(
                f"marks.{item_id}", N_("not a number"), value, N_("0 to {top}").format(top=f"{top:g}")
            ) from None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise refused(f"marks.{item_id}", N_("not a number"), value, N_("0 to {top}").format(top=f"{top:g}"))
    if not 0 <= value <= top:
        raise refused(f"marks.{item_id}", N_("out of range"), value, N_("0 to {top}").format(top=f"{top:g}"))
    return float(value)


def mark_essay(
    session: Session,
    attempt_id: int,
    item_id: str,
    mark: Any,
    comment: str = "",
    *,
    marker: str,
    role: str,
    marker_person_id: int | None,
    now: datetime,
    catalog: Catalog,
    issuer: Issuer | None = None,
    org_id: int | None = None,
) -> ExamAttempt:
    """Give one essay of a finished attempt its mark and comment (see the module
    docstring); the attempt, re-marked. ``org_id``: the attempt must be of this
    organisation (404 otherwise)."""
    attempt = _locked(session, attempt_id)
    programme = None if attempt is None else session.get(Programme, attempt.programme_id)
    if attempt is None or programme is None or (org_id is not None and programme.org_id != org_id):
        raise not_found("attempt", attempt_id)
    check_assessor(session, programme, attempt.person_id, role, marker_person_id, "essay")
    if attempt.state != "finished":
        raise refused("attempt", N_("the attempt is still running; essays are marked once it is handed in"))
    result = dict(attempt.result or {})
    if not result.get("pending"):
        raise refused("attempt", N_("every essay of this attempt is marked; the result is final"))
    question = next(
        (q for q in (question_of(r) for r in _form_rows(session, attempt)) if q.item_id == item_id), None
    )
    if question is None or question.qtype != "essay":
        raise refused("item", N_("not an essay of this attempt"), item_id)
    value = _mark_value(mark, question.default_mark, item_id)
    text = str(comment or "").strip()
    if len(text) > COMMENT_LONGEST:
        raise refused(f"comments.{item_id}", N_("longer than {n} characters").format(n=COMMENT_LONGEST))
    manual: dict[str, Any] = dict(result.get("manual") or {})
    before = manual.get(item_id)
    manual[item_id] = {
        "mark": value,
        "fraction": value / question.default_mark if question.default_mark else 0.0,
        "comment": text,
        "by": marker,
        "at": now.isoformat(),
    }
    fresh = mark_result(session, attempt, programme, catalog, {k: v["fraction"] for k, v in manual.items()})
    attempt.result = {**fresh, "manual": manual}
    attempt.score = fresh["score"]
    attempt.passed = None if fresh["pending"] else fresh["passed"]
    session.flush()
    audit.record(
        session,
        marker,
        "mark",
        "exam_attempt",
        attempt.id,
        None
        if before is None
        else {"item_id": item_id, "mark": before["mark"], "comment": before["comment"]},
        {
            "person_id": attempt.person_id,
            "programme": programme.code,
            "item_id": item_id,
            "mark": value,
            "comment": text,
            "pending": len(fresh["pending"]),
            "passed": attempt.passed,
        },
    )
    if attempt.passed:
        record_pass(
            session, programme, attempt.person_id, now=now, catalog=catalog, issuer=issuer, actor=marker
        )
    return attempt


def attempt_to_mark(
    session: Session, org_id: int, attempt_id: int, *, role: str, person_id: int | None
) -> tuple[ExamAttempt, Programme]:
    """The attempt and its programme, for a caller who may mark it: of this organisation,
    an assessor of the programme, not the candidate. :class:`NotFound` otherwise (an id
    says nothing about whether it exists)."""
    attempt = session.get(ExamAttempt, attempt_id)
    programme = None if attempt is None else session.get(Programme, attempt.programme_id)
    if (
        attempt is None
        or programme is None
        or programme.org_id != org_id
        or attempt.person_id == person_id
        or not may_assess(session, programme, role, person_id)
    ):
        raise not_found("attempt", attempt_id)
    return attempt, programme


def marking_queue(
    session: Session, programme: Programme, *, role: str, person_id: int | None
) -> list[dict[str, Any]]:
    """The programme's attempts awaiting marking that this caller may mark (none of their
    own; nothing when they are not an assessor): attempt, candidate, when handed in, essays
    marked and to mark."""
    if not may_assess(session, programme, role, person_id):
        return []
    out = []
    for a in awaiting_marking(session, programme.id):
        if a.person_id == person_id:
            continue
        person = session.get(Person, a.person_id)
        result = a.result or {}
        out.append(
            {
                "attempt": a.id,
                "number": a.number,
                "person_id": a.person_id,
                "candidate": person.name if person is not None else str(a.person_id),
                "finished_at": a.finished_at.isoformat() if a.finished_at else None,
                "to_mark": len(result.get("pending", [])),
                "marked": len(result.get("manual", {})),
            }
        )
    return out
