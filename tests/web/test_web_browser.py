"""End to end in headless Debian Chromium (Playwright): log in, import a roster, run and
save a plan with the what-if controls, see the dashboard. Runs a real uvicorn server."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROSTER_CSV, SECRET, create_pg_database, drop_pg_database

CHROMIUM = "/usr/bin/chromium"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists() and os.environ.get("CI") != "true",
        reason=f"{CHROMIUM} is missing (apt-get install chromium); under CI=true this test fails instead",
    ),
]


@contextmanager
def server_database(engine: str, request: pytest.FixtureRequest, folder: Path) -> Iterator[str]:
    """The URL of a new, empty database for a browser test's server on ``engine``
    ("sqlite" or "postgresql", the ids of ``ENGINES``): a SQLite file in ``folder``, or a
    PostgreSQL database of its own, created here and dropped afterwards (its server from
    ``pg_admin_url``: the test is skipped when it is unreachable, and fails under CI=true).
    The server process and the test's seeding both use it; migrations run when it is first
    opened."""
    if engine == "sqlite":
        yield f"sqlite:///{folder}/e2e.db"
        return
    admin: str = request.getfixturevalue("pg_admin_url")
    name = f"gputeam_e2e_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    url = create_pg_database(admin, name)
    try:
        yield url
    finally:
        drop_pg_database(admin, name)


def screenshot_folder(tmp_path: Path, engine: str) -> Path:
    """Where this walk's screenshots go: ``$GPUTEAM_SCREENSHOTS`` (default: ``screenshots/``
    in the test's temporary folder); the PostgreSQL walk's in its ``postgresql/`` folder."""
    shots = Path(os.environ.get("GPUTEAM_SCREENSHOTS") or tmp_path / "screenshots")
    if engine != "sqlite":
        shots = shots / engine
    shots.mkdir(parents=True, exist_ok=True)
    return shots


@contextmanager
def running_server(url: str, tmp_path: Path, **env_extra: str) -> Iterator[str]:
    """A real uvicorn server on a free port over the database ``url``; yields its base URL."""
    import httpx

    from .test_web_two_processes import _free_port

    port = _free_port()
    env = {**os.environ, "GPUTEAM_DB": url, "GPUTEAM_SECRET_KEY": SECRET, **env_extra}
    log = open(tmp_path / "server.log", "wb")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "gputeam.web:create_app_from_env",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base + "/login", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("server did not start: " + (tmp_path / "server.log").read_text())
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    from gputeam import store

    url = f"sqlite:///{tmp_path}/e2e.db"
    db = store.open_database(url)
    with db.session() as s:
        store.create_user(s, "root", "e2e password", "admin")
    db.dispose()
    with running_server(url, tmp_path) as base:
        yield base


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing and CI=true")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        pg = browser.new_page()
        pg.set_default_timeout(15_000)
        yield pg
        browser.close()


def test_login_import_plan_dashboard(server: str, page: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    page.goto(server + "/")
    expect(page).to_have_url(server + "/login?next=/")
    page.fill("#username", "root")
    page.fill("#password", "e2e password")
    page.click("button[type=submit]")
    expect(page.locator("h1")).to_contain_text("Dashboard")
    expect(page.locator("#headcount")).to_have_text("0")

    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER_CSV, "utf-8")
    page.click("text=Import")
    page.set_input_files("#file", str(roster))
    page.click("text=Upload and continue")  # the guided import: columns detected, then
    expect(page.locator("#col-0")).to_have_value("id")
    page.click("text=Preview the changes")
    expect(page.locator("#import-counts .card").first).to_have_text(re.compile(r"3\s*people to add"))
    page.click("#do-import")
    expect(page.locator("#import-result")).to_contain_text("Imported")

    page.goto(server + "/people")
    expect(page.locator("table")).to_contain_text("Grace Hopper")
    page.fill("input[name=search]", "linus")  # HTMX live search
    expect(page.locator("#people-rows")).not_to_contain_text("Grace Hopper")
    expect(page.locator("#people-rows")).to_contain_text("Linus T")

    page.click("text=Plan")
    expect(page.locator("#plan-result")).to_contain_text("Target headcount now")
    page.fill("input[name=gpus]", "1024")  # HTMX re-plans as the control changes
    expect(page.locator("#plan-result")).to_contain_text("1024 GPUs")
    page.fill("input[name=deadline_month]", "6")
    expect(page.locator("#plan-result")).to_contain_text("month 6")
    page.click("button[value=save]")
    expect(page.locator(".flash")).to_contain_text("Plan saved")

    page.click("text=Dashboard")
    expect(page.locator("#headcount")).to_have_text("3")
    expect(page.locator("body")).to_contain_text("Coverage at the deadline (month 6)")
    expect(page.locator("body")).to_contain_text("Bus factor per skill domain")
