"""The app factory: :func:`create_app` builds one FastAPI app from explicit settings.

Nothing is created at import time. The app holds no per-user state: sessions are signed
cookies naming session rows, and everything (users, tokens, sessions, login failures,
plans) is in the database, so several processes behind a load balancer serve the same
users.
"""

from __future__ import annotations

import functools
import secrets
from contextlib import asynccontextmanager
from datetime import date
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from gputeam import store
from gputeam.errors import InputError, headline
from gputeam.i18n import N_, gettext
from gputeam.web import cache
from gputeam.web.api.common import API_PREFIX
from gputeam.web.dbretry import DatabaseRetry
from gputeam.web.language import AccountLanguage, Language
from gputeam.web.limits import RequestLimits
from gputeam.web.notices import NoticeSigner
from gputeam.web.security import Session, SessionSigner
from gputeam.web.settings import Settings

HERE = Path(__file__).parent
#: The fonts the reports embed (gputeam/report/fonts), served to browsers too.
FONTS = Path(str(resources.files("gputeam.report") / "fonts"))
FAVICON = HERE / "static" / "favicon.svg"
SESSION_COOKIE = "gputeam_session"


class Clock:
    """Today's date for the app; tests pin it. The planner never reads the clock itself."""

    def __init__(self, fixed: date | None = None) -> None:
        self.fixed = fixed

    def today(self) -> date:
        return self.fixed or date.today()


def create_app(settings: Settings, *, database: Any = None, today: date | None = None) -> FastAPI:
    """Build the app. ``database`` (a :class:`gputeam.store.Database`) may be passed in by
    tests; otherwise it is opened (and migrated) from ``settings.db`` at start-up."""
    from gputeam.web import (
        api,
        apidocs,
        credentials,
        exam_marking,
        exams,
        language,
        pages,
        pages_account,
        pages_approvals,
        pages_export,
        pages_import,
        pages_learning,
        pages_lifecycle,
        pages_people,
        pages_plan,
        pages_skills,
        pages_teams,
        render,
    )

    secret = settings.secret_key or secrets.token_urlsafe(48)  # dev mode only (validated)
    owns_db = database is None

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # type: ignore[no-untyped-def]
        import anyio.to_thread

        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.threads
        if app.state.db is None:
            from gputeam.store import open_database

            # one pooled connection per request thread (no connect/close per request)
            app.state.db = open_database(settings.db, threads=settings.threads)
        if settings.freeze_heap:
            cache.settle()  # modules, templates, catalog: alive until the process ends
        yield
        if owns_db and app.state.db is not None:
            app.state.db.dispose()

    app = FastAPI(
        title="gputeam",
        version=_version(),
        description="Plan and track the team that runs GPU / AI infrastructure. "
        "Authenticate with a session cookie (browser) or `Authorization: Bearer <token>`.",
        lifespan=lifespan,
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=None,  # FastAPI's would load Swagger UI from a CDN: gputeam.web.apidocs
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.db = database
    app.state.signer = SessionSigner(secret, settings.session_max_age)
    app.state.notice_signer = NoticeSigner(secret)  # notices after an action (gputeam.web.notices)
    app.state.clock = Clock(today)
    app.state.templates = _templates()
    cache.install(app)  # the per-process views, rendered text and known callers
    from gputeam.store import PendingUploads

    # what an import may read (the store's limits, from the settings), for every door
    app.state.limits = settings.table_limits()
    # the guided import's files: one directory per database, shared by its processes
    app.state.uploads = PendingUploads(
        _upload_directory(settings), max_bytes=app.state.limits.max_upload_bytes
    )

    @app.exception_handler(InputError)
    async def input_error(request: Request, exc: InputError) -> Response:
        if isinstance(exc, store.LimitExceeded):
            return limit_exceeded(request, exc)
        if exc.kind == "lookup" and not request.url.path.startswith(API_PREFIX):
            return render.error_page(request, 404, str(exc))
        if exc.kind == "lookup":  # gputeam.store.NotFound
            return problem(
                404,
                N_("Not found"),
                str(exc),
                type_="urn:gputeam:problem:lookup",
                problems=[p.localised().as_dict() for p in exc.problems],
            )
        if not request.url.path.startswith(API_PREFIX):
            return render.render(
                request,
                "error.html",
                422,
                code=422,
                title=gettext("Invalid input"),
                detail=str(exc),
                problems=[p.localised().as_dict() for p in exc.problems],
            )
        return problem(
            422,
            N_("Invalid input"),
            exc.headline,
            type_=f"urn:gputeam:problem:{exc.kind}",
            problems=[p.localised().as_dict() for p in exc.problems],
        )

    @app.exception_handler(store.Stale)
    async def stale(request: Request, exc: store.Stale) -> Response:
        # a save or hand-in from an out-of-date page: nothing stored, the attempt still open
        message = exc.problems[0].localised().message
        if not request.url.path.startswith(API_PREFIX):
            return render.error_page(request, 409, message)
        return problem(
            409,
            N_("Out of date"),
            message,
            type_="urn:gputeam:problem:stale",
            problems=[p.localised().as_dict() for p in exc.problems],
        )

    @app.exception_handler(store.WriteConflict)
    async def conflict(request: Request, exc: store.WriteConflict) -> Response:
        # a uniqueness or reference rule of the database (e.g. the same certificate twice)
        return problem(
            409,
            N_("Conflict"),
            gettext("the change conflicts with data already stored"),
            type_="urn:gputeam:problem:conflict",
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        from gputeam._yaml import one_per_fault, pydantic_message
        from gputeam.i18n.messages import translate

        problems = [
            {"path": ".".join(str(p) for p in e["loc"]), "message": translate(pydantic_message(e))}
            for e in one_per_fault(exc.errors())
        ]
        if not request.url.path.startswith(API_PREFIX):  # a page's form: a page, never JSON
            return render.render(
                request,
                "error.html",
                422,
                code=422,
                title=gettext("Invalid request"),
                detail=headline("request", len(problems)),
                problems=problems,
            )
        return problem(
            422,
            N_("Invalid request"),
            headline("request", len(problems)),
            type_="urn:gputeam:problem:request",
            problems=problems,
        )

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 413 and not request.url.path.startswith(API_PREFIX):
            from starlette.concurrency import run_in_threadpool

            return await run_in_threadpool(pages_import.too_large, request, str(exc.detail))
        if request.url.path.startswith(API_PREFIX) or exc.status_code not in (401, 403, 404):
            resp = problem(exc.status_code, _TITLES.get(exc.status_code, N_("Error")), str(exc.detail))
            for k, v in (exc.headers or {}).items():
                resp.headers[k] = v
            return resp
        if exc.status_code == 401:
            return RedirectResponse(f"/login?next={request.url.path}", status_code=303)
        return render.error_page(request, exc.status_code, str(exc.detail))

    app.add_middleware(AccountLanguage)  # a signed-in user's own language (needs the session)
    app.add_middleware(DatabaseRetry)  # inside SessionCookies: a retry sets no cookie twice
    # sizes and NUL checked before anything reads a body; a page too large: a page
    app.add_middleware(RequestLimits, page=pages_import.too_large)
    app.add_middleware(SessionCookies)
    app.add_middleware(Language)  # outermost: every page and problem in the request's language
    # the report's bundled Noto Sans KR (one copy of the files): Korean renders where the
    # browser's machine has no Hangul font; app.css loads it for Hangul only
    app.mount("/static/fonts", StaticFiles(directory=FONTS), name="fonts")
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        """The app's icon where browsers look for it without a <link> (an SVG, which every
        current browser accepts here); pages link /static/favicon.svg."""
        return Response(
            FAVICON.read_bytes(), media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
        )

    routers = (
        *api.ROUTERS,
        apidocs.router,
        credentials.api,
        credentials.pages,
        exams.router,
        exam_marking.pages,
        exam_marking.api,
        language.router,
        pages_people.router,  # before pages: /people/new is not an id
        pages.router,
        pages_import.router,
        pages_plan.router,
        pages_account.router,
        pages_teams.router,
        pages_learning.router,
        pages_lifecycle.router,
        pages_export.router,
        pages_skills.router,
        pages_approvals.router,
    )
    # The routes themselves, not include_router: each router's routes are complete when
    # their module is imported (prefix, tags, responses) and hold nothing of an app, while
    # FastAPI rebuilds an included router's routes for every app, on its first request
    # (0.3 s per app; the test suite builds over a thousand apps).
    for router in routers:
        app.router.routes.extend(router.routes)
    return app


#: Only this server's own scripts and styles (inline style attributes draw the bars).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)


#: Browsers that reached the app over HTTPS keep to HTTPS for a year.
HSTS = "max-age=31536000; includeSubDomains"
#: powerful browser features no page of the app uses, switched off for it and anything it
#: embeds (the API explorer's copy buttons write to the clipboard, its own pages only)
PERMISSIONS_POLICY = ", ".join(
    [
        *(
            f"{feature}=()"
            for feature in (
                "accelerometer",
                "camera",
                "display-capture",
                "geolocation",
                "gyroscope",
                "magnetometer",
                "microphone",
                "midi",
                "payment",
                "publickey-credentials-get",
                "screen-wake-lock",
                "serial",
                "usb",
                "xr-spatial-tracking",
                "clipboard-read",
            )
        ),
        "fullscreen=(self)",
        "clipboard-write=(self)",
    ]
)


class SessionCookies:
    """Pure ASGI middleware: reads the signed session cookie into ``request.state.session``
    (a fresh anonymous session when absent or invalid) and sets the cookie on page
    responses when the session changed; adds the security headers to every response:
    ``Cache-Control: no-store`` on everything but the static files, and
    ``Strict-Transport-Security`` when the request came over HTTPS."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from starlette.datastructures import MutableHeaders

        request = Request(scope)
        signer: SessionSigner = scope["app"].state.signer
        from gputeam.web.auth import server_now

        session = signer.loads(request.cookies.get(SESSION_COOKIE), server_now(scope["app"]).timestamp())
        state = scope.setdefault("state", {})
        state["session"] = session or Session.anonymous()
        state["session_changed"] = session is None
        is_page = not scope["path"].startswith(API_PREFIX)
        is_static = scope["path"].startswith("/static/")

        async def send_with_cookie(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if state["session_changed"] and is_page:
                    cookie = Response()
                    set_session_cookie(request, cookie, state["session"])
                    headers.append("set-cookie", cookie.headers["set-cookie"])
                headers.setdefault("X-Content-Type-Options", "nosniff")
                headers.setdefault("Referrer-Policy", "same-origin")
                headers.setdefault("X-Frame-Options", "DENY")
                headers.setdefault("Content-Security-Policy", CSP)
                headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
                if not is_static:
                    # pages and JSON carry salaries and personal data: no copy in any cache
                    headers.setdefault("Cache-Control", "no-store")
                if scope.get("scheme") == "https":  # directly or via a trusted proxy
                    headers.setdefault("Strict-Transport-Security", HSTS)
            await send(message)

        try:
            await self.app(scope, receive, send_with_cookie)
        finally:
            if scope["app"].state.settings.freeze_heap:
                cache.settle_if_pending()  # after the response: cache entries built for it


_TITLES = {
    400: N_("Bad request"),
    401: N_("Not authenticated"),
    403: N_("Forbidden"),
    404: N_("Not found"),
    405: N_("Method not allowed"),
    409: N_("Conflict"),
    413: N_("Too large"),
    422: N_("Invalid input"),
    429: N_("Too many requests"),
}


def problem(
    status: int, title: str, detail: str, *, type_: str = "about:blank", **extra: Any
) -> JSONResponse:
    """An RFC 9457 problem document; its ``title`` (English, marked with ``N_``) is shown in
    the request's language."""
    body = {"type": type_, "title": gettext(title), "status": status, "detail": detail, **extra}
    return JSONResponse(body, status_code=status, media_type="application/problem+json")


def limit_exceeded(request: Request, exc: store.LimitExceeded) -> Response:
    """A file over an import limit: 413 (too large) or 422 (a cell too long), naming the
    limit and its setting: a problem document for the API, a page for a form."""
    from gputeam.web import render

    problems = [p.localised().as_dict() for p in exc.problems]
    if not request.url.path.startswith(API_PREFIX):
        return render.render(
            request,
            "error.html",
            exc.status,
            code=exc.status,
            title=gettext(_TITLES[exc.status]),
            detail=str(exc),
            problems=problems,
        )
    return problem(
        exc.status,
        _TITLES[exc.status],
        str(exc),
        type_="urn:gputeam:problem:import-limit",
        problems=problems,
        limit={"setting": exc.setting, "value": exc.value},
    )


def set_session_cookie(request: Request, response: Response, session: Session) -> None:
    settings: Settings = request.app.state.settings
    secure = settings.secure_cookies
    if secure is None:
        secure = request.url.scheme == "https"
    max_age = settings.session_max_age
    if session.until is not None:  # a running exam: the cookie lasts at least that long
        from gputeam.web.auth import server_now

        max_age = max(max_age, session.until - int(server_now(request.app).timestamp()))
    response.set_cookie(
        SESSION_COOKIE,
        request.app.state.signer.dumps(session),
        max_age=max_age,
        httponly=True,
        samesite="lax",
        secure=secure,
        path="/",
    )


def _upload_directory(settings: Settings) -> Path:
    import hashlib
    import tempfile

    from gputeam.store import database_url

    digest = hashlib.sha256(database_url(settings.db).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"gputeam-imports-{digest}"


@functools.cache
def _templates() -> Jinja2Templates:
    """The Jinja environment, one per process: everything it holds (filters, the gettext
    callables, the language list) is the process's, and each app built in the same process
    (tests build hundreds) reuses its compiled templates instead of compiling them again."""
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    from gputeam.web import fmt

    templates.env.filters.update(fmt.FILTERS)
    from gputeam import i18n

    templates.env.add_extension("jinja2.ext.i18n")
    templates.env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext, i18n.ngettext, newstyle=True
    )
    _agreeing_particles(templates.env.globals)
    templates.env.globals["language"] = lambda: "en" if i18n.current() == i18n.PSEUDO else i18n.current()
    templates.env.globals["languages"] = i18n.language_names()
    templates.env.filters["tr"] = lambda text: i18n.gettext(str(text))  # catalog names (data)
    from gputeam.i18n.messages import pieces, translate

    templates.env.filters["message"] = lambda text: translate(str(text))  # a problem's English texts
    # the same, in pieces: (text, stayed English) for a page to mark a library's own words
    templates.env.filters["message_pieces"] = lambda text: pieces(str(text))
    return templates


def _agreeing_particles(names: dict[str, Any]) -> None:
    """The template's ``_``/``gettext``/``ngettext`` with Korean particle markers resolved
    after the values are filled in (``%(name)s을(를)``: see :mod:`gputeam.i18n.korean`)."""
    from jinja2 import pass_context
    from markupsafe import Markup

    from gputeam import i18n
    from gputeam.i18n import korean

    def agreeing(func: Any) -> Any:
        @pass_context
        def call(context: Any, *args: Any, **kwargs: Any) -> Any:
            text = func(context, *args, **kwargs)
            if i18n.current() != "ko":
                return text
            resolved = korean.resolve(str(text))
            return Markup(resolved) if isinstance(text, Markup) else resolved

        return call

    for name in ("_", "gettext", "ngettext"):
        if name in names:
            names[name] = agreeing(names[name])


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gputeam")
    except PackageNotFoundError:  # pragma: no cover
        return "0"
