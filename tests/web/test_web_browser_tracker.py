"""A team lead's morning in headless Debian Chromium (issue 10, done when), in one walk
and in this order over a real uvicorn server: log in, filter the skills matrix to a
team, open an expiring certification from the certifications view, enrol the team's two
people in a learning path, import a roster through the guided flow, save and adopt a
plan; then the inactive people reached from the list, and the team's manager adopting the
plan for their own team. On SQLite and on PostgreSQL (each walk its own database and
server). Each page is written as a screenshot (full page, PNG) to ``$GPUTEAM_SCREENSHOTS``
(default: ``screenshots/`` in the test's temporary folder; the PostgreSQL walk's in its
``postgresql/`` folder) for review."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from . import test_web_browser
from .conftest import ENGINES, PASSWORD, seed
from .test_web_browser import (  # noqa: F401 (page: a fixture)
    page,
    running_server,
    screenshot_folder,
    server_database,
)

pytestmark = test_web_browser.pytestmark  # Chromium, skipped (or failed under CI) without it


#: a roster as team leads keep them: a title above the header, a known person changed
#: and a new one
ROSTER = (
    "Alpha roster - exported this morning\n\n"
    "id,name,team,level,Linux\n"
    "p2,Grace Hopper,Alpha,3,3\n"
    "n1,Nora Newcomer,Alpha,1,2\n"
)


@pytest.fixture(params=ENGINES)
def lead_site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Any, str]]:
    """The server over a seeded database, on SQLite and on PostgreSQL."""
    from gputeam import store

    with server_database(request.param, request, tmp_path) as url:
        db = store.open_database(url)
        world = seed(db)
        today = date.today()  # the server's clock: statuses are counted from it
        with db.session() as s:
            store.add_person(
                s, world.org_id, key="p9", name="Former Member", team_id=world.alpha, level=3, active=False
            )
            store.add_certification(
                s,
                world.people["p2"],
                "rhce",
                today - timedelta(days=3 * 365 - 20),
                today + timedelta(days=20),
            )  # expiring within 30 days
        db.dispose()
        with running_server(url, tmp_path) as base:
            yield base, world, request.param


def test_team_lead_morning(lead_site: tuple[str, Any, str], page: Any, tmp_path: Path) -> None:  # noqa: F811
    from playwright.sync_api import expect

    base, world, engine = lead_site
    shots = screenshot_folder(tmp_path, engine)
    taken: list[str] = []

    def shot(name: str) -> None:
        page.screenshot(path=str(shots / f"morning-{name}.png"), full_page=True)
        taken.append(name)

    # log in
    page.goto(base + "/")
    expect(page).to_have_url(base + "/login?next=/")
    shot("login")
    page.fill("#username", "admin")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("h1")).to_contain_text("Dashboard")
    shot("dashboard")

    # the skills matrix, filtered to a team
    page.click("header >> text=Skills")
    matrix = page.locator("#skills-matrix")
    expect(matrix).to_contain_text("Linus T")  # everyone, before the filter
    page.select_option("select[name=team]", str(world.alpha))
    page.click("form[aria-label='Filter the matrix'] >> button[type=submit]")
    expect(matrix).not_to_contain_text("Linus T")
    expect(matrix.locator("tbody tr")).to_have_count(2)  # Ada and Grace (not the inactive one)
    expect(matrix.locator("tfoot")).to_contain_text("Bus factor")
    shot("skills-team")

    # an expiring certification, opened
    page.click("header >> text=Certifications")
    page.select_option("select[name=expiry]", "expiring-30")
    page.click("form[aria-label='Filter the certifications'] >> button[type=submit]")
    table = page.locator("#certifications")
    expect(table.locator("tbody tr")).to_have_count(1)
    expect(table).to_contain_text("Red Hat Certified Engineer")
    expect(table).to_contain_text("expiring")
    shot("certifications-expiring")
    table.locator("text=Grace Hopper").click()
    expect(page.locator("h1")).to_contain_text("Grace Hopper")
    expect(page.locator("main")).to_contain_text("Red Hat Certified Engineer")
    shot("person-expiring")

    # two people enrolled in a learning path, from their team's page
    page.click("header >> text=Teams")
    page.click("table >> text=Alpha")
    path_option = page.locator("select[name=target] option[value^='path:']").first
    page.select_option("select[name=target]", path_option.get_attribute("value"))
    page.fill("input[name=started_on]", date.today().isoformat())
    page.click("text=Enrol the active people")
    expect(page.locator(".flash")).to_contain_text("enrolments added")
    courses = int(re.match(r"\d+", page.locator(".flash").inner_text()).group())  # type: ignore[union-attr]
    assert courses > 0 and courses % 2 == 0  # each of the path's courses, for both people
    expect(page.locator("main")).to_contain_text("by 2 people")
    shot("team-enrolled")

    # a roster through the guided import
    roster = tmp_path / "alpha-roster.csv"
    roster.write_text(ROSTER, "utf-8")
    page.click("header >> text=Import")
    page.set_input_files("#file", str(roster))
    shot("import-upload")
    page.click("text=Upload and continue")
    expect(page.locator("#col-0")).to_have_value("id")  # the header found below the title
    shot("import-columns")
    page.click("text=Preview the changes")
    expect(page.locator("#import-counts")).to_contain_text(re.compile(r"1\s*people to add"))
    expect(page.locator("#changes")).to_contain_text("level: 2 → 3")  # Grace's row
    expect(page.locator("#added")).to_contain_text("Nora Newcomer")  # the person to add, by name
    shot("import-preview")
    page.click("#do-import")
    expect(page.locator("#import-result")).to_contain_text("Imported")
    shot("import-done")

    # a plan saved and adopted
    page.click("header >> text=Plan")
    expect(page.locator("#plan-result")).to_contain_text("Target headcount now")
    page.click("button[value=save]")
    expect(page.locator(".flash")).to_contain_text("Plan saved")
    page.click("text=Adopt the saved plan's roadmaps")
    expect(page.locator(".flash")).to_contain_text("roadmap items added")
    shot("plan-adopted")

    # the newcomer is on the team page, the inactive member in the people list
    page.click("header >> text=Teams")
    page.click("table >> text=Alpha")
    expect(page.locator("main")).to_contain_text("Nora Newcomer")
    shot("team-after")
    page.goto(base + "/people?status=inactive")
    expect(page.locator("#people-rows")).to_contain_text("Former Member")
    shot("people-inactive")
    page.click("#people-rows >> text=Former Member")
    expect(page.locator("h1")).to_contain_text("Former Member")
    shot("person-inactive")

    # the team's manager adopts the saved plan for their own team: what the admin adopted
    # for everyone is there already, the other teams' roadmaps are left alone
    page.click("text=Log out")
    page.fill("#username", "manager")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.click("header >> text=Teams")
    page.click("table >> text=Alpha")
    page.click("text=Adopt the saved plan's roadmaps for this team")
    expect(page.locator(".flash")).to_contain_text("already on people's roadmaps")
    expect(page.locator(".flash")).to_contain_text("outside the team left alone")
    shot("team-manager-adopted")

    assert sorted(p.name for p in shots.glob("morning-*.png")) == sorted(f"morning-{n}.png" for n in taken)
