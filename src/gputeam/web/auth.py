"""Authentication for pages and API: who is calling, may they, and login itself.

- :func:`principal` reads ``Authorization: Bearer <token>`` (API tokens, scoped) or the
  signed session cookie and loads the user from the database (so a deactivated user or a
  changed password takes effect at once, in every process).
- :func:`require` is the FastAPI dependency each route declares with its permission.
- :func:`check_csrf` guards every state-changing request authenticated by cookie.
- :func:`login` verifies a password with login rate limiting kept in the database
  (failures are audit-log entries), so the limit holds across processes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session as DbSession

from gputeam.web.permissions import Perm, Principal
from gputeam.web.security import Session, hash_api_token, password_fingerprint

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"


def _principal(s: DbSession, where: Any, **kw: Any) -> tuple[Principal, str, Any] | None:
    """The active user matching ``where`` as a Principal, with their password hash's
    fingerprint and the token row (when ``where`` selects a token): one query, joining
    the user's team memberships."""
    from gputeam.store.schema import ApiToken, TeamMembership, User

    columns: list[Any] = [User.id, User.username, User.role, User.person_id, User.password_hash,
               TeamMembership.team_id]
    by_token = kw.get("via") == "token"
    if by_token:
        columns += [ApiToken.id.label("token_id"), ApiToken.scopes, ApiToken.expires_at,
                    ApiToken.revoked_at, ApiToken.last_used_at]
    q = select(*columns)
    if by_token:
        q = q.select_from(ApiToken).join(User, User.id == ApiToken.user_id)
    q = (q.outerjoin(TeamMembership, TeamMembership.user_id == User.id)
         .where(User.active.is_(True), where))
    rows = s.execute(q).all()
    if not rows:
        return None
    row = rows[0]
    teams = frozenset(r.team_id for r in rows if r.team_id is not None)
    if by_token:
        kw["scopes"] = frozenset(row.scopes)
    who = Principal(user_id=row.id, username=row.username, role=row.role,
                    person_id=row.person_id, team_ids=teams, **kw)
    return who, password_fingerprint(row.password_hash), row


@dataclass
class _Known:
    """A caller as last read from the database, valid while the versions are unchanged."""

    versions: tuple[int, int]
    who: Principal
    fingerprint: str
    token: Any = None  # the token's row (id, expires_at, revoked_at) when by token
    last_used_at: datetime | None = None


#: Callers remembered per process; beyond this many, the oldest are forgotten.
KNOWN_CALLERS = 10_000


def load_principal(request: Request) -> Principal | None:
    """The caller, or ``None`` when anonymous. Cached on the request, and per process
    while the database's tracked and accounts versions are unchanged: every request still
    reads those versions, so a revoked token, a deactivated user, a changed role, team or
    password takes effect at once, in every process."""
    if hasattr(request.state, "principal"):
        return request.state.principal  # type: ignore[no-any-return]
    from gputeam.store import versions
    from gputeam.store.schema import ApiToken, User

    found: Principal | None = None
    header = request.headers.get("authorization", "")
    if (not header and request.method in ("GET", "HEAD") and request.url.path.endswith(".ics")
            and "token" in request.query_params):
        # calendar programs subscribe by URL and cannot send headers
        header = "Bearer " + request.query_params["token"]
    known: dict[Any, _Known] = request.app.state.known_callers
    with request.app.state.db.read_session() as s:
        if header[:7].lower() == "bearer ":
            digest = hash_api_token(header[7:].strip())
            now = datetime.now(UTC)
            current = versions(s)
            entry = known.get(("token", digest))
            if entry is None or entry.versions != current:
                loaded = _principal(s, ApiToken.token_hash == digest, via="token")
                entry = None if loaded is None else _Known(
                    current, loaded[0], loaded[1], loaded[2], loaded[2].last_used_at)
                _remember(known, ("token", digest), entry)
            token = entry.token if entry else None
            if (entry is None or token.revoked_at is not None
                    or (token.expires_at is not None and token.expires_at <= now)):
                raise HTTPException(401, "invalid, expired or revoked API token",
                                    headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
            found = entry.who
            if entry.last_used_at is None or now - entry.last_used_at > timedelta(minutes=5):
                # at most one write per token per 5 minutes, not one per request
                s.execute(update(ApiToken).where(ApiToken.id == token.token_id)
                          .values(last_used_at=now))
                entry.last_used_at = now
        else:
            session: Session = request.state.session
            if session.uid is not None:
                current = versions(s)
                entry = known.get(("user", session.uid))
                if entry is None or entry.versions != current or entry.fingerprint != session.fp:
                    # (a password rehashed at login changes the fingerprint unaudited)
                    loaded = _principal(s, User.id == session.uid)
                    entry = None if loaded is None else _Known(current, loaded[0], loaded[1])
                    _remember(known, ("user", session.uid), entry)
                if entry is not None and entry.fingerprint == session.fp:
                    found = entry.who
    request.state.principal = found
    return found


def _remember(known: dict[Any, _Known], key: Any, entry: _Known | None) -> None:
    if entry is None:
        known.pop(key, None)
        return
    if key not in known and len(known) >= KNOWN_CALLERS:
        known.pop(next(iter(known)), None)
    known[key] = entry


async def form_csrf(request: Request) -> str | None:
    """The CSRF field of a submitted HTML form (the form is parsed once and cached)."""
    if request.method in SAFE_METHODS:
        return None
    kind = request.headers.get("content-type", "")
    if not kind.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
        return None
    try:
        value = (await request.form()).get(CSRF_FIELD)
    except Exception:  # malformed body: the endpoint reports it
        return None
    return value if isinstance(value, str) else None


def require(perm: Perm) -> Callable[..., Principal]:
    """A dependency: the caller must be authenticated and hold ``perm``; unsafe requests
    authenticated by cookie must carry the CSRF token."""

    def dependency(request: Request,
                   form_token: Annotated[str | None, Depends(form_csrf)] = None) -> Principal:
        who = load_principal(request)
        if who is None:
            raise HTTPException(401, "authentication required",
                                headers={"WWW-Authenticate": "Bearer"})
        if not who.can(perm):
            raise HTTPException(403, f"your role ({who.role}) or token scopes do not allow "
                                f"{perm.value}")
        if request.method not in SAFE_METHODS and who.via == "session":
            check_csrf(request, form_token)
        return who

    dependency.__name__ = f"require_{perm.name.lower()}"
    return dependency


def check_csrf(request: Request, form_token: str | None = None) -> None:
    """Cookie-authenticated unsafe requests must echo the CSRF token (header or field)."""
    token = request.headers.get(CSRF_HEADER) or form_token
    if not request.app.state.signer.csrf_ok(request.state.session, token):
        raise HTTPException(403, "missing or invalid CSRF token; reload the page and retry")


def csrf_token(request: Request) -> str:
    return request.app.state.signer.csrf_token(request.state.session)  # type: ignore[no-any-return]


# ---------------------------------------------------------------- login and rate limiting
class LoginRefused(Exception):
    def __init__(self, message: str, status: int = 401, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _recent_failures(s: DbSession, username: str, address: str, window: int) -> tuple[int, int]:
    from gputeam.store.schema import AuditEntry

    since = datetime.now(UTC) - timedelta(seconds=window)
    base = select(func.count(AuditEntry.id)).where(AuditEntry.action == "login-failed",
                                                   AuditEntry.at >= since)
    by_user = s.scalar(base.where(AuditEntry.entity_id == username.lower())) or 0
    by_addr = s.scalar(base.where(AuditEntry.actor == f"ip:{address}")) or 0
    return by_user, by_addr


def login(request: Request, username: str, password: str) -> Session:
    """Check the password; return the new (rotated) session or raise :class:`LoginRefused`.

    At most ``login_max_failures`` failures per account and per address in
    ``login_window_seconds``; after that every attempt is refused (429) without checking
    the password, until the window has passed.
    """
    from gputeam.store import audit, authenticate

    settings = request.app.state.settings
    address = client_address(request)
    name = username.strip()
    with request.app.state.db.session() as s:
        by_user, by_addr = _recent_failures(s, name, address, settings.login_window_seconds)
        if max(by_user, by_addr) >= settings.login_max_failures:
            raise LoginRefused("too many failed logins; wait a few minutes and retry", 429,
                               settings.login_window_seconds)
        user = authenticate(s, name, password)
        failed = user is None
        if user is None:
            audit.record(s, f"ip:{address}", "login-failed", "user", name.lower())
        else:
            audit.record(s, user.username, "login", "user", user.id)
            session = Session(sid=Session.anonymous().sid, uid=user.id,
                              fp=password_fingerprint(user.password_hash))
    if failed:
        raise LoginRefused("wrong username or password")
    return session
