"""Pages and lists served from the per-process caches (gputeam.web.cache) on both engines:
a change of the data shows on the next request, and a cached answer never reaches a caller
who may not see it, nor one who asked in another language."""

from __future__ import annotations

from typing import Any

from .conftest import World, logged_in


def test_skills_page_follows_the_data_and_the_caller(app: Any, world: World) -> None:
    admin, manager = logged_in(app, "admin"), logged_in(app, "manager")
    first = admin.get("/skills?group=foundation")
    assert first.status_code == 200, first.text
    assert "Linus T" in first.text and "Ada Lovelace" in first.text
    assert '<td class="n">3 <span class="muted">(≥3)</span>' in first.text  # linux: p1, p2, p3
    assert admin.get("/skills?group=foundation").text == first.text  # the same, from the cache
    # the manager's own people (team Alpha), not the admin's cached page; the page around
    # the matrix is the manager's (name, CSRF token)
    page = manager.get("/skills?group=foundation").text
    assert "Ada Lovelace" in page and "Grace Hopper" in page and "Linus T" not in page
    assert "manager (manager)" in page and manager.csrf in page and admin.csrf not in page
    # a rename and a rating show at once
    p3 = world.people["p3"]
    r = admin.patch(
        f"/api/v1/people/{p3}", json={"name": "Linus Torvalds"}, headers={"X-CSRF-Token": admin.csrf}
    )
    assert r.status_code == 200, r.text
    r = admin.put(
        f"/api/v1/people/{p3}/skills/linux", json={"proficiency": 1}, headers={"X-CSRF-Token": admin.csrf}
    )
    assert r.status_code == 200, r.text
    after = admin.get("/skills?group=foundation").text
    assert "Linus Torvalds" in after and '<td class="n">2 <span class="muted">(≥3)</span>' in after
    # another language: its own rendering
    german = admin.get("/skills?group=foundation", headers={"Accept-Language": "de"}).text
    assert "Alle Teams" in german and "Alle Teams" not in after
    assert "Any team" in admin.get("/skills?group=foundation").text
    # a bad query is refused every time (nothing cached for it)
    for _ in range(2):
        assert admin.get("/skills?group=nope").status_code == 422


def _keys(client: Any, query: str = "") -> list[str]:
    r = client.get("/api/v1/people" + query)
    assert r.status_code == 200, r.text
    return [p["key"] for p in r.json()]


def test_people_list_pages_follow_the_data_and_the_caller(app: Any, world: World) -> None:
    admin, manager = logged_in(app, "admin"), logged_in(app, "manager")
    assert _keys(admin) == ["p1", "p2", "p3"]  # by name
    assert _keys(admin, "?limit=1&offset=1") == ["p2"] and _keys(admin, "?offset=3") == []
    assert _keys(manager) == ["p1", "p2"]  # their team, not the admin's cached list
    assert _keys(manager, f"?team={world.beta}") == []
    csrf = {"X-CSRF-Token": admin.csrf}
    r = admin.post(
        "/api/v1/people", json={"key": "p9", "name": "Barbara Liskov", "team_id": world.alpha}, headers=csrf
    )
    assert r.status_code == 201, r.text
    assert _keys(admin) == ["p1", "p9", "p2", "p3"] and _keys(manager) == ["p1", "p9", "p2"]
    assert _keys(admin, "?limit=2&offset=1") == ["p9", "p2"]
    r = admin.patch(f"/api/v1/people/{world.people['p3']}", json={"level": 5}, headers=csrf)
    assert r.status_code == 200, r.text
    assert _keys(admin, "?sort=level&dir=desc&limit=1") == ["p3"]
    r = admin.patch(f"/api/v1/people/{world.people['p2']}", json={"active": False}, headers=csrf)
    assert r.status_code == 200, r.text
    assert _keys(admin) == ["p1", "p9", "p3"] and _keys(admin, "?status=inactive") == ["p2"]
    # the same fields as one person's summary
    (grace,) = admin.get("/api/v1/people?status=inactive").json()
    assert grace["active"] is False and grace["name"] == "Grace Hopper" and grace["team_id"] == world.alpha
