"""Account rules an auditor checks (OWASP ASVS 4.0 level 2): passwords against a list of
common and breached ones and a strength estimate (V2.1.7), one secret-key rule refusing
repeated words, tokens that expire by default, idle sessions, a private SQLite file, and
records people make for themselves waiting for approval."""

from __future__ import annotations

import secrets
import stat
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gputeam import store
from gputeam.store import StoreError
from gputeam.store.passwords import common_passwords, password_problem
from gputeam.web.settings import SettingsError, check_secret_key, secret_key_problem

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


# ---------------------------------------------------------------- passwords (ASVS 2.1.7)
@pytest.mark.parametrize("weak", ["aaaaaaaa", "password", "Password", "12345678", "qwertyuiop", "iloveyou1"])
def test_common_and_trivial_passwords_are_refused(weak: str) -> None:
    """The finding: "aaaaaaaa" and "password" were accepted as passwords."""
    problem = password_problem(weak)
    assert problem is not None
    assert problem.problems[0].path == "password"
    with pytest.raises(StoreError):
        store.hash_password(weak)


def test_the_bundled_list_is_packaged_with_its_licence() -> None:
    entries = common_passwords()
    assert 10_000 <= len(entries) <= 30_000
    assert "password" in entries and "iloveyou" in entries
    assert all(len(e) >= 8 for e in entries)
    here = Path(store.__file__).parent / "data"
    assert "MIT" in (here / "common-passwords.LICENSE.txt").read_text("utf-8")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(common_passwords())), st.sampled_from([str.lower, str.upper, str.title]))
def test_no_password_of_the_list_is_accepted_in_any_case(entry: str, case: Any) -> None:
    """ASVS 2.1.7: "passwords submitted during account registration, login, and password
    change are checked against a set of breached passwords"."""
    assert password_problem(case(entry)) is not None


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.sampled_from(["ocelot", "granite", "tundra", "lantern", "quiver", "saffron"]),
        min_size=4,
        max_size=5,
        unique=True,
    )
)
def test_passphrases_of_unrelated_words_are_accepted(words: list[str]) -> None:
    assert password_problem(" ".join(words)) is None


def test_the_username_counts_as_known() -> None:
    assert password_problem("margarethe1987", known=("margarethe1987",)) is not None


def test_users_cannot_be_given_a_common_password(db: Any) -> None:
    with db.session() as s, pytest.raises(StoreError):
        store.create_user(s, "weak", "password", "engineer")
    with db.session() as s:
        u = store.create_user(s, "strong", "ocelot granite tundra", "engineer")
    with db.session() as s, pytest.raises(StoreError):
        store.update_user(s, u.id, password="aaaaaaaa")


# ---------------------------------------------------------------- the secret key
@settings(max_examples=80, deadline=None)
@given(
    st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=3, max_size=12),
    st.integers(min_value=2, max_value=12),
    st.sampled_from(["-", "_", ".", " ", "--"]),
)
def test_a_key_of_one_repeated_word_is_refused(word: str, times: int, sep: str) -> None:
    """docs/web.md: a repeated character, word or pattern is refused."""
    key = sep.join([word] * max(times, 40 // len(word) + 2))
    assert secret_key_problem(key) is not None


def test_the_finding_secret_secret_secret_is_refused() -> None:
    with pytest.raises(SettingsError):
        check_secret_key("secret-secret-secret-secret-secret-secret")
    with pytest.raises(SettingsError):
        check_secret_key("changeme-changeme-changeme-changeme")


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=24, max_value=64))
def test_generated_keys_are_accepted(n: int) -> None:
    assert secret_key_problem(secrets.token_urlsafe(n)) is None
    assert secret_key_problem(secrets.token_hex(max(n, 16))) is None


def test_every_door_asks_the_same_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """``gputeam exams`` issued credentials with whatever GPUTEAM_SECRET_KEY held."""
    import gputeam.cli.main  # noqa: F401 - registers the commands first
    from gputeam.cli import exam_cmds
    from gputeam.web.settings import load_settings

    weak = "secret-secret-secret-secret-secret-secret"
    with pytest.raises(SettingsError):
        load_settings(secret_key=weak)
    monkeypatch.setenv("GPUTEAM_SECRET_KEY", weak)
    monkeypatch.setenv("GPUTEAM_PUBLIC_URL", "https://example.org")
    with pytest.raises(SettingsError):
        exam_cmds._issuer()


# ---------------------------------------------------------------- tokens
def test_tokens_expire_after_90_days_by_default(db: Any) -> None:
    with db.session() as s:
        u = store.create_user(s, "tok", "ocelot granite tundra", "engineer")
        token, secret = store.create_token(s, u.id, "t", ["read"], now=NOW)
        assert token.expires_at == NOW + timedelta(days=store.DEFAULT_TOKEN_DAYS) == NOW + timedelta(days=90)
        forever, _ = store.create_token(s, u.id, "f", ["read"], expires_at=None)
        assert forever.expires_at is None
    with db.session() as s:
        assert store.verify_token(s, secret, now=NOW + timedelta(days=89)) is not None
        assert store.verify_token(s, secret, now=NOW + timedelta(days=91)) is None


@pytest.mark.parametrize(
    ("text", "days"), [("30d", 30), ("90d", 90), ("12w", 84), (" 7D ", 7), ("never", None), ("NEVER", None)]
)
def test_token_lifetimes(text: str, days: int | None) -> None:
    got = store.token_lifetime(text)
    assert got == (None if days is None else timedelta(days=days))


@pytest.mark.parametrize("bad", ["", "0d", "90", "1y", "-3d", "99999d", "forever"])
def test_bad_token_lifetimes_are_refused(bad: str) -> None:
    with pytest.raises(StoreError) as got:
        store.token_lifetime(bad)
    assert got.value.problems[0].path == "--expires"


def test_the_cli_default_is_the_store_default() -> None:
    import inspect

    from gputeam.cli import serve_cmds

    assert f'"{store.DEFAULT_TOKEN_DAYS}d"' in inspect.getsource(serve_cmds)


# ---------------------------------------------------------------- sessions
def test_idle_out() -> None:
    idle = timedelta(minutes=30)
    assert not store.idle_out(NOW, NOW + timedelta(minutes=30), idle)
    assert store.idle_out(NOW, NOW + timedelta(minutes=31), idle)
    assert not store.idle_out(NOW, NOW + timedelta(days=3), None)


def test_a_session_remembers_its_last_request(db: Any) -> None:
    with db.session() as s:
        u = store.create_user(s, "ses", "ocelot granite tundra", "engineer")
        row = store.start_session(s, u.id, "sid-1", expires_at=NOW + timedelta(days=14), now=NOW)
        sid_id = row.id
    with db.session() as s:
        assert store.session_last_seen(s, sid_id) == NOW
        later = NOW + timedelta(minutes=10)
        assert store.note_session_use(s, sid_id, NOW, later) == later
        # within the resolution nothing is written
        assert store.note_session_use(s, sid_id, later, later + timedelta(seconds=30)) == later
    with db.session() as s:
        assert store.session_last_seen(s, sid_id) == NOW + timedelta(minutes=10)
        caller = store.find_caller(s, sid="sid-1")
        assert caller is not None and caller.last_used_at == NOW + timedelta(minutes=10)


# ---------------------------------------------------------------- the SQLite file
def test_a_new_sqlite_file_is_its_owners_only(tmp_path: Path) -> None:
    import os

    old = os.umask(0o022)
    try:
        path = tmp_path / "new" / "gputeam.db"
        database = store.open_database(f"sqlite:///{path}")
        with database.session() as s:
            store.create_organisation(s, "Acme")
        database.dispose()
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    for side in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if side.exists():
            assert stat.S_IMODE(side.stat().st_mode) & 0o077 == 0


def test_an_open_sqlite_file_is_narrowed(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    path.touch(mode=0o644)
    path.chmod(0o644)
    store.open_database(f"sqlite:///{path}").dispose()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# ---------------------------------------------------------------- approvals and hours
def _person(db: Any) -> tuple[int, int]:
    with db.session() as s:
        org = store.create_organisation(s, "Acme")
        p = store.add_person(s, org.id, key="e1", name="Eve", level=1)
        return org.id, p.id


def test_a_requested_certificate_counts_nowhere_until_approved(db: Any, catalog: Any) -> None:
    org_id, pid = _person(db)
    with db.session() as s:
        a = store.request_certification(
            s,
            pid,
            "nca-aiio",
            date(2026, 1, 1),
            catalog=catalog,
            evidence_url="https://x.example/b",
            actor="eve",
        )
        aid = a.id
    with db.session() as s:
        assert store.list_certifications(s, person_id=pid) == []
        assert store.count_held(s, org_id, date(2026, 12, 2)) == 0
        assert [x.id for x in store.list_approvals(s, org_id)] == [aid]
    with db.session() as s:
        store.decide(s, aid, True, actor="boss", catalog=catalog)
    with db.session() as s:
        held = store.list_certifications(s, person_id=pid)
        assert [h.cert_id for h in held] == ["nca-aiio"]
        assert "https://x.example/b" in held[0].evidence
        assert store.list_approvals(s, org_id) == []
        with pytest.raises(StoreError):
            store.decide(s, aid, False, actor="boss")


def test_a_rejected_rating_is_never_counted(db: Any) -> None:
    org_id, pid = _person(db)
    with db.session() as s:
        a = store.request_skill(s, pid, "linux", 4, actor="eve")
    with db.session() as s:
        store.decide(s, a.id, False, actor="boss", note="no evidence")
    with db.session() as s:
        assert not store.current_skills(s, [pid]).get(pid)
        assert store.list_approvals(s, org_id, status="rejected")[0].note == "no evidence"


def test_requests_are_checked_as_records_are(db: Any, catalog: Any) -> None:
    _org, pid = _person(db)
    with db.session() as s, pytest.raises(StoreError):
        store.request_certification(s, pid, "no-such-cert", date(2026, 1, 1), catalog=catalog)
    with db.session() as s, pytest.raises(StoreError):
        store.request_skill(s, pid, "linux", 7)
    with db.session() as s, pytest.raises(StoreError) as got:
        store.request_skill(s, pid, "linux", 3, evidence_url="javascript:alert(1)")
    assert got.value.problems[0].path == "evidence_url"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hours=st.floats(min_value=0, max_value=1000, allow_nan=False))
def test_course_hours_are_bounded_by_the_catalog(catalog: Any, hours: float) -> None:
    """A course of H catalog hours takes at most H x 1.5 hours (COURSE_HOURS_FACTOR)."""
    course = catalog.courses["fundamentals-dl"]
    assert course.hours == 8
    most = course.hours * store.COURSE_HOURS_FACTOR
    if hours <= most:
        store.check_hours(catalog, "fundamentals-dl", hours)
    else:
        with pytest.raises(StoreError):
            store.check_hours(catalog, "fundamentals-dl", hours)


def test_999_hours_on_an_8_hour_course_are_refused(db: Any, catalog: Any) -> None:
    _org, pid = _person(db)
    with db.session() as s:
        e = store.enrol(s, pid, "fundamentals-dl", date(2026, 11, 1))
        eid = e.id
    for record in (store.record_hours, store.request_hours):
        with db.session() as s, pytest.raises(StoreError) as got:
            record(s, eid, 999, catalog=catalog)
        assert got.value.problems[0].path == "hours_done"
        assert got.value.problems[0].expected == "0-12"
    with db.session() as s:
        assert store.record_hours(s, eid, 12, catalog=catalog).hours_done == 12
