"""Stored values the catalog in use does not know (a role, skill domain or certification
renamed or removed in the catalog) do not break the dashboard or the planner: they are
left out and listed, with the person, for those who may see them."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import update
from tests.web.conftest import World, logged_in, token_for

from gputeam import store
from gputeam.store.schema import Person


def _stale(db: Any, world: World) -> None:
    with db.session() as s:  # as an older catalog or a removed --catalog-extra leaves them
        s.execute(update(Person).where(Person.id == world.people["p2"]).values(role="ghost-role"))
        store.rate_skill(s, world.people["p2"], "quantum-plumbing", 3)
        store.add_certification(s, world.people["p3"], "ghost-cert", date(2025, 1, 1), date(2028, 1, 1))


def test_dashboard_and_plans_survive_stale_ids(app: Any, db: Any, world: World) -> None:
    _stale(db, world)
    auth = {"Authorization": "Bearer " + token_for(app, "admin", ["read", "write"])}
    admin = logged_in(app, "admin")

    dash = admin.get("/api/v1/dashboard", headers=auth)
    assert dash.status_code == 200, dash.text
    problems = dash.json()["data_problems"]
    assert sorted(p["found"] for p in problems) == ["'ghost-cert'", "'ghost-role'", "'quantum-plumbing'"]
    assert any(p["path"] == "person p2 (Grace Hopper).role" for p in problems)
    assert dash.json()["headcount"] == 3  # nobody dropped, only the unknown values

    page = admin.get("/")
    assert page.status_code == 200
    assert 'id="data-problems"' in page.text and "Grace Hopper" in page.text
    assert "quantum-plumbing" in page.text

    r = admin.post(
        "/api/v1/plans",
        json={"fleet": {"gpu_model": "H100", "gpus": [{"month": 1, "count": 128}]}, "save": True},
        headers=auth,
    )
    assert r.status_code == 200, r.text
    plan = r.text
    assert '"p2"' in plan  # still planned, without what the catalog does not know
    assert not any(x in plan for x in ("ghost-role", "quantum-plumbing", "ghost-cert"))


def test_viewers_see_what_is_wrong_but_not_whose(app: Any, db: Any, world: World) -> None:
    _stale(db, world)
    viewer = logged_in(app, "viewer")
    problems = viewer.get("/api/v1/dashboard").json()["data_problems"]
    assert len(problems) == 3 and all(p["path"] is None for p in problems)
    page = viewer.get("/").text
    assert 'id="data-problems"' in page and "Grace Hopper" not in page


def test_no_box_when_everything_is_known(app: Any, world: World) -> None:
    admin = logged_in(app, "admin")
    assert admin.get("/api/v1/dashboard").json()["data_problems"] == []
    assert 'id="data-problems"' not in admin.get("/").text
