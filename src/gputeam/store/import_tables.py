"""How an import reads a spreadsheet, for the roster (:mod:`gputeam.store.importing`), the
certifications (:mod:`gputeam.store.import_certs`) and the guided import
(:mod:`gputeam.store.guided_import`): the columns each import knows and their aliases,
finding the header row (below a title, or the one asked for), resolving each column to a
field (``--map``, ``-`` to ignore), the cells of each row (one line of text each), and
collecting every problem with its row and column before anything is written.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from gputeam.errors import Problem
from gputeam.i18n import N_, Nn_
from gputeam.store.errors import ImportRejected
from gputeam.store.limits import LimitExceeded, TableLimits, from_environment, setting_name
from gputeam.store.person_rules import text_fault
from gputeam.store.tables import BadCell, Cell, Table, is_blank, read_table, text

IGNORE = "-"
#: the roster's name parts: columns of these are combined into ``name`` in this order (a
#: preferred name, when given, stands in for the first name): "Ada" + "Lovelace" is
#: "Ada Lovelace", whichever column comes first in the file
NAME_FIRST = "name:first"
NAME_PREFERRED = "name:preferred"
NAME_LAST = "name:last"
NAME_PARTS = (NAME_FIRST, NAME_PREFERRED, NAME_LAST)

ROSTER_FIELDS = (
    "id",
    "name",
    "email",
    "title",
    "background",
    "level",
    "experience_months",
    "weekly_study_hours",
    "salary",
    "role",
    "team",
    "site",
    "active",
)
ROSTER_ALIASES = {
    "key": "id",
    "person": "id",
    "person_id": "id",
    "employee_id": "id",
    "employee": "id",
    "full_name": "name",
    "e_mail": "email",
    "mail": "email",
    "job_title": "title",
    "experience": "experience_months",
    "months_experience": "experience_months",
    "experience_months_": "experience_months",
    "study_hours": "weekly_study_hours",
    "study_hours_per_week": "weekly_study_hours",
    "weekly_hours": "weekly_study_hours",
    "team_name": "team",
    "competency_level": "level",
    "location": "site",
    "office": "site",
    "work_location": "site",
    # the usual headers of HR-system exports (Workday, SAP SuccessFactors, BambooHR,
    # Personio): ids, e-mail, title, department
    "employee_number": "id",
    "employee_no": "id",
    "employee_nr": "id",
    "personnel_number": "id",
    "personnel_no": "id",
    "worker_id": "id",
    "user_id": "id",
    "userid": "id",
    "person_id_external": "id",
    "emp_id": "id",
    "work_email": "email",
    "email_address": "email",
    "work_email_address": "email",
    "primary_work_email": "email",
    "email_work": "email",
    "business_email": "email",
    "business_title": "title",
    "position": "title",
    "position_title": "title",
    "job": "title",
    "department": "team",
    "department_name": "team",
    "supervisory_organization": "team",
    # the parts of a name, combined into ``name`` (NAME_PARTS)
    "first_name": NAME_FIRST,
    "firstname": NAME_FIRST,
    "given_name": NAME_FIRST,
    "forename": NAME_FIRST,
    "legal_first_name": NAME_FIRST,
    "legal_name_first_name": NAME_FIRST,
    "last_name": NAME_LAST,
    "lastname": NAME_LAST,
    "family_name": NAME_LAST,
    "surname": NAME_LAST,
    "legal_last_name": NAME_LAST,
    "legal_name_last_name": NAME_LAST,
    "preferred_name": NAME_PREFERRED,
    "preferred_first_name": NAME_PREFERRED,
    "nickname": NAME_PREFERRED,
    # HR columns the roster has no field for: known, read as ignored (IGNORE), and the
    # report says so
    "hire_date": IGNORE,
    "hiredate": IGNORE,
    "startdate": IGNORE,
    "original_hire_date": IGNORE,
    "start_date": IGNORE,
    "cost_center": IGNORE,
    "cost_centre": IGNORE,
    "division": IGNORE,
    "manager": IGNORE,
    "supervisor": IGNORE,
    "employment_type": IGNORE,
}
#: how close (difflib ratio, 0-1) a header must be to a field or alias for a hint to name it
HINT_CUTOFF = 0.75
CERT_FIELDS = ("person", "certification", "valid_from", "valid_until", "evidence")
CERT_ALIASES = {
    "id": "person",
    "person_id": "person",
    "employee_id": "person",
    "key": "person",
    "cert": "certification",
    "cert_id": "certification",
    "certification_id": "certification",
    "earned": "valid_from",
    "issued": "valid_from",
    "date": "valid_from",
    "obtained": "valid_from",
    "expires": "valid_until",
    "expiry": "valid_until",
    "expiry_date": "valid_until",
    "valid_to": "valid_until",
    "url": "evidence",
    "credential": "evidence",
    "credential_url": "evidence",
    "proof": "evidence",
}


_NON_WORD = re.compile(r"[^0-9a-z:]+")


def normalise(header: str) -> str:
    return _NON_WORD.sub("_", header.strip().lower()).strip("_")


class Problems:
    """The problems of an import, the first for each cell: the first ``limit`` are kept
    (``GPUTEAM_IMPORT_MAX_PROBLEMS``), the others counted (``count`` is all of them)."""

    def __init__(self, source: str, limit: int | None = None) -> None:
        self.source = source
        self.limit = from_environment().import_max_problems if limit is None else limit
        self.items: list[Problem] = []
        self.cells: set[tuple[int, str]] = set()
        self.count = 0

    def add(
        self,
        line: int,
        column: str,
        value: Cell,
        reason: str,
        expected: str | None = None,
        hint: str | None = None,
    ) -> None:
        """Record a problem; only the first one for each cell is kept."""
        if (line, column) in self.cells:
            return
        self.cells.add((line, column))
        self.count += 1
        if len(self.items) >= self.limit:
            return
        found = None if value is None else repr(text(value))
        self.items.append(
            Problem(
                path=column,
                message=reason,
                found=found,
                expected=expected,
                file=self.source,
                line=line,
                hint=hint,
            )
        )

    def raise_if_any(self) -> None:
        if self.items:
            self.items.sort(key=lambda p: (p.line or 0, p.path))
            more = self.count - len(self.items)
            if more:
                self.items.append(
                    Problem(
                        path=setting_name("import_max_problems"),
                        message=N_(
                            "and {n} more problems, not listed: only the first {limit} are ({setting})"
                        ).format(
                            n=f"{more:,}",
                            limit=f"{self.limit:,}",
                            setting=setting_name("import_max_problems"),
                        ),
                        file=self.source,
                    )
                )
            raise ImportRejected(self.items)


def did_you_mean(value: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    close = difflib.get_close_matches(value, list(choices), n=1, cutoff=cutoff)
    return N_("did you mean {name}?").format(name=repr(close[0])) if close else None


def column_hint(header: str, fields: Iterable[str], aliases: Mapping[str, str]) -> str | None:
    """The hint for a column nothing matched: the field or alias (what one may write in
    the header or ``--map``) whose likeness to the normalised header is at least
    :data:`HINT_CUTOFF`, the closest; None when none is that close ("First Name" is not
    hinted as 'team_name')."""
    return did_you_mean(normalise(header), [*fields, *aliases], HINT_CUTOFF)


def ignored_note(header: str) -> str:
    """The report's note for a known column the import does not keep."""
    return N_("column {column} ignored: the roster has no field for it").format(column=repr(header))


#: The note of a header found below the first row (the number of rows skipped chooses).
_HEADER_NOTE = Nn_(
    "header on row {line}; the row above it skipped (choose another with --header-row)",
    "header on row {line}; the rows above it skipped (choose another with --header-row)",
)
HEADER_HINT = N_(
    "is the header not on the first row (a title above it)? give its row number "
    "with --header-row N (the 'Header row' field on the import page)"
)


def _known_column(
    header: str,
    mapping: Mapping[str, str] | None,
    fields: tuple[str, ...],
    aliases: Mapping[str, str],
    extra: Callable[[str], str | None] | None,
) -> bool:
    n = normalise(header)
    return bool(n) and (
        header in (mapping or {})
        or n in {normalise(k) for k in mapping or {}}
        or n in fields
        or n in aliases
        or (extra is not None and extra(n) is not None)
    )


def find_header(
    table: Table,
    header_row: int | None,
    mapping: Mapping[str, str] | None,
    fields: tuple[str, ...],
    aliases: Mapping[str, str],
    extra: Callable[[str], str | None] | None = None,
) -> Table:
    """``table`` with its header on the row that holds column names: the first row unless
    it names no known column (a title such as "GPU team roster - exported ...") and a row
    below it, within the first few, names at least two (or the row ``header_row`` asked
    for, which read_table has already chosen)."""
    if header_row is not None:
        return table

    def known(cells: list[str]) -> int:
        return sum(_known_column(c, mapping, fields, aliases, extra) for c in cells)

    candidates = table.candidates()
    if not candidates or known(candidates[0][1]):
        return table
    for line, cells in candidates[1:]:
        if known(cells) >= min(2, len([c for c in cells if c])):
            found = table.with_header(line)
            found.notes.append(_HEADER_NOTE[0 if line == 2 else 1].format(line=line))
            return found
    return table


def resolve_header(
    table: Table,
    mapping: Mapping[str, str] | None,
    fields: tuple[str, ...],
    aliases: Mapping[str, str],
    problems: Problems,
    extra: Callable[[str], str | None] | None = None,
) -> list[str | None]:
    """The canonical field for each column (``None``: ignored)."""
    norm_map = {normalise(k): v for k, v in (mapping or {}).items()}
    # the name parts, for the roster (in the alias table's order)
    parts = [v for v in dict.fromkeys(aliases.values()) if v not in fields and v != IGNORE]
    out: list[str | None] = []
    top = table.header_line
    known = sum(_known_column(h, mapping, fields, aliases, extra) for h in table.header)
    seen: dict[str, str] = {}
    for header in table.header:
        n = normalise(header)
        target: str | None
        if header in (mapping or {}) or n in norm_map:
            target = (mapping or {}).get(header, norm_map.get(n))
            target = None if not target or target == IGNORE else target
            if target is not None and target not in fields and not target.startswith("skill:"):
                t2 = normalise(target)
                wanted = target
                target = (
                    t2 if t2 in fields or t2 in parts else aliases.get(t2) or (extra(t2) if extra else None)
                )
                if target == IGNORE:
                    target = None
                elif target is None:
                    problems.add(
                        top,
                        header,
                        None,
                        N_("--map names an unknown field {name}").format(name=repr(wanted)),
                        expected=", ".join(fields),
                        hint=column_hint(t2, fields, aliases),
                    )
        elif not header:
            target = None
        elif n in fields:
            target = n
        elif n in aliases:
            target = aliases[n]
            if target == IGNORE:
                target = None
                if (note := ignored_note(header)) not in table.notes:
                    table.notes.append(note)
        else:
            target = extra(n) if extra else None
            if target is None:
                problems.add(
                    top,
                    header,
                    None,
                    N_("unknown column"),
                    expected=", ".join(fields),
                    hint=column_hint(n, fields, aliases)
                    or (
                        HEADER_HINT
                        if not known
                        else N_("map it with --map 'COLUMN=field', or to '-' to ignore it")
                    ),
                )
        if target is not None and target.startswith("skill:") and extra is not None:
            checked = extra(target)
            if checked is None:
                problems.add(
                    top,
                    header,
                    None,
                    N_("unknown skill domain {name}").format(name=repr(target[6:])),
                    expected=N_("a catalog skill domain id"),
                )
                target = None
        if target is not None and target in seen:
            problems.add(
                top,
                header,
                None,
                N_("column maps to {field}, as does column {other}").format(
                    field=repr(target), other=repr(seen[target])
                ),
                expected=N_("each field in one column"),
                hint=(
                    N_("map the parts of a name to {parts}").format(parts=", ".join(map(repr, parts)))
                    if target == "name" and parts
                    else None
                ),
            )
        if target is not None:
            seen[target] = header
        out.append(target)
    whole = seen.get("name")
    for part in [p for p in parts if p in seen] if whole else []:
        problems.add(
            top,
            seen[part],
            None,
            N_("column is part of a name, and column {other} holds the whole name").format(other=repr(whole)),
            expected=N_("the whole name, or its parts"),
            hint=N_("map one of them to '-' to ignore it"),
        )
    return out


def combine_name(row: dict[str, tuple[str, Cell]]) -> None:
    """A row's name parts (:data:`NAME_PARTS`) made into its ``name``, in place: the
    non-blank parts in that order, a preferred name in place of the first, joined by one
    space; the name's column is the parts' columns (``First Name + Last Name``)."""
    present = [p for p in NAME_PARTS if p in row]
    if not present:
        return
    cells = {p: row.pop(p) for p in present}
    if NAME_PREFERRED in cells and not is_blank(cells[NAME_PREFERRED][1]):
        cells.pop(NAME_FIRST, None)
    else:
        cells.pop(NAME_PREFERRED, None)
    column = " + ".join(c for c, _v in cells.values())
    words = [text(v).strip() for _c, v in cells.values() if not is_blank(v)]
    row["name"] = (column, " ".join(w for w in words if w) or None)


def row_cells(
    table: Table, columns: list[str | None], problems: Problems
) -> Iterable[tuple[int, dict[str, tuple[str, Cell]]]]:
    """Per row: ``{field: (column header, cell)}``; stray cells past the header are bad."""
    width = len(columns)
    for line, cells in table.rows:
        for i in range(width, len(cells)):
            if not is_blank(cells[i]):
                problems.add(
                    line,
                    N_("column {number}").format(number=i + 1),
                    cells[i],
                    N_("value outside the header's columns"),
                    hint=N_("a separator inside an unquoted value?"),
                )
        row = {
            f: (table.header[i], cells[i] if i < len(cells) else None)
            for i, f in enumerate(columns)
            if f is not None
        }
        for f, (column, value) in list(row.items()):
            if isinstance(value, str) and (fault := text_fault(value.strip())) is not None:
                problems.add(
                    line, column, repr(value)[1:-1], fault, N_("one line of text without control characters")
                )
                row[f] = (column, None)
        yield line, row


def open_table(
    source: Table | bytes | str | Path,
    filename: str | None,
    sheet: str | None,
    header_row: int | None = None,
    limits: TableLimits | None = None,
) -> Table:
    """The file's table (:func:`~gputeam.store.tables.read_table`); a file that is not a
    table, or is over ``limits``, is refused with :class:`ImportRejected`."""
    name = filename or (Path(source).name if isinstance(source, str | Path) else "<input>")
    try:
        if isinstance(source, Table):
            return source.with_header(header_row) if header_row is not None else source
        return read_table(source, filename=filename, sheet=sheet, header_row=header_row, limits=limits)
    except LimitExceeded:
        raise
    except BadCell as exc:
        raise ImportRejected(
            [
                Problem(
                    path=N_("header row") if header_row else "",
                    message=exc.reason,
                    expected=exc.expected,
                    file=getattr(source, "name", name),
                )
            ]
        ) from None
