"""A person's e-mail is unique in the organisation, whatever its case, in the database
itself (migration 0008: a unique index on (org_id, lower(email))), so two writers adding
the same address at once cannot both succeed; the loser gets the store's own person.email
problem, not a 409 or a traceback. On both engines."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from gputeam.errors import InputError
from gputeam.store import Database, add_person, create_organisation, import_roster, list_people, update_person
from gputeam.store.schema import Person


def _raw_person(s: Session, org_id: int, key: str, email: str | None) -> None:
    """A row written past the store's own check (as a second writer's would land)."""
    now = datetime.now(UTC)
    s.execute(
        sa.insert(Person.__table__).values(
            org_id=org_id,
            key=key,
            name=key,
            email=email,
            title="",
            background="sysadmin",
            level=1,
            experience_months=0,
            weekly_study_hours=4.0,
            active=True,
            created_at=now,
            updated_at=now,
        )
    )


def test_the_database_refuses_a_second_person_with_the_address(db: Database, org_id: int) -> None:
    with db.session() as s:
        _raw_person(s, org_id, "a1", "Ada@Example.org")
        _raw_person(s, org_id, "n1", None)
        _raw_person(s, org_id, "n2", None)  # no e-mail: any number of people
        other = create_organisation(s, "Other").id
        _raw_person(s, other, "o1", "ada@example.org")  # another organisation's: allowed
    with pytest.raises(IntegrityError, match="uq_people_org_email"), db.session() as s:
        _raw_person(s, org_id, "a2", "ada@EXAMPLE.org")


# PostgreSQL only: SQLite has one writer at a time, so there the second's check runs after
# the first commits and the race cannot happen.
@pytest.mark.parametrize("db_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True)
def test_a_write_the_index_refuses_is_the_stores_email_problem(db: Database, org_id: int) -> None:
    """A second writer whose check ran before the first committed: the index refuses its
    row and the store answers with the problem its check gives (and the session stays
    usable: only the savepoint was undone)."""
    first = db.sessions()
    outcome: list[BaseException | str] = []

    def second() -> None:
        try:
            with db.session() as s:
                add_person(s, org_id, key="a2", name="Ada Two", email="ADA@example.org")
            outcome.append("added")
        except BaseException as exc:  # reported by the test's thread
            outcome.append(exc)

    try:
        add_person(first, org_id, key="a1", name="Ada", email="ada@example.org")  # flushed, not committed
        t = threading.Thread(target=second)
        t.start()
        time.sleep(1.0)  # the second has checked (nothing committed yet) and waits on the index
        blocked = not outcome
        first.commit()
    finally:
        first.close()
    t.join(timeout=30)
    assert blocked, outcome
    (got,) = outcome
    assert isinstance(got, InputError), got
    (problem,) = got.problems
    assert (problem.path, problem.message, problem.found) == (
        "person.email",
        "already the e-mail of person 'a1'",
        "ADA@example.org",
    )
    with db.session() as s:
        assert [p.key for p in list_people(s, org_id)] == ["a1"]


def test_many_adding_the_same_address_at_once_one_wins(db: Database, org_id: int) -> None:
    """As tests/store/test_concurrent_saves.py races its savers: eight requests add a
    person with the same address at once; exactly one is added, the others are refused
    with the person.email problem."""
    threads, barrier = 8, threading.Barrier(8)
    added: list[str] = []
    refused: list[str] = []
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            with db.session() as s:
                s.connection()
                barrier.wait(timeout=10)
                add_person(
                    s,
                    org_id,
                    key=f"p{i}",
                    name=f"P {i}",
                    email="SAME@example.org" if i % 2 else "same@example.org",
                )
            added.append(f"p{i}")
        except InputError as exc:
            refused.append(exc.problems[0].path)
        except BaseException as exc:  # reported below
            errors.append(exc)

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=60)
    assert not errors, errors
    assert len(added) == 1 and refused == ["person.email"] * (threads - 1)


def test_update_to_a_taken_address_and_an_import_moving_addresses(db: Database, org_id: int) -> None:
    with db.session() as s:
        a = add_person(s, org_id, key="a1", name="Ada", email="ada@example.org").id
        add_person(s, org_id, key="g1", name="Grace", email="grace@example.org")
    with pytest.raises(InputError) as err, db.session() as s:
        update_person(s, a, {"email": "Grace@example.org"})
    assert err.value.problems[0].path == "person.email"
    # addresses may move between the file's people: swapped, and one given to a newcomer
    roster = "id,name,email\na1,Ada,grace@example.org\ng1,Grace,ada-new@example.org\nn1,New,ada@example.org\n"
    with db.session() as s:
        import_roster(s, org_id, roster.encode(), filename="roster.csv")
    with db.session() as s:
        assert {p.key: p.email for p in list_people(s, org_id)} == {
            "a1": "grace@example.org",
            "g1": "ada-new@example.org",
            "n1": "ada@example.org",
        }


def test_the_upgrade_names_existing_duplicates_and_changes_nothing(empty_db_url: str) -> None:
    """A database with two people sharing an address (before 0008 a race could leave
    that): the upgrade stops naming the address and the people, migrates nothing, and runs
    once they differ."""
    from gputeam.store import open_database

    db = open_database(empty_db_url, migrate=False)
    try:
        db.upgrade("0007")
        with db.session() as s:
            org = create_organisation(s, "Acme").id
            _raw_person(s, org, "a1", "ada@example.org")
            _raw_person(s, org, "a2", "Ada@Example.org")
            _raw_person(s, org, "g1", "grace@example.org")
        with pytest.raises(InputError) as err:
            db.upgrade()
        (problem,) = err.value.problems
        assert problem.path == "people.email (organisation 'Acme')"
        assert problem.found == "ada@example.org for people a1, a2"
        assert "gputeam db upgrade" in (problem.expected or "")
        assert db.revision() == "0007"
        with db.session() as s:
            s.execute(sa.update(Person).where(Person.key == "a2").values(email=None))
        db.upgrade("0008")  # 0008 itself runs now (later migrations are not this test's)
        assert db.revision() == "0008"
    finally:
        db.dispose()
