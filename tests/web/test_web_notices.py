"""Notices come from the server (issue 20 item 7): a page never shows text from its query
string as a system notice; the notice an action leaves (a signed cookie bound to the
session) is shown once on the next page, in the caller's language, and a notice cookie that
is forged or was made for another session shows nothing."""

from __future__ import annotations

from typing import Any

import pytest

from gputeam.web import notices

from .conftest import World, logged_in

PHISH = "Your session expired: call the helpdesk on 0800 555 0199"
QUOTED = PHISH.replace(" ", "+").replace(":", "%3A")


@pytest.fixture
def sqlite_only(db_url: str) -> None:
    """The notices are the web layer's (a cookie, no SQL): one engine is enough."""
    if not db_url.startswith("sqlite"):
        pytest.skip("engine-independent")


def test_query_string_text_is_never_a_notice(sqlite_only: None, app: Any, world: World) -> None:
    """Every page that used to echo ``?flash=`` (or ``?done=``, ``?issued=``) shows
    nothing of it now."""
    c = logged_in(app, "admin")
    p1 = world.people["p1"]
    for url in (
        f"/people/{p1}?flash={QUOTED}",
        f"/people?flash={QUOTED}",
        f"/teams?flash={QUOTED}",
        f"/teams/{world.alpha}?flash={QUOTED}",
        f"/plan?flash={QUOTED}",
        f"/?flash={QUOTED}",
        f"/admin/users?done={QUOTED}",
        f"/people/{p1}/credentials?issued={QUOTED}",
    ):
        r = c.get(url)
        assert r.status_code == 200, url
        assert "helpdesk" not in r.text, url
        assert 'class="flash" role="status"' not in r.text, url


def test_a_notice_follows_its_action_once(sqlite_only: None, app: Any, world: World) -> None:
    c = logged_in(app, "manager")
    r = c.post(
        f"/teams/{world.alpha}/rename",
        data={"name": "Alpha Ops", "csrf_token": c.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == f"/teams/{world.alpha}"
    assert "flash" not in r.headers["location"]
    page = c.get(r.headers["location"])
    assert '<p class="flash " role="status">Team renamed.</p>' in page.text
    again = c.get(r.headers["location"])
    assert "Team renamed." not in again.text  # shown once: the cookie was deleted


def test_a_notice_is_in_the_callers_language(sqlite_only: None, app: Any, world: World) -> None:
    c = logged_in(app, "manager")
    c.headers["Accept-Language"] = "de"
    r = c.post(
        f"/teams/{world.alpha}/rename",
        data={"name": "Alpha Ops", "csrf_token": c.csrf},
        follow_redirects=True,
    )
    assert "Team umbenannt." in r.text


def test_a_notice_cookie_of_another_session_or_forged_shows_nothing(
    sqlite_only: None, app: Any, world: World
) -> None:
    a = logged_in(app, "manager")
    r = a.post(
        f"/teams/{world.alpha}/rename",
        data={"name": "Alpha Ops", "csrf_token": a.csrf},
        follow_redirects=False,
    )
    stolen = r.cookies.get(notices.COOKIE) or a.cookies.get(notices.COOKIE)
    assert stolen
    b = logged_in(app, "admin")
    b.cookies.set(notices.COOKIE, stolen)
    assert "Team renamed." not in b.get(f"/teams/{world.alpha}").text  # bound to a's session
    b_session = app.state.signer.loads(b.cookies.get("gputeam_session"))
    forged = notices.NoticeSigner("not-the-server-key-" + "y" * 40).dumps(b_session.sid, PHISH)
    b.cookies.set(notices.COOKIE, forged)
    assert "helpdesk" not in b.get("/people").text
    assert "Team renamed." in a.get(f"/teams/{world.alpha}").text  # a's own notice still waits


def test_the_users_page_notice_comes_from_the_action(sqlite_only: None, app: Any, world: World) -> None:
    """*Log out everywhere* on /admin/users: the notice names the user and the count, once
    (it was the ``?done=`` text before)."""
    logged_in(app, "viewer")  # a session to end
    admin = logged_in(app, "admin")
    r = admin.post(
        f"/admin/users/{world.users['viewer']}/logout",
        data={"csrf_token": admin.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/admin/users"
    page = admin.get("/admin/users").text
    assert page.count("viewer: 1 session ended.") == 1
    assert "session ended" not in admin.get("/admin/users").text
