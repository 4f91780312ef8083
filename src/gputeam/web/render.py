"""Rendering pages: the template context every page shares (caller, CSRF token)."""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import Response

from gputeam.web import notices
from gputeam.web.auth import csrf_token, load_principal


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> Response:
    """The page ``name``; a full page (not an htmx fragment) also shows the notice an
    action left for it (:mod:`gputeam.web.notices`), unless it has its own."""
    context.setdefault("who", load_principal(request) if name != "login.html" else None)
    context["csrf"] = csrf_token(request)
    context["request"] = request
    page = not request.headers.get("HX-Request")
    if page and not context.get("flash"):
        context["flash"] = notices.take(request)
    response: Response = request.app.state.templates.TemplateResponse(
        request, name, context, status_code=status_code
    )
    if page:
        notices.forget(request, response)
    return response


def error_page(request: Request, status: int, detail: str) -> Response:
    from gputeam.i18n import gettext

    titles = {403: gettext("Forbidden"), 404: gettext("Not found")}
    try:
        who = load_principal(request)
    except HTTPException:
        who = None
    return render(
        request,
        "error.html",
        status,
        who=who,
        code=status,
        title=titles.get(status, gettext("Error")),
        detail=detail,
    )


def today(request: Request) -> date:
    return request.app.state.clock.today()  # type: ignore[no-any-return]
