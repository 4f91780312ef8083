"""The package's public surface is what ``__all__`` says (STYLE.md item 6)."""

from __future__ import annotations

import gputeam.certify as certify


def test_all_names_exist_and_cover_the_public_exports() -> None:
    assert sorted(certify.__all__) == certify.__all__
    assert all(hasattr(certify, name) for name in certify.__all__)
    public = {
        name
        for name, value in vars(certify).items()
        if not name.startswith("_") and getattr(value, "__module__", "").startswith("gputeam.certify.")
    }
    assert public == set(certify.__all__)


def test_the_package_imports_only_the_catalog_from_gputeam() -> None:
    """Layer rule (DESIGN.md): certify may import gputeam.catalog, nothing else of gputeam but
    the translation markers ``N_``/``Nn_`` of gputeam.i18n (they return the English text
    unchanged; it is translated where it is shown)."""
    import ast
    from pathlib import Path

    for path in Path(certify.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if isinstance(node, ast.ImportFrom) and node.module == "gputeam.i18n":
                assert {a.name for a in node.names} <= {"N_", "Nn_"}, path.name
                continue
            for name in names:
                if name.startswith("gputeam."):
                    assert name.startswith(("gputeam.certify", "gputeam.catalog")), f"{path.name}: {name}"
