"""Opening a database: engine, sessions, and migrations applied on first use."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from gputeam.i18n import N_
from gputeam.store.audit import bump_data_version, forget_data_change
from gputeam.store.settings import database_url

MIGRATIONS = Path(__file__).parent / "migrations"
#: PostgreSQL advisory lock key held while migrating, so that several app processes
#: starting at once do not migrate concurrently.
_MIGRATION_LOCK = 0x67707574  # "gput"


class Database:
    """An engine and a session factory for one database URL.

    Use :meth:`session` as a unit of work: it commits when the block ends normally and
    rolls back (writing nothing) when it raises.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        event.listen(self.sessions, "before_flush", _refuse_nul)
        event.listen(self.sessions, "before_commit", _outermost(bump_data_version))
        event.listen(self.sessions, "after_rollback", _outermost(forget_data_change))
        event.listen(self.sessions, "after_commit", _outermost(self.analyze_pending))
        event.listen(self.sessions, "after_rollback", _outermost(_forget_analyze))

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self.sessions() as session, session.begin():
            yield session

    @contextmanager
    def read_session(self) -> Iterator[Session]:
        """A session for reading, each statement on its own (autocommit): no BEGIN and
        COMMIT round trips. On PostgreSQL's default isolation (READ COMMITTED) every
        statement sees the latest committed data whether or not it is in a transaction,
        so readers lose nothing; anything written through it (rare: a token's last use)
        is committed at once, statement by statement. Use :meth:`session` for changes."""
        with (
            self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn,
            self.sessions(bind=conn) as session,
            session.begin(),
        ):
            yield session

    def analyze_pending(self, session: Session) -> None:
        """After a commit that asked for it (a large import): refresh the statistics of
        the tables it wrote, on a connection of its own. Statistics only guide the query
        planner, so a failure here is ignored: the committed data is not affected."""
        tables = sorted(session.info.pop("gputeam_analyze", ()))
        if not tables:
            return
        try:
            with self.engine.connect() as conn:
                if self.dialect == "postgresql":
                    conn.execute(text("ANALYZE " + ", ".join(f'"{t}"' for t in tables)))
                else:
                    for t in tables:
                        conn.execute(text(f'ANALYZE "{t}"'))
                conn.commit()
        except Exception:  # noqa: BLE001 - see the docstring
            pass

    def upgrade(self, revision: str = "head") -> None:
        """Apply migrations up to ``revision``."""
        _run_alembic(self.engine, "upgrade", revision)

    def downgrade(self, revision: str) -> None:
        _run_alembic(self.engine, "downgrade", revision)

    def revision(self) -> str | None:
        """The schema revision the database is at (``None`` before any migration)."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    def dispose(self) -> None:
        self.engine.dispose()


def _outermost(listener: Callable[[Session], None]) -> Callable[[Session], None]:
    """``listener`` for the session's transaction only: SQLAlchemy sends before_commit,
    after_commit and after_rollback for each savepoint too, where a savepoint undone
    (a refused e-mail) must not forget the changes made before it, nor each released one
    bump the data version."""

    def call(session: Session) -> None:
        if not session.in_nested_transaction():
            listener(session)

    return call


def _forget_analyze(session: Session) -> None:
    session.info.pop("gputeam_analyze", None)


def _refuse_nul(session: Session, _context: Any, _instances: Any) -> None:
    """PostgreSQL cannot store NUL in text; refuse it on every engine alike."""
    from gputeam.store.errors import refused

    for obj in (*session.new, *session.dirty):
        table = getattr(obj, "__table__", None)
        if table is None:
            continue
        for col in table.columns:
            value = getattr(obj, col.key, None)
            if isinstance(value, str) and "\x00" in value:
                raise refused(
                    f"{table.name}.{col.key}",
                    N_("contains a NUL character"),
                    value.replace("\x00", "\\x00"),
                    N_("text without NUL"),
                )


#: who may read and write the SQLite file: its owner only (it holds salaries and password
#: hashes); SQLite gives its -wal and -shm files the same mode
SQLITE_FILE_MODE = 0o600


def private_file(path: Path) -> None:
    """Make sure the SQLite file at ``path`` is its owner's only (:data:`SQLITE_FILE_MODE`):
    created so when new (before SQLite opens it, whatever the umask), and narrowed to it
    when an existing file (or its -wal or -shm file) is open to its group or to others.
    A file of another user, or a file system without modes, is left as it is."""
    import os

    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, SQLITE_FILE_MODE))
    except FileExistsError:
        pass
    except OSError:
        return
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            mode = each.stat().st_mode & 0o777
            if mode & 0o077:
                each.chmod(SQLITE_FILE_MODE)
        except OSError:  # absent, another user's, or no modes here
            continue


def create_db_engine(url: str, *, threads: int | None = None, **kwargs: Any) -> Engine:
    """An engine with the settings gputeam relies on: foreign keys and WAL on SQLite,
    one shared connection for in-memory SQLite, pre-ping on servers.

    ``threads``: how many threads use the engine at once (the web app's request threads).
    The pool then keeps that many connections open: with fewer (SQLAlchemy's default is
    5), every request beyond the fifth opens a new connection and closes it again on
    return, which on PostgreSQL costs a backend process start per request."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        memory = parsed.database in (None, "", ":memory:")
        if memory:
            kwargs.setdefault("poolclass", StaticPool)
            kwargs.setdefault("connect_args", {"check_same_thread": False})
        else:
            _size_pool(kwargs, threads)
            Path(parsed.database or "").parent.mkdir(parents=True, exist_ok=True)
            private_file(Path(parsed.database or ""))
            kwargs.setdefault("connect_args", {"timeout": 30})
        engine = create_engine(url, **kwargs)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            if not memory:
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        if not memory:
            _queue_writers(engine)

        @event.listens_for(engine, "savepoint")
        def _savepoint_in_a_transaction(conn: Any, _name: str) -> None:
            # pysqlite opens a transaction only before INSERT/UPDATE/DELETE: a SAVEPOINT
            # issued first would open one by itself, and its RELEASE would commit it, out of
            # reach of the session's rollback. Open the real transaction first.
            dbapi_conn = conn.connection.dbapi_connection
            if dbapi_conn is not None and not dbapi_conn.in_transaction:
                dbapi_conn.execute("BEGIN")

        return engine
    _require_driver(parsed.get_backend_name(), parsed.get_driver_name())
    pre_ping = kwargs.pop("pool_pre_ping", None)
    _size_pool(kwargs, threads)
    engine = create_engine(url, pool_pre_ping=bool(pre_ping), **kwargs)
    if pre_ping is None:
        _ping_when_idle(engine)
    return engine


#: Server database drivers gputeam supports, with the extra that installs each.
DRIVER_EXTRAS = {("postgresql", "psycopg"): "postgres"}


def _require_driver(backend: str, driver: str) -> None:
    """Refuse, naming the extra to install, a server URL whose driver is not installed
    (PostgreSQL support is the optional ``gputeam[postgres]``)."""
    import importlib

    extra = DRIVER_EXTRAS.get((backend, driver))
    if extra is None:
        return
    try:
        importlib.import_module(driver)
    except ImportError:
        from gputeam.errors import Problem
        from gputeam.store.errors import StoreError

        raise StoreError(
            [
                Problem(
                    path="--db",
                    message=N_("the database driver {driver} is not installed").format(driver=driver),
                    expected=f"pip install 'gputeam[{extra}]'",
                )
            ]
        ) from None


_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
_WRITER = "gputeam_writer"


def _queue_writers(engine: Engine) -> None:
    """Let the engine's threads take SQLite's one write lock in turn.

    A SQLite database has one writer at a time; a connection that finds it taken polls,
    sleeping 1, 2, 5 ... up to 100 ms between tries, and a writer that comes later may get
    it first. Under many concurrent saves (an exam: 50 a second) that polling is where a
    slow save's time went. Here a transaction's first write waits for a lock of this
    process instead (it wakes as soon as the lock is free); the lock is let go when the
    transaction ends, or after the statement when there is no transaction (autocommit).
    Other processes still meet SQLite's own waiting. Re-entrant, so a thread that writes
    through a second connection meets SQLite's lock as before, never this one."""
    import contextlib
    import threading

    lock = threading.RLock()

    def release(info: dict[str, Any]) -> None:
        if info.pop(_WRITER, False):
            with contextlib.suppress(RuntimeError):  # let go by another thread (closed elsewhere)
                lock.release()

    @event.listens_for(engine, "before_cursor_execute")
    def _before(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        info = conn.info
        writes = not info.get(_WRITER) and statement.lstrip()[:7].upper().startswith(_WRITES)
        if writes and lock.acquire(timeout=30):  # like SQLite's own timeout; then SQLite decides
            info[_WRITER] = True

    @event.listens_for(engine, "after_cursor_execute")
    def _after(conn: Any, *_args: Any) -> None:
        dbapi = conn.connection.dbapi_connection
        if conn.info.get(_WRITER) and dbapi is not None and not dbapi.in_transaction:
            release(conn.info)  # autocommit: the write is over

    @event.listens_for(engine, "handle_error")
    def _error(context: Any) -> None:
        conn = context.connection
        dbapi = conn.connection.dbapi_connection if conn is not None and not conn.invalidated else None
        if conn is not None and (dbapi is None or not dbapi.in_transaction):
            release(conn.info)

    for name in ("commit", "rollback"):
        event.listen(engine, name, lambda conn: release(conn.info))

    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi_conn: Any, record: Any) -> None:
        if record is not None:
            release(record.info)  # a connection given back mid-transaction (never held on)


#: A pooled server connection that has been idle this long is pinged before it is used.
PING_AFTER_IDLE_SECONDS = 2.0


def _ping_when_idle(engine: Engine) -> None:
    """Pre-ping, but only connections idle for :data:`PING_AFTER_IDLE_SECONDS`: a
    connection the server dropped (restart, idle timeout, failover) is replaced before a
    request uses it, while a busy pool does not pay an extra round trip per checkout
    (SQLAlchemy's ``pool_pre_ping`` pings on every one, twice per web request)."""
    import time

    from sqlalchemy.exc import DisconnectionError

    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi_conn: Any, record: Any) -> None:
        if record is not None:
            record.info["gputeam_idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("gputeam_idle_since")
        if since is None or time.monotonic() - since < PING_AFTER_IDLE_SECONDS:
            return  # new, or used a moment ago
        try:
            alive = engine.dialect.do_ping(dbapi_conn)
        except Exception as exc:  # the pool discards the connection and takes another
            raise DisconnectionError("stale pooled connection") from exc
        if not alive:
            raise DisconnectionError("stale pooled connection")


def _size_pool(kwargs: dict[str, Any], threads: int | None) -> None:
    if threads and "poolclass" not in kwargs:
        kwargs.setdefault("pool_size", threads)
        kwargs.setdefault("max_overflow", 4)


def open_database(
    url: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
    migrate: bool = True,
    threads: int | None = None,
    **engine_kwargs: Any,
) -> Database:
    """Open the database at ``url`` (default: :func:`gputeam.store.database_url`), creating
    it and applying migrations on first use unless ``migrate`` is false; ``threads`` sizes
    the connection pool (see :func:`create_db_engine`)."""
    db = Database(create_db_engine(database_url(url, env), threads=threads, **engine_kwargs))
    if migrate:
        db.upgrade()
    return db


def alembic_config(engine: Engine | None = None) -> Any:
    """An Alembic ``Config`` pointing at the packaged migrations."""
    from alembic.config import Config

    cfg = Config(str(Path(__file__).parent / "alembic.ini"))
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if engine is not None:
        cfg.set_main_option(
            "sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%")
        )
    return cfg


@contextmanager
def _sqlite_file_lock(engine: Engine) -> Iterator[None]:
    """Serialise migrations of one SQLite file across processes (POSIX advisory lock on a
    sidecar file); PostgreSQL uses an advisory lock inside the transaction instead."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or database in (None, "", ":memory:"):
        yield
        return
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: SQLite's own locking has to do
        yield
        return
    with open(f"{database}.migrate-lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _run_alembic(engine: Engine, command_name: str, revision: str) -> None:
    from alembic import command

    cfg = alembic_config(engine)
    with _sqlite_file_lock(engine), engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        getattr(command, command_name)(cfg, revision)
