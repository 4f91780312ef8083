"""The API and the plan page hold plan inputs to the scenario's rules (issue 9 §4): one
horizon limit (1-120 months, as in a scenario file), bad fields named in a 422."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import World, logged_in, token_for

FLEET = {"gpu_model": "H100", "gpus": [{"month": 1, "count": 64}]}


def _bearer(app: Any) -> Any:
    from fastapi.testclient import TestClient

    c = TestClient(app)
    c.headers["Authorization"] = "Bearer " + token_for(app, "admin", ["read", "write"])
    return c


def _paths(r: Any) -> list[str]:
    assert r.status_code == 422, r.text
    return [p.get("path") for p in r.json()["problems"]]


def test_the_api_takes_the_scenarios_horizon(app: Any, world: World) -> None:
    c = _bearer(app)
    r = c.post("/api/v1/plans", json={"fleet": FLEET, "horizon_months": 120})
    assert r.status_code == 200, r.text
    assert r.json()["inputs"]["horizon_months"] == 120
    assert any(
        "horizon_months" in p
        for p in _paths(c.post("/api/v1/plans", json={"fleet": FLEET, "horizon_months": 121}))
    )
    assert any("mode" in p for p in _paths(c.post("/api/v1/plans", json={"fleet": FLEET, "mode": "fast"})))


def test_a_deadline_beyond_the_horizon_is_named(app: Any, world: World) -> None:
    c = _bearer(app)
    r = c.post(
        "/api/v1/plans", json={"fleet": FLEET, "horizon_months": 12, "constraints": {"deadline_month": 30}}
    )
    assert _paths(r) == ["constraints.deadline_month"]
    assert "beyond horizon_months (12)" in r.text
    # a what-if deadline stretches the horizon instead
    r = c.post(
        "/api/v1/plans", json={"fleet": FLEET, "horizon_months": 12, "what_if": {"deadline_month": 30}}
    )
    assert r.status_code == 200, r.text
    assert r.json()["inputs"]["horizon_months"] == 30


def test_the_plan_page_takes_the_same_horizon(app: Any, world: World) -> None:
    c = logged_in(app, "admin")
    r = c.post(
        "/plan", data={"gpus": "64", "horizon_months": "120", "mode": "template", "csrf_token": c.csrf}
    )
    assert r.status_code == 200, r.text
    r = c.post(
        "/plan", data={"gpus": "64", "horizon_months": "121", "mode": "template", "csrf_token": c.csrf}
    )
    assert r.status_code == 422
