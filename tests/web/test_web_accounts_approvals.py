"""The web's side of the account findings (OWASP ASVS 4.0 level 2): the idle session
timeout, the Permissions-Policy header, common passwords refused on the account page, and
records an engineer makes for themself waiting for a manager's or an admin's approval
before they count; course hours bounded by the catalog."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from tests.web.conftest import TODAY, World, csrf_of, logged_in, make_settings, token_for

from gputeam import store


class Clock:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


START = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


# ---------------------------------------------------------------- headers
def test_every_response_carries_a_permissions_policy(app: Any, client: Any) -> None:
    """The finding: no Permissions-Policy header."""
    c = logged_in(app, "admin")
    for r in (
        client.get("/login"),
        c.get("/"),
        c.get("/api/v1/people"),
        client.get("/api/v1/people"),  # 401
        client.get("/no-such-page"),
        client.get("/static/app.css"),
    ):
        policy = r.headers.get("permissions-policy", "")
        assert "camera=()" in policy and "geolocation=()" in policy and "microphone=()" in policy, r.url


# ---------------------------------------------------------------- idle sessions
def test_a_session_idle_longer_than_the_setting_ends(app: Any) -> None:
    """The finding: sessions lasted 14 days with no idle timeout."""
    app.state.now = Clock(START)
    c = logged_in(app, "engineer")
    assert app.state.settings.session_idle_seconds == 1800
    for minutes in (20, 45, 70):  # each request within 30 minutes of the one before
        app.state.now.at = START + timedelta(minutes=minutes)
        assert c.get("/api/v1/people").status_code == 200, minutes
    app.state.now.at = START + timedelta(minutes=70 + 31)
    assert c.get("/api/v1/people").status_code == 401
    r = c.get("/account", follow_redirects=False)
    assert r.status_code in (303, 307, 401) and "/account" not in r.headers.get("location", "/x")[:8]


def test_the_idle_timeout_holds_across_processes(db: Any, world: World) -> None:
    """Requests that went to another process keep the session alive in this one."""
    from fastapi.testclient import TestClient

    from gputeam.web import create_app

    one = create_app(make_settings(), database=db, today=TODAY)
    two = create_app(make_settings(), database=db, today=TODAY)
    one.state.now = two.state.now = Clock(START)
    c = logged_in(one, "engineer")
    assert c.get("/api/v1/people").status_code == 200  # process one remembers START
    other = TestClient(two, cookies=c.cookies)
    for minutes in (25, 50):
        one.state.now.at = START + timedelta(minutes=minutes)
        assert other.get("/api/v1/people").status_code == 200
    one.state.now.at = START + timedelta(minutes=70)  # 70 after one saw it, 20 after two did
    assert c.get("/api/v1/people").status_code == 200


def test_the_idle_timeout_is_a_setting(db: Any, world: World) -> None:
    from gputeam.web import create_app

    app = create_app(make_settings(session_idle_seconds=600), database=db, today=TODAY)
    app.state.now = Clock(START)
    c = logged_in(app, "engineer")
    app.state.now.at = START + timedelta(minutes=11)
    assert c.get("/api/v1/people").status_code == 401


# ---------------------------------------------------------------- passwords
def test_the_account_page_refuses_a_common_password(app: Any) -> None:
    from tests.web.conftest import PASSWORD

    c = logged_in(app, "engineer")
    page = c.get("/account")
    r = c.post(
        "/account/password",
        data={
            "current_password": PASSWORD,
            "new_password": "password1234",
            "new_password_again": "password1234",
            "csrf_token": csrf_of(page.text),
        },
    )
    assert r.status_code == 422
    assert "common" in r.text or "guess" in r.text


def test_the_users_api_refuses_aaaaaaaa(app: Any) -> None:
    c = logged_in(app, "admin")
    r = c.post(
        "/api/v1/users",
        json={"username": "weak", "password": "aaaaaaaa", "role": "viewer"},
        headers={"X-CSRF-Token": c.csrf},
    )
    assert r.status_code == 422, r.text
    assert r.json()["problems"][0]["path"] == "password"


# ---------------------------------------------------------------- approvals
def _certs(c: Any, pid: int) -> list[str]:
    return [x["cert_id"] for x in c.get(f"/api/v1/people/{pid}/certifications").json()]


def test_an_engineers_own_certificate_waits_for_a_manager(app: Any, world: World) -> None:
    """The finding: an engineer recorded a certification for themself with their write
    token and it counted in compliance at once, with no approval and no evidence."""
    pid = world.people["p1"]
    token = token_for(app, "engineer", ["read", "write"])
    from fastapi.testclient import TestClient

    eng = TestClient(app, headers={"Authorization": f"Bearer {token}"})
    before = _certs(eng, pid)
    r = eng.post(
        f"/api/v1/people/{pid}/certifications",
        json={"cert_id": "ncp-aii", "valid_from": "2026-11-01", "evidence_url": "https://badges.example/1"},
    )
    assert r.status_code == 202, r.text
    body = r.json()
    assert body["status"] == "pending" and body["approval"]["evidence_url"] == "https://badges.example/1"
    assert _certs(eng, pid) == before  # not counted
    assert eng.get("/api/v1/approvals").status_code == 403  # an engineer decides nothing

    manager = logged_in(app, "manager")
    waiting = manager.get("/api/v1/approvals").json()
    assert [a["id"] for a in waiting] == [body["approval"]["id"]]
    r = manager.post(f"/api/v1/approvals/{waiting[0]['id']}/approve", headers={"X-CSRF-Token": manager.csrf})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "approved"
    assert "ncp-aii" in _certs(eng, pid)
    r = manager.post(f"/api/v1/approvals/{waiting[0]['id']}/approve", headers={"X-CSRF-Token": manager.csrf})
    assert r.status_code == 422  # already decided


def test_an_engineers_own_rating_does_not_raise_the_matrix(app: Any, world: World) -> None:
    """The finding: an engineer raised their own skill rating with their write token."""
    pid = world.people["p1"]
    eng = logged_in(app, "engineer")
    r = eng.put(
        f"/api/v1/people/{pid}/skills/linux", json={"proficiency": 4}, headers={"X-CSRF-Token": eng.csrf}
    )
    assert r.status_code == 202, r.text
    person = eng.get(f"/api/v1/people/{pid}").json()
    assert person["skills"]["linux"] == 3
    admin = logged_in(app, "admin")
    aid = r.json()["approval"]["id"]
    r = admin.post(
        f"/api/v1/approvals/{aid}/reject", json={"note": "show me"}, headers={"X-CSRF-Token": admin.csrf}
    )
    assert r.status_code == 200 and r.json()["status"] == "rejected"
    assert eng.get(f"/api/v1/people/{pid}").json()["skills"]["linux"] == 3


def test_a_manager_rates_their_engineer_at_once(app: Any, world: World) -> None:
    pid = world.people["p1"]
    manager = logged_in(app, "manager")
    r = manager.put(
        f"/api/v1/people/{pid}/skills/linux", json={"proficiency": 4}, headers={"X-CSRF-Token": manager.csrf}
    )
    assert r.status_code == 200, r.text
    assert manager.get(f"/api/v1/people/{pid}").json()["skills"]["linux"] == 4


def test_a_manager_decides_only_for_their_teams(app: Any, world: World, db: Any) -> None:
    with db.session() as s:
        beta = store.request_skill(s, world.people["p3"], "linux", 4, actor="linus")
        beta_id = beta.id
    manager = logged_in(app, "manager")
    assert beta_id not in [a["id"] for a in manager.get("/api/v1/approvals").json()]
    r = manager.post(f"/api/v1/approvals/{beta_id}/approve", headers={"X-CSRF-Token": manager.csrf})
    assert r.status_code in (403, 404)
    admin = logged_in(app, "admin")
    assert beta_id in [a["id"] for a in admin.get("/api/v1/approvals").json()]


def test_nobody_approves_their_own_record(app: Any, world: World, db: Any) -> None:
    """A manager linked to a person of their own team: their own record waits for another."""
    with db.session() as s:
        store.update_user(s, world.users["manager"], person_id=world.people["p2"])
    manager = logged_in(app, "manager")
    pid = world.people["p2"]
    r = manager.put(
        f"/api/v1/people/{pid}/skills/linux", json={"proficiency": 4}, headers={"X-CSRF-Token": manager.csrf}
    )
    assert r.status_code == 202
    aid = r.json()["approval"]["id"]
    assert aid not in [a["id"] for a in manager.get("/api/v1/approvals").json()]
    r = manager.post(f"/api/v1/approvals/{aid}/approve", headers={"X-CSRF-Token": manager.csrf})
    assert r.status_code == 403


def test_999_hours_on_an_8_hour_course_answer_422(app: Any, world: World) -> None:
    """The finding: 999 hours on an 8-hour course were accepted."""
    pid = world.people["p2"]
    manager = logged_in(app, "manager")
    h = {"X-CSRF-Token": manager.csrf}
    r = manager.post(
        f"/api/v1/people/{pid}/enrolments",
        json={"course_id": "fundamentals-dl", "started_on": "2026-11-01", "hours_done": 999},
        headers=h,
    )
    assert r.status_code == 422, r.text
    problem = r.json()["problems"][0]
    assert problem["path"] == "hours_done" and problem["expected"] == "0-12"
    r = manager.post(
        f"/api/v1/people/{pid}/enrolments",
        json={"course_id": "fundamentals-dl", "started_on": "2026-11-01"},
        headers=h,
    )
    eid = r.json()["id"]
    r = manager.patch(f"/api/v1/enrolments/{eid}", json={"hours_done": 999}, headers=h)
    assert r.status_code == 422
    r = manager.patch(f"/api/v1/enrolments/{eid}", json={"hours_done": 12}, headers=h)
    assert r.status_code == 200 and r.json()["hours_done"] == 12


def test_an_engineers_own_hours_wait(app: Any, world: World) -> None:
    pid = world.people["p1"]
    eng = logged_in(app, "engineer")
    h = {"X-CSRF-Token": eng.csrf}
    r = eng.post(
        f"/api/v1/people/{pid}/enrolments",
        json={"course_id": "fundamentals-dl", "started_on": "2026-11-01", "hours_done": 6},
        headers=h,
    )
    assert r.status_code == 201, r.text
    assert r.json()["hours_done"] == 0 and r.json()["approval"]["record"]["hours_done"] == 6
    eid = r.json()["id"]
    r = eng.patch(
        f"/api/v1/enrolments/{eid}", json={"hours_done": 8, "completed_on": "2026-11-20"}, headers=h
    )
    assert r.status_code == 202
    enrolments = eng.get(f"/api/v1/people/{pid}/enrolments").json()
    assert [(e["hours_done"], e["completed_on"]) for e in enrolments if e["id"] == eid] == [(0, None)]
    manager = logged_in(app, "manager")
    for a in manager.get("/api/v1/approvals").json():
        assert (
            manager.post(
                f"/api/v1/approvals/{a['id']}/approve", headers={"X-CSRF-Token": manager.csrf}
            ).status_code
            == 200
        )
    enrolments = eng.get(f"/api/v1/people/{pid}/enrolments").json()
    assert [(e["hours_done"], e["completed_on"]) for e in enrolments if e["id"] == eid] == [(8, "2026-11-20")]


def test_the_pages_send_own_records_for_approval(app: Any, world: World) -> None:
    pid = world.people["p1"]
    eng = logged_in(app, "engineer")
    page = eng.get(f"/people/{pid}")
    assert 'name="evidence_url"' in page.text
    r = eng.post(
        f"/people/{pid}/certifications",
        data={
            "cert_id": "ncp-aii",
            "valid_from": "2026-11-01",
            "evidence_url": "https://badges.example/2",
            "csrf_token": csrf_of(page.text),
        },
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert "?" not in r.headers["location"]  # the notice travels in the signed cookie
    page = eng.get(r.headers["location"])
    assert "sent for approval" in page.text and "Waiting for approval" in page.text
    assert "ncp-aii" not in _certs(eng, pid)

    manager = logged_in(app, "manager")
    listing = manager.get("/approvals")
    assert listing.status_code == 200 and "https://badges.example/2" in listing.text
    aid = manager.get("/api/v1/approvals").json()[0]["id"]
    r = manager.post(
        f"/approvals/{aid}/approve", data={"csrf_token": csrf_of(listing.text)}, follow_redirects=False
    )
    assert r.status_code == 303 and r.headers["location"] == "/approvals"
    assert "counts from now on" in manager.get("/approvals").text
    assert "ncp-aii" in _certs(eng, pid)
    assert eng.get("/approvals").status_code == 403


def test_the_migration_keeps_existing_sessions(db: Any) -> None:
    """Sessions started before 0011 have no last request: their start counts."""
    with db.session() as s:
        org = store.create_organisation(s, "Acme")
        del org
        u = store.create_user(s, "old", "ocelot granite tundra", "viewer")
        row = store.start_session(s, u.id, "old-sid", expires_at=START + timedelta(days=1), now=START)
        assert row.last_seen_at is None
    with db.session() as s:
        caller = store.find_caller(s, sid="old-sid")
        assert caller is not None and caller.last_used_at == START
    assert date(2026, 12, 2) == TODAY
