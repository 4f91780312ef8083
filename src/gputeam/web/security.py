"""Security primitives: password hashes, API tokens, signed sessions, CSRF tokens.

Pure functions over explicit keys; no HTTP framework here.

- Passwords (argon2id), API tokens and session records (SHA-256 at rest) are created and
  checked by :mod:`gputeam.store.accounts`.
- Sessions: a signed, timestamped cookie (itsdangerous) holding a random session id and
  the user id. A signed-in session is also a row in the database (``sessions``), so it
  can be ended server-side: logout, a password change, a deactivation or an admin's "log
  out everywhere" make the old cookie anonymous in every process.
- CSRF: an HMAC of the session id; forms carry it in a hidden field, HTMX and fetch in the
  ``X-CSRF-Token`` header.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer


@dataclass(frozen=True)
class Session:
    """The cookie's content: a random id (also what CSRF tokens are derived from), once
    signed in the user's id, and ``until`` (seconds since the epoch) when the cookie must
    stay valid past its usual age: a running exam's deadline plus the grace."""

    sid: str
    uid: int | None = None
    until: int | None = None

    @classmethod
    def anonymous(cls) -> Session:
        return cls(sid=secrets.token_urlsafe(18))


class SessionSigner:
    """Signs and reads the session cookie; also derives CSRF tokens from it."""

    def __init__(self, secret_key: str, max_age: int) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt="gputeam.session")
        self._csrf_key = hashlib.sha256(b"gputeam.csrf:" + secret_key.encode()).digest()
        self.max_age = max_age

    def dumps(self, session: Session) -> str:
        data: dict[str, Any] = {"sid": session.sid}
        if session.uid is not None:
            data |= {"uid": session.uid}
        if session.until is not None:
            data |= {"until": session.until}
        return self._serializer.dumps(data)

    def loads(self, cookie: str | None, now: float | None = None) -> Session | None:
        """The session a cookie holds, if its signature is right and it is at most
        ``max_age`` seconds old, or younger than its ``until`` (``now``: seconds since the
        epoch; the machine's clock by default)."""
        if not cookie:
            return None
        try:
            data, signed = self._serializer.loads(cookie, return_timestamp=True)
        except (BadSignature, ValueError):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("sid"), str):
            return None
        at = time.time() if now is None else now
        until = data.get("until")
        until = until if isinstance(until, int) and not isinstance(until, bool) else None
        if at - signed.timestamp() > self.max_age and (until is None or at >= until):
            return None
        uid = data.get("uid")
        return Session(sid=data["sid"], uid=uid if isinstance(uid, int) else None, until=until)

    def csrf_token(self, session: Session) -> str:
        return hmac.new(self._csrf_key, session.sid.encode(), hashlib.sha256).hexdigest()

    def csrf_ok(self, session: Session, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.csrf_token(session), token or "")
