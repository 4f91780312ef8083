"""Security primitives: password hashes, API tokens, signed sessions, CSRF tokens.

Pure functions over explicit keys; no HTTP framework here.

- Passwords (argon2id) and API tokens (256-bit secrets, SHA-256 at rest) are created by
  :mod:`gputeam.store.accounts`; :func:`hash_api_token` is the same digest, used for the
  per-request token lookup.
- Sessions: a signed, timestamped cookie (itsdangerous) holding a random session id, the
  user id and a fingerprint of the user's password hash, so a password change ends every
  session. No server-side state, so any number of app processes can serve a user.
- CSRF: an HMAC of the session id; forms carry it in a hidden field, HTMX and fetch in the
  ``X-CSRF-Token`` header.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer


def hash_api_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def password_fingerprint(stored_hash: str | None) -> str:
    return hashlib.sha256((stored_hash or "").encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Session:
    sid: str
    uid: int | None = None
    fp: str = ""

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
            data |= {"uid": session.uid, "fp": session.fp}
        return self._serializer.dumps(data)

    def loads(self, cookie: str | None) -> Session | None:
        if not cookie:
            return None
        try:
            data = self._serializer.loads(cookie, max_age=self.max_age)
        except (BadSignature, ValueError):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("sid"), str):
            return None
        uid = data.get("uid")
        return Session(sid=data["sid"], uid=uid if isinstance(uid, int) else None,
                       fp=str(data.get("fp", "")))

    def csrf_token(self, session: Session) -> str:
        return hmac.new(self._csrf_key, session.sid.encode(), hashlib.sha256).hexdigest()

    def csrf_ok(self, session: Session, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.csrf_token(session), token or "")
