"""Person pages that change data: create and edit a person (admin; a manager within their
teams), rate a skill (admin, the person's managers, the engineer on their own record).
The person form has the fields the API sets, except ``active`` and skills (rated on the
person page).

Forms are validated here and by the store; a refused form is shown again with the errors
next to the fields, status 422, and nothing is written (the store call runs in one
transaction that rolls back on error). Every write goes through :mod:`gputeam.store`, which
records it in the audit log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from gputeam import store
from gputeam.errors import InputError
from gputeam.i18n import N_, _
from gputeam.store import EMAIL_LONGEST, NUMBER_RULES, REQUIRED, TEXT_LONGEST, BadCell
from gputeam.store import parse_number as any_number
from gputeam.web import notices, services
from gputeam.web.api.common import PathId, actor
from gputeam.web.auth import require
from gputeam.web.permissions import Perm, Principal
from gputeam.web.render import render

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

Writer = Annotated[Principal, Depends(require(Perm.PEOPLE_WRITE))]
Recorder = Annotated[Principal, Depends(require(Perm.RECORDS_WRITE))]

#: (form field, label, lowest, highest, integer?) of the numeric person fields
#: (the limits are the store's, gputeam.store.person_rules: one rule for every door)
NUMBERS = tuple(
    (name, label, *NUMBER_RULES[name])
    for name, label in (
        ("level", N_("Level")),
        ("experience_months", N_("Experience (months)")),
        ("weekly_study_hours", N_("Weekly study hours")),
        ("salary", N_("Salary (optional)")),
    )
)
TEXTS = tuple(
    (name, label, TEXT_LONGEST[name], name in REQUIRED)
    for name, label in (("key", N_("Id")), ("name", N_("Name")), ("title", N_("Title")))
)
#: the optional fields after the texts: e-mail, background (free text, as in the scenario and
#: the API; the catalog's transitions are suggested) and role (a catalog role id, or none);
#: and site (free text: where the person works); blank e-mail, role and site mean none
#: (store.PersonFields, as for every door)
EXTRAS = ("email", "background", "role", "site")
BACKGROUND_LONGEST = TEXT_LONGEST["background"]


def _teams_for(who: Principal, s: Any, org: int, keep: int | None = None) -> dict[int, str]:
    """The teams ``who`` may place people in: current ones (an archived team takes no one
    new), and ``keep``, the person's own team, even if archived."""
    return {
        t.id: t.name
        for t in store.list_teams(s, org)
        if who.may_team(t.id) and (t.archived_at is None or t.id == keep)
    }


def _roles(request: Request) -> dict[str, str]:
    """Catalog role ids and names, in catalog order."""
    return {r.id: r.name for r in services.catalog(request.app).roles.values()}


def _backgrounds(request: Request) -> list[str]:
    """Backgrounds to suggest: the default and those the catalog's transitions know."""
    known = {t.background for t in services.catalog(request.app).transitions}
    return sorted(known | {"sysadmin"})


def parse_person_form(
    form: dict[str, str],
    teams: dict[int, str],
    *,
    admin: bool,
    roles: Mapping[str, str],
    current_role: str | None = None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """The form's values as store fields, and errors by field (empty when valid).

    Numbers are read as the roster import reads them (any locale, one parser); every field
    is then checked by ``store.PersonFields``, the rule every door applies (so the reasons
    are the API's and the import's). ``roles`` are the catalog's role ids (to names);
    ``current_role`` (editing) is the person's role, accepted unchanged even when the
    catalog no longer has it. An e-mail, background, role or site missing from the form is
    not set (unchanged, or the default)."""
    values: dict[str, Any] = {name: form.get(name, "") for name, *_rest in TEXTS}
    values |= {name: form[name] for name in EXTRAS if name in form}
    errors: dict[str, str] = {}
    for name, label, *_rest in NUMBERS:
        written = form.get(name, "").strip()
        if not written and name == "salary":
            values[name] = None
            continue
        try:  # written in any locale, as the roster import reads it (one parser)
            values[name] = any_number(written, None)
        except BadCell as exc:
            errors[name] = _message(label, exc.reason, None, exc.expected)
    team = form.get("team_id", "").strip()
    if not team:
        if not admin:
            errors["team_id"] = _("Choose one of your teams.")
        values["team_id"] = None
    elif not team.isdigit() or int(team) not in teams:
        errors["team_id"] = _("Choose a team from the list.")
    else:
        values["team_id"] = int(team)
    checked = {k: v for k, v in values.items() if k not in errors}
    try:
        values = store.PersonFields.parse(checked, roles=roles, current_role=current_role).given()
    except InputError as exc:
        errors = _store_errors(exc) | errors
    return values, errors


def _message(label: str, reason: str, found: str | None, expected: str | None) -> str:
    """A refused field's message beside it: the field's label, the rule's reason (the same
    words the API and the roster import use, in the page's language), the value when
    short, what is expected."""
    from gputeam.i18n.messages import translate

    reason = translate(reason)
    text = f"{_(label)}: {reason}" if label else reason
    if found and len(found) <= 60:
        text += f" ({found})"
    return text + (_("; expected {expected}.").format(expected=translate(expected)) if expected else ".")


LABELS = {name: label for name, label, *_rest in TEXTS + NUMBERS} | {
    "email": N_("E-mail"),
    "background": N_("Background"),
    "role": N_("Role"),
    "site": N_("Site"),
    "team_id": N_("Team"),
}


def _store_errors(exc: InputError) -> dict[str, str]:
    """The store's problems (``person.<field>``) as messages beside the form's fields; any
    other under ``_`` (shown at the top)."""
    errors: dict[str, str] = {}
    for p in exc.problems:
        field = p.path.split(".")[-1] if p.path else ""
        field = field if field in LABELS else "_"
        errors.setdefault(field, _message(LABELS.get(field, ""), p.message, p.found, p.expected))
    return errors


def _form_page(
    request: Request,
    who: Principal,
    *,
    person_id: int | None,
    form: dict[str, str],
    teams: dict[int, str],
    errors: dict[str, str],
    status: int = 200,
) -> Response:
    with request.app.state.db.read_session() as s:
        sites = store.list_sites(s, services.org_id(request.app, s))
    return render(
        request,
        "person_form.html",
        status,
        who=who,
        person_id=person_id,
        form=form,
        teams=teams,
        errors=errors,
        numbers=NUMBERS,
        texts=TEXTS,
        roles=_roles(request),
        backgrounds=_backgrounds(request),
        sites=sites,
        site_longest=TEXT_LONGEST["site"],
        email_longest=EMAIL_LONGEST,
        background_longest=BACKGROUND_LONGEST,
    )


async def _form(request: Request) -> dict[str, str]:
    data = await request.form()
    return {k: v for k, v in data.items() if isinstance(v, str) and len(v) <= 1000}


@router.get("/people/new")
def new_person_page(request: Request, who: Writer) -> Response:
    with request.app.state.db.session() as s:
        teams = _teams_for(who, s, services.org_id(request.app, s))
    form = {"level": "1", "experience_months": "0", "weekly_study_hours": "4", "background": "sysadmin"}
    return _form_page(request, who, person_id=None, form=form, teams=teams, errors={})


@router.post("/people/new")
async def create_person(request: Request, who: Writer) -> Response:
    from starlette.concurrency import run_in_threadpool

    form = await _form(request)
    return await run_in_threadpool(_create_person, request, who, form)


def _create_person(request: Request, who: Principal, form: dict[str, str]) -> Response:
    with request.app.state.db.session() as s:
        org = services.org_id(request.app, s)
        teams = _teams_for(who, s, org)
    values, errors = parse_person_form(form, teams, admin=who.role == "admin", roles=_roles(request))
    if not errors:
        try:
            with request.app.state.db.session() as s:
                key, name = values.pop("key"), values.pop("name")
                p = store.add_person(
                    s,
                    org,
                    key=key,
                    name=name,
                    actor=actor(who),
                    catalog=services.catalog(request.app),
                    **values,
                )
                pid = p.id
        except InputError as exc:
            errors = _store_errors(exc)
    if errors:
        return _form_page(request, who, person_id=None, form=form, teams=teams, errors=errors, status=422)
    return notices.redirect(request, f"/people/{pid}", _("Person added."))


def _changeable(request: Request, who: Principal, s: Any, person_id: int) -> Any:
    p = services.person_in_org(request.app, s, person_id)
    if p is None or not who.may_read_person(p.id, p.team_id):
        raise HTTPException(404, _("no such person, or not one you may see"))
    if not who.may_change_person(p.id, p.team_id):
        raise HTTPException(403, _("you may not change this person"))
    return p


def recordable(request: Request, who: Principal, s: Any, person_id: int) -> Any:
    """The person if ``who`` may change their records: 404 if not readable, else 403."""
    p = services.person_in_org(request.app, s, person_id)
    if p is None or not who.may_read_person(p.id, p.team_id):
        raise HTTPException(404, _("no such person, or not one you may see"))
    if not who.may_change_records(p.id, p.team_id):
        raise HTTPException(403, _("you may not change this person's records"))
    return p


def _num(v: Any) -> str:
    if v is None:
        return ""
    return f"{v:g}" if isinstance(v, float) else str(v)


@router.get("/people/{person_id}/edit")
def edit_person_page(request: Request, person_id: PathId, who: Writer) -> Response:
    with request.app.state.db.session() as s:
        p = _changeable(request, who, s, person_id)
        teams = _teams_for(who, s, services.org_id(request.app, s), p.team_id)
        form = {
            "key": p.key,
            "name": p.name,
            "title": p.title or "",
            "email": p.email or "",
            "background": p.background or "",
            "role": p.role or "",
            "site": p.site or "",
            "team_id": str(p.team_id or ""),
        }
        form |= {n: _num(getattr(p, n)) for n, *_ in NUMBERS}
    return _form_page(request, who, person_id=person_id, form=form, teams=teams, errors={})


@router.post("/people/{person_id}/edit")
async def update_person(request: Request, person_id: PathId, who: Writer) -> Response:
    from starlette.concurrency import run_in_threadpool

    form = await _form(request)
    return await run_in_threadpool(_update_person, request, who, person_id, form)


def _update_person(request: Request, who: Principal, person_id: int, form: dict[str, str]) -> Response:
    with request.app.state.db.session() as s:
        current = _changeable(request, who, s, person_id)
        current_role = current.role
        teams = _teams_for(who, s, services.org_id(request.app, s), current.team_id)
    values, errors = parse_person_form(
        form, teams, admin=who.role == "admin", roles=_roles(request), current_role=current_role
    )
    if not errors:
        try:
            with request.app.state.db.session() as s:
                p = _changeable(request, who, s, person_id)  # again, in the writing transaction
                changes = {k: v for k, v in values.items() if getattr(p, k) != v}
                if changes:
                    store.update_person(
                        s, p.id, changes, actor=actor(who), catalog=services.catalog(request.app)
                    )
        except InputError as exc:
            errors = _store_errors(exc)
    if errors:
        return _form_page(
            request, who, person_id=person_id, form=form, teams=teams, errors=errors, status=422
        )
    return notices.redirect(request, f"/people/{person_id}", _("Saved."))


# ---------------------------------------------------------------- skills
@router.post("/people/{person_id}/skills")
def rate_skill(
    request: Request,
    person_id: PathId,
    who: Recorder,
    domain: Annotated[str, Form(max_length=100)] = "",
    proficiency: Annotated[str, Form(max_length=20)] = "",
    note: Annotated[str, Form(max_length=1000)] = "",
    evidence_url: Annotated[str, Form(max_length=2000)] = "",
) -> Response:
    """Rate a skill: admin, the person's managers, or the engineer on their own record
    (which waits for approval). Earlier ratings stay as history."""
    from gputeam.web.pages import person_response, waits

    pending = who.needs_approval(person_id)

    with request.app.state.db.session() as s:
        recordable(request, who, s, person_id)
    errors: dict[str, str] = {}
    if domain not in services.catalog(request.app).domains:
        errors["domain"] = _("Choose a skill domain from the catalog.")
    level = int(proficiency) if proficiency.strip().isdigit() else -1
    if not 0 <= level <= 4:
        errors["proficiency"] = _("Proficiency is a whole number from 0 (none) to 4 (expert).")
    if not errors:
        try:
            with request.app.state.db.session() as s:
                if pending:
                    store.request_skill(
                        s,
                        person_id,
                        domain,
                        level,
                        note=note.strip(),
                        evidence_url=evidence_url,
                        actor=actor(who),
                    )
                else:
                    store.rate_skill(s, person_id, domain, level, rated_by=actor(who), note=note.strip())
        except InputError as exc:
            field = (
                "evidence_url" if exc.problems and exc.problems[0].path == "evidence_url" else "proficiency"
            )
            errors[field] = str(exc.problems[0].localised().message if exc.problems else exc)
    if errors:
        return person_response(
            request,
            who,
            person_id,
            422,
            skill_errors=errors,
            skill_form={
                "domain": domain,
                "proficiency": proficiency,
                "note": note,
                "evidence_url": evidence_url,
            },
        )
    if pending:
        return notices.redirect(
            request, f"/people/{person_id}#skills", _("Rating sent for approval.") + " " + waits()
        )
    return notices.redirect(request, f"/people/{person_id}#skills", _("Skill rated."))
