"""The web layer's per-process memory, in one place: views (the live team, the latest plan,
the dashboard), rendered text (pages and JSON documents), lists (every row of a filtered,
sorted list, each as its JSON text, so that any page is a slice) and known callers (who
holds a token or session).

Every entry is keyed by what it depends on, a data version of the database first (a
counter every commit of tracked data bumps; the accounts version for callers), so a change
made through any process is seen by every process on its next request. Every cache is
bounded (the oldest entries are dropped). Views are built single flight: when several
threads miss the same key at once, one builds it and the others wait for its result.

Built views are long-lived, so this module is the one that asks :mod:`gputeam.web.heap`
to move them out of the garbage collector's full collections (:func:`settle_soon`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from fastapi import FastAPI

from gputeam.web import heap

T = TypeVar("T")

_LOCK = threading.Lock()
#: Views kept per process (each is one data version's dashboard, team, plan ...).
VIEW_ENTRIES = 32
#: Rendered pages and JSON documents kept per process (str / bytes: the garbage collector
#: does not walk them, so they cost no pause time); the oldest are dropped beyond this
#: many, or beyond this many characters (bytes) in all.
TEXT_CACHE_ENTRIES = 4096
TEXT_CACHE_SIZE = 64 * 2**20
#: Small aggregates kept per process, one per data version and filter (the skills matrix's
#: proficiency counts: a few dozen numbers each).
AGGREGATE_ENTRIES = 1024
#: Lists kept per process (one per data version, filter and order; 5,000 people's rows
#: as JSON are about 1 MB).
LIST_ENTRIES = 32
#: Callers remembered per process; beyond this many, the oldest are forgotten.
KNOWN_CALLERS = 10_000
#: Saved plans shaped to a caller's reach (gputeam.tracker.reach), kept per process: one
#: per saved plan and reach (a manager's teams, an engineer), apart from the views so
#: that many callers do not push the dashboard out.
SHAPED_ENTRIES = 64


def install(app: FastAPI) -> None:
    """Give a new app its (empty) caches."""
    app.state.catalog_cache = {}
    app.state.plan_cache = {}
    app.state.aggregate_cache = {}
    app.state.list_cache = {}
    app.state.text_cache = {}
    app.state.text_cache_size = 0
    app.state.known_callers = {}
    app.state.shaped_cache = {}


def remember(cache: dict[Any, Any], key: Hashable, value: Any, limit: int = VIEW_ENTRIES) -> None:
    """``cache[key] = value``, dropping the oldest entries beyond ``limit``."""
    with _LOCK:
        while len(cache) >= limit and key not in cache:
            cache.pop(next(iter(cache)))
        cache[key] = value


#: (id of the cache, key) -> the lock held while that entry is being built.
_BUILDING: dict[tuple[int, Any], threading.Lock] = {}
_MISSING = object()


def cached(cache: dict[Any, Any], key: Hashable, build: Callable[[], T], limit: int = VIEW_ENTRIES) -> T:
    """``cache[key]``, built by ``build()`` if missing. Single flight: when several threads
    miss the same key at once, one builds it and the others wait for its result instead
    of repeating the work. If the build raises, nothing is cached and a waiting thread
    tries again."""
    value = cache.get(key, _MISSING)
    if value is not _MISSING:
        return value  # type: ignore[no-any-return]
    with _LOCK:
        lock = _BUILDING.setdefault((id(cache), key), threading.Lock())
    try:
        with lock:
            value = cache.get(key, _MISSING)
            if value is _MISSING:
                value = build()
                remember(cache, key, value, limit)
                heap.settle_soon()  # long-lived from now on: keep it out of full collections
            return value  # type: ignore[no-any-return]
    finally:
        with _LOCK:
            if _BUILDING.get((id(cache), key)) is lock and not lock.locked():
                del _BUILDING[(id(cache), key)]


def view(app: FastAPI, key: Hashable, build: Callable[[], T]) -> T:
    """A view of the data (keyed by its data version), built once per process."""
    return cached(app.state.plan_cache, key, build)


def aggregate(app: FastAPI, key: Hashable, build: Callable[[], T]) -> T:
    """A small aggregate keyed by its data version and filter, built once per process
    (kept apart from the views, so that many filters do not push the dashboard out)."""
    return cached(app.state.aggregate_cache, key, build, AGGREGATE_ENTRIES)


def listing(app: FastAPI, key: Hashable, build: Callable[[], T]) -> T:
    """Every row of a list (keyed by its data version, filter and order), built once per
    process; a page of it is then a slice (kept apart from the views, like the aggregates)."""
    return cached(app.state.list_cache, key, build, LIST_ENTRIES)


def shaped(app: FastAPI, key: Hashable, build: Callable[[], T]) -> T:
    """A saved plan shaped to a reach (keyed by the plan's id and the reach), built once
    per process; kept apart from the views."""
    return cached(app.state.shaped_cache, key, build, SHAPED_ENTRIES)


def process_wide(app: FastAPI, key: str, build: Callable[[], T]) -> T:
    """What lasts as long as the process (the catalog, the organisation's id)."""
    return cached(app.state.catalog_cache, key, build)


def cached_text(app: FastAPI, key: Hashable, build: Callable[[], T]) -> T:
    """``build()`` (a str or bytes) cached under ``key``, which must name everything the
    text depends on (a data version, the day, who may see what)."""
    value = app.state.text_cache.get(key)
    if value is None:
        value = build()
        _remember_text(app, key, value)
    return value  # type: ignore[no-any-return]


def _remember_text(app: FastAPI, key: Hashable, value: Any) -> None:
    """``text_cache[key] = value``, dropping the oldest entries beyond
    :data:`TEXT_CACHE_ENTRIES` entries or :data:`TEXT_CACHE_SIZE` in all."""
    cache: dict[Any, Any] = app.state.text_cache
    with _LOCK:
        old = cache.pop(key, None)
        if old is not None:
            app.state.text_cache_size -= len(old)
        while cache and (
            len(cache) >= TEXT_CACHE_ENTRIES or app.state.text_cache_size + len(value) > TEXT_CACHE_SIZE
        ):
            app.state.text_cache_size -= len(cache.pop(next(iter(cache))))
        cache[key] = value
        app.state.text_cache_size += len(value)


def known_caller(app: FastAPI, key: Hashable) -> Any:
    """The caller remembered under ``key`` (a credential's digest), or None."""
    return app.state.known_callers.get(key)


def remember_caller(app: FastAPI, key: Hashable, entry: Any) -> None:
    """Remember a caller (``None``: forget the credential)."""
    known: dict[Any, Any] = app.state.known_callers
    if entry is None:
        known.pop(key, None)
        return
    remember(known, key, entry, KNOWN_CALLERS)


def settle() -> None:
    """At start-up: what is loaded now lives until the process ends (see :mod:`heap`)."""
    heap.settle()


def settle_if_pending() -> None:
    """After a response: views built for it join the long-lived objects."""
    heap.settle_if_pending()
