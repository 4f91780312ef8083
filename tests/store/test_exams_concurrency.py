"""Exams under concurrency on PostgreSQL: two parallel starts create one attempt (the
partial unique index); two sweepers finish each overdue attempt exactly once
(``FOR UPDATE SKIP LOCKED``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from tests.store.exam_helpers import START, exam_catalog, setup_programme

from gputeam import store
from gputeam.store.schema import AuditEntry

CATALOG = exam_catalog()


@pytest.fixture
def pg(pg_url: str) -> Any:
    from tests.store.conftest import _empty_pg

    _empty_pg(pg_url)
    db = store.open_database(pg_url)
    yield db
    db.dispose()


def _together(n: int, work: Callable[[int], Any]) -> list[Any]:
    barrier = threading.Barrier(n)
    out: list[Any] = [None] * n
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            out[i] = work(i)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return out


def test_parallel_starts_create_one_attempt(pg: Any) -> None:
    with pg.session() as s:
        org = store.create_organisation(s, "Acme")
        person = store.add_person(s, org.id, key="p1", name="Ada").id
        setup_programme(s, org.id, CATALOG)
        org_id = org.id
    for round_ in range(5):
        now = START + timedelta(days=8 * round_)

        def start(_: int, now: Any = now) -> int:
            with pg.session() as s:
                prog = store.get_programme(s, org_id, "acme-l2")
                return store.start_attempt(s, prog, person, now=now, catalog=CATALOG).id

        ids = _together(4, start)
        assert len(set(ids)) == 1
        with pg.session() as s:
            store.finish_attempt(s, ids[0], now=START + timedelta(days=8 * round_), catalog=CATALOG)
            prog = store.get_programme(s, org_id, "acme-l2")
            if round_ == 2:  # 3 attempts allowed
                break
    with pg.session() as s:
        assert len(store.attempts_of(s, prog.id, person)) == 3


def test_two_sweepers_finish_each_attempt_once(pg: Any) -> None:
    with pg.session() as s:
        org = store.create_organisation(s, "Acme")
        prog = setup_programme(s, org.id, CATALOG)
        people = [store.add_person(s, org.id, key=f"p{i}", name=f"P {i}").id for i in range(30)]
        ids = {store.start_attempt(s, prog, p, now=START, catalog=CATALOG).id for p in people}
    late = START + timedelta(hours=2)

    def sweep(_: int) -> list[int]:
        mine: list[int] = []
        while True:
            with pg.session() as s:
                got = store.finalise_overdue(s, now=late, catalog=CATALOG, limit=3).finished
            if not got:
                return mine
            mine += got

    a, b = _together(2, sweep)
    assert sorted(a + b) == sorted(ids)
    assert not set(a) & set(b)
    with pg.session() as s:
        finishes = (
            s.query(AuditEntry)
            .filter(AuditEntry.entity == "exam_attempt", AuditEntry.action == "finish")
            .count()
        )
    assert finishes == len(ids)


def test_parallel_starts_of_many_candidates_never_deadlock(pg: Any) -> None:
    """Candidates starting at once draw overlapping forms; each start counts its items'
    draws, locking their rows in one order (by id) so that two starts never wait on each
    other (found by bench/exams.py --http: PostgreSQL's "deadlock detected", a 500)."""
    with pg.session() as s:
        org = store.create_organisation(s, "Acme")
        setup_programme(s, org.id, CATALOG, per_domain=40, questions=60, attempts=None)
        people = [store.add_person(s, org.id, key=f"p{i}", name=f"P {i}").id for i in range(48)]
        org_id = org.id
    for round_ in range(6):

        def start(i: int, round_: int = round_) -> int:
            with pg.session() as s:
                prog = store.get_programme(s, org_id, "acme-l2")
                return store.start_attempt(s, prog, people[8 * round_ + i], now=START, catalog=CATALOG).id

        assert len(set(_together(8, start))) == 8
    with pg.session() as s:
        prog = store.get_programme(s, org_id, "acme-l2")
        assert sum(r.drawn for r in store.bank_items(s, prog.id)) == 48 * 60
