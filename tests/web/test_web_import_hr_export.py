"""The guided import of an HR-system export, on SQLite and PostgreSQL: the First Name and
Last Name columns are both shown mapped to the name, in the order they are combined
(whichever comes first in the file), the known HR column the roster has no field for is
chosen as ignored, and the preview shows the combined names of the people to add."""

from __future__ import annotations

import re
from typing import Any

import pytest

from gputeam import store

from .conftest import World, logged_in
from .test_web_guided_import import _selected, _token, _upload

#: a BambooHR-style export: the last name before the first
HR_EXPORT = (
    b"Employee ID,Last Name,First Name,Work Email,Job Title,Department,Hire Date\n"
    b"E-1001,Lovelace,Ada,ada@example.org,Platform engineer,GPU Ops,2021-03-01\n"
    b"E-1002,Hopper,Grace,grace@example.org,SRE,GPU Ops,2019-11-15\n"
)


@pytest.fixture
def admin(app: Any) -> Any:
    return logged_in(app, "admin")


def test_hr_export_through_the_guided_import(admin: Any, db: Any, world: World) -> None:
    token = _token(_upload(admin, HR_EXPORT, "bamboohr.csv"))
    html = admin.get(f"/import/{token}").text
    assert [_selected(html, i) for i in range(7)] == [
        "id",
        "name:last",
        "name:first",
        "email",
        "title",
        "team",
        "-",
    ]
    assert ">name: first part</option>" in html and ">name: last part</option>" in html
    combined = 'id="name-combined">Name: the columns First Name + Last Name, combined in this order.'
    assert combined in html

    form = {"csrf_token": admin.csrf, "header_row": "1"}
    form |= {
        f"col-{i}": v for i, v in enumerate(["id", "name:last", "name:first", "email", "title", "team", "-"])
    }
    r = admin.post(f"/import/{token}/preview", data=form)
    assert r.status_code == 200, r.text
    assert combined in r.text
    added = r.text.split('id="added"')[1].split("</table>")[0]
    rows = re.findall(r'<td class="n">(\d+)</td><th scope="row">([^<]+)</th><td>([^<]*)</td>', added)
    assert rows == [("2", "E-1001", "Ada Lovelace"), ("3", "E-1002", "Grace Hopper")]
    with db.session() as s:
        assert not [p for p in store.list_people(s, world.org_id, active=None) if p.key.startswith("E-")]

    r = admin.post(f"/import/{token}/import", data=form)
    assert r.status_code == 200, r.text
    with db.session() as s:
        names = {p.key: p.name for p in store.list_people(s, world.org_id, active=None)}
    assert (names["E-1001"], names["E-1002"]) == ("Ada Lovelace", "Grace Hopper")
