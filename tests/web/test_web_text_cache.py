"""Rendered text kept per process (gputeam.web.services.cached_text): the dashboard's
content for callers who all see the same, a person's JSON. Every change shows on the next
request, names stay hidden from those who may not read them, and text is escaped."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from tests.web.conftest import TODAY, World, logged_in

from gputeam import store

EVIL = "<script>alert(1)</script>"


def test_dashboard_content_follows_changes_and_visibility(app: Any, db: Any, world: World) -> None:
    admin, viewer, manager = (logged_in(app, r) for r in ("admin", "viewer", "manager"))
    for c in (admin, viewer, manager):  # every variant rendered (and kept) once
        assert c.get("/").status_code == 200
    before = admin.get("/").text
    assert 'id="headcount">3<' in before

    with db.session() as s:  # a person in Beta (not the manager's team) with a
        person = store.add_person(
            s,
            world.org_id,
            key="x1",
            name=EVIL,
            level=2,  # cert
            team_id=world.beta,
        )  # expiring in 20 days
        store.add_certification(
            s, person.id, "nca-aiio", TODAY - timedelta(days=700), TODAY + timedelta(days=20)
        )

    page = admin.get("/").text
    assert 'id="headcount">4<' in page and page != before
    assert EVIL not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    for c in (viewer, manager):  # the new row, without the name
        page = c.get("/").text
        assert 'id="headcount">4<' in page
        assert "alert(1)" not in page and "(not shown to your role)" in page
    # and each caller still has their own header (name, CSRF token)
    assert "admin (admin)" in admin.get("/").text
    assert "viewer (viewer)" in viewer.get("/").text


def test_person_json_follows_changes(app: Any, db: Any, world: World) -> None:
    c = logged_in(app, "admin")
    url = f"/api/v1/people/{world.people['p2']}"
    first = c.get(url)
    assert first.status_code == 200 and first.json()["certifications"] == []
    assert first.headers["content-type"].startswith("application/json")
    r = c.post(
        f"{url}/certifications",
        json={"cert_id": "nca-aiio", "valid_from": "2026-01-10"},
        headers={"X-CSRF-Token": c.csrf},
    )
    assert r.status_code == 201, r.text
    certs = c.get(url).json()["certifications"]
    assert [x["cert_id"] for x in certs] == ["nca-aiio"]
    r = c.patch(url, json={"name": "Grace B. Hopper"}, headers={"X-CSRF-Token": c.csrf})
    assert r.status_code == 200, r.text
    assert c.get(url).json()["name"] == "Grace B. Hopper"
    # still checked per caller: the engineer (p1) may not read p2, cached or not
    assert logged_in(app, "engineer").get(url).status_code == 404


def test_person_json_follows_the_day(db: Any, world: World) -> None:
    """A certificate's status depends on the day: the kept text is per day."""
    from fastapi.testclient import TestClient
    from tests.web.conftest import make_settings

    from gputeam.web import create_app

    app = create_app(make_settings(), database=db, today=TODAY)
    with db.session() as s:
        store.add_certification(
            s, world.people["p2"], "nca-aiio", date(2024, 1, 1), TODAY + timedelta(days=1)
        )
    with TestClient(app) as client:
        from tests.web.conftest import login

        assert login(client, "admin").status_code == 303
        url = f"/api/v1/people/{world.people['p2']}"
        assert client.get(url).json()["certifications"][0]["status"] == "expiring"
        app.state.clock.fixed = TODAY + timedelta(days=2)
        assert client.get(url).json()["certifications"][0]["status"] == "expired"
