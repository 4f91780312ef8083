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


#: ``-`` as a file argument: standard input (a scenario) or standard output (a report).
STDIO = "-"
#: The width data printed to a pipe or a file is laid out for: wide enough that no table
#: is squeezed and no sentence is hard-wrapped (``COLUMNS`` still wins when set).
PIPE_WIDTH = 10_000


def out_console() -> Any:
    """The console for data (stdout): the terminal's width on a terminal; piped, lines as
    long as they are (no hard wraps), so ``grep`` and ``cut`` see whole lines."""
    import os
    import sys

    from rich.console import Console

    if sys.stdout.isatty() or os.environ.get("COLUMNS"):
        return Console()
    return Console(width=PIPE_WIDTH, soft_wrap=True)


def err_console() -> Any:
    """The console for messages (stderr): progress, 'wrote ...', warnings; like
    :func:`out_console`, not hard-wrapped when redirected."""
    import os
    import sys

    from rich.console import Console

    if sys.stderr.isatty() or os.environ.get("COLUMNS"):
        return Console(stderr=True)
    return Console(stderr=True, width=PIPE_WIDTH, soft_wrap=True)


def read_input_text(file: Path) -> tuple[str, str]:
    """(text, name) of a scenario file; ``-`` reads standard input."""
    import sys

    if str(file) == STDIO:
        data = sys.stdin.buffer.read()
        return data.decode("utf-8"), "<stdin>"
    return file.read_text("utf-8"), str(file)
