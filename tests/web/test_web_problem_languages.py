"""Problems in the page's language: the guided import's (the store's English reasons,
expectations and hints, translated where the page shows them, gputeam.i18n.messages) and
the request limits' problem documents."""

from __future__ import annotations

import re
from typing import Any

from .conftest import World, logged_in
from .test_web_languages import _untranslated

BAD = (
    b"Employee,Full name,Grade,E-mail\n"
    b"p1,Ada Lovelace,nine,ada@example.org\n"
    b"p1,Ada Again,2,\n"
    b"n2,,1,not-an-address\n"
    b",Nobody,1,\n"
    b"n3,Tab\tName,7,ADA@example.org\n"
)


def _problems_page(c: Any) -> str:
    r = c.post(
        "/import",
        data={"kind": "roster", "csrf_token": c.csrf},
        files={"file": ("roster.csv", BAD, "text/csv")},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    form = {"csrf_token": c.csrf, "header_row": "1", "col-0": "id", "col-1": "name", "col-2": "level"}
    r = c.post(r.headers["location"] + "/import", data={**form, "col-3": "email"})
    assert r.status_code == 422, r.text
    return r.text


def test_import_problems_in_the_pseudo_locale(app: Any, world: World) -> None:
    c = logged_in(app, "admin")
    c.cookies.set("gputeam_lang", "xx")
    page = _problems_page(c)
    table = re.search(r'<table id="problems">.*?</table>', page, re.S)
    assert table and table.group(0).count("<tr>") >= 7
    # the row, column and value cells hold the file's own text
    data = {"roster.csv", "Employee", "Full name", "Grade", "E-mail", "Ada Lovelace", "p1", "n2", "n3"}
    data |= {"'nine'", "'not-an-address'", "'ADA@example.org'", "'Tab\\\\tName'", "'7'", "&#39;"}
    wrong = []
    for row in re.findall(r"<tr><td.*?</tr>", table.group(0)):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        data |= set(cells[:3])  # row, column and value: the file's own text
        # what is wrong: nothing outside ⟦…⟧ (the pseudo-locale's marks) but punctuation
        rest = cells[3]
        while "⟦" in rest:
            rest, n = re.subn(r"⟦[^⟦⟧]*⟧", "", rest)
            assert n, cells[3]
        if re.search(r"[^\W\d_]", rest):
            wrong.append(cells[3])
    assert wrong == [] and _untranslated(page, frozenset(data)) == []
    english = logged_in(app, "admin")
    assert "duplicate id (first at row 2)" in _problems_page(english)


def test_import_problems_in_korean(app: Any, world: World) -> None:
    c = logged_in(app, "admin")
    c.cookies.set("gputeam_lang", "ko")
    page = _problems_page(c)
    assert "중복된 ID(2행에 처음 나옴)" in page and "이메일 주소가 아닙니다" in page
    assert "새 인원의 이름이 없습니다" in page and "duplicate" not in page and "missing" not in page


def test_request_limit_problems_in_the_language(app: Any, world: World) -> None:
    """The request limits' problem documents (before any route runs) in the request's
    language: a body over the limit (413) and a NUL character (422)."""
    from fastapi.testclient import TestClient

    c = TestClient(app)
    big = {"Content-Type": "application/json", "Content-Length": str(3 * 1024 * 1024)}
    r = c.post("/api/v1/people", content=b"{}", headers={**big, "Accept-Language": "de"})
    assert r.status_code == 413
    assert r.json()["title"] == "Zu groß"
    assert r.json()["detail"] == "der Inhalt der Anfrage ist größer als 2 MB"
    r = c.get("/api/v1/people?q=a%00b", headers={"Accept-Language": "ko"})
    assert r.status_code == 422 and r.json()["title"] == "잘못된 요청"
    assert r.json()["detail"] == "요청에 NUL 문자가 있습니다"
    assert r.json()["problems"][0]["message"] == "NUL 문자가 포함되어 있습니다(주소)"
    r = c.get("/api/v1/people?q=a%00b")
    assert r.json()["title"] == "Invalid request" and r.json()["detail"] == "a NUL character in the request"


def test_a_refused_form_says_the_stores_reason_in_the_language(app: Any, world: World) -> None:
    """A team form refused by the store (a name taken) reads in the page's language."""
    c = logged_in(app, "admin")
    c.cookies.set("gputeam_lang", "ko")
    r = c.post("/teams", data={"name": "Alpha", "csrf_token": c.csrf})
    assert r.status_code == 422 and "이 이름의 팀이 이미 있습니다 (Alpha)" in r.text
    c.cookies.set("gputeam_lang", "en")
    r = c.post("/teams", data={"name": "Alpha", "csrf_token": c.csrf})
    assert r.status_code == 422 and "a team with this name exists (Alpha)" in r.text
