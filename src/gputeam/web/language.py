"""The language of each request: the user's choice (the language switcher's cookie), else the
browser's ``Accept-Language``, else English; pages render in it (``gputeam.i18n``).

``Language`` is pure ASGI middleware: it makes the language the active one for the request
(a context variable, so concurrent requests in other languages do not mix) and says which
it used (``Content-Language``; ``Vary`` on the headers it read). ``GET /language?lang=de``
is the switcher: it remembers the choice in a cookie and goes back to the page.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from gputeam import i18n

__all__ = ["COOKIE", "Language", "choose", "router"]

COOKIE = "gputeam_lang"
YEAR = 365 * 24 * 3600
router = APIRouter(include_in_schema=False)


def choose(cookie: str | None, accept_language: str | None) -> str:
    """The request's language: the cookie's (a user's choice; ``xx``, the tests' pseudo-locale,
    only from a cookie set by hand), else the browser's."""
    chosen = i18n.normalise(cookie)
    if chosen is not None:
        return chosen
    return i18n.from_accept_language(accept_language) or "en"


class Language:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from starlette.datastructures import MutableHeaders

        request = Request(scope)
        language = choose(request.cookies.get(COOKIE), request.headers.get("accept-language"))

        async def send_with_language(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Language", "en" if language == i18n.PSEUDO else language)
                headers.add_vary_header("Accept-Language")
                headers.add_vary_header("Cookie")
            await send(message)

        with i18n.use(language):
            await self.app(scope, receive, send_with_language)


@router.get("/language")
def switch_language(request: Request, lang: str = "en", next: str = "/") -> Response:
    """Remember ``lang`` (one of gputeam's languages) and go back to ``next`` (a local path)."""
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    language = i18n.normalise(lang)
    if language is not None and language != i18n.PSEUDO:
        response.set_cookie(COOKIE, language, max_age=YEAR, httponly=True, samesite="lax", path="/")
    return response
