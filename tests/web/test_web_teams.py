"""Teams from the pages and the API (issue 10 §2): create, rename, archive, assign, enrol a
team in a learning path, the burn-up; managers only their own team, engineers none;
refused forms keep the user's place. The export page. SQLite and PostgreSQL."""

from __future__ import annotations

import io
import json
import re
import zipfile
from datetime import date
from typing import Any

import pytest

from gputeam import store

from .conftest import World, logged_in


def _team_actions(db: Any, team_id: int) -> list[tuple[str | None, str]]:
    with db.session() as s:
        return [
            (e.actor, e.action)
            for e in store.list_audit(s, entity="team", entity_id=team_id, oldest_first=True)
        ]


def test_admin_runs_teams_from_the_pages(app: Any, db: Any, world: World) -> None:
    c = logged_in(app, "admin")
    assert 'href="/teams"' in c.get("/").text
    r = c.post("/teams", data={"name": "Fabric", "csrf_token": c.csrf}, follow_redirects=False)
    assert r.status_code == 303
    fabric = int(r.headers["location"].split("?")[0].rsplit("/", 1)[1])
    # a duplicate name: the list again, the message beside the field, the value kept
    r = c.post("/teams", data={"name": "Alpha", "csrf_token": c.csrf})
    assert r.status_code == 422 and 'id="err-name"' in r.text and "exists" in r.text
    assert 'value="Alpha"' in r.text and "Traceback" not in r.text
    r = c.post(f"/teams/{fabric}/rename", data={"name": "Beta", "csrf_token": c.csrf})
    assert r.status_code == 422 and 'id="err-name"' in r.text and 'value="Beta"' in r.text
    r = c.post(
        f"/teams/{fabric}/rename", data={"name": "Fabric Ops", "csrf_token": c.csrf}, follow_redirects=False
    )
    assert r.status_code == 303
    # move p3 from Beta into it; Beta, now empty, can be archived
    r = c.post(
        f"/teams/{fabric}/people",
        data={"person_id": [str(world.people["p3"])], "csrf_token": c.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == f"/teams/{fabric}"
    assert "1 moved into the team." in c.get(r.headers["location"]).text  # the notice
    r = c.post(f"/teams/{world.alpha}/archive", data={"csrf_token": c.csrf})
    assert r.status_code == 422 and 'id="err-archive"' in r.text and "move them" in r.text
    r = c.post(f"/teams/{world.beta}/archive", data={"csrf_token": c.csrf}, follow_redirects=False)
    assert r.status_code == 303
    page = c.get("/teams").text
    assert "Fabric Ops" in page and "archived" in page
    team = c.get(f"/teams/{fabric}").text
    assert "Linus T" in team and "Plan against actual" in team
    assert _team_actions(db, fabric) == [("admin", "create"), ("admin", "rename")]
    assert _team_actions(db, world.beta)[-1] == ("admin", "archive")
    with db.session() as s:
        assert store.get_person(s, world.people["p3"]).team_id == fabric


def test_enrol_a_team_in_a_path_from_the_page(app: Any, db: Any, world: World, catalog: Any) -> None:
    path = next(iter(catalog.paths.values()))
    m = logged_in(app, "manager")
    page = m.get(f"/teams/{world.alpha}").text
    assert f'value="path:{path.id}"' in page
    bad = m.post(
        f"/teams/{world.alpha}/enrol",
        data={"target": "path:nope", "started_on": "2026-13-01", "csrf_token": m.csrf},
    )
    assert bad.status_code == 422
    assert 'id="err-target"' in bad.text and 'id="err-started_on"' in bad.text
    assert 'value="2026-13-01"' in bad.text
    r = m.post(
        f"/teams/{world.alpha}/enrol",
        data={"target": f"path:{path.id}", "started_on": "2026-11-02", "csrf_token": m.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 303
    with db.session() as s:
        got = sorted((e.person.key, e.course_id) for e in store.list_enrolments(s, org_id=world.org_id))
    assert got == sorted((k, c) for k in ("p1", "p2") for c in path.courses)
    text = m.get(f"/teams/{world.alpha}").text
    assert f"{len(path.courses) * 2} open enrolments" in text


def test_manager_only_their_team_engineer_none(app: Any, db: Any, world: World) -> None:
    m = logged_in(app, "manager")
    h = {"X-CSRF-Token": m.csrf}
    listed = m.get("/teams").text
    assert "Alpha" in listed and "Beta" not in listed
    assert m.get(f"/teams/{world.beta}").status_code == 404
    assert m.patch(f"/api/v1/teams/{world.beta}", json={"name": "X"}, headers=h).status_code == 404
    assert m.post("/api/v1/teams", json={"name": "Mine"}, headers=h).status_code == 403
    # p3 is in Beta: a manager of Alpha may not take them
    r = m.post(f"/api/v1/teams/{world.alpha}/people", json={"person_ids": [world.people["p3"]]}, headers=h)
    assert r.status_code == 404
    r = m.patch(f"/api/v1/teams/{world.alpha}", json={"name": "Alpha One"}, headers=h)
    assert r.status_code == 200 and r.json()["name"] == "Alpha One"
    detail = m.get(f"/api/v1/teams/{world.alpha}").json()
    assert sorted(p["key"] for p in detail["people"]) == ["p1", "p2"]
    assert detail["learning"]["enrolments_open"] == 0
    e = logged_in(app, "engineer")
    assert e.get("/teams").status_code == 403
    assert e.get(f"/teams/{world.alpha}").status_code == 404
    assert (
        e.patch(
            f"/api/v1/teams/{world.alpha}", json={"name": "E"}, headers={"X-CSRF-Token": e.csrf}
        ).status_code
        == 403
    )
    assert 'href="/teams"' not in e.get("/").text
    assert _team_actions(db, world.alpha)[-1] == ("manager", "rename")


def test_api_archive_enrol_and_burnup(app: Any, db: Any, world: World, catalog: Any) -> None:
    a = logged_in(app, "admin")
    h = {"X-CSRF-Token": a.csrf}
    course = next(iter(catalog.courses))
    r = a.post(
        f"/api/v1/teams/{world.alpha}/enrolments",
        json={"course_id": course, "path_id": "x", "started_on": "2026-11-01"},
        headers=h,
    )
    assert r.status_code == 422 and r.json()["problems"][0]["path"] == "course_id"
    r = a.post(
        f"/api/v1/teams/{world.alpha}/enrolments",
        json={"course_id": course, "started_on": "2026-11-01"},
        headers=h,
    )
    assert r.status_code == 201 and len(r.json()["created"]) == 2
    r = a.patch(f"/api/v1/teams/{world.alpha}", json={"archived": True}, headers=h)
    assert r.status_code == 422 and "move them" in r.text
    a.post(
        f"/api/v1/teams/{world.beta}/people",
        json={"person_ids": [world.people["p1"], world.people["p2"]]},
        headers=h,
    )
    assert (
        a.patch(f"/api/v1/teams/{world.alpha}", json={"archived": True}, headers=h).json()["archived"] is True
    )
    assert [t["name"] for t in a.get("/api/v1/teams?archived=false").json()] == ["Beta"]
    with db.session() as s:
        store.add_roadmap_item(
            s,
            world.people["p1"],
            kind="course",
            ref=course,
            title="C",
            start=date(2026, 10, 1),
            due=date(2026, 11, 30),
        )
    curve = a.get(f"/api/v1/teams/{world.beta}/burnup").json()
    assert curve["total"] == 1
    assert curve["points"][-1] == {"month": "2026-12", "end": "2026-12-31", "planned": 1, "done": 0}
    assert a.get(f"/api/v1/people/{world.people['p1']}/burnup").json()["total"] == 1


def test_export_page_gives_what_the_api_gives(app: Any, world: World) -> None:
    a = logged_in(app, "admin")
    page = a.get("/export")
    assert page.status_code == 200 and 'action="/export/download"' in page.text
    assert 'href="/export"' in a.get("/").text
    got = a.get("/export/download?format=json")
    assert got.headers["content-disposition"].startswith("attachment")
    assert json.loads(got.content)["tables"]["people"]
    assert got.content == a.get("/api/v1/export?format=json").content
    z = zipfile.ZipFile(io.BytesIO(a.get("/export/download?format=csv").content))
    assert "people.csv" in z.namelist()
    assert a.get("/export/download?format=xlsx").content[:2] == b"PK"
    assert logged_in(app, "manager").get("/export").status_code == 403


def test_export_can_leave_out_the_audit_log(app: Any, db: Any, db_url: str, world: World) -> None:
    """The page's "leave out the audit log" (the form sends audit=false) gives what
    `gputeam export --no-audit` gives: every table but the audit log, in every format."""
    from typer.testing import CliRunner

    from gputeam.cli.main import app as cli

    a = logged_in(app, "admin")
    page = a.get("/export").text
    assert re.search(r'<input type="checkbox" name="audit" value="false" id="no-audit">', page)
    assert "audit_log" in json.loads(a.get("/export/download?format=json").content)["tables"]
    without = json.loads(a.get("/export/download?format=json&audit=false").content)
    assert "audit_log" not in without["tables"] and without["tables"]["people"]
    done = CliRunner().invoke(cli, ["export", "--no-audit", "--org", "Acme", "--db", db_url])
    assert done.exit_code == 0, done.output
    assert set(json.loads(done.stdout)["tables"]) == set(without["tables"])
    z = zipfile.ZipFile(io.BytesIO(a.get("/export/download?format=csv&audit=false").content))
    assert "people.csv" in z.namelist() and not any(n.startswith("audit_log") for n in z.namelist())
    assert any(
        n.startswith("audit_log")
        for n in zipfile.ZipFile(io.BytesIO(a.get("/export/download?format=csv").content)).namelist()
    )
    book = zipfile.ZipFile(io.BytesIO(a.get("/export/download?format=xlsx&audit=false").content))
    assert "audit_log" not in book.read("xl/workbook.xml").decode()
    full = zipfile.ZipFile(io.BytesIO(a.get("/export/download?format=xlsx").content))
    assert "audit_log" in full.read("xl/workbook.xml").decode()
    assert a.get("/api/v1/export?audit=false").content == a.get("/export/download?audit=false").content


def test_people_to_move_are_found_by_name_or_id(
    app: Any, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The team page offers the first MOVE_CHOICES people outside the team (at 5,000
    people a list of everyone is neither usable nor quick) and finds the others by name
    or id; the team's own people are never offered."""
    from gputeam.web import pages_teams

    c = logged_in(app, "admin")

    def offered(html: str) -> list[str]:
        form = html.split('action="/teams/', 1)[1].split("Move people into the team", 1)[-1]
        return re.findall(r'<option value="\d+"[^>]*>([^<]+) \(p\d\)</option>', form)

    assert offered(c.get(f"/teams/{world.beta}").text) == ["Ada Lovelace", "Grace Hopper"]
    monkeypatch.setattr(pages_teams, "MOVE_CHOICES", 1)
    page = c.get(f"/teams/{world.beta}").text
    assert offered(page) == ["Ada Lovelace"] and "The first 1 of 2 people are listed" in page
    found = c.get(f"/teams/{world.beta}", params={"find": "p2"}).text
    assert offered(found) == ["Grace Hopper"] and "The first" not in found
    assert 'name="find" maxlength="100" value="p2"' in found
    none = c.get(f"/teams/{world.beta}", params={"find": "Linus"}).text  # in the team already
    assert offered(none) == [] and "No one else you may move matches" in none
