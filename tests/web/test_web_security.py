"""Settings that fail fast, session cookies, CSRF, login rate limiting, sessions ending on a
password change, and `gputeam serve` / `gputeam admin create`."""

from __future__ import annotations

from typing import Any

import pytest

from gputeam import store

from .conftest import PASSWORD, SECRET, TODAY, World, csrf_of, logged_in, login


# ---------------------------------------------------------------- settings
@pytest.mark.parametrize("secret", ["", "changethis", "secret", "short-but-random-9f8e"])
def test_refuses_weak_secret_outside_development(secret: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from gputeam.web import SettingsError, load_settings

    monkeypatch.delenv("GPUTEAM_DEV", raising=False)
    monkeypatch.setenv("GPUTEAM_SECRET_KEY", secret)
    with pytest.raises(SettingsError) as info:
        load_settings()
    assert info.value.problems[0].path == "GPUTEAM_SECRET_KEY"
    assert "refusing to start" in str(info.value)


def test_development_mode_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from gputeam.web import load_settings

    monkeypatch.setenv("GPUTEAM_DEV", "1")
    monkeypatch.delenv("GPUTEAM_SECRET_KEY", raising=False)
    monkeypatch.setenv("GPUTEAM_DB", "sqlite:///x.db")
    s = load_settings()
    assert s.dev and s.db == "sqlite:///x.db"
    monkeypatch.setenv("GPUTEAM_LOGIN_MAX_FAILURES", "zero")
    from gputeam.web import SettingsError

    with pytest.raises(SettingsError) as info:
        load_settings()
    assert info.value.problems[0].path == "GPUTEAM_LOGIN_MAX_FAILURES"


def test_serve_refuses_default_secret(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from gputeam.cli.main import app

    monkeypatch.delenv("GPUTEAM_SECRET_KEY", raising=False)
    monkeypatch.delenv("GPUTEAM_DEV", raising=False)
    r = CliRunner().invoke(app, ["serve", "--db", f"sqlite:///{tmp_path}/x.db"])
    assert r.exit_code == 2
    assert "GPUTEAM_SECRET_KEY" in r.output and "Traceback" not in r.output


def test_admin_create(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from gputeam.cli.main import app

    url = f"sqlite:///{tmp_path}/admin.db"
    r = CliRunner().invoke(app, ["admin", "create", "root", "--password", "long password", "--db", url])
    assert r.exit_code == 0, r.output
    db = store.open_database(url)
    with db.session() as s:
        user = store.get_user_by_username(s, "root")
        assert user is not None and user.role == "admin"
        assert user.password_hash.startswith("$argon2id$")
    db.dispose()
    r = CliRunner().invoke(app, ["admin", "create", "root", "--password", "long password", "--db", url])
    assert r.exit_code == 2 and "already taken" in r.output
    r = CliRunner().invoke(app, ["admin", "create", "x", "--password", "short", "--db", url])
    assert r.exit_code == 2 and "too short" in r.output


# ---------------------------------------------------------------- cookies and sessions
def test_session_cookie_flags(app: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    c = TestClient(app)
    r = login(c, "viewer")
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
    tls = TestClient(app, base_url="https://tracker.example")
    r = login(tls, "viewer")
    assert "Secure" in r.headers["set-cookie"]


def test_forwarded_proto_marks_cookie_secure(db: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    from gputeam.web import create_app

    from .conftest import make_settings

    app = create_app(make_settings(secure_cookies=True), database=db, today=TODAY)
    r = login(TestClient(app), "viewer")
    assert "Secure" in r.headers["set-cookie"]


def test_tampered_cookie_is_anonymous(app: Any, world: World) -> None:
    c = logged_in(app, "admin")
    assert c.get("/api/v1/me").status_code == 200
    value = c.cookies.get("gputeam_session")
    c.cookies.set("gputeam_session", value[:-2] + ("AA" if value[-2:] != "AA" else "BB"))
    assert c.get("/api/v1/me").status_code == 401


def test_password_change_ends_sessions(app: Any, db: Any, world: World) -> None:
    c = logged_in(app, "manager")
    assert c.get("/api/v1/me").status_code == 200
    with db.session() as s:
        store.update_user(s, world.users["manager"], password="a brand new password")
    assert c.get("/api/v1/me").status_code == 401
    assert c.get("/", follow_redirects=False).headers["location"].startswith("/login")


def test_deactivated_user_is_locked_out(app: Any, db: Any, world: World) -> None:
    c = logged_in(app, "viewer")
    with db.session() as s:
        store.update_user(s, world.users["viewer"], active=False)
    assert c.get("/api/v1/me").status_code == 401
    assert login(c, "viewer").status_code == 401


def test_logout(app: Any, world: World) -> None:
    """(The old cookie is refused too: tests/web/test_web_access.py.)"""
    c = logged_in(app, "viewer")
    r = c.post("/logout", data={"csrf_token": c.csrf}, follow_redirects=False)
    assert r.status_code == 303
    assert c.get("/api/v1/me").status_code == 401


# ---------------------------------------------------------------- CSRF
def test_csrf_required_on_forms_and_cookie_api_calls(app: Any, db: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    c = logged_in(app, "admin")
    p3 = world.people["p3"]
    form = {"cert_id": "nca-aiio", "valid_from": "2026-03-03"}
    assert c.post(f"/people/{p3}/certifications", data=form, follow_redirects=False).status_code == 403
    assert (
        c.post(
            f"/people/{p3}/certifications", data={**form, "csrf_token": "forged"}, follow_redirects=False
        ).status_code
        == 403
    )
    assert (
        c.post(
            f"/people/{p3}/certifications", data={**form, "csrf_token": c.csrf}, follow_redirects=False
        ).status_code
        == 303
    )

    body = {"title": "changed"}
    assert c.patch(f"/api/v1/people/{p3}", json=body).status_code == 403
    assert c.patch(f"/api/v1/people/{p3}", json=body, headers={"X-CSRF-Token": c.csrf}).status_code == 200
    # another browser's token does not fit this session
    other = logged_in(app, "admin")
    assert c.patch(f"/api/v1/people/{p3}", json=body, headers={"X-CSRF-Token": other.csrf}).status_code == 403
    # the login form is protected too (login CSRF)
    anon = TestClient(app)
    r = anon.post("/login", data={"username": "admin", "password": PASSWORD}, follow_redirects=False)
    assert r.status_code == 403


def test_bearer_tokens_need_no_csrf(app: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    from .conftest import token_for

    c = TestClient(app, headers={"Authorization": "Bearer " + token_for(app, "admin", ["read", "write"])})
    r = c.patch(f"/api/v1/people/{world.people['p2']}", json={"title": "x"})
    assert r.status_code == 200
    bad = TestClient(app, headers={"Authorization": "Bearer gpt_not-a-token"})
    r = bad.get("/api/v1/me")
    assert r.status_code == 401 and "invalid_token" in r.headers["www-authenticate"]


# ---------------------------------------------------------------- login rate limiting
def test_login_throttle_per_account_and_address(app: Any, db: Any, world: World) -> None:
    """After the limit for one account from one address, that pair waits (Retry-After: the
    real wait, the first backoff step); other accounts from the same address and the
    same account from elsewhere are not refused (the issue: one user's typos locked the
    admin out of the same address)."""
    from fastapi.testclient import TestClient

    settings = app.state.settings
    c = TestClient(app, client=("10.5.0.1", 5000))
    for _ in range(settings.login_max_failures):
        r = login(c, "manager", "wrong password")
        assert r.status_code == 401 and "wrong username or password" in r.text
    r = login(c, "manager")  # the right password, but waiting
    assert r.status_code == 429
    assert 0 < int(r.headers["retry-after"]) <= settings.login_backoff_seconds
    assert f"retry in {r.headers['retry-after']} seconds" in r.text
    # the count lives in the database: a second app process sees it too
    from gputeam.web import create_app

    from .conftest import make_settings

    other = create_app(make_settings(), database=db, today=TODAY)
    assert login(TestClient(other, client=("10.5.0.1", 5000)), "manager").status_code == 429
    assert login(TestClient(app, client=("10.5.0.1", 5001)), "admin").status_code == 303
    assert login(TestClient(app, client=("10.5.0.2", 5000)), "manager").status_code == 303


def test_an_office_behind_one_proxy_is_not_locked_out(app: Any, world: World) -> None:
    """Typos of several users behind one address stay under the address's (higher)
    limit; password spraying beyond it is throttled."""
    from fastapi.testclient import TestClient

    from gputeam.web import create_app

    from .conftest import make_settings

    c = TestClient(app, client=("10.1.2.3", 4000))
    for name in ("viewer", "engineer", "manager", "nobody1", "nobody2", "nobody3"):
        assert login(c, name, "typo").status_code == 401
    assert login(c, "admin").status_code == 303
    strict = create_app(make_settings(login_max_failures_per_address=3), database=app.state.db, today=TODAY)
    sprayer = TestClient(strict, client=("10.1.2.3", 4001))
    r = login(sprayer, "admin")
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0


def test_an_attacker_cannot_lock_out_a_named_account(app: Any, world: World) -> None:
    """Failures for one account from many addresses throttle new addresses only; its
    owner, at an address they signed in from before, still gets in."""
    from fastapi.testclient import TestClient

    from gputeam.web import create_app

    from .conftest import make_settings

    desk = ("10.0.0.7", 3000)
    assert login(TestClient(app, client=desk), "admin").status_code == 303
    app2 = create_app(make_settings(login_max_failures_per_account=6), database=app.state.db, today=TODAY)
    for i in range(6):
        assert login(TestClient(app2, client=(f"203.0.113.{i}", 1)), "admin", "guess").status_code == 401
    # the attacker's next address waits
    assert login(TestClient(app2, client=("203.0.113.99", 1)), "admin").status_code == 429
    assert login(TestClient(app2, client=desk), "admin").status_code == 303
    r = login(TestClient(app2, client=("198.51.100.9", 1)), "admin")
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0


def test_unknown_and_wrong_password_look_alike(app: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    a = login(TestClient(app, client=("10.9.0.1", 1)), "nobody", "x" * 10)
    b = login(TestClient(app, client=("10.9.0.2", 1)), "admin", "x" * 10)
    assert a.status_code == b.status_code == 401
    assert "wrong username or password" in a.text and "wrong username or password" in b.text


def test_open_redirect_refused(app: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    c = TestClient(app)
    page = c.get("/login")
    r = c.post(
        "/login",
        data={
            "username": "viewer",
            "password": PASSWORD,
            "csrf_token": csrf_of(page.text),
            "next": "//evil.example/",
        },
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/"


def test_security_headers(app: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    r = TestClient(app).get("/login")
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert SECRET not in r.text
