"""An exam end to end in headless Chromium on a real server: start, answer (saved on
change), lose the connection (the answer given offline is queued, the page says it is not
saved yet, and it is sent once the connection is back), come back and resume (the same form,
the saved answers still there), run out of time (the server refuses the
late save, the page reloads), see the per-domain results."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.store.exam_helpers import EXTRA, exam_catalog, setup_programme

from .test_web_browser import page, pytestmark, running_server  # noqa: F401, F811  (fixture)


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    from gputeam import store

    url = f"sqlite:///{tmp_path}/e2e.db"
    extra = tmp_path / "extra.yaml"
    extra.write_text(yaml.safe_dump(EXTRA), "utf-8")
    db = store.open_database(url)
    with db.session() as s:
        org = store.create_organisation(s, "Acme")
        p = store.add_person(s, org.id, key="ada", name="Ada Lovelace", level=2)
        store.create_user(s, "ada", "e2e password", "engineer", person_id=p.id)
        setup_programme(s, org.id, exam_catalog())
    with running_server(url, tmp_path, GPUTEAM_ORGANISATION="Acme", GPUTEAM_CATALOG_EXTRA=str(extra)) as base:
        yield base, db
    db.dispose()


def test_sit_lose_connection_resume_run_out_of_time(
    seeded: tuple[str, Any],
    page: Any,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    from gputeam import store
    from gputeam.store.schema_exams import ExamAttempt

    server, db = seeded
    page.goto(server + "/login")
    page.fill("#username", "ada")
    page.fill("#password", "e2e password")
    page.click("button[type=submit]")
    page.goto(server + "/exams")
    page.click("text=Start the exam")
    expect(page.locator("[role=timer]")).to_contain_text("min")
    expect(page.locator("#timer-announce")).to_have_text("")  # no per-second announcements
    questions = page.locator("fieldset.question")
    expect(questions).to_have_count(10)
    first_text = questions.nth(0).locator(".qtext").inner_text()
    questions.nth(0).locator("input[type=radio]").nth(1).check()
    expect(page.locator("#save-status")).to_contain_text("Saved")

    page.context.set_offline(True)  # the connection drops: this answer cannot reach the server yet
    questions.nth(1).locator("input[type=radio]").nth(2).check()
    expect(page.locator("#save-status")).to_contain_text("Not saved — retrying")
    expect(page.locator("#timer-announce")).to_have_text("Not saved — retrying")
    with db.session() as s:
        attempt_id = s.query(ExamAttempt).one().id
        assert len(store.exams.saved_answers(s, attempt_id)) == 1
    page.context.set_offline(False)  # back online: the queued answer is sent again
    expect(page.locator("#save-status")).to_contain_text("Saved", timeout=15_000)
    with db.session() as s:  # on the server: the answer given offline is stored
        assert len(store.exams.saved_answers(s, attempt_id)) == 2

    page.reload()  # resume: the same form, in the same order, with what was saved
    questions = page.locator("fieldset.question")
    assert questions.nth(0).locator(".qtext").inner_text() == first_text
    expect(questions.nth(0).locator("input[type=radio]").nth(1)).to_be_checked()
    expect(questions.nth(1).locator("input[type=radio]").nth(2)).to_be_checked()
    assert page.evaluate("Object.keys(sessionStorage).length") == 0  # nothing left queued

    with db.session() as s:  # time passes: the deadline and the grace are over
        attempt = s.query(ExamAttempt).one()
        attempt.deadline = datetime.now(UTC) - timedelta(seconds=60)
        attempt_id = attempt.id
    # refused (409), and the page reloads: click, not check (the input goes with the page)
    questions.nth(2).locator("input[type=radio]").nth(0).click()
    expect(page.locator("h2")).to_contain_text("Not passed", timeout=20_000)
    expect(page.locator("main")).to_contain_text("Time ran out")
    expect(page.locator("table")).to_contain_text("Networking fundamentals")
    expect(page.locator("main")).to_contain_text("Next attempt allowed from")
    with db.session() as s:
        row = s.get(ExamAttempt, attempt_id)
        assert (row.state, row.finished_how) == ("finished", "timeout")
        assert len([v for v in store.exams.saved_answers(s, attempt_id).values() if v is not None]) == 2


@pytest.fixture
def seeded_practical(tmp_path: Path) -> Iterator[tuple[str, Any, int]]:
    """A programme with a practical whose named assessor is the candidate herself (Ada), and
    her team's manager, who may assess her."""
    from gputeam import store

    url = f"sqlite:///{tmp_path}/e2e.db"
    extra = tmp_path / "extra.yaml"
    extra.write_text(yaml.safe_dump(EXTRA), "utf-8")
    db = store.open_database(url)
    with db.session() as s:
        org = store.create_organisation(s, "Acme")
        team = store.create_team(s, org.id, "Ops")
        p = store.add_person(s, org.id, key="ada", name="Ada Lovelace", level=2, team_id=team.id)
        store.create_user(s, "ada", "e2e password", "engineer", person_id=p.id)
        # a manager assesses the people of their teams (issue 20: a manager's reach)
        store.create_user(s, "grace", "e2e password", "manager", team_ids=[team.id])
        prog = setup_programme(s, org.id, exam_catalog(), rubric=[{"id": "drain", "name": "Drains a node"}])
        spec = dict(prog.spec)
        store.save_programme(s, org.id, "acme-l2", {**spec, "assessors": ["ada"]}, catalog=exam_catalog())
        ada = p.id
    with running_server(url, tmp_path, GPUTEAM_ORGANISATION="Acme", GPUTEAM_CATALOG_EXTRA=str(extra)) as base:
        yield base, db, ada
    db.dispose()


def _login(tab: Any, server: str, user: str) -> None:
    tab.goto(server + "/login")
    tab.fill("#username", user)
    tab.fill("#password", "e2e password")
    tab.click("button[type=submit]")
    tab.wait_for_url(server + "/")


def test_timer_announces_10_5_1_minutes_and_an_assessor_signs_the_practical_off(
    seeded_practical: tuple[str, Any, int],
    page: Any,  # noqa: F811
) -> None:
    """The timer is role=timer with a polite live region that speaks at 10, 5 and 1 minutes
    left and at no other time (the browser's clock run forward); the candidate passes the
    exam, cannot sign her own practical off even as a named assessor, and a manager signs
    it off from the marking page: the certification is recorded."""
    from playwright.sync_api import expect

    from gputeam import store
    from gputeam.store.schema_exams import ExamAttempt, Programme

    server, db, ada = seeded_practical
    page.clock.install()
    _login(page, server, "ada")
    page.goto(server + "/exams")
    page.click("text=Start the exam")
    expect(page.locator("[role=timer]")).to_contain_text("min")
    with db.session() as s:  # ten minutes and two seconds left
        attempt = s.query(ExamAttempt).one()
        attempt.deadline = datetime.now(UTC) + timedelta(seconds=602)
    page.reload()
    timer, announce = page.locator("#timer"), page.locator("#timer-announce")
    expect(timer).to_have_attribute("role", "timer")
    expect(announce).to_have_attribute("aria-live", "polite")
    expect(announce).to_have_text("")
    page.evaluate(
        """() => { const region = document.getElementById('timer-announce'); window.spoken = [];
        new MutationObserver(() => window.spoken.push(region.textContent))
          .observe(region, {childList: true, characterData: true, subtree: true}); }"""
    )
    page.clock.run_for(4_000)
    expect(announce).to_have_text("10 minutes left")
    page.clock.run_for(60_000)  # a minute of ticking: nothing more is said
    assert page.evaluate("window.spoken") == ["10 minutes left"]
    page.clock.run_for(240_000)
    expect(announce).to_have_text("5 minutes left")
    page.clock.run_for(240_000)
    expect(announce).to_have_text("1 minute left")
    assert page.evaluate("window.spoken") == ["10 minutes left", "5 minutes left", "1 minute left"]
    expect(timer).to_contain_text("0 min")

    for q in page.locator("fieldset.question").all():  # every right answer, saved on change
        q.locator("label:has-text('Right') input").check()
    page.click("text=Hand in and see my result")
    expect(page.locator("h2")).to_contain_text("Passed")

    # the candidate, a named assessor of this programme, cannot sign off her own practical
    page.goto(f"{server}/exams/acme-l2/practical/{ada}")
    expect(page.locator("main")).to_contain_text("You cannot assess your own practical")
    expect(page.locator("button:has-text('Save and sign off')")).to_have_count(0)

    page.context.clear_cookies()
    _login(page, server, "grace")
    page.goto(server + "/exams")
    page.click("text=Marking and practical sign-off")
    page.click("a:has-text('Ada Lovelace')")
    page.check("input[name='grade:drain'][value='met']")
    page.fill("input[name='evidence:drain']", "https://wiki.acme.example/lab/42")
    page.click("text=Save and sign off")
    expect(page.locator("main")).to_contain_text("Signed off: pass")
    with db.session() as s:
        held = store.list_certifications(s, person_id=ada)
        assert [c.cert_id for c in held] == ["acme-operator-l2"]
        [row] = store.list_assessments(s, s.query(Programme).one().id, ada)
        assert (row.assessor, row.outcome) == ("grace", "pass")
