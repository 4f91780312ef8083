"""A person's site (issue 10 §1): set through the API, the person form and the roster
import, shown on the person page and in the export, and a filter of the people list, the
skills matrix (page, CSV, XLSX, API) and the certifications view. Free text: nothing is
checked against a scenario's sites (a scenario counts its sites, it does not name them).
SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import zipfile
from typing import Any

from gputeam import store

from .conftest import World, logged_in, token_for

FRA = "Frankfurt DC1"


def _api(app: Any) -> Any:
    from fastapi.testclient import TestClient

    return TestClient(app, headers={"Authorization": "Bearer " + token_for(app, "admin", ["read", "write"])})


def _sites(db: Any, world: World) -> dict[str, str | None]:
    with db.session() as s:
        return {p.key: p.site for p in store.list_people(s, world.org_id, active=None)}


def test_site_through_api_form_and_import(app: Any, db: Any, world: World) -> None:
    api = _api(app)
    # the API: set, changed, cleared (blank is none), refused like any text field
    r = api.post("/api/v1/people", json={"key": "n1", "name": "New", "site": f" {FRA} "})
    assert r.status_code == 201 and r.json()["site"] == FRA
    pid = r.json()["id"]
    r = api.patch(f"/api/v1/people/{pid}", json={"site": "Munich"})
    assert r.status_code == 200 and r.json()["site"] == "Munich"
    assert api.get(f"/api/v1/people/{pid}").json()["site"] == "Munich"
    r = api.patch(f"/api/v1/people/{pid}", json={"site": "x" * 101})
    assert r.status_code == 422
    assert [(p["path"], p["message"]) for p in r.json()["problems"]] == [
        ("person.site", "longer than 100 characters")
    ]
    r = api.patch(f"/api/v1/people/{pid}", json={"site": ""})
    assert r.status_code == 200 and r.json()["site"] is None
    # the form: offered the sites people have, the value kept on the edit page
    form = logged_in(app, "admin")
    api.patch(f"/api/v1/people/{world.people['p2']}", json={"site": "Munich"})
    page = form.get("/people/new").text
    assert 'name="site"' in page and '<option value="Munich">' in page
    data = {
        "key": "n2",
        "name": "Form Person",
        "level": "2",
        "experience_months": "6",
        "weekly_study_hours": "4",
        "salary": "",
        "site": FRA,
        "csrf_token": form.csrf,
    }
    r = form.post("/people/new", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    n2 = int(r.headers["location"].split("?")[0].rsplit("/", 1)[1])
    assert f'value="{FRA}"' in form.get(f"/people/{n2}/edit").text
    assert FRA in form.get(f"/people/{n2}").text
    r = form.post("/people/new", data=data | {"key": "n3", "site": "two\nlines"})
    assert r.status_code == 422 and 'id="err-site"' in r.text and "line break" in r.text
    # the roster import: column `site` (or `location`); the dry run names the change
    roster = b"id,name,location\np1,Ada Lovelace,Munich\np3,Linus T,\n"
    r = api.post(
        "/api/v1/import/roster", data={"dry_run": "true"}, files={"file": ("r.csv", roster, "text/csv")}
    )
    assert r.status_code == 200, r.text
    assert [(c["id"], c["field"], c["old"], c["new"]) for c in r.json()["changes"]] == [
        ("p1", "site", None, "Munich")
    ]
    r = api.post(
        "/api/v1/import/roster", data={"dry_run": "false"}, files={"file": ("r.csv", roster, "text/csv")}
    )
    assert r.status_code == 200, r.text
    assert _sites(db, world) == {"p1": "Munich", "p2": "Munich", "p3": None, "n1": None, "n2": FRA}
    # the export: a `site` column the import reads back
    with zipfile.ZipFile(io.BytesIO(api.get("/api/v1/export?format=csv").content)) as zf:
        people = list(csv.DictReader(io.StringIO(zf.read("people.csv").decode())))
    assert {p["id"]: p["site"] for p in people} == {
        "p1": "Munich",
        "p2": "Munich",
        "p3": "",
        "n1": "",
        "n2": FRA,
    }


def test_site_filters_the_lists_and_the_matrix(app: Any, db: Any, world: World) -> None:
    with db.session() as s:
        store.update_person(s, world.people["p1"], {"site": FRA})
        store.update_person(s, world.people["p3"], {"site": "Munich"})
    admin = logged_in(app, "admin")
    api = _api(app)

    def keys(path: str) -> list[str]:
        r = api.get(path)
        assert r.status_code == 200, r.text
        return sorted(p["key"] for p in r.json())

    assert keys(f"/api/v1/people?site={FRA}") == ["p1"]
    assert keys("/api/v1/people?site=none") == ["p2"]
    assert keys("/api/v1/people?site=Nowhere") == []
    # the people list page: the filter offers the sites, the rows show them
    page = admin.get("/people?site=Munich").text
    assert '<option value="Munich" selected>' in page and f'<option value="{FRA}">' in page
    assert "Linus T" in page and "Ada Lovelace" not in page
    # the skills matrix: API, page, CSV, XLSX
    m = api.get(f"/api/v1/skills/matrix?site={FRA}").json()
    assert [(r["key"], r["site"]) for r in m["rows"]] == [("p1", FRA)] and m["total"] == 1
    assert [r["key"] for r in api.get("/api/v1/skills/matrix?site=none").json()["rows"]] == ["p2"]
    page = admin.get("/skills?site=Munich").text
    assert "Linus T" in page and "Ada Lovelace" not in page and "site=Munich" in page
    rows = list(csv.reader(io.StringIO(admin.get(f"/skills.csv?site={FRA}").text)))
    assert rows[0][5] == "site" and [r[:1] + r[5:6] for r in rows[1:-2]] == [["p1", FRA]]
    from openpyxl import load_workbook

    ws = load_workbook(io.BytesIO(admin.get("/skills.xlsx?site=Munich").content)).active
    assert (ws.cell(row=1, column=6).value, ws.cell(row=2, column=6).value) == ("site", "Munich")
    assert ws.max_row == 4  # header, one person, target, bus factor
    # the certifications view (p1 and p3 hold one each)
    held = api.get("/api/v1/certifications?site=Munich").json()
    assert [i["person"]["key"] for i in held["items"]] == ["p3"]
    assert "Linus T" in admin.get("/certifications?site=Munich").text
    assert "Ada Lovelace" not in admin.get("/certifications?site=Munich").text
