"""The pages on SQLite and PostgreSQL: readable without JavaScript, HTMX fragments, forms,
what-if re-planning well under a second."""

from __future__ import annotations

import re
import time
from typing import Any

from .conftest import ROSTER_CSV, World, logged_in


def _text(html: str) -> str:
    """What a reader without JavaScript sees: the HTML minus scripts and tags."""
    html = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_anonymous_is_sent_to_login(client: Any) -> None:
    r = client.get("/people", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login?next=/people"
    page = client.get("/login")
    assert page.status_code == 200 and 'name="csrf_token"' in page.text


def test_dashboard_without_and_with_plan(app: Any, world: World) -> None:
    c = logged_in(app, "manager")
    text = _text(c.get("/").text)
    assert "Headcount 3" in text
    # nobody in the roster has a salary: the figure says it is an estimate, and from what
    assert "Annual salary cost (partly estimated)" in text
    assert "estimated for 3 without a salary, from level band mid-points (article §3)" in text
    assert "Bus factor per skill domain" in text
    assert "Certifications expiring in 90 days 1" in text
    assert "No plan yet" in text
    r = c.post(
        "/plan",
        data={
            "gpus": "256",
            "deadline_month": "6",
            "horizon_months": "12",
            "action": "save",
            "csrf_token": c.csrf,
        },
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/plan"
    assert "Plan saved: the dashboard now measures against it." in c.get("/plan").text
    text = _text(c.get("/").text)
    assert "Coverage at the deadline (month 6)" in text
    assert "Certification compliance per role" in text
    assert "No plan yet" not in text


def test_people_list_search_and_htmx_fragment(app: Any, world: World) -> None:
    c = logged_in(app, "admin")
    text = _text(c.get("/people").text)
    assert "Ada Lovelace" in text and "Linus T" in text
    r = c.get(
        "/people", params={"search": "grace"}, headers={"HX-Request": "true", "HX-Target": "people-rows"}
    )
    assert r.text.lstrip().startswith('<div id="people-rows">')
    assert "Grace Hopper" in r.text and "Ada" not in r.text and "<html" not in r.text


def test_person_page_colours_gantt_and_forms(app: Any, world: World) -> None:
    c = logged_in(app, "admin")
    c.post("/api/v1/plans", json={"save": True}, headers={"X-CSRF-Token": c.csrf})
    plan_id = c.get("/api/v1/plans").json()[0]["id"]
    c.post(f"/api/v1/plans/{plan_id}/adopt", headers={"X-CSRF-Token": c.csrf})
    html = c.get(f"/people/{world.people['p1']}").text
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="gantt"' in html
    items = len(re.findall(r'action="/roadmap-items/\d+/done"', html))
    assert items and f"0 of {items} roadmap items done" in _text(html)
    assert "built-in method" not in html
    assert 'class="badge valid"' in html or 'class="badge expiring"' in html
    p3 = c.get(f"/people/{world.people['p3']}").text
    assert 'class="badge expired"' in p3  # expired 2025-01-01
    r = c.post(
        f"/people/{world.people['p3']}/certifications",
        data={"cert_id": "nca-aiio", "valid_from": "2026-11-20", "csrf_token": c.csrf},
    )
    assert r.status_code == 200 and "Certification nca-aiio recorded." in r.text
    assert 'class="badge valid"' in r.text
    item = re.search(r'action="/roadmap-items/(\d+)/done"', html)
    assert item, "no roadmap item form"
    r = c.post(f"/roadmap-items/{item.group(1)}/done", data={"csrf_token": c.csrf})
    assert "Marked done." in r.text


def test_engineer_records_own_progress(app: Any, world: World) -> None:
    c = logged_in(app, "engineer")
    html = c.get(f"/people/{world.people['p1']}").text
    assert "Record a certification" in html
    r = c.post(
        f"/people/{world.people['p1']}/certifications",
        data={"cert_id": "nca-aiio", "valid_from": "2026-10-01", "csrf_token": c.csrf},
    )
    assert r.status_code == 200
    viewer = logged_in(app, "viewer")
    assert viewer.get(f"/people/{world.people['p1']}").status_code == 403


def test_plan_what_if_is_fast_and_partial(app: Any, world: World) -> None:
    c = logged_in(app, "manager")
    full = c.get("/plan")
    assert full.status_code == 200 and 'id="whatif"' in full.text
    assert "Target headcount now" in _text(full.text)
    timings = []
    for gpus in (32, 64, 512, 2048, 8192):  # the first one warms up (imports, solver)
        t0 = time.perf_counter()
        r = c.post(
            "/plan",
            data={
                "gpus": str(gpus),
                "deadline_month": "9",
                "budget": "500000",
                "horizon_months": "12",
                "csrf_token": c.csrf,
            },
            headers={"HX-Request": "true"},
        )
        timings.append(time.perf_counter() - t0)
        assert r.status_code == 200, r.text
        assert r.text.lstrip().startswith('<div id="plan-result">') and "<html" not in r.text
        assert f"{gpus} GPUs" in r.text
    # the speed of a what-if re-plan is measured by bench/whatif.py, not asserted here
    print("what-if re-plan seconds:", [round(t, 3) for t in timings])
    # without JavaScript the same form answers with a whole page
    r = c.post("/plan", data={"gpus": "128", "csrf_token": c.csrf})
    assert "<html" in r.text and 'id="plan-result"' in r.text
    r = c.post("/plan", data={"gpus": "128", "deadline_month": "abc", "csrf_token": c.csrf})
    assert r.status_code == 422 and "Deadline (plan month): not a number" in r.text


def test_only_the_native_submission_saves(app: Any, world: World) -> None:
    """htmx repeats the last-clicked submit button ('save') in a what-if request fired as
    focus moves to it; that preview must not save a second, racing copy of the plan."""
    from sqlalchemy import func, select

    from gputeam.store.schema import SavedPlan

    c = logged_in(app, "manager")

    def saved() -> int:
        with app.state.db.session() as s:
            return int(s.scalar(select(func.count(SavedPlan.id))) or 0)

    before = saved()
    r = c.post(
        "/plan", data={"gpus": "64", "action": "save", "csrf_token": c.csrf}, headers={"HX-Request": "true"}
    )
    assert r.status_code == 200 and "<html" not in r.text
    assert saved() == before
    r = c.post("/plan", data={"gpus": "64", "action": "save", "csrf_token": c.csrf}, follow_redirects=False)
    assert r.status_code == 303 and saved() == before + 1


def test_viewer_sees_saved_plan_read_only(app: Any, world: World) -> None:
    m = logged_in(app, "manager")
    m.post("/api/v1/plans", json={"save": True}, headers={"X-CSRF-Token": m.csrf})
    v = logged_in(app, "viewer")
    html = v.get("/plan").text
    assert 'id="whatif"' not in html and "The latest saved plan" in html
    assert "People" not in _text(html).split("Dashboard", 1)[1].split("Plan", 1)[0]


def test_catalog_import_account_and_users_pages(app: Any, world: World) -> None:
    c = logged_in(app, "admin")
    text = _text(c.get("/catalog").text)
    assert "nca-aiio" in text
    assert "Cluster operations" in _text(c.get("/catalog", params={"section": "domains"}).text)
    bad = ROSTER_CSV + "p9,,bad-email,,9,,,,,\n"
    r = c.post(
        "/import",
        data={"kind": "roster", "csrf_token": c.csrf},
        files={"file": ("r.csv", bad.encode(), "text/csv")},
        follow_redirects=False,
    )
    assert r.status_code == 303
    mapping = {
        f"col-{i}": f
        for i, f in enumerate(
            [
                "id",
                "name",
                "email",
                "title",
                "level",
                "experience_months",
                "role",
                "team",
                "skill:linux",
                "skill:gpu-architecture",
            ]
        )
    }
    r = c.post(r.headers["location"] + "/import", data={"csrf_token": c.csrf, "header_row": "1"} | mapping)
    assert r.status_code == 422 and "Nothing was imported" in r.text
    r = c.post("/account/tokens", data={"name": "laptop", "scopes": ["read"], "csrf_token": c.csrf})
    assert 'id="new-token">gpt_' in r.text
    r = c.post(
        "/admin/users",
        data={
            "username": "eve",
            "password": "long enough",
            "role": "engineer",
            "person_key": "p2",
            "csrf_token": c.csrf,
        },
        follow_redirects=False,
    )
    assert r.status_code == 303
    r = c.post(
        "/admin/users",
        data={"username": "eve", "password": "long enough", "role": "engineer", "csrf_token": c.csrf},
    )
    assert r.status_code == 422 and "already taken" in r.text


def test_pages_render_without_javascript(app: Any, world: World) -> None:
    """Every page's content is in the HTML itself; scripts only enhance."""
    c = logged_in(app, "admin")
    for path in (
        "/",
        "/people",
        f"/people/{world.people['p1']}",
        "/plan",
        "/catalog",
        "/import",
        "/account",
        "/admin/users",
        "/people/new",
        f"/people/{world.people['p2']}/edit",
    ):
        r = c.get(path)
        assert r.status_code == 200, path
        assert len(_text(r.text)) > 200, path
        assert r.text.count("<script") == 1  # only the deferred htmx enhancement
