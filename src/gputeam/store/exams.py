"""Exam attempts, timed by the server (issue 11 §3).

- :func:`start_attempt` draws a form (stored seed, frozen order, least-drawn items first)
  or resumes the attempt in progress; a partial unique index keeps one attempt in progress
  per person and programme, so two parallel starts create one.
- ``deadline = start + limit × the person's time multiplier``; :func:`save_answers` stores
  answers (one row per question) and returns the seconds left; after the deadline plus
  :data:`GRACE_SECONDS` it raises :class:`TooLate` and stores nothing.
- Each stored change of an answer adds one to the question's sequence number; a save or a
  hand-in carries the numbers its page was shown with, and one from an older state of a
  question (:func:`gputeam.certify.delivery.stale_questions`) raises :class:`Stale`:
  nothing of it is stored, a hand-in leaves the attempt open. The write itself is a
  compare-and-set (``UPDATE ... WHERE sequence = <the number read>``, or an insert that
  does nothing when a row exists), so no newer answer is replaced on either engine.
- :func:`finish_attempt` marks from the saved answers, once (the row is locked);
  :func:`finalise_overdue` finishes what ran out of time (``FOR UPDATE SKIP LOCKED`` on
  PostgreSQL: several sweepers never take the same attempt); :func:`current_attempt`
  finishes an overdue attempt when it is read.
- A pass is recorded by :func:`gputeam.store.practical.record_pass`.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from gputeam.catalog import Catalog
from gputeam.certify import BlueprintError, Question, domain_counts, score_exam, select_form
from gputeam.certify.delivery import (
    ResponseError,
    choice_index,
    picked_options,
    public_question,
    read_response,
    shown_response,
    stale_questions,
)
from gputeam.certify.programme import (
    GRACE_SECONDS,
    accepts_save,
    deadline,
    next_attempt,
    remaining_seconds,
)
from gputeam.errors import InputError, Problem
from gputeam.i18n import N_
from gputeam.store import audit
from gputeam.store.answers import Stale as Stale  # re-exported: the save's refusal
from gputeam.store.answers import compare_and_set, stale_error, stored_answers
from gputeam.store.answers import saved_answers as saved_answers  # re-exported
from gputeam.store.errors import StoreError, not_found, refused
from gputeam.store.people import get_person
from gputeam.store.programmes import bank_items, programme_spec, question_of, time_multiplier
from gputeam.store.schema_exams import BankItem, ExamAttempt, Programme


class TooLate(StoreError):
    """A save after the deadline (plus the grace) or on a finished attempt (HTTP 409)."""

    kind = "conflict"


@dataclass(frozen=True)
class Saved:
    """What a save did: the seconds left, and each saved question's sequence number now
    (the numbers the page should carry from here on)."""

    remaining_seconds: int
    sequences: dict[str, int]


@dataclass(frozen=True)
class Issuer:
    """What signing a credential on a pass needs (the server's secret and public URL, and
    the organisation's did:web when credentials name their issuer by it)."""

    secret: str
    base_url: str
    did: str | None = None


def _too_late(message: str) -> TooLate:
    return TooLate([Problem(path="attempt", message=message)])


def _open(session: Session, programme_id: int, person_id: int) -> ExamAttempt | None:
    return session.scalar(
        select(ExamAttempt).where(
            ExamAttempt.programme_id == programme_id,
            ExamAttempt.person_id == person_id,
            ExamAttempt.state == "in_progress",
        )
    )


def attempts_of(session: Session, programme_id: int, person_id: int) -> Sequence[ExamAttempt]:
    return session.scalars(
        select(ExamAttempt)
        .where(ExamAttempt.programme_id == programme_id, ExamAttempt.person_id == person_id)
        .order_by(ExamAttempt.number)
    ).all()


def attempt_person(session: Session, attempt_id: int) -> int | None:
    """Whose attempt this is (a person id), or None when there is no such attempt."""
    return session.scalar(select(ExamAttempt.person_id).where(ExamAttempt.id == attempt_id))


def person_attempts(session: Session, person_id: int) -> list[tuple[ExamAttempt, str]]:
    """A person's attempts in every programme, oldest first, each with its programme code."""
    rows = session.execute(
        select(ExamAttempt, Programme.code)
        .join(Programme, Programme.id == ExamAttempt.programme_id)
        .where(ExamAttempt.person_id == person_id)
        .order_by(ExamAttempt.started_at, ExamAttempt.id)
    )
    return [(a, code) for a, code in rows]


def next_allowed(
    session: Session, programme: Programme, person_id: int, now: datetime
) -> tuple[Any, str | None]:
    """``(date, None)`` when the person may next start, or ``(None, why never)``."""
    done = [
        (a.finished_at, a.passed)  # None: awaiting marking
        for a in attempts_of(session, programme.id, person_id)
        if a.finished_at is not None
    ]
    return next_attempt(done, programme_spec(programme).blueprint, now.date())


def start_attempt(
    session: Session,
    programme: Programme,
    person_id: int,
    *,
    now: datetime,
    catalog: Catalog,
    issuer: Issuer | None = None,
    actor: str | None = None,
) -> ExamAttempt:
    """The attempt in progress, or a new one with a freshly drawn form (see the module
    docstring). An attempt in progress whose time and grace ran out is finished first
    (marked from its saved answers, as :func:`current_attempt` does), and then the rules
    for a new attempt apply. Refused when the person may not sit the exam (team, attempts,
    cooldown)."""
    spec = programme_spec(programme)
    bp = spec.blueprint
    person = get_person(session, person_id)
    if person.org_id != programme.org_id:
        raise not_found("person", person_id)
    current = _open(session, programme.id, person_id)
    if current is not None:
        if accepts_save(current.deadline, now):
            return current
        finish_attempt(session, current.id, now=now, catalog=catalog, issuer=issuer, how="timeout")
    if not bp.admits(person.team_id):
        raise refused(
            "programme", N_("{person} is not in a team that may sit this exam").format(person=person.name)
        )
    when, why = next_allowed(session, programme, person_id, now)
    if when is None:
        raise refused("attempt", N_("no further attempt: {reason}").format(reason=why))
    if when > now.date():
        raise refused(
            "attempt",
            N_("the next attempt is allowed on {date}").format(date=when.isoformat()),
            expected=N_("the end of the cooldown"),
        )
    rows = bank_items(session, programme.id, include_retired=False)
    by_item = {r.item_id: r for r in rows}
    seed = secrets.randbits(63)
    try:
        form = select_form(
            [question_of(r) for r in rows],
            domain_counts(bp.questions, bp.domain_weights),
            seed,
            {r.item_id: r.drawn for r in rows},
        )
    except BlueprintError as exc:
        raise StoreError([Problem(path="bank", message=m) for m in exc.messages]) from None
    numbers = [a.number for a in attempts_of(session, programme.id, person_id)]
    attempt = ExamAttempt(
        programme_id=programme.id,
        person_id=person_id,
        number=max(numbers, default=0) + 1,
        seed=seed,
        form=[by_item[i].id for i in form.items],
        started_at=now,
        deadline=deadline(now, bp.minutes, time_multiplier(session, person_id)),
        state="in_progress",
    )
    try:
        with session.begin_nested():
            session.add(attempt)
            session.flush()
    except IntegrityError:  # a parallel start won: resume its attempt
        current = _open(session, programme.id, person_id)
        if current is None:
            raise refused("attempt", N_("another start of this exam is in progress; reload")) from None
        return current
    # count the draws; the rows locked in one order (by id) first, so that starts drawing
    # overlapping forms wait for each other instead of deadlocking (an UPDATE locks rows in
    # the order it finds them, which differs between two statements on PostgreSQL)
    session.execute(
        select(BankItem.id).where(BankItem.id.in_(attempt.form)).order_by(BankItem.id).with_for_update()
    )
    session.execute(
        update(BankItem).where(BankItem.id.in_(attempt.form)).values(drawn=BankItem.drawn + 1, used=True)
    )
    audit.record(
        session,
        actor,
        "start",
        "exam_attempt",
        attempt.id,
        None,
        {
            "person_id": person_id,
            "programme": programme.code,
            "number": attempt.number,
            "deadline": attempt.deadline.isoformat(),
        },
    )
    return attempt


def _form_rows(session: Session, attempt: ExamAttempt) -> list[BankItem]:
    rows = {r.id: r for r in session.scalars(select(BankItem).where(BankItem.id.in_(attempt.form)))}
    return [rows[i] for i in attempt.form]


def _locked(session: Session, attempt_id: int, *, skip_locked: bool = False) -> ExamAttempt | None:
    """The attempt, locked for the rest of the transaction: ``FOR UPDATE`` on PostgreSQL;
    on SQLite (no row locks) a no-op write first takes the database's write lock, so the
    check that follows and the change after it are one step there too."""
    if session.get_bind().dialect.name == "sqlite":
        session.execute(
            update(ExamAttempt)
            .where(ExamAttempt.id == attempt_id)
            .values(state=ExamAttempt.state)
            .execution_options(synchronize_session=False)
        )
    return session.scalar(
        select(ExamAttempt)
        .where(ExamAttempt.id == attempt_id)
        .with_for_update(skip_locked=skip_locked)
        .execution_options(populate_existing=True)
    )


def save_answer(
    session: Session,
    attempt_id: int,
    person_id: int,
    item_id: str,
    value: Any,
    *,
    now: datetime,
    sequence: int | None = None,
) -> int:
    """Store the person's answer to one item (:func:`save_answers`); the seconds left."""
    seen = None if sequence is None else {item_id: sequence}
    return save_answers(
        session, attempt_id, person_id, {item_id: value}, now=now, sequences=seen
    ).remaining_seconds


def save_answers(
    session: Session,
    attempt_id: int,
    person_id: int,
    answers: Mapping[str, Any],
    *,
    now: datetime,
    sequences: Mapping[str, int] | None = None,
) -> Saved:
    """Store the person's answers (``{item id: value}``; None or "" clears one), all or
    none. ``sequences`` holds the sequence numbers the page was shown with (an item
    missing there: not checked). :class:`TooLate` (nothing stored) after the deadline plus
    the grace or once the attempt is finished; :class:`Stale` (nothing stored) when one of
    them comes from an older state of its question than the one stored; a refusal naming
    the item for a value that does not fit its question."""
    attempt = _locked(session, attempt_id)
    if attempt is None or attempt.person_id != person_id:
        raise not_found("attempt", attempt_id)
    if attempt.state != "in_progress":
        raise _too_late(N_("the attempt is finished; the answer was not saved"))
    if not accepts_save(attempt.deadline, now):
        raise _too_late(N_("time is up; the answer was not saved"))
    form = set(attempt.form)
    responses: dict[str, Any] = {}
    for item_id, value in answers.items():
        # the versions of this item (a few), then the one the form holds: no 60-item IN list
        versions = session.execute(
            select(BankItem.id, BankItem.content_hash).where(
                BankItem.programme_id == attempt.programme_id, BankItem.item_id == item_id
            )
        ).all()
        row = next((v for v in versions if v.id in form), None)
        if row is None:
            raise refused("item", N_("not a question of this attempt"), item_id)
        try:
            responses[item_id] = read_response(
                _question(session, row.id, row.content_hash), value, attempt.seed
            )
        except ResponseError as exc:
            raise refused(f"answers.{item_id}", str(exc), value) from None
    stored = stored_answers(session, attempt.id, list(responses))
    seen = sequences or {}
    current = {item: seq for item, (seq, _r) in stored.items()}
    changed = {
        item: (item not in stored and response is not None)
        or (item in stored and stored[item][1] != response)
        for item, response in responses.items()
    }
    stale = stale_questions({item: (seen.get(item), changed[item]) for item in responses}, current)
    if stale:
        raise stale_error(stale)
    out: dict[str, int] = {}
    for item, response in responses.items():
        before = current.get(item, 0)
        if not changed[item]:
            out[item] = before
            continue
        if not compare_and_set(session, attempt.id, item, before, response, now):
            # another writer changed it between the read and the write (the attempt's lock
            # makes this unreachable today; the statement keeps it true without the lock)
            raise stale_error([item])
        out[item] = before + 1
    return Saved(remaining_seconds(attempt.deadline, now), out)


#: Parsed questions of bank rows drawn into forms, by row id and content hash: a drawn row
#: is never changed (an edit makes a new version), and the hash keeps a row id of another
#: database (or of a database emptied and filled again) from finding a stale question.
#: Bounded.
_QUESTIONS: dict[tuple[int, str], Any] = {}
_QUESTIONS_MAX = 20_000


def _question(session: Session, row_id: int, content_hash: str) -> Any:
    q = _QUESTIONS.get((row_id, content_hash))
    if q is None:
        data = session.execute(select(BankItem.question).where(BankItem.id == row_id)).scalar_one()
        q = Question.model_validate(data)
        if len(_QUESTIONS) >= _QUESTIONS_MAX:
            _QUESTIONS.clear()
        _QUESTIONS[(row_id, content_hash)] = q
    return q


def mark_result(
    session: Session,
    attempt: ExamAttempt,
    programme: Programme,
    catalog: Catalog,
    manual: dict[str, float] | None = None,
) -> dict[str, Any]:
    """The attempt's result from its saved answers and ``manual``, the fractions an assessor
    gave its essays (by item id): score, pass, per-domain feedback, the essays still to
    mark, and the compact per-item scores item analysis reads (an essay's mark counts
    once given)."""
    manual = manual or {}
    spec = programme_spec(programme)
    rows = _form_rows(session, attempt)
    questions = [question_of(r) for r in rows]
    answers = saved_answers(session, attempt.id)
    result = score_exam(
        questions,
        answers,
        spec.blueprint.pass_mark,
        spec.blueprint.domain_minimum,
        manual=manual,
        domain_names={d: x.name for d, x in catalog.domains.items()},
    )
    from gputeam.certify import score_question

    fractions: list[float | None] = []
    choices: list[int] = []
    picks: list[list[int]] = []
    for q in questions:
        fraction = manual.get(q.item_id) if q.qtype == "essay" else score_question(q, answers.get(q.item_id))
        fractions.append(fraction)
        choices.append(choice_index(q, answers.get(q.item_id)))
        # the options of the questions that take several (multiple response, matching)
        picks.append([] if choices[-1] >= 0 else picked_options(q, answers.get(q.item_id)))
    from gputeam.store.item_stats import encode_picks, encode_rows, encode_scores

    packed_fractions, packed_choices = encode_scores(fractions, choices)
    return {
        "score": result.score,
        "marks": result.marks,
        "max_marks": result.max_marks,
        "pass_mark": result.pass_mark,
        "passed": result.passed and not result.pending,
        "pending": list(result.pending),
        "domains": [
            {
                "domain": d.domain,
                "name": catalog.domains[d.domain].name if d.domain in catalog.domains else d.domain,
                "score": d.score,
                "minimum": d.minimum,
                "below_minimum": d.below_minimum,
                "feedback": d.feedback,
            }
            for d in result.domains
        ],
        # per item, for item analysis (compact: 10,000 attempts are read in a second)
        "item_rows": encode_rows([r.id for r in rows]),
        "fractions": packed_fractions,
        "choices": packed_choices,
        "picks": encode_picks(picks),
    }


def _finalise(
    session: Session,
    attempt: ExamAttempt,
    *,
    now: datetime,
    how: str,
    catalog: Catalog,
    issuer: Issuer | None,
    actor: str | None,
) -> None:
    programme = session.get(Programme, attempt.programme_id)
    assert programme is not None
    if how == "timeout":  # it ended when its time did, whenever a read or the sweep saw it
        now = min(now, attempt.deadline)
    result = mark_result(session, attempt, programme, catalog)
    attempt.state, attempt.finished_at, attempt.finished_how = "finished", now, how
    attempt.score, attempt.passed = result["score"], None if result["pending"] else result["passed"]
    attempt.result = result
    session.flush()
    audit.record(
        session,
        actor,
        "finish",
        "exam_attempt",
        attempt.id,
        None,
        {
            "person_id": attempt.person_id,
            "programme": programme.code,
            "how": how,
            "score": round(result["score"], 4),
            "passed": attempt.passed,
        },
    )
    if attempt.passed:
        from gputeam.store.practical import record_pass

        record_pass(
            session, programme, attempt.person_id, now=now, catalog=catalog, issuer=issuer, actor=actor
        )


def finish_attempt(
    session: Session,
    attempt_id: int,
    *,
    now: datetime,
    catalog: Catalog,
    issuer: Issuer | None = None,
    how: str = "submitted",
    actor: str | None = None,
    sequences: Mapping[str, int] | None = None,
) -> ExamAttempt:
    """Mark the attempt from its saved answers (idempotent: a finished attempt is returned
    as it is). ``sequences``: the numbers of the page handing it in (every question of the
    form; one missing: 0, never answered); a hand-in from a page that showed an older
    state of any question than the one stored raises :class:`Stale` and the attempt stays
    open (while time and the grace last: after them it is finished anyway)."""
    attempt = _locked(session, attempt_id)
    if attempt is None:
        raise not_found("attempt", attempt_id)
    if sequences is not None and attempt.state == "in_progress" and accepts_save(attempt.deadline, now):
        items = [r.item_id for r in _form_rows(session, attempt)]
        current = {item: seq for item, (seq, _r) in stored_answers(session, attempt.id, items).items()}
        # handing in what the page showed: every change since makes it stale
        stale = stale_questions({item: (sequences.get(item, 0), True) for item in items}, current)
        if stale:
            raise stale_error(stale)
    if attempt.state == "in_progress":
        _finalise(session, attempt, now=now, how=how, catalog=catalog, issuer=issuer, actor=actor)
    return attempt


def current_attempt(
    session: Session, attempt_id: int, *, now: datetime, catalog: Catalog, issuer: Issuer | None = None
) -> ExamAttempt:
    """The attempt, finished first when its time (and the grace) ran out."""
    attempt = session.get(ExamAttempt, attempt_id)
    if attempt is None:
        raise not_found("attempt", attempt_id)
    if attempt.state == "in_progress" and not accepts_save(attempt.deadline, now):
        return finish_attempt(session, attempt_id, now=now, catalog=catalog, issuer=issuer, how="timeout")
    return attempt


@dataclass(frozen=True)
class Swept:
    """What one :func:`finalise_overdue` call did: the attempts it finished, and those it
    could not finish (attempt id, why), which stay in progress for the next sweep."""

    finished: list[int]
    failed: list[tuple[int, str]]


def finalise_overdue(
    session: Session,
    *,
    now: datetime,
    catalog: Catalog,
    issuer: Issuer | None = None,
    limit: int | None = 100,
    skip: Collection[int] = (),
    programme_id: int | None = None,
    person_id: int | None = None,
) -> Swept:
    """Finish up to ``limit`` (None: all) attempts whose time and grace ran out, of one
    programme and/or person when given (a read finishes those it is about to report), not
    those in ``skip`` (e.g. the ones that failed earlier in this sweep). Rows another
    sweeper holds are skipped (``SKIP LOCKED``), so each attempt is finished once. Each
    attempt is finished in its own savepoint: one the store refuses (say, a pass granting a
    certification the catalog lacks) is rolled back alone and reported, and the others are
    finished."""
    cutoff = now - timedelta(seconds=GRACE_SECONDS)
    query = select(ExamAttempt).where(ExamAttempt.state == "in_progress", ExamAttempt.deadline < cutoff)
    if programme_id is not None:
        query = query.where(ExamAttempt.programme_id == programme_id)
    if person_id is not None:
        query = query.where(ExamAttempt.person_id == person_id)
    if skip:
        query = query.where(ExamAttempt.id.not_in(list(skip)))
    rows = session.scalars(
        query.order_by(ExamAttempt.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
        .execution_options(populate_existing=True)
    ).all()
    done: list[int] = []
    failed: list[tuple[int, str]] = []
    for attempt in rows:
        attempt_id = attempt.id
        if session.get_bind().dialect.name == "sqlite":
            _locked(session, attempt_id)  # see _locked; PostgreSQL locked the rows above
        if attempt.state != "in_progress":
            continue
        try:
            with session.begin_nested():
                _finalise(
                    session, attempt, now=now, how="timeout", catalog=catalog, issuer=issuer, actor="sweep"
                )
        except InputError as exc:
            failed.append((attempt_id, str(exc).replace("\n", "; ")))
        else:
            done.append(attempt_id)
    return Swept(done, failed)


def attempt_view(session: Session, attempt: ExamAttempt, *, now: datetime) -> dict[str, Any]:
    """What the candidate may see: the questions without keys, their saved answers, the
    seconds left; once finished, the result (per-domain feedback) without the items' marks."""
    programme = session.get(Programme, attempt.programme_id)
    assert programme is not None
    out: dict[str, Any] = {
        "id": attempt.id,
        "programme": programme.code,
        "name": programme_spec(programme).name,
        "number": attempt.number,
        "state": attempt.state,
        "started_at": attempt.started_at.isoformat(),
        "deadline": attempt.deadline.isoformat(),
        "remaining_seconds": remaining_seconds(attempt.deadline, now)
        if attempt.state == "in_progress"
        else 0,
    }
    if attempt.state == "in_progress":
        questions = [question_of(r) for r in _form_rows(session, attempt)]
        out["questions"] = [public_question(q, attempt.seed) for q in questions]
        stored = stored_answers(session, attempt.id, [q.item_id for q in questions])
        saved = {item: response for item, (_seq, response) in stored.items()}
        # the numbers this view was made with: a save or hand-in sends them back
        out["sequences"] = {q.item_id: stored[q.item_id][0] if q.item_id in stored else 0 for q in questions}
        out["answers"] = {
            q.item_id: shown_response(q, saved[q.item_id], attempt.seed)
            for q in questions
            if q.item_id in saved
        }
        return out
    result = {
        k: v
        for k, v in (attempt.result or {}).items()
        if k not in ("item_rows", "fractions", "choices", "picks", "manual")
    }
    when, why = next_allowed(session, programme, attempt.person_id, now)
    from gputeam.store.marking import essay_feedback

    out.update(
        finished_at=attempt.finished_at.isoformat() if attempt.finished_at else None,
        finished_how=attempt.finished_how,
        result=result,
        essays=essay_feedback(session, attempt) if (attempt.result or {}).get("manual") else [],
        next_attempt=when.isoformat() if when else None,
        next_attempt_note=why,
    )
    return out
