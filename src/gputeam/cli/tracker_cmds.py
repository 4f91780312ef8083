"""`gputeam import|export|remind|db`: the tracker's database from the command line.

Each command opens the database (``--db``, else ``$GPUTEAM_DB``, else the embedded SQLite
file), calls :mod:`gputeam.store` in one transaction and prints the outcome.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from gputeam.cli.main import LangOption, friendly
from gputeam.i18n import gettext as _
from gputeam.i18n import ngettext

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db", help=_("Database URL (default: $GPUTEAM_DB, else a SQLite file in your data directory).")
    ),
]
OrgOption = Annotated[
    str | None, typer.Option("--org", help=_("Organisation name (default: the only one; import creates it)."))
]
DEFAULT_ORG = "default"


def _actor() -> str:
    import getpass

    try:
        return f"cli:{getpass.getuser()}"
    except Exception:  # no login name in some containers
        return "cli"


def _org_id(session: Session, name: str | None, *, create: bool) -> int:
    from gputeam.errors import InputError, Problem
    from gputeam.store import create_organisation, list_organisations

    orgs = list_organisations(session)
    if name is not None:
        for o in orgs:
            if o.name == name:
                return o.id
        if create:
            return create_organisation(session, name, actor=_actor()).id
        raise InputError(
            [
                Problem(
                    path="--org",
                    message=_("no such organisation"),
                    found=name,
                    expected=", ".join(o.name for o in orgs) or "an import first",
                )
            ]
        )
    if len(orgs) == 1:
        return orgs[0].id
    if not orgs:
        if create:
            return create_organisation(session, DEFAULT_ORG, actor=_actor()).id
        raise InputError(
            [
                Problem(
                    path="--org",
                    message=_("the database has no organisation yet"),
                    hint=_("import a roster first: {command}").format(command="gputeam import roster FILE"),
                )
            ]
        )
    raise InputError(
        [
            Problem(
                path="--org",
                message=_("several organisations; choose one"),
                expected=", ".join(o.name for o in orgs),
            )
        ]
    )


def _mapping(pairs: list[str] | None) -> dict[str, str]:
    from gputeam.errors import InputError, Problem

    out: dict[str, str] = {}
    for pair in pairs or ():
        column, sep, target = pair.partition("=")
        if not sep or not column.strip():
            raise InputError(
                [
                    Problem(
                        path="--map",
                        message=_("expected COLUMN=field"),
                        found=pair,
                        hint=_("e.g. {example}, or {ignore} to ignore a column").format(
                            example="--map 'Personalnummer=id'", ignore="--map 'Notes=-'"
                        ),
                    )
                ]
            )
        out[column.strip()] = target.strip()
    return out


def _print_report(report: Any) -> None:
    from rich.console import Console

    c = Console()
    roster = report.kind == "roster"
    if report.dry_run:
        summary = (
            _(
                "{source}: {rows} rows; people: {created} would be created, {updated} existing "
                "people would be changed, {unchanged} unchanged"
            )
            if roster
            else _(
                "{source}: {rows} rows; certifications: {created} would be created, {updated} "
                "existing certifications would be changed, {unchanged} unchanged"
            )
        )
    else:
        summary = (
            _(
                "{source}: {rows} rows; people: {created} were created, {updated} existing "
                "people were changed, {unchanged} unchanged"
            )
            if roster
            else _(
                "{source}: {rows} rows; certifications: {created} were created, {updated} "
                "existing certifications were changed, {unchanged} unchanged"
            )
        )
    c.print(
        summary.format(
            source=report.source,
            rows=report.rows,
            created=report.created,
            updated=report.updated,
            unchanged=report.unchanged,
        )
    )
    for change in getattr(report, "changes", []):
        c.print(
            "  "
            + _("row {row}, {id}: {field}: {old} \u2192 {new}").format(
                row=change["row"],
                id=change["id"],
                field=change["field"],
                old=repr(change["old"]),
                new=repr(change["new"]),
            ),
            markup=False,
            highlight=False,
        )
    if report.kind == "roster":
        c.print(
            _("skill ratings recorded: {ratings}; new teams: {teams}").format(
                ratings=report.skill_ratings, teams=", ".join(report.teams_created) or _("none")
            )
        )
    for note in report.notes:
        c.print(_("note: {note}").format(note=note))
    if report.dry_run:
        c.print("[yellow]" + _("dry run: nothing written") + "[/]")


HeaderRowOption = Annotated[
    int | None,
    typer.Option(
        "--header-row",
        min=1,
        help=_(
            "Row number of the header (default: the first row, or the "
            "first below a title that names known columns)."
        ),
    ),
]


def register(app: typer.Typer) -> None:
    imp = typer.Typer(
        help=_("Import the roster or certifications from CSV or XLSX (all or nothing)."), no_args_is_help=True
    )
    app.add_typer(imp, name="import")

    def _import(
        kind: str,
        file: Path,
        db: str | None,
        org: str | None,
        map_: list[str] | None,
        sheet: str | None,
        dry_run: bool,
        catalog_extra: Path | None,
        header_row: int | None,
    ) -> None:
        from gputeam.cli.common import load_catalog_file
        from gputeam.store import import_certifications, import_roster, open_database

        catalog = load_catalog_file(catalog_extra)
        fn = import_roster if kind == "roster" else import_certifications
        database = open_database(db)
        try:
            with database.sessions() as s:  # closing without commit rolls back
                org_id = _org_id(s, org, create=kind == "roster")
                report = fn(
                    s,
                    org_id,
                    file,
                    mapping=_mapping(map_),
                    sheet=sheet,
                    dry_run=dry_run,
                    catalog=catalog,
                    actor=_actor(),
                    header_row=header_row,
                )
                if dry_run:
                    s.rollback()  # not even a new organisation
                else:
                    s.commit()
        finally:
            database.dispose()
        _print_report(report)

    @imp.command(
        "roster",
        help=_(
            "Create or update people (by id), their skills and teams. Every bad row is reported and "
            "nothing is written; every change to a person already stored is listed (field: old -> new), "
            "with --dry-run too."
        ),
    )
    @friendly
    def roster(
        file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help=_("CSV or XLSX file."))],
        db: DbOption = None,
        org: OrgOption = None,
        map_: Annotated[
            list[str] | None,
            typer.Option("--map", help=_("COLUMN=field (repeatable); field '-' ignores the column.")),
        ] = None,
        sheet: Annotated[str | None, typer.Option(help=_("XLSX sheet (default: first)."))] = None,
        dry_run: Annotated[
            bool, typer.Option("--dry-run", help=_("Check and report; write nothing."))
        ] = False,
        catalog_extra: Annotated[Path | None, typer.Option(help=_("Extra catalog file."))] = None,
        header_row: HeaderRowOption = None,
    ) -> None:
        """Create or update people (by id), their skills and teams. Every bad row is
        reported and nothing is written; every change to a person already stored is
        listed (field: old -> new), with --dry-run too."""
        _import("roster", file, db, org, map_, sheet, dry_run, catalog_extra, header_row)

    @imp.command(
        "certifications",
        help=_(
            "Add certifications held (person, certification, valid_from, valid_until, evidence). Every "
            "bad row is reported and nothing is written."
        ),
    )
    @friendly
    def certifications(
        file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help=_("CSV or XLSX file."))],
        db: DbOption = None,
        org: OrgOption = None,
        map_: Annotated[
            list[str] | None,
            typer.Option("--map", help=_("COLUMN=field (repeatable); field '-' ignores the column.")),
        ] = None,
        sheet: Annotated[str | None, typer.Option(help=_("XLSX sheet (default: first)."))] = None,
        dry_run: Annotated[
            bool, typer.Option("--dry-run", help=_("Check and report; write nothing."))
        ] = False,
        catalog_extra: Annotated[Path | None, typer.Option(help=_("Extra catalog file."))] = None,
        header_row: HeaderRowOption = None,
    ) -> None:
        """Add certifications held (person, certification, valid_from, valid_until,
        evidence). Every bad row is reported and nothing is written."""
        _import("certifications", file, db, org, map_, sheet, dry_run, catalog_extra, header_row)

    @app.command(
        "export",
        help=_(
            "Export everything in the organisation: people, skills, certifications, enrolments, roadmap "
            "items, scenarios, plans, users (no secrets), audit log."
        ),
    )
    @friendly
    def export(
        format: Annotated[str, typer.Option("--format", "-f", help=_("json, csv or xlsx"))] = "json",
        out: Annotated[
            Path | None,
            typer.Option(
                "--out",
                "-o",
                help=_("File (json, xlsx) or directory / .zip (csv); json defaults to standard output."),
            ),
        ] = None,
        db: DbOption = None,
        org: OrgOption = None,
        no_audit: Annotated[bool, typer.Option("--no-audit", help=_("Leave out the audit log."))] = False,
    ) -> None:
        """Export everything in the organisation: people, skills, certifications,
        enrolments, roadmap items, scenarios, plans, users (no secrets), audit log."""
        from gputeam.errors import InputError, Problem
        from gputeam.store import export_data, open_database, to_csv, to_xlsx

        if format not in ("json", "csv", "xlsx"):
            raise InputError(
                [
                    Problem(
                        path="--format",
                        message=_("unknown format"),
                        found=format,
                        expected="json, csv or xlsx",
                    )
                ]
            )
        if format != "json" and out is None:
            raise InputError(
                [Problem(path="--out", message=_("{format} needs an output path").format(format=format))]
            )
        database = open_database(db)
        try:
            with database.session() as s:
                data = export_data(s, _org_id(s, org, create=False), include_audit=not no_audit)
        finally:
            database.dispose()
        if format == "json":
            import json

            text = json.dumps(data, indent=2, ensure_ascii=False, default=str)
            if out is None:
                typer.echo(text)
                return
            out.write_text(text + "\n", "utf-8")
        elif format == "xlsx":
            out.write_bytes(to_xlsx(data))  # type: ignore[union-attr]
        else:
            files = to_csv(data)
            assert out is not None
            if out.suffix == ".zip":
                import zipfile

                with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
                    for name, text in files.items():
                        zf.writestr(name, text)
            else:
                out.mkdir(parents=True, exist_ok=True)
                for name, text in files.items():
                    (out / name).write_text(text, "utf-8")
        rows = sum(len(v) for v in data["tables"].values())
        typer.echo(_("exported {rows} rows to {out}").format(rows=rows, out=out), err=True)

    @app.command(
        "remind",
        help=_(
            "List, or mail when SMTP is configured (GPUTEAM_SMTP_HOST ...), certifications expiring "
            "within --within days, expired ones and overdue roadmap items. Idempotent: what was sent "
            "once is not sent again."
        ),
    )
    @friendly
    def remind(
        within: Annotated[int, typer.Option(help=_("Days ahead to look for expiries."))] = 90,
        today: Annotated[
            str | None, typer.Option(help=_("Date to compute for (YYYY-MM-DD; default: today)."))
        ] = None,
        db: DbOption = None,
        org: OrgOption = None,
        dry_run: Annotated[
            bool, typer.Option("--dry-run", help=_("Show what is due; record and send nothing."))
        ] = False,
        all_: Annotated[
            bool, typer.Option("--all", help=_("List all due reminders, also those already sent."))
        ] = False,
        lang: LangOption = None,
    ) -> None:
        """List, or mail when SMTP is configured (GPUTEAM_SMTP_HOST ...), certifications
        expiring within --within days, expired ones and overdue roadmap items. Idempotent:
        what was sent once is not sent again."""
        from rich.console import Console

        from gputeam.errors import InputError, Problem
        from gputeam.store import (
            SmtpMailer,
            SmtpSettings,
            due_reminders,
            open_database,
            send_reminders,
        )

        try:
            day = date.fromisoformat(today) if today else date.today()
        except ValueError:
            raise InputError(
                [Problem(path="--today", message=_("not a date"), found=today, expected="YYYY-MM-DD")]
            ) from None
        if within < 0:
            raise InputError([Problem(path="--within", message=_("must not be negative"), found=str(within))])
        smtp = SmtpSettings.from_env()
        c = Console()
        database = open_database(db)
        try:
            with database.session() as s:
                org_id = _org_id(s, org, create=False)
                if all_:
                    for r in due_reminders(s, day, within, org_id=org_id, include_sent=True):
                        c.print(r.line(), markup=False, highlight=False, soft_wrap=True)
                    return
                result = send_reminders(
                    s,
                    day,
                    within,
                    org_id=org_id,
                    dry_run=dry_run,
                    mailer=SmtpMailer(smtp) if smtp else None,
                    fallback_to=smtp.fallback_to if smtp else None,
                )
        finally:
            database.dispose()
        for r in result.new:
            c.print(r.line(), markup=False, highlight=False, soft_wrap=True)
        mailed = bool(smtp and not dry_run)
        count = result.mailed if mailed else len(result.new)
        line = (
            ngettext(
                "{count} new reminder mailed; {before} sent before",
                "{count} new reminders mailed; {before} sent before",
                count,
            )
            if mailed
            else ngettext(
                "{count} new reminder due; {before} sent before",
                "{count} new reminders due; {before} sent before",
                count,
            )
        ).format(count=count, before=result.already_sent)
        c.print(line + (_(" (dry run: nothing recorded)") if dry_run else ""))
        for who, err in result.failed:
            c.print("[red]" + _("not sent") + "[/] " + _("to {who}: {error}").format(who=who, error=err))
        if result.failed:
            raise typer.Exit(1)

    dbapp = typer.Typer(help=_("Database maintenance."), no_args_is_help=True)
    app.add_typer(dbapp, name="db")

    @dbapp.command("upgrade", help=_("Create the database if needed and apply all migrations."))
    @friendly
    def upgrade(db: DbOption = None) -> None:
        """Create the database if needed and apply all migrations."""
        from gputeam.store import open_database

        database = open_database(db, migrate=False)
        try:
            before = database.revision()
            database.upgrade()
            typer.echo(
                _("{url}: schema {before} -> {after}").format(
                    url=database.url, before=before or _("empty"), after=database.revision()
                )
            )
        finally:
            database.dispose()
