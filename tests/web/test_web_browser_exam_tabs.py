"""The finding, in headless Chromium on a real server: two tabs of one exam. Tab A is
opened first; tab B answers all ten questions (each saved on change, its page keeping the
sequence numbers its saves return, so changing an answer again is saved too). Then tab A,
its page still showing nothing answered, changes a question (refused: "this page is out
of date", the page is not reloaded by itself) and hands in (refused, 409: the attempt stays
open and the ten answers are kept). Reloaded, tab A shows tab B's answers and hands in:
passed."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from .test_web_browser import page, pytestmark  # noqa: F401  (fixture)
from .test_web_browser_exams import seeded  # noqa: F401  (fixture)

STALE = "this page is out of date"


def _until(check: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"not reached in {timeout} s: {what}")
        time.sleep(0.1)


def test_a_stale_tab_cannot_wipe_the_answers_of_another(
    seeded: tuple[str, Any],  # noqa: F811
    page: Any,  # noqa: F811
) -> None:
    from gputeam.store.schema_exams import ExamAnswer, ExamAttempt

    server, db = seeded

    def stored() -> dict[str, tuple[int, Any]]:
        with db.session() as s:
            return {a.item_id: (a.sequence, a.response) for a in s.query(ExamAnswer).all()}

    def state() -> str:
        with db.session() as s:
            return s.query(ExamAttempt).one().state

    page.goto(server + "/login")
    page.fill("#username", "ada")
    page.fill("#password", "e2e password")
    page.click("button[type=submit]")
    page.goto(server + "/exams")
    page.click("text=Start the exam")
    tab_a = page
    expect(tab_a.locator("fieldset.question")).to_have_count(10)
    url = tab_a.url
    # a second tab of the same browser (the same session cookie)
    other = page.context.browser.new_context(locale="en-GB")
    other.add_cookies(page.context.cookies())
    tab_b = other.new_page()
    tab_b.goto(url)
    questions = tab_b.locator("fieldset.question")
    expect(questions).to_have_count(10)
    for n in range(10):  # tab B answers everything right, one save per question
        questions.nth(n).locator("label", has_text="Right").locator("input").check()
        _until(lambda n=n: len(stored()) == n + 1, f"answer {n + 1} stored")
    # tab B changes its mind twice on question 1: its own page is never out of date
    first = questions.nth(0)
    first.locator("label", has_text="Wrong A").locator("input").check()
    _until(lambda: max(seq for seq, _ in stored().values()) == 2, "the change stored")
    first.locator("label", has_text="Right").locator("input").check()
    _until(lambda: max(seq for seq, _ in stored().values()) == 3, "the change back stored")
    expect(tab_b.locator("#save-status")).to_contain_text("Saved")
    answers = stored()
    assert len(answers) == 10 and all(r is not None for _, r in answers.values())

    # tab A, opened before all that: its change to question 2 is refused in words
    a_questions = tab_a.locator("fieldset.question")
    a_questions.nth(1).locator("label", has_text="Wrong B").locator("input").check()
    expect(tab_a.locator("#save-status")).to_contain_text(STALE)
    expect(tab_a.locator("#save-status [href]")).to_have_text("Reload the page")
    assert tab_a.evaluate("Object.keys(sessionStorage).length") == 0  # refused: not queued
    assert stored() == answers
    # tab A hands in its (out-of-date, mostly empty) form: refused, the attempt stays open
    with tab_a.expect_navigation():
        tab_a.click("text=Hand in and see my result")
    expect(tab_a.locator("p.flash.error[role=alert]")).to_contain_text(STALE)
    assert state() == "in_progress" and stored() == answers
    # the page shown is the attempt as it is now: tab B's answers, and the hand-in works
    expect(tab_a.locator("fieldset.question input:checked")).to_have_count(10)
    assert tab_a.url.endswith("/finish")  # a reload of the attempt itself shows the same
    tab_a.goto(url)
    expect(tab_a.locator("fieldset.question input:checked")).to_have_count(10)
    with tab_a.expect_navigation():
        tab_a.click("text=Hand in and see my result")
    expect(tab_a.locator("h2")).to_contain_text("Passed")
    assert state() == "finished"
    other.close()
