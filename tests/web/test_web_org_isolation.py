"""Organisations sharing one database do not see each other: the server tracks its own
organisation (the first), and every route that takes an id answers 404 for a record of
another organisation, changing nothing; every list, page and download without an id shows
nothing of another organisation's; exports carry only the organisation's own audit log."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from tests.store.exam_helpers import CERT, START, exam_catalog, setup_programme

from gputeam import store

from .conftest import SECRET, World, logged_in
from .test_web_docs import _routes

#: Route parameters that name no organisation's data: users are the installation's
#: accounts (tests/web/test_web_access.py covers who may change them), a token belongs
#: to its user (only the owner or an admin may revoke it), and an upload token of the
#: guided import belongs to the user who uploaded (tests/web/test_web_guided_import.py
#: shows another user's upload answering 404 on every step).
NOT_ORGANISATION_DATA = {"user_id", "token_id", "token"}


#: who saved the other organisation's scenario and plan (a marker, as the names below)
PLANNER = "other-corp-planner"


@pytest.fixture
def other(db: Any, world: World) -> dict[str, Any]:
    """A second organisation in the same database, with one of everything."""
    with db.session() as s:
        org = store.create_organisation(s, "Other Corp")
        team = store.create_team(s, org.id, "Gamma")
        p = store.add_person(s, org.id, key="o1", name="Other Person", team_id=team.id, salary=123456.0)
        store.rate_skill(s, p.id, "linux", 2)
        held = store.add_certification(s, p.id, "nca-aiio", date(2025, 1, 1), date(2028, 1, 1))
        course = next(iter(_catalog().courses))
        enrolment = store.enrol(s, p.id, course, date(2026, 1, 1))
        item = store.add_roadmap_item(
            s, p.id, kind="course", ref=course, title="Course", start=date(2026, 1, 1), due=date(2026, 3, 1)
        )
        # marked, so that a list showing them is caught (see MARKERS)
        scenario = store.save_scenario(s, org.id, "live", {"fleet": {"gpu_model": "OTHERGPU"}}, actor=PLANNER)
        plan = store.save_plan(
            s, scenario.id, {"roadmaps": [], "note": "OTHERPLAN"}, date(2026, 12, 1), actor=PLANNER
        )
        cred = store.issue_credential(
            s,
            org.id,
            p.id,
            "nca-aiio",
            catalog=_catalog(),
            secret=SECRET,
            base_url="https://other.example",
            now=datetime(2026, 12, 2, tzinfo=UTC),
        )
        prog = setup_programme(
            s, org.id, exam_catalog(), code="other-l2", rubric=[{"id": "drain", "name": "Drains a node"}]
        )
        attempt = store.start_attempt(s, prog, p.id, now=START, catalog=exam_catalog())
        bank_item = store.bank_items(s, prog.id)[0].item_id
        approval = store.request_skill(s, p.id, "linux", 4, actor="other-person")
        return {
            "org_id": org.id,
            "team_id": team.id,
            "person_id": p.id,
            "held_id": held.id,
            "enrolment_id": enrolment.id,
            "item_id": item.id,
            "plan_id": plan.id,
            "uuid": cred.uuid,
            "key_id": cred.key_id,
            "key_did": s.get(store.IssuerKey, cred.key_id).did,
            "code": "other-l2",
            "cert_id": CERT,
            "attempt_id": attempt.id,
            "bank_item": bank_item,
            "approval_id": approval.id,
        }


def _catalog() -> Any:
    from gputeam.catalog import load_catalog

    return load_catalog()


def _bodies(course: str, team: int) -> dict[tuple[str, str], dict[str, Any]]:
    """A valid request for every route that takes an id (so that only the id decides)."""
    cert = {"cert_id": "nca-aiio", "valid_from": "2026-06-01"}
    form = {
        "key": "o1",
        "name": "Renamed",
        "title": "",
        "level": "2",
        "experience_months": "0",
        "weekly_study_hours": "4",
        "team_id": str(team),
    }
    return {
        ("GET", "/api/v1/people/{person_id}"): {},
        ("PATCH", "/api/v1/people/{person_id}"): {"json": {"title": "pwned"}},
        ("DELETE", "/api/v1/people/{person_id}"): {},
        ("PUT", "/api/v1/people/{person_id}/skills/{domain}"): {"json": {"proficiency": 4}},
        ("GET", "/api/v1/people/{person_id}/certifications"): {},
        ("POST", "/api/v1/people/{person_id}/certifications"): {"json": cert},
        ("DELETE", "/api/v1/certifications/{held_id}"): {},
        ("GET", "/api/v1/people/{person_id}/enrolments"): {},
        ("POST", "/api/v1/people/{person_id}/enrolments"): {
            "json": {"course_id": course, "started_on": "2026-11-01"}
        },
        ("PATCH", "/api/v1/enrolments/{enrolment_id}"): {"json": {"hours_done": 5}},
        ("GET", "/api/v1/people/{person_id}/roadmap"): {},
        ("PATCH", "/api/v1/roadmap-items/{item_id}"): {"json": {"status": "done"}},
        ("GET", "/api/v1/plans/{plan_id}"): {},
        ("POST", "/api/v1/plans/{plan_id}/adopt"): {},
        ("GET", "/api/v1/calendar/people/{person_id}.ics"): {},
        ("GET", "/api/v1/calendar/teams/{team_id}.ics"): {},
        ("GET", "/people/{person_id}"): {},
        ("GET", "/people/{person_id}/edit"): {},
        ("POST", "/people/{person_id}/edit"): {"data": form},
        ("POST", "/people/{person_id}/skills"): {"data": {"domain": "linux", "proficiency": "4"}},
        ("POST", "/people/{person_id}/certifications"): {"data": cert},
        ("POST", "/roadmap-items/{item_id}/done"): {},
        ("POST", "/enrolments/{enrolment_id}/hours"): {"data": {"hours_done": "5"}},
        ("GET", "/api/v1/people/{person_id}/credentials"): {},
        ("POST", "/api/v1/people/{person_id}/credentials"): {"json": {"achievement": "nca-aiio"}},
        ("POST", "/api/v1/credentials/{uuid}/revoke"): {"json": {"reason": "not yours"}},
        ("GET", "/people/{person_id}/credentials"): {},
        ("POST", "/people/{person_id}/credentials"): {"data": {"achievement": "nca-aiio"}},
        ("GET", "/credentials/{uuid}"): {},
        ("GET", "/credentials/{uuid}/credential.json"): {},
        ("GET", "/credentials/{uuid}/credential.jwt"): {},
        # a programme's achievement page: the other organisation's programme
        ("GET", "/achievements/{cert_id}/programmes/{code}"): {},
        ("GET", "/credentials/{uuid}/badge.png"): {},
        ("GET", "/credentials/{uuid}/badge.svg"): {},
        ("POST", "/credentials/{uuid}/revoke"): {"data": {"reason": "not yours"}},
        ("GET", "/credentials/status/{key_id}"): {},
        ("GET", "/api/v1/teams/{team_id}"): {},
        ("PATCH", "/api/v1/teams/{team_id}"): {"json": {"name": "pwned"}},
        ("POST", "/api/v1/teams/{team_id}/people"): {"json": {"person_ids": [1]}},
        ("POST", "/api/v1/teams/{team_id}/enrolments"): {
            "json": {"course_id": course, "started_on": "2026-11-01"}
        },
        ("POST", "/api/v1/teams/{team_id}/adopt"): {"json": {"plan_id": 1}},
        ("GET", "/api/v1/teams/{team_id}/burnup"): {},
        ("GET", "/api/v1/people/{person_id}/burnup"): {},
        ("GET", "/teams/{team_id}"): {},
        ("POST", "/teams/{team_id}/rename"): {"data": {"name": "pwned"}},
        ("POST", "/teams/{team_id}/archive"): {},
        ("POST", "/teams/{team_id}/restore"): {},
        ("POST", "/teams/{team_id}/people"): {"data": {"person_id": "1"}},
        ("POST", "/teams/{team_id}/enrol"): {
            "data": {"target": f"course:{course}", "started_on": "2026-11-01"}
        },
        ("POST", "/people/{person_id}/deactivate"): {},
        ("POST", "/people/{person_id}/reactivate"): {},
        ("GET", "/people/{person_id}/delete"): {},
        ("POST", "/people/{person_id}/delete"): {"data": {"confirm": "o1"}},
        ("POST", "/people/{person_id}/enrol"): {
            "data": {"target": f"course:{course}", "started_on": "2026-11-01"}
        },
        ("POST", "/enrolments/{enrolment_id}/done"): {},
        ("POST", "/plans/{plan_id}/adopt"): {},
        ("POST", "/teams/{team_id}/adopt"): {"data": {"plan_id": "1"}},
        # internal certification programmes (issue 11): the other organisation's
        # programme code, attempt and candidate
        ("GET", "/api/v1/attempts/{attempt_id}"): {},
        ("PUT", "/api/v1/attempts/{attempt_id}/answers/{item_id}"): {"json": {"value": 0}},
        ("POST", "/api/v1/attempts/{attempt_id}/finish"): {},
        ("GET", "/api/v1/people/{person_id}/attempts"): {},
        ("PUT", "/api/v1/people/{person_id}/exam-time"): {"json": {"time_multiplier": 1.5}},
        ("GET", "/api/v1/programmes/{code}/items"): {},
        ("GET", "/api/v1/programmes/{code}/items.csv"): {},
        ("POST", "/api/v1/programmes/{code}/attempts"): {},
        ("POST", "/api/v1/programmes/{code}/items/{item_id}/retire"): {},
        ("PUT", "/api/v1/programmes/{code}/practicals/{person_id}"): {"json": {"grades": {"drain": True}}},
        ("POST", "/api/v1/programmes/{code}/practicals/{person_id}/sign-off"): {},
        ("GET", "/exams/attempts/{attempt_id}"): {},
        ("POST", "/exams/attempts/{attempt_id}/save"): {"data": {"item_id": "x"}},
        ("POST", "/exams/attempts/{attempt_id}/finish"): {},
        ("GET", "/exams/{code}/items"): {},
        ("GET", "/exams/{code}/items.csv"): {},
        ("POST", "/exams/{code}/items/{item_id}/retire"): {},
        ("GET", "/exams/{code}/practical/{person_id}"): {},
        ("POST", "/exams/{code}/practical/{person_id}"): {"data": {"drain": "pass"}},
        ("POST", "/exams/{code}/start"): {},
        # essay marking: the other organisation's programme and attempt
        ("GET", "/api/v1/programmes/{code}/marking"): {},
        ("GET", "/api/v1/attempts/{attempt_id}/essays"): {},
        ("PUT", "/api/v1/attempts/{attempt_id}/marks/{item_id}"): {"json": {"mark": 1}},
        ("GET", "/exams/{code}/marking"): {},
        ("GET", "/exams/attempts/{attempt_id}/marking"): {},
        ("POST", "/exams/attempts/{attempt_id}/marking"): {"data": {"mark:x": "1"}},
        # approvals: the other organisation's person's waiting rating
        ("POST", "/api/v1/approvals/{approval_id}/approve"): {},
        ("POST", "/api/v1/approvals/{approval_id}/reject"): {},
        ("POST", "/approvals/{approval_id}/approve"): {},
        ("POST", "/approvals/{approval_id}/reject"): {},
    }


def _id_routes() -> list[tuple[str, str]]:
    from gputeam.web import create_app
    from gputeam.web.settings import Settings

    app = create_app(Settings(dev=True), database=object())
    out = []
    for path, methods in _routes(app):
        params = set(re.findall(r"\{(\w+)\}", path))
        # domain, kind, section, cert_id: the catalog's (the installation's), not an organisation's
        if params - {"domain", "kind", "section", "cert_id"} and not params & NOT_ORGANISATION_DATA:
            out.extend((m, path) for m in sorted(methods - {"HEAD"}))
    return out


def test_every_route_with_an_id_is_covered() -> None:
    """Adding a route that takes an id means adding it to the isolation test."""
    assert set(_id_routes()) == set(_bodies("c", 1))


def _snapshot(db: Any, org_id: int) -> tuple[int, str]:
    with db.session() as s:
        entries = int(
            s.scalar(
                select(func.count(store.AuditEntry.id)).where(
                    store.AuditEntry.action.not_in(("login", "logout"))
                )
            )
            or 0
        )
        data = json.dumps(
            store.export_data(s, org_id, include_audit=False)["tables"], sort_keys=True, default=str
        )
    return entries, data


@pytest.mark.parametrize(("method", "template"), sorted(_bodies("c", 1)))
def test_other_organisations_records_answer_404(
    app: Any, db: Any, world: World, other: dict[str, int], method: str, template: str
) -> None:
    # sitting an exam needs an account linked to a person: the engineer tries the start
    sits = method in ("POST", "PUT") and template.endswith(
        ("/attempts", "/start", "/save", "/answers/{item_id}")
    )
    admin = logged_in(app, "engineer" if sits else "admin")
    path = template.replace("{domain}", "linux")
    if "/exams/" in path or "/programmes/" in path or "/attempts/" in path:
        path = path.replace("{item_id}", str(other["bank_item"]))  # a bank item, not a roadmap one
    for name, value in other.items():
        path = path.replace("{" + name + "}", str(value))
    kwargs = dict(_bodies(next(iter(_catalog().courses)), other["team_id"])[(method, template)])
    if method != "GET":
        if path.startswith("/api/"):
            kwargs["headers"] = {"X-CSRF-Token": admin.csrf}
        else:
            kwargs["data"] = {**kwargs.get("data", {}), "csrf_token": admin.csrf}
    before = _snapshot(db, other["org_id"])
    r = admin.request(method, path, follow_redirects=False, **kwargs)
    assert r.status_code == 404, (method, path, r.status_code, r.text[:300])
    assert "Other Person" not in r.text and "123456" not in r.text
    assert _snapshot(db, other["org_id"]) == before


def test_lists_and_references_stay_in_the_organisation(
    app: Any, db: Any, world: World, other: dict[str, int]
) -> None:
    admin = logged_in(app, "admin")
    headers = {"X-CSRF-Token": admin.csrf}
    assert "Other Person" not in admin.get("/api/v1/people").text
    assert "Other Person" not in admin.get("/people").text
    assert "Gamma" not in admin.get("/api/v1/teams").text
    # a person, a user or a team membership cannot point into another organisation
    r = admin.post(
        "/api/v1/people", json={"key": "n1", "name": "N", "team_id": other["team_id"]}, headers=headers
    )
    assert r.status_code == 404
    r = admin.patch(
        f"/api/v1/people/{world.people['p2']}", json={"team_id": other["team_id"]}, headers=headers
    )
    assert r.status_code == 404
    r = admin.post(
        "/api/v1/users",
        json={
            "username": "x",
            "password": "a sturdy pass 12",
            "role": "engineer",
            "person_id": other["person_id"],
        },
        headers=headers,
    )
    assert r.status_code == 404
    r = admin.patch(
        f"/api/v1/users/{world.users['manager']}", json={"team_ids": [other["team_id"]]}, headers=headers
    )
    assert r.status_code == 404
    # nor can a team adopt another organisation's plan
    before = _snapshot(db, other["org_id"])
    r = admin.post(f"/api/v1/teams/{world.alpha}/adopt", json={"plan_id": other["plan_id"]}, headers=headers)
    assert r.status_code == 404
    r = admin.post(
        f"/teams/{world.alpha}/adopt",
        data={"plan_id": str(other["plan_id"]), "csrf_token": admin.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 404 and "OTHERPLAN" not in r.text
    assert _snapshot(db, other["org_id"]) == before


def test_cli_imported_organisation_is_invisible_and_exports_apart(
    app: Any, db: Any, db_url: str, world: World, tmp_path: Path
) -> None:
    """The issue's reproduction: `gputeam import roster other.csv --org "Other Corp"`."""
    from typer.testing import CliRunner

    from gputeam.cli.main import app as cli

    (tmp_path / "other.csv").write_text("id,name,level,team\nz1,Zed Other,3,Zeta\n")
    done = CliRunner().invoke(
        cli, ["import", "roster", str(tmp_path / "other.csv"), "--org", "Other Corp", "--db", db_url]
    )
    assert done.exit_code == 0, done.output
    with db.session() as s:
        other_org = store.get_or_create_organisation(s, "Other Corp").id
        zed = store.get_person_by_key(s, other_org, "z1")
        assert zed is not None
        zed_id = zed.id
    admin = logged_in(app, "admin")
    assert admin.get(f"/api/v1/people/{zed_id}").status_code == 404
    r = admin.patch(
        f"/api/v1/people/{zed_id}", json={"name": "Hijacked"}, headers={"X-CSRF-Token": admin.csrf}
    )
    assert r.status_code == 404
    with db.session() as s:
        assert store.get_person(s, zed_id).name == "Zed Other"

    def exported(org: str) -> dict[str, Any]:
        out = CliRunner().invoke(cli, ["export", "--org", org, "--db", db_url])
        assert out.exit_code == 0, out.output
        return json.loads(out.stdout)

    mine, theirs = exported("Acme"), exported("Other Corp")
    ids = {str(v) for v in world.people.values()}
    assert [
        a for a in theirs["tables"]["audit_log"] if a["entity"] == "person" and a["entity_id"] in ids
    ] == []
    # theirs: the organisation's creation and the import; nothing of Acme's
    assert {(a["entity"], a["entity_id"]) for a in theirs["tables"]["audit_log"]} == {
        ("organisation", str(other_org)),
        ("roster", str(other_org)),
    }
    assert ("roster", str(other_org)) not in {
        (a["entity"], a["entity_id"]) for a in mine["tables"]["audit_log"]
    }
    assert any(a["entity"] == "person" for a in mine["tables"]["audit_log"])
    # the web export is the server's organisation's too
    web = admin.get("/api/v1/export").json()
    assert "Zed Other" not in json.dumps(web)


#: GET routes without an id that show no organisation's data, each with the reason
NO_ORGANISATION_DATA = {
    "/favicon.ico": "the app's icon",
    "/api/v1/openapi.json": "the API's description",
    "/api/v1/docs": "the API explorer's page",
    "/api/v1/catalog": "the catalog (the installation's, not an organisation's)",
    "/catalog": "the catalog",
    "/login": "the login form",
    "/language": "the language chooser",
    "/verify": "the public verifier: checks a credential pasted into it",
    "/skill-domains": "the catalog's skill domains (public: credentials' alignments point at it)",
    "/api/v1/me": "the caller's own account",
    "/api/v1/users": "the installation's accounts (test_web_access.py)",
    "/admin/users": "the installation's accounts",
    "/api/v1/tokens": "the caller's own tokens",
    "/account": "the caller's own account and tokens",
    "/people/new": "an empty form (its team choices are checked: test_lists_and_references...)",
    "/import": "the upload form",
    "/plan/report.pdf": "printed by Chromium from /plan's latest plan (checked on /plan)",
}


def _list_routes() -> set[str]:
    from gputeam.web import create_app
    from gputeam.web.settings import Settings

    app = create_app(Settings(dev=True), database=object())
    return {path for path, methods in _routes(app) if "GET" in methods and "{" not in path}


#: GET routes without an id, each read as the first organisation's admin (query: a
#: variant that lists more, e.g. inactive people or every certificate status)
LIST_ROUTES = {
    "/": "",
    "/.well-known/did.json": "",
    "/did.json": "",
    "/api/v1/approvals": "",
    "/api/v1/certifications": "",
    "/api/v1/dashboard": "",
    "/api/v1/export": "",
    "/api/v1/people": "?status=all",
    "/api/v1/plans": "",
    "/api/v1/plans/inputs": "",
    "/api/v1/plans/latest": "",
    "/api/v1/programmes": "",
    "/api/v1/skills/matrix": "",
    "/api/v1/teams": "",
    "/approvals": "",
    "/certifications": "",
    "/exams": "",
    "/export": "",
    "/export/download": "",
    "/people": "?status=all",
    "/plan": "",
    "/skills": "",
    "/skills.csv": "",
    "/skills.xlsx": "",
    "/teams": "",
}


def test_every_route_without_an_id_is_covered() -> None:
    """Adding a list (a GET route without an id) means adding it here, or saying why it
    shows no organisation's data."""
    assert _list_routes() == set(LIST_ROUTES) | set(NO_ORGANISATION_DATA)
    assert not set(LIST_ROUTES) & set(NO_ORGANISATION_DATA)


def _text(r: Any) -> str:
    """A response's text; a spreadsheet or zip's members' text."""
    import io
    import zipfile

    if r.content[:2] == b"PK":
        with zipfile.ZipFile(io.BytesIO(r.content)) as z:
            return "\n".join(z.read(n).decode("utf-8", "replace") for n in z.namelist())
    return r.content.decode("utf-8", "replace")


@pytest.mark.parametrize("path", sorted(LIST_ROUTES))
def test_lists_show_nothing_of_another_organisation(
    app: Any, db: Any, world: World, other: dict[str, Any], path: str
) -> None:
    """Every list, page, download and summary of the first organisation, read by its admin
    with another organisation holding one of everything (people, a team, certificates,
    enrolments, roadmap items, a saved scenario and plan, a credential and its key, a
    programme with an attempt): nothing of the other's appears, and nothing fails."""
    admin = logged_in(app, "admin")
    r = admin.get(path + LIST_ROUTES[path], follow_redirects=False)
    assert r.status_code in (200, 404), (path, r.status_code, r.text[:300])
    if path in ("/api/v1/plans/latest",):  # the first organisation has saved no plan
        assert r.status_code == 404, r.text[:300]
    text = _text(r)
    markers = [
        "Other Person",
        "Other Corp",
        "Gamma",
        "123456",
        "OTHERGPU",
        "OTHERPLAN",
        PLANNER,
        other["code"],
        str(other["uuid"]),
        f"/credentials/status/{other['key_id']}",
        other["key_did"],
    ]
    assert [m for m in markers if m in text] == [], path
    # and the list is not empty for want of data: the organisation's own shows
    if path.endswith("teams"):
        assert "Alpha" in text, path
    elif any(k in path for k in ("people", "skills", "certifications", "export/", "v1/export")):
        assert "Ada Lovelace" in text or "Linus T" in text, path
