"""Authentication for pages and API: who is calling, may they, and login itself.

- :func:`load_principal` reads ``Authorization: Bearer <token>`` (API tokens, scoped) or
  the signed session cookie, whose session id must name a live session in the database
  (so logout, a password change, a deactivation or "log out everywhere" take effect at
  once, in every process).
- :func:`require` is the FastAPI dependency each route declares with its permission; a
  token must hold the permission's scope, and at least ``write`` for any unsafe method.
- :func:`check_csrf` guards every state-changing request authenticated by cookie.
- :func:`login` verifies a password, throttled per account and address by
  :mod:`gputeam.store.throttle` (failures are audit-log entries, so the limits hold
  across processes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPBearer

from gputeam import store
from gputeam.i18n import gettext
from gputeam.web import cache
from gputeam.web.permissions import Perm, Principal
from gputeam.web.security import Session

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"


@dataclass
class _Known:
    """A caller as last read from the database, valid while the versions are unchanged."""

    versions: tuple[int, int]
    who: Principal
    caller: store.Caller  # the credential's id and state
    last_used_at: datetime | None = None


def _known(request: Request, s: Any, key: tuple[str, str], **credential: str) -> _Known | None:
    """The caller holding ``credential`` (``token=`` or ``sid=``), from the per-process
    memory while the database's tracked and accounts versions are unchanged (every
    ending of a session, revocation of a token or change of a user bumps the accounts
    version), else read again."""
    current = store.versions(s)
    entry: _Known | None = cache.known_caller(request.app, key)
    if entry is None or entry.versions != current:
        c = store.find_caller(s, **credential)
        entry = (
            None
            if c is None
            else _Known(
                current,
                Principal(
                    user_id=c.user_id,
                    username=c.username,
                    role=c.role,
                    person_id=c.person_id,
                    team_ids=c.team_ids,
                    scopes=c.scopes,
                    via="session" if c.scopes is None else "token",
                    language=c.language,
                ),
                c,
                c.last_used_at,
            )
        )
        cache.remember_caller(request.app, key, entry)
    return entry


def server_now(app: Any) -> datetime:
    """The server's time; tests put a fake clock at ``app.state.now`` (a callable). Sessions,
    tokens and exams all read it."""
    clock = getattr(app.state, "now", None)
    return clock() if clock is not None else datetime.now(UTC)


def keep_signed_in(request: Request, s: Any, who: Principal, until: datetime, reason: str) -> None:
    """Keep the caller's session (its database row and its cookie, whose CSRF token is
    unchanged) valid at least ``until``: a running exam never logs its candidate out."""
    session: Session = request.state.session
    if who.via != "session" or session.uid is None:
        return
    store.extend_session(
        s, session.sid, until, now=server_now(request.app), actor=who.username, reason=reason
    )
    epoch = int(until.timestamp()) + 1
    if session.until is None or session.until < epoch:
        request.state.session = Session(sid=session.sid, uid=session.uid, until=epoch)
        request.state.session_changed = True  # the middleware sends the cookie again


def load_principal(request: Request) -> Principal | None:
    """The caller, or ``None`` when anonymous. Cached on the request, and per process
    while the database's versions are unchanged: every request still reads those
    versions (one cheap query), so a revoked token, an ended session, a deactivated user
    or a changed role, team or password takes effect at once, in every process."""
    if hasattr(request.state, "principal"):
        return request.state.principal  # type: ignore[no-any-return]
    found: Principal | None = None
    header = request.headers.get("authorization", "")
    if (
        not header
        and request.method in ("GET", "HEAD")
        and request.url.path.endswith(".ics")
        and "token" in request.query_params
    ):
        # calendar programs subscribe by URL and cannot send headers
        header = "Bearer " + request.query_params["token"]
    now = server_now(request.app)
    with request.app.state.db.read_session() as s:
        if header[:7].lower() == "bearer ":
            secret = header[7:].strip()
            entry = _known(request, s, ("token", store.secret_digest(secret)), token=secret)
            if entry is None or not entry.caller.live(now):
                raise HTTPException(
                    401,
                    gettext("invalid, expired or revoked API token"),
                    headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
                )
            found = entry.who
            entry.last_used_at = store.note_token_use(s, entry.caller.credential_id, entry.last_used_at, now)
        else:
            session: Session = request.state.session
            if session.uid is not None:
                entry = _known(request, s, ("session", store.secret_digest(session.sid)), sid=session.sid)
                if entry is not None and entry.caller.user_id == session.uid and entry.caller.live(now):
                    found = _not_idle(request, s, entry, now)
    request.state.principal = found
    return found


def _not_idle(request: Request, s: Any, entry: _Known, now: datetime) -> Principal | None:
    """The session's user unless the session idled out (no request for
    ``GPUTEAM_SESSION_IDLE_SECONDS``); the request is recorded as the session's last. The
    time last seen is remembered per process; before refusing, it is read again, since the
    user's requests may have gone to another process."""
    idle = timedelta(seconds=request.app.state.settings.session_idle_seconds)
    credential = entry.caller.credential_id
    if store.idle_out(entry.last_used_at, now, idle):
        entry.last_used_at = store.session_last_seen(s, credential)
        if store.idle_out(entry.last_used_at, now, idle):
            return None
    entry.last_used_at = store.note_session_use(s, credential, entry.last_used_at, now)
    return entry.who


async def form_csrf(request: Request) -> str | None:
    """The CSRF field of a submitted HTML form (the form is parsed once and cached)."""
    if request.method in SAFE_METHODS:
        return None
    kind = request.headers.get("content-type", "")
    if not kind.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
        return None
    # the guided import's mapping form has a field per column of the file (up to
    # GPUTEAM_IMPORT_MAX_COLUMNS): more than Starlette's default of 1,000 fields
    fields = int(request.app.state.limits.import_max_columns) + 100
    try:
        value = (await request.form(max_fields=max(1000, fields))).get(CSRF_FIELD)
    except Exception:  # malformed body: the endpoint reports it
        return None
    return value if isinstance(value, str) else None


#: Declares the ``bearer`` security scheme in the OpenAPI document for every operation that
#: needs a caller (the API explorer's "Authorize"); :func:`load_principal` reads the header.
BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="bearer",
    bearerFormat="API token",
    description="An API token (create one on the Account page or with "
    "`POST /api/v1/tokens`), sent as `Authorization: Bearer <token>`. "
    "Browsers may use their session cookie instead.",
)


def require(perm: Perm) -> Callable[..., Principal]:
    """A dependency: the caller must be authenticated and hold ``perm`` (a token: its
    scope, and at least ``write`` for an unsafe method); unsafe requests authenticated by
    cookie must carry the CSRF token."""

    def dependency(
        request: Request,
        form_token: Annotated[str | None, Depends(form_csrf)] = None,
        _bearer: Annotated[Any, Depends(BEARER)] = None,
    ) -> Principal:
        who = load_principal(request)
        if who is None:
            raise HTTPException(
                401, gettext("authentication required"), headers={"WWW-Authenticate": "Bearer"}
            )
        write = request.method not in SAFE_METHODS
        if not who.can(perm, write=write):
            message = (
                gettext(
                    "your role ({role}) or token scopes do not allow {perm} (this needs the {scope} scope)"
                )
                if who.scopes is not None
                else gettext("your role ({role}) or token scopes do not allow {perm}")
            )
            raise HTTPException(
                403,
                message.format(role=who.role, perm=perm.value, scope=who.scope_needed(perm, write)),
            )
        if request.method not in SAFE_METHODS and who.via == "session":
            check_csrf(request, form_token)
        return who

    dependency.__name__ = f"require_{perm.name.lower()}"
    return dependency


def check_csrf(request: Request, form_token: str | None = None) -> None:
    """Cookie-authenticated unsafe requests must echo the CSRF token (header or field)."""
    token = request.headers.get(CSRF_HEADER) or form_token
    if not request.app.state.signer.csrf_ok(request.state.session, token):
        raise HTTPException(403, gettext("missing or invalid CSRF token; reload the page and retry"))


def csrf_token(request: Request) -> str:
    return request.app.state.signer.csrf_token(request.state.session)  # type: ignore[no-any-return]


# ---------------------------------------------------------------- login and throttling
class LoginRefused(Exception):
    def __init__(self, message: str, status: int = 401, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def login_limits(request: Request) -> store.LoginLimits:
    """The throttle's limits (:class:`gputeam.store.LoginLimits`) from settings."""
    settings = request.app.state.settings
    return store.LoginLimits(
        per_account_address=settings.login_max_failures,
        per_address=settings.login_max_failures_per_address,
        per_account=settings.login_max_failures_per_account,
        window_seconds=settings.login_window_seconds,
        backoff_seconds=settings.login_backoff_seconds,
    )


def login(request: Request, username: str, password: str) -> Session:
    """Check the password; return the new (rotated) session, recorded server-side, or
    raise :class:`LoginRefused`: 401 for wrong credentials, 429 with the real wait while
    throttled (see :mod:`gputeam.store.throttle`; the password is not checked then)."""
    settings = request.app.state.settings
    address = client_address(request)
    name = username.strip()
    now = server_now(request.app)
    with request.app.state.db.session() as s:
        wait = store.login_wait(s, name, address, login_limits(request), now=now)
        if wait:
            raise LoginRefused(
                gettext("too many failed logins; retry in {seconds} seconds").format(seconds=wait), 429, wait
            )
        user = store.authenticate(s, name, password, now=now)
        store.record_login(s, name, address, user, now=now)
        if user is not None:
            session = Session(sid=Session.anonymous().sid, uid=user.id)
            store.start_session(
                s, user.id, session.sid, now=now, expires_at=now + timedelta(seconds=settings.session_max_age)
            )
    if user is None:
        raise LoginRefused(gettext("wrong username or password"))
    return session


def logout(request: Request) -> None:
    """End the caller's session server-side: its cookie no longer signs anyone in."""
    session: Session = request.state.session
    if session.uid is not None:
        who = load_principal(request)
        with request.app.state.db.session() as s:
            store.end_session(s, session.sid, actor=who.username if who else None)
