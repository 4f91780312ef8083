"""docs/web.md documents every setting, command option and API resource."""

from __future__ import annotations

import re
from pathlib import Path

DOC = (Path(__file__).parents[2] / "docs" / "web.md").read_text("utf-8")


def test_every_setting_is_documented() -> None:
    from gputeam.web import Settings

    missing = [
        f"GPUTEAM_{name.upper()}" for name in Settings.model_fields if f"GPUTEAM_{name.upper()}" not in DOC
    ]
    assert not missing, f"add to docs/web.md: {missing}"


def test_every_serve_option_is_documented() -> None:
    from typer.main import get_command

    from gputeam.cli.main import app

    cli = get_command(app)
    for path in (["serve"], ["admin", "create"]):
        cmd = cli
        for part in path:
            cmd = cmd.commands[part]  # type: ignore[attr-defined]
        for param in cmd.params:
            for opt in param.opts:
                if opt.startswith("--") and opt != "--help":
                    assert opt in DOC, f"docs/web.md lacks {' '.join(path)} {opt}"


def test_every_api_resource_is_documented() -> None:
    from gputeam.web import create_app
    from gputeam.web.settings import Settings

    app = create_app(Settings(dev=True), database=object())
    documented = set(re.findall(r"`(/[a-z\-]+)", DOC))
    paths = [path for path, _ in _routes(app)]
    assert "/api/v1/people" in paths
    for path in paths:
        if path.startswith("/api/v1/") and "openapi" not in path and "docs" not in path:
            top = "/" + path.split("/")[3]
            assert top in documented, f"docs/web.md lacks the API resource {top}"


def _routes(app: object) -> list[tuple[str, set[str]]]:
    """(path, methods) of every route, including those in included routers (recent FastAPI
    keeps an included router as one entry, so ``app.routes`` alone misses them)."""
    out: list[tuple[str, set[str]]] = []

    def walk(routes: list[object], prefix: str) -> None:
        for route in routes:
            context = getattr(route, "include_context", None)
            if context is not None:
                walk(list(context.included_router.routes), prefix + context.prefix)
            elif getattr(route, "methods", None):
                out.append((prefix + getattr(route, "path", ""), set(route.methods)))  # type: ignore[attr-defined]

    walk(list(getattr(app, "routes", [])), "")
    return out


def test_every_page_is_documented() -> None:
    from gputeam.web import create_app
    from gputeam.web.settings import Settings

    app = create_app(Settings(dev=True), database=object())
    pages = [path for path, methods in _routes(app) if "GET" in methods]
    pages = [p for p in pages if not p.startswith(("/api/", "/static", "/login", "/favicon"))]
    assert "/people/new" in pages and "/" in pages
    documented = set(re.findall(r"`(/[^`\s]*)`", DOC))
    missing = [p for p in pages if p not in documented and p.replace("{person_id}", "{id}") not in documented]
    assert not missing, f"docs/web.md lacks the pages {missing}"
