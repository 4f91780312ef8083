"""A PostgreSQL connection lost under the app (server restart, failover, idle timeout):
reads are answered as if nothing happened, writes get a 503 problem document and write
nothing, and the next request works. Real PostgreSQL; the connections are killed with
pg_terminate_backend, as a server restart would."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.conftest import TODAY, _store_fixtures, make_settings, seed, token_for

pytestmark = pytest.mark.postgres


def _kill_app_connections(url: str) -> int:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        killed = conn.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        ).fetchone()
    return int(killed[0]) if killed else 0


@pytest.fixture
def pg_app(pg_url: str) -> Any:
    from gputeam.store import open_database
    from gputeam.web import create_app

    _store_fixtures._empty_pg(pg_url)
    database = open_database(pg_url, threads=4)
    world = seed(database)
    yield create_app(make_settings(), database=database, today=TODAY), world, pg_url
    database.dispose()


def _people(client: Any, auth: dict[str, str]) -> list[str]:
    r = client.get("/api/v1/people", headers=auth)
    assert r.status_code == 200, r.text
    return sorted(p["key"] for p in r.json())


def test_reads_survive_and_writes_fail_cleanly_when_connections_are_lost(pg_app: Any) -> None:
    from fastapi.testclient import TestClient

    app, _world, url = pg_app
    with TestClient(app) as client:
        auth = {"Authorization": "Bearer " + token_for(app, "admin", ["read", "write"])}
        before = _people(client, auth)  # the pool now holds live connections
        assert client.get("/", headers=auth).status_code in (200, 303)

        # a read right after every pooled connection died: retried on a new connection
        assert _kill_app_connections(url) >= 1
        assert _people(client, auth) == before
        r = client.get("/api/v1/dashboard", headers=auth)
        assert r.status_code == 200, r.text

        # a write right after: not repeated, 503 with a problem document, nothing written
        _people(client, auth)
        assert _kill_app_connections(url) >= 1
        body = {"key": "p9", "name": "New Person", "level": 2}
        r = client.post("/api/v1/people", json=body, headers=auth)
        assert r.status_code == 503, r.text
        assert r.headers["retry-after"] == "1"
        assert r.headers["content-type"].startswith("application/problem+json")
        assert "database" in r.json()["detail"] and "not saved" in r.json()["detail"]
        assert _people(client, auth) == before
        # in the request's language
        _people(client, auth)
        assert _kill_app_connections(url) >= 1
        r = client.post("/api/v1/people", json=body, headers={**auth, "Accept-Language": "de"})
        assert r.status_code == 503 and r.json()["title"] == "Datenbank nicht erreichbar"
        assert "die Änderung wurde nicht gespeichert" in r.json()["detail"]

        # and the same write sent again succeeds
        r = client.post("/api/v1/people", json=body, headers=auth)
        assert r.status_code == 201, r.text
        assert _people(client, auth) == sorted([*before, "p9"])


def test_other_database_errors_are_not_retried(pg_app: Any) -> None:
    """Only a lost connection is retried: a request failing for another database reason
    fails once (here every statement is preceded by one PostgreSQL refuses)."""
    from fastapi.testclient import TestClient
    from sqlalchemy import event

    app, _world, _url = pg_app
    calls = []
    engine = app.state.db.engine

    with TestClient(app, raise_server_exceptions=False) as client:
        auth = {"Authorization": "Bearer " + token_for(app, "admin", ["read"])}

        def fail_everything(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
            calls.append(statement)
            cursor.execute("SELECT 1 / 0")  # division by zero: an error, not a lost link

        event.listen(engine, "before_cursor_execute", fail_everything)
        try:
            r = client.get("/api/v1/people", headers=auth)
        finally:
            event.remove(engine, "before_cursor_execute", fail_everything)
        assert r.status_code == 500
        assert len(calls) == 1  # the first statement failed and was not run again
