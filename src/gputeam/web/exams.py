"""Exam pages (issue 11): the programmes, sitting an exam, results, item analysis and the
practical sign-off.

The exam page is one form: with JavaScript each question saves itself on change (htmx,
``?item=<id>`` saves that question only), without it the Save button saves every answer.
The timer is the server's: the page shows the seconds the server counted, each save
returns them again, and a save after the deadline plus the grace is refused (409) and not
stored. The page carries each question's sequence number (``seq:<id>``) and a save returns
the new one; a save or hand-in from an out-of-date page (another tab saved since) is
refused (409, "this page is out of date"), nothing of it is stored and the attempt stays
open. Rules live in :mod:`gputeam.store.exams`; this module reads forms and renders.
"""

from __future__ import annotations

import json
from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gputeam import store
from gputeam.certify.programme import GRACE_SECONDS
from gputeam.errors import InputError, Problem
from gputeam.i18n import N_, _
from gputeam.web import exam_access as ex
from gputeam.web import services
from gputeam.web.api.common import PathId, actor
from gputeam.web.auth import require
from gputeam.web.fmt import word
from gputeam.web.forms import PostedForm
from gputeam.web.permissions import Perm, Principal
from gputeam.web.render import render

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)
Sitter = Annotated[Principal, Depends(require(Perm.EXAMS_SIT))]
Manager = Annotated[Principal, Depends(require(Perm.EXAMS_MANAGE))]


def _list(request: Request, who: Principal, status: int = 200, error: str | None = None) -> Response:
    with request.app.state.db.session() as s:
        programmes = ex.listed(request, s, who)
    return render(request, "exams.html", status, programmes=programmes, error=error, manages=ex.manages(who))


@router.get("/exams")
def exams_page(request: Request, who: Sitter) -> Response:
    return _list(request, who)


@router.post("/exams/{code}/start")
def start(request: Request, code: str, who: Sitter) -> Response:
    try:
        with request.app.state.db.session() as s:
            a = ex.start(request, s, who, code, actor(who))
            ex.keep_session(request, s, who, a)
            attempt_id = a.id
    except InputError as exc:
        return _list(request, who, 422, "; ".join(p.localised().message for p in exc.problems))
    return RedirectResponse(f"/exams/attempts/{attempt_id}", status_code=303)


def _attempt_page(
    request: Request, who: Principal, attempt_id: int, status: int = 200, error: str | None = None
) -> Response:
    with request.app.state.db.session() as s:
        a = ex.attempt(request, s, who, attempt_id)
        ex.keep_session(request, s, who, a)  # a resume keeps this session too
        view = store.attempt_view(s, a, now=ex.now(request))
        mine = a.person_id == who.person_id
    return render(request, "exam_attempt.html", status, a=view, mine=mine, error=error, grace=GRACE_SECONDS)


@router.get("/exams/attempts/{attempt_id}")
def attempt_page(request: Request, attempt_id: PathId, who: Sitter) -> Response:
    return _attempt_page(request, who, attempt_id)


def _form_answers(form: Any, only: str | None) -> dict[str, Any]:
    """``{item_id: value}`` from the exam form: ``q:<id>`` (one value, or several for a
    multiple-response question), ``q:<id>:<n>`` for each matching sub-question, and
    ``present`` naming every question on the form (an empty one clears the answer)."""
    items = form.getlist("present")
    if only is not None:
        items = [i for i in items if i == only] or [only]
    out: dict[str, Any] = {}
    for item in items:
        subs = sorted(
            (k for k in form if k.startswith(f"q:{item}:")),
            key=lambda k: int(k.rsplit(":", 1)[1]) if k.rsplit(":", 1)[1].isdigit() else 0,
        )
        if subs:
            out[item] = [form.get(k) or None for k in subs]
            continue
        values = form.getlist(f"q:{item}")
        kind = form.get(f"kind:{item}")
        out[item] = values if kind == "multiple" else (values[0] if values else None)
    return out


def _form_sequences(form: Any, items: Any) -> dict[str, int]:
    """The sequence numbers the page was shown with (``seq:<id>``), of the questions sent;
    a question without one is not checked (a page of an older version)."""
    out: dict[str, int] = {}
    for item in items:
        value = form.get(f"seq:{item}")
        if value is None or value == "":
            continue
        if not str(value).isdigit():
            raise InputError(
                [
                    Problem(
                        path=f"seq:{item}",
                        message=N_("not a whole number"),
                        found=str(value)[:20],
                        expected=N_("a whole number"),
                    )
                ]
            )
        out[item] = int(value)
    return out


def _stale_status(attempt_id: int, exc: store.Stale) -> HTMLResponse:
    """The save status an out-of-date page shows (JavaScript keeps the page as it is: the
    candidate reloads it)."""
    text = escape(exc.problems[0].localised().message)
    link = escape(_("Reload the page"))
    return HTMLResponse(
        f'<span id="save-status" class="error" role="alert" data-stale="1">{text} '
        f'<a href="/exams/attempts/{attempt_id}">{link}</a></span>',
        status_code=409,
    )


@router.post("/exams/attempts/{attempt_id}/save")
def save(
    request: Request,
    attempt_id: PathId,
    who: Sitter,
    form: PostedForm,
    item: Annotated[str | None, Query(max_length=100)] = None,
) -> Response:
    answers = _form_answers(form, item)
    htmx = bool(request.headers.get("HX-Request"))
    left = 0
    sequences: dict[str, int] = {}
    try:
        seen = _form_sequences(form, answers)
        with request.app.state.db.session() as s:
            if not answers and store.attempt_person(s, attempt_id) != ex.candidate(who):
                raise HTTPException(404, _("no such attempt"))  # an empty save reveals nothing either
            if answers:
                done = store.save_answers(
                    s, attempt_id, ex.candidate(who), answers, now=ex.now(request), sequences=seen
                )
                left, sequences = done.remaining_seconds, done.sequences
    except store.Stale as exc:
        if htmx:
            return _stale_status(attempt_id, exc)
        return _attempt_page(request, who, attempt_id, 409, exc.problems[0].localised().message)
    except store.TooLate as exc:
        if htmx:
            text = escape(exc.problems[0].localised().message)
            return HTMLResponse(f'<span id="save-status" data-remaining="0">{text}</span>', status_code=409)
        return _attempt_page(request, who, attempt_id, 409, exc.problems[0].localised().message)
    except store.NotFound:
        raise HTTPException(404, _("no such attempt")) from None
    except InputError as exc:
        message = "; ".join(p.localised().message for p in exc.problems)
        if htmx:
            text = escape(_("Not saved: {reason}").format(reason=message))
            return HTMLResponse(f'<span id="save-status" class="error">{text}</span>', status_code=422)
        return _attempt_page(request, who, attempt_id, 422, _("Not saved: {reason}").format(reason=message))
    if htmx:
        saved = _("Saved · {minutes} min {seconds} s left").format(
            minutes=left // 60, seconds=f"{left % 60:02d}"
        )
        numbers = escape(json.dumps(sequences))  # the page's sequence numbers from here on
        return HTMLResponse(
            f'<span id="save-status" data-remaining="{left}" data-sequences="{numbers}">'
            f"{escape(saved)}</span>"
        )
    return RedirectResponse(f"/exams/attempts/{attempt_id}?saved=1", status_code=303)


@router.post("/exams/attempts/{attempt_id}/finish")
def finish(request: Request, attempt_id: PathId, who: Sitter, form: PostedForm) -> Response:
    answers = _form_answers(form, None)
    seen = _form_sequences(form, answers)
    stale: store.Stale | None = None
    with request.app.state.db.session() as s:
        a = ex.attempt(request, s, who, attempt_id, own=True)
        if a.state == "in_progress" and answers:
            try:  # the answers on the page are saved first (a browser without JavaScript)
                with s.begin_nested():
                    store.save_answers(s, a.id, a.person_id, answers, now=ex.now(request), sequences=seen)
            except store.Stale as exc:  # an out-of-date page: refused, the attempt stays open
                stale = exc
            except InputError:
                pass  # time is up, or a bad value: mark what was saved
        if stale is None:
            store.finish_attempt(
                s,
                a.id,
                now=ex.now(request),
                catalog=services.catalog(request.app),
                issuer=ex.issuer(request),
                actor=actor(who),
            )
    if stale is not None:  # the page as it is now, under the message
        return _attempt_page(request, who, attempt_id, 409, stale.problems[0].localised().message)
    return RedirectResponse(f"/exams/attempts/{attempt_id}", status_code=303)


# ---------------------------------------------------------------- item analysis
@router.get("/exams/{code}/items")
def items_page(request: Request, code: str, who: Manager, retired: str | None = None) -> Response:
    with request.app.state.db.session() as s:
        prog = ex.programme(request, s, code)
        ex.finish_overdue(request, s, programme_id=prog.id)
        stats = store.item_statistics(s, prog.id)
        name = store.programme_spec(prog).name
    return render(
        request,
        "exam_items.html",
        code=code,
        title=name,
        stats=stats,
        flash=_("Item {item} retired: new attempts no longer draw it.").format(item=retired)
        if retired
        else None,
    )


@router.get("/exams/{code}/items.csv")
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


@router.post("/exams/{code}/items/{item_id}/retire")
def retire(request: Request, code: str, item_id: str, who: Manager) -> Response:
    with request.app.state.db.session() as s:
        store.retire_item(
            s, ex.programme(request, s, code).id, item_id, now=ex.now(request), actor=actor(who)
        )
    return RedirectResponse(f"/exams/{code}/items?retired={item_id}", status_code=303)


# ---------------------------------------------------------------- practical sign-off
def _practical_page(
    request: Request,
    who: Principal,
    code: str,
    person_id: int,
    status: int = 200,
    error: str | None = None,
    flash: str | None = None,
) -> Response:
    with request.app.state.db.session() as s:
        prog = ex.programme(request, s, code)
        p = services.person_in_org(request.app, s, person_id)
        if p is None or not ex.assesses(request, s, who, prog, p):
            raise HTTPException(404, _("no such person, or not one you may assess"))
        spec = store.programme_spec(prog)
        rows = store.list_assessments(s, prog.id, p.id)
        history = [
            {
                "id": r.id,
                "assessor": r.assessor,
                "outcome": r.outcome,
                "signed_at": r.signed_at,
                "grades": r.grades,
            }
            for r in rows
        ]
    current = next((h for h in history if h["signed_at"] is None), None)
    return render(
        request,
        "exam_practical.html",
        status,
        code=code,
        title=spec.name,
        person={"id": p.id, "name": p.name},
        rubric=spec.rubric,
        current=current,
        history=history,
        error=error,
        flash=flash,
        own=who.person_id == person_id,
    )


@router.get("/exams/{code}/practical/{person_id}")
def practical_page(request: Request, code: str, person_id: PathId, who: Sitter) -> Response:
    return _practical_page(request, who, code, person_id)


@router.post("/exams/{code}/practical/{person_id}")
def practical_submit(
    request: Request, code: str, person_id: PathId, who: Sitter, form: PostedForm
) -> Response:
    try:
        with request.app.state.db.session() as s:
            prog = ex.programme(request, s, code)
            if not ex.assesses(request, s, who, prog, services.person_in_org(request.app, s, person_id)):
                raise HTTPException(404, _("no such person, or not one you may assess"))
            spec = store.programme_spec(prog)
            grades = {
                c.id: {
                    "grade": form.get(f"grade:{c.id}"),
                    "evidence": form.get(f"evidence:{c.id}"),
                    "note": form.get(f"note:{c.id}"),
                }
                for c in spec.rubric
                if form.get(f"grade:{c.id}")
            }
            kw: dict[str, Any] = {
                "assessor": who.username,
                "role": who.role,
                "assessor_person_id": who.person_id,
            }
            if grades:
                store.grade_practical(s, prog, person_id, grades, **kw)
            if form.get("action") == "sign-off":
                row = store.sign_off(
                    s,
                    prog,
                    person_id,
                    now=ex.now(request),
                    catalog=services.catalog(request.app),
                    issuer=ex.issuer(request),
                    **kw,
                )
                flash = _("Signed off: {outcome}.").format(outcome=word(row.outcome))
            else:
                flash = _("Grades saved.")
    except InputError as exc:
        return _practical_page(
            request, who, code, person_id, 422, error="; ".join(p.localised().message for p in exc.problems)
        )
    return _practical_page(request, who, code, person_id, flash=flash)
