"""The app keeps its cached views out of Python's full garbage collections (see
gputeam.web.heap): a cache entry, once built, is frozen; a new data version builds (and
freezes) a new one, and the replaced entry is freed."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from tests.conftest import TODAY
from tests.web.conftest import World, make_settings, token_for


@pytest.fixture
def app(db: Any, world: World, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The app as served: the suite turns the freezing off (GPUTEAM_FREEZE_HEAP, see
    tests/conftest.py); the default is on."""
    from gputeam.web import create_app

    monkeypatch.delenv("GPUTEAM_FREEZE_HEAP")
    assert make_settings().freeze_heap
    yield create_app(make_settings(), database=db, today=TODAY)
    gc.unfreeze()


def _in_collector(obj: Any) -> bool:
    """Whether ``obj`` is in a generation full collections walk (not frozen)."""
    return any(o is obj for o in gc.get_objects())


def _cached_dashboards(app: Any) -> list[Any]:
    return [v for k, v in app.state.plan_cache.items() if k[0] == "dashboard"]


def test_cached_views_are_frozen_and_replaced_ones_freed(app: Any, world: World) -> None:
    from fastapi.testclient import TestClient

    with TestClient(app) as client:
        auth = {"Authorization": "Bearer " + token_for(app, "admin", ["read", "write"])}
        assert client.get("/api/v1/dashboard", headers=auth).status_code == 200
        [first] = _cached_dashboards(app)
        assert gc.is_tracked(first) and not _in_collector(first)
        assert gc.get_freeze_count() > 0

        # a data change: the next dashboard is a new entry, frozen in turn
        r = client.post("/api/v1/people", json={"key": "p9", "name": "Nia", "level": 1}, headers=auth)
        assert r.status_code == 201, r.text
        assert client.get("/api/v1/dashboard", headers=auth).status_code == 200
        second = [d for d in _cached_dashboards(app) if d is not first]
        assert len(second) == 1 and not _in_collector(second[0])
        assert second[0]["headcount"] == first["headcount"] + 1

        # once the cache drops the entries, reference counting frees them, frozen or not
        frozen = gc.get_freeze_count()
        app.state.plan_cache.clear()
        del first, second
        assert gc.get_freeze_count() < frozen
