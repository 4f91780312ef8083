"""A team lead's morning in headless Debian Chromium (issue 10 §1): log in as the manager,
filter the skills matrix to a team, open an expiring certification's person from the
certifications view, list the team's inactive people. A real uvicorn server."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from . import test_web_browser
from .conftest import PASSWORD, seed
from .test_web_browser import page, running_server  # noqa: F401 (page: a fixture)

pytestmark = test_web_browser.pytestmark  # Chromium, skipped (or failed under CI) without it


@pytest.fixture
def lead_site(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    from gputeam import store

    url = f"sqlite:///{tmp_path}/lead.db"
    db = store.open_database(url)
    world = seed(db)
    with db.session() as s:
        store.add_person(
            s, world.org_id, key="p9", name="Former Member", team_id=world.alpha, level=3, active=False
        )
        store.add_certification(
            s, world.people["p2"], "rhce", date(2023, 11, 22), date(2026, 11, 22)
        )  # expired before the server's today
    db.dispose()
    with running_server(url, tmp_path) as base:
        yield base, world


def test_team_lead_morning(lead_site: tuple[str, Any], page: Any) -> None:  # noqa: F811
    from playwright.sync_api import expect

    base, world = lead_site
    page.goto(base + "/login")
    page.fill("#username", "manager")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(base + "/")

    page.click("header >> text=Skills")
    matrix = page.locator("#skills-matrix")
    expect(matrix).to_contain_text("Ada Lovelace")
    expect(matrix).not_to_contain_text("Linus T")  # another team: not the manager's
    page.select_option("select[name=team]", str(world.alpha))
    page.select_option("select[name=group]", "foundation")
    page.click("form[aria-label='Filter the matrix'] >> button[type=submit]")
    expect(matrix.locator("thead")).to_contain_text("Linux administration")
    expect(matrix.locator("tbody tr")).to_have_count(2)
    expect(matrix.locator("tfoot")).to_contain_text("Bus factor")

    page.click("header >> text=Certifications")
    page.select_option("select[name=expiry]", "expired")
    page.click("form[aria-label='Filter the certifications'] >> button[type=submit]")
    table = page.locator("#certifications")
    expect(table).to_contain_text("Red Hat Certified Engineer")
    expect(table).to_contain_text("✗ expired")
    table.locator("text=Grace Hopper").click()
    expect(page.locator("h1")).to_contain_text("Grace Hopper")

    page.goto(base + "/people")
    page.select_option("select[name=status]", "inactive")
    page.click("form[aria-label='Filter people'] >> button[type=submit]")
    expect(page.locator("#people-rows")).to_contain_text("Former Member")
    page.click("#people-rows >> text=Former Member")
    expect(page.locator("h1")).to_contain_text("Former Member")
