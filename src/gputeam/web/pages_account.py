"""Account pages: your API tokens; users (admin)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gputeam import store
from gputeam.errors import InputError
from gputeam.i18n import _, gettext, ngettext
from gputeam.web import notices, services
from gputeam.web.api.common import PathId
from gputeam.web.auth import require
from gputeam.web.permissions import ROLES, Perm, Principal, allowed_scopes
from gputeam.web.render import render

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

Anyone = Annotated[Principal, Depends(require(Perm.DASHBOARD))]
TokenKeeper = Annotated[Principal, Depends(require(Perm.TOKENS))]
Admin = Annotated[Principal, Depends(require(Perm.USERS))]


@router.get("/account")
def account_page(request: Request, who: Anyone, new_token: str | None = None) -> Response:
    return _account(request, who)


def _account(
    request: Request,
    who: Principal,
    status: int = 200,
    password_errors: dict[str, str] | None = None,
    *,
    token_errors: dict[str, str] | None = None,
    token_form: dict[str, Any] | None = None,
    language_error: str | None = None,
) -> Response:
    with request.app.state.db.session() as s:
        tokens = [t for t in store.list_tokens(s, who.user_id) if t.revoked_at is None]
    return render(
        request,
        "account.html",
        status,
        who=who,
        tokens=tokens,
        new_token=None,
        scopes=allowed_scopes(who.role),
        password_errors=password_errors or {},
        token_errors=token_errors or {},
        token_form=token_form,
        min_password=MIN_PASSWORD,
        language_error=language_error,
    )


@router.post("/account/language")
def set_language(
    request: Request, who: Anyone, language: Annotated[str, Form(max_length=20)] = ""
) -> Response:
    """Your language for pages and reminder mail (one of gputeam's), or none: the browser's.
    The switcher's cookie follows (cleared with it), so the pages before login agree."""
    from gputeam.web.language import COOKIE, remember

    try:
        with request.app.state.db.session() as s:
            user = store.set_user_language(s, who.user_id, language.strip() or None, actor=who.username)
            chosen = user.language
    except InputError as exc:
        return _account(request, who, 422, language_error="; ".join(str(p) for p in exc.problems))
    response = RedirectResponse("/account?language=1#language", status_code=303)
    if chosen is None:
        response.delete_cookie(COOKIE, path="/")
    else:
        remember(response, chosen)
    return response


MIN_PASSWORD = store.MIN_PASSWORD_LENGTH  # the rule: store.password_problem (every door)


@router.post("/account/password")
def change_password(
    request: Request,
    who: Anyone,
    current_password: Annotated[str, Form(max_length=1000)] = "",
    new_password: Annotated[str, Form(max_length=1000)] = "",
    new_password_again: Annotated[str, Form(max_length=1000)] = "",
) -> Response:
    """Change your own password. Your other sessions end server-side; this one
    continues (same session id, so its CSRF token and other tabs stay valid). Wrong
    current passwords are throttled like failed logins (per user, with backoff)."""
    from gputeam.web.auth import login_limits

    errors: dict[str, str] = {}
    with request.app.state.db.session() as s:
        wait = store.password_wait(s, who.user_id, login_limits(request), now=datetime.now(UTC))
        if wait:
            raise HTTPException(
                429,
                _("too many wrong passwords; retry in {seconds} seconds").format(seconds=wait),
                headers={"Retry-After": str(wait)},
            )
        user = store.get_user(s, who.user_id)
        if not store.verify_password(user.password_hash, current_password):
            errors["current_password"] = _("This is not your current password.")
            store.record_wrong_password(s, who.user_id, who.username)
    if not errors:
        if len(new_password) < MIN_PASSWORD:
            errors["new_password"] = _("At least {num} characters.").format(num=MIN_PASSWORD)
        elif new_password != new_password_again:
            errors["new_password_again"] = _("The two new passwords differ.")
        elif new_password == current_password:
            errors["new_password"] = _("Choose a password different from the current one.")
    if not errors:
        try:
            with request.app.state.db.session() as s:
                store.update_user(
                    s,
                    who.user_id,
                    password=new_password,
                    actor=who.username,
                    keep_session=request.state.session.sid,
                )
        except InputError as exc:
            errors["new_password"] = str(exc.problems[0].localised().message if exc.problems else exc)
    if errors:
        return _account(request, who, 422, errors)
    return RedirectResponse("/account?changed=1", status_code=303)


@router.post("/account/tokens")
def create_token(
    request: Request,
    who: TokenKeeper,
    name: Annotated[str, Form(max_length=1000)] = "",
    scopes: Annotated[list[str] | None, Form()] = None,
    expires_in_days: Annotated[str, Form(max_length=100)] = "90",
) -> Response:
    """A new token for yourself, shown once. A refused form (no name, no scope ticked,
    days out of range, a name with control characters): the form again with the message
    beside each field and the typed values, 422. The rules are the API's (``TokenIn``,
    the store's one-line text)."""
    from gputeam.web.api.accounts import TokenIn
    from gputeam.web.forms import checked, problem_errors

    form = {"name": name, "scopes": scopes or [], "expires_in_days": expires_in_days}
    body, errors = checked(
        TokenIn,
        {"name": name.strip(), "scopes": scopes or [], "expires_in_days": expires_in_days.strip() or "90"},
    )
    if set(scopes or []) - set(allowed_scopes(who.role)):
        errors.setdefault("scopes", gettext("scopes not allowed for this user's role") + ".")
    secret = None
    if body is not None and not errors:
        try:
            with request.app.state.db.session() as s:
                _token, secret = store.create_token(
                    s,
                    who.user_id,
                    body.name,
                    body.scopes,
                    expires_at=datetime.now(UTC)
                    + timedelta(days=body.expires_in_days or store.DEFAULT_TOKEN_DAYS),
                    actor=who.username,
                )
        except InputError as exc:
            errors = problem_errors(exc, {"token.name": "name"})
    if errors:
        return _account(request, who, 422, token_errors=errors, token_form=form)
    with request.app.state.db.session() as s:
        tokens = [t for t in store.list_tokens(s, who.user_id) if t.revoked_at is None]
    # shown once, in this response only (never in a URL)
    return render(
        request,
        "account.html",
        who=who,
        tokens=tokens,
        new_token=secret,
        scopes=allowed_scopes(who.role),
        min_password=MIN_PASSWORD,
    )


@router.post("/account/tokens/{token_id}/revoke")
def revoke_token(request: Request, token_id: PathId, who: TokenKeeper) -> Response:
    with request.app.state.db.session() as s:
        if store.token_user(s, token_id) != who.user_id:
            raise HTTPException(404, _("no such token"))
        store.revoke_token(s, token_id, actor=who.username)
    return RedirectResponse("/account", status_code=303)


def _users(
    request: Request,
    who: Principal,
    status: int = 200,
    error: str | None = None,
    flash: str | None = None,
    *,
    errors: dict[str, str] | None = None,
    form: dict[str, Any] | None = None,
) -> Response:
    with request.app.state.db.session() as s:
        users = [
            (u, store.user_team_ids(s, u.id), store.count_sessions(s, u.id)) for u in store.list_users(s)
        ]
        teams = {t.id: t.name for t in store.list_teams(s, services.org_id(request.app, s))}
    return render(
        request,
        "users.html",
        status,
        who=who,
        users=users,
        teams=teams,
        roles=ROLES,
        error=error,
        flash=flash,
        errors=errors or {},
        form=form or {},
    )


@router.get("/admin/users")
def users_page(request: Request, who: Admin) -> Response:
    return _users(request, who)


@router.post("/admin/users")
def create_user(
    request: Request,
    who: Admin,
    username: Annotated[str, Form(max_length=1000)] = "",
    password: Annotated[str, Form(max_length=1000)] = "",
    role: Annotated[str, Form(max_length=100)] = "",
    person_key: Annotated[str, Form(max_length=100)] = "",
    team_ids: Annotated[list[int] | None, Form()] = None,
) -> Response:
    """Add a user. A refused form: the form again with the message beside each field and
    the typed values (never the password), 422. The rules are the API's (``UserIn``) and
    the store's."""
    from gputeam.web.api.accounts import UserIn
    from gputeam.web.forms import checked, problem_errors

    form = {"username": username, "role": role, "person_key": person_key, "team_ids": team_ids or []}
    _body, errors = checked(UserIn, {"username": username.strip(), "password": password, "role": role})
    if "username" in errors and username.strip() and len(username.strip()) <= 100:
        errors["username"] = _("Letters, digits and _ . @ - only.")
    if not errors:
        try:
            with request.app.state.db.session() as s:
                person_id = None
                if person_key.strip():
                    p = store.get_person_by_key(s, services.org_id(request.app, s), person_key.strip())
                    if p is None:
                        errors["person_key"] = _("no person with id {id}").format(id=repr(person_key))
                    else:
                        person_id = p.id
                for team_id in team_ids or []:
                    if services.team_in_org(request.app, s, team_id) is None:
                        errors["team_ids"] = _("no team {id}").format(id=team_id)
                if not errors:
                    store.create_user(
                        s,
                        username.strip(),
                        password,
                        role,
                        person_id=person_id,
                        team_ids=team_ids or [],
                        actor=who.username,
                    )
        except InputError as exc:
            errors = problem_errors(exc, {"username": "username", "password": "password", "role": "role"})
    if not errors:
        return RedirectResponse("/admin/users", status_code=303)
    return _users(request, who, 422, errors.pop("_", None), errors=errors, form=form)


@router.post("/admin/users/{user_id}")
def update_user(
    request: Request,
    user_id: PathId,
    who: Admin,
    role: Annotated[str, Form(pattern="^(admin|manager|engineer|viewer)$")],
    active: Annotated[str, Form(pattern="^(yes|no)$")] = "yes",
    new_password: Annotated[str, Form(max_length=1000)] = "",
) -> Response:
    """Change a user's role, deactivate or reactivate them, or reset their password (when
    given): audited; a reset or a deactivation ends their sessions."""
    from gputeam.web.api.accounts import check_not_self

    try:
        check_not_self(who, user_id, role, active == "yes")
        with request.app.state.db.session() as s:
            user = store.update_user(
                s,
                user_id,
                role=role,
                active=active == "yes",
                password=new_password or None,
                actor=who.username,
                keep_session=request.state.session.sid if user_id == who.user_id else None,
            )
            name = user.username
    except InputError as exc:
        if exc.kind == "lookup":
            raise
        return _users(request, who, 422, str(exc))
    except HTTPException as exc:
        return _users(request, who, exc.status_code, str(exc.detail))
    done = _("{name} updated.").format(name=name)
    return notices.redirect(request, "/admin/users", done)


@router.post("/admin/users/{user_id}/logout")
def log_out_everywhere(request: Request, user_id: PathId, who: Admin) -> Response:
    """End every session of the user ("log out everywhere"); their API tokens stay."""
    with request.app.state.db.session() as s:
        name = store.get_user(s, user_id).username
        ended = store.end_sessions(s, user_id, actor=who.username)
    return notices.redirect(
        request,
        "/admin/users",
        ngettext("{name}: {n} session ended.", "{name}: {n} sessions ended.", ended).format(
            name=name, n=ended
        ),
    )
