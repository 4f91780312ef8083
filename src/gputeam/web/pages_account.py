"""Account pages: your API tokens; users (admin)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gputeam import store
from gputeam.errors import InputError
from gputeam.i18n import _, ngettext
from gputeam.web import services
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
    request: Request, who: Principal, status: int = 200, password_errors: dict[str, str] | None = None
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
        min_password=MIN_PASSWORD,
    )


MIN_PASSWORD = 8  # what ``gputeam admin create`` (store.hash_password) demands


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
            errors["new_password"] = str(exc.problems[0].message if exc.problems else exc)
    if errors:
        return _account(request, who, 422, errors)
    return RedirectResponse("/account?changed=1", status_code=303)


@router.post("/account/tokens")
def create_token(
    request: Request,
    who: TokenKeeper,
    name: Annotated[str, Form(max_length=100)],
    scopes: Annotated[list[str], Form()],
    expires_in_days: Annotated[int, Form(ge=1, le=3650)] = 90,
) -> Response:
    bad = set(scopes) - set(allowed_scopes(who.role))
    if bad or not scopes or not name.strip():
        raise HTTPException(403, _("scope not allowed for your role"))
    with request.app.state.db.session() as s:
        _token, secret = store.create_token(
            s,
            who.user_id,
            name.strip(),
            scopes,
            expires_at=datetime.now(UTC) + timedelta(days=expires_in_days),
            actor=who.username,
        )
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
    request: Request, who: Principal, status: int = 200, error: str | None = None, flash: str | None = None
) -> Response:
    with request.app.state.db.session() as s:
        users = [
            (u, store.user_team_ids(s, u.id), store.count_sessions(s, u.id)) for u in store.list_users(s)
        ]
        teams = {t.id: t.name for t in store.list_teams(s, services.org_id(request.app, s))}
    return render(
        request, "users.html", status, who=who, users=users, teams=teams, roles=ROLES, error=error, done=flash
    )


@router.get("/admin/users")
def users_page(request: Request, who: Admin, done: str | None = None) -> Response:
    return _users(request, who, flash=done)


@router.post("/admin/users")
def create_user(
    request: Request,
    who: Admin,
    username: Annotated[str, Form(max_length=100, pattern=r"^[A-Za-z0-9_.@-]+$")],
    password: Annotated[str, Form(min_length=8, max_length=1000)],
    role: Annotated[str, Form(pattern="^(admin|manager|engineer|viewer)$")],
    person_key: Annotated[str, Form(max_length=100)] = "",
    team_ids: Annotated[list[int] | None, Form()] = None,
) -> Response:
    error = None
    try:
        with request.app.state.db.session() as s:
            person_id = None
            if person_key.strip():
                p = store.get_person_by_key(s, services.org_id(request.app, s), person_key.strip())
                if p is None:
                    raise HTTPException(422, _("no person with id {id}").format(id=repr(person_key)))
                person_id = p.id
            for team_id in team_ids or []:
                if services.team_in_org(request.app, s, team_id) is None:
                    raise HTTPException(422, _("no team {id}").format(id=team_id))
            store.create_user(
                s, username, password, role, person_id=person_id, team_ids=team_ids or [], actor=who.username
            )
    except InputError as exc:
        error = str(exc)
    except HTTPException as exc:
        error = str(exc.detail)
    if error is None:
        return RedirectResponse("/admin/users", status_code=303)
    return _users(request, who, 422, error)


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
    return RedirectResponse(f"/admin/users?done={quote(done)}", status_code=303)


@router.post("/admin/users/{user_id}/logout")
def log_out_everywhere(request: Request, user_id: PathId, who: Admin) -> Response:
    """End every session of the user ("log out everywhere"); their API tokens stay."""
    with request.app.state.db.session() as s:
        name = store.get_user(s, user_id).username
        ended = store.end_sessions(s, user_id, actor=who.username)
    return RedirectResponse(
        "/admin/users?done="
        + quote(
            ngettext("{name}: {n} session ended.", "{name}: {n} sessions ended.", ended).format(
                name=name, n=ended
            )
        ),
        status_code=303,
    )
