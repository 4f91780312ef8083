"""Importing the certifications people hold from CSV or XLSX: all or nothing, as the
roster (:mod:`gputeam.store.importing`, whose header detection, column mapping and problem
list this uses).

Columns (case and spacing ignored; see ``CERT_ALIASES``): ``person`` (the roster id),
``certification`` (catalog id or name), ``valid_from``, ``valid_until`` (default: from
the catalog's validity), ``evidence``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from gputeam.catalog import Catalog, load_catalog
from gputeam.i18n import N_
from gputeam.store import audit
from gputeam.store.bulk import bulk_insert
from gputeam.store.certifications import default_valid_until
from gputeam.store.import_tables import (
    CERT_ALIASES,
    CERT_FIELDS,
    Problems,
    did_you_mean,
    find_header,
    normalise,
    open_table,
    resolve_header,
    row_cells,
)
from gputeam.store.importing import (
    ANALYZE_AFTER_ROWS,
    ImportReport,
    analyze_after_commit,
)
from gputeam.store.limits import TableLimits, from_environment
from gputeam.store.people import get_organisation
from gputeam.store.person_rules import ONE_LINE, clean_text, text_fault
from gputeam.store.schema import CertificationHeld, Person, utcnow
from gputeam.store.tables import BadCell, Table, day, is_blank, text


def import_certifications(
    session: Session,
    org_id: int,
    source: Table | bytes | str | Path,
    *,
    filename: str | None = None,
    mapping: Mapping[str, str] | None = None,
    sheet: str | None = None,
    dry_run: bool = False,
    catalog: Catalog | None = None,
    actor: str | None = None,
    header_row: int | None = None,
    limits: TableLimits | None = None,
) -> ImportReport:
    """Add certifications held by people already in the organisation (matched by roster
    id). A row identical to a stored certificate (same person, id, ``valid_from``) is
    unchanged; one that differs in ``valid_until`` or ``evidence`` updates it."""
    catalog = catalog or load_catalog()
    limits = limits or from_environment()
    get_organisation(session, org_id)
    table = find_header(
        open_table(source, filename, sheet, header_row, limits),
        header_row,
        mapping,
        CERT_FIELDS,
        CERT_ALIASES,
    )
    problems = Problems(table.name, limits.import_max_problems)
    columns = resolve_header(table, mapping, CERT_FIELDS, CERT_ALIASES, problems)
    for required in ("person", "certification", "valid_from"):
        if required not in columns:
            problems.add(
                table.header_line,
                required,
                None,
                N_("missing required column {name}").format(name=repr(required)),
                hint=N_("or map one with --map 'COLUMN={field}'").format(field=required),
            )
    problems.raise_if_any()
    cert_by_name = {normalise(c.name): c.id for c in catalog.certifications.values()}
    people = {k: v for k, v in session.execute(select(Person.key, Person.id).where(Person.org_id == org_id))}
    records: list[dict[str, Any]] = []
    first_row: dict[tuple[int, str, date], int] = {}
    for line, row in row_cells(table, columns, problems):
        rec: dict[str, Any] = {}
        bad = problems.count
        for fld, (column, value) in row.items():
            try:
                if fld == "person":
                    key = text(value)
                    if not key:
                        raise BadCell(N_("missing person id"), N_("a roster id"))
                    if key not in people:
                        problems.add(
                            line,
                            column,
                            value,
                            N_("no person with this id"),
                            N_("a roster id"),
                            did_you_mean(key, people) or N_("import the roster first"),
                        )
                        continue
                    rec["person_id"] = people[key]
                elif fld == "certification":
                    cid = text(value)
                    if not cid:
                        raise BadCell(N_("missing certification"), N_("a catalog certification id"))
                    if cid not in catalog.certifications:
                        if cid.lower() in catalog.certifications:
                            cid = cid.lower()
                        elif normalise(cid) in cert_by_name:
                            cid = cert_by_name[normalise(cid)]
                        else:
                            problems.add(
                                line,
                                column,
                                value,
                                N_("unknown certification"),
                                N_("a catalog certification id"),
                                did_you_mean(cid.lower(), catalog.certifications),
                            )
                            continue
                    rec["cert_id"] = cid
                elif fld in ("valid_from", "valid_until"):
                    if is_blank(value):
                        if fld == "valid_from":
                            raise BadCell(N_("missing date"), N_("the date it was earned"))
                        continue
                    rec[fld] = day(value)
                elif fld == "evidence":
                    rec["evidence"] = clean_text(text(value))
                    if (fault := text_fault(rec["evidence"])) is not None:
                        raise BadCell(fault, ONE_LINE)
            except BadCell as exc:
                problems.add(line, column, value, exc.reason, exc.expected)
        if problems.count > bad:
            continue
        if rec.get("valid_until") is None:
            rec["valid_until"] = default_valid_until(catalog, rec["cert_id"], rec["valid_from"])
        if rec["valid_until"] is not None and rec["valid_until"] < rec["valid_from"]:
            column = row.get("valid_until", ("valid_until", None))[0]
            problems.add(
                line,
                column,
                rec["valid_until"],
                N_("before valid_from"),
                f">= {rec['valid_from'].isoformat()}",
            )
            continue
        ident = (rec["person_id"], rec["cert_id"], rec["valid_from"])
        if ident in first_row:
            problems.add(
                line,
                row["certification"][0],
                rec["cert_id"],
                N_("same certificate as row {row}").format(row=first_row[ident]),
                N_("each certificate once"),
            )
            continue
        first_row[ident] = line
        rec.setdefault("evidence", "")
        records.append(rec)
    problems.raise_if_any()

    report = ImportReport("certifications", table.name, len(table.rows), dry_run, notes=table.notes)
    stored = {
        (h.person_id, h.cert_id, h.valid_from): h
        for h in session.execute(
            select(
                CertificationHeld.id,
                CertificationHeld.person_id,
                CertificationHeld.cert_id,
                CertificationHeld.valid_from,
                CertificationHeld.valid_until,
                CertificationHeld.evidence,
            )
            .join(Person, Person.id == CertificationHeld.person_id)
            .where(Person.org_id == org_id)
        )
    }
    inserts, updates = [], []
    for rec in records:
        old = stored.get((rec["person_id"], rec["cert_id"], rec["valid_from"]))
        if old is None:
            inserts.append(rec)
        elif (old.valid_until, old.evidence) != (rec["valid_until"], rec["evidence"]) and (
            rec["evidence"] or old.valid_until != rec["valid_until"]
        ):
            updates.append(
                {"id": old.id, "valid_until": rec["valid_until"], "evidence": rec["evidence"] or old.evidence}
            )
        else:
            report.unchanged += 1
    report.created, report.updated = len(inserts), len(updates)
    if dry_run:
        return report
    now = utcnow()
    if inserts:
        bulk_insert(
            session, CertificationHeld, [r | {"created_at": now, "evidence": r["evidence"]} for r in inserts]
        )
    if updates:
        session.execute(update(CertificationHeld), updates)
    audit.record(
        session,
        actor,
        "import",
        "certifications",
        org_id,
        None,
        {k: v for k, v in report.as_dict().items() if k != "notes"},
        at=now,
    )
    session.flush()
    if len(table.rows) >= ANALYZE_AFTER_ROWS:
        analyze_after_commit(session, "certifications_held")
    return report
