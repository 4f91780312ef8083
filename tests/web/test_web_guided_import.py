"""The guided import through the pages (issue 10), on SQLite and PostgreSQL: upload, sheet
and detected header row, mapping with dropdowns, preview of per-row changes, import, the
result page; a malformed file is refused at upload with nothing written; another user's
upload token is refused; an upload is deleted after its import and after an hour."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from gputeam import store

from .conftest import PASSWORD, World, logged_in

TITLED = (
    b"GPU team roster - exported 2026-11-30\n\n"
    b"Employee,Full name,Grade,Linux,Shoe size\n"
    b"p1,Ada King,2,3,38\n"
    b"p2,Grace Hopper,4,2,40\n"
    b"n1,New Person,1,1,42\n"
)


@pytest.fixture
def admin(app: Any) -> Any:
    return logged_in(app, "admin")


def _upload(c: Any, data: bytes, name: str = "roster.csv", kind: str = "roster") -> Any:
    return c.post(
        "/import",
        data={"kind": kind, "csrf_token": c.csrf},
        files={"file": (name, data, "text/csv")},
        follow_redirects=False,
    )


def _token(r: Any) -> str:
    assert r.status_code == 303, r.text
    m = re.fullmatch(r"/import/([A-Za-z0-9_-]+)", r.headers["location"])
    assert m, r.headers["location"]
    return m.group(1)


def _selected(html: str, index: int) -> str:
    m = re.search(rf'<select id="col-{index}" name="col-{index}"[^>]*>(.*?)</select>', html, re.S)
    assert m, f"no dropdown for column {index}"
    chosen = re.search(r'<option value="([^"]*)"(?: lang="en")? selected>', m.group(1))
    return chosen.group(1) if chosen else ""


def _names(db: Any, world: World) -> dict[str, tuple[str, int]]:
    with db.session() as s:
        return {p.key: (p.name, p.level) for p in store.list_people(s, world.org_id, active=None)}


def test_upload_map_preview_import(admin: Any, app: Any, db: Any, world: World) -> None:
    token = _token(_upload(admin, TITLED))
    page = admin.get(f"/import/{token}")
    assert page.status_code == 200
    html = page.text
    # the header below the title is detected, and the title row offered instead
    assert 'id="header-found">Header on row <strong>3</strong> (detected below a title)' in html
    assert '<option value="1">Row 1: GPU team roster' in html
    assert '<option value="3" selected>Row 3 (detected): Employee, Full name' in html
    # detected fields are chosen in the dropdowns; the unknown column needs a choice
    assert [_selected(html, i) for i in range(5)] == ["id", "name", "", "skill:linux", ""]
    assert "Ada King, Grace Hopper" in html  # first values, to recognise a column by

    form = {
        "csrf_token": admin.csrf,
        "header_row": "3",
        "col-0": "id",
        "col-1": "name",
        "col-3": "skill:linux",
        "col-4": "-",
    }
    r = admin.post(f"/import/{token}/preview", data=form)  # Grade left unchosen
    assert r.status_code == 422
    assert 'aria-invalid="true" aria-describedby="err-col-2"' in r.text
    assert "choose the field this column holds" in r.text
    assert _selected(r.text, 1) == "name" and _selected(r.text, 4) == "-"  # values kept

    form["col-2"] = "level"
    r = admin.post(f"/import/{token}/preview", data=form)
    assert r.status_code == 200, r.text
    assert "Nothing is written yet" in r.text
    counts = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.text.split('id="import-counts"')[1]))
    assert "1 people to add 2 people to change 0 unchanged" in counts
    assert '<strong lang="en">name</strong>: Ada Lovelace → Ada King' in r.text
    assert "<strong>skill: Linux administration</strong>: 3 → 2" in r.text  # p2, by name
    assert '<strong lang="en">level</strong>: 2 → 4' in r.text
    assert _names(db, world)["p1"] == ("Ada Lovelace", 2)  # nothing written by a preview
    assert "n1" not in _names(db, world)
    # back to the columns keeps the choices
    back = re.search(r'href="(/import/[^"?]+\?[^"]+)">Back to the columns', r.text)
    assert back and _selected(admin.get(back.group(1).replace("&amp;", "&")).text, 2) == "level"

    r = admin.post(f"/import/{token}/import", data=form)
    assert r.status_code == 200, r.text
    assert "Imported: the changes below are saved." in r.text
    assert '1</div><div class="label">people added' in r.text
    people = _names(db, world)
    assert people["p1"] == ("Ada King", 2) and people["p2"] == ("Grace Hopper", 4)
    assert people["n1"] == ("New Person", 1)
    # the upload is gone once imported
    assert admin.get(f"/import/{token}").status_code == 404
    assert admin.post(f"/import/{token}/import", data=form).status_code == 404
    assert not list((app.state.uploads.directory).iterdir())


def test_problems_are_listed_with_row_and_column(admin: Any, db: Any, world: World) -> None:
    bad = b"id,name,level\np1,Ada,2\np2,Grace,nine\n"
    token = _token(_upload(admin, bad))
    r = admin.post(
        f"/import/{token}/import",
        data={"csrf_token": admin.csrf, "header_row": "1", "col-0": "id", "col-1": "name", "col-2": "level"},
    )
    assert r.status_code == 422
    assert "Nothing was imported: 1 problem" in r.text
    row = re.search(r'<tr><td class="n">3</td><td>level</td><td>&#39;nine&#39;</td>', r.text)
    assert row, r.text
    assert _names(db, world)["p1"] == ("Ada Lovelace", 2)
    assert admin.get(f"/import/{token}").status_code == 200  # kept to fix the mapping


@pytest.mark.parametrize(
    "data,name,message",
    [
        (
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)),
            "roster.csv",
            "not a CSV or XLSX file: this is a PNG image",
        ),
        (b"PK\x03\x04 this is no workbook", "roster.xlsx", "not a readable XLSX file"),
    ],
)
def test_malformed_file_is_refused_at_upload(
    admin: Any, app: Any, db: Any, world: World, data: bytes, name: str, message: str
) -> None:
    before = _names(db, world)
    r = _upload(admin, data, name)
    assert r.status_code == 422
    assert message in r.text
    assert 'aria-invalid="true" aria-describedby="err-file"' in r.text
    assert "Traceback" not in r.text
    assert _names(db, world) == before
    directory = app.state.uploads.directory
    assert not directory.exists() or not list(directory.iterdir())  # nothing kept


def test_sheet_choice_in_a_workbook(admin: Any, db: Any, world: World) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    wb.active.title = "Notes"
    wb.active.append(["Read me first"])
    staff = wb.create_sheet("Staff")
    staff.append(["id", "name", "level"])
    staff.append(["p3", "Linus Torvalds", 3])
    buf = io.BytesIO()
    wb.save(buf)
    token = _token(_upload(admin, buf.getvalue(), "roster.xlsx"))
    html = admin.get(f"/import/{token}").text
    assert '<select id="sheet" name="sheet"><option selected>Notes</option><option>Staff' in html
    html = admin.get(f"/import/{token}", params={"sheet": "Staff"}).text
    assert [_selected(html, i) for i in range(3)] == ["id", "name", "level"]
    r = admin.post(
        f"/import/{token}/import",
        data={
            "csrf_token": admin.csrf,
            "sheet": "Staff",
            "header_row": "1",
            "col-0": "id",
            "col-1": "name",
            "col-2": "level",
        },
    )
    assert r.status_code == 200, r.text
    assert _names(db, world)["p3"] == ("Linus Torvalds", 3)


def test_another_users_token_is_refused(admin: Any, app: Any, db: Any, world: World) -> None:
    token = _token(_upload(admin, TITLED))
    with db.session() as s:
        store.create_user(s, "second-admin", PASSWORD, "admin")
    other = logged_in(app, "second-admin")
    form = {
        "csrf_token": other.csrf,
        "header_row": "3",
        "col-0": "id",
        "col-1": "name",
        "col-2": "level",
        "col-3": "skill:linux",
        "col-4": "-",
    }
    assert other.get(f"/import/{token}").status_code == 404
    assert other.post(f"/import/{token}/preview", data=form).status_code == 404
    r = other.post(f"/import/{token}/import", data=form)
    assert r.status_code == 404 and "not yours" in r.text
    assert other.post(f"/import/{token}/discard", data={"csrf_token": other.csrf}).status_code == 404
    assert _names(db, world)["p1"] == ("Ada Lovelace", 2)
    assert admin.get(f"/import/{token}").status_code == 200  # still the owner's
    # a manager may not use the import at all
    assert logged_in(app, "manager").get(f"/import/{token}").status_code == 403


def test_discard_and_expiry(admin: Any, app: Any, world: World) -> None:
    import time

    uploads = app.state.uploads
    token = _token(_upload(admin, TITLED))
    r = admin.post(f"/import/{token}/discard", data={"csrf_token": admin.csrf}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/import?discarded=true"
    assert admin.get(f"/import/{token}").status_code == 404
    old = uploads.save(world.users["admin"], world.org_id, "roster", "r.csv", TITLED, now=time.time() - 3601)
    assert admin.get(f"/import/{old}").status_code == 404  # older than an hour
    assert not list(uploads.directory.iterdir())


def test_pending_uploads_are_bounded(tmp_path: Path) -> None:
    uploads = store.PendingUploads(tmp_path / "u", max_bytes=100, per_user=2)
    with pytest.raises(store.LimitExceeded, match="GPUTEAM_MAX_UPLOAD_BYTES"):
        uploads.save(1, 1, "roster", "big.csv", b"x" * 101)
    tokens = [uploads.save(1, 1, "roster", f"r{i}.csv", b"id\n", now=1000.0 + i) for i in range(3)]
    with pytest.raises(store.NotFound):
        uploads.get(tokens[0], 1, 1, now=1010.0)  # the oldest made room
    assert uploads.get(tokens[2], 1, 1, now=1010.0).filename == "r2.csv"
    with pytest.raises(store.NotFound):
        uploads.get(tokens[2], 1, 2, now=1010.0)  # another organisation
    with pytest.raises(store.NotFound):
        uploads.get("../../etc/passwd", 1, 1)
    assert oct(uploads.directory.stat().st_mode & 0o777) == "0o700"
    uploads.purge(now=1002.0 + 3601)
    assert not list(uploads.directory.iterdir())


def test_certifications_through_the_steps(admin: Any, db: Any, world: World) -> None:
    data = b"Staff no;Certificate;Earned on;Note\np2;nca-aiio;01.03.2026;\n"
    token = _token(_upload(admin, data, "certs.csv", kind="certifications"))
    html = admin.get(f"/import/{token}").text
    assert "Import certifications from certs.csv" in html
    assert [_selected(html, i) for i in range(4)] == ["", "", "", ""]  # nothing recognised
    assert '<option value="valid_from" lang="en">valid from</option>' in html
    assert "skill:" not in html  # roster fields only for a roster
    form = {
        "csrf_token": admin.csrf,
        "header_row": "1",
        "col-0": "person",
        "col-1": "certification",
        "col-2": "valid_from",
        "col-3": "-",
    }
    r = admin.post(f"/import/{token}/preview", data=form)
    assert r.status_code == 200, r.text
    assert '1</div><div class="label">certifications to add' in r.text
    r = admin.post(f"/import/{token}/import", data=form)
    assert r.status_code == 200, r.text
    with db.session() as s:
        held = store.list_certifications(s, person_id=world.people["p2"])
        assert [(c.cert_id, c.valid_from.isoformat()) for c in held] == [("nca-aiio", "2026-03-01")]


def test_a_roster_naming_an_archived_team_is_refused_at_its_cell(admin: Any, db: Any, world: World) -> None:
    with db.session() as s:
        old = store.create_team(s, world.org_id, "Old fabric")
        store.set_team_archived(s, world.org_id, old.id, True)
    token = _token(_upload(admin, b"id,name,team\np9,New Person,Old fabric\n"))
    r = admin.post(
        f"/import/{token}/preview",
        data={"csrf_token": admin.csrf, "header_row": "1", "col-0": "id", "col-1": "name", "col-2": "team"},
    )
    assert r.status_code == 422
    row = re.search(r'<tr><td class="n">2</td><td>team</td><td>&#39;Old fabric&#39;</td><td>([^<]*)', r.text)
    assert row and "the team is archived" in row.group(1), r.text
    assert "p9" not in _names(db, world)


def test_a_file_over_the_limit_gets_the_upload_page_with_the_limit(
    admin: Any, app: Any, db: Any, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Too large for the request limits (refused before the body is read) or for the file
    limit: either way the upload form again, as HTML, with the limit beside the field."""
    from gputeam.web import limits

    most = 1024 * 1024
    app.state.limits = store.TableLimits(max_upload_bytes=most)  # GPUTEAM_MAX_UPLOAD_BYTES
    monkeypatch.setattr(limits, "MAX_BODY", 2000)
    before = _names(db, world)
    for size in (most + 5000, most + 100):  # the request; the file
        r = _upload(admin, b"id,name\n" + b"x" * (size - 8))
        assert r.status_code == 413, size
        assert r.headers["content-type"].startswith("text/html")
        assert 'aria-invalid="true" aria-describedby="err-file"' in r.text
        assert "the file is larger than 1 MB" in r.text, r.text
    assert _names(db, world) == before
    r = admin.post("/people/new", data={"csrf_token": admin.csrf, "name": "x" * 3000})  # another page
    assert r.status_code == 413 and r.headers["content-type"].startswith("text/html")
    assert "larger than" in r.text and "Back to the dashboard" in r.text
    api = admin.post(
        "/api/v1/import/roster",
        files={"file": ("r.csv", b"x" * (most + 100))},
        headers={"X-CSRF-Token": admin.csrf},
    )
    assert api.status_code == 413 and api.headers["content-type"] == "application/problem+json"
