"""Exams in the web app (issue 11): the API and the pages on both engines, with a fake
clock; who sees which attempt; answer keys never sent before the end; item analysis;
practical sign-off; the credential issued on a pass."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.store.exam_helpers import (
    CERT,
    EXTRA,
    START,
    exam_catalog,
    right_answers,
    setup_programme,
    wrong_answers,
)
from tests.web.conftest import TODAY, World, csrf_of, logged_in, make_settings

from gputeam import store
from gputeam.store.exams import saved_answers
from gputeam.store.schema_exams import ExamAttempt

#: What must never be in what a candidate receives while an attempt runs.
KEY_WORDS = (
    "fraction",
    "feedback",
    "tolerance",
    '"good"',
    "#good",
    "general_feedback",
    "item_rows",
    "choices",
)


class FakeClock:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def exam_app(db: Any, world: World, tmp_path: Path) -> Any:
    from gputeam.web import create_app

    extra = tmp_path / "extra.yaml"
    extra.write_text(yaml.safe_dump(EXTRA), "utf-8")
    app = create_app(make_settings(catalog_extra=str(extra)), database=db, today=TODAY)
    app.state.now = FakeClock(START)
    with db.session() as s:
        setup_programme(s, world.org_id, exam_catalog(), rubric=[{"id": "drain", "name": "Drains a node"}])
    return app


def _api(c: Any, method: str, path: str, **kw: Any) -> Any:
    return c.request(method, "/api/v1" + path, headers={"X-CSRF-Token": c.csrf}, **kw)


def test_sit_an_exam_through_the_api(exam_app: Any, world: World) -> None:
    eng = logged_in(exam_app, "engineer")
    r = _api(eng, "POST", "/programmes/acme-l2/attempts")
    assert r.status_code == 201, r.text
    view = r.json()
    assert not any(k in r.text for k in KEY_WORDS)
    assert view["remaining_seconds"] == 1800 and len(view["questions"]) == 10
    again = _api(eng, "POST", "/programmes/acme-l2/attempts").json()  # resume: the same form
    assert again["id"] == view["id"] and again["questions"] == view["questions"]
    right = right_answers(view)
    exam_app.state.now.at = START + timedelta(minutes=5)
    for item, choice in right.items():
        r = _api(eng, "PUT", f"/attempts/{view['id']}/answers/{item}", json={"value": choice})
        assert r.json() == {"saved": True, "item_id": item, "sequence": 1, "remaining_seconds": 1500}
    got = _api(eng, "GET", f"/attempts/{view['id']}").json()
    assert got["answers"] == right
    assert not any(k in json.dumps(got) for k in KEY_WORDS)
    done = _api(eng, "POST", f"/attempts/{view['id']}/finish").json()
    assert done["state"] == "finished" and done["result"]["passed"] is True
    assert "fractions" not in done["result"] and "questions" not in done
    assert done["next_attempt"] == "2026-12-09"
    # the practical is still missing: no certification yet
    with exam_app.state.db.session() as s:
        assert CERT not in {c.cert_id for c in store.list_certifications(s, person_id=world.people["p1"])}


def test_deadline_409_and_finalised_on_the_next_read(exam_app: Any, world: World) -> None:
    eng = logged_in(exam_app, "engineer")
    view = _api(eng, "POST", "/programmes/acme-l2/attempts").json()
    first, *rest = list(wrong_answers(view).items())
    exam_app.state.now.at = START + timedelta(minutes=30, seconds=10)  # in the grace
    assert (
        _api(eng, "PUT", f"/attempts/{view['id']}/answers/{first[0]}", json={"value": first[1]}).json()[
            "remaining_seconds"
        ]
        == 0
    )
    exam_app.state.now.at = START + timedelta(minutes=31)
    r = _api(eng, "PUT", f"/attempts/{view['id']}/answers/{rest[0][0]}", json={"value": rest[0][1]})
    assert r.status_code == 409
    got = _api(eng, "GET", f"/attempts/{view['id']}").json()
    assert got["state"] == "finished" and got["finished_how"] == "timeout"
    assert got["result"]["passed"] is False
    with exam_app.state.db.session() as s:
        assert list(saved_answers(s, view["id"])) == [first[0]]


def test_who_sees_which_attempt(exam_app: Any, world: World) -> None:
    with exam_app.state.db.session() as s:  # p2 (Alpha, the manager's team) sits the exam
        prog = store.get_programme(s, world.org_id, "acme-l2")
        other = store.start_attempt(s, prog, world.people["p2"], now=START, catalog=exam_catalog()).id
        p3 = store.start_attempt(s, prog, world.people["p3"], now=START, catalog=exam_catalog()).id
    eng = logged_in(exam_app, "engineer")
    assert _api(eng, "GET", f"/attempts/{other}").status_code == 404
    assert eng.get(f"/exams/attempts/{other}").status_code == 404
    assert _api(eng, "PUT", f"/attempts/{other}/answers/x", json={"value": 0}).status_code == 404
    assert _api(eng, "GET", f"/people/{world.people['p2']}/attempts").status_code == 404
    mgr = logged_in(exam_app, "manager")
    assert _api(mgr, "GET", f"/attempts/{other}").status_code == 200
    assert _api(mgr, "GET", f"/attempts/{p3}").status_code == 404  # Beta: not the manager's
    # nobody answers for a candidate (the manager is linked to no person: refused as such)
    assert _api(mgr, "PUT", f"/attempts/{other}/answers/x", json={"value": 0}).status_code == 403
    viewer = logged_in(exam_app, "viewer")
    assert _api(viewer, "GET", f"/attempts/{other}").status_code == 403
    assert _api(viewer, "GET", "/programmes").status_code == 403
    assert _api(eng, "GET", "/programmes/acme-l2/items").status_code == 403
    assert (
        _api(eng, "PUT", f"/people/{world.people['p1']}/exam-time", json={"time_multiplier": 2}).status_code
        == 403
    )


def test_exam_pages_without_javascript_and_with_htmx(exam_app: Any, world: World) -> None:
    eng = logged_in(exam_app, "engineer")
    page = eng.get("/exams")
    assert page.status_code == 200 and "Start the exam" in page.text
    r = eng.post("/exams/acme-l2/start", data={"csrf_token": eng.csrf}, follow_redirects=False)
    assert r.status_code == 303
    url = r.headers["location"]
    html = eng.get(url).text
    assert 'role="timer"' in html and 'data-remaining="1800"' in html
    assert 'aria-live="polite"' in html and 'hx-trigger="change"' in html
    assert not any(k in html for k in KEY_WORDS)
    items = re.findall(r'name="present" value="([^"]+)"', html)
    assert len(items) == 10
    attempt_id = int(url.rsplit("/", 1)[1])
    with exam_app.state.db.session() as s:
        view = store.attempt_view(s, s.get(ExamAttempt, attempt_id), now=START)
    right = right_answers(view)
    # no JavaScript: the Save button posts the whole form
    form = {"csrf_token": eng.csrf, "present": items, **{f"q:{i}": str(right[i]) for i in items[:6]}}
    r = eng.post(f"/exams/attempts/{attempt_id}/save", data=form, follow_redirects=False)
    assert r.status_code == 303
    # htmx: one question saved on change, the fragment carries the seconds left
    exam_app.state.now.at = START + timedelta(minutes=1)
    r = eng.post(
        f"/exams/attempts/{attempt_id}/save?item={items[6]}",
        headers={"HX-Request": "true"},
        data={"csrf_token": eng.csrf, "present": items, f"q:{items[6]}": str(right[items[6]])},
    )
    assert r.status_code == 200 and 'data-remaining="1740"' in r.text
    assert ">Saved · 29 min 00 s left<" in r.text
    german = eng.post(
        f"/exams/attempts/{attempt_id}/save?item={items[6]}",
        headers={"HX-Request": "true", "Accept-Language": "de"},
        data={"csrf_token": eng.csrf, "present": items, f"q:{items[6]}": str(right[items[6]])},
    )
    assert ">Gespeichert · noch 29 min 00 s<" in german.text, german.text
    # a value that does not fit: refused in words, the value escaped, nothing stored
    r = eng.post(
        f"/exams/attempts/{attempt_id}/save?item={items[7]}",
        headers={"HX-Request": "true"},
        data={"csrf_token": eng.csrf, "present": items, f"q:{items[7]}": "<b>x</b>"},
    )
    assert r.status_code == 422 and "Not saved:" in r.text
    assert "<b>" not in r.text and "&lt;b&gt;" in r.text
    # the questions save on change one at a time, the last change queued behind one in
    # flight (never dropped), and the page puts the status in place itself (hx-swap none)
    assert html.count('hx-sync="this:queue last" hx-swap="none"') == 10
    with exam_app.state.db.session() as s:
        assert len(saved_answers(s, attempt_id)) == 7  # clearing an unanswered one stores nothing
        assert sum(v is not None for v in saved_answers(s, attempt_id).values()) == 7
    exam_app.state.now.at = START + timedelta(minutes=40)
    r = eng.post(f"/exams/attempts/{attempt_id}/save", data=form)
    assert r.status_code == 409
    result = eng.get(url).text
    assert "Time ran out" in result and "Networking fundamentals" in result  # per-domain lines
    assert "Next attempt allowed from 2026-12-09" in result


def test_pass_and_practical_sign_off_issue_the_credential(exam_app: Any, world: World) -> None:
    eng = logged_in(exam_app, "engineer")
    view = _api(eng, "POST", "/programmes/acme-l2/attempts").json()
    for item, choice in right_answers(view).items():
        _api(eng, "PUT", f"/attempts/{view['id']}/answers/{item}", json={"value": choice})
    _api(eng, "POST", f"/attempts/{view['id']}/finish")
    p1 = world.people["p1"]
    # not an assessor: as on the page, no such practical for them
    r = _api(eng, "PUT", f"/programmes/acme-l2/practicals/{p1}", json={"grades": {"drain": "met"}})
    assert r.status_code == 404
    # the candidate cannot assess themselves, not even when named as assessor
    with exam_app.state.db.session() as s:
        original = dict(store.get_programme(s, world.org_id, "acme-l2").spec)
        named = {**original, "assessors": ["p1"]}
        store.save_programme(s, world.org_id, "acme-l2", named, catalog=exam_catalog())
    r = _api(eng, "PUT", f"/programmes/acme-l2/practicals/{p1}", json={"grades": {"drain": "met"}})
    assert r.status_code == 422 and "own" in r.text
    with exam_app.state.db.session() as s:  # no longer named
        store.save_programme(s, world.org_id, "acme-l2", original, catalog=exam_catalog())
    mgr = logged_in(exam_app, "manager")
    r = _api(
        mgr,
        "PUT",
        f"/programmes/acme-l2/practicals/{p1}",
        json={"grades": {"drain": {"grade": "met", "evidence": "https://wiki/lab/1"}}},
    )
    assert r.status_code == 200, r.text
    page = mgr.get(f"/exams/acme-l2/practical/{p1}")
    assert page.status_code == 200 and "Drains a node" in page.text and "Met" in page.text
    assert eng.get(f"/exams/acme-l2/practical/{p1}").status_code == 404  # not an assessor
    r = _api(mgr, "POST", f"/programmes/acme-l2/practicals/{p1}/sign-off")
    assert r.json()["outcome"] == "pass"
    with exam_app.state.db.session() as s:
        assert CERT in [c.cert_id for c in store.list_certifications(s, person_id=p1)]
        creds = store.list_credentials(s, world.org_id, person_id=p1)
        assert len(creds) == 1 and creds[0].achievement_id == CERT
        results = creds[0].document["credentialSubject"]["result"]
        assert {r["value"] for r in results} == {"100 %"} and len(results) == 4
        audit = [e.action for e in store.list_audit(s, entity="practical", oldest_first=True)]
    assert audit == ["grade", "sign-off"]


def test_item_analysis_retire_and_time_multiplier(exam_app: Any, world: World) -> None:
    mgr = logged_in(exam_app, "manager")
    r = _api(mgr, "PUT", f"/people/{world.people['p1']}/exam-time", json={"time_multiplier": 1.5})
    assert r.status_code == 200
    eng = logged_in(exam_app, "engineer")
    view = _api(eng, "POST", "/programmes/acme-l2/attempts").json()
    assert view["remaining_seconds"] == 45 * 60
    for item, choice in right_answers(view).items():
        _api(eng, "PUT", f"/attempts/{view['id']}/answers/{item}", json={"value": choice})
    _api(eng, "POST", f"/attempts/{view['id']}/finish")
    stats = _api(mgr, "GET", "/programmes/acme-l2/items").json()
    seen = [i for i in stats["items"] if i["attempts"]]
    assert len(seen) == 10 and all(i["facility"] == 1.0 and "too easy" in i["flags"] for i in seen)
    # per domain: facility, discrimination, alpha and KR-20 in the API, the CSV and the page
    assert [d["domain"] for d in stats["domains"]] == ["networking", "operations", "storage"]
    assert all(
        d["facility"] == 1.0 and {"discrimination", "alpha", "kr20"} <= d.keys() for d in stats["domains"]
    )
    csv_text = mgr.get("/exams/acme-l2/items.csv").text
    assert csv_text.splitlines()[0].startswith(
        "scope,item_id,domain,type,attempts,facility,discrimination,alpha,kr20"
    )
    assert [line.split(",")[0] for line in csv_text.splitlines()[1:]].count("domain") == 3
    page = mgr.get("/exams/acme-l2/items")
    assert page.status_code == 200 and "Retire" in page.text
    # the flags are codes in the API and the CSV, words on the page (in the page's language)
    german = mgr.get("/exams/acme-l2/items", headers={"Accept-Language": "de"}).text
    assert "<td>zu leicht, Distraktor selten gewählt</td>" in german and "too easy" not in german
    assert "too easy" in csv_text
    domain_table = page.text.split('id="domain-stats"')[1].split("</table>")[0]
    assert all(f">{d}</th>" in domain_table for d in ("networking", "operations", "storage"))
    assert "Cronbach" in domain_table and "KR-20" in domain_table and "<td>4</td>" in domain_table  # items
    item_table = page.text.split('id="item-stats"')[1]
    assert "Right networking" in item_table and "(right): 1" in item_table  # the options chosen
    assert "too easy" in item_table
    item = seen[0]["item_id"]
    r = mgr.post(f"/exams/acme-l2/items/{item}/retire", data={"csrf_token": mgr.csrf}, follow_redirects=False)
    assert r.status_code == 303
    stats = _api(mgr, "GET", "/programmes/acme-l2/items").json()
    assert next(i for i in stats["items"] if i["item_id"] == item)["retired"] is True


def test_openapi_examples_hold_no_answer_keys(exam_app: Any) -> None:
    from fastapi.testclient import TestClient

    doc = TestClient(exam_app).get("/api/v1/openapi.json").text
    assert (
        "/api/v1/attempts/{attempt_id}/answers/{item_id}" in doc
        or "/attempts/{attempt_id}/answers/{item_id}" in doc
    )
    spec = json.loads(doc)
    exam_paths = {p: v for p, v in spec["paths"].items() if "attempt" in p or "programmes" in p}
    text = json.dumps(exam_paths)
    assert "fraction" not in text and "feedback" not in text and "tolerance" not in text


def test_a_read_token_reads_but_cannot_start_or_save(exam_app: Any, world: World) -> None:
    from fastapi.testclient import TestClient
    from tests.web.conftest import token_for

    eng = logged_in(exam_app, "engineer")
    view = _api(eng, "POST", "/programmes/acme-l2/attempts").json()
    c = TestClient(exam_app, headers={"Authorization": "Bearer " + token_for(exam_app, "engineer", ["read"])})
    assert c.get("/api/v1/programmes").status_code == 200
    assert c.get(f"/api/v1/attempts/{view['id']}").status_code == 200
    item = view["questions"][0]["id"]
    assert c.put(f"/api/v1/attempts/{view['id']}/answers/{item}", json={"value": 0}).status_code == 403
    assert c.post("/api/v1/programmes/acme-l2/attempts").status_code == 403


def test_essays_await_marking_by_an_assessor_never_the_candidate(exam_app: Any, world: World) -> None:
    from tests.store.exam_helpers import setup_essay_programme
    from tests.web.conftest import PASSWORD

    with exam_app.state.db.session() as s:
        setup_essay_programme(s, world.org_id, exam_catalog())
        store.create_user(s, "grace", PASSWORD, "engineer", person_id=world.people["p2"])  # named assessor
    eng = logged_in(exam_app, "engineer")
    view = _api(eng, "POST", "/programmes/essay-l2/attempts").json()
    for q in view["questions"]:
        value = (
            "Cordon, drain, check."
            if q["type"] == "essay"
            else next(o["index"] for o in q["options"] if o["text"].startswith("Right"))
        )
        assert (
            _api(eng, "PUT", f"/attempts/{view['id']}/answers/{q['id']}", json={"value": value}).status_code
            == 200
        )
    done = _api(eng, "POST", f"/attempts/{view['id']}/finish").json()
    assert done["result"]["pending"] == ["net-essay"] and done["result"]["passed"] is False
    assert "Awaiting marking" in eng.get(f"/exams/attempts/{view['id']}").text
    # why no further attempt yet, in the candidate's language (the store's English, translated)
    german = eng.get(f"/exams/attempts/{view['id']}", headers={"Accept-Language": "de"}).text
    assert "<p>ein Versuch wartet auf die Bewertung.</p>" in german
    assert (
        "<p>ein Versuch wartet auf die Bewertung.</p>"
        in eng.get("/exams", headers={"Accept-Language": "de"}).text
    )
    # the candidate can neither list, read nor mark: 404, nothing stored
    assert _api(eng, "GET", "/programmes/essay-l2/marking").status_code == 404
    assert _api(eng, "GET", f"/attempts/{view['id']}/essays").status_code == 404
    r = _api(eng, "PUT", f"/attempts/{view['id']}/marks/net-essay", json={"mark": 1})
    assert r.status_code == 404
    assert eng.get(f"/exams/attempts/{view['id']}/marking").status_code == 404
    # a manager sees the queue and the essay on the marking page
    mgr = logged_in(exam_app, "manager")
    assert "1 attempt awaiting the marking of essays" in mgr.get("/exams").text
    [queued] = _api(mgr, "GET", "/programmes/essay-l2/marking").json()
    assert queued["attempt"] == view["id"] and queued["to_mark"] == 1
    page = mgr.get(f"/exams/attempts/{view['id']}/marking")
    assert page.status_code == 200 and "Cordon, drain, check." in page.text
    r = mgr.post(
        f"/exams/attempts/{view['id']}/marking",
        data={"csrf_token": mgr.csrf, "mark:net-essay": "2", "comment:net-essay": "x"},
    )
    assert r.status_code == 422 and "out of range" in r.text  # the mark is out of 1
    # the programme's named assessor marks it through the API: the result is decided
    grace = logged_in(exam_app, "grace")
    r = _api(grace, "PUT", f"/attempts/{view['id']}/marks/net-essay", json={"mark": 0.75, "comment": "Good."})
    assert r.status_code == 200, r.text
    assert r.json()["passed"] is True and r.json()["pending"] == []
    result = eng.get(f"/exams/attempts/{view['id']}").text
    assert "Passed" in result and "0.75 of 1.00. Good." in result
    with exam_app.state.db.session() as s:
        assert CERT in [c.cert_id for c in store.list_certifications(s, person_id=world.people["p1"])]
        marks = [e for e in store.list_audit(s, entity="exam_attempt") if e.action == "mark"]
        assert [(e.actor, e.after["mark"]) for e in marks] == [("grace", 0.75)]
    assert _api(mgr, "GET", "/programmes/essay-l2/marking").json() == []


def test_a_running_exam_keeps_the_session_and_csrf_token_valid(db: Any, world: World, tmp_path: Path) -> None:
    """Sessions last an hour here; the engineer logged in 50 minutes before starting a
    30-minute exam. The session is kept until the deadline plus the grace (fake clock),
    with the same CSRF token; a colleague logged in at the same time is logged out on time."""
    from gputeam.certify.programme import GRACE_SECONDS
    from gputeam.web import create_app

    extra = tmp_path / "extra.yaml"
    extra.write_text(yaml.safe_dump(EXTRA), "utf-8")
    app = create_app(
        make_settings(catalog_extra=str(extra), session_max_age=3600, session_idle_seconds=3600),
        database=db,
        today=TODAY,
    )
    with db.session() as s:
        setup_programme(s, world.org_id, exam_catalog())
    app.state.now = FakeClock(START - timedelta(minutes=50))
    eng, mgr = logged_in(app, "engineer"), logged_in(app, "manager")
    app.state.now.at = START
    r = eng.post("/exams/acme-l2/start", data={"csrf_token": eng.csrf}, follow_redirects=False)
    assert r.status_code == 303
    attempt_id = int(r.headers["location"].rsplit("/", 1)[1])
    view = eng.get(f"/api/v1/attempts/{attempt_id}").json()
    item = view["questions"][0]["id"]
    app.state.now.at = START + timedelta(minutes=25)  # past the login's hour
    assert mgr.get("/api/v1/me").status_code == 401  # no exam: expired as usual
    r = _api(eng, "PUT", f"/attempts/{attempt_id}/answers/{item}", json={"value": 0})
    assert r.status_code == 200, r.text  # the same CSRF token as before the start
    assert csrf_of(eng.get("/account").text) == eng.csrf
    app.state.now.at = START + timedelta(minutes=30, seconds=GRACE_SECONDS - 1)
    assert eng.get("/api/v1/me").status_code == 200
    app.state.now.at = START + timedelta(minutes=30, seconds=GRACE_SECONDS + 1)
    assert eng.get("/api/v1/me").status_code == 401  # then it ends like any other
    with db.session() as s:
        [entry] = [e for e in store.list_audit(s, entity="session") if e.action == "extend"]
        assert entry.actor == "engineer" and entry.after["reason"] == f"exam attempt {attempt_id} runs"


def test_the_session_cookie_outlives_its_age_until_the_exam_ends() -> None:
    import time

    from gputeam.web.security import Session, SessionSigner

    signer = SessionSigner("k" * 40, max_age=60)
    now = time.time()
    plain = signer.dumps(Session("sid-1", 1))
    assert signer.loads(plain, now + 30) == Session("sid-1", 1)
    assert signer.loads(plain, now + 120) is None
    kept = signer.dumps(Session("sid-1", 1, until=int(now) + 600))
    loaded = signer.loads(kept, now + 120)
    assert loaded is not None and loaded.sid == "sid-1" and loaded.uid == 1
    assert signer.csrf_token(loaded) == signer.csrf_token(Session("sid-1", 1))  # same CSRF token
    assert signer.loads(kept, now + 601) is None
    forged = kept[:-2] + ("AA" if not kept.endswith("AA") else "BB")
    assert signer.loads(forged, now) is None


def _strings(value: Any) -> set[str]:
    """Every text in a JSON document (a programme's own data: names, questions, feedback)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in _strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in _strings(v)}
    return set()


def test_exam_pages_in_the_pseudo_locale(exam_app: Any, world: World) -> None:
    """Every exam page a candidate, an assessor and a manager reach, in the pseudo-locale:
    no text of the pages' own is left untranslated (the programme's texts are its data)."""
    from tests.web.test_web_languages import _data, _untranslated

    eng = logged_in(exam_app, "engineer")
    eng.cookies.set("gputeam_lang", "xx")
    mgr = logged_in(exam_app, "manager")
    data = set(_data(exam_app, mgr, world))
    pages = {"candidate: exams": eng.get("/exams").text}
    view = _api(eng, "POST", "/programmes/acme-l2/attempts").json()
    data |= _strings(view)
    pages["candidate: attempt"] = eng.get(f"/exams/attempts/{view['id']}").text
    for item, choice in right_answers(view).items():
        _api(eng, "PUT", f"/attempts/{view['id']}/answers/{item}", json={"value": choice})
    data |= _strings(_api(eng, "POST", f"/attempts/{view['id']}/finish").json())
    pages["candidate: result"] = eng.get(f"/exams/attempts/{view['id']}").text
    data |= _strings(_api(mgr, "GET", "/programmes").json()) | _strings(
        _api(mgr, "GET", "/programmes/acme-l2/items").json()
    )
    data |= {"Drains a node", "acme-l2"}
    mgr.cookies.set("gputeam_lang", "xx")
    pages["manager: exams"] = mgr.get("/exams").text
    pages["manager: items"] = mgr.get("/exams/acme-l2/items").text
    pages["manager: marking"] = mgr.get("/exams/acme-l2/marking").text
    pages["manager: practical"] = mgr.get(f"/exams/acme-l2/practical/{world.people['p1']}").text
    assert "csrf_token" in pages["manager: practical"] and 'role="timer"' in pages["candidate: attempt"]
    found = {name: _untranslated(html, frozenset(data)) for name, html in pages.items()}
    assert found == {name: [] for name in pages}


def test_text_answers_save_while_typing_and_the_page_carries_the_retry_message(
    exam_app: Any, world: World
) -> None:
    """Essays and short answers are saved 2 s after the typing stops (htmx keyup), not only
    on change; choices on change. The "not saved" message comes from the server, translated."""
    from tests.store.exam_helpers import setup_essay_programme

    with exam_app.state.db.session() as s:
        setup_essay_programme(s, world.org_id, exam_catalog())
    eng = logged_in(exam_app, "engineer")
    r = eng.post("/exams/essay-l2/start", data={"csrf_token": eng.csrf}, follow_redirects=False)
    html = eng.get(r.headers["location"]).text
    fieldsets = re.findall(r"<fieldset [^>]*>.*?</fieldset>", html, re.S)
    essay = next(f for f in fieldsets if "<textarea" in f)
    assert 'hx-trigger="change, keyup changed delay:2s from:find .answer"' in essay
    assert 'class="answer"' in essay
    assert all('hx-trigger="change"' in f for f in fieldsets if f is not essay)
    assert 'data-not-saved="Not saved — retrying"' in html


def test_reads_finish_overdue_attempts_before_reporting(exam_app: Any, world: World) -> None:
    """The programme list, a person's attempts and item analysis finish the attempts whose
    time ran out before they report (the sweep need not have run)."""
    eng = logged_in(exam_app, "engineer")
    mgr = logged_in(exam_app, "manager")
    p1 = world.people["p1"]

    def started() -> int:
        r = _api(eng, "POST", "/programmes/acme-l2/attempts")
        assert r.status_code == 201, r.text
        return int(r.json()["id"])

    def state(attempt_id: int) -> str:
        with exam_app.state.db.session() as s:
            return str(s.get(ExamAttempt, attempt_id).state)

    first = started()
    exam_app.state.now.at = START + timedelta(hours=1)
    [listed] = _api(eng, "GET", "/programmes").json()
    assert listed["in_progress"] is None and listed["my_attempts"][0]["state"] == "finished"
    assert state(first) == "finished"

    exam_app.state.now.at = START + timedelta(days=8)
    eng = logged_in(exam_app, "engineer")  # a week later: the old session idled out long ago
    second = started()
    exam_app.state.now.at = START + timedelta(days=8, hours=1)
    eng, mgr = logged_in(exam_app, "engineer"), logged_in(exam_app, "manager")  # an hour idle
    [row, row2] = _api(mgr, "GET", f"/people/{p1}/attempts").json()
    assert (row2["id"], row2["state"]) == (second, "finished")

    with exam_app.state.db.session() as s:  # another candidate's attempt runs out too
        prog = store.get_programme(s, world.org_id, "acme-l2")
        third = store.start_attempt(
            s, prog, world.people["p2"], now=START + timedelta(days=8), catalog=exam_catalog()
        ).id
    stats = _api(mgr, "GET", "/programmes/acme-l2/items").json()
    assert stats["attempts"] == 3 and state(third) == "finished"
    page = eng.get("/exams")  # the page lists the finished attempts too
    assert page.status_code == 200 and "Resume" not in page.text


def test_blueprint_teams_decide_who_may_sit_and_what_the_list_shows(exam_app: Any, world: World) -> None:
    """A programme for team Beta only: the engineer (Alpha) does not see it on the exams
    page or in the API's list, and is refused when starting it anyway; the manager (who
    manages exams) still sees it; the programme open to everyone is listed for all."""
    with exam_app.state.db.session() as s:
        setup_programme(s, world.org_id, exam_catalog(), code="beta-only", teams=[world.beta])
    eng = logged_in(exam_app, "engineer")
    assert [p["code"] for p in _api(eng, "GET", "/programmes").json()] == ["acme-l2"]
    page = eng.get("/exams").text
    assert "acme-l2" in page and "beta-only" not in page
    r = _api(eng, "POST", "/programmes/beta-only/attempts")
    assert r.status_code == 422 and "not in a team that may sit" in r.text
    r = eng.post("/exams/beta-only/start", data={"csrf_token": eng.csrf}, follow_redirects=False)
    assert r.status_code == 422 and "not in a team that may sit" in r.text
    mgr = logged_in(exam_app, "manager")
    assert [p["code"] for p in _api(mgr, "GET", "/programmes").json()] == ["acme-l2", "beta-only"]


def test_every_item_analysis_flag_is_marked_for_translation() -> None:
    """The page shows the flags in the reader's language: each of certify's flags, the
    distractor flags included, has a translation in every language."""
    from gputeam.certify.analysis import FLAGS
    from gputeam.i18n import gettext as tr
    from gputeam.i18n import use

    assert "distractor chosen more than the key" in FLAGS
    for language in ("de", "nl", "es", "ko"):
        with use(language):
            assert all(tr(flag) != flag for flag in FLAGS), language
