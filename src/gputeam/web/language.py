"""The language of each request: a signed-in user's own setting (their account's), else the
language switcher's cookie, else the browser's ``Accept-Language``, else English; pages
render in it (``gputeam.i18n``).

``Language`` is pure ASGI middleware, the outermost: it makes the cookie's or the browser's
language the active one for the request (a context variable, so concurrent requests in
other languages do not mix) and says which was used (``Content-Language``; ``Vary`` on the
headers it read). ``AccountLanguage``, inside the session cookie's middleware, then makes a
signed-in browser user's own language the active one (the caller is read once per request
and kept for the route). The switcher: ``GET /language?lang=de`` (anonymous pages) remembers
the choice in a cookie; ``POST /language`` (a signed-in user's pages, with the CSRF token)
also makes it the account's language; the account page sets or clears it.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from gputeam import i18n
from gputeam.web.auth import load_principal, require
from gputeam.web.permissions import Perm, Principal

__all__ = ["COOKIE", "AccountLanguage", "Language", "choose", "remember", "router"]

COOKIE = "gputeam_lang"
#: Where ``AccountLanguage`` leaves the user's language for ``Language``'s response headers.
_STATE_KEY = "gputeam_language"
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
                used = scope.get("state", {}).get(_STATE_KEY, language)
                headers.setdefault("Content-Language", "en" if used == i18n.PSEUDO else used)
                headers.add_vary_header("Accept-Language")
                headers.add_vary_header("Cookie")
            await send(message)

        with i18n.use(language):
            await self.app(scope, receive, send_with_language)


class AccountLanguage:
    """A signed-in browser user's own language (``Principal.language``) for the request.
    Runs inside the session cookie's middleware; API tokens keep the request's
    ``Accept-Language`` (a program asks for its language itself)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        language = None
        if scope["type"] == "http" and not scope["path"].startswith("/static/"):
            language = await self._users_language(Request(scope))
        if language is None:
            await self.app(scope, receive, send)
            return
        scope.setdefault("state", {})[_STATE_KEY] = language
        with i18n.use(language):
            await self.app(scope, receive, send)

    @staticmethod
    async def _users_language(request: Request) -> str | None:
        from starlette.concurrency import run_in_threadpool

        session = getattr(request.state, "session", None)
        if session is None or session.uid is None or request.headers.get("authorization"):
            return None
        try:
            who = await run_in_threadpool(load_principal, request)
        except HTTPException:  # a refused token in the URL: the route answers it
            return None
        return who.language if who is not None and who.via == "session" else None


def remember(response: Response, language: str | None) -> None:
    """Keep ``language`` in the switcher's cookie (for pages before login and after logout)."""
    if language is not None and language != i18n.PSEUDO:
        response.set_cookie(COOKIE, language, max_age=YEAR, httponly=True, samesite="lax", path="/")


def _local(next: str) -> str:
    return next if next.startswith("/") and not next.startswith("//") else "/"


@router.get("/language")
def switch_language(request: Request, lang: str = "en", next: str = "/") -> Response:
    """Remember ``lang`` (one of gputeam's languages) and go back to ``next`` (a local path)."""
    response = RedirectResponse(_local(next), status_code=303)
    remember(response, i18n.normalise(lang))
    return response


@router.post("/language")
def switch_users_language(
    request: Request,
    who: Annotated[Principal, Depends(require(Perm.DASHBOARD))],
    lang: Annotated[str, Form(max_length=20)] = "en",
    next: Annotated[str, Form(max_length=2000)] = "/",
) -> Response:
    """The switcher of a signed-in user: ``lang`` becomes their account's language (and the
    cookie's); back to ``next``. An unknown language changes nothing."""
    from gputeam import store

    response = RedirectResponse(_local(next), status_code=303)
    language = i18n.normalise(lang)
    if language is None or language == i18n.PSEUDO:
        return response
    with request.app.state.db.session() as s:
        store.set_user_language(s, who.user_id, language, actor=who.username)
    remember(response, language)
    return response
