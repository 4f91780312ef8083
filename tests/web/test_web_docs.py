"""docs/web.md documents every setting, command option and API resource."""

from __future__ import annotations

import re
from pathlib import Path

DOC = (Path(__file__).parents[2] / "docs" / "web.md").read_text("utf-8")


def test_every_setting_is_documented() -> None:
    from gputeam.web import Settings

    missing = [f"GPUTEAM_{name.upper()}" for name in Settings.model_fields
               if f"GPUTEAM_{name.upper()}" not in DOC]
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
    for route in app.routes:
        path = getattr(route, "path", "")
        if path.startswith("/api/v1/") and "openapi" not in path and "docs" not in path:
            top = "/" + path.split("/")[3]
            assert top in documented, f"docs/web.md lacks the API resource {top}"
