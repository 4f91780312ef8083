"""Surviving a lost database connection (server restart, failover, idle timeout).

Pooled connections idle for a while are pinged before use (see
:func:`gputeam.store.db.create_db_engine`), but one dropped while busy is only found when a
request uses it. SQLAlchemy then invalidates it and every connection pooled before it.
This middleware turns that moment into something a user can live with:

- a read (GET/HEAD: no side effects, no body) is run once more on a new connection, so the
  user sees no error at all;
- a write is not repeated (its transaction was on the lost connection, so it was rolled
  back, unless the connection died during COMMIT itself): the answer is 503 with
  ``Retry-After`` and a problem document saying so, never a bare 500.
"""

from __future__ import annotations

import json
from typing import Any

from gputeam.i18n import gettext
from gputeam.store import lost_connection

RETRY_METHODS = frozenset({"GET", "HEAD"})


class DatabaseRetry:
    """Pure ASGI middleware; see the module docstring."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        replayed = False

        async def replay() -> Any:  # a GET's (empty) body once more, then the client's
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": b"", "more_body": False}

        attempts = 2 if scope["method"] in RETRY_METHODS else 1
        for attempt in range(attempts):
            try:
                await self.app(scope, receive if attempt == 0 else replay, tracking_send)
                return
            except Exception as exc:
                if started or not lost_connection(exc):
                    raise
        await _unavailable(scope, send)


async def _unavailable(scope: Any, send: Any) -> None:
    writes = scope["method"] not in RETRY_METHODS
    detail = (
        gettext(
            "the connection to the database was lost while handling this request; the change "
            "was not saved (unless the connection dropped during the final commit): check, "
            "then send it again"
        )
        if writes
        else gettext("the connection to the database was lost while handling this request; retry in a moment")
    )
    body = json.dumps(
        {
            "type": "urn:gputeam:problem:database-unavailable",
            "title": gettext("Database unavailable"),
            "status": 503,
            "detail": detail,
        }
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/problem+json"),
                (b"retry-after", b"1"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
