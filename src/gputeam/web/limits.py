"""What a request may carry, checked before anything parses it (pure ASGI middleware).

* Size: a JSON or form body is at most :data:`MAX_BODY` bytes, a file upload (a
  ``multipart/form-data`` body) at most ``GPUTEAM_MAX_UPLOAD_BYTES`` (the store's
  :class:`~gputeam.store.limits.TableLimits`, :func:`max_upload`) plus :data:`MAX_BODY`
  for the form around it. A request whose ``Content-Length`` says more is answered 413 at once,
  without reading the body; one sent in chunks is answered 413 as soon as it passes the
  limit. Nothing bigger is ever held in memory.
* NUL characters: PostgreSQL cannot store or even compare text holding NUL (U+0000), and
  SQLite can, so the same request once answered 500 on one engine and 422 on the other. A
  NUL in a query parameter, a form field or a JSON string is answered 422 here, naming
  the parameter, on every engine. (The store refuses NUL on its own too, for other doors.)
* Nesting: a JSON body nested deeper than
  :data:`gputeam.credentials.jsontext.MAX_JSON_DEPTH` levels is answered 422 naming the
  limit (the parser would otherwise fail deep inside with a ``RecursionError``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

from gputeam.i18n import N_, gettext

#: the largest JSON or form body, in bytes
MAX_BODY = 2 * 1024 * 1024


def max_upload(request: Any) -> int:
    """The largest uploaded file (roster or certifications import), in bytes: the app's
    ``GPUTEAM_MAX_UPLOAD_BYTES``."""
    return int(request.app.state.limits.max_upload_bytes)


def size_text(n: int) -> str:
    """A limit as users read it: ``50 MB`` (``800 KB``, ``1,000 bytes`` below a megabyte)."""
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.3g} MB"
    return f"{n // 1024} KB" if n >= 10 * 1024 else f"{n:,} bytes"


async def _problem(
    send: Any, status: int, title: str, detail: str, problems: list[dict[str, str]] | None = None
) -> None:
    """A problem document; its ``title`` (English, marked with ``N_``) is written in the
    request's language (the Language middleware is outside this one)."""
    body: dict[str, Any] = {
        "type": "about:blank" if status == 413 else "urn:gputeam:problem:request",
        "title": gettext(title),
        "status": status,
        "detail": detail,
    }
    if problems:
        body["problems"] = problems
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/problem+json"),
                (b"content-length", str(len(data)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


def _nul_paths(value: Any, path: str = "") -> list[str]:
    """Where NUL characters are in a JSON document (``a.b.0``)."""
    if isinstance(value, str):
        return [path or "body"] if "\x00" in value else []
    if isinstance(value, dict):
        return [
            p
            for k, v in value.items()
            for p in ([f"{path}.{k}".lstrip(".")] if "\x00" in str(k) else [])
            + _nul_paths(v, f"{path}.{k}".lstrip("."))
        ]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _nul_paths(v, f"{path}.{i}".lstrip("."))]
    return []


def _form_nul_paths(body: bytes) -> list[str]:
    if b"%00" not in body.lower() and b"\x00" not in body:
        return []
    return sorted(
        {
            k
            for k, v in parse_qsl(body.decode("latin-1"), keep_blank_values=True, encoding="latin-1")
            if "\x00" in k + v
        }
    )


_NUL_IN = {
    "address": N_("contains a NUL character (in the address)"),
    "body": N_("contains a NUL character (in the body)"),
}


def _nul_problems(paths: list[str], where: str) -> list[dict[str, str]]:
    return [
        {
            "path": p,
            "message": gettext(_NUL_IN[where]),
            "expected": gettext(N_("text without NUL")),
        }
        for p in paths
    ]


class RequestLimits:
    """Pure ASGI middleware; see the module docstring. ``page(request, detail)``, when
    given, answers a request for a page (not under ``/api/``) that is too large, so that a
    form sent from a browser gets a page instead of a problem document."""

    def __init__(self, app: Any, page: Callable[[Any, str], Any] | None = None) -> None:
        self.app = app
        self.page = page

    async def _too_large(self, scope: Any, receive: Any, send: Any, detail: str) -> None:
        if self.page is None or scope["path"].startswith("/api/"):
            await _problem(send, 413, N_("Too large"), detail)
            return
        from starlette.concurrency import run_in_threadpool
        from starlette.requests import Request

        response = await run_in_threadpool(self.page, Request(scope), detail)
        response.headers["connection"] = "close"  # the rest of the body is not read
        await response(scope, receive, send)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query = scope.get("query_string", b"")
        if (
            b"%00" in query
            or b"\x00" in query
            or b"%00" in scope.get("raw_path", b"")
            or "\x00" in scope.get("path", "")
        ):
            paths = _form_nul_paths(query) if b"%00" in query or b"\x00" in query else []
            await _problem(
                send,
                422,
                N_("Invalid request"),
                gettext("a NUL character in the request"),
                _nul_problems(paths or ["path"], "address"),
            )
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        if b"content-length" not in headers and b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)  # no body (a GET): nothing to check
            return
        kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        files = int(scope["app"].state.limits.max_upload_bytes)
        limit = files + MAX_BODY if kind == b"multipart/form-data" else MAX_BODY
        length = headers.get(b"content-length")
        too_large = (
            gettext("the request body is larger than {limit} (files up to {files})").format(
                limit=size_text(limit), files=size_text(files)
            )
            if limit > MAX_BODY
            else gettext("the request body is larger than {limit}").format(limit=size_text(limit))
        )
        if length is not None and length.isdigit() and int(length) > limit:
            await self._too_large(scope, receive, send, too_large)
            return
        if kind in (b"application/json", b"application/x-www-form-urlencoded") or kind.endswith(b"+json"):
            await self._checked(scope, receive, send, kind, limit, too_large)
            return
        await self._counted(scope, receive, send, limit, too_large)

    async def _checked(
        self, scope: Any, receive: Any, send: Any, kind: bytes, limit: int, too_large: str
    ) -> None:
        """Read the (small) body, refuse it if too large or holding NUL, then hand it on."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            size += len(message.get("body", b""))
            if size > limit:
                await self._too_large(scope, receive, send, too_large)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        paths: list[str] = []
        if kind == b"application/x-www-form-urlencoded":
            paths = _form_nul_paths(body)
        elif b"\\u0000" in body or b"\x00" in body:
            try:
                paths = _nul_paths(json.loads(body)) or []
            except ValueError:
                paths = []  # not JSON: the route answers that
        if paths:
            await _problem(
                send,
                422,
                N_("Invalid request"),
                gettext("a NUL character in the request"),
                _nul_problems(paths, "body"),
            )
            return
        if kind != b"application/x-www-form-urlencoded" and body:
            from gputeam.credentials import jsontext

            try:
                jsontext.loads(body)
            except jsontext.TooDeep as exc:
                from gputeam.i18n.messages import translate

                await _problem(send, 422, N_("Invalid request"), translate(str(exc)))
                return
            except ValueError:
                pass  # not JSON: the route answers that
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _counted(self, scope: Any, receive: Any, send: Any, limit: int, too_large: str) -> None:
        """Pass the body on as it comes, stopping at ``limit``."""
        from starlette.exceptions import HTTPException

        size = 0
        started = False

        async def counting() -> Any:
            nonlocal size
            message = await receive()
            size += len(message.get("body", b""))
            if size > limit:  # an HTTPException, so that the body parser passes it on
                raise HTTPException(413, too_large)
            return message

        async def tracking(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting, tracking)
        except HTTPException as exc:
            if exc.status_code != 413 or started:
                raise
            await self._too_large(scope, receive, send, too_large)
