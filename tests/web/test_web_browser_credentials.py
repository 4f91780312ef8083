"""Credentials end to end in headless Debian Chromium: an admin issues a credential for a
certification a person holds, the public share page verifies it, the downloaded file verifies
on /verify, and after revocation the share page says it is revoked. A real uvicorn server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from .test_web_browser import CHROMIUM, page, running_server  # noqa: F401, F811  (fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists() and os.environ.get("CI") != "true",
        reason=f"{CHROMIUM} is missing (apt-get install chromium); under CI=true this test fails instead",
    ),
]


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[tuple[str, int]]:
    from gputeam import store

    url = f"sqlite:///{tmp_path}/e2e.db"
    db = store.open_database(url)
    with db.session() as s:
        store.create_user(s, "root", "e2e password", "admin")
        org = store.create_organisation(s, "Acme")
        p = store.add_person(s, org.id, key="ada", name="Ada Lovelace", email="ada@acme.example", level=2)
        store.add_certification(s, p.id, "nca-aiio", date(2026, 6, 1), date(2028, 6, 1))
        person_id = p.id
    db.dispose()
    with running_server(url, tmp_path, GPUTEAM_ORGANISATION="Acme") as base:
        yield base, person_id


def test_issue_share_verify_revoke(
    seeded: tuple[str, int],
    page: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    server, person_id = seeded
    page.goto(server + "/login")
    page.fill("#username", "root")
    page.fill("#password", "e2e password")
    page.click("button[type=submit]")
    expect(page.locator("h1")).to_contain_text("Dashboard")

    page.goto(f"{server}/people/{person_id}/credentials")
    page.select_option("#achievement", "nca-aiio")
    page.click("text=Issue an Open Badges 3.0 credential")
    expect(page.locator(".flash")).to_contain_text("Credential issued")
    page.click("table a")  # the share page, as anyone with the link sees it
    expect(page.locator("#verification")).to_contain_text("Valid")
    expect(page.locator("#verification")).not_to_contain_text("FAILED")
    share = page.url

    with page.expect_download() as dl:
        page.click("text=Download the credential (JSON)")
    saved = tmp_path / "credential.json"
    dl.value.save_as(saved)
    page.goto(server + "/verify")
    page.set_input_files("#file", str(saved))
    page.click("form[action='/verify'] button[type=submit]")
    expect(page.locator("#verification")).to_contain_text("Valid")
    expect(page.locator("#verification")).to_contain_text("eddsa-rdfc-2022")

    page.goto(f"{server}/people/{person_id}/credentials")
    page.fill("#reason-1", "issued in error")
    page.click("button:has-text('Revoke')")
    expect(page.locator("table")).to_contain_text("revoked")
    page.goto(share)
    expect(page.locator("#verification")).to_contain_text("Not valid")
    expect(page.locator("#verification")).to_contain_text("revoked by the issuer")
