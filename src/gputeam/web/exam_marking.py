"""Essay marking pages and API (issue 11 §3): the attempts of a programme awaiting marking,
and the marking form of one attempt. Assessors only (admins, managers, the programme's
named assessors), never the candidate: anyone else gets 404. The rules live in
:mod:`gputeam.store` (``mark_essay``); this module reads forms and renders."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from gputeam import store
from gputeam.errors import InputError, Problem
from gputeam.i18n import N_, _
from gputeam.web import exam_access as ex
from gputeam.web import notices, services
from gputeam.web.api.common import API_PREFIX, ERRORS, PathId
from gputeam.web.auth import require
from gputeam.web.forms import PostedForm
from gputeam.web.permissions import Perm, Principal
from gputeam.web.render import render

pages = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)
api = APIRouter(prefix=API_PREFIX, tags=["exams"], responses=ERRORS)
Sitter = Annotated[Principal, Depends(require(Perm.EXAMS_SIT))]


def _queue(request: Request, s: Any, code: str, who: Principal) -> tuple[Any, list[dict[str, Any]]]:
    prog = ex.programme(request, s, code)
    if not store.may_assess(s, prog, who.role, who.person_id):
        raise HTTPException(404, _("no such programme, or not one you mark"))
    queue = store.marking_queue(s, prog, role=who.role, person_id=who.person_id)
    return prog, [q for q in queue if _assesses(request, s, who, prog, q["person_id"])]


def _assesses(request: Request, s: Any, who: Principal, prog: Any, person_id: int) -> bool:
    return ex.assesses(request, s, who, prog, services.person_in_org(request.app, s, person_id))


def _practicals(request: Request, s: Any, prog: Any, who: Principal) -> list[dict[str, Any]]:
    queue = store.practical_queue(s, prog, role=who.role, person_id=who.person_id)
    return [q for q in queue if _assesses(request, s, who, prog, q["person_id"])]


def _attempt(request: Request, s: Any, who: Principal, attempt_id: int) -> tuple[Any, Any]:
    try:
        attempt, prog = store.attempt_to_mark(
            s, services.org_id(request.app, s), attempt_id, role=who.role, person_id=who.person_id
        )
    except store.NotFound:
        raise HTTPException(404, _("no such attempt, or not one you may mark")) from None
    if not _assesses(request, s, who, prog, attempt.person_id):  # a manager: their teams'
        raise HTTPException(404, _("no such attempt, or not one you may mark"))
    return attempt, prog


def _mark(
    request: Request, s: Any, who: Principal, attempt_id: int, item: str, mark: Any, comment: Any
) -> Any:
    return store.mark_essay(
        s,
        attempt_id,
        item,
        mark,
        str(comment or ""),
        marker=who.username,
        role=who.role,
        marker_person_id=who.person_id,
        now=ex.now(request),
        catalog=services.catalog(request.app),
        issuer=ex.issuer(request),
        org_id=services.org_id(request.app, s),
    )


# ---------------------------------------------------------------- pages
@pages.get("/exams/{code}/marking")
def queue_page(request: Request, code: str, who: Sitter) -> Response:
    with request.app.state.db.session() as s:
        prog, queue = _queue(request, s, code, who)
        title = store.programme_spec(prog).name
        practicals = _practicals(request, s, prog, who)
    return render(
        request, "exam_marking_list.html", code=code, title=title, queue=queue, practicals=practicals
    )


def _marking_page(
    request: Request, who: Principal, attempt_id: int, status: int = 200, error: str | None = None
) -> Response:
    with request.app.state.db.session() as s:
        attempt, prog = _attempt(request, s, who, attempt_id)
        essays = store.essays(s, attempt)
        result = attempt.result or {}
        info = {
            "id": attempt.id,
            "number": attempt.number,
            "candidate": services.person_in_org(request.app, s, attempt.person_id).name,  # type: ignore[union-attr]
            "pending": bool(result.get("pending")),
            "passed": attempt.passed,
            "score": attempt.score,
        }
        code, title = prog.code, store.programme_spec(prog).name
    return render(
        request,
        "exam_marking.html",
        status,
        a=info,
        essays=essays,
        code=code,
        title=title,
        error=error,
    )


@pages.get("/exams/attempts/{attempt_id}/marking")
def marking_page(request: Request, attempt_id: PathId, who: Sitter) -> Response:
    return _marking_page(request, who, attempt_id)


@pages.post("/exams/attempts/{attempt_id}/marking")
def marking_submit(request: Request, attempt_id: PathId, who: Sitter, form: PostedForm) -> Response:
    try:
        with request.app.state.db.session() as s:
            attempt, _programme = _attempt(request, s, who, attempt_id)
            given = [
                (e["item_id"], form.get(f"mark:{e['item_id']}"), form.get(f"comment:{e['item_id']}"))
                for e in store.essays(s, attempt)
            ]
            given = [(item, mark, comment) for item, mark, comment in given if str(mark or "").strip()]
            if not given:
                raise InputError([Problem(path="marks", message=N_("enter a mark for at least one essay"))])
            for item, mark, comment in given:
                _mark(request, s, who, attempt_id, item, mark, comment)
    except InputError as exc:
        return _marking_page(
            request, who, attempt_id, 422, "; ".join(p.localised().message for p in exc.problems)
        )
    return notices.redirect(request, f"/exams/attempts/{attempt_id}/marking", _("Marks saved."))


# ---------------------------------------------------------------- API
@api.get("/programmes/{code}/marking", summary="Attempts awaiting the marking of their essays (assessors)")
def queue(request: Request, code: str, who: Sitter) -> list[dict[str, Any]]:
    with request.app.state.db.session() as s:
        return _queue(request, s, code, who)[1]


@api.get(
    "/attempts/{attempt_id}/essays", summary="An attempt's essays and the candidate's answers (assessors)"
)
def essays(request: Request, attempt_id: PathId, who: Sitter) -> list[dict[str, Any]]:
    with request.app.state.db.session() as s:
        attempt, _programme = _attempt(request, s, who, attempt_id)
        return store.essays(s, attempt)


@api.put(
    "/attempts/{attempt_id}/marks/{item_id}",
    summary="Mark an essay (assessors, never the candidate); the result once every essay is marked",
)
def mark(
    request: Request,
    attempt_id: PathId,
    item_id: str,
    who: Sitter,
    body: Annotated[dict[str, Any], Body(examples=[{"mark": 0.75, "comment": "Clear steps; no rollback."}])],
) -> dict[str, Any]:
    """`mark`: from 0 to the question's mark (decimals allowed); `comment`: shown to the
    candidate with their result. A mark may change while other essays of the attempt wait;
    once every essay is marked the result is final."""
    if "mark" not in body:
        raise InputError(
            [
                Problem(
                    path="mark", message=N_("required"), expected=N_("a number from 0 to the question's mark")
                )
            ]
        )
    with request.app.state.db.session() as s:
        _attempt(request, s, who, attempt_id)
        a = _mark(request, s, who, attempt_id, item_id, body["mark"], body.get("comment"))
        result = a.result or {}
        return {
            "attempt": a.id,
            "item_id": item_id,
            "pending": result.get("pending", []),
            "score": a.score,
            "passed": a.passed,
        }
