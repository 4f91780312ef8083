"""Sessions end server-side; token scopes hold on every write; users are administered
(role, deactivation, password reset, log out everywhere); the export lists every user
without secrets."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from gputeam import store

from .conftest import PASSWORD, TODAY, World, logged_in, login, make_settings, token_for
from .test_web_docs import _routes

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def _cookie_client(app: Any, cookie: str) -> TestClient:
    c = TestClient(app)
    c.cookies.set("gputeam_session", cookie)
    return c


def _other_process(db: Any) -> Any:
    from gputeam.web import create_app

    return create_app(make_settings(), database=db, today=TODAY)


# ---------------------------------------------------------------- sessions
def test_logout_ends_the_session_server_side(app: Any, db: Any, world: World) -> None:
    """The issue's reproduction: the old cookie must not answer /api/v1/me after logout,
    in this process or another one that remembered the caller."""
    c = logged_in(app, "viewer")
    cookie = c.cookies.get("gputeam_session")
    other = _other_process(db)
    assert _cookie_client(other, cookie).get("/api/v1/me").status_code == 200  # remembered
    assert c.post("/logout", data={"csrf_token": c.csrf}, follow_redirects=False).status_code == 303
    assert _cookie_client(app, cookie).get("/api/v1/me").status_code == 401
    assert _cookie_client(other, cookie).get("/api/v1/me").status_code == 401
    with db.session() as s:
        assert store.count_sessions(s, world.users["viewer"]) == 0
        [entry] = store.list_audit(s, entity="session", actor="viewer")
        assert entry.action == "logout"


def test_password_change_ends_the_other_sessions(app: Any, db: Any, world: World) -> None:
    here, elsewhere = logged_in(app, "manager"), logged_in(app, "manager")
    r = here.post(
        "/account/password",
        data={
            "csrf_token": here.csrf,
            "current_password": PASSWORD,
            "new_password": "another good password",
            "new_password_again": "another good password",
        },
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert here.get("/api/v1/me").status_code == 200
    assert elsewhere.get("/api/v1/me").status_code == 401
    # changed through the store (as `gputeam admin` would): every session ends
    with db.session() as s:
        store.update_user(s, world.users["manager"], password="a third good password")
    assert here.get("/api/v1/me").status_code == 401


def test_deactivation_ends_sessions_for_good(app: Any, db: Any, world: World) -> None:
    c = logged_in(app, "engineer")
    with db.session() as s:
        store.update_user(s, world.users["engineer"], active=False)
    assert c.get("/api/v1/me").status_code == 401
    with db.session() as s:  # reactivated: the old session stays ended
        store.update_user(s, world.users["engineer"], active=True)
    assert c.get("/api/v1/me").status_code == 401
    assert login(TestClient(app), "engineer").status_code == 303


def test_admin_logs_a_user_out_everywhere(app: Any, db: Any, world: World) -> None:
    admin = logged_in(app, "admin")
    a, b = logged_in(app, "viewer"), logged_in(app, "viewer")
    token = token_for(app, "manager", ["read"])
    m = logged_in(app, "manager")
    r = admin.delete(f"/api/v1/users/{world.users['viewer']}/sessions", headers={"X-CSRF-Token": admin.csrf})
    assert r.status_code == 204
    assert a.get("/api/v1/me").status_code == b.get("/api/v1/me").status_code == 401
    # the page's button does the same; API tokens stay valid
    r = admin.post(
        f"/admin/users/{world.users['manager']}/logout",
        data={"csrf_token": admin.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert m.get("/api/v1/me").status_code == 401
    assert TestClient(app).get("/api/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert admin.get("/api/v1/me").status_code == 200
    # only admins
    v = logged_in(app, "viewer")
    assert (
        v.delete(
            f"/api/v1/users/{world.users['admin']}/sessions", headers={"X-CSRF-Token": v.csrf}
        ).status_code
        == 403
    )
    assert admin.get("/api/v1/me").status_code == 200


# ---------------------------------------------------------------- scopes
def _write_routes() -> list[tuple[str, str]]:
    from gputeam.web import create_app
    from gputeam.web.settings import Settings

    app = create_app(Settings(dev=True), database=object())
    # verifying a credential is public and changes nothing (POST only to carry the upload)
    public = ("/login", "/logout", "/verify", "/api/v1/credentials/verify")
    return sorted((m, p) for p, methods in _routes(app) for m in methods & UNSAFE if p not in public)


def _audit_count(db: Any) -> int:
    with db.session() as s:
        return int(
            s.scalar(select(func.count(store.AuditEntry.id)).where(store.AuditEntry.action != "login")) or 0
        )


@pytest.mark.parametrize(("method", "template"), _write_routes())
def test_read_token_refused_on_every_write(
    app: Any, db: Any, world: World, method: str, template: str
) -> None:
    """Every route that changes something refuses a read-scoped token (of an admin, who
    may do everything), before looking at the request: 403, nothing changed."""
    token = token_for(app, "admin", ["read"])
    with db.session() as s:
        mine = store.list_tokens(s, world.users["admin"])[-1].id
    ids = {
        "person_id": world.people["p3"],
        "team_id": world.beta,
        "token_id": mine,
        "user_id": world.users["viewer"],
    }
    path = re.sub(r"\{(\w+)\}", lambda m: str(ids.get(m.group(1), 1)), template)
    before = _audit_count(db)
    r = TestClient(app).request(
        method, path, headers={"Authorization": f"Bearer {token}"}, follow_redirects=False
    )
    assert r.status_code == 403, (method, path, r.status_code, r.text[:200])
    assert _audit_count(db) == before


def test_token_management_needs_the_admin_scope(app: Any, db: Any, world: World) -> None:
    """The issue's reproduction: DELETE /api/v1/tokens/N with a read token answered 204."""
    victim = token_for(app, "manager", ["read"])
    for scopes in (["read"], ["read", "write"]):
        bearer = {"Authorization": "Bearer " + token_for(app, "manager", scopes)}
        with db.session() as s:
            first = store.list_tokens(s, world.users["manager"])[0].id
        c = TestClient(app, headers=bearer)
        assert c.delete(f"/api/v1/tokens/{first}").status_code == 403
        assert c.post("/api/v1/tokens", json={"name": "n", "scopes": ["read"]}).status_code == 403
        assert (
            c.post(
                "/account/tokens", data={"name": "n", "scopes": "read"}, follow_redirects=False
            ).status_code
            == 403
        )
    assert TestClient(app).get("/api/v1/me", headers={"Authorization": f"Bearer {victim}"}).status_code == 200
    # the browser session and an admin-scoped token still manage tokens
    admin = TestClient(
        app, headers={"Authorization": "Bearer " + token_for(app, "admin", ["read", "write", "admin"])}
    )
    with db.session() as s:
        first = store.list_tokens(s, world.users["manager"])[0].id
    assert admin.delete(f"/api/v1/tokens/{first}").status_code == 204


# ---------------------------------------------------------------- users
def test_admin_edits_users_through_the_api(app: Any, db: Any, world: World) -> None:
    admin = logged_in(app, "admin")
    h = {"X-CSRF-Token": admin.csrf}
    uid = world.users["viewer"]
    viewer = logged_in(app, "viewer")
    r = admin.patch(f"/api/v1/users/{uid}", json={"role": "manager"}, headers=h)
    assert r.status_code == 200 and r.json()["role"] == "manager"
    assert viewer.get("/api/v1/me").json()["role"] == "manager"
    assert admin.patch(f"/api/v1/users/{uid}", json={"active": False}, headers=h).json()["active"] is False
    assert viewer.get("/api/v1/me").status_code == 401
    assert (
        admin.patch(
            f"/api/v1/users/{uid}", json={"active": True, "password": "reset password 1"}, headers=h
        ).status_code
        == 200
    )
    assert login(TestClient(app), "viewer").status_code == 401
    assert login(TestClient(app), "viewer", "reset password 1").status_code == 303
    with db.session() as s:
        entries = store.list_audit(s, entity="user", entity_id=uid, actor="admin")
        assert [e.action for e in entries] == ["update"] * 3
        assert entries[0].after["password_changed"] is True
        assert "password_hash" not in json.dumps([e.after for e in entries])
    # an admin cannot lock themself out
    assert (
        admin.patch(f"/api/v1/users/{world.users['admin']}", json={"role": "viewer"}, headers=h).status_code
        == 409
    )


def test_admin_edits_users_through_the_page(app: Any, db: Any, world: World) -> None:
    admin = logged_in(app, "admin")
    uid = world.users["manager"]
    manager = logged_in(app, "manager")
    page = admin.get("/admin/users").text
    assert f'action="/admin/users/{uid}"' in page and "Log out everywhere" in page

    def post(**form: str) -> Any:
        return admin.post(
            f"/admin/users/{uid}", data={"csrf_token": admin.csrf, **form}, follow_redirects=False
        )

    assert post(role="engineer", active="yes").status_code == 303
    assert manager.get("/api/v1/me").json()["role"] == "engineer"
    assert post(role="engineer", active="no").status_code == 303
    assert manager.get("/api/v1/me").status_code == 401
    assert login(TestClient(app), "manager").status_code == 401
    assert post(role="manager", active="yes", new_password="page reset pw").status_code == 303
    assert login(TestClient(app), "manager", "page reset pw").status_code == 303
    assert post(role="manager", active="yes", new_password="short").status_code == 422
    r = admin.post(
        f"/admin/users/{world.users['admin']}",
        data={"csrf_token": admin.csrf, "role": "admin", "active": "no"},
    )
    assert r.status_code == 409
    with db.session() as s:
        assert len(store.list_audit(s, entity="user", entity_id=uid, actor="admin")) == 3
    # only admins
    v = logged_in(app, "viewer")
    r = v.post(f"/admin/users/{uid}", data={"csrf_token": v.csrf, "role": "admin"}, follow_redirects=False)
    assert r.status_code == 403


def test_export_lists_every_user_without_secrets(app: Any, db: Any, world: World) -> None:
    token_for(app, "admin", ["read"])
    admin = logged_in(app, "admin")
    data = admin.get("/api/v1/export").json()
    users = {u["username"]: u for u in data["tables"]["users"]}
    assert set(users) == {"admin", "manager", "engineer", "viewer"}
    assert users["viewer"]["role"] == "viewer" and users["engineer"]["person"] == "p1"
    assert users["manager"]["teams"] == "Alpha"
    text = json.dumps(data)
    assert "$argon2" not in text and "password_hash" not in text
    assert "token_hash" not in text and "gpt_" not in text
    with db.session() as s:
        hashes = [t.token_hash for t in store.list_tokens(s)]
    assert hashes and not any(h in text for h in hashes)


def test_an_expired_session_signs_nobody_in(app: Any, db: Any, world: World) -> None:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import update

    c = logged_in(app, "viewer")
    with db.session() as s:
        s.execute(update(store.UserSession).values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    other = _other_process(db)
    assert _cookie_client(other, c.cookies.get("gputeam_session")).get("/api/v1/me").status_code == 401
