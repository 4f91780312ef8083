"""`gputeam catalog show|check`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gputeam.cli.main import friendly

SHOWABLE = (
    "levels",
    "domains",
    "courses",
    "paths",
    "certs",
    "roles",
    "templates",
    "strategies",
    "economics",
    "transitions",
    "case-studies",
    "contradictions",
    "vendors",
    "specialisations",
    "roi-example",
)


def register(app: typer.Typer) -> None:
    catalog = typer.Typer(
        help="Show or check the catalog (levels, certifications, roles ...).", no_args_is_help=True
    )
    app.add_typer(catalog, name="catalog")

    @catalog.command("show")
    @friendly
    def show(
        section: Annotated[str, typer.Argument(help="One of: " + ", ".join(SHOWABLE))] = "levels",
        catalog_extra: Annotated[Path | None, typer.Option(help="Extra catalog file.")] = None,
        format: Annotated[str, typer.Option("--format", "-f", help="table or json")] = "table",
    ) -> None:
        """Print a catalog section."""
        if format not in ("table", "json"):
            from gputeam.errors import InputError, Problem

            raise InputError(
                [
                    Problem(
                        path="--format",
                        message="unknown format",
                        found=repr(format),
                        expected="table or json",
                    )
                ]
            )
        from gputeam.cli.common import load_catalog_file
        from gputeam.report.catalog_view import render_section

        if section not in SHOWABLE:
            from gputeam.errors import InputError, Problem

            raise InputError(
                [
                    Problem(
                        path="section",
                        message="unknown catalog section",
                        found=repr(section),
                        expected=", ".join(SHOWABLE),
                    )
                ]
            )
        render_section(load_catalog_file(catalog_extra), section, format)

    @catalog.command("check")
    @friendly
    def check(file: Annotated[Path, typer.Argument(help="A --catalog-extra YAML file.")]) -> None:
        """Validate a catalog extra file against the packaged catalog."""
        from rich.console import Console

        from gputeam.cli.common import load_catalog_file

        cat = load_catalog_file(file)
        Console().print(
            f"[green]ok[/]: {file} is valid; catalog has {len(cat.certifications)} "
            f"certifications, {len(cat.roles)} roles, {len(cat.courses)} courses"
        )
