"""Migrations create the schema the models describe, on both engines, and run both ways."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from gputeam.store import open_database
from gputeam.store.db import alembic_config
from gputeam.store.schema import Base


def head() -> str:
    rev = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert rev is not None
    return rev


def test_first_use_creates_and_migrates(empty_db_url: str) -> None:
    db = open_database(empty_db_url)
    try:
        assert db.revision() == head()
        tables = set(inspect(db.engine).get_table_names())
        assert {t.name for t in Base.metadata.sorted_tables} <= tables
        with db.engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(ctx, Base.metadata) == []
    finally:
        db.dispose()


def test_upgrade_is_idempotent_and_downgrade_removes_everything(empty_db_url: str) -> None:
    db = open_database(empty_db_url)
    try:
        db.upgrade()
        assert db.revision() == head()
        db.downgrade("base")
        assert db.revision() is None
        assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
        db.upgrade()
        assert db.revision() == head()
    finally:
        db.dispose()


def test_open_without_migrate_leaves_database_empty(empty_db_url: str) -> None:
    db = open_database(empty_db_url, migrate=False)
    try:
        assert db.revision() is None
    finally:
        db.dispose()


def test_migrations_are_packaged() -> None:
    from importlib.resources import files

    root = files("gputeam.store")
    assert root.joinpath("alembic.ini").is_file()
    assert root.joinpath("migrations/env.py").is_file()
    assert any(p.name.endswith(".py") for p in root.joinpath("migrations/versions").iterdir())


def test_processes_starting_together_migrate_once(empty_db_url: str) -> None:
    """Several app processes opening a new database at the same moment all succeed."""
    import subprocess
    import sys

    code = (
        "import sys; from gputeam.store import open_database; "
        "db = open_database(sys.argv[1]); print(db.revision()); db.dispose()"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, empty_db_url],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 3, [err for _, err in results]
    assert {out.strip() for out, _ in results} == {head()}


def test_a_change_in_one_process_is_seen_in_another(db_url: str) -> None:
    """Stateless processes: what one process commits, another reads."""
    import subprocess
    import sys

    from gputeam.store import get_or_create_organisation, list_people

    write = (
        "import sys; from gputeam.store import *; db = open_database(sys.argv[1]); "
        "s = db.sessions(); o = get_or_create_organisation(s, 'Acme'); "
        "add_person(s, o.id, key='x1', name='From another process'); s.commit(); "
        "db.dispose()"
    )
    done = subprocess.run([sys.executable, "-c", write, db_url], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    db = open_database(db_url)
    try:
        with db.session() as s:
            org = get_or_create_organisation(s, "Acme")
            assert [p.name for p in list_people(s, org.id)] == ["From another process"]
    finally:
        db.dispose()


def test_0003_gives_existing_audit_entries_their_organisation(empty_db_url: str) -> None:
    """Upgrading a database with two organisations: each audit entry gets the
    organisation its record names (directly, by person or scenario, or as an import);
    entries about accounts get none."""
    from datetime import UTC, datetime

    import sqlalchemy as sa
    from sqlalchemy.orm import Session

    from gputeam.store.schema import Organisation, Person

    db = open_database(empty_db_url, migrate=False)
    try:
        db.upgrade("0002")
        with Session(db.engine) as s, s.begin():
            a, b = Organisation(name="A"), Organisation(name="B")
            s.add_all([a, b])
            s.flush()
            # Core inserts: only the columns given (and defaulted), not later ones (site)
            people = Person.__table__
            pa = s.execute(sa.insert(people).values(org_id=a.id, key="a1", name="Ann")).inserted_primary_key
            pb = s.execute(sa.insert(people).values(org_id=b.id, key="b1", name="Bob")).inserted_primary_key
            ids = {"a": a.id, "b": b.id, "pa": pa[0], "pb": pb[0]}
        log = sa.table(
            "audit_log",
            sa.column("at", sa.DateTime),
            sa.column("action"),
            sa.column("entity"),
            sa.column("entity_id"),
            sa.column("before", sa.JSON),
            sa.column("after", sa.JSON),
        )
        now = datetime(2026, 12, 1, tzinfo=UTC).replace(tzinfo=None)
        rows = [
            ("create", "person", str(ids["pb"]), None, {"org_id": ids["b"]}),
            ("create", "certification", "7", None, {"person_id": ids["pa"]}),
            ("delete", "certification", "8", {"person_id": ids["pb"]}, None),
            ("import", "roster", str(ids["b"]), None, {"created": 1}),
            ("create", "user", "1", None, {"username": "x"}),
            ("login-failed", "user", "x", None, None),
        ]
        with db.engine.begin() as conn:
            conn.execute(
                sa.insert(log),
                [
                    {"at": now, "action": ac, "entity": en, "entity_id": ei, "before": be, "after": af}
                    for ac, en, ei, be, af in rows
                ],
            )
        db.upgrade()
        with db.engine.connect() as conn:
            found = [
                tuple(r)
                for r in conn.execute(sa.text("SELECT entity, entity_id, org_id FROM audit_log ORDER BY id"))
            ]
        assert found == [
            ("person", str(ids["pb"]), ids["b"]),
            ("certification", "7", ids["a"]),
            ("certification", "8", ids["b"]),
            ("roster", str(ids["b"]), ids["b"]),
            ("user", "1", None),
            ("user", "x", None),
        ]
    finally:
        db.dispose()


def test_0010_counts_answers_saved_before_as_changed_once(empty_db_url: str) -> None:
    """Upgrading a database with a running attempt: each answer already saved gets
    sequence number 1 (one stored change), so the pages shown after the upgrade carry 1
    and save over it; downgrading removes the column and keeps the answers."""
    from datetime import UTC, datetime

    import sqlalchemy as sa
    from sqlalchemy.orm import Session

    from gputeam.store.schema import Organisation, Person
    from gputeam.store.schema_exams import ExamAttempt, Programme

    db = open_database(empty_db_url, migrate=False)
    try:
        db.upgrade("0009")
        now = datetime(2026, 12, 2, 9, tzinfo=UTC)  # the models' columns take aware times
        with Session(db.engine) as s, s.begin():
            org = Organisation(name="A")
            s.add(org)
            s.flush()
            person = s.execute(
                sa.insert(Person.__table__).values(org_id=org.id, key="a1", name="Ann")
            ).inserted_primary_key[0]
            prog = s.execute(
                sa.insert(Programme.__table__).values(org_id=org.id, code="p", spec={})
            ).inserted_primary_key[0]
            attempt = s.execute(
                sa.insert(ExamAttempt.__table__).values(
                    programme_id=prog,
                    person_id=person,
                    number=1,
                    seed=7,
                    form=[],
                    started_at=now,
                    deadline=now,
                    state="in_progress",
                )
            ).inserted_primary_key[0]
            naive = now.replace(tzinfo=None)  # a bare table: the database's own type
            answers = sa.table(
                "exam_answers",
                sa.column("attempt_id"),
                sa.column("item_id"),
                sa.column("response", sa.JSON),
                sa.column("saved_at", sa.DateTime),
            )
            s.execute(
                sa.insert(answers),
                [
                    {"attempt_id": attempt, "item_id": "q1", "response": 2, "saved_at": naive},
                    {"attempt_id": attempt, "item_id": "q2", "response": None, "saved_at": naive},
                ],
            )
        db.upgrade("0010")
        query = "SELECT item_id, sequence FROM exam_answers ORDER BY item_id"
        with db.engine.connect() as conn:
            assert [tuple(r) for r in conn.execute(sa.text(query))] == [("q1", 1), ("q2", 1)]
        db.downgrade("0009")
        with db.engine.connect() as conn:
            assert "sequence" not in {c["name"] for c in inspect(conn).get_columns("exam_answers")}
            assert conn.execute(sa.text("SELECT count(*) FROM exam_answers")).scalar_one() == 2
    finally:
        db.dispose()
