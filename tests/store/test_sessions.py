"""Server-side sessions (gputeam.store.accounts): started, found, ended one by one or all
at once (keeping one), ended by a new password or a deactivation; every ending bumps the
accounts version that caches of callers are keyed by."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from gputeam import store

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
LATER = NOW + timedelta(days=14)


def _user(db: Any) -> int:
    with db.session() as s:
        return store.create_user(s, "ana", "a good password", "manager").id


def _start(db: Any, uid: int, sid: str, expires: datetime = LATER) -> None:
    with db.session() as s:
        store.start_session(s, uid, sid, expires_at=expires, now=NOW)


def _live(db: Any, sid: str) -> bool:
    with db.session() as s:
        return store.find_caller(s, sid=sid) is not None


def test_sessions_end_one_by_one_or_everywhere(db: Any) -> None:
    uid = _user(db)
    for sid in ("s1", "s2", "s3"):
        _start(db, uid, sid)
    with db.session() as s:
        caller = store.find_caller(s, sid="s1")
        assert caller is not None and caller.user_id == uid and caller.expires_at == LATER
        accounts = store.versions(s)[1]
    with db.session() as s:
        assert store.end_session(s, "s1", actor="ana") is True
        assert store.end_session(s, "s1") is False  # already ended
    with db.session() as s:
        assert store.versions(s)[1] == accounts + 1
        assert store.end_sessions(s, uid, keep="s3") == 1
    assert [_live(db, x) for x in ("s1", "s2", "s3")] == [False, False, True]
    with db.session() as s:
        assert store.count_sessions(s, uid, now=NOW) == 1
        # only the id's digest is stored
        assert [r.sid_hash for r in s.query(store.UserSession) if r.revoked_at is None] == [
            store.secret_digest("s3")
        ]


def test_new_password_and_deactivation_end_sessions(db: Any) -> None:
    uid = _user(db)
    _start(db, uid, "a")
    _start(db, uid, "b")
    with db.session() as s:
        store.update_user(s, uid, password="another password", keep_session="b")
    assert (_live(db, "a"), _live(db, "b")) == (False, True)
    with db.session() as s:
        store.update_user(s, uid, active=False)
    assert _live(db, "b") is False
    with db.session() as s:
        store.update_user(s, uid, active=True)
    assert _live(db, "b") is False  # reactivation revives nothing


def test_ended_and_expired_sessions_are_cleared_at_the_next_login(db: Any) -> None:
    uid = _user(db)
    _start(db, uid, "old", expires=NOW - timedelta(seconds=1))
    _start(db, uid, "gone")
    with db.session() as s:
        store.end_session(s, "gone")
    _start(db, uid, "new")
    with db.session() as s:
        assert s.query(store.UserSession).count() == 1
