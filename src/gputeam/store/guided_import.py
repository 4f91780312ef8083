"""The guided import: an uploaded roster or certifications file kept between the steps
(pick the sheet, check the header row, map the columns, preview, import), and what the
steps show about it.

:class:`PendingUploads` keeps each upload as a file in a private directory, keyed by a
random token and owned by the user and organisation that uploaded it: any other caller
asking for the token is told there is no such upload. An upload is at most
``max_bytes`` (the app passes ``GPUTEAM_MAX_UPLOAD_BYTES``); a user keeps at most
``per_user`` of them (older ones are dropped); each is deleted after its import, when
discarded, or ``max_age`` seconds (an hour) after it was made, whichever comes first.

:func:`layout` reads an upload the way the import will (:mod:`gputeam.store.importing`):
its sheets, the header row the importer detects below a title (or the one asked for),
the rows it could be instead, and for each column the field the importer would read it
as, so that a form can show all of it and let the user change it. It reads the whole
file within the import limits (:class:`~gputeam.store.limits.TableLimits`), so a file
over one is refused at upload, before it is kept.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gputeam.catalog import Catalog
from gputeam.errors import Problem
from gputeam.i18n import N_
from gputeam.store.errors import ImportRejected, NotFound
from gputeam.store.import_tables import (
    CERT_ALIASES,
    CERT_FIELDS,
    IGNORE,
    NAME_FIRST,
    NAME_LAST,
    NAME_PARTS,
    NAME_PREFERRED,
    ROSTER_ALIASES,
    ROSTER_FIELDS,
    Problems,
    find_header,
    normalise,
    open_table,
    resolve_header,
)
from gputeam.store.importing import (
    skill_columns,
)
from gputeam.store.limits import TableLimits, exceeded, from_environment
from gputeam.store.tables import BadCell, open_workbook, text

KINDS = ("roster", "certifications")
#: how long an upload is kept, in seconds
MAX_AGE = 3600
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")


@dataclass(frozen=True)
class PendingUpload:
    token: str
    kind: str
    filename: str
    data: bytes
    created: float


class PendingUploads:
    """Uploads waiting for their import, in ``directory`` (created private: mode 0700;
    every process of the server on this machine shares it)."""

    def __init__(
        self,
        directory: str | Path | None = None,
        *,
        max_bytes: int,
        max_age: float = MAX_AGE,
        per_user: int = 5,
    ) -> None:
        self.directory = Path(directory or Path(tempfile.gettempdir()) / "gputeam-imports")
        self.max_bytes = max_bytes
        self.max_age = max_age
        self.per_user = per_user

    def save(
        self, user_id: int, org_id: int, kind: str, filename: str, data: bytes, *, now: float | None = None
    ) -> str:
        """Keep ``data``; the token to ask for it again."""
        if kind not in KINDS:
            raise ValueError(kind)
        if len(data) > self.max_bytes:
            raise exceeded("max_upload_bytes", self.max_bytes, f"{len(data):,}", file=Path(filename).name)
        now = time.time() if now is None else now
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        mine = sorted((meta["created"], token) for token, meta in self._purge(now) if meta["user"] == user_id)
        for _created, token in mine[: max(0, len(mine) - self.per_user + 1)]:
            self.discard(token)
        token = secrets.token_urlsafe(24)
        meta = {
            "user": user_id,
            "org": org_id,
            "kind": kind,
            "created": now,
            "filename": Path(filename or "upload").name[:200],
        }
        self._write(self._path(token, ".bin"), data)
        self._write(self._path(token, ".json"), json.dumps(meta).encode())
        return token

    def get(self, token: str, user_id: int, org_id: int, *, now: float | None = None) -> PendingUpload:
        """The upload ``token`` of this user in this organisation; :class:`NotFound` for
        anyone else's, a discarded or imported one, or one older than ``max_age``."""
        now = time.time() if now is None else now
        meta = self._meta(token)
        if meta is None or meta.get("user") != user_id or meta.get("org") != org_id:
            raise _gone(token)
        if now - float(meta["created"]) > self.max_age:
            self.discard(token)
            raise _gone(token)
        try:
            data = self._path(token, ".bin").read_bytes()
        except OSError:
            raise _gone(token) from None
        return PendingUpload(token, str(meta["kind"]), str(meta["filename"]), data, float(meta["created"]))

    def discard(self, token: str) -> None:
        if not _TOKEN.fullmatch(token):
            return
        for suffix in (".bin", ".json"):
            self._path(token, suffix).unlink(missing_ok=True)

    def purge(self, *, now: float | None = None) -> None:
        """Delete every upload older than ``max_age``."""
        self._purge(time.time() if now is None else now)

    def _purge(self, now: float) -> list[tuple[str, dict[str, Any]]]:
        """Delete expired uploads; the others' tokens and metadata."""
        alive: list[tuple[str, dict[str, Any]]] = []
        if not self.directory.is_dir():
            return alive
        for meta_path in self.directory.glob("*.json"):
            token = meta_path.stem
            meta = self._meta(token)
            if meta is None or now - float(meta["created"]) > self.max_age:
                self.discard(token)
            else:
                alive.append((token, meta))
        for data_path in self.directory.glob("*.bin"):  # a half-written upload
            if not data_path.with_suffix(".json").exists() and now - data_path.stat().st_mtime > self.max_age:
                data_path.unlink(missing_ok=True)
        return alive

    def _meta(self, token: str) -> dict[str, Any] | None:
        if not _TOKEN.fullmatch(token):
            return None
        try:
            meta = json.loads(self._path(token, ".json").read_bytes())
        except (OSError, ValueError):
            return None
        return meta if isinstance(meta, dict) and "created" in meta else None

    def _path(self, token: str, suffix: str) -> Path:
        return self.directory / f"{token}{suffix}"

    @staticmethod
    def _write(path: Path, data: bytes) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)


def _gone(token: str) -> NotFound:
    return NotFound(
        [
            Problem(
                path="upload",
                message=N_(
                    "no such upload: it was imported, discarded, is older than an hour, "
                    "or is not yours; upload the file again"
                ),
                found=token[:8] + "…",
            )
        ]
    )


# ---------------------------------------------------------------- what the steps show
@dataclass
class Column:
    """One column of the file: its header, the field the importer reads it as (None:
    ignored or unknown), and the first few values, to recognise it by."""

    index: int
    header: str
    field: str | None
    samples: list[str]
    problem: str | None = None


@dataclass
class Layout:
    filename: str
    kind: str
    sheets: list[str]
    sheet: str | None
    header_row: int
    detected_row: int
    #: the rows the header could be on: ``(row number, first cells as text)``
    candidates: list[tuple[int, list[str]]]
    columns: list[Column]
    rows: int
    notes: list[str] = field(default_factory=list)


def field_choices(kind: str, catalog: Catalog) -> list[tuple[str, str]]:
    """``(value, label)`` for each field a column may be imported as, then "ignore"."""
    if kind == "roster":
        out = [(f, f.replace("_", " ")) for f in ROSTER_FIELDS]
        at = ROSTER_FIELDS.index("name") + 1
        out[at:at] = [(p, NAME_PART_LABELS[p]) for p in NAME_PARTS]
        out += [(f"skill:{d.id}", f"skill: {d.name}") for d in catalog.domains.values()]
    else:
        out = [(f, f.replace("_", " ")) for f in CERT_FIELDS]
    return [*out, (IGNORE, "(ignore this column)")]


#: the mapping's labels of the name parts (the roster's field names, in English)
NAME_PART_LABELS = {
    NAME_FIRST: "name: first part",
    NAME_PREFERRED: "name: preferred first part",
    NAME_LAST: "name: last part",
}


def name_columns(columns: list[Column], chosen: Mapping[int, str]) -> list[str]:
    """The headers of the columns chosen as name parts, in the order the import combines
    them into the name (first, preferred, last), whatever their order in the file."""
    rank = {p: i for i, p in enumerate(NAME_PARTS)}
    parts = [(rank[chosen[c.index]], c.index, c.header) for c in columns if chosen.get(c.index) in rank]
    return [header for _rank, _index, header in sorted(parts)]


def sheet_names(data: bytes, filename: str, limits: TableLimits | None = None) -> list[str]:
    """The worksheets of an XLSX upload, in order; ``[]`` for a CSV file."""
    if data[:4] != b"PK\x03\x04" and not filename.lower().endswith((".xlsx", ".xlsm")):
        return []
    try:
        wb = open_workbook(data, filename, limits or from_environment())
    except BadCell as exc:
        raise ImportRejected(
            [Problem(path="", file=filename, message=exc.reason, expected=exc.expected)]
        ) from None
    try:
        return list(wb.sheetnames)
    finally:
        wb.close()


def layout(
    upload: PendingUpload,
    catalog: Catalog,
    *,
    sheet: str | None = None,
    header_row: int | None = None,
    limits: TableLimits | None = None,
) -> Layout:
    """How the importer reads ``upload`` (see the module docstring). Raises
    :class:`ImportRejected` for a file that is not a table or a sheet or row that does
    not exist."""
    limits = limits or from_environment()
    sheets = sheet_names(upload.data, upload.filename, limits)
    if sheet is not None and sheet not in sheets:
        sheet = None
    sheet = sheet or (sheets[0] if sheets else None)
    base = open_table(upload.data, upload.filename, sheet, limits=limits)
    fields: tuple[str, ...] = ROSTER_FIELDS if upload.kind == "roster" else CERT_FIELDS
    aliases = ROSTER_ALIASES if upload.kind == "roster" else CERT_ALIASES
    extra = skill_columns(catalog) if upload.kind == "roster" else None
    detected = find_header(base, None, None, fields, aliases, extra)
    table = detected
    if header_row is not None and header_row != detected.header_line:
        try:
            table = base.with_header(header_row)
        except BadCell as exc:
            raise ImportRejected(
                [
                    Problem(
                        path="header row",
                        message=exc.reason,
                        found=str(header_row),
                        expected=exc.expected,
                        file=upload.filename,
                    )
                ]
            ) from None
    problems = Problems(table.name, limits.import_max_problems)
    targets = resolve_header(table, None, fields, aliases, problems, extra)
    faults = {p.path: p.message for p in problems.items}
    samples: list[list[str]] = [[] for _ in table.header]
    for _line, cells in table.rows[:3]:
        for i in range(len(table.header)):
            samples[i].append(text(cells[i]) if i < len(cells) else "")
    # a known column the roster has no field for is shown chosen as ignored
    shown = [
        IGNORE if t is None and aliases.get(normalise(h)) == IGNORE else t
        for h, t in zip(table.header, targets, strict=True)
    ]
    columns = [Column(i, h, shown[i], samples[i], faults.get(h)) for i, h in enumerate(table.header)]
    return Layout(
        upload.filename,
        upload.kind,
        sheets,
        sheet,
        table.header_line,
        detected.header_line,
        base.candidates(),
        columns,
        len(table.rows),
        list(detected.notes if table is detected else []),
    )


def mapping_from_form(columns: list[Column], chosen: Mapping[int, str]) -> dict[str, str]:
    """The importer's ``mapping`` ({file column: field}) from the form's choice per column
    index; a column left out keeps what the importer detects."""
    return {c.header: chosen[c.index] for c in columns if c.index in chosen and c.header}
