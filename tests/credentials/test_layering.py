"""gputeam.credentials is pure (docs/credentials.md): of gputeam it imports only itself and
the translation marker ``N_`` (which returns the English text unchanged: a message is
translated where it is shown, by the caller)."""

from __future__ import annotations

import ast
from pathlib import Path

import gputeam.credentials as credentials


def _gputeam_imports(source: str) -> list[str]:
    """Each gputeam name a file imports (``module`` or ``module.name``), at any depth."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("gputeam")]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gputeam"):
            found += [f"{node.module}.{a.name}" for a in node.names]
    return found


def _outside(source: str) -> list[str]:
    return [
        name
        for name in _gputeam_imports(source)
        if not name.startswith("gputeam.credentials.") and name != "gputeam.i18n.N_"
    ]


def test_the_package_imports_only_itself_and_the_marker() -> None:
    files = sorted(Path(credentials.__file__).parent.glob("*.py"))
    assert len(files) > 5
    assert {p.name: _outside(p.read_text("utf-8")) for p in files if _outside(p.read_text("utf-8"))} == {}


def test_the_check_sees_what_it_should() -> None:
    source = (
        "from gputeam.i18n import N_, gettext\n"
        "def f():\n    from gputeam.i18n.messages import translate\n"
        "import gputeam.store\n"
        "from gputeam.credentials import proof\n"
    )
    assert sorted(_outside(source)) == [
        "gputeam.i18n.gettext",
        "gputeam.i18n.messages.translate",
        "gputeam.store",
    ]
