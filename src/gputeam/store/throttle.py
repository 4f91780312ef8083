"""Throttling of password guesses, kept in the audit log so that it holds across processes.

A failed login is an audit entry (``login-failed``: actor ``ip:<address>``, entity id the
lower-cased username); a successful one too (``login``: actor ``ip:<address>``, entity id
the user's id). Three counters, each over the last ``window_seconds``, each with its own
limit and an exponential backoff once past it (``backoff_seconds``, doubled with every
further failure, at most the window), counted from the latest failure:

- one account from one address (``per_account_address``): online guessing of a password;
- one address, any account (``per_address``): password spraying; high enough that an
  office behind one proxy is not locked out by its users' typos;
- one account, any address (``per_account``): guessing spread over many addresses. It
  does not apply from an address the account signed in from within ``known_days``, so
  an attacker cannot lock its owner out by failing on purpose.

:func:`login_wait` says how long to wait (the ``Retry-After`` of a refusal); refused
attempts are not checked and not counted, so waiting is never prolonged by trying.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from gputeam.store import audit
from gputeam.store.schema import AuditEntry, User, utcnow

FAILED = "login-failed"
SUCCEEDED = "login"
PASSWORD_FAILED = "password-failed"


@dataclass(frozen=True)
class LoginLimits:
    per_account_address: int = 5
    per_address: int = 50
    per_account: int = 20
    window_seconds: int = 900
    backoff_seconds: int = 30
    known_days: int = 30


def _address(address: str) -> str:
    return f"ip:{address}"


def backoff_wait(
    session: Session,
    action: str,
    limit: int,
    limits: LoginLimits,
    now: datetime,
    *,
    entity_id: object = None,
    actor: str | None = None,
) -> int:
    """Seconds still to wait after the ``action`` entries of this ``entity_id`` and/or
    ``actor`` within the window: 0 below ``limit``; from the limit on,
    ``backoff_seconds × 2^(failures - limit)`` (at most the window) after the latest."""
    since = now - timedelta(seconds=limits.window_seconds)
    count, latest = audit.tally_audit(session, action, since=since, entity_id=entity_id, actor=actor)
    if count < limit or latest is None:
        return 0
    delay = min(limits.backoff_seconds * 2 ** min(count - limit, 30), limits.window_seconds)
    return max(0, math.ceil((latest + timedelta(seconds=delay) - now).total_seconds()))


def password_wait(session: Session, user_id: int, limits: LoginLimits, *, now: datetime | None = None) -> int:
    """Seconds before a signed-in user may try their current password again (changing
    it); wrong ones are throttled like failed logins of one account from one address."""
    return backoff_wait(
        session, PASSWORD_FAILED, limits.per_account_address, limits, now or utcnow(), entity_id=user_id
    )


def record_wrong_password(
    session: Session, user_id: int, username: str, *, now: datetime | None = None
) -> None:
    """Record a wrong current password given by a signed-in user (see :func:`password_wait`)."""
    audit.record(session, username, PASSWORD_FAILED, "user", user_id, at=now)


def login_wait(
    session: Session, username: str, address: str, limits: LoginLimits, *, now: datetime | None = None
) -> int:
    """Seconds before ``address`` may try a password for ``username`` again; 0: now."""
    now = now or utcnow()
    name = username.strip().lower()
    waits = [
        backoff_wait(
            session, FAILED, limits.per_account_address, limits, now, entity_id=name, actor=_address(address)
        ),
        backoff_wait(session, FAILED, limits.per_address, limits, now, actor=_address(address)),
    ]
    account = backoff_wait(session, FAILED, limits.per_account, limits, now, entity_id=name)
    if account and not _known_address(session, username, address, limits, now):
        waits.append(account)
    return max(waits)


def _known_address(session: Session, username: str, address: str, limits: LoginLimits, now: datetime) -> bool:
    user_id = session.scalar(select(User.id).where(User.username == username.strip()))
    if user_id is None:
        return False
    since = now - timedelta(days=limits.known_days)
    return bool(
        session.scalar(
            select(AuditEntry.id)
            .where(
                AuditEntry.action == SUCCEEDED,
                AuditEntry.entity_id == str(user_id),
                AuditEntry.actor == _address(address),
                AuditEntry.at >= since,
            )
            .limit(1)
        )
    )


def record_login(
    session: Session, username: str, address: str, user: User | None, *, now: datetime | None = None
) -> None:
    """Record a login attempt: its success (for the user) or failure (for the name)."""
    if user is None:
        audit.record(session, _address(address), FAILED, "user", username.strip().lower(), at=now)
    else:
        audit.record(
            session, _address(address), SUCCEEDED, "user", user.id, None, {"username": user.username}, at=now
        )
