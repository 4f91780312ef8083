"""Accessibility: axe-core (vendored from npm in tests/web/vendor/axe-core, MPL-2.0) run by
Playwright in the Debian Chromium on every page of the tracker, over a real server with
data (people, teams, certifications valid, expiring and expired, a saved plan adopted, a
team enrolled in a learning path with hours logged and a course done, an issued
credential, an import in progress), on SQLite and on PostgreSQL. No serious or critical violation is allowed.

Each page is also written as a screenshot (full page, PNG) for review: to the directory in
``$GPUTEAM_SCREENSHOTS``, else ``screenshots/`` under pytest's base temporary directory.

To check a new page, add one :class:`Page` line to :data:`PAGES` (its path may use the
seeded ids: ``{p1}``, ``{alpha}``, ``{credential}`` ...; ``steps`` reaches a page that only
a form leads to, such as the import's preview)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from .conftest import ENGINES, PASSWORD, ROSTER_CSV, seed
from .test_web_browser import CHROMIUM, running_server, server_database

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists() and os.environ.get("CI") != "true",
        reason=f"{CHROMIUM} is missing (apt-get install chromium); under CI=true this test fails instead",
    ),
]

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
#: impacts that fail the test (axe's others: moderate, minor)
FAILING = ("serious", "critical")


@dataclass(frozen=True)
class Page:
    name: str
    path: str
    #: who looks at it: "admin", another seeded role, or None (not logged in)
    role: str | None = "admin"
    #: reach the page by doing something on ``path`` first (a form to submit)
    steps: Callable[[Any], None] | None = None
    #: the page shows what the database holds: checked on SQLite and on PostgreSQL (False:
    #: the same page whatever the engine, checked once, on SQLite)
    database: bool = True


def _upload(data: bytes, *clicks: str, then: str) -> Callable[[Any], None]:
    """Steps: upload ``data`` as roster.csv, press ``clicks`` in turn, wait for ``then``."""

    def steps(page: Any) -> None:
        page.set_input_files("#file", {"name": "roster.csv", "mimeType": "text/csv", "buffer": data})
        for label in ("text=Upload and continue", *clicks):
            page.click(label)
        page.wait_for_selector(then)

    return steps


TITLED = ("Team roster\n\n" + ROSTER_CSV).encode()
PREVIEW = "text=Preview the changes"


def _bad_person_form(page: Any) -> None:
    page.fill("input[name=email]", "ada@localhost")  # the browser's check passes it
    page.click("button[type=submit] >> text=Save")
    page.wait_for_selector(".flash.error")


def _bad_whatif(page: Any) -> None:
    page.fill("input[name=gpus]", "-1")  # htmx: the message beside the field
    page.wait_for_selector("#err-gpus:has-text('GPUs (peak)')")


def _bad_hours(page: Any) -> None:
    page.fill("input[name=hours_done] >> nth=0", "lots")  # not a number in any locale
    page.click("form[action$='/hours'] >> button >> nth=0")
    page.wait_for_selector("[id^=err-hours-]")


def _adopt(page: Any) -> None:
    page.click("text=Adopt the saved plan's roadmaps")
    page.wait_for_selector(".flash:has-text('roadmap items added')")


def _wrong_confirmation(page: Any) -> None:
    page.fill("input[name=confirm]", "not the id")
    page.click("text=Delete for good")
    page.wait_for_selector("#err-confirm")


def _explorer(*clicks: str, then: str) -> Callable[[Any], None]:
    """Steps on the API explorer: wait for Swagger UI to draw the operations, press
    ``clicks`` in turn, wait for ``then``."""

    def steps(page: Any) -> None:
        page.wait_for_selector(".opblock")
        for selector in clicks:
            page.click(selector)
        page.wait_for_selector(then)

    return steps


def _explorer_authorized(page: Any) -> None:
    page.wait_for_selector(".opblock")
    page.click(".auth-wrapper .authorize")
    page.fill(".modal-ux input", "gpt_not_a_real_token")
    page.click(".modal-ux .auth-btn-wrapper .authorize")
    page.wait_for_selector(".modal-ux button:has-text('Logout')")


#: every page of the tracker; add new pages here
PAGES = [
    Page("login", "/login", role=None),
    Page("verify", "/verify", role=None),
    Page("credential-share", "/credentials/{credential}", role=None),
    Page("achievement", "/achievements/{cert}", role=None),
    Page("achievement-programme", "/achievements/{exam_cert}/programmes/{exam}", role=None),
    Page("skill-domains", "/skill-domains", role=None),
    Page("dashboard", "/"),
    Page("dashboard-viewer", "/", role="viewer"),
    Page("people", "/people"),
    Page("person", "/people/{p1}"),
    Page("person-engineer", "/people/{p1}", role="engineer"),
    Page("person-hours-refused", "/people/{p1}", steps=_bad_hours),
    Page("people-inactive", "/people?status=inactive&sort=team"),
    Page("person-new", "/people/new"),
    Page("person-edit", "/people/{p2}/edit"),
    Page("person-edit-refused", "/people/{p2}/edit", steps=_bad_person_form),
    Page("person-credentials", "/people/{p1}/credentials"),
    Page("person-delete", "/people/{p2}/delete"),
    Page("person-delete-refused", "/people/{p2}/delete", steps=_wrong_confirmation),
    Page("plan", "/plan"),
    Page("plan-refused", "/plan", steps=_bad_whatif),
    Page("plan-viewer", "/plan", role="viewer"),
    Page("plan-adopted", "/plan", steps=_adopt),
    Page("catalog", "/catalog"),
    Page("catalog-domains", "/catalog?section=domains"),
    Page("account", "/account"),
    Page("users", "/admin/users"),
    Page("teams", "/teams"),
    Page("team", "/teams/{alpha}"),
    Page("team-manager", "/teams/{alpha}", role="manager"),
    Page("approvals", "/approvals", role="manager"),
    Page("export", "/export"),
    Page("import", "/import"),
    Page("import-refused", "/import", steps=_upload(b"%PDF-1.4 not a table", then="#err-file")),
    Page("import-columns", "/import", steps=_upload(TITLED, then="#mapping")),
    Page("import-preview", "/import", steps=_upload(TITLED, PREVIEW, then="#import-counts")),
    Page(
        "import-problems",
        "/import",
        steps=_upload(b"id,name,level\np1,Ada,nine\n", PREVIEW, then="#problems"),
    ),
    Page(
        "import-done",
        "/import",
        steps=_upload(TITLED, PREVIEW, "#do-import", then="text=Imported: the changes below"),
    ),
    Page("exams", "/exams"),
    Page("exams-engineer", "/exams", role="engineer"),
    Page("exam-attempt", "/exams/attempts/{attempt}", role="engineer"),
    Page("exam-items", "/exams/{exam}/items"),
    Page("exam-practical", "/exams/{exam}/practical/{p1}"),
    Page("exam-awaiting-marking", "/exams/attempts/{essay_attempt}", role="engineer"),
    Page("exam-marking-list", "/exams/{essay_exam}/marking"),
    Page("exam-marking", "/exams/attempts/{essay_attempt}/marking"),
    Page("skills", "/skills"),
    Page("skills-team", "/skills?team={alpha}"),
    Page("certifications", "/certifications"),
    Page("certifications-expired", "/certifications?expiry=expired"),
    Page("not-found", "/people/999999"),
    # the API explorer (Swagger UI): its list, an operation of each method opened, and
    # the Authorize dialog once a token is given
    Page("api-explorer", "/api/v1/docs", role=None, steps=_explorer(then=".opblock-get"), database=False),
    Page(
        "api-explorer-operations",
        "/api/v1/docs",
        role=None,
        steps=_explorer(
            ".opblock-get .opblock-summary-control >> nth=0",
            ".opblock-post .opblock-summary-control >> nth=0",
            ".opblock-patch .opblock-summary-control >> nth=0",
            ".opblock-delete .opblock-summary-control >> nth=0",
            then=".opblock-delete .opblock-body",
        ),
        database=False,
    ),
    Page("api-explorer-authorize", "/api/v1/docs", role=None, steps=_explorer_authorized, database=False),
]

#: the pages that show data, checked on both engines; the others on SQLite only
DATA_PAGES = [p for p in PAGES if p.database]
SAME_PAGES = [p for p in PAGES if not p.database]


def screenshot_dir(factory: pytest.TempPathFactory, engine: str = "sqlite") -> Path:
    """``$GPUTEAM_SCREENSHOTS``, else ``screenshots/`` under pytest's base temporary
    directory; the PostgreSQL server's pages in its ``postgresql/`` folder."""
    chosen = os.environ.get("GPUTEAM_SCREENSHOTS")
    path = Path(chosen) if chosen else factory.getbasetemp() / "screenshots"
    if engine != "sqlite":
        path = path / engine
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, dict[str, Any]]]:
    """A server over a seeded database on the engine a test asks for (indirectly; else
    SQLite); yields its address and the ids pages use. One server per engine and module."""
    engine: str = getattr(request, "param", "sqlite")
    tmp = tmp_path_factory.mktemp("a11y-" + engine)
    with server_database(engine, request, tmp) as url:
        yield from _serve(url, tmp)


def _serve(url: str, tmp: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    import httpx
    import yaml
    from tests.store.exam_helpers import (
        CERT,
        EXTRA,
        START,
        exam_catalog,
        setup_essay_programme,
        setup_programme,
        sit_essay_exam,
    )

    from gputeam import store
    from gputeam.catalog import load_catalog

    extra = tmp / "extra.yaml"  # the exams' own certification
    extra.write_text(yaml.safe_dump(EXTRA), "utf-8")
    db = store.open_database(url)
    world = seed(db)
    with db.session() as s:
        _, secret = store.create_token(s, world.users["admin"], "a11y", ["read", "write", "admin"])
        prog = setup_programme(
            s, world.org_id, exam_catalog(), rubric=[{"id": "drain", "name": "Drains a node"}]
        )
        attempt = store.start_attempt(
            s, prog, world.people["p1"], now=datetime.now(UTC), catalog=exam_catalog()
        ).id
        # an exam with an essay, handed in: it awaits marking
        essay_prog = setup_essay_programme(s, world.org_id, exam_catalog())
        essay = sit_essay_exam(s, essay_prog, world.people["p1"], essay="Cordon the node, drain it, check.")
        store.finish_attempt(s, essay.id, now=START + timedelta(minutes=5), catalog=exam_catalog())
        essay_attempt = essay.id
    db.dispose()
    ids: dict[str, Any] = {
        "alpha": world.alpha,
        "beta": world.beta,
        "attempt": attempt,
        "essay_attempt": essay_attempt,
        "essay_exam": "essay-l2",
        "exam": "acme-l2",
        "cert": "nca-aiio",
        "exam_cert": CERT,
        **world.people,
    }
    with running_server(url, tmp, GPUTEAM_ORGANISATION="Acme", GPUTEAM_CATALOG_EXTRA=str(extra)) as base:
        api = httpx.Client(
            base_url=base + "/api/v1", timeout=60, headers={"Authorization": f"Bearer {secret}"}
        )
        r = api.post("/plans", json={"save": True})
        assert r.status_code in (200, 201), r.text
        r = api.post(f"/people/{world.people['p1']}/credentials", json={"achievement": "nca-aiio"})
        assert r.status_code == 201, r.text
        ids["credential"] = r.json()["uuid"]
        # learning under way: the plan adopted (roadmap items, a burn-up), Alpha enrolled
        # in a learning path, hours logged on one course and another done
        plan_id = api.get("/plans").json()[0]["id"]
        assert api.post(f"/plans/{plan_id}/adopt").status_code == 200
        started = date.today() - timedelta(days=30)
        r = api.post(
            f"/teams/{world.alpha}/enrolments",
            json={"path_id": next(iter(load_catalog().paths)), "started_on": started.isoformat()},
        )
        assert r.status_code == 201, r.text
        enrolled = r.json()["created"]
        assert api.patch(f"/enrolments/{enrolled[0]}", json={"hours_done": 6.5}).status_code == 200
        done = {"hours_done": 10, "completed_on": date.today().isoformat()}
        assert api.patch(f"/enrolments/{enrolled[-1]}", json=done).status_code == 200
        yield base, ids


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing and CI=true")
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield b
        b.close()


@pytest.fixture(scope="module")
def contexts(browser: Any, site: tuple[str, dict[str, Any]]) -> Iterator[dict[Any, Any]]:
    """One browser context per role, logged in once (``None``: not logged in)."""
    made: dict[Any, Any] = {}
    yield made
    for context in made.values():
        context.close()


def _logged_in(browser: Any, contexts: dict[Any, Any], base: str, role: str | None) -> Any:
    if role not in contexts:
        # axe is injected as an inline script: allowed past the app's CSP in tests only
        context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
        context.set_default_timeout(20_000)
        if role is not None:
            page = context.new_page()
            page.goto(base + "/login")
            page.fill("#username", role)
            page.fill("#password", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(base + "/")
            page.close()
        contexts[role] = context
    return contexts[role].new_page()


def violations(page: Any) -> list[dict[str, Any]]:
    """axe's violations on the page as it is now (every rule axe runs by default)."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return list(result["violations"])


def describe(found: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"{v['impact']}: {v['id']}: {v['help']} ({len(v['nodes'])}x): "
        + "; ".join(n["html"][:160] for n in v["nodes"][:4])
        for v in found
    )


@pytest.mark.parametrize("site", ENGINES[:1], indirect=True)  # the SQLite checks' server
def test_keyboard_skip_link_and_focus_order(
    site: tuple[str, dict[str, Any]], browser: Any, contexts: dict[Any, Any]
) -> None:
    """The first Tab reaches "Skip to the content", which moves focus past the navigation;
    then Tab goes on through the page in reading order (the people form's fields)."""
    base, ids = site
    page = _logged_in(browser, contexts, base, "admin")
    try:
        page.goto(base + f"/people/{ids['p2']}/edit")
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "() => [document.activeElement.className, document.activeElement.textContent]"
        )
        assert focused == ["skip", "Skip to the content"]
        assert page.locator("a.skip").is_visible()  # shown once focused
        page.keyboard.press("Enter")
        assert page.evaluate("() => document.activeElement.id") == "content"
        names = []
        for _ in range(3):
            page.keyboard.press("Tab")
            names.append(page.evaluate("() => document.activeElement.name"))
        fields = page.eval_on_selector_all(
            "main form input:not([type=hidden]), main form select", "els => els.slice(0, 3).map(e => e.name)"
        )
        assert names == fields
    finally:
        page.close()


# One server per engine for the module: "site" parametrised the same way (same values,
# same order) in each test, so pytest keeps it between the tests of an engine.
@pytest.mark.parametrize("spec", DATA_PAGES, ids=[p.name for p in DATA_PAGES])
@pytest.mark.parametrize("site", ENGINES, indirect=True)
def test_no_serious_violations(
    spec: Page,
    site: tuple[str, dict[str, Any]],
    browser: Any,
    contexts: dict[Any, Any],
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
) -> None:
    check_page(
        spec, site, browser, contexts, screenshot_dir(tmp_path_factory, request.node.callspec.params["site"])
    )


@pytest.mark.parametrize("spec", SAME_PAGES, ids=[p.name for p in SAME_PAGES])
@pytest.mark.parametrize("site", ENGINES[:1], indirect=True)
def test_no_serious_violations_engine_free(
    spec: Page,
    site: tuple[str, dict[str, Any]],
    browser: Any,
    contexts: dict[Any, Any],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The pages that are the same whatever the database (the API explorer)."""
    check_page(spec, site, browser, contexts, screenshot_dir(tmp_path_factory))


def check_page(
    spec: Page, site: tuple[str, dict[str, Any]], browser: Any, contexts: dict[Any, Any], shots: Path
) -> None:
    """Open the page as its role, take its steps, write its screenshot and axe's findings
    to ``shots``; fail on a serious or critical violation."""
    base, ids = site
    page = _logged_in(browser, contexts, base, spec.role)
    try:
        page.goto(base + spec.path.format(**ids))
        if spec.steps is not None:
            spec.steps(page)
        page.screenshot(path=str(shots / f"{spec.name}.png"), full_page=True)
        found = violations(page)
        (shots / f"{spec.name}.axe.json").write_text(json.dumps(found, indent=1), "utf-8")
        bad = [v for v in found if v["impact"] in FAILING]
        assert not bad, f"{spec.name} ({page.url}):\n{describe(bad)}"
    finally:
        page.close()


def test_every_page_is_checked() -> None:
    """Every page route of the app is in PAGES (a new page gets its axe check)."""
    import re

    from gputeam.web import create_app
    from gputeam.web.settings import Settings

    from .test_web_docs import _routes

    app = create_app(Settings(dev=True), database=object())
    covered = {re.sub(r"\{[^}]+\}", "{}", p.path.split("?")[0]) for p in PAGES}
    covered |= {"/import/{}"}  # reached through the import's steps
    pages = {
        re.sub(r"\{[^}]+\}", "{}", path)
        for path, methods in _routes(app)
        if "GET" in methods and not path.startswith(("/api/", "/static"))
    }
    # not HTML pages: downloads and JSON
    pages = {
        p
        for p in pages
        if not p.endswith((".json", ".jwt", ".png", ".svg", ".ico", ".pdf", ".csv", ".xlsx", "/download"))
        and not p.startswith(("/credentials/status/", "/language"))
    }  # a redirect
    missing = sorted(pages - covered)
    assert not missing, f"add these pages to PAGES in {Path(__file__).name}: {missing}"
