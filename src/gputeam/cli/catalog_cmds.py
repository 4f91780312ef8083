"""`gputeam catalog show|check`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gputeam.cli.main import friendly
from gputeam.i18n import gettext as _

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
    "workload",
    "transitions",
    "case-studies",
    "contradictions",
    "vendors",
    "specialisations",
    "roi-example",
)


def register(app: typer.Typer) -> None:
    catalog = typer.Typer(
        help=_("Show or check the catalog (levels, certifications, roles ...)."), no_args_is_help=True
    )
    app.add_typer(catalog, name="catalog")

    @catalog.command("show", help=_("Print a catalog section."))
    @friendly
    def show(
        section: Annotated[
            str, typer.Argument(help=_("One of: {sections}").format(sections=", ".join(SHOWABLE)))
        ] = "levels",
        catalog_extra: Annotated[Path | None, typer.Option(help=_("Extra catalog file."))] = None,
        format: Annotated[
            str, typer.Option("--format", "-f", metavar="table|json", help=_("table or json"))
        ] = "table",
    ) -> None:
        """Print a catalog section."""
        if format not in ("table", "json"):
            from gputeam.errors import InputError, Problem

            raise InputError(
                [
                    Problem(
                        path="--format",
                        message=_("unknown format"),
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
                        message=_("unknown catalog section"),
                        found=repr(section),
                        expected=", ".join(SHOWABLE),
                    )
                ]
            )
        from gputeam.cli.common import out_console

        render_section(load_catalog_file(catalog_extra), section, format, out_console())

    @catalog.command("check", help=_("Validate a catalog extra file against the packaged catalog."))
    @friendly
    def check(file: Annotated[Path, typer.Argument(help=_("A --catalog-extra YAML file."))]) -> None:
        """Validate a catalog extra file against the packaged catalog."""
        from rich.console import Console

        from gputeam.cli.common import load_catalog_file

        cat = load_catalog_file(file)
        Console().print(
            "[green]ok[/]: "
            + _(
                "{file} is valid; catalog has {certifications} certifications, {roles} roles, "
                "{courses} courses"
            ).format(
                file=file,
                certifications=len(cat.certifications),
                roles=len(cat.roles),
                courses=len(cat.courses),
            )
        )
