"""The API explorer at /api/v1/docs: Swagger UI served from the package (offline, no
CDN), the bearer security scheme declared for every operation that needs a caller, and
in headless Chromium: it renders under the app's CSP, and "Authorize" with an API token
makes "Try it out" answer 200 where it answered 401 without."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_web_browser import CHROMIUM, page, running_server  # noqa: F401  (fixture)

STATIC = Path(__file__).parents[2] / "src" / "gputeam" / "web" / "static" / "swagger-ui"


def test_page_and_assets_are_served_offline(client: Any) -> None:
    r = client.get("/api/v1/docs")
    assert r.status_code == 200
    assert "text/html" in r.headers["content-type"]
    assert "script-src 'self';" in r.headers["content-security-policy"]
    # every URL the page references is on this server
    urls = re.findall(r'(?:src|href)="([^"]*)"', r.text)
    assert urls and all(u.startswith("/") and not u.startswith("//") for u in urls), urls
    assert not re.search(r"https?://|//cdn|unpkg|jsdelivr", r.text)
    for u in urls:
        if u.startswith("/static/"):
            assert client.get(u).status_code == 200, u
    init = client.get("/static/swagger-ui/init.js").text
    assert "validatorUrl: null" in init and not re.search(r"https?://", init)


def test_vendored_with_licence() -> None:
    for name in ("swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE", "init.js", "contrast.css"):
        assert (STATIC / name).is_file(), name
    assert "Apache License" in (STATIC / "LICENSE").read_text("utf-8")


def test_openapi_declares_bearer_for_protected_operations() -> None:
    from gputeam.web import create_app
    from gputeam.web.settings import Settings

    schema = create_app(Settings(dev=True), database=object()).openapi()
    assert schema["components"]["securitySchemes"]["bearer"] == {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "API token",
        "description": schema["components"]["securitySchemes"]["bearer"]["description"],
    }
    ops = {(m.upper(), p): o for p, d in schema["paths"].items() for m, o in d.items()}
    assert ops[("GET", "/api/v1/people")]["security"] == [{"bearer": []}]
    assert ops[("POST", "/api/v1/import/{kind}")]["security"] == [{"bearer": []}]
    # verifying a credential needs no login: no lock on it in the explorer
    assert "security" not in ops[("POST", "/api/v1/credentials/verify")]


@pytest.fixture
def server_with_token(tmp_path: Path) -> Iterator[tuple[str, str]]:
    from gputeam import store

    url = f"sqlite:///{tmp_path}/e2e.db"
    db = store.open_database(url)
    with db.session() as s:
        u = store.create_user(s, "root", "e2e password", "admin")
        _, secret = store.create_token(s, u.id, "explorer", ["read"])
    db.dispose()
    with running_server(url, tmp_path) as base:
        yield base, secret


@pytest.mark.browser
@pytest.mark.skipif(
    not Path(CHROMIUM).exists() and os.environ.get("CI") != "true",
    reason=f"{CHROMIUM} is missing (apt-get install chromium)",
)
def test_authorize_then_try_it_out(server_with_token: tuple[str, str], page: Any) -> None:  # noqa: F811
    from playwright.sync_api import expect

    server, token = server_with_token
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    outside: list[str] = []
    page.on(
        "request",
        lambda r: None if r.url.startswith(server) or r.url.startswith("data:") else outside.append(r.url),
    )

    page.goto(server + "/api/v1/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("gputeam")
    operation = page.locator("#operations-people-list_people_api_v1_people_get")
    operation.locator(".opblock-summary").click()

    def execute() -> Any:
        with page.expect_response(lambda r: r.url.startswith(server + "/api/v1/people")) as answer:
            operation.locator(".execute").click()
        return answer.value

    operation.locator(".try-out__btn").click()
    assert execute().status == 401  # no token yet (the session cookie is not sent either)

    page.locator(".auth-wrapper .authorize").click()
    page.locator(".modal-ux input[type=text], .modal-ux input[type=password]").first.fill(token)
    page.locator(".modal-ux .auth-btn-wrapper .authorize").click()
    page.locator(".modal-ux .btn-done").click()
    assert execute().status == 200
    expect(operation.locator(".responses-wrapper .live-responses-table")).to_contain_text("200")
    assert not [p for p in problems if "Content Security Policy" in p or "Refused" in p], problems
    assert not outside, outside
