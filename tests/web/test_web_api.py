"""The JSON API on SQLite and PostgreSQL: people, records, import/export, plans, calendars,
catalog, problem documents."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import date
from typing import Any

from gputeam import store

from .conftest import ROSTER_CSV, TODAY, World, token_for


def bearer(app: Any, role: str = "admin", scopes: list[str] | None = None) -> Any:
    from fastapi.testclient import TestClient

    c = TestClient(app)
    c.headers["Authorization"] = "Bearer " + token_for(app, role, scopes or ["read", "write"])
    return c


def test_people_crud_and_records(app: Any, world: World) -> None:
    c = bearer(app)
    r = c.post(
        "/api/v1/people",
        json={"key": "p9", "name": "New Person", "level": 3, "team_id": world.beta, "skills": {"linux": 2}},
    )
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    assert r.headers["location"] == f"/api/v1/people/{pid}"

    listed = c.get("/api/v1/people", params={"search": "new"}).json()
    assert [p["key"] for p in listed] == ["p9"]

    r = c.patch(f"/api/v1/people/{pid}", json={"title": "GPU engineer", "level": 4})
    assert r.status_code == 200 and r.json()["level"] == 4

    r = c.put(f"/api/v1/people/{pid}/skills/cluster-ops", json={"proficiency": 3})
    assert r.status_code == 200
    r = c.post(
        f"/api/v1/people/{pid}/certifications", json={"cert_id": "nca-aiio", "valid_from": "2026-01-10"}
    )
    assert r.status_code == 201, r.text
    assert r.json()["valid_until"] is not None  # defaulted from the catalog's validity
    course = next(iter(__import__("gputeam.catalog", fromlist=["x"]).load_catalog().courses))
    r = c.post(
        f"/api/v1/people/{pid}/enrolments",
        json={"course_id": course, "started_on": "2026-11-01", "hours_done": 2},
    )
    assert r.status_code == 201, r.text
    eid = r.json()["id"]
    r = c.patch(f"/api/v1/enrolments/{eid}", json={"hours_done": 5.5})
    assert r.json()["hours_done"] == 5.5

    detail = c.get(f"/api/v1/people/{pid}").json()
    assert detail["skills"] == {"cluster-ops": 3, "linux": 2}
    assert detail["certifications"][0]["status"] == "valid"
    assert detail["enrolments"][0]["hours_done"] == 5.5

    assert c.delete(f"/api/v1/people/{pid}").status_code == 204
    assert c.get(f"/api/v1/people/{pid}").status_code == 404


def test_problem_documents(app: Any, world: World) -> None:
    c = bearer(app)
    r = c.post("/api/v1/people", json={"key": "p1", "name": "Duplicate"})
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["status"] == 422 and body["problems"][0]["path"] == "person.key"
    r = c.post("/api/v1/people", json={"key": "", "name": "x", "level": 9})
    assert r.status_code == 422
    assert {p["path"] for p in r.json()["problems"]} >= {"person.key", "person.level"}
    r = c.post(
        f"/api/v1/people/{world.people['p1']}/certifications",
        json={"cert_id": "no-such-cert", "valid_from": "2026-01-01"},
    )
    assert r.status_code == 422 and r.json()["problems"][0]["found"] == "no-such-cert"
    r = c.get("/api/v1/people/999999")
    assert r.status_code == 404 and r.json()["title"] == "Not found"


def test_import_dry_run_commit_and_rejection(app: Any, world: World, db: Any) -> None:
    c = bearer(app)
    files = {"file": ("roster.csv", ROSTER_CSV.replace("p3,", "p4,").encode(), "text/csv")}
    r = c.post("/api/v1/import/roster", files=files, data={"dry_run": "true"})
    assert r.status_code == 200, r.text
    assert r.json()["dry_run"] is True and r.json()["created"] == 1
    with db.session() as s:
        assert store.get_person_by_key(s, world.org_id, "p4") is None  # nothing written

    r = c.post("/api/v1/import/roster", files=files, data={"dry_run": "false"})
    assert r.status_code == 200 and r.json()["created"] == 1
    with db.session() as s:
        assert store.get_person_by_key(s, world.org_id, "p4") is not None

    # (p4 now has p3's e-mail: the file keeps it with p4, as e-mails are unique)
    bad = ROSTER_CSV.replace("p3,", "p4,") + "p5,Bad Row,not-an-email,x,7,-1,,Alpha,9,1\n"
    r = c.post(
        "/api/v1/import/roster",
        data={"dry_run": "false"},
        files={"file": ("roster.csv", bad.encode(), "text/csv")},
    )
    assert r.status_code == 422
    lines = {p["line"] for p in r.json()["problems"]}
    assert lines == {5}
    with db.session() as s:
        assert store.get_person_by_key(s, world.org_id, "p5") is None  # all or nothing

    mapped = "Employee,Full name\np6,Mapped Person\n"
    r = c.post(
        "/api/v1/import/roster",
        data={"dry_run": "false", "mapping": json.dumps({"Employee": "id"})},
        files={"file": ("m.csv", mapped.encode(), "text/csv")},
    )
    assert r.status_code == 200, r.text
    r = c.post(
        "/api/v1/import/roster",
        data={"mapping": "{not json"},
        files={"file": ("m.csv", mapped.encode(), "text/csv")},
    )
    assert r.status_code == 422 and r.json()["problems"][0]["path"] == "mapping"


def test_export_formats(app: Any, world: World) -> None:
    c = bearer(app, scopes=["read"])
    r = c.get("/api/v1/export", params={"format": "json"})
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    assert "people" in json.dumps(r.json())
    r = c.get("/api/v1/export", params={"format": "csv"})
    names = zipfile.ZipFile(io.BytesIO(r.content)).namelist()
    assert any("people" in n for n in names)
    r = c.get("/api/v1/export", params={"format": "xlsx"})
    assert r.content[:2] == b"PK"


def test_plan_run_save_dashboard_and_adopt(app: Any, world: World) -> None:
    c = bearer(app)
    assert c.get("/api/v1/plans/latest").status_code == 404
    dash = c.get("/api/v1/dashboard").json()
    assert dash["headcount"] == 3 and dash["plan"] is None
    assert dash["expiring"][0]["person"] == "p1"  # expires 2027-01-15, in 44 days
    assert dash["expiring_counts"] == {"30": 0, "60": 1, "90": 1}
    assert {r["domain"]: r["people"] for r in dash["bus_factor"]}["linux"] == 3

    body = {
        "fleet": {"gpu_model": "H100", "gpus": [{"month": 1, "count": 256}]},
        "horizon_months": 12,
        "what_if": {"deadline_month": 9, "budget": 2_000_000},
        "save": True,
    }
    r = c.post("/api/v1/plans", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["inputs"]["constraints"] == {"deadline_month": 9, "budget": 2_000_000}
    assert set(out["plan"]) >= {"target", "gaps", "sourcing", "roadmaps", "costs", "roi"}
    assert out["saved"]["version"] == 1

    what_if = c.post("/api/v1/plans", json={"what_if": {"gpus": 1024}}).json()
    assert what_if["saved"] is None
    assert what_if["inputs"]["fleet"]["gpus"][-1]["count"] == 1024

    dash = c.get("/api/v1/dashboard").json()
    assert dash["plan"]["id"] == out["saved"]["id"]
    assert dash["plan"]["coverage_deadline"]["month"] == 9
    assert 0 <= dash["plan"]["coverage_now"]["share"] <= 1

    plans = c.get("/api/v1/plans").json()
    assert [p["id"] for p in plans] == [out["saved"]["id"]]
    assert c.get(f"/api/v1/plans/{plans[0]['id']}").status_code == 200
    r = c.post(f"/api/v1/plans/{plans[0]['id']}/adopt")
    assert r.status_code == 200 and r.json()["created"] > 0
    rm = c.get(f"/api/v1/people/{world.people['p1']}/roadmap").json()
    assert rm["items"] and rm["items"][0]["source"] == "tracked"
    item = rm["items"][0]["id"]
    r = c.patch(f"/api/v1/roadmap-items/{item}", json={"status": "done"})
    assert r.json()["done_on"] == TODAY.isoformat()

    r = c.post("/api/v1/plans", json={"what_if": {"gpus": 10**9}})
    assert r.status_code == 422


def test_calendars_and_catalog(app: Any, world: World) -> None:
    c = bearer(app, scopes=["read"])
    r = c.get(f"/api/v1/calendar/people/{world.people['p1']}.ics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/calendar")
    assert b"BEGIN:VCALENDAR" in r.content and b"nca-aiio" in r.content.lower()
    r = c.get(f"/api/v1/calendar/teams/{world.alpha}.ics")
    assert r.status_code == 200 and b"BEGIN:VEVENT" in r.content
    # a subscription URL carries the token in the query (calendar programs send no headers)
    from fastapi.testclient import TestClient

    feed = TestClient(app)
    secret = c.headers["Authorization"].split()[1]
    assert (
        feed.get(f"/api/v1/calendar/people/{world.people['p1']}.ics", params={"token": secret}).status_code
        == 200
    )
    assert (
        feed.get(
            f"/api/v1/calendar/people/{world.people['p1']}.ics", params={"token": "gpt_wrong"}
        ).status_code
        == 401
    )
    assert feed.get("/api/v1/me", params={"token": secret}).status_code == 401  # feeds only
    idx = c.get("/api/v1/catalog").json()
    assert idx["sections"]["certifications"] > 0
    certs = c.get("/api/v1/catalog/certifications").json()
    assert "nca-aiio" in certs
    assert c.get("/api/v1/catalog/nope").status_code == 404


def test_tokens_and_users(app: Any, world: World, db: Any) -> None:
    c = bearer(app, scopes=["read", "write", "admin"])
    r = c.post("/api/v1/users", json={"username": "newbie", "password": "long enough pw", "role": "viewer"})
    assert r.status_code == 201, r.text
    uid = r.json()["id"]
    r = c.patch(f"/api/v1/users/{uid}", json={"role": "manager", "team_ids": [world.beta]})
    assert r.json()["role"] == "manager" and r.json()["team_ids"] == [world.beta]
    r = c.post("/api/v1/tokens", json={"name": "ci", "scopes": ["read"], "user_id": uid})
    assert r.status_code == 201
    secret, tid = r.json()["token"], r.json()["id"]
    with db.session() as s:  # only the digest is stored
        row = s.get(store.ApiToken, tid)
        assert secret not in (row.token_hash, row.name) and len(row.token_hash) == 64
    from fastapi.testclient import TestClient

    other = TestClient(app, headers={"Authorization": f"Bearer {secret}"})
    assert other.get("/api/v1/me").json()["username"] == "newbie"
    assert c.delete(f"/api/v1/tokens/{tid}").status_code == 204
    assert other.get("/api/v1/me").status_code == 401
    r = c.post("/api/v1/tokens", json={"name": "x", "scopes": ["admin"], "user_id": uid})
    assert r.status_code == 422  # a manager's token cannot carry the admin scope


def test_dashboard_names_only_people_the_caller_may_read(app: Any, world: World, db: Any) -> None:
    from gputeam import store as st

    with db.session() as s:  # p3 (team Beta) renews into the 90-day window too
        st.add_certification(s, world.people["p3"], "nca-aiio", date(2025, 1, 20), date(2027, 2, 1))
    names = {}
    for role in ("admin", "manager", "engineer", "viewer"):
        rows = bearer(app, role, ["read"]).get("/api/v1/dashboard").json()["expiring"]
        assert len(rows) == 2  # the figures are the organisation's
        names[role] = sorted(r["name"] or "-" for r in rows)
    assert names["admin"] == ["Ada Lovelace", "Linus T"]
    assert names["manager"] == ["-", "Ada Lovelace"]  # Alpha only
    assert names["engineer"] == ["-", "Ada Lovelace"]  # themself
    assert names["viewer"] == ["-", "-"]
