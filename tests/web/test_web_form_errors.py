"""Forms keep the user's place (issue 10 §2): a refused token, user or upload form is
shown again with the message beside the field, status 422 and the typed values kept, never
raw application/problem+json; and any page's request the framework refuses is a page."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import World, logged_in


def _page(r: Any) -> str:
    assert r.status_code == 422, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("text/html"), r.headers["content-type"]
    return str(r.text)


def _beside(html: str, field: str, words: str) -> None:
    m = re.search(rf'<span class="error" id="err-{re.escape(field)}" role="alert">([^<]*)</span>', html)
    assert m is not None, f"no message beside {field}"
    assert words in m.group(1), m.group(1)


@pytest.mark.parametrize(
    ("form", "field", "words"),
    [
        ({"name": "CI job", "expires_in_days": "30"}, "token-scopes", "at least 1 item"),  # none ticked
        ({"name": "   ", "scopes": "read"}, "token-name", "at least 1 character"),
        (
            {"name": "CI job", "scopes": "read", "expires_in_days": "0"},
            "token-expires_in_days",
            "greater than or equal to 1",
        ),
        ({"name": "CI job", "scopes": "read", "expires_in_days": "soon"}, "token-expires_in_days", "integer"),
        ({"name": "CI\njob", "scopes": "read"}, "token-name", "line break"),
        ({"name": "CI job", "scopes": ["read", "admin"]}, "token-scopes", "not allowed"),  # a manager
    ],
)
def test_the_token_form_names_the_field(
    app: Any, world: World, form: dict[str, Any], field: str, words: str
) -> None:
    c = logged_in(app, "manager")
    html = _page(c.post("/account/tokens", data={**form, "csrf_token": c.csrf}))
    _beside(html, field, words)
    assert "The token was not created." in html and 'id="new-token"' not in html
    if form["name"].strip() and "\n" not in form["name"]:
        assert f'value="{form["name"]}"' in html  # the typed values kept
    if form.get("expires_in_days"):
        assert f'name="expires_in_days" value="{form["expires_in_days"]}"' in html
    if not form.get("scopes"):
        assert 'value="read" checked' not in html  # left unticked, as sent


def test_a_good_token_form_shows_the_token_once(app: Any, world: World) -> None:
    c = logged_in(app, "manager")
    r = c.post("/account/tokens", data={"name": "CI", "scopes": "read", "csrf_token": c.csrf})
    assert r.status_code == 200 and 'id="new-token"' in r.text


@pytest.mark.parametrize(
    ("form", "field", "words"),
    [
        (
            {"username": "bad name!", "password": "a sturdy pass 12", "role": "viewer"},
            "username",
            "Letters, digits",
        ),
        (
            {"username": "x" * 101, "password": "a sturdy pass 12", "role": "viewer"},
            "username",
            "at most 100",
        ),
        ({"username": "newbie", "password": "short", "role": "viewer"}, "password", "at least 8"),
        ({"username": "newbie", "password": "a sturdy pass 12", "role": "wizard"}, "role", "pattern"),
        (
            {"username": "admin", "password": "a sturdy pass 12", "role": "viewer"},
            "username",
            "already taken",
        ),
        (
            {
                "username": "newbie",
                "password": "a sturdy pass 12",
                "role": "engineer",
                "person_key": "nobody",
            },
            "person_key",
            "no person",
        ),
    ],
)
def test_the_add_user_form_names_the_field(
    app: Any, world: World, form: dict[str, Any], field: str, words: str
) -> None:
    c = logged_in(app, "admin")
    html = _page(c.post("/admin/users", data={**form, "csrf_token": c.csrf}))
    _beside(html, field, words)
    if len(form["username"]) <= 100:
        assert f'name="username" required pattern="[A-Za-z0-9_.@-]+" value="{form["username"]}"' in html
    assert form["password"] not in html.replace(
        "a sturdy pass 12" if form["password"] != "a sturdy pass 12" else "", ""
    )
    if form.get("person_key"):
        assert f'value="{form["person_key"]}"' in html


def test_an_upload_of_an_unknown_kind_is_the_form_again(app: Any, world: World) -> None:
    c = logged_in(app, "admin")
    r = c.post(
        "/import",
        data={"kind": "payroll", "csrf_token": c.csrf},
        files={"file": ("r.csv", b"id,name\np9,Nine\n", "text/csv")},
    )
    html = _page(r)
    _beside(html, "kind", "roster or certifications")
    assert 'id="file"' in html


def test_a_page_request_the_framework_refuses_is_a_page(app: Any, world: World) -> None:
    """The backstop: a form's field the handler's own checks never see (no file at all, a
    team id that is not a number) answers the HTML error page, not problem+json; the API
    keeps its problem documents."""
    c = logged_in(app, "admin")
    html = _page(c.post("/import", data={"kind": "roster", "csrf_token": c.csrf}))
    assert "422" in html and "file" in html
    r = c.post(
        "/admin/users",
        data={
            "username": "t",
            "password": "a sturdy pass 12",
            "role": "manager",
            "team_ids": "x",
            "csrf_token": c.csrf,
        },
    )
    assert "team_ids" in _page(r)
    api = c.post("/api/v1/people", json={"key": 5}, headers={"X-CSRF-Token": c.csrf})
    assert api.status_code == 422 and api.headers["content-type"] == "application/problem+json"
