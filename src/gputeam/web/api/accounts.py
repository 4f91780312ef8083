"""The caller, users (admin) and API tokens (own; admin: anyone's)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import Field

from gputeam import store
from gputeam.i18n import N_, gettext
from gputeam.web import services
from gputeam.web.api.common import API_PREFIX, ERRORS, Body, PathId, RefId, actor, db, forbid, not_found
from gputeam.web.auth import require
from gputeam.web.permissions import ROLES, Perm, Principal, allowed_scopes

router = APIRouter(prefix=API_PREFIX, tags=["accounts"], responses=ERRORS)

Anyone = Annotated[Principal, Depends(require(Perm.DASHBOARD))]
TokenKeeper = Annotated[Principal, Depends(require(Perm.TOKENS))]
Admin = Annotated[Principal, Depends(require(Perm.USERS))]


class UserIn(Body):
    username: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.@-]+$")
    password: str = Field(min_length=8, max_length=1000)
    role: str = Field(pattern="^(admin|manager|engineer|viewer)$")
    person_id: RefId | None = None
    team_ids: list[RefId] = Field(default_factory=list, max_length=1000)


class UserPatch(Body):
    role: str | None = Field(default=None, pattern="^(admin|manager|engineer|viewer)$")
    active: bool | None = None
    person_id: RefId | None = None
    password: str | None = Field(default=None, min_length=8, max_length=1000)
    team_ids: list[RefId] | None = Field(default=None, max_length=1000)


class TokenIn(Body):
    name: str = Field(min_length=1, max_length=100)
    scopes: list[str] = Field(min_length=1, max_length=3, description="read, write, admin")
    expires_in_days: int | None = Field(
        default=store.DEFAULT_TOKEN_DAYS,
        ge=1,
        le=store.MAX_TOKEN_DAYS,
        description="Days until the token expires; null: never (not advised).",
    )
    user_id: RefId | None = Field(default=None, description="Admins only: for another user.")


def user_json(s: Any, u: Any) -> dict[str, Any]:
    return {
        "id": u.id,
        "username": u.username,
        "role": u.role,
        "person_id": u.person_id,
        "active": u.active,
        "team_ids": store.user_team_ids(s, u.id),
        "last_login_at": u.last_login_at.isoformat() if u.last_login_at else None,
    }


def token_json(t: Any) -> dict[str, Any]:
    def iso(v: datetime | None) -> str | None:
        return v.isoformat() if v else None

    return {
        "id": t.id,
        "name": t.name,
        "user_id": t.user_id,
        "scopes": list(t.scopes),
        "created_at": iso(t.created_at),
        "expires_at": iso(t.expires_at),
        "last_used_at": iso(t.last_used_at),
        "revoked_at": iso(t.revoked_at),
    }


@router.get("/me", summary="Who am I")
def me(who: Anyone) -> dict[str, Any]:
    from gputeam.web.permissions import GRANTS

    return {
        "user_id": who.user_id,
        "username": who.username,
        "role": who.role,
        "person_id": who.person_id,
        "team_ids": sorted(who.team_ids),
        "via": who.via,
        "scopes": sorted(who.scopes) if who.scopes is not None else None,
        "permissions": sorted(p.value for p in GRANTS if who.can(p)),
    }


def _check_refs(request: Request, s: Any, person_id: int | None, team_ids: list[int] | None) -> None:
    """A user links only to people and teams of this server's organisation (404)."""
    if person_id is not None and services.person_in_org(request.app, s, person_id) is None:
        raise not_found("person")
    for t in team_ids or ():
        if services.team_in_org(request.app, s, t) is None:
            raise not_found("team")


@router.get("/users", summary="Users (admin)")
def list_users(request: Request, who: Admin) -> list[dict[str, Any]]:
    with db(request).session() as s:
        return [user_json(s, u) for u in store.list_users(s)]


@router.post("/users", status_code=201, summary="Create a user (admin)")
def create_user(request: Request, body: UserIn, who: Admin) -> dict[str, Any]:
    with db(request).session() as s:
        _check_refs(request, s, body.person_id, body.team_ids)
        u = store.create_user(
            s,
            body.username,
            body.password,
            body.role,
            person_id=body.person_id,
            team_ids=body.team_ids,
            actor=actor(who),
        )
        return user_json(s, u)


@router.patch("/users/{user_id}", summary="Change a user (admin)")
def update_user(request: Request, user_id: PathId, body: UserPatch, who: Admin) -> dict[str, Any]:
    with db(request).session() as s:
        _check_refs(request, s, body.person_id, body.team_ids)
        check_not_self(who, user_id, body.role, body.active)
        u = store.update_user(
            s,
            user_id,
            role=body.role,
            active=body.active,
            person_id=body.person_id,
            password=body.password,
            actor=actor(who),
            keep_session=request.state.session.sid
            if user_id == who.user_id and who.via == "session"
            else None,
        )
        if body.team_ids is not None:
            store.set_user_teams(s, user_id, body.team_ids, actor=actor(who))
        return user_json(s, u)


def check_not_self(who: Principal, user_id: int, role: str | None, active: bool | None) -> None:
    """An admin cannot demote or deactivate themself (someone must stay admin)."""
    if user_id == who.user_id and (active is False or (role is not None and role != "admin")):
        raise HTTPException(409, gettext("you cannot demote or deactivate yourself"))


@router.delete(
    "/users/{user_id}/sessions",
    status_code=204,
    summary="Log a user out everywhere (admin): end all their sessions",
)
def end_sessions(request: Request, user_id: PathId, who: Admin) -> Response:
    """Every browser session of the user ends at once, in every process; their API
    tokens are not touched (revoke those with ``DELETE /tokens/{id}``)."""
    with db(request).session() as s:
        store.get_user(s, user_id)
        store.end_sessions(s, user_id, actor=actor(who))
    return Response(status_code=204)


@router.get("/tokens", summary="Your API tokens (admin: everyone's)")
def list_tokens(request: Request, who: Anyone) -> list[dict[str, Any]]:
    with db(request).session() as s:
        uid = None if who.role == "admin" and who.can(Perm.USERS) else who.user_id
        return [token_json(t) for t in store.list_tokens(s, uid)]


@router.post("/tokens", status_code=201, summary="Create an API token (shown once)")
def create_token(request: Request, body: TokenIn, who: TokenKeeper) -> dict[str, Any]:
    """Through a token, only with the ``admin`` scope (as every token management)."""
    user_id = body.user_id or who.user_id
    with db(request).session() as s:
        if user_id != who.user_id:
            if not who.can(Perm.USERS):
                raise forbid(N_("only admins create tokens for other users"))
            role = store.get_user(s, user_id).role
        else:
            role = who.role
        bad = sorted(set(body.scopes) - set(allowed_scopes(role)))
        if bad:
            from gputeam.errors import InputError, Problem

            raise InputError(
                [
                    Problem(
                        path="scopes",
                        message=gettext("scopes not allowed for this user's role"),
                        found=", ".join(bad),
                        expected=", ".join(allowed_scopes(role)),
                    )
                ]
            )
        expires = datetime.now(UTC) + timedelta(days=body.expires_in_days) if body.expires_in_days else None
        token, secret = store.create_token(
            s, user_id, body.name, body.scopes, expires_at=expires, actor=actor(who)
        )
        return {**token_json(token), "token": secret}


@router.delete("/tokens/{token_id}", status_code=204, summary="Revoke an API token")
def revoke_token(request: Request, token_id: PathId, who: TokenKeeper) -> Response:
    """Your own token (admins: anyone's); through a token, only with the ``admin`` scope."""
    with db(request).session() as s:
        owner = store.token_user(s, token_id)
        if owner is None or (owner != who.user_id and not who.can(Perm.USERS)):
            raise not_found("token")
        store.revoke_token(s, token_id, actor=actor(who))
    return Response(status_code=204)


__all__ = ["ROLES", "router"]
