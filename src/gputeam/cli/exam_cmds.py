"""`gputeam programme save|list` and `gputeam exams sweep|items|retire|marking|mark`: internal
certification programmes from the command line (issue 11). Storing a programme's question
bank is `gputeam bank import FILE --programme CODE`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from gputeam.cli.main import friendly
from gputeam.cli.tracker_cmds import DbOption, OrgOption
from gputeam.i18n import gettext as _
from gputeam.i18n import ngettext

if TYPE_CHECKING:
    from gputeam.catalog import Catalog

CatalogExtra = Annotated[
    Path | None,
    typer.Option(
        "--catalog-extra",
        help=_(
            "Extra catalog file (user-defined certifications live there); default: "
            "$GPUTEAM_CATALOG_EXTRA, as the server uses."
        ),
    ),
]


def _catalog(catalog_extra: Path | None) -> Catalog:
    """The catalog with the extra file given, else the server's (``GPUTEAM_CATALOG_EXTRA``):
    a pass must record the programme's user-defined certification."""
    from gputeam.cli.common import load_catalog_file
    from gputeam.web.settings import catalog_extra_path

    path = catalog_extra_path(str(catalog_extra) if catalog_extra else None)
    return load_catalog_file(Path(path) if path else None)


def _issuer() -> Any:
    """Credentials are issued on a pass when GPUTEAM_SECRET_KEY and GPUTEAM_PUBLIC_URL are set."""
    import os

    from gputeam.store import Issuer

    secret, url = os.environ.get("GPUTEAM_SECRET_KEY"), os.environ.get("GPUTEAM_PUBLIC_URL")
    if not secret or not url:
        return None
    from gputeam.cli.credential_cmds import _issuer_did
    from gputeam.web.settings import check_secret_key

    check_secret_key(secret)  # the rule `gputeam serve` applies

    return Issuer(secret=secret, base_url=url.rstrip("/"), did=_issuer_did(url.rstrip("/")))


def _read_spec(file: Path) -> dict[str, Any]:
    from gputeam._yaml import load_with_lines
    from gputeam.errors import InputError, Problem

    try:
        text = file.read_text("utf-8")
    except OSError as exc:
        raise InputError(
            [Problem(path="", message=_("cannot read: {error}").format(error=exc.strerror), file=str(file))]
        ) from None
    data, _unused = load_with_lines(text, str(file))
    if not isinstance(data, dict):
        raise InputError(
            [
                Problem(
                    path="",
                    message=_("expected a mapping (name, certification, blueprint, ...)"),
                    file=str(file),
                )
            ]
        )
    return data


def register(app: typer.Typer) -> None:
    programme = typer.Typer(help=_("Internal certification programmes."), no_args_is_help=True)
    exams = typer.Typer(
        help=_("Exams of internal programmes: sweep, item analysis, essay marking."), no_args_is_help=True
    )
    app.add_typer(programme, name="programme")
    app.add_typer(exams, name="exams")

    @programme.command("save", help=_("Create a programme or replace its definition (audited)."))
    @friendly
    def save(
        code: Annotated[str, typer.Argument(help=_("The programme's id, e.g. acme-l2."))],
        file: Annotated[Path, typer.Argument(help=_("The programme (YAML or JSON)."))],
        catalog_extra: CatalogExtra = None,
        db: DbOption = None,
        org: OrgOption = None,
    ) -> None:
        """Create a programme or replace its definition (audited)."""
        from gputeam.cli.tracker_cmds import _actor, _org_id
        from gputeam.store import open_database, save_programme

        spec = _read_spec(file)
        catalog = _catalog(catalog_extra)
        database = open_database(db)
        try:
            with database.session() as s:
                row = save_programme(
                    s, _org_id(s, org, create=False), code, spec, catalog=catalog, actor=_actor()
                )
                saved = _("programme {code} saved ({name})").format(code=row.code, name=row.spec["name"])
                sys.stdout.write(saved + "\n")
        finally:
            database.dispose()

    @programme.command("list", help=_("The programmes and the size of their banks."))
    @friendly
    def list_(
        db: DbOption = None,
        org: OrgOption = None,
        as_json: Annotated[bool, typer.Option("--json", help=_("Print JSON."))] = False,
    ) -> None:
        """The programmes and the size of their banks."""
        from gputeam.cli.tracker_cmds import _org_id
        from gputeam.store import bank_items, list_programmes, open_database

        database = open_database(db)
        try:
            with database.session() as s:
                rows = [
                    {
                        "code": p.code,
                        "name": p.spec["name"],
                        "certification": p.spec["certification"],
                        "items": len(bank_items(s, p.id, include_retired=False)),
                    }
                    for p in list_programmes(s, _org_id(s, org, create=False))
                ]
        finally:
            database.dispose()
        if as_json:
            sys.stdout.write(json.dumps(rows, indent=2) + "\n")
            return
        for r in rows:
            line = _("{code}: {name} (grants {certification}; {items} items)").format(
                code=r["code"], name=r["name"], certification=r["certification"], items=r["items"]
            )
            sys.stdout.write(line + "\n")

    @exams.command(
        "sweep",
        help=_(
            "Finish every attempt whose time ran out, marking its saved answers. Idempotent and safe to "
            "run from several processes at once (rows locked with SKIP LOCKED)."
        ),
    )
    @friendly
    def sweep(
        catalog_extra: CatalogExtra = None,
        db: DbOption = None,
        batch: Annotated[int, typer.Option(help=_("Attempts finished per transaction."))] = 100,
    ) -> None:
        """Finish every attempt whose time ran out, marking its saved answers. Idempotent and
        safe to run from several processes at once (rows locked with SKIP LOCKED)."""
        from datetime import UTC, datetime

        from gputeam.store import finalise_overdue, open_database

        catalog = _catalog(catalog_extra)
        issuer = _issuer()
        database = open_database(db)
        done: list[int] = []
        failed: list[tuple[int, str]] = []
        try:
            while True:
                with database.session() as s:
                    got = finalise_overdue(
                        s,
                        now=datetime.now(UTC),
                        catalog=catalog,
                        issuer=issuer,
                        limit=max(1, batch),
                        skip=[i for i, _why in failed],
                    )
                done += got.finished
                failed += got.failed
                if len(got.finished) + len(got.failed) < max(1, batch):
                    break
        finally:
            database.dispose()
        sys.stdout.write(
            ngettext(
                "{count} overdue attempt finished", "{count} overdue attempts finished", len(done)
            ).format(count=len(done))
            + "\n"
        )
        for attempt_id, why in failed:
            line = _("attempt {attempt} not finished: {reason}").format(attempt=attempt_id, reason=why)
            sys.stderr.write(line + "\n")
        if failed:
            raise typer.Exit(1)

    @exams.command("items", help=_("Item analysis over the programme's finished attempts (JSON or CSV)."))
    @friendly
    def items(
        code: Annotated[str, typer.Argument(help=_("The programme."))],
        csv: Annotated[bool, typer.Option("--csv", help=_("Print CSV instead of JSON."))] = False,
        catalog_extra: CatalogExtra = None,
        db: DbOption = None,
        org: OrgOption = None,
    ) -> None:
        """Item analysis over the programme's finished attempts (JSON or CSV)."""
        from datetime import UTC, datetime

        from gputeam.cli.tracker_cmds import _org_id
        from gputeam.store import (
            finalise_overdue,
            get_programme,
            item_statistics,
            item_statistics_csv,
            open_database,
        )

        catalog = _catalog(catalog_extra)
        database = open_database(db)
        try:
            with database.session() as s:
                prog = get_programme(s, _org_id(s, org, create=False), code)
                # attempts whose time ran out count once finished, as on the web
                finalise_overdue(
                    s,
                    now=datetime.now(UTC),
                    catalog=catalog,
                    issuer=_issuer(),
                    limit=None,
                    programme_id=prog.id,
                )
                stats = item_statistics(s, prog.id)
        finally:
            database.dispose()
        sys.stdout.write(item_statistics_csv(stats) if csv else json.dumps(stats, indent=2) + "\n")

    @exams.command("retire", help=_("Retire an item: new attempts stop drawing it (audited)."))
    @friendly
    def retire(
        code: Annotated[str, typer.Argument(help=_("The programme."))],
        item: Annotated[str, typer.Argument(help=_("The item id."))],
        db: DbOption = None,
        org: OrgOption = None,
    ) -> None:
        """Retire an item: new attempts stop drawing it (audited)."""
        from datetime import UTC, datetime

        from gputeam.cli.tracker_cmds import _actor, _org_id
        from gputeam.store import get_programme, open_database, retire_item

        database = open_database(db)
        try:
            with database.session() as s:
                prog = get_programme(s, _org_id(s, org, create=False), code)
                retire_item(s, prog.id, item, now=datetime.now(UTC), actor=_actor())
        finally:
            database.dispose()
        sys.stdout.write(_("{code}: item {item} retired").format(code=code, item=item) + "\n")

    @exams.command(
        "marking",
        help=_(
            "The attempts awaiting the marking of their essays, with each essay and the candidate's "
            "answer (JSON)."
        ),
    )
    @friendly
    def marking(
        code: Annotated[str, typer.Argument(help=_("The programme."))],
        db: DbOption = None,
        org: OrgOption = None,
    ) -> None:
        """The attempts awaiting the marking of their essays, with each essay and the
        candidate's answer (JSON)."""
        from gputeam.cli.tracker_cmds import _org_id
        from gputeam.store import attempt_to_mark, essays, get_programme, marking_queue, open_database

        database = open_database(db)
        try:
            with database.session() as s:
                org_id = _org_id(s, org, create=False)
                prog = get_programme(s, org_id, code)
                rows = marking_queue(s, prog, role="admin", person_id=None)
                for row in rows:
                    attempt, _unused = attempt_to_mark(
                        s, org_id, row["attempt"], role="admin", person_id=None
                    )
                    row["essays"] = essays(s, attempt)
        finally:
            database.dispose()
        sys.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")

    @exams.command(
        "mark",
        help=_(
            "Mark one essay of a finished attempt (audited). When every essay is marked the result is "
            "final and a pass records the certification (and issues the credential when "
            "GPUTEAM_SECRET_KEY and GPUTEAM_PUBLIC_URL are set)."
        ),
    )
    @friendly
    def mark(
        attempt: Annotated[int, typer.Argument(help=_("The attempt's id (see `gputeam exams marking`)."))],
        item: Annotated[str, typer.Argument(help=_("The essay's item id."))],
        mark: Annotated[
            str, typer.Argument(help=_("The mark, from 0 to the question's mark (decimals allowed)."))
        ],
        comment: Annotated[str, typer.Option(help=_("A comment the candidate sees with the result."))] = "",
        assessor: Annotated[
            str | None,
            typer.Option(help=_("The roster id of the person marking (never the candidate's own).")),
        ] = None,
        catalog_extra: CatalogExtra = None,
        db: DbOption = None,
        org: OrgOption = None,
    ) -> None:
        """Mark one essay of a finished attempt (audited). When every essay is marked the
        result is final and a pass records the certification (and issues the credential
        when GPUTEAM_SECRET_KEY and GPUTEAM_PUBLIC_URL are set)."""
        from datetime import UTC, datetime

        from gputeam.cli.tracker_cmds import _actor, _org_id
        from gputeam.errors import InputError, Problem
        from gputeam.store import get_person_by_key, mark_essay, open_database

        catalog = _catalog(catalog_extra)
        database = open_database(db)
        try:
            with database.session() as s:
                org_id = _org_id(s, org, create=False)
                marker_id = None
                if assessor is not None:
                    person = get_person_by_key(s, org_id, assessor)
                    if person is None:
                        raise InputError(
                            [Problem(path="--assessor", message=_("no such person"), found=assessor)]
                        )
                    marker_id = person.id
                row = mark_essay(
                    s,
                    attempt,
                    item,
                    mark,
                    comment,
                    marker=assessor or _actor(),
                    role="admin",
                    marker_person_id=marker_id,
                    now=datetime.now(UTC),
                    catalog=catalog,
                    issuer=_issuer(),
                    org_id=org_id,
                )
                pending = len((row.result or {}).get("pending", []))
                score = round((row.score or 0) * 100)
                outcome = (
                    ngettext("{count} essay still to mark", "{count} essays still to mark", pending).format(
                        count=pending
                    )
                    if pending
                    else (_("passed ({score} %)") if row.passed else _("not passed ({score} %)")).format(
                        score=score
                    )
                )
        finally:
            database.dispose()
        marked = _("attempt {attempt}: {item} marked {mark}; {outcome}").format(
            attempt=attempt, item=item, mark=mark, outcome=outcome
        )
        sys.stdout.write(marked + "\n")
