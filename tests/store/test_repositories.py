"""Repositories on both engines: people, skills, certifications, learning, plans, accounts,
audit."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from gputeam.catalog import load_catalog
from gputeam.errors import InputError
from gputeam.store import (
    Database,
    NotFound,
    StoreError,
    add_certification,
    add_person,
    add_roadmap_item,
    authenticate,
    cert_status,
    complete_roadmap_item,
    create_team,
    create_token,
    create_user,
    current_skills,
    delete_person,
    enrol,
    expiring_certifications,
    get_person,
    get_person_by_key,
    latest_plan,
    latest_scenario,
    list_audit,
    list_certifications,
    list_enrolments,
    list_people,
    list_scenarios,
    overdue_roadmap_items,
    rate_skill,
    record_hours,
    revoke_token,
    save_plan,
    save_scenario,
    set_user_teams,
    skill_history,
    update_person,
    update_user,
    user_team_ids,
    verify_token,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_people_crud_and_audit(db: Database, org_id: int) -> None:
    with db.session() as s:
        team = create_team(s, org_id, "Ops")
        p = add_person(s, org_id, key="p1", name="Ana", level=3, team_id=team.id, actor="admin")
        add_person(s, org_id, key="p2", name="Bob")
    with db.session() as s:
        assert [x.key for x in list_people(s, org_id)] == ["p1", "p2"]
        assert [x.key for x in list_people(s, org_id, team_id=team.id)] == ["p1"]
        assert [x.key for x in list_people(s, org_id, search="BO")] == ["p2"]
        update_person(s, p.id, {"level": 4, "title": "Lead"}, actor="admin")
    with db.session() as s:
        assert get_person(s, p.id).level == 4
        entries = list_audit(s, entity="person", entity_id=p.id)
        assert [e.action for e in entries] == ["update", "create"]
        before, after = entries[0].before or {}, entries[0].after or {}
        assert before["level"] == 3 and after["level"] == 4
        assert entries[0].actor == "admin"


def test_person_refusals_write_nothing(db: Database, org_id: int) -> None:
    with db.session() as s:
        add_person(s, org_id, key="p1", name="Ana")
    for bad in (
        {"key": "p1", "name": "Dup"},
        {"key": "p3", "name": "X", "level": 9},
        {"key": "", "name": "X"},
        {"key": "p4", "name": "X", "shoe_size": 42},
    ):
        with pytest.raises(StoreError), db.session() as s:
            add_person(s, org_id, **bad)
    with db.session() as s:
        assert [p.key for p in list_people(s, org_id)] == ["p1"]
        with pytest.raises(NotFound):
            get_person(s, 999_999)


def test_skill_history_keeps_every_rating(db: Database, org_id: int) -> None:
    with db.session() as s:
        pid = add_person(s, org_id, key="p1", name="Ana").id
        rate_skill(s, pid, "linux", 1, rated_at=T0)
        rate_skill(s, pid, "linux", 3, rated_at=T0 + timedelta(days=30), rated_by="mgr")
        rate_skill(s, pid, "nccl", 2, rated_at=T0)
        with pytest.raises(InputError):
            rate_skill(s, pid, "nccl", 5)
    with db.session() as s:
        assert current_skills(s, [pid]) == {pid: {"linux": 3, "nccl": 2}}
        assert current_skills(s, org_id=org_id) == {pid: {"linux": 3, "nccl": 2}}
        history = skill_history(s, pid, "linux")
        assert [(r.proficiency, r.rated_at) for r in history] == [(1, T0), (3, T0 + timedelta(days=30))]
        assert history[0].rated_at.tzinfo is not None


def test_certifications_validity_status_and_expiry(db: Database, org_id: int) -> None:
    cat = load_catalog()
    months = cat.certifications["cka"].validity_months
    with db.session() as s:
        pid = add_person(s, org_id, key="p1", name="Ana").id
        held = add_certification(s, pid, "cka", date(2025, 1, 31), catalog=cat, evidence="url")
        old = add_certification(s, pid, "nca-aiio", date(2023, 1, 1), date(2025, 1, 1))
        add_certification(s, pid, "nca-aiio", date(2025, 1, 1), date(2027, 1, 1))
        with pytest.raises(StoreError):
            add_certification(s, pid, "no-such-cert", date(2025, 1, 1), catalog=cat)
        with pytest.raises(StoreError):
            add_certification(s, pid, "cka", date(2025, 1, 1), date(2024, 1, 1))
    assert months
    assert held.valid_until is not None and held.valid_until.month == (1 + months - 1) % 12 + 1
    today = held.valid_until - timedelta(days=10)
    assert cert_status(held, today) == "expiring"
    assert cert_status(held, held.valid_until + timedelta(days=1)) == "expired"
    assert cert_status(held, held.valid_until - timedelta(days=200)) == "valid"
    with db.session() as s:
        assert len(list_certifications(s, org_id=org_id)) == 3
        soon = expiring_certifications(s, today, 30, org_id=org_id)
        assert [c.cert_id for c in soon] == ["cka"]
        expired = expiring_certifications(s, date(2025, 6, 1), 0, include_expired=True)
        assert old.id not in {c.id for c in expired}  # superseded by the renewal


def test_enrolments_and_roadmap(db: Database, org_id: int) -> None:
    with db.session() as s:
        pid = add_person(s, org_id, key="p1", name="Ana").id
        e = enrol(s, pid, "intro-ai-infrastructure", date(2026, 1, 5))
        record_hours(s, e.id, 6.5)
        late = add_roadmap_item(
            s,
            pid,
            kind="exam",
            ref="nca-aiio",
            title="NCA-AIIO exam",
            start=date(2026, 2, 1),
            due=date(2026, 3, 1),
        )
        done = add_roadmap_item(
            s, pid, kind="course", ref="x", title="Course", start=date(2026, 1, 1), due=date(2026, 2, 1)
        )
        complete_roadmap_item(s, done.id, date(2026, 1, 30))
        with pytest.raises(StoreError):
            add_roadmap_item(
                s, pid, kind="party", ref="x", title="?", start=date(2026, 1, 1), due=date(2026, 1, 2)
            )
    with db.session() as s:
        assert list_enrolments(s, org_id=org_id)[0].hours_done == 6.5
        assert [i.id for i in overdue_roadmap_items(s, date(2026, 4, 1), org_id=org_id)] == [late.id]


def test_scenarios_and_plans_are_versioned(db: Database, org_id: int) -> None:
    with db.session() as s:
        v1 = save_scenario(s, org_id, "main", {"fleet": {"gpus": [{"month": 1, "count": 8}]}})
        v2 = save_scenario(s, org_id, "main", {"fleet": {"gpus": [{"month": 1, "count": 16}]}})
        save_scenario(s, org_id, "other", {})
        save_plan(s, v2.id, {"target": {"months": []}, "warnings": []}, date(2026, 12, 2))
        p2 = save_plan(s, v2.id, {"target": {"months": [1]}, "warnings": []}, date(2026, 12, 2))
    assert (v1.version, v2.version, p2.version) == (1, 2, 2)
    with db.session() as s:
        latest = latest_scenario(s, org_id, "main")
        assert latest is not None
        assert latest.inputs["fleet"]["gpus"][0]["count"] == 16
        assert [(x.name, x.version) for x in list_scenarios(s, org_id)] == [("main", 2), ("other", 1)]
        plan = latest_plan(s, org_id)
        assert plan is not None and plan.plan["target"]["months"] == [1]


def test_users_passwords_teams_and_tokens(db: Database, org_id: int) -> None:
    with db.session() as s:
        team = create_team(s, org_id, "Ops")
        u = create_user(s, "mia", "correct horse", "manager", team_ids=[team.id])
        with pytest.raises(StoreError):
            create_user(s, "mia", "another password", "viewer")
        with pytest.raises(StoreError):
            create_user(s, "bad", "short", "viewer")
        with pytest.raises(StoreError):
            create_user(s, "bad", "long enough", "overlord")
        token, secret = create_token(s, u.id, "ci", ["read", "write"])
        expired, expired_secret = create_token(s, u.id, "old", ["read"], expires_at=T0 - timedelta(days=1))
    with db.session() as s:
        assert authenticate(s, "mia", "correct horse") is not None
        assert authenticate(s, "mia", "wrong horse") is None
        assert authenticate(s, "nobody", "correct horse") is None
        assert user_team_ids(s, u.id) == [team.id]
        set_user_teams(s, u.id, [])
        assert user_team_ids(s, u.id) == []
        found = verify_token(s, secret, now=T0)
        assert found is not None and found.scopes == ["read", "write"]
        assert found.user.username == "mia"
        assert verify_token(s, expired_secret, now=T0) is None
        assert verify_token(s, secret + "x") is None
        assert secret not in {t.token_hash for t in [token, expired]}
        revoke_token(s, token.id)
        assert verify_token(s, secret) is None
        update_user(s, u.id, active=False)
        assert authenticate(s, "mia", "correct horse") is None
        for entry in list_audit(s, limit=1000):
            assert "password_hash" not in (entry.after or {})
            assert "token_hash" not in (entry.after or {})


def test_delete_person_cascades(db: Database, org_id: int) -> None:
    with db.session() as s:
        pid = add_person(s, org_id, key="p1", name="Ana").id
        rate_skill(s, pid, "linux", 2)
        add_certification(s, pid, "cka", date(2025, 1, 1))
    with db.session() as s:
        delete_person(s, pid)
    with db.session() as s:
        assert get_person_by_key(s, org_id, "p1") is None
        assert list_certifications(s, org_id=org_id) == []
        assert current_skills(s, org_id=org_id) == {}


def test_session_rolls_back_on_error(db: Database, org_id: int) -> None:
    with pytest.raises(RuntimeError), db.session() as s:
        add_person(s, org_id, key="p1", name="Ana")
        raise RuntimeError("boom")
    with db.session() as s:
        assert list_people(s, org_id) == []


def test_audit_counts_and_first_organisation(db: Database, org_id: int) -> None:
    from gputeam.store import count_audit, create_organisation, first_organisation
    from gputeam.store import record as audit_record

    with db.session() as s:
        create_organisation(s, "Zeta")
        first = first_organisation(s)
        assert first is not None and first.id == org_id
        for _ in range(3):
            audit_record(s, "ip:10.0.0.1", "login-failed", "user", "mia", at=T0)
        audit_record(s, "ip:10.0.0.2", "login-failed", "user", "mia", at=T0 + timedelta(hours=1))
    with db.session() as s:
        assert count_audit(s, "login-failed", entity_id="mia") == 4
        assert count_audit(s, "login-failed", since=T0 + timedelta(minutes=30)) == 1
        assert count_audit(s, "login-failed", actor="ip:10.0.0.1") == 3


def test_versions_count_commits_of_tracked_data_and_of_accounts(db: Database, org_id: int) -> None:
    from sqlalchemy import select

    from gputeam.store import data_version, revoke_token, update_user, versions
    from gputeam.store import record as audit_record
    from gputeam.store.schema import Person

    def now() -> tuple[int, int]:
        with db.session() as s:
            assert data_version(s) == versions(s)[0]
            return versions(s)

    data, accounts = now()
    with db.session() as s:  # two changes, one commit: one bump
        add_person(s, org_id, key="p1", name="Ana")
        add_person(s, org_id, key="p2", name="Bo")
    assert now() == (data + 1, accounts)
    with db.session() as s:  # accounts and tokens: the accounts version only
        user = create_user(s, "mia", "a long password", "viewer")
        token, _secret = create_token(s, user.id, "ci", ["read"])
    assert now() == (data + 1, accounts + 1)
    with db.session() as s:  # logins and failures change nothing stored about anyone
        audit_record(s, "ip:10.0.0.1", "login-failed", "user", "mia")
        audit_record(s, "mia", "login", "user", user.id)
        audit_record(s, "mia", "password-failed", "user", user.id)
    assert now() == (data + 1, accounts + 1)
    with db.session() as s:  # both kinds in one transaction: both bumped
        update_user(s, user.id, role="engineer")
        revoke_token(s, token.id)
        add_person(s, org_id, key="p4", name="Di")
    assert now() == (data + 2, accounts + 2)
    with pytest.raises(RuntimeError), db.session() as s:  # rolled back: no bump
        add_person(s, org_id, key="p3", name="Cy")
        update_user(s, user.id, role="viewer")
        raise RuntimeError("boom")
    assert now() == (data + 2, accounts + 2)
    with db.session() as s:  # the rollback's flags did not leak into this commit
        s.execute(select(Person.id)).all()
    assert now() == (data + 2, accounts + 2)
    with db.session() as s:
        rate_skill(s, get_person_by_key(s, org_id, "p1").id, "linux", 3)  # type: ignore[union-attr]
    assert now() == (data + 3, accounts + 2)


def test_token_use_is_recorded_at_most_every_few_minutes(db: Database, org_id: int) -> None:
    with db.session() as s:
        u = create_user(s, "tok", "a sturdy pass 12", "viewer")
        _, secret = create_token(s, u.id, "t", ["read"])
    with db.session() as s:
        t = verify_token(s, secret, now=T0)
        assert t is not None and t.last_used_at == T0
        t = verify_token(s, secret, now=T0 + timedelta(minutes=1))
        assert t is not None and t.last_used_at == T0
        t = verify_token(s, secret, now=T0 + timedelta(minutes=10))
        assert t is not None and t.last_used_at == T0 + timedelta(minutes=10)


def test_links_to_missing_or_foreign_records_are_refused(db: Database, org_id: int) -> None:
    from gputeam.store import create_organisation

    with db.session() as s:
        other = create_organisation(s, "Other").id
        foreign = create_team(s, other, "Theirs").id
        pid = add_person(s, org_id, key="p1", name="Ana").id
        u = create_user(s, "mia", "a sturdy pass 12", "manager")
    for attempt in (
        lambda s: add_person(s, org_id, key="p2", name="Bo", team_id=foreign),
        lambda s: update_person(s, pid, {"team_id": foreign}),
        lambda s: add_person(s, org_id, key="p3", name="Cy", team_id=999_999),
        lambda s: create_user(s, "x", "a sturdy pass 12", "viewer", person_id=999_999),
        lambda s: create_user(s, "y", "a sturdy pass 12", "manager", team_ids=[999_999]),
        lambda s: set_user_teams(s, u.id, [999_999]),
        lambda s: update_user(s, u.id, person_id=999_999),
    ):
        with pytest.raises(InputError), db.session() as s:
            attempt(s)
    with db.session() as s:
        assert [p.key for p in list_people(s, org_id)] == ["p1"]
        assert get_person(s, pid).team_id is None


def test_nul_characters_are_refused_on_both_engines(db: Database, org_id: int) -> None:
    from gputeam.store import ImportRejected, import_roster

    with pytest.raises(StoreError) as info, db.session() as s:
        add_person(s, org_id, key="n1", name="Nul\x00Name")
    assert info.value.problems[0].path == "person.name"
    with pytest.raises(ImportRejected) as rejected, db.session() as s:
        import_roster(s, org_id, b"id,name\nn2,Nul\x00Name\n", filename="nul.csv")
    assert [(p.line, p.path) for p in rejected.value.problems] == [(2, "name")]
    with db.session() as s:
        assert list_people(s, org_id) == []


def test_a_savepoint_neither_commits_nor_forgets_the_transactions_changes(db: Database, org_id: int) -> None:
    """A savepoint as the transaction's first write (SQLite's driver would let it open the
    transaction and its release commit it) is undone by the session's rollback; an undone
    savepoint keeps the data-version bump of what was written before it; released
    savepoints bump it once per commit, not once each."""
    from gputeam.store import data_version

    def version() -> int:
        with db.session() as s:
            return data_version(s)

    with pytest.raises(RuntimeError), db.session() as s:
        with s.begin_nested():
            add_person(s, org_id, key="p1", name="Ana")
        raise RuntimeError("boom")
    with db.session() as s:
        assert list_people(s, org_id) == []
    before = version()
    with db.session() as s:
        add_person(s, org_id, key="p2", name="Bo")
        nested = s.begin_nested()
        add_person(s, org_id, key="p3", name="Cy")
        nested.rollback()
    with db.session() as s:
        assert [p.key for p in list_people(s, org_id)] == ["p2"]
    assert version() == before + 1
