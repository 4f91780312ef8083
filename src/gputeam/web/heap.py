"""Keeping Python's cyclic garbage collector out of request latency.

A full (generation 2) collection walks every tracked object of the process and stops all
request threads while it does. A worker holding the cached live team, plan and dashboard of
a 5,000-person organisation has hundreds of thousands of such objects, and under load full
collections were measured at 150-700 ms every 8-10 s per worker: they, not the database,
made the slowest 1% of requests slow.

Those objects are long-lived by design (rebuilt only when the data version changes), so
after start-up and after each cache build they are moved to the collector's permanent
generation (:func:`gc.freeze`), which full collections skip. Just before, one full
collection runs, so no garbage is frozen; it only walks what is not frozen yet (what was
built since the last freeze), once per data change instead of every few seconds. Frozen
objects are still freed by reference counting when a cache entry is replaced (cached values
hold no reference cycles; a cycle among frozen objects would stay until the process ends).
"""

from __future__ import annotations

import gc
import threading

_LOCK = threading.Lock()
_pending = False


def settle() -> None:
    """Collect garbage (so none is frozen), then move every surviving object into the
    permanent generation."""
    global _pending
    with _LOCK:
        _pending = False
        gc.collect()
        gc.freeze()


def settle_soon() -> None:
    """Ask for :func:`settle` once the current request has been answered (a request that
    builds several cache entries then pays for one collection, after its response)."""
    global _pending
    _pending = True


def settle_if_pending() -> None:
    if _pending:
        settle()
