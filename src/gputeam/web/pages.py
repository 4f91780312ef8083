"""Server-rendered pages. Each page renders the same dict the API returns
(:mod:`gputeam.web.services`); HTMX swaps fragments where it helps, and every page and form
works without JavaScript."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gputeam import store
from gputeam.errors import InputError
from gputeam.i18n import _, current
from gputeam.web import notices, services
from gputeam.web.api.common import PathId, actor
from gputeam.web.auth import (
    LoginRefused,
    check_csrf,
    form_csrf,
    login,
    require,
)
from gputeam.web.auth import logout as end_session
from gputeam.web.burnup import burnup_svg
from gputeam.web.gantt import Bar, gantt_svg
from gputeam.web.lists import NO_ROLE, NO_SITE, PERSON_STATUSES, Chosen, chosen, visible
from gputeam.web.pages_people import recordable
from gputeam.web.pages_teams import learning_targets, parse_day
from gputeam.web.permissions import Perm, Principal
from gputeam.web.render import render, today
from gputeam.web.security import Session

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

Viewer = Annotated[Principal, Depends(require(Perm.DASHBOARD))]
Reader = Annotated[Principal, Depends(require(Perm.PEOPLE_READ))]
Recorder = Annotated[Principal, Depends(require(Perm.RECORDS_WRITE))]
PlanReader = Annotated[Principal, Depends(require(Perm.PLANS_READ))]
Admin = Annotated[Principal, Depends(require(Perm.USERS))]


def _safe_next(target: str | None) -> str:
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


# ---------------------------------------------------------------- login
@router.get("/login")
def login_form(request: Request, next: str = "/") -> Response:
    return render(request, "login.html", next=_safe_next(next))


@router.post("/login")
def login_submit(
    request: Request,
    username: Annotated[str, Form(max_length=100)],
    password: Annotated[str, Form(max_length=1000)],
    csrf_field: Annotated[str | None, Depends(form_csrf)] = None,
    next: Annotated[str, Form()] = "/",
) -> Response:
    check_csrf(request, csrf_field)
    try:
        session = login(request, username, password)
    except LoginRefused as exc:
        resp = render(
            request, "login.html", exc.status, error=str(exc), username=username, next=_safe_next(next)
        )
        if exc.retry_after:
            resp.headers["Retry-After"] = str(exc.retry_after)
        return resp
    request.state.session = session
    request.state.session_changed = True
    return RedirectResponse(_safe_next(next), status_code=303)


@router.post("/logout")
def logout(request: Request, csrf_field: Annotated[str | None, Depends(form_csrf)] = None) -> Response:
    check_csrf(request, csrf_field)
    end_session(request)
    request.state.session = Session.anonymous()
    request.state.session_changed = True
    return RedirectResponse("/login", status_code=303)


# ---------------------------------------------------------------- dashboard
@router.get("/")
def dashboard_page(request: Request, who: Viewer) -> Response:
    from markupsafe import Markup

    app = request.app
    day = today(request)
    # callers who see every name (admins) or none (viewers) all get the same content:
    # rendered once per data version; managers and engineers see some names
    sees = "all" if who.sees_everyone() else None if who.can(Perm.PEOPLE_READ) else "none"
    with app.state.db.read_session() as s:

        def build() -> str:
            d = services.dashboard_for(app, s, day, who)
            return str(app.state.templates.get_template("dashboard_body.html").render(d=d, app=app))

        body = (
            build()
            if sees is None
            else services.cached_text(
                app, ("dashboard body", sees, services.data_version(s), day, current()), build
            )
        )
    return render(request, "dashboard.html", who=who, body=Markup(body))


# ---------------------------------------------------------------- people
@router.get("/people")
def people_page(
    request: Request,
    who: Reader,
    ch: Annotated[Chosen, Depends(chosen)],
    page: Annotated[int, Query(ge=1, le=10000)] = 1,
) -> Response:
    """People the caller may read, filtered and sorted (:mod:`gputeam.web.lists`);
    inactive people with ``status=inactive`` or ``all``."""
    per_page = 100
    where = visible(who, ch.filter())
    sort = ch.sort_by(store.PEOPLE_SORTS)
    with request.app.state.db.session() as s:
        org = services.org_id(request.app, s)
        rows = (
            []
            if where is None
            else list(
                store.list_people(
                    s,
                    org,
                    where=where,
                    sort=sort,
                    descending=ch.descending,
                    limit=per_page + 1,
                    offset=(page - 1) * per_page,
                )
            )
        )
        teams = {t.id: t.name for t in store.list_teams(s, org)}
        sites = store.list_sites(s, org)
    cat = services.catalog(request.app)
    more = len(rows) > per_page
    context: dict[str, Any] = {
        "who": who,
        "people": rows[:per_page],
        "teams": teams,
        "search": ch.search,
        "page": page,
        "more": more,
        "ch": ch,
        "roles": {r.id: r.name for r in cat.roles.values()},
        "no_role": NO_ROLE,
        "levels": sorted(cat.levels),
        "sites": sites,
        "no_site": NO_SITE,
        "person_statuses": PERSON_STATUSES,
        "sorts": store.PEOPLE_SORTS,
        "live_rows": {"path": "/people", "target": "people-rows"},
    }
    if request.headers.get("HX-Request") and request.headers.get("HX-Target") == "people-rows":
        return render(request, "people_rows.html", **context)
    return render(request, "people.html", **context)


def _visible(request: Request, who: Principal, s: Any, person_id: int) -> Any:
    p = services.person_in_org(request.app, s, person_id)
    if p is None or not who.may_read_person(p.id, p.team_id):
        raise HTTPException(404, _("no such person, or not one you may see"))
    return p


@router.get("/people/{person_id}")
def person_page(request: Request, person_id: PathId, who: Reader) -> Response:
    return person_response(request, who, person_id)


def person_response(
    request: Request, who: Principal, person_id: int, status: int = 200, **extra: Any
) -> Response:
    """The person page (``extra``: a refused form's values and errors)."""
    with request.app.state.db.session() as s:
        p = _visible(request, who, s, person_id)
        d = services.person_detail(request.app, s, p, today(request))
        team = store.get_team(s, p.team_id).name if p.team_id else None
        can_edit = who.may_change_records(p.id, p.team_id)
        can_change = who.may_change_person(p.id, p.team_id)
        history = [
            {
                "domain": r.domain,
                "proficiency": r.proficiency,
                "rated_at": r.rated_at,
                "rated_by": r.rated_by or "",
                "note": r.note or "",
            }
            for r in store.skill_history(s, p.id)
        ]
        curve = store.burnup(s, p.org_id, today(request), person_id=p.id)
        pending = [store.approval_json(a) for a in store.list_approvals(s, p.org_id, person_id=p.id)]
    bars = [
        Bar(
            i["title"],
            date.fromisoformat(i["start"]),
            date.fromisoformat(i["due"]),
            i["kind"],
            1.0 if i["status"] == "done" else 0.0,
        )
        for i in d["roadmap"]
        if i["status"] != "cancelled"
    ]
    cat = services.catalog(request.app)
    forms = {
        k: extra.get(k, {})
        for k in (
            "skill_form",
            "skill_errors",
            "cert_form",
            "cert_errors",
            "enrol_form",
            "enrol_errors",
            "hours_form",
            "hours_errors",
        )
    }
    return render(
        request,
        "person.html",
        status,
        who=who,
        p=d,
        team=team,
        can_edit=can_edit,
        can_change=can_change,
        history=history,
        pending=pending,
        own_records=who.needs_approval(p.id),
        may_approve=who.may_approve(p.id, p.team_id),
        **forms,
        gantt=gantt_svg(bars, today(request), _("Roadmap of {name}").format(name=d["name"])),
        burnup=curve,
        chart=burnup_svg(curve, _("Roadmap of {name}: planned and done").format(name=d["name"])),
        targets=learning_targets(request),
        today=today(request).isoformat(),
        domains=cat.domains,
        certs=cat.certifications,
        courses=cat.courses,
    )


def waits() -> str:
    """What a notice adds when a record the person made for themself waits for approval."""
    return _("It waits for approval: it counts once an admin or a manager of your team approves it.")


def _back(request: Request, person_id: int, flash: str) -> Response:
    return notices.redirect(request, f"/people/{person_id}", flash)


@router.post("/people/{person_id}/certifications")
def add_certification(
    request: Request,
    person_id: PathId,
    who: Recorder,
    cert_id: Annotated[str, Form(max_length=100)],
    valid_from: Annotated[str, Form(max_length=10)],
    valid_until: Annotated[str, Form(max_length=10)] = "",
    evidence: Annotated[str, Form(max_length=2000)] = "",
    evidence_url: Annotated[str, Form(max_length=2000)] = "",
) -> Response:
    """Record a certification held; one the person records for themself waits for
    approval (:func:`gputeam.tracker.reach.needs_approval`)."""
    errors: dict[str, str] = {}
    pending = False
    start, fault = parse_day(valid_from, _("Earned"))
    if fault:
        errors["valid_from"] = fault
    until, fault = parse_day(valid_until, _("Valid until")) if valid_until.strip() else (None, None)
    if fault:
        errors["valid_until"] = fault
    if cert_id not in services.catalog(request.app).certifications:
        errors["cert_id"] = _("Choose a certification from the list.")
    with request.app.state.db.session() as s:
        p = recordable(request, who, s, person_id)
    if not errors and start is not None:
        try:
            with request.app.state.db.session() as s:
                pending = who.needs_approval(p.id)
                record = store.request_certification if pending else store.add_certification
                extra = {"evidence_url": evidence_url} if pending else {}
                record(
                    s,
                    p.id,
                    cert_id,
                    start,
                    until,
                    evidence=evidence,
                    catalog=services.catalog(request.app),
                    actor=actor(who),
                    **extra,
                )
        except InputError as exc:
            path = exc.problems[0].path or ""
            field = (
                "evidence_url" if path == "evidence_url" else "valid_until" if "valid" in path else "cert_id"
            )
            errors[field] = "; ".join(pr.localised().message for pr in exc.problems)
        except store.WriteConflict:
            errors["valid_from"] = _("This certification is already recorded from this date.")
    if errors:
        return person_response(
            request,
            who,
            person_id,
            422,
            cert_errors=errors,
            cert_form={
                "cert_id": cert_id,
                "valid_from": valid_from,
                "valid_until": valid_until,
                "evidence": evidence,
                "evidence_url": evidence_url,
            },
        )
    if pending:
        return _back(
            request, person_id, _("Certification {id} sent for approval.").format(id=cert_id) + " " + waits()
        )
    return _back(request, person_id, _("Certification {id} recorded.").format(id=cert_id))


@router.post("/roadmap-items/{item_id}/done")
def roadmap_done(request: Request, item_id: PathId, who: Recorder) -> Response:
    with request.app.state.db.session() as s:
        owner = store.record_person(s, "roadmap item", item_id)
        if owner is None:
            raise HTTPException(404, _("no such roadmap item"))
        p = _visible(request, who, s, owner)
        if not who.may_change_records(p.id, p.team_id):
            raise HTTPException(403, _("you may not change this person's records"))
        store.complete_roadmap_item(s, item_id, today(request), actor=actor(who))
        pid = p.id
    return _back(request, pid, _("Marked done."))


# ---------------------------------------------------------------- catalog
@router.get("/catalog")
def catalog_page(
    request: Request, who: Viewer, section: Annotated[str, Query(max_length=40)] = "certifications"
) -> Response:
    cat = services.catalog(request.app)
    sections = ["certifications", "courses", "paths", "roles", "domains", "templates", "strategies", "levels"]
    if section not in sections:
        section = "certifications"
    entries = getattr(cat, section)
    return render(
        request,
        "catalog.html",
        who=who,
        cat=cat,
        sections=sections,
        section=section,
        entries=list(entries.values()),
    )
