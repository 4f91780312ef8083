"""One rule for a person's fields, whatever the door (issue 9 §4): the same bad value sent
to the store directly, the JSON API, the person form and the roster import is refused with
the same message (``store.PersonFields``), each door saying where in its own way: the API
names the field in a 422 problem document, the form shows the message beside the field
with the values kept, the import names the row and column. Nothing is written.
SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import html
import io
import re
from typing import Any

import pytest

from gputeam import store

from .conftest import World, logged_in, token_for

#: (field, the value as the store and the API take it, as the form and a roster cell write it)
CASES = [
    ("experience_months", 5000, "5000"),
    ("level", 0, "0"),
    ("weekly_study_hours", 41, "41"),
    ("salary", -1, "-1"),
    ("role", "wizard", "wizard"),
    ("email", "ada at example.org", "ada at example.org"),
    ("title", "two\nlines", "two\nlines"),
    ("name", "evil\u202eexe", "evil\u202eexe"),
    ("key", "k" * 101, "k" * 101),
]
#: the roster column of each field
COLUMN = {"key": "id"}


def _count(db: Any, world: World) -> int:
    with db.session() as s:
        return store.count_people(s, world.org_id, where=store.PeopleFilter(active=None))


@pytest.mark.parametrize(("field", "value", "written"), CASES, ids=[c[0] for c in CASES])
def test_same_bad_value_same_message_at_every_door(
    app: Any, db: Any, world: World, field: str, value: Any, written: str
) -> None:
    from fastapi.testclient import TestClient

    from gputeam.web import services

    person = {"key": "n1", "name": "New Person"} | {field: value}
    # the store, called directly
    with pytest.raises(store.StoreError) as refused, db.session() as s:
        store.add_person(s, world.org_id, catalog=services.catalog(app), **person)
    [problem] = [p for p in refused.value.problems if p.path == f"person.{field}"]
    message = problem.message
    assert message and problem.expected

    # the JSON API: 422 problem+json naming the field
    api = TestClient(app, headers={"Authorization": "Bearer " + token_for(app, "admin", ["read", "write"])})
    r = api.post("/api/v1/people", json=person)
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json")
    assert [(p["path"], p["message"]) for p in r.json()["problems"]] == [(f"person.{field}", message)]

    # the person form: shown again, the message beside the field, the values kept
    form = logged_in(app, "admin")
    data = {
        "key": "n1",
        "name": "New Person",
        "title": "Engineer",
        "level": "2",
        "experience_months": "6",
        "weekly_study_hours": "4",
        "salary": "",
        "csrf_token": form.csrf,
    } | {field: written}
    r = form.post("/people/new", data=data)
    assert r.status_code == 422 and "nothing was saved" in r.text
    beside = re.search(rf'<span class="error" id="err-{field}">([^<]*)</span>', r.text)
    assert beside is not None, r.text
    assert html.escape(message, quote=True) in beside.group(1)
    kept = "New Person" if field != "name" else "Engineer"
    assert f'value="{kept}"' in r.text

    # the roster import: the row and the column
    roster = io.StringIO()
    header = ["id", "name"] + ([] if field in ("key", "name") else [COLUMN.get(field, field)])
    row = {"id": "n1", "name": "New Person", COLUMN.get(field, field): written}
    csv.writer(roster).writerows([header, [row[h] for h in header]])
    r = api.post(
        "/api/v1/import/roster",
        data={"dry_run": "false"},
        files={"file": ("r.csv", roster.getvalue().encode(), "text/csv")},
    )
    assert r.status_code == 422, r.text
    got = [(p["line"], p["path"], p["message"]) for p in r.json()["problems"]]
    assert got == [(2, COLUMN.get(field, field), message)]
    assert _count(db, world) == 3
