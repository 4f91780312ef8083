"""Team pages: the list (admins create teams), and a team's page with its people, their
learning progress and burn-up (plan against actual), and the forms a team lead uses:
rename, archive or restore, move people in, enrol the team in a course or learning path,
adopt the saved plan's roadmaps for the team's people.

Admins act on every team, managers on their own (another team answers 404, as its
people do). A refused form is shown again with the message beside the field, the values
kept, status 422, and nothing written. Every change goes through :mod:`gputeam.store`,
which audits it."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from gputeam import store
from gputeam.errors import InputError
from gputeam.i18n import _
from gputeam.web import notices, services
from gputeam.web.api.common import PathId, actor
from gputeam.web.api.teams import manageable_team, movable_people, readable_team
from gputeam.web.auth import require
from gputeam.web.burnup import burnup_svg
from gputeam.web.permissions import Perm, Principal
from gputeam.web.render import render, today

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

Manager = Annotated[Principal, Depends(require(Perm.TEAMS))]
Admin = Annotated[Principal, Depends(require(Perm.USERS))]
Reader = Annotated[Principal, Depends(require(Perm.PEOPLE_READ))]


async def _form(request: Request) -> dict[str, Any]:
    """The posted form: single values as text, ``person_id`` (repeated) as a list. Read on
    the event loop as a dependency, so the endpoints stay plain functions that FastAPI
    runs in its thread pool (see :func:`gputeam.web.forms.posted_form`)."""
    data = await request.form()
    out: dict[str, Any] = {k: v for k, v in data.items() if isinstance(v, str) and len(v) <= 1000}
    out["person_id"] = [v for v in data.getlist("person_id") if isinstance(v, str)][:1000]
    return out


TeamForm = Annotated[dict[str, Any], Depends(_form)]


def messages(exc: InputError) -> str:
    return "; ".join(p.localised().message + (f" ({p.found})" if p.found else "") for p in exc.problems)


def parse_day(text: str, label: str) -> tuple[date | None, str | None]:
    """A date typed in a form (YYYY-MM-DD, as date inputs send it), or the message."""
    try:
        day = date.fromisoformat(text.strip())
    except ValueError:
        return None, _("{label}: enter a date as YYYY-MM-DD.").format(label=label)
    if not date(1950, 1, 1) <= day <= date(2199, 12, 31):
        return None, _("{label}: between 1950 and 2199.").format(label=label)
    return day, None


def learning_targets(request: Request) -> dict[str, dict[str, str]]:
    """The enrol form's choices, by group (``paths``, ``courses``): ``path:<id>`` and
    ``course:<id>`` to names."""
    cat = services.catalog(request.app)
    return {
        "paths": {f"path:{p.id}": p.name for p in cat.paths.values()},
        "courses": {f"course:{c.id}": c.name for c in cat.courses.values()},
    }


def parse_target(request: Request, value: str) -> tuple[list[str], str | None]:
    kind, _sep, ident = value.partition(":")
    try:
        return store.courses_of(
            services.catalog(request.app),
            ident if kind == "course" else None,
            ident if kind == "path" else None,
        ), None
    except InputError:
        return [], _("Choose a learning path or a course from the list.")


# ---------------------------------------------------------------- list and create
@router.get("/teams")
def teams_page(request: Request, who: Manager) -> Response:
    return _list(request, who)


def _list(
    request: Request,
    who: Principal,
    status: int = 200,
    errors: dict[str, str] | None = None,
    form: dict[str, Any] | None = None,
) -> Response:
    with request.app.state.db.session() as s:
        org = services.org_id(request.app, s)
        heads = store.team_head_counts(s, org)
        learning = store.learning_summaries(s, org, today(request), by="team")
        rows = [
            {
                "id": t.id,
                "name": t.name,
                "archived": t.archived_at is not None,
                "people": heads.get(t.id, 0),
                "learning": learning.get(t.id) or store.empty_learning(),
            }
            for t in store.list_teams(s, org)
            if who.may_team(t.id)
        ]
    return render(request, "teams.html", status, who=who, teams=rows, errors=errors or {}, form=form or {})


@router.post("/teams")
def create_team(request: Request, who: Admin, form: TeamForm) -> Response:
    try:
        with request.app.state.db.session() as s:
            t = store.create_team(s, services.org_id(request.app, s), form.get("name", ""), actor=actor(who))
            tid = t.id
    except InputError as exc:
        return _list(request, who, 422, {"name": messages(exc)}, form)
    return notices.redirect(request, f"/teams/{tid}", _("Team created."))


# ---------------------------------------------------------------- one team
@router.get("/teams/{team_id}")
def team_page(request: Request, team_id: PathId, who: Reader) -> Response:
    return team_response(request, who, team_id)


#: the people offered at once by the team page's "Move people into the team" list; beyond
#: them, the user finds people by name or id (at 5,000 people a list of everyone is
#: neither usable nor quick)
MOVE_CHOICES = 100


def team_response(
    request: Request,
    who: Principal,
    team_id: int,
    status: int = 200,
    errors: dict[str, str] | None = None,
    form: dict[str, Any] | None = None,
) -> Response:
    day = today(request)
    with request.app.state.db.session() as s:
        team = readable_team(request, s, who, team_id)
        org = services.org_id(request.app, s)
        people = list(store.team_members(s, org, team.id))
        each = store.learning_summaries(s, org, day, by="person", team_id=team.id)
        progress = {p.id: each.get(p.id) or store.empty_learning() for p in people}
        curve = store.burnup(s, org, day, team_id=team.id)
        candidates: list[Any] = []
        candidates_total = 0
        find = request.query_params.get("find", "").strip()[:100]
        if who.may_manage_team(team.id):
            movable = store.PeopleFilter(
                team_ids=None if who.role == "admin" else tuple(sorted(who.team_ids)),
                search=find or None,
                not_team_id=team.id,
            )
            candidates = list(store.list_people(s, org, where=movable, limit=MOVE_CHOICES, columns=True))
            candidates_total = len(candidates)
            if candidates_total == MOVE_CHOICES:
                candidates_total = store.count_people(s, org, where=movable)
        t = {
            "id": team.id,
            "name": team.name,
            "archived": team.archived_at is not None,
            "learning": store.learning_summary(s, org, day, team_id=team.id),
        }
        # the saved plan a manager may adopt for the team (its id and version)
        row = store.latest_plan_row(s, org) if who.may_manage_team(team.id) else None
        plan = {"id": row.id, "version": row.version} if row is not None else None
    return render(
        request,
        "team.html",
        status,
        who=who,
        team=t,
        people=people,
        progress=progress,
        burnup=curve,
        chart=burnup_svg(curve, _("Roadmap items of {name}: planned and done").format(name=t["name"])),
        candidates=candidates,
        candidates_total=candidates_total,
        find=find,
        can_manage=who.may_manage_team(t["id"]),
        plan=plan,
        targets=learning_targets(request),
        errors=errors or {},
        form=form or {},
        today=day.isoformat(),
    )


def _done(request: Request, team_id: int, flash: str) -> Response:
    return notices.redirect(request, f"/teams/{team_id}", flash)


@router.post("/teams/{team_id}/rename")
def rename(request: Request, team_id: PathId, who: Manager, form: TeamForm) -> Response:
    try:
        with request.app.state.db.session() as s:
            team = manageable_team(request, s, who, team_id)
            store.rename_team(s, team.org_id, team.id, form.get("name", ""), actor=actor(who))
    except InputError as exc:
        if exc.kind == "lookup":
            raise
        return team_response(request, who, team_id, 422, {"name": messages(exc)}, form)
    return _done(request, team_id, _("Team renamed."))


@router.post("/teams/{team_id}/archive")
def archive(request: Request, team_id: PathId, who: Manager) -> Response:
    return _archive(request, team_id, who, True)


@router.post("/teams/{team_id}/restore")
def restore(request: Request, team_id: PathId, who: Manager) -> Response:
    return _archive(request, team_id, who, False)


def _archive(request: Request, team_id: int, who: Principal, archived: bool) -> Response:
    try:
        with request.app.state.db.session() as s:
            team = manageable_team(request, s, who, team_id)
            store.set_team_archived(s, team.org_id, team.id, archived, actor=actor(who))
    except InputError as exc:
        if exc.kind == "lookup":
            raise
        return team_response(request, who, team_id, 422, {"archive": messages(exc)})
    return _done(request, team_id, _("Team archived.") if archived else _("Team restored."))


@router.post("/teams/{team_id}/people")
def assign(request: Request, team_id: PathId, who: Manager, form: TeamForm) -> Response:
    ids = [int(v) for v in form["person_id"] if v.isdigit() and 0 < int(v) < 2**31]
    if not ids:
        return team_response(
            request, who, team_id, 422, {"person_id": _("Choose at least one person to move.")}, form
        )
    try:
        with request.app.state.db.session() as s:
            team = manageable_team(request, s, who, team_id)
            movable_people(request, s, who, ids)
            moved = store.assign_to_team(s, team.org_id, team.id, ids, actor=actor(who))
    except HTTPException:
        raise
    except InputError as exc:
        if exc.kind == "lookup":
            raise
        return team_response(request, who, team_id, 422, {"person_id": messages(exc)}, form)
    return _done(request, team_id, _("{n} moved into the team.").format(n=len(moved)))


@router.post("/teams/{team_id}/enrol")
def enrol(request: Request, team_id: PathId, who: Manager, form: TeamForm) -> Response:
    errors: dict[str, str] = {}
    courses, fault = parse_target(request, form.get("target", ""))
    if fault:
        errors["target"] = fault
    started, fault = parse_day(form.get("started_on", ""), _("Start"))
    if fault:
        errors["started_on"] = fault
    with request.app.state.db.session() as s:
        team = manageable_team(request, s, who, team_id)  # 404/403 before any form error
        if not errors and started is not None:
            org = team.org_id
            people = [p.id for p in store.team_members(s, org, team.id, active=True)]
            result = store.enrol_people(s, org, people, courses, started, actor=actor(who))
    if errors:
        return team_response(request, who, team_id, 422, errors, form)
    return _done(
        request,
        team_id,
        (
            _("{n} enrolments added, {already} already enrolled.")
            if result["already"]
            else _("{n} enrolments added.")
        ).format(n=len(result["created"]), already=result["already"]),
    )
