"""Role × route exposure (issue 20 item 1): no door hands out a person's personal data to a
caller whose reach does not include them.

One organisation per module: the usual world (Alpha: p1, the engineer, and p2; Beta: p3)
and a marker person in Beta, outside the reach of the manager (Alpha), the engineer (p1)
and the viewer (nobody), with values found nowhere else: a name, a key, an e-mail, a title
and the salary 987654. A plan is saved, so the plan doors have the marker in their data.
Then every GET route of the app (the OpenAPI document's and the pages'), with its path
parameters filled with real ids, is fetched as each role, and every body (JSON, HTML, CSV,
ICS, a PDF's text, every cell of an XLSX, every file of a ZIP) is searched for the markers.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gputeam.report import pdf

from .conftest import ROLES, TODAY, World, logged_in, make_settings, seed

MARKER_NAME = "Zephyrine Marqueton"
MARKER_KEY = "mkr-q7z"
MARKER_EMAIL = "zeph.marq@example.org"
MARKER_TITLE = "Quasar Wrangler"
MARKER_SALARY = 987654
#: the markers as any door may write them (the salary in any locale's grouping)
MARKERS = re.compile(
    "|".join(
        [re.escape(m) for m in (MARKER_NAME, MARKER_KEY, MARKER_EMAIL, MARKER_TITLE)]
        + [r"987[,.\u00a0\u202f ']?654"]
    ),
    re.IGNORECASE,
)
#: the roles whose reach leaves the marker out
OUTSIDE = ("manager", "engineer", "viewer")


class Site:
    def __init__(self, app: Any, world: World, marker: int, plan_id: int) -> None:
        self.app, self.world, self.marker, self.plan_id = app, world, marker, plan_id
        self.clients: dict[str, Any] = {}
        self.attempts: list[int] = []
        self.credential = ""

    def client(self, role: str) -> Any:
        if role not in self.clients:
            self.clients[role] = logged_in(self.app, role)
        return self.clients[role]


@pytest.fixture(scope="module")
def site(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    from gputeam import store
    from gputeam.web import create_app

    folder = tmp_path_factory.mktemp("exposure")
    shutil.copy(sqlite_template, folder / "gputeam.db")
    database = store.open_database(f"sqlite:///{folder / 'gputeam.db'}")
    with pytest.MonkeyPatch.context() as mp:
        from argon2 import PasswordHasher

        from gputeam.store import accounts

        hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
        mp.setattr(accounts, "_hasher", lambda: hasher)
        world = seed(database)
        with database.session() as s:
            p = store.add_person(
                s,
                world.org_id,
                key=MARKER_KEY,
                name=MARKER_NAME,
                email=MARKER_EMAIL,
                title=MARKER_TITLE,
                team_id=world.beta,
                level=3,
                salary=MARKER_SALARY,
                role="operations-engineer",
            )
            store.rate_skill(s, p.id, "linux", 4)
            store.add_certification(s, p.id, "nca-aiio", TODAY.replace(year=2026, month=3), None)
            marker = p.id
        attempts = _exams(database, world, marker)
        app = create_app(make_settings(), database=database, today=TODAY)
        site = Site(app, world, marker, 0)
        site.attempts = attempts
        admin = site.client("admin")
        r = admin.post("/api/v1/plans", json={"save": True}, headers={"X-CSRF-Token": admin.csrf})
        assert r.status_code == 200, r.text
        site.plan_id = r.json()["saved"]["id"]
        # a credential of p1's (the public credential pages name their holder, by design:
        # the holder hands the link out), so the credential routes have a real one
        r = admin.post(
            f"/api/v1/people/{world.people['p1']}/credentials",
            json={"achievement": "nca-aiio"},
            headers={"X-CSRF-Token": admin.csrf},
        )
        assert r.status_code == 201, r.text
        site.credential = r.json()["uuid"]
        for role in ROLES:
            site.client(role)
        yield site
    for c in site.clients.values():
        c.close()
    database.dispose()


def _exams(database: Any, world: World, marker: int) -> list[int]:
    """The marker sits programme acme-l2 (handed in) and essays-l2 (awaiting marking);
    p1, the engineer, has an attempt of acme-l2 in progress. The attempts' ids."""
    from datetime import UTC, datetime

    from tests.store.exam_helpers import exam_catalog, right_answers, setup_programme, spec

    from gputeam import store
    from gputeam.certify import read_bank

    from .test_web_authz import TWO_ESSAYS

    catalog, now = exam_catalog(), datetime.now(UTC)
    with database.session() as s:
        prog = setup_programme(s, world.org_id, catalog, rubric=[{"id": "drain", "name": "Drains a node"}])
        theirs = store.start_attempt(s, prog, marker, now=now, catalog=catalog)
        for item, choice in right_answers(store.attempt_view(s, theirs, now=now)).items():
            store.save_answer(s, theirs.id, marker, item, choice, now=now)
        store.finish_attempt(s, theirs.id, now=now, catalog=catalog)
        mine = store.start_attempt(s, prog, world.people["p1"], now=now, catalog=catalog)
        essays = store.save_programme(s, world.org_id, "essays-l2", spec(questions=5), catalog=catalog)
        store.import_bank(s, essays.id, read_bank(TWO_ESSAYS.encode(), "gift").bank, now=now)
        sat = store.start_attempt(s, essays, marker, now=now, catalog=catalog)
        for q in store.attempt_view(s, sat, now=now)["questions"]:
            if q["type"] == "essay":
                store.save_answer(s, sat.id, marker, q["id"], f"{MARKER_NAME} drains the node.", now=now)
        store.finish_attempt(s, sat.id, now=now, catalog=catalog)
        return [mine.id, theirs.id, sat.id]


def _fills(site: Site) -> dict[str, list[str]]:
    """Real values for each path parameter (the marker's own id among them)."""
    w = site.world
    return {
        "person_id": [str(w.people["p1"]), str(site.marker)],
        "team_id": [str(w.alpha), str(w.beta)],
        "plan_id": [str(site.plan_id)],
        "section": ["roles"],
        "cert_id": ["nca-aiio"],
        "code": ["acme-l2", "essays-l2"],
        "attempt_id": [str(a) for a in site.attempts],
        "uuid": [site.credential],
        "key_id": ["1"],
        "token": ["x"],
    }


#: query strings worth fetching too (the other formats of one route)
VARIANTS = {
    "/api/v1/export": ["?format=json", "?format=csv", "?format=xlsx"],
    "/export/download": ["?format=xlsx"],
    "/skills.xlsx": [""],
    "/people": ["?status=all"],
    "/api/v1/people": ["?status=all"],
}
#: routes that need more than a GET to answer (the PDF needs the system Chromium)
SLOW = {"/plan/report.pdf"}


def _urls(site: Site) -> list[str]:
    """Every GET route of the app with its parameters filled (each combination)."""
    from starlette.routing import Route

    fills = _fills(site)
    urls: list[str] = []
    for route in site.app.routes:
        if not isinstance(route, Route) or "GET" not in (route.methods or ()):
            continue
        if route.path in SLOW:
            continue
        paths = [route.path]
        for name in re.findall(r"{(\w+)(?::\w+)?}", route.path):
            assert name in fills, f"{route.path}: no value for {{{name}}}: add one to _fills"
            pattern = "{" + name + r"(?::\w+)?}"
            paths = [re.sub(pattern, v, p) for p in paths for v in fills[name]]
        for p in paths:
            urls += [p + q for q in VARIANTS.get(route.path, [""])]
    return urls


def _text(response: Any) -> str:
    """The body as text, whatever its format."""
    body: bytes = response.content
    if body.startswith(b"%PDF"):
        from pypdf import PdfReader

        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    if body.startswith(b"PK"):
        with zipfile.ZipFile(io.BytesIO(body)) as z:
            if any(n.startswith("xl/") for n in z.namelist()):
                return _xlsx(body)
            return "\n".join(z.read(n).decode("utf-8", "replace") for n in z.namelist())
    return body.decode("utf-8", "replace")


def _xlsx(body: bytes) -> str:
    from openpyxl import load_workbook

    wb = load_workbook(io.BytesIO(body), read_only=True)
    return "\n".join(
        str(v) for ws in wb.worksheets for row in ws.iter_rows(values_only=True) for v in row if v is not None
    )


#: the people each role may not see (the world's own, besides the marker): Alpha is p1
#: (the engineer) and p2; Beta is p3 and the marker
OTHERS = {
    "manager": ("Linus T",),
    "engineer": ("Grace Hopper", "Linus T"),
    "viewer": ("Ada Lovelace", "Grace Hopper", "Linus T"),
}
MINE = {"manager": ("Ada Lovelace", "Grace Hopper"), "engineer": ("Ada Lovelace",), "viewer": ()}


def test_the_admin_sees_the_marker_where_it_is(site: Site) -> None:
    """The markers are in the data: the admin finds them on the plan, the person and the
    export (so the searches below would find a leak)."""
    admin = site.client("admin")
    for url in (
        "/api/v1/plans/latest",
        f"/api/v1/plans/{site.plan_id}",
        f"/api/v1/people/{site.marker}",
        "/api/v1/export?format=xlsx",
        "/plan",
    ):
        r = admin.get(url)
        assert r.status_code == 200, url
        assert MARKERS.search(_text(r)), url


def test_every_route_walked_has_a_value_for_each_parameter(site: Site) -> None:
    """The walk covers every GET path of the OpenAPI document and every page (77 GET
    routes, 112 URLs with their parameters filled, when written)."""
    from starlette.routing import Route

    urls = _urls(site)
    assert len(urls) > 100
    walked = {r.path for r in site.app.routes if isinstance(r, Route) and "GET" in (r.methods or ())}
    documented = {path for path, ops in site.app.openapi()["paths"].items() if "get" in ops}
    assert documented and documented <= walked
    assert len(walked - documented) > 30  # the pages
    assert "/api/v1/plans/latest" in urls and "/plan" in urls


@pytest.mark.parametrize("role", OUTSIDE)
def test_no_route_shows_a_person_outside_the_callers_reach(site: Site, role: str) -> None:
    """'A viewer reads no people, an engineer only themself, a manager their teams'
    (docs/web.md, Roles): on every GET route, no marker value of a Beta person, nor the
    name of anyone else outside the role's reach."""
    c = site.client(role)
    outside = re.compile(MARKERS.pattern + "".join("|" + re.escape(n) for n in OTHERS[role]), re.I)
    leaks = []
    for url in _urls(site):
        r = c.get(url, follow_redirects=False)
        assert r.status_code < 500, (url, r.status_code, r.text[:300])
        found = outside.search(_text(r))
        if found:
            text = _text(r)
            leaks.append(f"{url} ({r.status_code}): …{text[max(0, found.start() - 80) : found.end() + 40]}…")
    assert not leaks, "\n".join(leaks)


def test_the_plan_pdf_shows_no_one_outside_the_reach(site: Site) -> None:
    """The plan's PDF (printed by Chromium, the slow door: one print): the viewer's report
    has the organisation's plan and none of the marker's values (the admin's is the plan
    the API shows above, printed by the same renderer)."""
    if not Path(pdf.CHROMIUM).exists():
        pytest.skip(f"missing: {pdf.CHROMIUM}")
    viewer = site.client("viewer").get("/plan/report.pdf")
    assert viewer.status_code == 200
    text = _text(viewer)
    assert "Acme" in text
    assert not MARKERS.search(text)


@pytest.mark.parametrize("role", OUTSIDE)
def test_each_role_sees_its_own_people_in_the_plan_and_no_one_else(site: Site, role: str) -> None:
    """The saved plan through the API and the page: the people within reach are there
    (their roadmaps), everyone else is not; so is a manager's own what-if (POST)."""
    c = site.client(role)
    bodies = [c.get("/api/v1/plans/latest").text, c.get("/plan").text]
    if role == "manager":
        r = c.post("/api/v1/plans", json={}, headers={"X-CSRF-Token": c.csrf})
        assert r.status_code == 200
        bodies.append(r.text)
        page = c.post("/plan", data={"gpus": "96", "csrf_token": c.csrf}, headers={"HX-Request": "true"})
        assert page.status_code == 200
        bodies.append(page.text)
    for body in bodies:
        assert not MARKERS.search(body)
        assert not [n for n in OTHERS[role] if n in body]
    api = json.loads(bodies[0])["plan"]
    assert sorted(p["name"] for p in api["scenario"]["people"]) == sorted(MINE[role])
    assert {r["name"] for r in api["roadmaps"] if not r["hire"]} <= set(MINE[role])
    assert api["costs"]["first_year"] > 0 and api["target"]["months"]  # the aggregates stay


def test_a_plan_in_an_older_shape_is_for_admins_only(db_url: str, app: Any, world: World) -> None:
    """A saved plan this gputeam cannot read as a Plan cannot be shaped: admins get it as
    stored, everyone else a 404 (never the unshaped document)."""
    if not db_url.startswith("sqlite"):
        pytest.skip("engine-independent")
    from gputeam import store

    old = {"scenario": {"people": [{"id": MARKER_KEY, "name": MARKER_NAME, "salary": MARKER_SALARY}]}}
    with app.state.db.session() as s:
        row = store.save_scenario(s, world.org_id, "live", {"fleet": {}}, actor="t")
        plan_id = store.save_plan(s, row.id, old, TODAY, actor="t").id
    assert MARKER_NAME in logged_in(app, "admin").get(f"/api/v1/plans/{plan_id}").text
    for role in OUTSIDE:
        r = logged_in(app, role).get(f"/api/v1/plans/{plan_id}")
        assert r.status_code == 404 and not MARKERS.search(r.text), role
