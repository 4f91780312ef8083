"""The web layer's per-process memory (gputeam.web.cache): bounded, single flight, nothing
kept from a failed build, and built views handed to the garbage-collector freezing."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Any

import pytest

from gputeam.web import cache, heap


def _app() -> Any:
    app = SimpleNamespace(state=SimpleNamespace())
    cache.install(app)  # type: ignore[arg-type]
    return app


def test_a_view_missed_by_many_threads_at_once_is_built_once() -> None:
    app, builds, results = _app(), [], []
    start = threading.Barrier(8)

    def build() -> list[int]:
        builds.append(1)
        time.sleep(0.2)  # long enough for every thread to miss
        return [42]

    def request() -> None:
        start.wait()
        results.append(cache.view(app, ("dashboard", 7), build))

    threads = [threading.Thread(target=request) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(builds) == 1
    assert len(results) == 8 and all(r is results[0] for r in results)


def test_a_failed_build_keeps_nothing() -> None:
    app = _app()

    def broken() -> int:
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError):
        cache.view(app, "k", broken)
    assert "k" not in app.state.plan_cache
    assert cache.view(app, "k", lambda: 1) == 1


def test_every_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    app = _app()
    for v in range(cache.VIEW_ENTRIES + 5):
        cache.view(app, ("team", v), lambda v=v: v)
    assert len(app.state.plan_cache) == cache.VIEW_ENTRIES
    assert ("team", 0) not in app.state.plan_cache  # the oldest went first
    assert ("team", cache.VIEW_ENTRIES + 4) in app.state.plan_cache

    monkeypatch.setattr(cache, "TEXT_CACHE_ENTRIES", 3)
    for v in range(5):
        assert cache.cached_text(app, ("page", v), lambda v=v: f"<p>{v}</p>") == f"<p>{v}</p>"
    assert list(app.state.text_cache) == [("page", 2), ("page", 3), ("page", 4)]

    for v in range(cache.LIST_ENTRIES + 1):
        cache.listing(app, ("people", v), lambda v=v: (b"{}",) * v)
    assert len(app.state.list_cache) == cache.LIST_ENTRIES and ("people", 0) not in app.state.list_cache

    monkeypatch.setattr(cache, "KNOWN_CALLERS", 2)
    for v in range(3):
        cache.remember_caller(app, ("token", str(v)), v)
    assert cache.known_caller(app, ("token", "0")) is None
    assert cache.known_caller(app, ("token", "2")) == 2
    cache.remember_caller(app, ("token", "2"), None)  # a credential no longer valid
    assert cache.known_caller(app, ("token", "2")) is None


def test_rendered_text_is_bounded_by_size_too(monkeypatch: pytest.MonkeyPatch) -> None:
    app = _app()
    monkeypatch.setattr(cache, "TEXT_CACHE_SIZE", 25)
    for v in range(4):
        cache.cached_text(app, ("page", v), lambda: "x" * 10)
    assert list(app.state.text_cache) == [("page", 2), ("page", 3)]  # 20 of 25
    assert app.state.text_cache_size == 20
    cache.cached_text(app, "big", lambda: "y" * 30)  # larger than all: kept alone
    assert list(app.state.text_cache) == ["big"] and app.state.text_cache_size == 30
    cache.cached_text(app, "small", lambda: "z")
    assert list(app.state.text_cache) == ["small"] and app.state.text_cache_size == 1


def test_a_built_view_asks_for_the_freezing() -> None:
    app = _app()
    heap.settle()  # nothing pending
    assert not heap._pending
    cache.view(app, "new", lambda: {"x": 1})
    assert heap._pending
    cache.settle_if_pending()
    assert not heap._pending
