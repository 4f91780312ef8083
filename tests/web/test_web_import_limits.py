"""Bounded uploads through the web doors, on SQLite and PostgreSQL: the API answers a file
over an import limit with a small RFC 9457 problem document (413, or 422 for a cell too
long) naming the limit and its setting; the guided import shows the upload form again with
the same words; its mapping page shows 50 columns at a time and its preview 200 changed
rows at a time, so a page stays small however wide or long the file is."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from gputeam import store

from .conftest import World, logged_in, token_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import hostile_files as hostile  # noqa: E402

MB = 1024 * 1024


@pytest.fixture
def api(app: Any) -> Any:
    from fastapi.testclient import TestClient

    c = TestClient(app)
    c.headers["Authorization"] = "Bearer " + token_for(app, "admin", ["read", "write"])
    return c


@pytest.fixture
def admin(app: Any) -> Any:
    return logged_in(app, "admin")


def _post(api: Any, name: str, data: bytes) -> Any:
    return api.post("/api/v1/import/roster", data={"dry_run": "true"}, files={"file": (name, data)})


def _names(db: Any, world: World) -> set[str]:
    with db.session() as s:
        return {p.key for p in store.list_people(s, world.org_id, active=None)}


@pytest.mark.parametrize(
    ("name", "make", "status", "setting"),
    [
        ("bomb.xlsx", lambda: hostile.zip_bomb_xlsx(1024 * MB), 413, "GPUTEAM_IMPORT_MAX_UNCOMPRESSED_BYTES"),
        ("bomb.xlsx", lambda: hostile.zip_bomb_xlsx(64 * MB), 413, "GPUTEAM_IMPORT_MAX_COMPRESSION_RATIO"),
        ("wide.csv", lambda: hostile.many_columns_csv(100_000), 413, "GPUTEAM_IMPORT_MAX_COLUMNS"),
        ("cell.csv", lambda: hostile.giant_cell_csv(), 422, "GPUTEAM_IMPORT_MAX_CELL_CHARS"),
    ],
)
def test_the_api_answers_a_problem_document_naming_the_limit(
    api: Any, db: Any, world: World, name: str, make: Any, status: int, setting: str
) -> None:
    before = _names(db, world)
    r = _post(api, name, make())
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    body = r.json()
    assert body["status"] == status and body["type"] == "urn:gputeam:problem:import-limit"
    assert body["limit"]["setting"] == setting and isinstance(body["limit"]["value"], int)
    assert setting in body["detail"] and setting in body["problems"][0]["message"]
    assert len(r.content) < 4096  # once 34.8 MB for the 100,000 columns
    assert _names(db, world) == before


def test_the_api_refuses_rows_and_bytes_over_the_app_settings(app: Any, api: Any) -> None:
    app.state.limits = store.TableLimits(import_max_rows=10)
    r = _post(api, "rows.csv", hostile.many_rows_csv(100))
    assert r.status_code == 413 and r.json()["limit"] == {"setting": "GPUTEAM_IMPORT_MAX_ROWS", "value": 10}
    assert r.json()["problems"][0]["line"] == 11
    app.state.limits = store.TableLimits(max_upload_bytes=1000)
    r = _post(api, "rows.csv", hostile.many_rows_csv(100))
    assert r.status_code == 413 and "GPUTEAM_MAX_UPLOAD_BYTES" in r.json()["detail"]


def test_the_settings_set_the_apps_limits(db: Any, world: World, tmp_path: Path) -> None:
    from gputeam.web import create_app

    from .conftest import TODAY, make_settings

    app = create_app(make_settings(import_max_columns=3, max_upload_bytes=5000), database=db, today=TODAY)
    assert app.state.limits == store.TableLimits(import_max_columns=3, max_upload_bytes=5000)
    assert app.state.uploads.max_bytes == 5000


def test_the_upload_page_names_the_limit(admin: Any, db: Any, world: World) -> None:
    before = _names(db, world)
    for data, name, status, setting in (
        (hostile.zip_bomb_xlsx(1024 * MB), "bomb.xlsx", 413, "GPUTEAM_IMPORT_MAX_UNCOMPRESSED_BYTES"),
        (hostile.many_columns_csv(100_000), "wide.csv", 413, "GPUTEAM_IMPORT_MAX_COLUMNS"),
        (hostile.giant_cell_csv(), "cell.csv", 422, "GPUTEAM_IMPORT_MAX_CELL_CHARS"),
    ):
        r = admin.post(
            "/import",
            data={"kind": "roster", "csrf_token": admin.csrf},
            files={"file": (name, data, "text/csv")},
            follow_redirects=False,
        )
        assert r.status_code == status, r.text
        assert r.headers["content-type"].startswith("text/html")
        assert 'aria-describedby="err-file"' in r.text and setting in r.text
        assert len(r.content) < 40_000
    assert _names(db, world) == before


def _token(admin: Any, data: bytes) -> str:
    r = admin.post(
        "/import",
        data={"kind": "roster", "csrf_token": admin.csrf},
        files={"file": ("r.csv", data, "text/csv")},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def test_the_mapping_page_shows_fifty_columns_at_a_time(admin: Any) -> None:
    """A wide file (1,000 columns, the most) makes a small page per 50 columns; the choices
    for the other columns go along in the form, and Next/Previous keep them."""
    data = hostile.many_columns_csv(1_000)
    token = _token(admin, data)
    page = admin.get(f"/import/{token}")
    assert page.status_code == 200
    selects = re.findall(r'<select id="col-(\d+)"', page.text)
    assert selects == [str(i) for i in range(50)]
    assert "Columns 1 to 50 of 1000." in page.text and 'name="columns" value="50"' in page.text
    assert len(page.content) < 400_000  # the 100,000-column file once built 237 MB
    form = {"csrf_token": admin.csrf, "header_row": "1", "col-0": "id", "col-1": "name"}
    form |= {f"col-{i}": "-" for i in range(2, 1000)}
    nxt = admin.post(f"/import/{token}/preview", data=form | {"columns": "50"})
    assert nxt.status_code == 200 and "Columns 51 to 100 of 1000." in nxt.text
    assert re.findall(r'<select id="col-(\d+)"', nxt.text) == [str(i) for i in range(50, 100)]
    assert '<input type="hidden" name="col-7" value="-">' in nxt.text  # kept from page 1
    assert re.search(r'<option value="-"[^>]* selected>', nxt.text)  # col-50 as chosen
    # previewing with a column left unchosen shows that column's page, marked
    partial = dict(form)
    del partial["col-620"]
    r = admin.post(f"/import/{token}/preview", data=partial)
    assert r.status_code == 422 and "Columns 601 to 650 of 1000." in r.text
    assert 'aria-describedby="err-col-620"' in r.text


def test_the_preview_shows_two_hundred_changed_rows_at_a_time(admin: Any, db: Any, world: World) -> None:
    rows = "".join(f"q{i},Person {i},3\n" for i in range(450))
    admin_token = _token(admin, ("id,name,level\n" + rows).encode())
    form = {"csrf_token": admin.csrf, "header_row": "1", "col-0": "id", "col-1": "name", "col-2": "level"}
    r = admin.post(f"/import/{admin_token}/import", data=form)
    assert r.status_code == 200, r.text
    changed = "".join(f"q{i},Person {i},4\n" for i in range(450))
    token = _token(admin, ("id,name,level\n" + changed).encode())
    first = admin.post(f"/import/{token}/preview", data=form)
    assert first.status_code == 200
    assert len(re.findall(r'<tr><td class="n">\d+</td><th scope="row">q', first.text)) == 200
    assert "Rows with changes 1 to 200 of 450." in first.text
    last = admin.post(f"/import/{token}/preview", data=form | {"rows": "400"})
    assert "Rows with changes 401 to 450 of 450." in last.text
    ids = re.findall(r'<th scope="row">(q\d+)</th>', last.text)
    assert ids == [f"q{i}" for i in range(400, 450)]
    assert 'name="rows" value="200"' in last.text and 'name="rows" value="600"' not in last.text
