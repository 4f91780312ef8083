"""Helpers shared by commands: reading files given on the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gputeam.catalog import Catalog, load_catalog, parse_catalog_extra
from gputeam.errors import CatalogError, read_text_file


def read_catalog_extra(path: Path | None) -> dict[str, Any] | None:
    """The sections of a --catalog-extra file (read here; parsed by the catalog)."""
    if path is None:
        return None
    return parse_catalog_extra(read_text_file(str(path), CatalogError), str(path))


def load_catalog_file(path: Path | None) -> Catalog:
    return load_catalog(read_catalog_extra(path), file=str(path) if path else None)
