"""Answers that are never lost to an out-of-date page (Moodle's per-question sequence check):
every stored change of an answer adds one to its question's sequence number, a page sends
back the numbers it was shown with, and a save or hand-in from an older state of a question
is refused whole (:class:`gputeam.store.Stale`), the attempt staying open. Both engines."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from tests.store.exam_helpers import START, exam_catalog, right_answers, setup_programme

from gputeam import store
from gputeam.certify.delivery import out_of_sequence, stale_questions
from gputeam.store.schema_exams import ExamAnswer, ExamAttempt

CATALOG = exam_catalog()
NOW = START + timedelta(minutes=1)
_people = itertools.count()


@pytest.fixture
def world(db: Any) -> dict[str, Any]:
    with db.session() as s:
        org = store.create_organisation(s, "Acme")
        team = store.create_team(s, org.id, "Alpha")
        prog = setup_programme(s, org.id, CATALOG)
        return {"org": org.id, "team": team.id, "prog": prog.code}


def _attempt(db: Any, world: dict[str, Any]) -> tuple[int, int, dict[str, Any]]:
    """A new candidate's attempt: (attempt id, person id, the first view of it)."""
    with db.session() as s:
        n = next(_people)
        p = store.add_person(s, world["org"], key=f"c{n}", name=f"Candidate {n}", team_id=world["team"])
        prog = store.get_programme(s, world["org"], world["prog"])
        a = store.start_attempt(s, prog, p.id, now=START, catalog=CATALOG)
        return a.id, p.id, store.attempt_view(s, a, now=START)


def _state(db: Any, attempt_id: int) -> dict[str, tuple[int, Any]]:
    """What is stored, as the candidate's page shows it: ``{item: (sequence, answer)}``
    (a question never answered: ``(0, None)``)."""
    with db.session() as s:
        attempt = s.get(ExamAttempt, attempt_id)
        assert attempt is not None and attempt.state == "in_progress"
        view = store.attempt_view(s, attempt, now=NOW)
        return {i: (n, view["answers"].get(i)) for i, n in view["sequences"].items()}


def _rows(db: Any, attempt_id: int) -> dict[str, int]:
    with db.session() as s:
        rows = s.execute(
            select(ExamAnswer.item_id, ExamAnswer.sequence).where(ExamAnswer.attempt_id == attempt_id)
        )
        return {r.item_id: r.sequence for r in rows}


def _open(db: Any, attempt_id: int) -> bool:
    with db.session() as s:
        attempt = s.get(ExamAttempt, attempt_id)
        assert attempt is not None
        return attempt.state == "in_progress"


def test_the_finding_a_stale_hand_in_no_longer_nulls_ten_saved_answers(db: Any, world: Any) -> None:
    """Tab A is opened, tab B saves all ten answers, then tab A (its page shown with every
    question unanswered, sequence 0) hands in its empty form: refused, nothing nulled, the
    attempt still open and its ten answers still there."""
    attempt_id, person, view = _attempt(db, world)
    tab_a = dict(view["sequences"])
    assert set(tab_a.values()) == {0}
    right = right_answers(view)
    with db.session() as s:  # tab B
        saved = store.save_answers(s, attempt_id, person, right, now=NOW, sequences=dict(tab_a))
    assert saved.sequences == dict.fromkeys(right, 1)
    empty = dict.fromkeys(right)  # tab A's form: nothing answered
    with pytest.raises(store.Stale) as caught, db.session() as s:
        store.save_answers(s, attempt_id, person, empty, now=NOW, sequences=tab_a)
        store.finish_attempt(s, attempt_id, now=NOW, catalog=CATALOG)
    assert sorted(caught.value.items) == sorted(right)
    assert _open(db, attempt_id)
    assert _state(db, attempt_id) == {i: (1, r) for i, r in right.items()}
    # the API's hand-in with the numbers it last saw: refused the same way
    with pytest.raises(store.Stale), db.session() as s:
        store.finish_attempt(s, attempt_id, now=NOW, catalog=CATALOG, sequences=tab_a)
    assert _open(db, attempt_id) and _rows(db, attempt_id) == dict.fromkeys(right, 1)
    with db.session() as s:  # with the numbers as they are now: handed in, passed
        store.finish_attempt(s, attempt_id, now=NOW, catalog=CATALOG, sequences=saved.sequences)
        attempt = s.get(ExamAttempt, attempt_id)
        assert attempt is not None and attempt.state == "finished" and attempt.score == 1.0


def test_a_save_sent_again_or_without_numbers(db: Any, world: Any) -> None:
    """A save that stores what is stored already changes nothing and passes, whatever its
    number (a reply lost on the way, the save sent again); a save without numbers (an API
    client that sends none) is not checked; an unanswered question cleared stores nothing."""
    attempt_id, person, view = _attempt(db, world)
    item = view["questions"][0]["id"]
    with db.session() as s:
        assert store.save_answers(
            s, attempt_id, person, {item: 1}, now=NOW, sequences={item: 0}
        ).sequences == {item: 1}
        again = store.save_answers(s, attempt_id, person, {item: 1}, now=NOW, sequences={item: 0})
        assert again.sequences == {item: 1}
        assert store.save_answers(s, attempt_id, person, {item: 2}, now=NOW).sequences == {item: 2}
        other = view["questions"][1]["id"]
        assert store.save_answers(s, attempt_id, person, {other: None}, now=NOW).sequences == {other: 0}
    assert _state(db, attempt_id)[item] == (2, 2) and other not in _rows(db, attempt_id)


def test_after_time_is_up_a_stale_hand_in_still_finishes(db: Any, world: Any) -> None:
    """Once the time and the grace are over nothing can be saved, so an out-of-date page
    cannot keep the attempt open: it is finished from what was saved."""
    attempt_id, person, view = _attempt(db, world)
    item = view["questions"][0]["id"]
    with db.session() as s:
        store.save_answers(s, attempt_id, person, {item: 1}, now=NOW)
        attempt = s.get(ExamAttempt, attempt_id)
        assert attempt is not None
        late = attempt.deadline + timedelta(minutes=5)
        store.finish_attempt(s, attempt_id, now=late, catalog=CATALOG, sequences={item: 0})
    assert not _open(db, attempt_id)


def test_the_rule() -> None:
    """Stale: another number than the stored one, and a change; one stale question makes
    the submission stale."""
    assert out_of_sequence(0, 1, True) and not out_of_sequence(0, 1, False)
    assert not out_of_sequence(None, 3, True) and not out_of_sequence(2, 2, True)
    assert stale_questions({"a": (1, True), "b": (0, True), "c": (0, False)}, {"a": 1, "b": 2, "c": 5}) == [
        "b"
    ]


# ------------------------------------------------------------------- the property
ITEMS = 3
_op = st.one_of(
    st.tuples(
        st.just("save"),
        st.sampled_from("AB"),
        st.integers(0, ITEMS - 1),
        st.one_of(st.none(), st.integers(0, 2)),
    ),
    st.tuples(
        st.just("save-all"),
        st.sampled_from("AB"),
        st.lists(st.one_of(st.none(), st.integers(0, 2)), min_size=ITEMS, max_size=ITEMS),
    ),
    st.tuples(st.just("reload"), st.sampled_from("AB")),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(_op, min_size=1, max_size=12), hand_in=st.sampled_from("AB"))
def test_no_newer_answer_is_replaced_by_an_older_page_state(
    db: Any, world: Any, ops: list[tuple[Any, ...]], hand_in: str
) -> None:
    """For any interleaving of saves (one question, or the whole form) from two pages of one
    attempt, each page keeping the numbers its saves return and reloading now and then: no
    answer with a newer sequence number is replaced by one from an older page state (an
    answer changes only through a submission that carried its current number, and its
    number then grows by one); a submission refused changes nothing; a submission from an
    older state that would change an answer is refused. Then a hand-in from a page whose
    state is older than what is stored is refused and the attempt stays open."""
    attempt_id, person, view = _attempt(db, world)
    items = [q["id"] for q in view["questions"][:ITEMS]]
    pages = {tab: {i: view["sequences"][i] for i in items} for tab in "AB"}
    drafts: dict[str, dict[str, Any]] = {tab: dict.fromkeys(items) for tab in "AB"}
    for op in ops:
        tab = op[1]
        before = _state(db, attempt_id)
        if op[0] == "reload":
            pages[tab] = {i: before.get(i, (0, None))[0] for i in items}
            drafts[tab] = {i: before.get(i, (0, None))[1] for i in items}
            continue
        if op[0] == "save":
            drafts[tab][items[op[2]]] = op[3]
            sent = {items[op[2]]: op[3]}
        else:
            drafts[tab] = dict(zip(items, op[2], strict=True))
            sent = dict(drafts[tab])
        seen = {i: pages[tab][i] for i in sent}
        try:
            with db.session() as s:
                saved = store.save_answers(s, attempt_id, person, sent, now=NOW, sequences=seen)
        except store.Stale:
            refused = True
        else:
            refused = False
            pages[tab].update(saved.sequences)  # the page keeps the numbers returned
        after = _state(db, attempt_id)
        older = [
            i
            for i in sent
            if seen[i] != before.get(i, (0, None))[0] and sent[i] != before.get(i, (0, None))[1]
        ]
        assert refused == bool(older), (sent, seen, before)
        if refused:
            assert after == before
        for i in items:
            n_before, r_before = before.get(i, (0, None))
            n_after, r_after = after.get(i, (0, None))
            assert n_after >= n_before
            if (n_after, r_after) != (n_before, r_before):
                assert i in sent and seen[i] == n_before, "an older page state replaced a newer answer"
                assert n_after == n_before + 1 and r_after == sent[i]
    # the hand-in: the page's answers saved first (as the form sends them), then finished
    now = _state(db, attempt_id)
    stale = any(
        pages[hand_in][i] != now.get(i, (0, None))[0] and drafts[hand_in][i] != now.get(i, (0, None))[1]
        for i in items
    )
    try:
        with db.session() as s:
            store.save_answers(s, attempt_id, person, drafts[hand_in], now=NOW, sequences=pages[hand_in])
            store.finish_attempt(s, attempt_id, now=NOW, catalog=CATALOG)
    except store.Stale:
        assert stale
        assert _open(db, attempt_id) and _state(db, attempt_id) == now
    else:
        assert not stale and not _open(db, attempt_id)


def _race(db: Any, attempt_id: int, person: int, item: str) -> list[str]:
    """Two saves of ``item`` from one page state (number 0), started together."""
    import threading

    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def save(value: int) -> None:
        barrier.wait()
        try:
            with db.session() as s:
                store.save_answers(s, attempt_id, person, {item: value}, now=NOW, sequences={item: 0})
        except store.Stale:
            outcomes.append("stale")
        else:
            outcomes.append(f"saved {value}")

    threads = [threading.Thread(target=save, args=(v,)) for v in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def test_two_saves_from_one_page_state_at_once_store_one(db: Any, world: Any) -> None:
    """Two tabs shown the same state of a question save it at the same moment with
    different answers: one is stored (number 1), the other refused, on either engine
    (the compare-and-set and the attempt's lock; never both, never a lost update)."""
    for _round in range(5):
        attempt_id, person, view = _attempt(db, world)
        item = view["questions"][0]["id"]
        outcomes = _race(db, attempt_id, person, item)
        assert sorted(o.split()[0] for o in outcomes) == ["saved", "stale"]
        winner = int(next(o for o in outcomes if o.startswith("saved")).split()[1])
        assert _state(db, attempt_id)[item] == (1, winner)
