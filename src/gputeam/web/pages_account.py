"""Account pages: your API tokens; users (admin)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gputeam import store
from gputeam.errors import InputError
from gputeam.web import services
from gputeam.web.api.common import PathId
from gputeam.web.auth import require
from gputeam.web.permissions import ROLES, Perm, Principal, allowed_scopes
from gputeam.web.render import render

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

Anyone = Annotated[Principal, Depends(require(Perm.DASHBOARD))]
Admin = Annotated[Principal, Depends(require(Perm.USERS))]


@router.get("/account")
def account_page(request: Request, who: Anyone, new_token: str | None = None) -> Response:
    return _account(request, who)


def _account(request: Request, who: Principal, status: int = 200,
             password_errors: dict[str, str] | None = None) -> Response:
    with request.app.state.db.session() as s:
        tokens = [t for t in store.list_tokens(s, who.user_id) if t.revoked_at is None]
    return render(request, "account.html", status, who=who, tokens=tokens, new_token=None,
                  scopes=allowed_scopes(who.role), password_errors=password_errors or {},
                  min_password=MIN_PASSWORD)


MIN_PASSWORD = 8  # what ``gputeam admin create`` (store.hash_password) demands


@router.post("/account/password")
def change_password(request: Request, who: Anyone,
                    current_password: Annotated[str, Form(max_length=1000)] = "",
                    new_password: Annotated[str, Form(max_length=1000)] = "",
                    new_password_again: Annotated[str, Form(max_length=1000)] = "") -> Response:
    """Change your own password. Your other sessions end (their cookies carry the old
    password's fingerprint); this one continues (same session id, so its CSRF token and
    other tabs stay valid). Wrong current passwords are rate-limited like failed logins."""
    from gputeam.store import audit
    from gputeam.web.security import Session, password_fingerprint

    settings = request.app.state.settings
    since = datetime.now(UTC) - timedelta(seconds=settings.login_window_seconds)
    errors: dict[str, str] = {}
    with request.app.state.db.session() as s:
        if store.count_audit(s, "password-failed", since=since,
                             entity_id=who.user_id) >= settings.login_max_failures:
            raise HTTPException(429, "too many wrong passwords; wait a few minutes and retry",
                                headers={"Retry-After": str(settings.login_window_seconds)})
        user = store.get_user(s, who.user_id)
        if not store.verify_password(user.password_hash, current_password):
            errors["current_password"] = "This is not your current password."
            audit.record(s, who.username, "password-failed", "user", who.user_id)
    if not errors:
        if len(new_password) < MIN_PASSWORD:
            errors["new_password"] = f"At least {MIN_PASSWORD} characters."
        elif new_password != new_password_again:
            errors["new_password_again"] = "The two new passwords differ."
        elif new_password == current_password:
            errors["new_password"] = "Choose a password different from the current one."
    if not errors:
        try:
            with request.app.state.db.session() as s:
                user = store.update_user(s, who.user_id, password=new_password,
                                         actor=who.username)
                fingerprint = password_fingerprint(user.password_hash)
        except InputError as exc:
            errors["new_password"] = str(exc.problems[0].message if exc.problems else exc)
    if errors:
        return _account(request, who, 422, errors)
    request.state.session = Session(sid=request.state.session.sid, uid=who.user_id,
                                    fp=fingerprint)
    request.state.session_changed = True
    return RedirectResponse("/account?changed=1", status_code=303)


@router.post("/account/tokens")
def create_token(request: Request, who: Anyone, name: Annotated[str, Form(max_length=100)],
                 scopes: Annotated[list[str], Form()],
                 expires_in_days: Annotated[int, Form(ge=1, le=3650)] = 90) -> Response:
    bad = set(scopes) - set(allowed_scopes(who.role))
    if bad or not scopes or not name.strip():
        raise HTTPException(403, "scope not allowed for your role")
    with request.app.state.db.session() as s:
        _, secret = store.create_token(s, who.user_id, name.strip(), scopes,
                                       expires_at=datetime.now(UTC)
                                       + timedelta(days=expires_in_days), actor=who.username)
        tokens = [t for t in store.list_tokens(s, who.user_id) if t.revoked_at is None]
    # shown once, in this response only (never in a URL)
    return render(request, "account.html", who=who, tokens=tokens, new_token=secret,
                  scopes=allowed_scopes(who.role), min_password=MIN_PASSWORD)


@router.post("/account/tokens/{token_id}/revoke")
def revoke_token(request: Request, token_id: PathId, who: Anyone) -> Response:
    with request.app.state.db.session() as s:
        t = s.get(store.ApiToken, token_id)
        if t is None or t.user_id != who.user_id:
            raise HTTPException(404, "no such token")
        store.revoke_token(s, token_id, actor=who.username)
    return RedirectResponse("/account", status_code=303)


@router.get("/admin/users")
def users_page(request: Request, who: Admin) -> Response:
    with request.app.state.db.session() as s:
        users = [(u, store.user_team_ids(s, u.id)) for u in store.list_users(s)]
        teams = {t.id: t.name for t in store.list_teams(s, services.org_id(request.app, s))}
    return render(request, "users.html", who=who, users=users, teams=teams, roles=ROLES,
                  error=None)


@router.post("/admin/users")
def create_user(request: Request, who: Admin,
                username: Annotated[str, Form(max_length=100, pattern=r"^[A-Za-z0-9_.@-]+$")],
                password: Annotated[str, Form(min_length=8, max_length=1000)],
                role: Annotated[str, Form(pattern="^(admin|manager|engineer|viewer)$")],
                person_key: Annotated[str, Form(max_length=100)] = "",
                team_ids: Annotated[list[int] | None, Form()] = None) -> Response:
    error = None
    try:
        with request.app.state.db.session() as s:
            person_id = None
            if person_key.strip():
                p = store.get_person_by_key(s, services.org_id(request.app, s),
                                            person_key.strip())
                if p is None:
                    raise HTTPException(422, f"no person with id {person_key!r}")
                person_id = p.id
            store.create_user(s, username, password, role, person_id=person_id,
                              team_ids=team_ids or [], actor=who.username)
    except InputError as exc:
        error = str(exc)
    except HTTPException as exc:
        error = str(exc.detail)
    if error is None:
        return RedirectResponse("/admin/users", status_code=303)
    with request.app.state.db.session() as s:
        users = [(u, store.user_team_ids(s, u.id)) for u in store.list_users(s)]
        teams = {t.id: t.name for t in store.list_teams(s, services.org_id(request.app, s))}
    return render(request, "users.html", 422, who=who, users=users, teams=teams, roles=ROLES,
                  error=error)
