"""Essay marking (issue 11 §3): an attempt with an essay awaits marking; an assessor (never
the candidate) marks it with a mark and a comment, audited; the result is decided once
every essay is marked, and a pass then records the certification. Both engines."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from tests.store.exam_helpers import CERT, START, exam_catalog, setup_essay_programme, sit_essay_exam

from gputeam import store

CATALOG = exam_catalog()
LATER = START + timedelta(minutes=20)
ISSUER = store.Issuer(secret="s" * 40, base_url="https://tracker.example", did="did:web:tracker.example")


@pytest.fixture
def world(db: Any) -> dict[str, Any]:
    with db.session() as s:
        org = store.create_organisation(s, "Acme")
        team = store.create_team(s, org.id, "Alpha")
        p1 = store.add_person(s, org.id, key="p1", name="Ada", team_id=team.id)
        p2 = store.add_person(s, org.id, key="p2", name="Grace", team_id=team.id)  # named assessor
        p3 = store.add_person(s, org.id, key="p3", name="Linus", team_id=team.id)
        prog = setup_essay_programme(s, org.id, CATALOG)
        return {"org": org.id, "p1": p1.id, "p2": p2.id, "p3": p3.id, "prog": prog.code}


def _finished(s: Any, w: dict[str, Any]) -> Any:
    prog = store.get_programme(s, w["org"], w["prog"])
    a = sit_essay_exam(s, prog, w["p1"])
    return store.finish_attempt(s, a.id, now=LATER, catalog=CATALOG, issuer=ISSUER)


def _mark(s: Any, w: dict[str, Any], attempt_id: int, mark: Any, **kw: Any) -> Any:
    who = {"marker": "grace", "role": "engineer", "marker_person_id": w["p2"], **kw}
    return store.mark_essay(
        s, attempt_id, "net-essay", mark, "Clear steps; no check of running jobs.",
        now=LATER + timedelta(hours=2), catalog=CATALOG, issuer=ISSUER, **who,
    )  # fmt: skip


def test_an_essay_awaits_marking_then_a_pass_records_the_certification(db: Any, world: Any) -> None:
    with db.session() as s:
        a = _finished(s, world)
        assert a.state == "finished" and a.passed is None
        assert a.result["pending"] == ["net-essay"]
        view = store.attempt_view(s, a, now=LATER)
        assert view["result"]["pending"] == ["net-essay"] and view["essays"] == []
        assert view["next_attempt"] is None and view["next_attempt_note"] == "an attempt awaits marking"
        assert store.list_certifications(s, person_id=world["p1"]) == []
        prog = store.get_programme(s, world["org"], world["prog"])
        assert [x.id for x in store.awaiting_marking(s, prog.id)] == [a.id]
        [essay] = store.essays(s, a)
        assert essay["answer"] == "Cordon, drain, check." and essay["mark"] is None
        with pytest.raises(store.StoreError, match="awaits marking"):
            store.start_attempt(s, prog, world["p1"], now=LATER + timedelta(days=30), catalog=CATALOG)
        attempt_id = a.id
    with db.session() as s:
        a = _mark(s, world, attempt_id, "0,75")  # a decimal mark, in the form's locale or not
        # (0.75 + 1 + 1) / 3; networking 75 % is above the 60 % domain minimum
        assert a.passed is True and a.score == pytest.approx(2.75 / 3)
        held = store.list_certifications(s, person_id=world["p1"])
        assert [(c.cert_id, c.valid_from.isoformat()) for c in held] == [(CERT, "2026-12-02")]
        [cred] = store.list_credentials(s, world["org"], person_id=world["p1"])
        # issued on the pass under the organisation's did:web, verifiable with its document
        from gputeam.credentials import verify

        assert cred.document["issuer"]["id"] == "did:web:tracker.example"
        documents = {
            "did:web:tracker.example": store.did_document(s, world["org"], "did:web:tracker.example")
        }
        assert verify(cred.document, now=LATER + timedelta(days=1), did_documents=documents).valid
        view = store.attempt_view(s, a, now=LATER)
        assert view["essays"] == [
            {"number": view["essays"][0]["number"], "mark": 0.75, "max_mark": 1.0,
             "comment": "Clear steps; no check of running jobs."}
        ]  # fmt: skip
        assert "manual" not in view["result"]
        entries = store.list_audit(s, entity="exam_attempt", oldest_first=True)
        mark = [e for e in entries if e.action == "mark"]
        assert len(mark) == 1 and mark[0].actor == "grace" and mark[0].after["mark"] == 0.75
        assert mark[0].after["comment"].startswith("Clear steps")
        with pytest.raises(store.StoreError, match="final"):
            _mark(s, world, a.id, 1)
        # item analysis reads the essay's fractional score
        stats = store.item_statistics(s, store.get_programme(s, world["org"], world["prog"]).id)
        essay_stats = next(i for i in stats["items"] if i["item_id"] == "net-essay")
        assert essay_stats["facility"] == 0.75 and essay_stats["type"] == "essay"
        assert stats["kr20"] is None  # fractional scores: alpha only


def test_a_low_essay_mark_fails_the_domain_minimum(db: Any, world: Any) -> None:
    with db.session() as s:
        a = _finished(s, world)
        a = _mark(s, world, a.id, 0.5)
        assert a.passed is False
        assert (
            a.result["domains"][0]["feedback"]
            == "Networking fundamentals 50 % — below the 60 % domain minimum"
        )
        assert store.list_certifications(s, person_id=world["p1"]) == []
        when, _ = store.next_allowed(
            s, store.get_programme(s, world["org"], world["prog"]), world["p1"], LATER
        )
        assert when is not None and when.isoformat() == "2026-12-09"  # the catalog's 7-day wait


def test_who_may_mark_and_what_is_refused(db: Any, world: Any) -> None:
    with db.session() as s:
        a = _finished(s, world)
        attempt_id = a.id
    cases = [
        ({"marker": "ada", "role": "admin", "marker_person_id": world["p1"]}, 1, "own essay"),
        ({"marker": "linus", "role": "engineer", "marker_person_id": world["p3"]}, 1, "named assessors"),
        ({}, -0.5, "out of range"),
        ({}, 1.5, "out of range"),
        ({}, "lots", "not a number"),
        ({}, float("nan"), "not a number"),
    ]
    for who, mark, message in cases:
        with pytest.raises(store.StoreError, match=message), db.session() as s:
            _mark(s, world, attempt_id, mark, **who)
    with pytest.raises(store.StoreError, match="not an essay"), db.session() as s:
        store.mark_essay(
            s, attempt_id, "sto-1", 1, marker="m", role="manager", marker_person_id=None,
            now=LATER, catalog=CATALOG,
        )  # fmt: skip
    with pytest.raises(store.NotFound), db.session() as s:
        store.mark_essay(
            s, attempt_id, "net-essay", 1, marker="m", role="admin", marker_person_id=None,
            now=LATER, catalog=CATALOG, org_id=world["org"] + 1,
        )  # fmt: skip
    with db.session() as s:  # nothing was stored by the refusals
        prog = store.get_programme(s, world["org"], world["prog"])
        [row] = store.awaiting_marking(s, prog.id)
        assert "manual" not in (row.result or {})
        assert not [e for e in store.list_audit(s, entity="exam_attempt") if e.action == "mark"]


def test_an_essay_of_a_running_attempt_is_not_marked(db: Any, world: Any) -> None:
    with db.session() as s:
        prog = store.get_programme(s, world["org"], world["prog"])
        a = sit_essay_exam(s, prog, world["p1"])
        with pytest.raises(store.StoreError, match="still running"):
            _mark(s, world, a.id, 1)
