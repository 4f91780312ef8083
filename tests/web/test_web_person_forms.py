"""Pages that change people: create and edit a person (with e-mail, background and role),
rate a skill, change your password.
Refused forms are shown again with the errors (422), with no traceback and nothing written."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import func, select, update

from gputeam import store

from .conftest import World, logged_in


def _audit(db: Any) -> int:
    with db.session() as s:
        return int(
            s.scalar(select(func.count(store.AuditEntry.id)).where(store.AuditEntry.action != "login")) or 0
        )


def _person_form(c: Any, **kw: str) -> dict[str, str]:
    return {
        "key": "n1",
        "name": "New Person",
        "title": "Sysadmin",
        "level": "2",
        "experience_months": "6",
        "weekly_study_hours": "5",
        "salary": "",
        "csrf_token": c.csrf,
    } | kw


def test_manager_adds_a_person_to_their_team(app: Any, db: Any, world: World) -> None:
    c = logged_in(app, "manager")
    assert 'href="/people/new"' in c.get("/people").text
    page = c.get("/people/new")
    assert page.status_code == 200 and 'name="csrf_token"' in page.text
    assert "Alpha" in page.text and "Beta" not in page.text
    r = c.post(
        "/people/new", data=_person_form(c, team_id=str(world.alpha), salary="90000"), follow_redirects=False
    )
    assert r.status_code == 303, r.text
    assert re.fullmatch(r"/people/\d+", r.headers["location"])  # the notice: a signed cookie
    with db.session() as s:
        p = store.get_person_by_key(s, world.org_id, "n1")
        assert p is not None and p.team_id == world.alpha and p.level == 2
        assert p.salary == 90000 and p.weekly_study_hours == 5 and p.title == "Sysadmin"
        entries = store.list_audit(s, entity="person", entity_id=p.id)
        assert [(e.actor, e.action) for e in entries] == [("manager", "create")]
    page = c.get(r.headers["location"]).text
    assert "New Person" in page and "Person added." in page


def test_person_form_errors_are_shown_and_nothing_written(app: Any, db: Any, world: World) -> None:
    c = logged_in(app, "manager")
    before = _audit(db)
    bad = _person_form(
        c,
        key="",
        level="9",
        experience_months="x",
        weekly_study_hours="41",
        salary="-1",
        team_id=str(world.beta),
    )
    r = c.post("/people/new", data=bad)
    assert r.status_code == 422
    assert "Traceback" not in r.text and "nothing was saved" in r.text
    for field in ("key", "level", "experience_months", "weekly_study_hours", "salary", "team_id"):
        assert f'id="err-{field}"' in r.text, field
    assert 'value="New Person"' in r.text  # what was typed is kept
    # a duplicate id is refused by the store, shown on the form
    r = c.post("/people/new", data=_person_form(c, key="p2", team_id=str(world.alpha)))
    assert r.status_code == 422 and 'id="err-key"' in r.text and "exists" in r.text
    # a manager must place the person in one of their teams
    r = c.post("/people/new", data=_person_form(c, team_id=""))
    assert r.status_code == 422 and 'id="err-team_id"' in r.text
    assert _audit(db) == before
    with db.session() as s:
        assert store.count_people(s, world.org_id) == 3


def test_admin_and_manager_edit_a_person(app: Any, db: Any, world: World) -> None:
    p2, p3 = world.people["p2"], world.people["p3"]
    m = logged_in(app, "manager")
    assert f'href="/people/{p2}/edit"' in m.get(f"/people/{p2}").text
    page = m.get(f"/people/{p2}/edit")
    assert page.status_code == 200 and 'value="Grace Hopper"' in page.text
    form = _person_form(m, key="p2", name="Grace B. Hopper", level="4", team_id=str(world.alpha))
    r = m.post(f"/people/{p2}/edit", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text
    with db.session() as s:
        p = store.get_person(s, p2)
        assert (p.name, p.level, p.team_id) == ("Grace B. Hopper", 4, world.alpha)
        assert store.list_audit(s, entity="person", entity_id=p2)[0].actor == "manager"
    # a manager may not move someone into a team that is not theirs
    before = _audit(db)
    r = m.post(f"/people/{p2}/edit", data=form | {"team_id": str(world.beta)})
    assert r.status_code == 422 and _audit(db) == before
    assert m.get(f"/people/{p3}/edit").status_code == 404
    a = logged_in(app, "admin")
    r = a.post(
        f"/people/{p3}/edit",
        data=_person_form(a, key="p3x", name="Linus T", team_id=str(world.alpha)),
        follow_redirects=False,
    )
    assert r.status_code == 303
    with db.session() as s:
        assert store.get_person(s, p3).key == "p3x"
    # the engineer sees no edit link on their own record
    e = logged_in(app, "engineer")
    assert "/edit" not in e.get(f"/people/{world.people['p1']}").text


def _person(db: Any, pid: int) -> tuple[Any, ...]:
    with db.session() as s:
        p = store.get_person(s, pid)
        return (p.key, p.name, p.email, p.title, p.background, p.level, p.role, p.team_id)


def test_person_form_sets_email_background_and_role(app: Any, db: Any, world: World) -> None:
    from gputeam.web import services

    roles = services.catalog(app).roles
    m = logged_in(app, "manager")
    page = m.get("/people/new").text
    assert 'name="email"' in page and 'value="sysadmin"' in page  # the API's default
    assert 'list="backgrounds"' in page and '<option value="network-engineer">' in page
    assert '<option value="">(none)</option>' in page
    for rid, role in roles.items():  # every catalog role, shown by name
        assert f'<option value="{rid}">{role.name}</option>' in page, rid
    form = _person_form(
        m,
        team_id=str(world.alpha),
        email=" new@example.org ",
        background="network-engineer",
        role="operations-engineer",
    )
    r = m.post("/people/new", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text
    pid = int(r.headers["location"].split("?")[0].rsplit("/", 1)[1])
    got = m.get(f"/api/v1/people/{pid}").json()
    assert (got["email"], got["background"], got["role"]) == (
        "new@example.org",
        "network-engineer",
        "operations-engineer",
    )
    shown = m.get(f"/people/{pid}").text
    assert "new@example.org" in shown and "network-engineer" in shown
    assert "<strong>Operations Engineer</strong>" in shown
    # the edit page is filled in with them
    page = m.get(f"/people/{pid}/edit").text
    assert 'value="new@example.org"' in page and 'value="network-engineer"' in page
    assert '<option value="operations-engineer" selected>' in page
    # changed, then cleared: e-mail and role become None, background blank (as the API's PATCH)
    r = m.post(
        f"/people/{pid}/edit",
        data=form | {"email": "n.p@example.org", "role": "senior-engineer"},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    got = m.get(f"/api/v1/people/{pid}").json()
    assert (got["email"], got["role"]) == ("n.p@example.org", "senior-engineer")
    r = m.post(
        f"/people/{pid}/edit",
        data=form | {"email": "", "background": " ", "role": ""},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    got = m.get(f"/api/v1/people/{pid}").json()
    assert (got["email"], got["background"], got["role"]) == (None, "", None)
    page = m.get(f"/people/{pid}/edit").text
    assert (
        'name="email" type="email" value=""' in page
        and " selected>" not in page.split('name="role"')[1].split("</select>")[0]
    )
    with db.session() as s:
        entries = store.list_audit(s, entity="person", entity_id=pid)
        assert sorted(e.action for e in entries) == ["create", "update", "update"]
        last = max(entries, key=lambda e: e.id)
        assert last.before["email"] == "n.p@example.org" and last.after["email"] is None
        assert last.before["role"] == "senior-engineer" and last.after["role"] is None
    # a form without the new fields (opened before they existed) leaves them alone
    p1 = world.people["p1"]
    a = logged_in(app, "admin")
    full = form | {"key": "p1", "email": "ada@example.org", "csrf_token": a.csrf}
    a.post(f"/people/{p1}/edit", data=full).raise_for_status()
    stale = {k: v for k, v in full.items() if k not in ("email", "background", "role")}
    r = a.post(f"/people/{p1}/edit", data=stale | {"name": "Ada L"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    assert _person(db, p1)[1:3] == ("Ada L", "ada@example.org")
    assert _person(db, p1)[4] == "network-engineer" and _person(db, p1)[6] == "operations-engineer"


def test_person_form_refuses_bad_email_and_unknown_role(app: Any, db: Any, world: World) -> None:
    from gputeam.web import services

    roles = services.catalog(app).roles
    a = logged_in(app, "admin")
    before = _audit(db)
    for email in (
        "not-an-email",
        "a@b",
        "a b@example.org",
        "@example.org",
        "x@@example.org",
        "x" * 320 + "@example.org",
    ):
        r = a.post("/people/new", data=_person_form(a, email=email, role="senior-engineer"))
        assert r.status_code == 422, email
        assert 'id="err-email"' in r.text and 'id="err-role"' not in r.text, email
        assert f'value="{email}"' in r.text and "nothing was saved" in r.text
        assert '<option value="senior-engineer" selected>' in r.text  # the input is kept
    r = a.post(
        "/people/new", data=_person_form(a, role="wizard", background="b" * 51, email="ok@example.org")
    )
    assert r.status_code == 422 and "Traceback" not in r.text
    assert 'id="err-email"' not in r.text and 'id="err-background"' in r.text
    error = re.search(r'<span class="error" id="err-role">([^<]*)</span>', r.text)
    assert error and "Role" in error.group(1) and "wizard" in error.group(1)
    assert all(rid in error.group(1) for rid in roles) and "none" in error.group(1)
    assert '<option value="wizard" selected>wizard (not in the catalog)</option>' in r.text
    assert 'value="ok@example.org"' in r.text
    # editing: refused the same way, the person unchanged
    p1 = world.people["p1"]
    was = _person(db, p1)
    edit = _person_form(
        a, key="p1", name="Ada", email="ada@example.org", role="operations-engineer", team_id=str(world.alpha)
    )
    for bad, field in (
        ({"email": "ada at example.org"}, "email"),
        ({"role": "wizard"}, "role"),
        ({"role": "Operations Engineer"}, "role"),
    ):
        r = a.post(f"/people/{p1}/edit", data=edit | bad)
        assert r.status_code == 422 and f'id="err-{field}"' in r.text, bad
        assert 'value="Ada"' in r.text
    assert _person(db, p1) == was and _audit(db) == before
    with db.session() as s:
        assert store.count_people(s, world.org_id) == 3


def test_person_form_keeps_a_role_the_catalog_no_longer_has(app: Any, db: Any, world: World) -> None:
    p2 = world.people["p2"]
    with db.session() as s:  # e.g. from a catalog extension since removed (the store refuses it now)
        s.execute(update(store.Person).where(store.Person.id == p2).values(role="legacy-role"))
    m = logged_in(app, "manager")
    page = m.get(f"/people/{p2}/edit").text
    assert '<option value="legacy-role" selected>legacy-role (not in the catalog)' in page
    form = _person_form(m, key="p2", name="Grace Hopper", role="legacy-role", team_id=str(world.alpha))
    r = m.post(f"/people/{p2}/edit", data=form | {"level": "3"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    assert _person(db, p2)[5:7] == (3, "legacy-role")
    # another role outside the catalog is still refused
    r = m.post(f"/people/{p2}/edit", data=form | {"role": "other-legacy"})
    assert r.status_code == 422 and 'id="err-role"' in r.text
    assert _person(db, p2)[6] == "legacy-role"


def test_skill_rating_form_keeps_history(app: Any, db: Any, world: World) -> None:
    p1, p2 = world.people["p1"], world.people["p2"]
    e = logged_in(app, "engineer")  # their own record
    page = e.get(f"/people/{p1}")
    assert f'action="/people/{p1}/skills"' in page.text and "Rating history" in page.text
    r = e.post(
        f"/people/{p1}/skills",
        data={"domain": "linux", "proficiency": "4", "note": "RHCE", "csrf_token": e.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    m = logged_in(app, "manager")
    r = m.post(
        f"/people/{p2}/skills",
        data={"domain": "linux", "proficiency": "0", "csrf_token": m.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 303
    with db.session() as s:  # the engineer's own rating waits for the manager
        assert store.current_skills(s, [p1, p2]) == {p1: {"linux": 3}, p2: {"linux": 0}}
    [waiting] = m.get("/api/v1/approvals").json()
    assert (
        m.post(f"/api/v1/approvals/{waiting['id']}/approve", headers={"X-CSRF-Token": m.csrf}).status_code
        == 200
    )
    with db.session() as s:
        assert store.current_skills(s, [p1, p2]) == {p1: {"linux": 4}, p2: {"linux": 0}}
        history = store.skill_history(s, p1, "linux")
        assert [(h.proficiency, h.rated_by, h.note) for h in history] == [
            (3, None, ""),
            (4, "engineer, approved by manager", "RHCE"),
        ]
    assert "RHCE" in e.get(f"/people/{p1}").text
    # refused: unknown domain, proficiency out of range; nothing written, form shown again
    before = _audit(db)
    for data in (
        {"domain": "no-such", "proficiency": "2"},
        {"domain": "linux", "proficiency": "5"},
        {"domain": "linux", "proficiency": "x"},
    ):
        r = e.post(f"/people/{p1}/skills", data=data | {"csrf_token": e.csrf})
        assert r.status_code == 422 and "The rating was not saved" in r.text
        assert "Traceback" not in r.text and 'class="error"' in r.text
    assert _audit(db) == before
    # the engineer may not rate anyone else; without the CSRF field nothing happens
    assert (
        e.post(
            f"/people/{p2}/skills", data={"domain": "linux", "proficiency": "1", "csrf_token": e.csrf}
        ).status_code
        == 404
    )
    assert m.post(f"/people/{p2}/skills", data={"domain": "linux", "proficiency": "1"}).status_code == 403
    assert _audit(db) == before


def test_password_change_ends_other_sessions(app: Any, db: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    from .conftest import PASSWORD, login

    here, elsewhere = logged_in(app, "viewer"), logged_in(app, "viewer")
    page = here.get("/account")
    assert 'action="/account/password"' in page.text and 'minlength="8"' in page.text
    form = {
        "current_password": PASSWORD,
        "new_password": "a much better one",
        "new_password_again": "a much better one",
        "csrf_token": here.csrf,
    }
    r = here.post("/account/password", data=form, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/account?changed=1"
    page = here.get("/account?changed=1", follow_redirects=False)  # this session continues
    assert page.status_code == 200 and "Password changed" in page.text
    r = elsewhere.get("/account", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/login")
    assert login(TestClient(app), "viewer").status_code == 401
    assert login(TestClient(app), "viewer", "a much better one").status_code == 303
    with db.session() as s:
        entries = store.list_audit(s, entity="user", entity_id=world.users["viewer"])
        updates = [e for e in entries if e.action == "update"]
        assert [(e.actor, e.after["password_changed"]) for e in updates] == [("viewer", True)]
        assert "password_hash" not in str(updates[0].after) or updates[0].after.get("password_hash") in (
            None,
            "***",
        )


def test_password_change_errors_change_nothing(app: Any, db: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    from .conftest import PASSWORD, login

    c = logged_in(app, "engineer")
    with db.session() as s:
        before = store.get_user(s, world.users["engineer"]).password_hash
    cases = [
        (
            {
                "current_password": "wrong",
                "new_password": "long enough 1",
                "new_password_again": "long enough 1",
            },
            "current_password",
        ),
        (
            {"current_password": PASSWORD, "new_password": "short", "new_password_again": "short"},
            "new_password",
        ),
        (
            {
                "current_password": PASSWORD,
                "new_password": "long enough 1",
                "new_password_again": "long enough 2",
            },
            "new_password_again",
        ),
    ]
    for data, field in cases:
        r = c.post("/account/password", data=data | {"csrf_token": c.csrf})
        assert r.status_code == 422 and f'id="err-{field}"' in r.text, (field, r.text[-500:])
        assert "Traceback" not in r.text and "The password was not changed" in r.text
    # no CSRF field: refused
    ok = {
        "current_password": PASSWORD,
        "new_password": "long enough 1",
        "new_password_again": "long enough 1",
    }
    assert c.post("/account/password", data=ok).status_code == 403
    assert TestClient(app).post("/account/password", data=ok, follow_redirects=False).status_code in (
        303,
        403,
    )
    with db.session() as s:
        assert store.get_user(s, world.users["engineer"]).password_hash == before
    assert login(TestClient(app), "engineer").status_code == 303
    # wrong current passwords are rate-limited like logins
    for _ in range(6):
        r = c.post("/account/password", data=ok | {"current_password": "wrong", "csrf_token": c.csrf})
    assert r.status_code == 429 and "Retry-After" in r.headers
