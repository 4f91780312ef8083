"""The role × endpoint authorisation matrix: every principal tries every endpoint; what
its role allows succeeds, everything else is refused (401/403/404, or a redirect to the
login page) and changes nothing (the audit log does not grow)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import func, select

from gputeam import store

from .conftest import PASSWORD, ROLES, ROSTER_CSV, World, logged_in, token_for

#: Two essays (one marked in the matrix, so the result stays open and every assessor may
#: mark again) and three choice questions: 5 questions at 40/38/22 draw 2/2/1, all of them.
TWO_ESSAYS = """// [id:essay-a] [tag:domain-networking]
::Essay A::Explain how you drain a GPU node.{}

// [id:essay-b] [tag:domain-networking]
::Essay B::Explain how you check InfiniBand links.{}

// [id:sto-1] [tag:domain-storage]
::Storage 1::Which storage question is this?{=Right ~Wrong}

// [id:sto-2] [tag:domain-storage]
::Storage 2::Which other storage question is this?{=Right ~Wrong}

// [id:ops-1] [tag:domain-operations]
::Operations 1::Which operations question is this?{=Right ~Wrong}
"""

ALL = set(ROLES)
STAFF = {"admin", "manager", "engineer"}
MGMT = {"admin", "manager"}
ADMIN = {"admin"}


@dataclass(frozen=True)
class Exams:
    """The exam data the matrix reaches: in programme acme-l2 (a practical with one
    criterion), the engineer's attempt in progress (``mine``, an item of it) and p3's
    (Beta); in essays-l2, p2's attempt handed in and awaiting the marking of two essays."""

    mine: int
    item: str
    other: int
    other_item: str
    essays: int


NOBODY: set[str] = set()
ENGINEER = {"engineer"}


def exam_rows(w: World, e: Exams) -> list[tuple[str, str, dict[str, Any], set[str]]]:
    """The exam endpoints: an engineer sits their own attempt only (managers and admins
    read it, answer and hand in for nobody); item analysis, retiring and essay marking for
    managers and admins; practical grading and sign-off by assessors (here: managers and
    admins), never anyone else."""
    p1, p2, p3 = w.people["p1"], w.people["p2"], w.people["p3"]
    grades = {"grades": {"drain": {"grade": "met", "evidence": "https://wiki.example/lab/{role}"}}}
    return [
        ("GET", f"/api/v1/attempts/{e.mine}", {}, STAFF),
        ("GET", f"/api/v1/attempts/{e.other}", {}, ADMIN),
        ("GET", f"/exams/attempts/{e.mine}", {}, STAFF),
        ("GET", f"/exams/attempts/{e.other}", {}, ADMIN),
        ("GET", f"/api/v1/people/{p1}/attempts", {}, STAFF),
        ("GET", f"/api/v1/people/{p3}/attempts", {}, ADMIN),
        ("PUT", f"/api/v1/attempts/{e.mine}/answers/{e.item}", {"json": {"value": 0}}, ENGINEER),
        ("PUT", f"/api/v1/attempts/{e.other}/answers/{e.other_item}", {"json": {"value": 0}}, NOBODY),
        (
            "POST",
            f"/exams/attempts/{e.mine}/save?item={e.item}",
            {"data": {"present": e.item, f"q:{e.item}": "1"}},
            ENGINEER,
        ),
        (
            "POST",
            f"/exams/attempts/{e.other}/save?item={e.other_item}",
            {"data": {"present": e.other_item, f"q:{e.other_item}": "1"}},
            NOBODY,
        ),
        ("POST", f"/api/v1/attempts/{e.other}/finish", {}, NOBODY),
        ("POST", f"/exams/attempts/{e.other}/finish", {}, NOBODY),
        ("POST", f"/api/v1/attempts/{e.mine}/finish", {}, ENGINEER),
        ("POST", f"/exams/attempts/{e.mine}/finish", {}, ENGINEER),  # handed in already: the result
        ("GET", "/api/v1/programmes/acme-l2/items", {}, MGMT),
        ("GET", "/api/v1/programmes/acme-l2/items.csv", {}, MGMT),
        ("GET", "/exams/acme-l2/items", {}, MGMT),
        ("GET", "/exams/acme-l2/items.csv", {}, MGMT),
        ("POST", "/api/v1/programmes/acme-l2/items/storage-011/retire", {}, MGMT),
        ("POST", "/exams/acme-l2/items/operations-011/retire", {}, MGMT),
        ("GET", f"/exams/acme-l2/practical/{p2}", {}, MGMT),
        ("PUT", f"/api/v1/programmes/acme-l2/practicals/{p2}", {"json": grades}, MGMT),
        ("POST", f"/api/v1/programmes/acme-l2/practicals/{p2}/sign-off", {}, MGMT),
        (
            "POST",
            f"/exams/acme-l2/practical/{p2}",
            {"data": {"grade:drain": "met", "evidence:drain": "", "action": "sign-off"}},
            MGMT,
        ),
        ("GET", "/exams/essays-l2/marking", {}, MGMT),
        ("GET", "/api/v1/programmes/essays-l2/marking", {}, MGMT),
        ("GET", f"/api/v1/attempts/{e.essays}/essays", {}, MGMT),
        ("GET", f"/exams/attempts/{e.essays}/marking", {}, MGMT),
        (
            "PUT",
            f"/api/v1/attempts/{e.essays}/marks/essay-a",
            {"json": {"mark": 0.5, "comment": "{role}"}},
            MGMT,
        ),
        (
            "POST",
            f"/exams/attempts/{e.essays}/marking",
            {"data": {"mark:essay-a": "0.25", "comment:essay-a": "page {role}"}},
            MGMT,
        ),
    ]


def matrix(w: World, victim: int, e: Exams, plan: int) -> list[tuple[str, str, dict[str, Any], set[str]]]:
    """(method, path, request kwargs, roles allowed). p1: the engineer's own record, in
    Alpha (the manager's team); p2: Alpha; p3: Beta; ``plan``: a saved plan."""
    p1, p2, p3 = w.people["p1"], w.people["p2"], w.people["p3"]
    cert = {"cert_id": "nca-aiio", "valid_from": "2026-06-{day}"}
    return [
        *exam_rows(w, e),
        ("GET", "/api/v1/me", {}, ALL),
        ("GET", "/api/v1/dashboard", {}, ALL),
        ("GET", "/api/v1/catalog", {}, ALL),
        ("GET", "/api/v1/catalog/roles", {}, ALL),
        ("GET", "/api/v1/teams", {}, ALL),
        ("GET", "/api/v1/tokens", {}, ALL),
        ("GET", "/api/v1/plans", {}, ALL),
        ("GET", "/api/v1/plans/inputs", {}, ALL),
        ("GET", "/api/v1/people", {}, STAFF),
        ("GET", f"/api/v1/people/{p1}", {}, STAFF),
        ("GET", f"/api/v1/people/{p2}", {}, MGMT),
        ("GET", f"/api/v1/people/{p3}", {}, ADMIN),
        ("GET", f"/api/v1/people/{p1}/roadmap", {}, STAFF),
        ("GET", f"/api/v1/people/{p3}/certifications", {}, ADMIN),
        ("GET", f"/api/v1/calendar/people/{p1}.ics", {}, STAFF),
        ("GET", f"/api/v1/calendar/people/{p3}.ics", {}, ADMIN),
        ("GET", f"/api/v1/calendar/teams/{w.alpha}.ics", {}, MGMT),
        ("GET", f"/api/v1/calendar/teams/{w.beta}.ics", {}, ADMIN),
        ("GET", "/api/v1/export", {}, ADMIN),
        ("GET", "/api/v1/users", {}, ADMIN),
        ("POST", "/api/v1/people", {"json": {"key": "new-{role}", "name": "N", "team_id": w.alpha}}, MGMT),
        ("POST", "/api/v1/people", {"json": {"key": "beta-{role}", "name": "N", "team_id": w.beta}}, ADMIN),
        ("PATCH", f"/api/v1/people/{p1}", {"json": {"title": "t-{role}"}}, MGMT),
        ("PATCH", f"/api/v1/people/{p2}", {"json": {"title": "t-{role}"}}, MGMT),
        ("PATCH", f"/api/v1/people/{p3}", {"json": {"title": "t-{role}"}}, ADMIN),
        ("PUT", f"/api/v1/people/{p1}/skills/linux", {"json": {"proficiency": 2}}, STAFF),
        ("PUT", f"/api/v1/people/{p2}/skills/linux", {"json": {"proficiency": 2}}, MGMT),
        ("PUT", f"/api/v1/people/{p3}/skills/linux", {"json": {"proficiency": 2}}, ADMIN),
        ("POST", f"/api/v1/people/{p1}/certifications", {"json": cert}, STAFF),
        ("POST", f"/api/v1/people/{p2}/certifications", {"json": cert}, MGMT),
        ("POST", f"/api/v1/people/{p3}/certifications", {"json": cert}, ADMIN),
        (
            "POST",
            f"/api/v1/people/{p3}/enrolments",
            {"json": {"course_id": "{course}", "started_on": "2026-11-01"}},
            ADMIN,
        ),
        ("POST", "/api/v1/plans", {"json": {}}, MGMT),
        (
            "POST",
            "/api/v1/import/roster",
            {"files": {"file": ("r.csv", ROSTER_CSV.encode(), "text/csv")}, "data": {"dry_run": "true"}},
            ADMIN,
        ),
        ("POST", "/api/v1/teams", {"json": {"name": "team-{role}"}}, ADMIN),
        (
            "POST",
            "/api/v1/users",
            {"json": {"username": "u-{role}", "password": "a sturdy pass 12", "role": "viewer"}},
            ADMIN,
        ),
        ("PATCH", f"/api/v1/users/{w.users['viewer']}", {"json": {"active": True}}, ADMIN),
        ("GET", "/api/v1/programmes", {}, STAFF),
        ("PUT", f"/api/v1/people/{p1}/exam-time", {"json": {"time_multiplier": 1.25}}, MGMT),
        ("PUT", f"/api/v1/people/{p3}/exam-time", {"json": {"time_multiplier": 1.25}}, ADMIN),
        ("DELETE", f"/api/v1/people/{victim}", {}, ADMIN),
        # pages
        ("GET", "/", {}, ALL),
        ("GET", "/plan", {}, ALL),
        ("GET", "/catalog", {}, ALL),
        ("GET", "/account", {}, ALL),
        ("GET", "/people", {}, STAFF),
        ("GET", f"/people/{p1}", {}, STAFF),
        ("GET", f"/people/{p3}", {}, ADMIN),
        ("GET", "/import", {}, ADMIN),
        ("GET", "/exams", {}, STAFF),
        ("GET", "/admin/users", {}, ADMIN),
        ("POST", "/plan", {"data": {"gpus": "128", "action": "preview"}}, MGMT),
        (
            "POST",
            f"/people/{p3}/certifications",
            {"data": {"cert_id": "nca-aiio", "valid_from": "2026-05-{day}"}},
            ADMIN,
        ),
        (
            "POST",
            f"/people/{p1}/certifications",
            {"data": {"cert_id": "nca-aiio", "valid_from": "2026-04-{day}"}},
            STAFF,
        ),
        (
            "POST",
            "/admin/users",
            {"data": {"username": "f-{role}", "password": "a sturdy pass 12", "role": "viewer"}},
            ADMIN,
        ),
        ("POST", f"/people/{p1}/skills", {"data": {"domain": "linux", "proficiency": "3"}}, STAFF),
        ("POST", f"/people/{p2}/skills", {"data": {"domain": "linux", "proficiency": "3"}}, MGMT),
        ("POST", f"/people/{p3}/skills", {"data": {"domain": "linux", "proficiency": "3"}}, ADMIN),
        ("GET", "/people/new", {}, MGMT),
        (
            "POST",
            "/account/password",
            {
                "data": {
                    "current_password": PASSWORD,
                    "new_password": "{role}-new-password",
                    "new_password_again": "{role}-new-password",
                }
            },
            ALL,
        ),
        ("POST", "/people/new", {"data": person("pg-{role}", w.alpha)}, MGMT),
        ("GET", f"/people/{p1}/edit", {}, MGMT),
        ("GET", f"/people/{p3}/edit", {}, ADMIN),
        ("POST", f"/people/{p1}/edit", {"data": person("p1", w.alpha, "t-{role}")}, MGMT),
        ("POST", f"/people/{p2}/edit", {"data": person("p2", w.alpha, "t-{role}")}, MGMT),
        ("POST", f"/people/{p3}/edit", {"data": person("p3", w.beta, "t-{role}")}, ADMIN),
        # teams (issue 10 §2): admins every team, managers their own, no one else
        ("GET", f"/api/v1/teams/{w.alpha}", {}, MGMT),
        ("GET", f"/api/v1/teams/{w.beta}", {}, ADMIN),
        ("GET", f"/api/v1/teams/{w.alpha}/burnup", {}, MGMT),
        ("GET", f"/api/v1/people/{p1}/burnup", {}, STAFF),
        ("GET", f"/api/v1/people/{p3}/burnup", {}, ADMIN),
        ("PATCH", f"/api/v1/teams/{w.alpha}", {"json": {"name": "Alpha"}}, MGMT),
        ("PATCH", f"/api/v1/teams/{w.beta}", {"json": {"name": "Beta"}}, ADMIN),
        ("POST", f"/api/v1/teams/{w.alpha}/people", {"json": {"person_ids": [p2]}}, MGMT),
        ("POST", f"/api/v1/teams/{w.alpha}/people", {"json": {"person_ids": [p3]}}, ADMIN),
        (
            "POST",
            f"/api/v1/teams/{w.alpha}/enrolments",
            {"json": {"course_id": "{course}", "started_on": "2026-11-01"}},
            MGMT,
        ),
        (
            "POST",
            f"/api/v1/teams/{w.beta}/enrolments",
            {"json": {"course_id": "{course}", "started_on": "2026-11-01"}},
            ADMIN,
        ),
        # a saved plan adopted: for the organisation by admins, for a team by its managers
        ("POST", f"/api/v1/plans/{plan}/adopt", {}, ADMIN),
        ("POST", f"/plans/{plan}/adopt", {}, ADMIN),
        ("POST", f"/api/v1/teams/{w.alpha}/adopt", {"json": {"plan_id": plan}}, MGMT),
        ("POST", f"/api/v1/teams/{w.beta}/adopt", {"json": {"plan_id": plan}}, ADMIN),
        ("POST", f"/teams/{w.alpha}/adopt", {"data": {"plan_id": str(plan)}}, MGMT),
        ("POST", f"/teams/{w.beta}/adopt", {"data": {"plan_id": str(plan)}}, ADMIN),
        # the skills matrix and the certifications view (each narrowed to whom one may read)
        ("GET", "/skills", {}, STAFF),
        ("GET", f"/skills?team={w.alpha}", {}, STAFF),
        ("GET", "/skills.csv", {}, STAFF),
        ("GET", "/skills.xlsx", {}, STAFF),
        ("GET", "/certifications", {}, STAFF),
        ("GET", "/api/v1/skills/matrix", {}, STAFF),
        ("GET", "/api/v1/certifications", {}, STAFF),
        ("GET", "/teams", {}, MGMT),
        ("GET", f"/teams/{w.alpha}", {}, MGMT),
        ("GET", f"/teams/{w.beta}", {}, ADMIN),
        ("POST", "/teams", {"data": {"name": "page-team-{role}"}}, ADMIN),
        ("POST", f"/teams/{w.alpha}/rename", {"data": {"name": "Alpha"}}, MGMT),
        ("POST", f"/teams/{w.beta}/rename", {"data": {"name": "Beta"}}, ADMIN),
        (
            "POST",
            f"/teams/{w.alpha}/enrol",
            {"data": {"target": "course:{course}", "started_on": "2026-11-02"}},
            MGMT,
        ),
        ("POST", f"/teams/{w.beta}/people", {"data": {"person_id": str(p3)}}, ADMIN),
        (
            "POST",
            f"/people/{p1}/enrol",
            {"data": {"target": "course:{course}", "started_on": "2026-11-03"}},
            STAFF,
        ),
        (
            "POST",
            f"/people/{p3}/enrol",
            {"data": {"target": "course:{course}", "started_on": "2026-11-03"}},
            ADMIN,
        ),
        ("POST", f"/people/{p2}/reactivate", {}, MGMT),
        ("POST", f"/people/{p3}/reactivate", {}, ADMIN),
        ("GET", f"/people/{p2}/delete", {}, MGMT),
        ("GET", f"/people/{p3}/delete", {}, ADMIN),
        ("GET", "/export", {}, ADMIN),
        ("GET", "/export/download?format=xlsx", {}, ADMIN),
    ]


def person(key: str, team: int, title: str = "") -> dict[str, str]:
    """The person form's fields."""
    return {
        "key": key,
        "name": "N " + key,
        "title": title,
        "level": "2",
        "experience_months": "0",
        "weekly_study_hours": "4",
        "team_id": str(team),
    }


def _audit_count(db: Any) -> int:
    with db.session() as s:
        return int(
            s.scalar(select(func.count(store.AuditEntry.id)).where(store.AuditEntry.action != "login")) or 0
        )


def _fill(kwargs: dict[str, Any], role: str, course: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in kwargs.items():
        if isinstance(v, dict) and k in ("json", "data"):
            day = f"{10 + len(role):02d}" if role != "manager" else "28"
            out[k] = {
                kk: vv.replace("{role}", role).replace("{course}", course).replace("{day}", day)
                if isinstance(vv, str)
                else vv
                for kk, vv in v.items()
            }
        else:
            out[k] = v
    return out


def _call(client: Any, method: str, path: str, kwargs: dict[str, Any], csrf: str | None) -> Any:
    kwargs = dict(kwargs)
    if method != "GET" and csrf is not None:
        if path.startswith("/api/"):
            kwargs["headers"] = {"X-CSRF-Token": csrf}
        else:
            kwargs["data"] = {**kwargs.get("data", {}), "csrf_token": csrf}
    return client.request(method, path, follow_redirects=False, **kwargs)


def _allowed_ok(r: Any) -> bool:
    return r.status_code < 400


def _denied_ok(r: Any, path: str) -> bool:
    if path.startswith("/api/"):
        return r.status_code in (401, 403, 404)
    return r.status_code in (403, 404) or (
        r.status_code == 303 and r.headers["location"].startswith("/login")
    )


@pytest.fixture
def exams(db: Any, world: World) -> Exams:
    from tests.store.exam_helpers import exam_catalog, right_answers, setup_programme, spec

    from gputeam.certify import read_bank

    catalog, now = exam_catalog(), datetime.now(UTC)
    with db.session() as s:
        prog = setup_programme(s, world.org_id, catalog, rubric=[{"id": "drain", "name": "Drains a node"}])
        mine = store.start_attempt(s, prog, world.people["p1"], now=now, catalog=catalog)
        other = store.start_attempt(s, prog, world.people["p3"], now=now, catalog=catalog)
        first = store.attempt_view(s, mine, now=now)["questions"][0]["id"]
        other_first = store.attempt_view(s, other, now=now)["questions"][0]["id"]
        essays = store.save_programme(s, world.org_id, "essays-l2", spec(questions=5), catalog=catalog)
        store.import_bank(s, essays.id, read_bank(TWO_ESSAYS.encode(), "gift").bank, now=now)
        sat = store.start_attempt(s, essays, world.people["p2"], now=now, catalog=catalog)
        view = store.attempt_view(s, sat, now=now)
        choices = [q for q in view["questions"] if q["type"] != "essay"]
        for item, choice in right_answers({"questions": choices}).items():
            store.save_answer(s, sat.id, world.people["p2"], item, choice, now=now)
        for q in view["questions"]:
            if q["type"] == "essay":
                store.save_answer(s, sat.id, world.people["p2"], q["id"], "Cordon, drain, check.", now=now)
        store.finish_attempt(s, sat.id, now=now, catalog=catalog)
        return Exams(mine.id, first, other.id, other_first, sat.id)


@pytest.fixture
def plan(app: Any) -> int:
    """A plan of the live team, saved by the admin."""
    c = logged_in(app, "admin")
    r = c.post("/api/v1/plans", json={"save": True}, headers={"X-CSRF-Token": c.csrf})
    assert r.status_code == 200, r.text
    return int(c.get("/api/v1/plans").json()[0]["id"])


@pytest.fixture
def victim(db: Any, world: World) -> int:
    with db.session() as s:
        return store.add_person(s, world.org_id, key="victim", name="To Be Deleted", team_id=world.beta).id


def test_role_endpoint_matrix(app: Any, db: Any, world: World, victim: int, exams: Exams, plan: int) -> None:
    from fastapi.testclient import TestClient

    from gputeam.catalog import load_catalog

    course = next(iter(load_catalog().courses))
    principals: list[tuple[str, str | None, Any, str | None]] = [("anonymous", None, TestClient(app), None)]
    for role in ("viewer", "engineer", "manager", "admin"):  # admin last: it deletes
        c = logged_in(app, role)
        principals.append((role, role, c, c.csrf))
    failures = []
    for label, role, client, csrf in principals:
        for method, path, kwargs, allowed in matrix(world, victim, exams, plan):
            before = _audit_count(db)
            r = _call(client, method, path, _fill(kwargs, label, course), csrf)
            may = role is not None and role in allowed
            if may and not _allowed_ok(r):
                failures.append(
                    f"{label} {method} {path}: expected success, got {r.status_code} {r.text[:200]}"
                )
            if not may:
                if not _denied_ok(r, path):
                    failures.append(f"{label} {method} {path}: expected refusal, got {r.status_code}")
                if _audit_count(db) != before:
                    failures.append(f"{label} {method} {path}: refused but changed data")
    assert not failures, "\n".join(failures)


def test_read_scoped_token_cannot_write(
    app: Any, db: Any, world: World, victim: int, exams: Exams, plan: int
) -> None:
    """An admin's read-only token reads everything the admin may read, changes nothing."""
    from fastapi.testclient import TestClient

    from gputeam.catalog import load_catalog

    course = next(iter(load_catalog().courses))
    c = TestClient(app, headers={"Authorization": "Bearer " + token_for(app, "admin", ["read"])})
    for method, path, kwargs, allowed in matrix(world, victim, exams, plan):
        if not path.startswith("/api/") or "admin" not in allowed:
            continue
        before = _audit_count(db)
        r = c.request(method, path, **_fill(kwargs, "tok", course))
        if path == "/api/v1/users":  # user administration needs the admin scope
            assert r.status_code == 403
        elif method == "GET":
            assert r.status_code == 200, (path, r.text)
        else:
            assert r.status_code == 403, (method, path, r.status_code)
            assert _audit_count(db) == before


def test_engineer_sees_only_their_own_record(app: Any, world: World) -> None:
    c = logged_in(app, "engineer")
    assert [p["key"] for p in c.get("/api/v1/people").json()] == ["p1"]
    assert "Grace" not in c.get("/people").text
    m = logged_in(app, "manager")
    assert sorted(p["key"] for p in m.get("/api/v1/people").json()) == ["p1", "p2"]
