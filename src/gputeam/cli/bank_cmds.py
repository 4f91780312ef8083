"""`gputeam bank import|export`: check and convert question banks (GIFT, Moodle XML).

The commands read the file, call :mod:`gputeam.certify` and print what it found;
``import --programme CODE`` stores the questions in that programme's bank
(:func:`gputeam.store.import_bank`: new items, new versions of items already used by an
attempt, nothing when the file has an invalid question).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gputeam.cli.main import friendly
from gputeam.cli.tracker_cmds import DbOption
from gputeam.i18n import gettext as _
from gputeam.i18n import ngettext

if TYPE_CHECKING:
    from gputeam.certify import Bank, ImportResult

IN_FORMATS = ("auto", "gift", "moodle-xml")
OUT_FORMATS = ("gift", "moodle-xml")


def _problem(
    message: str,
    *,
    path: str = "",
    file: Path | None = None,
    line: int | None = None,
    found: str | None = None,
    expected: str | None = None,
) -> Exception:
    from gputeam.errors import InputError, Problem

    return InputError(
        [
            Problem(
                path=path,
                message=message,
                file=str(file) if file else None,
                line=line,
                found=found,
                expected=expected,
            )
        ]
    )


def _domain_map(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        category, sep, domain = pair.partition("=")
        if not sep or not category.strip() or not domain.strip():
            raise _problem(_("expected CATEGORY=DOMAIN"), path="--domain-map", found=repr(pair))
        out[category.strip()] = domain.strip()
    return out


def _read(file: Path, fmt: str, domain_map: list[str]) -> ImportResult:
    from gputeam.certify import BankReadError, read_bank

    if fmt not in IN_FORMATS:
        raise _problem(
            _("unknown bank format"), path="--format", found=repr(fmt), expected=", ".join(IN_FORMATS)
        )
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise _problem(_("cannot read: {error}").format(error=exc.strerror), file=file) from None
    try:
        return read_bank(data, fmt, _domain_map(domain_map))  # type: ignore[arg-type]
    except BankReadError as exc:
        raise _problem(exc.message, file=file, line=exc.line) from None


def _report_problems(file: Path, result: ImportResult) -> None:
    from gputeam.certify import ImportIssue
    from gputeam.i18n.messages import translate

    err = sys.stderr
    for e in result.errors:
        what = (
            _("category")
            if e.question == ImportIssue.CATEGORY
            else _("question {question}").format(question=repr(e.question))
        )
        err.write(f"{file}:{e.line}: {what}: {translate(e.message)}\n")
    for u in result.unsupported:
        question = _("question {question}").format(question=repr(u.question))
        err.write(f"{file}:{u.line}: {question} ({u.qtype}): {translate(u.message)}\n")


def _store(file: Path, fmt: str, domain_map: list[str], code: str, db: str | None, *, quiet: bool) -> None:
    """Store the bank in the programme (one transaction; the programme's category mapping
    is used for questions without a domain tag, the command line's mapping first)."""
    from datetime import UTC, datetime

    from gputeam.cli.tracker_cmds import _actor, _org_id
    from gputeam.store import get_programme, import_bank, open_database

    database = open_database(db)
    try:
        with database.session() as s:
            prog = get_programme(s, _org_id(s, None, create=False), code)
            mapping = {**prog.spec.get("category_domains", {}), **_domain_map(domain_map)}
            result = _read(file, fmt, [f"{k}={v}" for k, v in mapping.items()])
            report = import_bank(s, prog.id, result.bank, now=datetime.now(UTC), actor=_actor())
    finally:
        database.dispose()
    counts = ", ".join(f"{k.replace('_', ' ')} {len(v)}" for k, v in report.as_dict().items())
    stored = _("{file}: stored in programme {code}: {counts}").format(file=file, code=code, counts=counts)
    (sys.stderr if quiet else sys.stdout).write(stored + "\n")


FormatOption = Annotated[
    str, typer.Option("--format", "-f", help=_("auto, gift or moodle-xml (default: auto)."))
]
DomainMapOption = Annotated[
    list[str] | None,
    typer.Option(
        "--domain-map",
        help=_(
            "CATEGORY=DOMAIN: questions of that category (and its sub-categories) "
            "without a domain-* tag belong to DOMAIN (repeatable)."
        ),
    ),
]


def register(app: typer.Typer) -> None:
    bank = typer.Typer(help=_("Check and convert question banks (GIFT, Moodle XML)."), no_args_is_help=True)
    app.add_typer(bank, name="bank")

    @bank.command(
        "import", help=_("Check a question bank file, and with --programme store it in the database.")
    )
    @friendly
    def import_(
        file: Annotated[Path, typer.Argument(help=_("A GIFT or Moodle XML file."))],
        format: FormatOption = "auto",
        dry_run: Annotated[
            bool, typer.Option("--dry-run", help=_("Check the file and report; store nothing."))
        ] = False,
        as_json: Annotated[bool, typer.Option("--json", help=_("Print the report as JSON."))] = False,
        domain_map: DomainMapOption = None,
        programme: Annotated[
            str | None,
            typer.Option(
                "--programme",
                help=_(
                    "Store the questions in this programme's bank (see gputeam "
                    "programme save); the programme's category mapping applies too."
                ),
            ),
        ] = None,
        db: DbOption = None,
    ) -> None:
        """Check a question bank file, and with --programme store it in the database."""
        from gputeam.certify import summarise

        if not dry_run and programme is None:
            sys.stderr.write(
                _("error:")
                + " "
                + _("give --programme CODE to store the questions, or --dry-run to check the file")
                + "\n"
            )
            raise typer.Exit(2)
        result = _read(file, format, domain_map or [])
        report = summarise(result)
        if as_json:
            sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        else:
            by_type = ", ".join(f"{k} {v}" for k, v in report["by_type"].items())  # type: ignore[attr-defined]
            valid = int(report["questions"])  # type: ignore[call-overload]
            sys.stdout.write(
                _(
                    "{file}: {valid} ({types}) in {format} ({encoding}); "
                    "{invalid} invalid, {unsupported} unsupported"
                ).format(
                    file=file,
                    valid=ngettext("{n} valid question", "{n} valid questions", valid).format(n=valid),
                    types=by_type or _("none"),
                    format=result.format,
                    encoding=result.encoding,
                    invalid=len(result.errors),
                    unsupported=len(result.unsupported),
                )
                + "\n"
            )
            for path in report["categories"]:  # type: ignore[attr-defined]
                sys.stdout.write("  " + _("category {path}").format(path=path) + "\n")
            _report_problems(file, result)
        if result.errors:
            raise typer.Exit(2)
        if not dry_run and programme is not None:
            _store(file, format, domain_map or [], programme, db, quiet=as_json)

    @bank.command(
        "export",
        help=_(
            "Convert a question bank file to GIFT or Moodle XML, or with --programme write a "
            "programme's stored bank."
        ),
    )
    @friendly
    def export(
        to: Annotated[str, typer.Option("--to", help=_("gift or moodle-xml."))],
        file: Annotated[
            Path | None, typer.Argument(help=_("A GIFT or Moodle XML file (not with --programme)."))
        ] = None,
        out: Annotated[
            Path | None, typer.Option("--out", "-o", help=_("The file to write (default: standard output)."))
        ] = None,
        format: FormatOption = "auto",
        programme: Annotated[
            str | None,
            typer.Option(
                "--programme",
                help=_(
                    "Write this programme's stored bank: the newest version of each item, with its "
                    "[id:...] and domain tag; retired items are left out."
                ),
            ),
        ] = None,
        include_retired: Annotated[
            bool,
            typer.Option(
                "--include-retired",
                help=_("With --programme: write the retired items too (they are not retired on import)."),
            ),
        ] = False,
        db: DbOption = None,
    ) -> None:
        """Convert a question bank file to GIFT or Moodle XML, or with --programme write a
        programme's stored bank."""
        from gputeam.certify import gift_cannot_hold, write_bank

        if to not in OUT_FORMATS:
            raise _problem(
                _("unknown bank format"), path="--to", found=repr(to), expected=", ".join(OUT_FORMATS)
            )
        if (file is None) == (programme is None):
            raise _problem(
                _("give a bank file or --programme CODE, not both"),
                path="FILE",
                expected=_("a GIFT or Moodle XML file, or --programme CODE"),
            )
        if programme is not None:
            bank = _stored_bank(programme, db, include_retired=include_retired)
        else:
            assert file is not None
            result = _read(file, format, [])
            if result.errors or result.unsupported:
                _report_problems(file, result)
                sys.stderr.write(
                    _("error:")
                    + " "
                    + ngettext(
                        "{invalid} invalid and {unsupported} unsupported question; nothing written",
                        "{invalid} invalid and {unsupported} unsupported questions; nothing written",
                        len(result.errors) + len(result.unsupported),
                    ).format(invalid=len(result.errors), unsupported=len(result.unsupported))
                    + "\n"
                )
                raise typer.Exit(2)
            bank = result.bank
        if to == "gift":
            for loss in gift_cannot_hold(bank):
                sys.stderr.write(_("warning: {problem}").format(problem=loss) + "\n")
        text = write_bank(bank, to)  # type: ignore[arg-type]
        written = _("{file}: {count} questions written as {format}").format(
            file=out or "-", count=len(bank.questions), format=to
        )
        if out is None:
            sys.stdout.write(text)
            sys.stderr.write(written + "\n")
            return
        _write_file(out, text)
        sys.stdout.write(written + "\n")


def _stored_bank(code: str, db: str | None, *, include_retired: bool) -> Bank:
    """The programme's stored bank (:func:`gputeam.store.export_bank`); the retired items
    left out are named on standard error."""
    from gputeam.cli.tracker_cmds import _org_id
    from gputeam.store import export_bank, get_programme, open_database

    database = open_database(db)
    try:
        with database.session() as s:
            prog = get_programme(s, _org_id(s, None, create=False), code)
            exported = export_bank(s, prog.id, include_retired=include_retired)
    finally:
        database.dispose()
    if exported.retired:
        left_out = ngettext(
            "{count} retired item left out: {items}",
            "{count} retired items left out: {items}",
            len(exported.retired),
        ).format(count=len(exported.retired), items=", ".join(exported.retired))
        sys.stderr.write(left_out + "\n")
    return exported.bank


def _write_file(out: Path, text: str) -> None:
    """Write ``text`` to ``out`` at once (a temporary file renamed), or not at all."""
    import os
    import tempfile

    try:
        fd, tmp = tempfile.mkstemp(dir=out.resolve().parent, prefix=f".{out.name}.", suffix=".tmp")
    except OSError as exc:
        raise _problem(_("cannot write: {error}").format(error=exc.strerror), file=out) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
