"""Login throttling (gputeam.store.throttle), with the clock passed in: separate limits
per account and address, per address and per account, exponential backoff counted from
the latest failure, and no lock-out of an account from the addresses it signs in from."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from gputeam.store import create_user, get_user_by_username
from gputeam.store.throttle import LoginLimits, login_wait, record_login

T0 = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
LIMITS = LoginLimits(
    per_account_address=5, per_address=12, per_account=8, window_seconds=900, backoff_seconds=30
)


def _fail(db: Any, name: str, address: str, at: datetime, times: int = 1) -> None:
    with db.session() as s:
        for i in range(times):
            record_login(s, name, address, None, now=at + timedelta(seconds=i))


def _wait(db: Any, name: str, address: str, now: datetime) -> int:
    with db.session() as s:
        return login_wait(s, name, address, LIMITS, now=now)


def test_backoff_doubles_from_the_latest_failure(db: Any) -> None:
    """'backoff_seconds × 2^(failures - limit), at most the window, after the latest'."""
    _fail(db, "ana", "10.0.0.1", T0, 4)
    assert _wait(db, "ana", "10.0.0.1", T0 + timedelta(seconds=5)) == 0
    _fail(db, "ana", "10.0.0.1", T0 + timedelta(seconds=10))  # the 5th
    assert _wait(db, "ana", "10.0.0.1", T0 + timedelta(seconds=10)) == 30
    assert _wait(db, "ana", "10.0.0.1", T0 + timedelta(seconds=25)) == 15
    assert _wait(db, "ana", "10.0.0.1", T0 + timedelta(seconds=40)) == 0
    _fail(db, "ana", "10.0.0.1", T0 + timedelta(seconds=40))  # the 6th: 60 s
    assert _wait(db, "ana", "10.0.0.1", T0 + timedelta(seconds=40)) == 60
    _fail(db, "ana", "10.0.0.1", T0 + timedelta(seconds=100))  # the 7th: 120 s
    assert _wait(db, "ana", "10.0.0.1", T0 + timedelta(seconds=130)) == 90
    # the same account from another address, another account from this one: free
    assert _wait(db, "ana", "10.0.0.2", T0 + timedelta(seconds=130)) == 0
    assert _wait(db, "bo", "10.0.0.1", T0 + timedelta(seconds=130)) == 0
    # failures older than the window no longer count
    assert _wait(db, "ana", "10.0.0.1", T0 + timedelta(seconds=1000)) == 0


def test_backoff_is_at_most_the_window(db: Any) -> None:
    _fail(db, "ana", "10.0.0.1", T0, 40)
    with db.session() as s:
        limits = LoginLimits(per_account_address=5, window_seconds=900, backoff_seconds=30)
        assert login_wait(s, "ana", "10.0.0.1", limits, now=T0 + timedelta(seconds=39)) == 900


def test_an_office_behind_one_address_is_not_locked_out_by_typos(db: Any) -> None:
    for i in range(LIMITS.per_address - 1):
        _fail(db, f"user{i}", "192.0.2.1", T0 + timedelta(seconds=i))
    now = T0 + timedelta(seconds=60)
    assert _wait(db, "admin", "192.0.2.1", now) == 0
    _fail(db, "sprayed", "192.0.2.1", now)  # the address's limit: password spraying
    assert _wait(db, "admin", "192.0.2.1", now) == 30


def test_a_named_account_is_not_locked_out_from_where_its_owner_signs_in(db: Any) -> None:
    with db.session() as s:
        create_user(s, "Ana", "a good password", "admin")
    with db.session() as s:  # Ana signed in from her desk yesterday
        record_login(s, "Ana", "10.0.0.7", get_user_by_username(s, "Ana"), now=T0 - timedelta(days=1))
    for i in range(LIMITS.per_account):  # guesses from many addresses
        _fail(db, "ana", f"203.0.113.{i}", T0 + timedelta(seconds=i))
    now = T0 + timedelta(seconds=30)
    assert _wait(db, "Ana", "10.0.0.7", now) == 0
    assert _wait(db, "Ana", "198.51.100.1", now) > 0  # an address she never used
    assert _wait(db, "nobody", "198.51.100.1", now) == 0
