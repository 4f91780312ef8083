"""Notices after an action ("Person added.", "Team created.", "Plan saved ..."): written
by the server, shown once on the next page, never taken from the query string.

An action that redirects (:func:`redirect`) puts its notice, in the request's language,
into a short-lived cookie signed with the server's secret key (itsdangerous, its own salt)
and bound to the caller's session id; the next full page (:func:`gputeam.web.render.render`)
takes it: shown once, the cookie deleted. A notice cookie that is forged, altered, older
than :data:`MAX_AGE` or made for another session shows nothing. A link such as
``/people?flash=Call+the+helpdesk`` therefore shows no notice: the query string is not read.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import RedirectResponse, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

#: the cookie holding the next page's notice
COOKIE = "gputeam_notice"
#: seconds a notice waits for its page (a redirect is followed at once)
MAX_AGE = 120
#: characters of a notice kept (a cookie holds about 4 KB)
LONGEST = 1000


class NoticeSigner:
    """Signs a notice for one session and reads it back."""

    def __init__(self, secret_key: str) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt="gputeam.notice")

    def dumps(self, sid: str, text: str) -> str:
        return self._serializer.dumps({"sid": sid, "text": text[:LONGEST]})

    def loads(self, sid: str, cookie: str | None) -> str | None:
        """The notice ``cookie`` holds for session ``sid``; None if there is none, it is
        not ours, too old, or for another session."""
        if not cookie:
            return None
        try:
            data = self._serializer.loads(cookie, max_age=MAX_AGE)
        except (BadSignature, ValueError):
            return None
        if not isinstance(data, dict) or data.get("sid") != sid or not isinstance(data.get("text"), str):
            return None
        return str(data["text"])


def _secure(request: Request) -> bool:
    secure: bool | None = request.app.state.settings.secure_cookies
    return request.url.scheme == "https" if secure is None else secure


def redirect(request: Request, url: str, text: str) -> RedirectResponse:
    """A 303 to ``url`` whose page shows ``text`` once (the text as the server wrote it)."""
    response = RedirectResponse(url, status_code=303)
    signer: NoticeSigner = request.app.state.notice_signer
    response.set_cookie(
        COOKIE,
        signer.dumps(request.state.session.sid, text),
        max_age=MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=_secure(request),
        path="/",
    )
    return response


def take(request: Request) -> str | None:
    """The notice waiting for this page, if any (its cookie is then deleted by
    :func:`forget`)."""
    signer: NoticeSigner = request.app.state.notice_signer
    return signer.loads(request.state.session.sid, request.cookies.get(COOKIE))


def forget(request: Request, response: Response) -> None:
    """Delete the notice cookie the request came with (shown now, or not valid)."""
    if COOKIE in request.cookies:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(request))
