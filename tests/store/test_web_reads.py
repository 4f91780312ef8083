"""What the web layer reads and writes through the store's public API (issue 9 §4), on both
engines: the tracked organisation, the latest plan without its JSON, a person's records,
who is in which team, the token last-used rule, credential liveness and the throttle of
wrong current passwords."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from gputeam import store
from gputeam.store import Database

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_tracked_organisation_is_the_oldest_else_a_new_one(db: Database) -> None:
    with db.session() as s:
        first = store.tracked_organisation(s, "Acme")
        assert store.get_organisation(s, first).name == "Acme"
    with db.session() as s:
        store.create_organisation(s, "Zeta")
        assert store.tracked_organisation(s, "Other name") == first
        assert len(store.list_organisations(s)) == 2


def test_latest_plan_row_leaves_the_json_unloaded_and_is_per_organisation(db: Database, org_id: int) -> None:
    with db.session() as s:
        assert store.latest_plan_row(s, org_id) is None
        other = store.create_organisation(s, "Other").id
        sc = store.save_scenario(s, org_id, "live", {"horizon_months": 12})
        store.save_plan(s, sc.id, {"n": 1}, date(2026, 1, 1))
        newest = store.save_plan(s, sc.id, {"n": 2}, date(2026, 1, 2)).id
        theirs = store.save_scenario(s, other, "live", {})
        store.save_plan(s, theirs.id, {"n": 3}, date(2026, 1, 3))
    with db.session() as s:
        row = store.latest_plan_row(s, org_id)
        assert row is not None and row.id == newest and row.version == 2
        with pytest.raises(Exception, match="plan"):
            _ = row.plan  # deferred with raiseload: never loaded by accident
        assert store.plan_json(s, row.id) == {"n": 2}
        assert store.plan_json(s, 10**6) is None


def test_person_records_and_person_teams(db: Database, org_id: int) -> None:
    with db.session() as s:
        team = store.create_team(s, org_id, "Ops")
        p = store.add_person(s, org_id, key="p1", name="Ana", team_id=team.id)
        q = store.add_person(s, org_id, key="p2", name="Bob")
        store.add_person(s, store.create_organisation(s, "Other").id, key="x1", name="Xi")
        store.add_certification(s, p.id, "nca-aiio", date(2025, 6, 1), date(2027, 6, 1))
        store.add_certification(s, p.id, "nca-aiio", date(2023, 6, 1), date(2025, 6, 1))
        store.enrol(s, p.id, "nvidia-dli-fundamentals", date(2026, 2, 1), hours_done=3)
        store.add_roadmap_item(
            s, p.id, kind="course", ref="c2", title="Later", start=date(2026, 5, 1), due=date(2026, 6, 1)
        )
        store.add_roadmap_item(
            s,
            p.id,
            kind="course",
            ref="c1",
            title="Sooner",
            start=date(2026, 3, 1),
            due=date(2026, 4, 1),
            hours=8,
        )
    with db.session() as s:
        rec = store.person_records(s, p.id)
        assert [c.valid_from for c in rec.certifications] == [date(2023, 6, 1), date(2025, 6, 1)]
        assert [store.cert_status(c, date(2026, 1, 1)) for c in rec.certifications] == ["expired", "valid"]
        assert [(e.course_id, e.hours_done) for e in rec.enrolments] == [("nvidia-dli-fundamentals", 3)]
        assert [(i.title, i.hours) for i in rec.roadmap] == [("Sooner", 8), ("Later", 0)]
        assert store.person_records(s, q.id) == ([], [], [])
        assert store.person_teams(s, org_id) == {"p1": (p.id, team.id), "p2": (q.id, None)}


def test_token_use_is_recorded_at_most_every_five_minutes(db: Database) -> None:
    with db.session() as s:
        user = store.create_user(s, "ana", "a long password", "admin")
        token, secret = store.create_token(s, user.id, "ci", ["read"])
        tid = token.id
    with db.session() as s:
        caller = store.find_caller(s, token=secret)
        assert caller is not None and caller.last_used_at is None
        assert store.note_token_use(s, tid, None, T0) == T0
    for later, expected in (
        (T0 + timedelta(minutes=4), T0),
        (T0 + timedelta(minutes=6), T0 + timedelta(minutes=6)),
    ):
        with db.session() as s:
            seen = store.find_caller(s, token=secret)
            assert seen is not None and seen.last_used_at == T0
            assert store.note_token_use(s, tid, seen.last_used_at, later) == expected
    with db.session() as s:  # the 4-minute use wrote nothing; verify_token: same rule
        assert store.find_caller(s, token=secret).last_used_at == T0 + timedelta(minutes=6)
        store.verify_token(s, secret, now=T0 + timedelta(minutes=8))
    with db.session() as s:
        assert store.find_caller(s, token=secret).last_used_at == T0 + timedelta(minutes=6)


def test_a_caller_is_live_until_revoked_or_expired(db: Database) -> None:
    with db.session() as s:
        user = store.create_user(s, "ana", "a long password", "admin")
        _, forever = store.create_token(s, user.id, "a", ["read"], expires_at=None)  # never, said so
        short, expiring = store.create_token(s, user.id, "b", ["read"], expires_at=T0)
        store.start_session(s, user.id, "sid-1", expires_at=T0, now=T0 - timedelta(hours=1))
    with db.session() as s:
        before, after = T0 - timedelta(seconds=1), T0
        assert store.find_caller(s, token=forever).live(after + timedelta(days=999))
        assert store.find_caller(s, token=expiring).live(before)
        assert not store.find_caller(s, token=expiring).live(after)
        assert store.find_caller(s, sid="sid-1").live(before)
        assert not store.find_caller(s, sid="sid-1").live(after)
        store.revoke_token(s, short.id, now=before - timedelta(hours=1))
    with db.session() as s:
        assert not store.find_caller(s, token=expiring).live(before)
        assert store.verify_token(s, expiring, now=before) is None


def test_wrong_current_passwords_are_throttled_per_user(db: Database) -> None:
    limits = store.LoginLimits(per_account_address=3, backoff_seconds=30, window_seconds=900)
    with db.session() as s:
        ana = store.create_user(s, "ana", "a long password", "admin").id
        bob = store.create_user(s, "bob", "a long password", "admin").id
        for i in range(3):
            store.record_wrong_password(s, ana, "ana", now=T0 + timedelta(seconds=i))
    with db.session() as s:
        latest = T0 + timedelta(seconds=2)
        assert store.tally_audit(s, "password-failed", entity_id=ana) == (3, latest)
        assert store.password_wait(s, ana, limits, now=latest) == 30
        assert store.password_wait(s, ana, limits, now=latest + timedelta(seconds=20)) == 10
        assert store.password_wait(s, ana, limits, now=latest + timedelta(seconds=30)) == 0
        assert store.password_wait(s, bob, limits, now=latest) == 0
        assert store.count_audit(s, "password-failed") == 3


def test_whose_attempt_and_a_persons_attempts(db: Database) -> None:
    """What the exam pages and API ask of an attempt id and of a person (issue 9 §4: read
    through the store, not the schema)."""
    from tests.store.exam_helpers import START, exam_catalog, setup_programme

    catalog = exam_catalog()
    with db.session() as s:
        org = store.create_organisation(s, "Acme").id
        ada = store.add_person(s, org, key="p1", name="Ada").id
        bob = store.add_person(s, org, key="p2", name="Bob").id
        prog = setup_programme(s, org, catalog)
        first = store.start_attempt(s, prog, ada, now=START, catalog=catalog).id
    with db.session() as s:
        assert store.attempt_person(s, first) == ada
        assert store.attempt_person(s, first + 1000) is None
        assert [(a.id, code) for a, code in store.person_attempts(s, ada)] == [(first, "acme-l2")]
        assert store.person_attempts(s, bob) == []


def test_whose_record_whose_token_and_lookups_within_the_organisation(db: Database, org_id: int) -> None:
    secret = "s" * 40
    with db.session() as s:
        other = store.create_organisation(s, "Other").id
        p = store.add_person(s, org_id, key="p1", name="Ana").id
        held = store.add_certification(s, p, "nca-aiio", date(2026, 1, 1)).id
        enrolment = store.enrol(s, p, "nvidia-dli-fundamentals", date(2026, 2, 1)).id
        item = store.add_roadmap_item(
            s, p, kind="course", ref="c1", title="C1", start=date(2026, 3, 1), due=date(2026, 4, 1)
        ).id
        user = store.create_user(s, "ana", "a long password", "admin").id
        token = store.create_token(s, user, "ci", ["read"])[0].id
        mine = store.save_plan(
            s, store.save_scenario(s, org_id, "live", {}).id, {"n": 1}, date(2026, 1, 1)
        ).id
        theirs = store.save_plan(
            s, store.save_scenario(s, other, "live", {}).id, {"n": 2}, date(2026, 1, 1)
        ).id
        key = store.current_issuer_key(s, org_id, secret)[0].id
    with db.session() as s:
        assert store.record_person(s, "certification", held) == p
        assert store.record_person(s, "enrolment", enrolment) == p
        assert store.record_person(s, "roadmap item", item) == p
        assert store.record_person(s, "enrolment", item + enrolment + 100) is None
        found_enrolment = store.find_enrolment(s, enrolment)
        assert found_enrolment is not None and found_enrolment.person_id == p
        assert store.find_enrolment(s, item + enrolment + 100) is None
        assert store.token_user(s, token) == user and store.token_user(s, token + 1) is None
        found = store.find_plan(s, org_id, mine)
        assert found is not None and found.plan == {"n": 1}
        assert store.find_plan(s, org_id, theirs) is None
        assert store.find_plan(s, other, theirs) is not None
        assert store.issuer_key_in(s, org_id, key) is not None
        assert store.issuer_key_in(s, other, key) is None
