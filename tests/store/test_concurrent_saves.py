"""Concurrent saves of scenarios and plans get consecutive versions, on both engines.

Each saver has its own session (as each web request has), all start at once; none may fail
with a unique-constraint violation (which the web app would answer with 409 Conflict) or
with SQLite's "database is locked", and the versions must be exactly 1..N.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from gputeam.store import Database, list_plans, list_scenarios, save_plan, save_scenario
from gputeam.store.schema import SavedPlan, SavedScenario

THREADS = 8
DAY = date(2026, 12, 2)


def _at_once(db: Database, save: Callable[[Session, int], int]) -> list[int]:
    """Run ``save(session, i)`` in THREADS threads, each in its own unit of work, released
    together; the versions they returned. Re-raises the first error of any thread."""
    barrier = threading.Barrier(THREADS)
    versions: list[int] = []
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            with db.session() as s:
                s.connection()  # check out a connection before the race starts
                barrier.wait(timeout=10)
                versions.append(save(s, i))
        except BaseException as exc:  # reported by the test's thread below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    if errors:
        raise AssertionError(f"{len(errors)} of {THREADS} saves failed; first: {errors[0]!r}") from errors[0]
    return versions


def test_concurrent_save_scenario_gets_consecutive_versions(db: Database, org_id: int) -> None:
    versions = _at_once(db, lambda s, i: save_scenario(s, org_id, "live", {"i": i}, actor=f"user{i}").version)
    assert sorted(versions) == list(range(1, THREADS + 1))
    with db.session() as s:
        rows = list_scenarios(s, org_id, all_versions=True)
        assert sorted(r.version for r in rows) == list(range(1, THREADS + 1))
        assert sorted(r.inputs["i"] for r in rows) == list(range(THREADS))


def test_concurrent_save_plan_gets_consecutive_versions(db: Database, org_id: int) -> None:
    with db.session() as s:
        scenario_id = save_scenario(s, org_id, "live", {}).id
    versions = _at_once(db, lambda s, i: save_plan(s, scenario_id, {"i": i}, DAY, actor=f"user{i}").version)
    assert sorted(versions) == list(range(1, THREADS + 1))
    with db.session() as s:
        rows = list_plans(s, scenario_id)
        assert sorted(r.version for r in rows) == list(range(1, THREADS + 1))
        assert sorted(r.plan["i"] for r in rows) == list(range(THREADS))


def test_concurrent_web_style_saves(db: Database, org_id: int) -> None:
    """As the web app saves: read first (the planner's inputs), then a new scenario version
    and a plan for it, in one unit of work per request."""
    with db.session() as s:
        save_scenario(s, org_id, "live", {"i": -1})

    def save(s: Session, i: int) -> int:
        list_scenarios(s, org_id)  # reads before writing, as the planner's inputs do
        time.sleep(0.01)  # "the planner"; the other savers may commit meanwhile
        row = save_scenario(s, org_id, "live", {"i": i})
        save_plan(s, row.id, {"i": i}, DAY)
        return row.version

    versions = _at_once(db, save)
    assert sorted(versions) == list(range(2, THREADS + 2))


SAVER = """
import sys, time
from datetime import date
from pathlib import Path
from gputeam.store import open_database, save_plan, save_scenario
url, org_id, scenario_id, go, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]), \
    int(sys.argv[5])
db = open_database(url, migrate=False)
with db.engine.connect():
    pass
print("ready", flush=True)
while not go.exists():
    time.sleep(0.001)
for i in range(n):
    with db.session() as s:
        save_scenario(s, org_id, "live", {})
    with db.session() as s:
        save_plan(s, scenario_id, {}, date(2026, 12, 2))
db.dispose()
"""


def test_concurrent_saves_from_processes(db: Database, org_id: int, tmp_path: Path) -> None:
    """Two app processes saving at once (the lock must hold across processes, not only
    across threads of one)."""
    with db.session() as s:
        scenario_id = save_scenario(s, org_id, "base", {}).id
    go, processes, each = tmp_path / "go", 2, 5
    url = db.engine.url.render_as_string(hide_password=False)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", SAVER, url, str(org_id), str(scenario_id), str(go), str(each)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    try:
        for p in procs:
            assert p.stdout is not None
            assert p.stdout.readline().strip() == "ready"
        go.touch()
        results = [p.communicate(timeout=60) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    failures = [err for p, (_out, err) in zip(procs, results, strict=True) if p.returncode]
    assert not failures, failures[0][-2000:]
    with db.session() as s:
        scenarios = s.scalars(select(SavedScenario.version).where(SavedScenario.name == "live")).all()
        plans = s.scalars(select(SavedPlan.version).where(SavedPlan.scenario_id == scenario_id)).all()
    assert sorted(scenarios) == list(range(1, processes * each + 1))
    assert sorted(plans) == list(range(1, processes * each + 1))
