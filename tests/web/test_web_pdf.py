"""The plan page's PDF download (/plan/report.pdf) on SQLite and PostgreSQL: a viewer's and an admin's
Letter render per engine, checked with poppler-utils; the errors without a plan, with a bad paper
size and without Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.pdf_tools import need_pdf_tools, tool

from gputeam.report import pdf

from .conftest import World, logged_in


def test_pdf_download_of_the_saved_plan(app: Any, world: World, tmp_path: Path) -> None:
    need_pdf_tools()
    viewer = logged_in(app, "viewer")
    assert "/plan/report.pdf" not in viewer.get("/plan").text  # nothing to download yet
    r = viewer.get("/plan/report.pdf")
    assert r.status_code == 404 and "No plan has been saved yet" in r.text
    manager = logged_in(app, "manager")
    r = manager.post(
        "/plan",
        data={"gpus": "256", "deadline_month": "6", "action": "save", "csrf_token": manager.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert 'href="/plan/report.pdf?paper=letter"' in viewer.get("/plan").text
    r = viewer.get("/plan/report.pdf", params={"paper": "letter"})
    assert r.status_code == 200, r.text[:500]
    assert r.headers["content-type"] == "application/pdf"
    assert r.headers["content-disposition"] == 'attachment; filename="gputeam-plan-v1-letter.pdf"'
    path = tmp_path / "plan.pdf"
    path.write_bytes(r.content)
    info = tool("pdfinfo", path)
    assert "612 x 792 pts (letter)" in info
    text = tool("pdftotext", path, "-")
    # a viewer reads aggregates only: the plan's people are not named in their copy
    assert "Team plan: Acme" in text and "Contents" in text and "Ada Lovelace" not in text
    admin = logged_in(app, "admin")
    path.write_bytes(admin.get("/plan/report.pdf", params={"paper": "letter"}).content)
    assert "Ada Lovelace" in tool("pdftotext", path, "-")  # an admin reads everyone
    assert viewer.get("/plan/report.pdf", params={"paper": "a3"}).status_code == 422


def test_pdf_download_without_chromium_says_what_to_install(
    app: Any, world: World, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(pdf.CHROMIUM_ENV, str(tmp_path / "no-chromium"))
    c = logged_in(app, "manager")
    r = c.get("/plan/report.pdf")  # no saved plan: a manager gets the live team planned now
    assert r.status_code == 503
    assert "apt-get install chromium" in r.text and "Debian package chromium" in r.text
