"""Learning from the person page: enrol the person in a course or a learning path (all its
courses), record hours, mark an enrolment done (which marks the person's roadmap items for
the course done: :func:`gputeam.store.record_hours`). Admins, the person's managers and the
engineer on their own record. Adopting a saved plan's roadmaps: admins for the whole
organisation, from the plan page; admins and a team's managers for that team's people,
from the team page. A refused form is shown again on the person page with the
message beside the field and the values kept (422); nothing is written."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from gputeam import store
from gputeam.errors import InputError
from gputeam.i18n import _, ngettext
from gputeam.store import BadCell
from gputeam.store import parse_number as any_number
from gputeam.web import notices, services
from gputeam.web.api.common import MAX_ID, PathId, actor
from gputeam.web.api.teams import manageable_team
from gputeam.web.auth import require
from gputeam.web.pages_people import recordable
from gputeam.web.pages_teams import parse_day, parse_target
from gputeam.web.permissions import Perm, Principal
from gputeam.web.render import today

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

Recorder = Annotated[Principal, Depends(require(Perm.RECORDS_WRITE))]
MAX_HOURS = 10000


def _enrolment(request: Request, who: Principal, s: Any, enrolment_id: int) -> Any:
    e = store.find_enrolment(s, enrolment_id)
    if e is None:
        raise HTTPException(404, _("no such enrolment"))
    recordable(request, who, s, e.person_id)
    return e


def parse_hours(text: str) -> tuple[float | None, str | None]:
    """Hours typed in a form, in any locale (the importer's parser), or the message."""
    try:
        hours = any_number(text.strip(), None)
    except BadCell as exc:
        return None, _("Hours: {reason} (expected {expected}).").format(
            reason=exc.reason, expected=exc.expected
        )
    if not 0 <= hours <= MAX_HOURS:
        return None, _("Hours: between 0 and {most}.").format(most=MAX_HOURS)
    return hours, None


def _back(request: Request, person_id: int, flash: str, anchor: str = "courses") -> Response:
    return notices.redirect(request, f"/people/{person_id}#{anchor}", flash)


@router.post("/people/{person_id}/enrol")
def enrol(
    request: Request,
    person_id: PathId,
    who: Recorder,
    target: Annotated[str, Form(max_length=200)] = "",
    started_on: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    from gputeam.web.pages import person_response

    errors: dict[str, str] = {}
    courses, fault = parse_target(request, target)
    if fault:
        errors["target"] = fault
    day, fault = parse_day(started_on, _("Start"))
    if fault:
        errors["started_on"] = fault
    with request.app.state.db.session() as s:
        p = recordable(request, who, s, person_id)
        if not errors and day is not None:
            result = store.enrol_people(s, p.org_id, [p.id], courses, day, actor=actor(who))
    if errors:
        return person_response(
            request,
            who,
            person_id,
            422,
            enrol_errors=errors,
            enrol_form={"target": target, "started_on": started_on},
        )
    made = len(result["created"])
    return _back(
        request,
        person_id,
        ngettext("Enrolled in {n} course", "Enrolled in {n} courses", made).format(n=made)
        + (_("; {n} already open.").format(n=result["already"]) if result["already"] else "."),
    )


@router.post("/enrolments/{enrolment_id}/hours")
def enrolment_hours(
    request: Request,
    enrolment_id: PathId,
    who: Recorder,
    hours_done: Annotated[str, Form(max_length=30)] = "",
    evidence_url: Annotated[str, Form(max_length=2000)] = "",
) -> Response:
    """Record an enrolment's hours (a total, within the course's bound); the person's own
    hours wait for approval."""
    from gputeam.web.pages import person_response, waits

    hours, fault = parse_hours(hours_done)
    with request.app.state.db.session() as s:
        e = _enrolment(request, who, s, enrolment_id)
        pid = e.person_id
        pending = who.needs_approval(pid)
    if hours is not None:
        try:
            with request.app.state.db.session() as s:
                catalog = services.catalog(request.app)
                if pending:
                    store.request_hours(
                        s, enrolment_id, hours, evidence_url=evidence_url, catalog=catalog, actor=actor(who)
                    )
                else:
                    store.record_hours(s, enrolment_id, hours, actor=actor(who), catalog=catalog)
        except InputError as exc:
            fault = "; ".join(p.localised().message for p in exc.problems)
    if fault:
        return person_response(
            request, who, pid, 422, hours_errors={enrolment_id: fault}, hours_form={enrolment_id: hours_done}
        )
    if pending:
        return _back(request, pid, _("Hours sent for approval.") + " " + waits())
    return _back(request, pid, _("Hours recorded."))


@router.post("/enrolments/{enrolment_id}/done")
def enrolment_done(request: Request, enrolment_id: PathId, who: Recorder) -> Response:
    """Mark the course done (its roadmap items with it); the person's own completion waits
    for approval."""
    from gputeam.web.pages import waits

    with request.app.state.db.session() as s:
        e = _enrolment(request, who, s, enrolment_id)
        pid = e.person_id
        day = max(today(request), e.started_on)
        if who.needs_approval(pid):
            store.request_hours(s, e.id, None, completed_on=day, actor=actor(who))
            return _back(request, pid, _("Course completion sent for approval.") + " " + waits())
        store.complete_enrolment(s, e.id, day, actor=actor(who))
    return _back(request, pid, _("Course done; its roadmap items are marked done."))


def adopted(got: dict[str, Any]) -> str:
    """What an adoption did, as a sentence (the counts of
    :func:`gputeam.store.adopt_saved_plan`, for the organisation or for a team)."""
    parts = [_("{n} roadmap items added").format(n=got["created"])]
    if got["already"]:
        parts.append(_("{n} already on people's roadmaps").format(n=got["already"]))
    if got.get("hires"):
        parts.append(_("{n} planned hires left for when they join").format(n=got["hires"]))
    if got.get("unknown"):
        parts.append(_("not tracked here: {ids}").format(ids=", ".join(got["unknown"][:5])))
    if got.get("outside"):
        parts.append(_("{n} roadmaps of people outside the team left alone").format(n=got["outside"]))
    return "; ".join(parts) + "."


@router.post("/plans/{plan_id}/adopt")
def adopt_plan(
    request: Request, plan_id: PathId, who: Annotated[Principal, Depends(require(Perm.PLANS_RUN))]
) -> Response:
    """Adopt a saved plan's roadmaps (admin): idempotent, audited; back to the plan page
    saying what was added. Managers adopt it for their own teams (:func:`adopt_for_team`)."""
    if who.role != "admin":
        raise HTTPException(
            403,
            _(
                "only admins adopt a plan for the whole organisation; a team's manager adopts "
                "it for their own team on the team's page"
            ),
        )
    with request.app.state.db.session() as s:
        got = store.adopt_saved_plan(s, services.org_id(request.app, s), plan_id, actor=actor(who))
    return notices.redirect(request, "/plan#adopt", adopted(got))


@router.post("/teams/{team_id}/adopt")
def adopt_for_team(
    request: Request,
    team_id: PathId,
    who: Annotated[Principal, Depends(require(Perm.TEAMS))],
    plan_id: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    """Adopt the saved plan ``plan_id`` (the one the team page showed) for the team's
    people only: admins and the team's managers; idempotent, audited; back to the team
    page saying what was added."""
    with request.app.state.db.session() as s:
        team = manageable_team(request, s, who, team_id)
        if not (plan_id.isascii() and plan_id.isdigit() and 0 < int(plan_id) <= MAX_ID):
            raise HTTPException(404, _("no such plan"))
        got = store.adopt_saved_plan(s, team.org_id, int(plan_id), team_id=team.id, actor=actor(who))
    return notices.redirect(request, f"/teams/{team_id}#adopt", adopted(got))
