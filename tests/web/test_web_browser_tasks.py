"""End to end in headless Debian Chromium: a team lead's tasks (issue 10 §2). An admin
enrols a team of two in a learning path, marks a course done, sees an invalid what-if
input named beside its field (htmx, out of band) with no stale result, saves and adopts
the plan, and sees plan against actual on the team page. On SQLite and on PostgreSQL.
Screenshots of each page go to ``$GPUTEAM_SCREENSHOTS`` (default: ``screenshots/`` in the
test's temporary folder; PostgreSQL's in its ``postgresql/`` folder) for review."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import test_web_browser
from .conftest import ENGINES, ROSTER_CSV
from .test_web_browser import (  # noqa: F401 (page: a fixture)
    page,
    running_server,
    screenshot_folder,
    server_database,
)

pytestmark = test_web_browser.pytestmark  # Chromium, skipped (or failed under CI) without it


@pytest.fixture(params=ENGINES)
def seeded(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """The server over a roster, on SQLite and on PostgreSQL; its address and the engine."""
    from gputeam import store

    with server_database(request.param, request, tmp_path) as url:
        db = store.open_database(url)
        with db.session() as s:
            org = store.get_or_create_organisation(s, "Acme")
            store.import_roster(s, org.id, ROSTER_CSV.encode(), filename="roster.csv")
            store.create_user(s, "lead", "e2e password", "admin")
        db.dispose()
        with running_server(url, tmp_path) as base:
            yield base, request.param


def test_a_team_leads_tasks(seeded: tuple[str, str], page: Any, tmp_path: Path) -> None:  # noqa: F811
    from playwright.sync_api import expect

    base, engine = seeded
    shots = screenshot_folder(tmp_path, engine)

    def shot(name: str) -> None:
        page.screenshot(path=str(shots / f"tracker-{name}.png"), full_page=True)

    page.goto(base + "/login")
    page.fill("#username", "lead")
    page.fill("#password", "e2e password")
    page.click("button[type=submit]")
    page.click("header >> text=Teams")
    expect(page.locator("table")).to_contain_text("Alpha")
    shot("teams")
    page.click("table >> text=Alpha")
    path_option = page.locator("select[name=target] option[value^='path:']").first
    page.select_option("select[name=target]", path_option.get_attribute("value"))
    page.fill("input[name=started_on]", "2026-11-02")
    page.click("text=Enrol the active people")
    expect(page.locator(".flash")).to_contain_text("enrolments added")
    expect(page.locator("main")).to_contain_text("Ada Lovelace")
    expect(page.locator("main")).to_contain_text("Grace Hopper")
    shot("team")

    page.click("table >> text=Ada Lovelace")
    page.locator("button:has-text('Mark done')").first.click()
    expect(page.locator(".flash")).to_contain_text("Course done")
    shot("person")

    page.click("header >> text=Plan")
    expect(page.locator("#plan-result")).to_contain_text("Target headcount now")
    page.fill("input[name=gpus]", "-3")  # htmx: the message beside the field, no old result
    expect(page.locator("#err-gpus")).to_contain_text("GPUs (peak): Input should be greater than or equal")
    expect(page.locator("#plan-result")).not_to_contain_text("Target headcount now")
    shot("plan-invalid")
    page.fill("input[name=gpus]", "256")
    expect(page.locator("#plan-result")).to_contain_text("256 GPUs")
    expect(page.locator("#err-gpus")).to_have_text("")
    page.click("button[value=save]")
    expect(page.locator(".flash")).to_contain_text("Plan saved")
    page.click("text=Adopt the saved plan's roadmaps")
    expect(page.locator(".flash")).to_contain_text("roadmap items added")
    page.click("text=Adopt the saved plan's roadmaps")
    expect(page.locator(".flash")).to_contain_text("0 roadmap items added")
    shot("plan-adopted")

    page.click("header >> text=Teams")
    page.click("table >> text=Alpha")
    expect(page.locator("svg.burnup")).to_be_visible()
    shot("team-burnup")
    page.click("header >> text=Export")
    with page.expect_download() as download:
        page.click("text=Download")
    assert download.value.suggested_filename.endswith(".json")
    assert sorted(p.name for p in shots.glob("tracker-*.png")) == sorted(
        f"tracker-{n}.png" for n in ("teams", "team", "person", "plan-invalid", "plan-adopted", "team-burnup")
    )
