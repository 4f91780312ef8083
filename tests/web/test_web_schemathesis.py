"""Schemathesis against the published OpenAPI document: generated requests for every
operation, authenticated as an admin, never get a 5xx. Bounded (a few examples per
operation) so it runs in seconds; SQLite only (the HTTP layer is engine-independent and
the other suites cover PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import World, token_for

EXAMPLES_PER_OPERATION = 12
#: Left out: they would revoke the test's own credentials midway (tested elsewhere).
SKIP = {("DELETE", "/api/v1/tokens/{token_id}"), ("PATCH", "/api/v1/users/{user_id}")}


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_no_server_errors(app: Any, world: World) -> None:
    import schemathesis
    from hypothesis import HealthCheck, Phase, given, settings

    token = token_for(app, "admin", ["read", "write", "admin"])
    headers = {"Authorization": f"Bearer {token}"}
    schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", app)
    failures: list[str] = []
    operations = 0
    for result in schema.get_all_operations():
        op = result.ok()
        if (op.method.upper(), op.path) in SKIP:
            continue
        operations += 1

        @given(case=op.as_strategy())
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        def check(case: Any) -> None:
            response = case.call(headers=headers)
            if response.status_code >= 500:
                failures.append(
                    f"{case.method} {case.formatted_path} -> {response.status_code}: {response.text[:300]}"
                )

        check()
    assert operations >= 25
    assert not failures, "\n".join(failures[:20])


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_export_with_control_characters(app: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    c = TestClient(app, headers={"Authorization": "Bearer " + token_for(app, "admin", ["read", "write"])})
    # refused now (issue 9), but a name stored before that must not break an export
    assert c.post("/api/v1/people", json={"key": "ctl", "name": "Bell\x07Name"}).status_code == 422
    from gputeam import store

    with app.state.db.session() as s:
        s.add(store.Person(org_id=world.org_id, key="ctl", name="Bell\x07Name"))
    for fmt in ("json", "csv", "xlsx"):
        assert c.get("/api/v1/export", params={"format": fmt}).status_code == 200
