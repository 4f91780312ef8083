"""The exam API (issue 11): programmes, attempts timed by the server, answers saved one at
a time, results, practical sign-off, item analysis and time accommodations.

Answer keys never leave the server while an attempt runs: an attempt in progress shows
the questions and options only; a finished one shows the score, pass/fail and per-domain
feedback (not which option was right)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, HTTPException, Request
from fastapi.responses import Response

from gputeam import store
from gputeam.errors import InputError, Problem
from gputeam.i18n import N_, _
from gputeam.web import exam_access as ex
from gputeam.web import services
from gputeam.web.api.common import API_PREFIX, ERRORS, PathId, actor
from gputeam.web.auth import require
from gputeam.web.permissions import Perm, Principal

router = APIRouter(prefix=API_PREFIX, tags=["exams"], responses=ERRORS)
Sitter = Annotated[Principal, Depends(require(Perm.EXAMS_SIT))]
Manager = Annotated[Principal, Depends(require(Perm.EXAMS_MANAGE))]
CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {
        "description": "Time is up (deadline plus grace), the attempt is finished, or (problem type "
        "urn:gputeam:problem:stale) the sequence number sent is not the question's: an answer "
        "was saved since; nothing was stored"
    }
}
STALE: dict[int | str, dict[str, Any]] = {
    409: {
        "description": "Out of date (problem type urn:gputeam:problem:stale): an answer was saved "
        "since the sequence numbers sent; the attempt stays open"
    }
}

#: Examples shown in the OpenAPI document: the shape only, never a key.
ATTEMPT_EXAMPLE = {
    "id": 7,
    "programme": "acme-l2",
    "state": "in_progress",
    "remaining_seconds": 1740,
    "questions": [
        {
            "id": "networking-003",
            "type": "multichoice",
            "text": "Which …?",
            "multiple": False,
            "options": [{"index": 0, "text": "…"}],
        }
    ],
    "answers": {"networking-003": 1},
    "sequences": {"networking-003": 1},
}


@router.get("/programmes", summary="Internal certification programmes you may sit, with your attempts")
def list_programmes(request: Request, who: Sitter) -> list[dict[str, Any]]:
    """The programmes you may sit (their blueprint's teams), those you have attempts in, and
    those you manage or assess."""
    with request.app.state.db.session() as s:
        return ex.listed(request, s, who)


@router.post(
    "/programmes/{code}/attempts",
    status_code=201,
    summary="Start an attempt (or resume the one in progress)",
    responses={201: {"content": {"application/json": {"example": ATTEMPT_EXAMPLE}}}},
)
def start(request: Request, code: str, who: Sitter) -> dict[str, Any]:
    with request.app.state.db.session() as s:
        a = ex.start(request, s, who, code, actor(who))
        ex.keep_session(request, s, who, a)
        return store.attempt_view(s, a, now=ex.now(request))


@router.get(
    "/attempts/{attempt_id}",
    summary="An attempt: the questions while it runs, the result once finished",
    responses={200: {"content": {"application/json": {"example": ATTEMPT_EXAMPLE}}}},
)
def get_attempt(request: Request, attempt_id: PathId, who: Sitter) -> dict[str, Any]:
    with request.app.state.db.session() as s:
        a = ex.attempt(request, s, who, attempt_id)
        ex.keep_session(request, s, who, a)
        return store.attempt_view(s, a, now=ex.now(request))


@router.put(
    "/attempts/{attempt_id}/answers/{item_id}",
    responses=CONFLICT,
    summary="Save one answer; returns the seconds left",
)
def save(
    request: Request,
    attempt_id: PathId,
    item_id: str,
    who: Sitter,
    body: Annotated[
        dict[str, Any],
        Body(examples=[{"value": 2, "sequence": 0}, {"value": [0, 3], "sequence": 1}, {"value": "DCGM"}]),
    ],
) -> dict[str, Any]:
    """`value`: an option index (single choice), a list of indices (multiple response),
    `true`/`false`, text (short answer, essay), a number as text (numerical), or a list of
    the chosen option per sub-question (matching); `null` clears the answer.
    `sequence`: the question's number in the attempt's `sequences` (or in the reply to
    your last save of it); when an answer was saved since, the save is refused (409,
    `urn:gputeam:problem:stale`) and nothing is stored. Without it the save is not
    checked. The reply holds the question's `sequence` now."""
    if "value" not in body:
        raise InputError([Problem(path="value", message=N_("required"))])
    sequence = _whole(body.get("sequence"), "sequence")
    try:  # the store refuses (404) an attempt that is not the caller's own
        with request.app.state.db.session() as s:
            saved = store.save_answers(
                s,
                attempt_id,
                ex.candidate(who),
                {item_id: body["value"]},
                now=ex.now(request),
                sequences=None if sequence is None else {item_id: sequence},
            )
    except store.TooLate as exc:
        raise HTTPException(409, exc.problems[0].localised().message) from None
    return {
        "saved": True,
        "item_id": item_id,
        "sequence": saved.sequences[item_id],
        "remaining_seconds": saved.remaining_seconds,
    }


def _whole(value: Any, path: str) -> int | None:
    """A sequence number sent (None: not sent), or a 422 problem."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(
            [
                Problem(
                    path=path,
                    message=N_("not a whole number"),
                    found=repr(value),
                    expected=N_("a whole number"),
                )
            ]
        )
    return value


def _sequences(body: dict[str, Any] | None) -> dict[str, int] | None:
    if not body or body.get("sequences") is None:
        return None
    given = body["sequences"]
    if not isinstance(given, dict):
        raise InputError(
            [Problem(path="sequences", message=N_("required"), expected="{item id: sequence number}")]
        )
    out: dict[str, int] = {}
    for item, value in given.items():
        number = _whole(value, f"sequences.{item}")
        if number is not None:
            out[str(item)] = number
    return out


@router.post(
    "/attempts/{attempt_id}/finish", responses=STALE, summary="Hand the attempt in; returns the result"
)
def finish(
    request: Request,
    attempt_id: PathId,
    who: Sitter,
    body: Annotated[
        dict[str, Any] | None, Body(examples=[{"sequences": {"networking-003": 1, "storage-001": 0}}])
    ] = None,
) -> dict[str, Any]:
    """`sequences` (optional): the attempt's `sequences` as you last saw them; when an
    answer was saved since (another tab or client), the hand-in is refused (409,
    `urn:gputeam:problem:stale`) and the attempt stays open. Without it the attempt is
    handed in as it is stored."""
    sequences = _sequences(body)
    with request.app.state.db.session() as s:
        a = ex.attempt(request, s, who, attempt_id, own=True)
        store.finish_attempt(
            s,
            a.id,
            now=ex.now(request),
            catalog=services.catalog(request.app),
            issuer=ex.issuer(request),
            actor=actor(who),
            sequences=sequences,
        )
        return store.attempt_view(s, a, now=ex.now(request))


@router.get("/people/{person_id}/attempts", summary="A person's exam attempts")
def person_attempts(request: Request, person_id: PathId, who: Sitter) -> list[dict[str, Any]]:
    with request.app.state.db.session() as s:
        p = services.person_in_org(request.app, s, person_id)
        if p is None or not (who.person_id == p.id or who.may_read_person(p.id, p.team_id)):
            raise HTTPException(404, "no such person, or not one you may see")
        ex.finish_overdue(request, s, person_id=p.id)
        rows = store.person_attempts(s, p.id)
        return [
            {
                "id": a.id,
                "programme": code,
                "number": a.number,
                "state": a.state,
                "started_at": a.started_at.isoformat(),
                "finished_at": a.finished_at.isoformat() if a.finished_at else None,
                "score": a.score,
                "passed": a.passed,
            }
            for a, code in rows
        ]


@router.get("/programmes/{code}/items", summary="Item analysis of the programme's bank")
def items(request: Request, code: str, who: Manager) -> dict[str, Any]:
    with request.app.state.db.session() as s:
        prog = ex.programme(request, s, code)
        ex.finish_overdue(request, s, programme_id=prog.id)
        return store.item_statistics(s, prog.id)


@router.get("/programmes/{code}/items.csv", summary="Item analysis as CSV")
def items_csv(request: Request, code: str, who: Manager) -> Response:
    with request.app.state.db.session() as s:
        prog = ex.programme(request, s, code)
        ex.finish_overdue(request, s, programme_id=prog.id)
        stats = store.item_statistics(s, prog.id)
    return Response(
        store.item_statistics_csv(stats),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="items-{code}.csv"'},
    )


@router.post(
    "/programmes/{code}/items/{item_id}/retire", summary="Retire an item: new attempts stop drawing it"
)
def retire(request: Request, code: str, item_id: str, who: Manager) -> dict[str, Any]:
    with request.app.state.db.session() as s:
        store.retire_item(
            s, ex.programme(request, s, code).id, item_id, now=ex.now(request), actor=actor(who)
        )
    return {"item_id": item_id, "retired": True}


@router.put(
    "/people/{person_id}/exam-time",
    summary="Set a person's exam time multiplier (an accommodation: 1.25 gives 25 % more time)",
)
def exam_time(
    request: Request,
    person_id: PathId,
    who: Manager,
    body: Annotated[
        dict[str, Any], Body(examples=[{"time_multiplier": 1.25, "note": "agreed accommodation"}])
    ],
) -> dict[str, Any]:
    value = body.get("time_multiplier")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(
            [Problem(path="time_multiplier", message=N_("required"), expected=N_("a number from 1 to 4"))]
        )
    with request.app.state.db.session() as s:
        p = services.person_in_org(request.app, s, person_id)
        if p is None or not who.may_change_person(p.id, p.team_id):
            raise HTTPException(404, "no such person, or not one you may change")
        row = store.set_time_multiplier(
            s, p.id, float(value), note=str(body.get("note") or ""), actor=actor(who)
        )
        return {"person_id": p.id, "time_multiplier": row.time_multiplier, "note": row.note}


def _practical(request: Request, s: Any, who: Principal, code: str, person_id: int) -> tuple[Any, Any]:
    """The programme and the candidate, for an assessor of the programme; 404 for anyone
    else, as on the practical page (the store refuses an assessor's own practical)."""
    prog = ex.programme(request, s, code)
    p = services.person_in_org(request.app, s, person_id)
    if p is None or not ex.assesses(request, s, who, prog, p):
        raise HTTPException(404, _("no such person, or not one you may assess"))
    return prog, p


@router.put("/programmes/{code}/practicals/{person_id}", summary="Grade a practical (assessor)")
def grade(
    request: Request,
    code: str,
    person_id: PathId,
    who: Sitter,
    body: Annotated[
        dict[str, Any],
        Body(
            examples=[
                {"grades": {"drain": {"grade": "met", "evidence": "https://wiki.example/lab/42", "note": ""}}}
            ]
        ),
    ],
) -> dict[str, Any]:
    grades = body.get("grades")
    if not isinstance(grades, dict):
        raise InputError(
            [Problem(path="grades", message=N_("required"), expected="{criterion: {grade, evidence, note}}")]
        )
    with request.app.state.db.session() as s:
        prog, p = _practical(request, s, who, code, person_id)
        row = store.grade_practical(
            s, prog, p.id, grades, assessor=who.username, role=who.role, assessor_person_id=who.person_id
        )
        return {"id": row.id, "grades": row.grades, "outcome": row.outcome}


@router.post(
    "/programmes/{code}/practicals/{person_id}/sign-off",
    summary="Sign a practical off (assessor; never the candidate)",
)
def sign(request: Request, code: str, person_id: PathId, who: Sitter) -> dict[str, Any]:
    with request.app.state.db.session() as s:
        prog, p = _practical(request, s, who, code, person_id)
        row = store.sign_off(
            s,
            prog,
            p.id,
            assessor=who.username,
            role=who.role,
            assessor_person_id=who.person_id,
            now=ex.now(request),
            catalog=services.catalog(request.app),
            issuer=ex.issuer(request),
        )
        return {
            "id": row.id,
            "grades": row.grades,
            "outcome": row.outcome,
            "signed_at": row.signed_at.isoformat() if row.signed_at else None,
        }
