"""The tracker's views (issue 10 §1) on both engines: the certifications view, the skills
matrix (page, CSV, XLSX, API) and the people list's filters; each shows only the people the
caller may read, never another organisation's."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta
from typing import Any

import pytest

from gputeam import store

from .conftest import TODAY, World, logged_in


@pytest.fixture
def more(db: Any, world: World) -> dict[str, int]:
    """An RHCE that expired 10 days ago (p2), an inactive person, a hostile name, and another
    organisation with an expired certificate and a skilled person."""
    with db.session() as s:
        store.add_certification(s, world.people["p2"], "rhce", date(2023, 11, 22), TODAY - timedelta(days=10))
        gone = store.add_person(
            s, world.org_id, key="p4", name="Old Timer", team_id=world.alpha, level=4, active=False
        )
        evil = store.add_person(
            s, world.org_id, key="p5", name='=HYPERLINK("http://x","y")', team_id=world.beta, level=1
        )
        store.rate_skill(s, evil.id, "linux", 4)
        other = store.create_organisation(s, "Other Corp").id
        o = store.add_person(s, other, key="o1", name="Aaron Outsider", level=5)
        store.rate_skill(s, o.id, "linux", 4)
        store.add_certification(s, o.id, "rhce", date(2023, 1, 1), TODAY - timedelta(days=5))
        return {"p4": gone.id, "p5": evil.id, "o1": o.id}


def _names(items: list[dict[str, Any]]) -> set[str]:
    return {i["person"]["name"] for i in items}


def test_certifications_view_statuses_and_who_sees_what(app: Any, world: World, more: dict[str, int]) -> None:
    admin = logged_in(app, "admin")
    r = admin.get("/api/v1/certifications")
    assert r.status_code == 200, r.text
    body = r.json()
    got = [(i["person"]["key"], i["cert_id"], i["status"], i["days_left"]) for i in body["items"]]
    # soonest expiry first: the expired RHCE (10 days ago) and p3's long-expired one
    assert got == [
        ("p3", "nca-aiio", "expired", -700),
        ("p2", "rhce", "expired", -10),
        ("p1", "nca-aiio", "expiring-60", 44),
    ]
    assert body["total"] == 3 and "Aaron Outsider" not in r.text
    expired = admin.get("/api/v1/certifications?expiry=expired&sort=person").json()
    assert "items" in expired, expired
    assert [i["person"]["key"] for i in expired["items"]] == ["p2", "p3"]
    assert admin.get("/api/v1/certifications?cert=rhce").json()["total"] == 1
    assert admin.get(f"/api/v1/certifications?team={world.beta}").json()["total"] == 1
    bad = admin.get("/api/v1/certifications?expiry=soon&sort=salary")
    assert bad.status_code == 422
    assert {p["path"] for p in bad.json()["problems"]} == {"expiry"}
    page = admin.get("/certifications?expiry=expired")
    assert page.status_code == 200
    assert "Red Hat Certified Engineer" in page.text and "✗ expired" in page.text
    assert "Aaron Outsider" not in page.text
    # a manager sees their team (Alpha), an engineer their own record, a viewer nothing
    manager = logged_in(app, "manager").get("/api/v1/certifications").json()
    assert _names(manager["items"]) == {"Ada Lovelace", "Grace Hopper"}
    engineer = logged_in(app, "engineer").get("/api/v1/certifications").json()
    assert _names(engineer["items"]) == {"Ada Lovelace"}
    assert logged_in(app, "viewer").get("/api/v1/certifications").status_code == 403


def test_skills_matrix_cells_bus_factor_and_pages(app: Any, world: World, more: dict[str, int]) -> None:
    admin = logged_in(app, "admin")
    r = admin.get("/api/v1/skills/matrix?limit=2&group=foundation")
    assert r.status_code == 200, r.text
    m = r.json()
    assert m["total"] == 4 and m["next_offset"] == 2 and len(m["rows"]) == 2
    assert [c["domain"] for c in m["columns"]] == ["linux", "networking"]
    linux = m["columns"][0]
    # no plan saved: no column target; the bus factor counts proficient people (>= 3) on
    # every page (p1, p2, p3 rated 3, p5 rated 4), never the inactive or other organisation
    assert m["target_source"] == "catalog roles" and linux["target"] is None
    assert (linux["bus_factor"], linux["bus_factor_at"]) == (4, 3)
    assert [row["key"] for row in m["rows"]] == ["p5", "p1"]  # by name: "=" sorts first
    ada = m["rows"][1]
    assert ada["name"] == "Ada Lovelace" and ada["role"] == "operations-engineer"
    need = {
        n.domain: n.proficiency
        for n in app.state.catalog_cache.get("catalog").roles["operations-engineer"].domains
    }
    cell = ada["cells"][0]
    assert cell == {
        "domain": "linux",
        "proficiency": 3,
        "target": need.get("linux"),
        "status": "meets" if need.get("linux", 9) <= 3 else "below",
    }
    rest = admin.get("/api/v1/skills/matrix?limit=2&offset=2&group=foundation").json()
    assert [row["key"] for row in rest["rows"]] == ["p2", "p3"] and rest["next_offset"] is None
    assert "Aaron Outsider" not in r.text + str(rest)
    team = admin.get(f"/api/v1/skills/matrix?team={world.alpha}&status=all&sort=level&dir=desc").json()
    assert [row["key"] for row in team["rows"]] == ["p4", "p1", "p2"]
    assert team["columns"][0]["bus_factor"] == 2  # p1, p2: the filter narrows it too
    assert admin.get("/api/v1/skills/matrix?group=nope").status_code == 422
    assert admin.get("/api/v1/skills/matrix?level=9").status_code == 422
    page = admin.get("/skills?group=foundation")
    assert page.status_code == 200
    assert '<th scope="col" class="n" title="foundation">Linux administration</th>' in page.text
    assert "key-person risk" in page.text  # networking: nobody rated
    manager = logged_in(app, "manager").get("/api/v1/skills/matrix").json()
    assert {row["key"] for row in manager["rows"]} == {"p1", "p2"}
    engineer = logged_in(app, "engineer").get("/api/v1/skills/matrix").json()
    assert [row["key"] for row in engineer["rows"]] == ["p1"]
    assert logged_in(app, "viewer").get("/skills").status_code == 403
    # answers are cached per data version: a new rating shows at once
    r = admin.put(
        f"/api/v1/people/{world.people['p2']}/skills/networking",
        json={"proficiency": 4},
        headers={"X-CSRF-Token": admin.csrf},
    )
    assert r.status_code == 200, r.text
    again = admin.get("/api/v1/skills/matrix?limit=2&group=foundation").json()
    assert again["columns"][1]["bus_factor"] == 1


def test_matrix_downloads_are_spreadsheet_safe(app: Any, world: World, more: dict[str, int]) -> None:
    from openpyxl import load_workbook

    admin = logged_in(app, "admin")
    r = admin.get(f"/skills.csv?team={world.beta}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0][:7] == ["id", "name", "team", "role", "level", "site", "Linux administration"]
    names = [row[1] for row in rows[1:-2]]
    assert names == ['\'=HYPERLINK("http://x","y")', "Linus T"]  # neutralised: text
    assert rows[-1][1].startswith("bus factor")
    x = admin.get(f"/skills.xlsx?team={world.beta}")
    assert x.status_code == 200
    ws = load_workbook(io.BytesIO(x.content)).active
    cell = ws.cell(row=2, column=2)
    assert cell.value == '=HYPERLINK("http://x","y")' and cell.data_type == "s"
    assert ws.max_row == 5  # header, two people, target, bus factor


def test_a_manager_sees_the_matrix_of_their_own_team_only(
    app: Any, world: World, more: dict[str, int]
) -> None:
    """Managers see their teams' matrix (issue 10 §2): the page, its CSV and XLSX and the
    certifications view hold Alpha's people only; filtering to another team shows no one."""
    from openpyxl import load_workbook

    m = logged_in(app, "manager")
    page = m.get("/skills").text
    assert "Ada Lovelace" in page and "Grace Hopper" in page
    assert "Linus T" not in page and "HYPERLINK" not in page  # Beta's people
    rows = list(csv.reader(io.StringIO(m.get("/skills.csv").text)))
    assert [row[1] for row in rows[1:-2]] == ["Ada Lovelace", "Grace Hopper"]
    ws = load_workbook(io.BytesIO(m.get("/skills.xlsx").content)).active
    assert [ws.cell(row=r, column=2).value for r in range(2, ws.max_row - 1)] == [
        "Ada Lovelace",
        "Grace Hopper",
    ]
    beta = m.get(f"/skills?team={world.beta}")
    assert beta.status_code == 200 and "Linus T" not in beta.text and "Ada Lovelace" not in beta.text
    assert [row[1] for row in csv.reader(io.StringIO(m.get(f"/skills.csv?team={world.beta}").text))][
        1:-2
    ] == []
    certs = m.get("/certifications").text
    assert "Linus T" not in certs and "Grace Hopper" in certs


def test_people_list_filters_sorts_and_reaches_inactive_people(
    app: Any, world: World, more: dict[str, int]
) -> None:
    admin = logged_in(app, "admin")
    api = admin.get("/api/v1/people?status=inactive").json()
    assert [p["key"] for p in api] == ["p4"]
    page = admin.get("/people?status=inactive")
    assert page.status_code == 200 and f'href="/people/{more["p4"]}"' in page.text
    assert "Old Timer" in page.text and "Ada Lovelace" not in page.text
    assert [p["key"] for p in admin.get("/api/v1/people?status=all&sort=level&dir=desc").json()][:2] == [
        "p4",
        "p1",
    ]
    assert [p["key"] for p in admin.get("/api/v1/people?role=operations-engineer").json()] == ["p1"]
    assert [p["key"] for p in admin.get(f"/api/v1/people?team={world.beta}&level=1").json()] == ["p5"]
    assert admin.get("/api/v1/people?sort=salary").status_code == 422
    assert admin.get("/people?sort=salary").status_code == 422
    # a manager filtering for another team sees nobody, not that team
    manager = logged_in(app, "manager")
    assert manager.get(f"/api/v1/people?team={world.beta}").json() == []
    assert {p["key"] for p in manager.get("/api/v1/people?status=all").json()} == {"p1", "p2", "p4"}
    assert "Aaron Outsider" not in admin.get("/people?status=all&search=aaron").text


def test_expired_certifications_are_on_the_dashboard(app: Any, world: World, more: dict[str, int]) -> None:
    """An RHCE that expired 10 days ago appears on the dashboard (issue 10 §1), with the
    name only for callers who may read the person."""
    admin = logged_in(app, "admin")
    d = admin.get("/api/v1/dashboard").json()
    assert [(r["name"], r["certification"], r["days"]) for r in d["expired"]] == [
        ("Grace Hopper", "rhce", -10),
        ("Linus T", "nca-aiio", -700),
    ]
    page = admin.get("/").text
    assert 'id="expired-count">2<' in page and "✗ 2026-11-22" in page
    manager = logged_in(app, "manager").get("/api/v1/dashboard").json()
    assert [r["name"] for r in manager["expired"]] == ["Grace Hopper", None]


def test_skills_matrix_against_a_saved_plan(app: Any, world: World, more: dict[str, int]) -> None:
    """With a saved plan the targets are the plan's, at its deadline month: a column's is
    the most any target slot or domain cover needs, a person's what their role's slots need;
    a person without a role is held to the column's target. The bus factor counts people
    at or above the column's target."""
    from gputeam.planning import Plan

    admin = logged_in(app, "admin")
    r = admin.post(
        "/plan",
        data={"gpus": "512", "horizon_months": "12", "action": "save", "csrf_token": admin.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    plan = Plan.model_validate(admin.get("/api/v1/plans/latest").json()["plan"])
    month = plan.target.at(plan.gaps.month)
    column: dict[str, int] = {}
    role: dict[tuple[str, str], int] = {}
    for slot in month.slots:
        for domain, proficiency in slot.domains.items():
            column[domain] = max(column.get(domain, 0), proficiency)
            role[slot.role, domain] = max(role.get((slot.role, domain), 0), proficiency)
    for cover in month.coverage:
        column[cover.domain] = max(column.get(cover.domain, 0), cover.proficiency)
    # the packaged catalog's template at 512 GPUs: Linux at 3, by the operations engineers too
    assert (column["linux"], role["operations-engineer", "linux"], column["networking"]) == (3, 3, 3)

    m = admin.get("/api/v1/skills/matrix?status=all").json()
    assert m["target_source"] == "plan"
    assert {c["domain"]: c["target"] for c in m["columns"]} == {
        c["domain"]: column.get(c["domain"]) for c in m["columns"]
    }
    linux = next(c for c in m["columns"] if c["domain"] == "linux")
    assert linux["bus_factor_at"] == 3
    rows = {row["key"]: row for row in m["rows"]}
    ada = next(c for c in rows["p1"]["cells"] if c["domain"] == "linux")  # operations-engineer
    assert (ada["target"], ada["status"]) == (3, "meets")
    grace = next(c for c in rows["p2"]["cells"] if c["domain"] == "linux")  # no role: the column's
    assert (grace["target"], grace["status"]) == (3, "meets")
    unrated = next(c for c in rows["p2"]["cells"] if c["domain"] == "networking")  # counts as 0
    assert unrated == {"domain": "networking", "proficiency": None, "target": 3, "status": "below"}
    assert linux["bus_factor"] == 4  # p1, p2, p3 at 3 and p5 at 4
    page = admin.get("/skills")
    assert page.status_code == 200 and "plan" in page.text
