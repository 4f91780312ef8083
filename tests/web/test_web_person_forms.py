"""Pages that change people: create and edit a person, rate a skill, change your password.
Refused forms are shown again with the errors (422), with no traceback and nothing written."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import func, select

from gputeam import store

from .conftest import World, logged_in


def _audit(db: Any) -> int:
    with db.session() as s:
        return int(s.scalar(select(func.count(store.AuditEntry.id))
                            .where(store.AuditEntry.action != "login")) or 0)


def _person_form(c: Any, **kw: str) -> dict[str, str]:
    return {"key": "n1", "name": "New Person", "title": "Sysadmin", "level": "2",
            "experience_months": "6", "weekly_study_hours": "5", "salary": "",
            "csrf_token": c.csrf} | kw


def test_manager_adds_a_person_to_their_team(app: Any, db: Any, world: World) -> None:
    c = logged_in(app, "manager")
    assert 'href="/people/new"' in c.get("/people").text
    page = c.get("/people/new")
    assert page.status_code == 200 and 'name="csrf_token"' in page.text
    assert "Alpha" in page.text and "Beta" not in page.text
    r = c.post("/people/new", data=_person_form(c, team_id=str(world.alpha), salary="90000"),
               follow_redirects=False)
    assert r.status_code == 303, r.text
    assert re.match(r"/people/\d+\?flash=", r.headers["location"])
    with db.session() as s:
        p = store.get_person_by_key(s, world.org_id, "n1")
        assert p is not None and p.team_id == world.alpha and p.level == 2
        assert p.salary == 90000 and p.weekly_study_hours == 5 and p.title == "Sysadmin"
        entries = store.list_audit(s, entity="person", entity_id=p.id)
        assert [(e.actor, e.action) for e in entries] == [("manager", "create")]
    assert "New Person" in c.get(r.headers["location"]).text


def test_person_form_errors_are_shown_and_nothing_written(app: Any, db: Any,
                                                          world: World) -> None:
    c = logged_in(app, "manager")
    before = _audit(db)
    bad = _person_form(c, key="", level="9", experience_months="x", weekly_study_hours="41",
                       salary="-1", team_id=str(world.beta))
    r = c.post("/people/new", data=bad)
    assert r.status_code == 422
    assert "Traceback" not in r.text and "nothing was saved" in r.text
    for field in ("key", "level", "experience_months", "weekly_study_hours", "salary",
                  "team_id"):
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
    form = _person_form(m, key="p2", name="Grace B. Hopper", level="4",
                        team_id=str(world.alpha))
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
    r = a.post(f"/people/{p3}/edit", data=_person_form(a, key="p3x", name="Linus T",
                                                       team_id=str(world.alpha)),
               follow_redirects=False)
    assert r.status_code == 303
    with db.session() as s:
        assert store.get_person(s, p3).key == "p3x"
    # the engineer sees no edit link on their own record
    e = logged_in(app, "engineer")
    assert "/edit" not in e.get(f"/people/{world.people['p1']}").text


def test_skill_rating_form_keeps_history(app: Any, db: Any, world: World) -> None:
    p1, p2 = world.people["p1"], world.people["p2"]
    e = logged_in(app, "engineer")  # their own record
    page = e.get(f"/people/{p1}")
    assert f'action="/people/{p1}/skills"' in page.text and "Rating history" in page.text
    r = e.post(f"/people/{p1}/skills", data={"domain": "linux", "proficiency": "4",
                                             "note": "RHCE", "csrf_token": e.csrf},
               follow_redirects=False)
    assert r.status_code == 303, r.text
    m = logged_in(app, "manager")
    r = m.post(f"/people/{p2}/skills", data={"domain": "linux", "proficiency": "0",
                                             "csrf_token": m.csrf}, follow_redirects=False)
    assert r.status_code == 303
    with db.session() as s:
        assert store.current_skills(s, [p1, p2]) == {p1: {"linux": 4}, p2: {"linux": 0}}
        history = store.skill_history(s, p1, "linux")
        assert [(h.proficiency, h.rated_by, h.note) for h in history] == [
            (3, None, ""), (4, "engineer", "RHCE")]
    assert "RHCE" in e.get(f"/people/{p1}").text
    # refused: unknown domain, proficiency out of range; nothing written, form shown again
    before = _audit(db)
    for data in ({"domain": "no-such", "proficiency": "2"},
                 {"domain": "linux", "proficiency": "5"},
                 {"domain": "linux", "proficiency": "x"}):
        r = e.post(f"/people/{p1}/skills", data=data | {"csrf_token": e.csrf})
        assert r.status_code == 422 and "The rating was not saved" in r.text
        assert "Traceback" not in r.text and 'class="error"' in r.text
    assert _audit(db) == before
    # the engineer may not rate anyone else; without the CSRF field nothing happens
    assert e.post(f"/people/{p2}/skills", data={"domain": "linux", "proficiency": "1",
                                                "csrf_token": e.csrf}).status_code == 404
    assert m.post(f"/people/{p2}/skills",
                  data={"domain": "linux", "proficiency": "1"}).status_code == 403
    assert _audit(db) == before


def test_password_change_ends_other_sessions(app: Any, db: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    from .conftest import PASSWORD, login

    here, elsewhere = logged_in(app, "viewer"), logged_in(app, "viewer")
    page = here.get("/account")
    assert 'action="/account/password"' in page.text and 'minlength="8"' in page.text
    form = {"current_password": PASSWORD, "new_password": "a much better one",
            "new_password_again": "a much better one", "csrf_token": here.csrf}
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
        assert "password_hash" not in str(updates[0].after) or \
            updates[0].after.get("password_hash") in (None, "***")


def test_password_change_errors_change_nothing(app: Any, db: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    from .conftest import PASSWORD, login

    c = logged_in(app, "engineer")
    with db.session() as s:
        before = store.get_user(s, world.users["engineer"]).password_hash
    cases = [({"current_password": "wrong", "new_password": "long enough 1",
               "new_password_again": "long enough 1"}, "current_password"),
             ({"current_password": PASSWORD, "new_password": "short",
               "new_password_again": "short"}, "new_password"),
             ({"current_password": PASSWORD, "new_password": "long enough 1",
               "new_password_again": "long enough 2"}, "new_password_again")]
    for data, field in cases:
        r = c.post("/account/password", data=data | {"csrf_token": c.csrf})
        assert r.status_code == 422 and f'id="err-{field}"' in r.text, (field, r.text[-500:])
        assert "Traceback" not in r.text and "The password was not changed" in r.text
    # no CSRF field: refused
    ok = {"current_password": PASSWORD, "new_password": "long enough 1",
          "new_password_again": "long enough 1"}
    assert c.post("/account/password", data=ok).status_code == 403
    assert TestClient(app).post("/account/password", data=ok,
                                follow_redirects=False).status_code in (303, 403)
    with db.session() as s:
        assert store.get_user(s, world.users["engineer"]).password_hash == before
    assert login(TestClient(app), "engineer").status_code == 303
    # wrong current passwords are rate-limited like logins
    for _ in range(6):
        r = c.post("/account/password", data=ok | {"current_password": "wrong",
                                                   "csrf_token": c.csrf})
    assert r.status_code == 429 and "Retry-After" in r.headers
