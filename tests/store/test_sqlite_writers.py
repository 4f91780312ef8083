"""SQLite writers of one process take the database's write lock in turn (store/db.py,
``_queue_writers``): a writer that finds it taken waits on the process's lock, not in
SQLite's polling (sleeps of up to 100 ms, in which later writers may overtake it), and the
lock is let go however a transaction ends: commit, rollback, an error, autocommit."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from gputeam import store


@pytest.fixture
def db(tmp_path: Path) -> store.Database:
    database = store.open_database(f"sqlite:///{tmp_path}/w.db", threads=4)
    with database.engine.begin() as conn:
        conn.execute(text("CREATE TABLE w (n INTEGER PRIMARY KEY, v TEXT NOT NULL)"))
    yield database
    database.dispose()


def _write(db: store.Database, n: int) -> None:
    with db.session() as s:
        s.execute(text("INSERT INTO w (n, v) VALUES (:n, 'x')"), {"n": n})


def _in_thread(fn: object, timeout: float = 10.0) -> float:
    """Run ``fn`` in a thread; the seconds it took (fails when it does not end)."""
    done: list[float] = []
    errors: list[BaseException] = []

    def run() -> None:
        t = time.perf_counter()
        try:
            fn()  # type: ignore[operator]
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        done.append(time.perf_counter() - t)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "the write never got the lock"
    assert not errors, errors
    return done[0]


def test_a_second_writer_waits_on_the_process_lock_not_in_sqlite(db: store.Database) -> None:
    holding = threading.Event()
    release = threading.Event()

    def first() -> None:
        with db.session() as s:
            s.execute(text("INSERT INTO w (n, v) VALUES (1, 'first')"))
            holding.set()
            release.wait(10)

    a = threading.Thread(target=first)
    a.start()
    assert holding.wait(10)
    b = threading.Thread(target=_write, args=(db, 2))
    b.start()
    time.sleep(0.3)
    frame = sys._current_frames()[b.ident]  # type: ignore[index]
    waiting_in = []
    while frame is not None:
        waiting_in.append(frame.f_code.co_name)
        frame = frame.f_back
    assert "_before" in waiting_in  # the process's queue (db.py), not sqlite3's busy wait
    release.set()
    a.join(10)
    b.join(10)
    with db.session() as s:
        assert s.execute(text("SELECT count(*) FROM w")).scalar() == 2


def test_the_lock_is_let_go_on_rollback_error_and_autocommit(db: store.Database) -> None:
    with pytest.raises(RuntimeError), db.session() as s:  # rollback
        s.execute(text("INSERT INTO w (n, v) VALUES (1, 'undone')"))
        raise RuntimeError("undo")
    assert _in_thread(lambda: _write(db, 1)) < 5
    with pytest.raises(Exception, match="NOT NULL"), db.session() as s:  # a failing write
        s.execute(text("INSERT INTO w (n, v) VALUES (2, NULL)"))
    assert _in_thread(lambda: _write(db, 2)) < 5
    with db.read_session() as s:  # autocommit: each statement on its own
        s.execute(text("UPDATE w SET v = 'y' WHERE n = 1"))
    assert _in_thread(lambda: _write(db, 3)) < 5
    with db.session() as s:
        assert s.execute(text("SELECT n, v FROM w ORDER BY n")).all() == [(1, "y"), (2, "x"), (3, "x")]


def test_many_threads_writing_at_once_lose_nothing(db: store.Database) -> None:
    threads = [
        threading.Thread(target=lambda k=k: [_write(db, k * 100 + i) for i in range(20)]) for k in range(16)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    with db.session() as s:
        assert s.execute(text("SELECT count(*) FROM w")).scalar() == 16 * 20
