"""A page of an exam left open in another tab never wipes the answers saved since (the
sequence numbers each page carries): the exam pages without JavaScript, with htmx, and
the exam API (409 problem documents), on both engines."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from tests.store.exam_helpers import START, right_answers, wrong_answers
from tests.web.conftest import World, logged_in
from tests.web.test_web_exams import exam_app  # noqa: F401  (fixture)

from gputeam import store
from gputeam.store.exams import saved_answers
from gputeam.store.schema_exams import ExamAttempt

STALE = "this page is out of date"


def _api(c: Any, method: str, path: str, **kw: Any) -> Any:
    return c.request(method, "/api/v1" + path, headers={"X-CSRF-Token": c.csrf}, **kw)


def _page_form(html: str, csrf: str) -> dict[str, Any]:
    """The exam form as a browser without JavaScript sends it, nothing chosen: every
    question (``present``) with the sequence number the page was shown with."""
    items = re.findall(r'name="present" value="([^"]+)"', html)
    form: dict[str, Any] = {"csrf_token": csrf, "present": items}
    for item, number in re.findall(r'name="seq:([^"]+)" value="(\d+)"', html):
        form[f"seq:{item}"] = number
    assert len(items) == 10 and all(f"seq:{i}" in form for i in items)
    return form


def test_a_stale_tab_neither_saves_over_nor_hands_in_the_answers_of_another(
    exam_app: Any,  # noqa: F811
    world: World,
) -> None:
    """The finding: tab A is opened, tab B saves all ten answers, then "Hand in" (or
    "Save") from tab A, its page shown with every question unanswered, set all ten to
    nothing: 0 % and an attempt used up. Now both are refused (409, the page as it is
    now under "this page is out of date"), nothing is stored, the attempt stays open."""
    eng = logged_in(exam_app, "engineer")
    r = eng.post("/exams/acme-l2/start", data={"csrf_token": eng.csrf}, follow_redirects=False)
    url = r.headers["location"]
    attempt_id = int(url.rsplit("/", 1)[1])
    tab_a = _page_form(eng.get(url).text, eng.csrf)
    tab_b = _page_form(eng.get(url).text, eng.csrf)
    with exam_app.state.db.session() as s:
        right = right_answers(store.attempt_view(s, s.get(ExamAttempt, attempt_id), now=START))
    exam_app.state.now.at = START + timedelta(minutes=2)
    r = eng.post(
        f"/exams/attempts/{attempt_id}/save",
        data={**tab_b, **{f"q:{i}": str(v) for i, v in right.items()}},
        follow_redirects=False,
    )
    assert r.status_code == 303
    for action in ("finish", "save"):
        r = eng.post(f"/exams/attempts/{attempt_id}/{action}", data=tab_a, follow_redirects=False)
        assert r.status_code == 409, (action, r.text[:300])
        assert STALE in r.text and 'role="alert"' in r.text
        # the page as it is now: tab B's answers checked, the numbers they carry now
        assert len(re.findall(r'name="seq:[^"]+" value="1"', r.text)) == 10
        assert r.text.count("checked") == 10
    with exam_app.state.db.session() as s:
        assert store.attempt_view(s, s.get(ExamAttempt, attempt_id), now=START)["answers"] == right
        assert None not in saved_answers(s, attempt_id).values()
        assert s.get(ExamAttempt, attempt_id).state == "in_progress"
    german = eng.post(f"/exams/attempts/{attempt_id}/finish", data=tab_a, headers={"Accept-Language": "de"})
    assert german.status_code == 409 and "diese Seite ist veraltet" in german.text
    # the page reloaded: its numbers are current, the hand-in goes through: 100 %
    fresh = _page_form(eng.get(url).text, eng.csrf)
    r = eng.post(
        f"/exams/attempts/{attempt_id}/finish",
        data={**fresh, **{f"q:{i}": str(v) for i, v in right.items()}},
        follow_redirects=False,
    )
    assert r.status_code == 303
    with exam_app.state.db.session() as s:
        attempt = s.get(ExamAttempt, attempt_id)
        assert attempt.state == "finished" and attempt.score == 1.0


def test_htmx_saves_carry_and_return_the_numbers(exam_app: Any, world: World) -> None:  # noqa: F811
    """A question saved on change sends its number and gets the new one back (the page
    keeps it); the same save from a tab that did not see it is refused, in words, with a
    link to reload, and marked for the page's script (which then does not reload)."""
    eng = logged_in(exam_app, "engineer")
    r = eng.post("/exams/acme-l2/start", data={"csrf_token": eng.csrf}, follow_redirects=False)
    url = r.headers["location"]
    attempt_id = int(url.rsplit("/", 1)[1])
    form = _page_form(eng.get(url).text, eng.csrf)
    item = form["present"][0]
    headers = {"HX-Request": "true"}
    r = eng.post(
        f"/exams/attempts/{attempt_id}/save?item={item}", headers=headers, data={**form, f"q:{item}": "1"}
    )
    assert r.status_code == 200 and f'data-sequences="{{&quot;{item}&quot;: 1}}"' in r.text
    again = {**form, f"seq:{item}": "1", f"q:{item}": "2"}  # this tab, with the number returned
    r = eng.post(f"/exams/attempts/{attempt_id}/save?item={item}", headers=headers, data=again)
    assert r.status_code == 200 and f"&quot;{item}&quot;: 2" in r.text
    other_tab = {**form, f"q:{item}": "0"}  # still number 0
    r = eng.post(f"/exams/attempts/{attempt_id}/save?item={item}", headers=headers, data=other_tab)
    assert r.status_code == 409 and 'data-stale="1"' in r.text and STALE in r.text
    assert f'href="/exams/attempts/{attempt_id}"' in r.text
    r = eng.post(
        f"/exams/attempts/{attempt_id}/save?item={item}", headers=headers, data={**form, f"seq:{item}": "x"}
    )
    assert r.status_code == 422 and "not a whole number" in r.text
    with exam_app.state.db.session() as s:
        view = store.attempt_view(s, s.get(ExamAttempt, attempt_id), now=START)
        assert view["answers"] == {item: 2} and view["sequences"][item] == 2


def test_the_api_refuses_out_of_date_saves_and_hand_ins_with_409(exam_app: Any, world: World) -> None:  # noqa: F811
    """The attempt shows each question's `sequences`; a save sends `sequence` and gets the
    new one; one from an out-of-date view, or a hand-in with out-of-date `sequences`, is a
    409 problem document (`urn:gputeam:problem:stale`) naming the questions, and the
    attempt stays open."""
    eng = logged_in(exam_app, "engineer")
    view = _api(eng, "POST", "/programmes/acme-l2/attempts").json()
    attempt = view["id"]
    assert view["sequences"] == {q["id"]: 0 for q in view["questions"]}
    right, wrong = right_answers(view), wrong_answers(view)
    first = view["questions"][0]["id"]
    r = _api(eng, "PUT", f"/attempts/{attempt}/answers/{first}", json={"value": right[first], "sequence": 0})
    assert r.status_code == 200 and r.json()["sequence"] == 1
    r = _api(eng, "PUT", f"/attempts/{attempt}/answers/{first}", json={"value": wrong[first], "sequence": 0})
    assert r.status_code == 409
    problem = r.json()
    assert r.headers["content-type"].startswith("application/problem+json")
    assert problem["type"] == "urn:gputeam:problem:stale" and STALE in problem["detail"]
    assert [p["path"] for p in problem["problems"]] == [f"answers.{first}"]
    # the same answer sent again (its reply lost) passes; a bad number is a 422
    assert (
        _api(
            eng, "PUT", f"/attempts/{attempt}/answers/{first}", json={"value": right[first], "sequence": 0}
        ).json()["sequence"]
        == 1
    )
    r = _api(eng, "PUT", f"/attempts/{attempt}/answers/{first}", json={"value": 1, "sequence": True})
    assert r.status_code == 422
    r = _api(eng, "POST", f"/attempts/{attempt}/finish", json={"sequences": view["sequences"]})
    assert r.status_code == 409 and r.json()["type"] == "urn:gputeam:problem:stale"
    assert _api(eng, "GET", f"/attempts/{attempt}").json()["state"] == "in_progress"
    r = _api(eng, "POST", f"/attempts/{attempt}/finish", json={"sequences": "all"})
    assert r.status_code == 422
    now = _api(eng, "GET", f"/attempts/{attempt}").json()["sequences"]
    assert now[first] == 1
    done = _api(eng, "POST", f"/attempts/{attempt}/finish", json={"sequences": now})
    assert done.status_code == 200 and done.json()["state"] == "finished"
