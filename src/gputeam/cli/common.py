"""Helpers shared by commands: reading files given on the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gputeam.catalog import Catalog, load_catalog
from gputeam.errors import CatalogError, Problem


def read_catalog_extra(path: Path | None) -> dict[str, Any] | None:
    if path is None:
        return None
    from gputeam._yaml import load_with_lines

    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise CatalogError([Problem(path="", message=f"cannot read: {exc.strerror}",
                                    file=str(path))]) from None
    data, _ = load_with_lines(text, str(path))
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise CatalogError([Problem(path="", message="expected a mapping of catalog sections",
                                    file=str(path), found=type(data).__name__)])
    return data


def load_catalog_file(path: Path | None) -> Catalog:
    return load_catalog(read_catalog_extra(path), file=str(path) if path else None)
