"""Database fixtures shared by the store tests (and importable by other test packages).

Every test that uses ``db_url`` / ``db`` runs twice: on SQLite and on PostgreSQL.

PostgreSQL: ``$GPUTEAM_TEST_PG`` (default ``postgresql://postgres@127.0.0.1:5432/test``) is
used to create one fresh, uniquely named database per test session (dropped at the end);
tables are emptied before each test. When the server is unreachable the PostgreSQL tests
are skipped, unless ``CI=true``: then they fail.

Fixtures:
    ``pg_admin_url``  session: URL of the maintenance database (skips/fails if unreachable)
    ``pg_url``        session: URL of this session's fresh, migrated PostgreSQL database
    ``sqlite_template`` session: a migrated SQLite file copied for each test
    ``db_url``        per test, parametrised sqlite/postgresql: an empty migrated database
    ``db``            per test: ``open_database(db_url)``
    ``org_id``        per test: an organisation "Acme" in ``db``
    ``empty_db_url``  per test, parametrised: a database with no tables at all (on
                      PostgreSQL the session's ``pg_empty_url`` with its schema wiped)
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from gputeam.store import Database, open_database
from gputeam.store.schema import Base

PG_ADMIN = os.environ.get("GPUTEAM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
ENGINES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
]


def _psycopg_dsn(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def _with_db(url: str, name: str) -> str:
    return url.rsplit("/", 1)[0] + "/" + name


def create_pg_database(admin_url: str, name: str) -> str:
    import psycopg

    with psycopg.connect(_psycopg_dsn(admin_url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return _with_db(admin_url, name)


def drop_pg_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(_psycopg_dsn(admin_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_admin_url() -> str:
    import psycopg

    try:
        with psycopg.connect(_psycopg_dsn(PG_ADMIN), connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.OperationalError as exc:
        reason = f"PostgreSQL unreachable at {PG_ADMIN}: {str(exc).strip()}"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason} (CI=true: PostgreSQL tests must not be skipped)")
        pytest.skip(reason)
    return PG_ADMIN


@pytest.fixture(scope="session")
def pg_url(pg_admin_url: str) -> Iterator[str]:
    name = f"gputeam_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    url = create_pg_database(pg_admin_url, name)
    open_database(url).dispose()
    yield url
    drop_pg_database(pg_admin_url, name)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "gputeam.db"
    db = open_database(f"sqlite:///{path}")
    with db.engine.connect() as conn:  # fold the WAL into the main file before copying
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    db.dispose()
    return path


def _empty_pg(url: str) -> None:
    """Delete every row (children first); cheaper than TRUNCATE for tiny tables."""
    import psycopg

    with psycopg.connect(_psycopg_dsn(url)) as conn:
        for table in reversed(Base.metadata.sorted_tables):
            conn.execute(f'DELETE FROM "{table.name}"')


@pytest.fixture(params=ENGINES)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        path = tmp_path / "gputeam.db"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    url: str = request.getfixturevalue("pg_url")
    _empty_pg(url)
    return url


@pytest.fixture
def db(db_url: str) -> Iterator[Database]:
    database = open_database(db_url)
    yield database
    database.dispose()


@pytest.fixture
def org_id(db: Database) -> int:
    from gputeam.store import create_organisation

    with db.session() as s:
        return create_organisation(s, "Acme").id


@pytest.fixture(scope="session")
def pg_empty_url(pg_admin_url: str) -> Iterator[str]:
    """A second database of this session, wiped to no tables by ``empty_db_url``."""
    name = f"gputeam_empty_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    url = create_pg_database(pg_admin_url, name)
    yield url
    drop_pg_database(pg_admin_url, name)


@pytest.fixture(params=ENGINES)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.db'}"
    import psycopg

    url: str = request.getfixturevalue("pg_empty_url")
    with psycopg.connect(_psycopg_dsn(url)) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
    return url
