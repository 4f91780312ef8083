"""Reading tabular files (CSV, XLSX) and parsing their cells, whatever the locale.

CSV files written by spreadsheet programs differ by locale: ``;`` separators and decimal
commas (most of Europe), a UTF-8 byte-order mark (Excel's "CSV UTF-8"), or Windows-1252
bytes (Excel's plain "CSV"). :func:`read_table` detects all of these, finds the header
below a title when asked (:meth:`Table.with_header`), and refuses a file that is not a
table at all (an image renamed ``.csv``). Cell parsers accept ``4.5``, ``4,5``,
``1.234,5``, ``1,234.5``, ``85 000`` (space, no-break or narrow no-break space) and
``1'234.5``, reading ``1.500`` as the file's locale says and refusing it as ambiguous when
the locale is unknown; and ISO or day-first dotted dates.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import unicodedata
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

from gputeam.i18n import N_
from gputeam.spreadsheet import unneutralise
from gputeam.store.limits import LimitExceeded, TableLimits, exceeded, from_environment

Cell = str | int | float | date | datetime | bool | None


class BadCell(ValueError):
    """A cell that does not parse; ``expected`` says what would."""

    def __init__(self, reason: str, expected: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.expected = expected


#: How many rows from the top a header is looked for in (below a title and notes).
HEADER_SEARCH_ROWS = 10


@dataclass
class Table:
    """Rows of cells under a header. ``rows`` holds ``(row_number, cells)`` where the row
    number is what a spreadsheet shows (the header is row ``header_line``, 1 unless a title
    sits above it); blank rows are dropped. ``decimal_comma`` is the file's locale: True
    (``;``-separated CSV), False (``,``-separated CSV) or None (unknown: XLSX, tabs)."""

    header: list[str]
    rows: list[tuple[int, list[Cell]]]
    name: str = "<input>"
    delimiter: str | None = None
    encoding: str | None = None
    decimal_comma: bool | None = False
    notes: list[str] = field(default_factory=list)
    header_line: int = 1
    #: the non-blank rows above the header (titles), kept so that another row can be chosen
    above: list[tuple[int, list[Cell]]] = field(default_factory=list, repr=False)

    def candidates(self, limit: int = HEADER_SEARCH_ROWS) -> list[tuple[int, list[str]]]:
        """The first ``limit`` non-blank rows (the header and what is around it), as text:
        where to look for a header that is not on the first row."""
        lines = self._lines()
        return [(n, [text(c) for c in cells]) for n, cells in lines[:limit]]

    def _lines(self) -> list[tuple[int, list[Cell]]]:
        header: list[Cell] = list(self.header)
        return [*self.above, (self.header_line, header), *self.rows]

    def with_header(self, line: int) -> Table:
        """The same file read with its header on row ``line``; the rows above are dropped."""
        lines = self._lines()
        for i, (n, cells) in enumerate(lines):
            if n == line:
                return replace(
                    self, header=[text(c) for c in cells], rows=lines[i + 1 :], header_line=n, above=lines[:i]
                )
        raise BadCell(
            N_("row {line} is empty or past the end of the file").format(line=line),
            N_("the row number of the header, as the spreadsheet shows it"),
        )


#: File signatures of formats people rename to .csv by mistake
_SIGNATURES = (
    (b"\x89PNG", N_("a PNG image")),
    (b"%PDF", N_("a PDF document")),
    (b"\xff\xd8\xff", N_("a JPEG image")),
    (b"GIF8", N_("a GIF image")),
    (b"\xd0\xcf\x11\xe0", N_("an old Excel .xls (or other Office) file")),
    (b"\x1f\x8b", N_("a gzip archive")),
    (b"SQLite format 3", N_("an SQLite database")),
)
NOT_TABULAR = N_("a CSV file (text) or an XLSX workbook; save the sheet as CSV UTF-8 or .xlsx")


def read_table(
    source: bytes | str | Path,
    *,
    filename: str | None = None,
    sheet: str | None = None,
    encoding: str | None = None,
    delimiter: str | None = None,
    header_row: int | None = None,
    limits: TableLimits | None = None,
) -> Table:
    """Read a CSV or XLSX file (a path, or its bytes with ``filename`` for the format).
    ``header_row`` is the row number of the header (default: the first non-blank row).
    Refuses (:class:`BadCell`) a file that is neither: an image, a PDF, binary data; and
    (:class:`~gputeam.store.limits.LimitExceeded`) one over ``limits`` (default: the
    environment's, :class:`~gputeam.store.limits.TableLimits`), stopping as soon as it
    sees that, before the file can hold much memory or time."""
    limits = limits or from_environment()
    if isinstance(source, str | Path):
        path = Path(source)
        filename = filename or path.name
        size = path.stat().st_size
        if size > limits.max_upload_bytes:
            raise exceeded("max_upload_bytes", limits.max_upload_bytes, f"{size:,}", file=filename)
        data = path.read_bytes()
    else:
        data = source
    name = filename or "<input>"
    if len(data) > limits.max_upload_bytes:
        raise exceeded("max_upload_bytes", limits.max_upload_bytes, f"{len(data):,}", file=name)
    if data[:4] == b"PK\x03\x04" or name.lower().endswith((".xlsx", ".xlsm")):
        table = _read_xlsx(data, name, sheet, limits)
    else:
        _refuse_binary(data)
        table = _read_csv(data, name, encoding, delimiter, limits)
    if header_row is not None and header_row != table.header_line:
        table = table.with_header(header_row)
    return table


def _refuse_binary(data: bytes) -> None:
    for magic, what in _SIGNATURES:
        if data.startswith(magic):
            raise BadCell(N_("not a CSV or XLSX file: this is {what}").format(what=what), NOT_TABULAR)
    head = data[:8192]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return  # UTF-16 text has NUL bytes
    # text has few control characters (a stray NUL is reported at its cell); binary data
    # has them everywhere
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 13))
    if controls > max(8, len(head) // 50):
        raise BadCell(N_("not a CSV or XLSX file: it holds binary data"), NOT_TABULAR)


def decode(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """Text and the encoding used: a UTF-8 BOM or valid UTF-8, else Windows-1252."""
    used = encoding or _encoding(data)
    if used == "utf-8-sig":
        return data[3:].decode("utf-8"), used
    return data.decode(used, errors="replace" if used == "cp1252" else "strict"), used


def _encoding(data: bytes) -> str:
    """The encoding of a CSV's bytes (see :func:`decode`), found without decoding them
    all at once: valid UTF-8 is checked a megabyte at a time."""
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    if data.isascii():
        return "utf-8"
    check = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    try:
        for start in range(0, len(data), _CHUNK):
            check.decode(view[start : start + _CHUNK], final=start + _CHUNK >= len(data))
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8"


_CHUNK = 1024 * 1024


def _text_stream(data: bytes, encoding: str) -> io.TextIOWrapper:
    """The file's text, decoded as it is read (never a second copy of the whole file)."""
    raw = io.BytesIO(data)
    if encoding == "utf-8-sig":
        raw.seek(3)
        encoding = "utf-8"
    errors = "replace" if encoding == "cp1252" else "strict"
    return io.TextIOWrapper(raw, encoding=encoding, errors=errors, newline="")


#: the decimal mark a CSV's separator implies: ``;`` is chosen where ``,`` is the decimal
#: mark; a ``,``-separated file uses the point; tabs and bars say nothing
_DECIMAL_COMMA: dict[str, bool | None] = {";": True, ",": False}


def _split(lines: list[tuple[int, list[Cell]]]) -> tuple[list[str], list[tuple[int, list[Cell]]]]:
    if not lines:
        return [], []
    return [text(c) for c in lines[0][1]], lines[1:]


class _Lines:
    """The non-blank rows of a file as they are read, each checked against the limits:
    the first row over the most rows, a row over the most columns or a cell over the
    longest cell is refused at once. Trailing blank cells are dropped (a workbook pads
    every row to its widest)."""

    def __init__(self, name: str, limits: TableLimits) -> None:
        self.name = name
        self.limits = limits
        self.lines: list[tuple[int, list[Cell]]] = []

    def add_text(self, number: int, cells: list[str]) -> None:
        """A CSV row (every cell text); the checks in C where they can be."""
        end = len(cells)
        while end and not cells[end - 1]:
            end -= 1
        if not end or not "".join(cells).strip():
            return
        row: list[Cell] = list(cells[:end]) if end < len(cells) else list(cells)
        self._check(number, row, max(map(len, cells)))

    def add(self, number: int, cells: list[Cell]) -> None:
        """A workbook's row (text, numbers, dates, None for an empty cell)."""
        end = len(cells)
        while end and (cells[end - 1] is None or cells[end - 1] == ""):
            end -= 1
        row = cells[:end]
        if all(c is None or (isinstance(c, str) and not c.strip()) for c in row):
            return
        self._check(number, row, max((len(c) for c in row if isinstance(c, str)), default=0))

    def _check(self, number: int, row: list[Cell], longest: int) -> None:
        limits = self.limits
        if len(row) > limits.import_max_columns:
            found = f"{len(row):,}"
            raise exceeded(
                "import_max_columns", limits.import_max_columns, found, file=self.name, line=number
            )
        if len(self.lines) >= limits.import_max_rows:
            found = f"{len(self.lines) + 1:,}"
            raise exceeded("import_max_rows", limits.import_max_rows, found, file=self.name, line=number)
        if longest > limits.import_max_cell_chars:
            index = next(i for i, c in enumerate(row) if isinstance(c, str) and len(c) == longest)
            raise self.cell_too_long(number, index, f"{longest:,}")
        self.lines.append((number, row))

    def cell_too_long(self, number: int, index: int | None, found: str) -> LimitExceeded:
        return exceeded(
            "import_max_cell_chars",
            self.limits.import_max_cell_chars,
            found,
            file=self.name,
            line=number,
            path=N_("column {number}").format(number=index + 1) if index is not None else None,
            status=422,
        )


def _read_csv(
    data: bytes, name: str, encoding: str | None, delimiter: str | None, limits: TableLimits
) -> Table:
    used = encoding or _encoding(data)
    if delimiter is None:
        first = ""
        head = _text_stream(data, used)
        for _ in range(HEADER_SEARCH_ROWS):
            line = head.readline()
            if not line or line.strip():
                first = line
                break
        counts = {d: first.count(d) for d in (";", ",", "\t", "|")}
        delimiter = max(counts, key=lambda d: counts[d]) if any(counts.values()) else ","
    # the csv module's own cell limit (one for the process) just above ours: a longer cell
    # stops the reader there, and is named as ours
    csv.field_size_limit(limits.import_max_cell_chars + 1)
    reader = csv.reader(_text_stream(data, used), delimiter=delimiter)
    lines = _Lines(name, limits)
    number = 0
    try:
        for number, record in enumerate(reader, start=1):
            lines.add_text(number, record)
    except csv.Error as exc:
        if "field limit" in str(exc):
            raise lines.cell_too_long(reader.line_num, None, f"> {limits.import_max_cell_chars:,}") from None
        raise BadCell(
            N_("not a readable CSV file at row {row}").format(row=number + 1), N_("a CSV file")
        ) from None
    except UnicodeDecodeError:
        raise BadCell(N_("not text in the encoding {encoding}").format(encoding=used), NOT_TABULAR) from None
    header, rows = _split(lines.lines)
    table = Table(
        header,
        rows,
        name,
        delimiter,
        used,
        decimal_comma=_DECIMAL_COMMA.get(delimiter),
        header_line=lines.lines[0][0] if lines.lines else 1,
    )
    if used == "cp1252":
        table.notes.append("not UTF-8: read as Windows-1252")
    return table


def open_workbook(data: bytes, name: str, limits: TableLimits) -> Any:
    """An XLSX workbook (openpyxl, read only) unzipped within ``limits``: its zip directory
    is checked before anything is unzipped, and each part is counted as it is
    (:mod:`gputeam.store.unzip`). Refuses a damaged file (:class:`BadCell`)."""
    from openpyxl.reader.excel import ExcelReader

    from gputeam.store.unzip import BoundedZip, check_zip

    try:
        check_zip(data, name, limits)  # the directory's sizes, before anything is unzipped
        reader = ExcelReader(io.BytesIO(data), read_only=True, data_only=True)
        reader.archive.close()
        reader.archive = BoundedZip(io.BytesIO(data), name, limits)  # and as it is unzipped
        reader.valid_files = reader.archive.namelist()
        reader.read()
        return reader.wb
    except LimitExceeded:
        raise
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        raise BadCell(
            N_("not a readable XLSX file ({reason})").format(reason=f"{type(exc).__name__}: {exc}"),
            N_("an .xlsx workbook"),
        ) from None


def _read_xlsx(data: bytes, name: str, sheet: str | None, limits: TableLimits) -> Table:
    wb = open_workbook(data, name, limits)
    try:
        ws = wb[sheet] if sheet else wb.worksheets[0]
    except KeyError:
        raise BadCell(N_("no sheet {name}").format(name=repr(sheet)), ", ".join(wb.sheetnames)) from None
    lines = _Lines(name, limits)
    try:
        for number, record in enumerate(ws.iter_rows(values_only=True), start=1):
            lines.add(number, list(record))
    except LimitExceeded:
        raise
    except Exception as exc:  # a damaged sheet (bad XML, a CRC error) is found as it is read
        raise BadCell(
            N_("not a readable XLSX file ({reason})").format(reason=f"{type(exc).__name__}: {exc}"),
            N_("an .xlsx workbook"),
        ) from None
    finally:
        wb.close()
    header, rows = _split(lines.lines)
    return Table(header, rows, name, decimal_comma=None, header_line=lines.lines[0][0] if lines.lines else 1)


# ---------------------------------------------------------------- cell parsers
def is_blank(value: Cell) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def text(value: Cell) -> str:
    """A cell as text: trimmed, Unicode NFC (so ``mü1`` typed two ways is one id), and
    without the apostrophe a CSV export puts before ``=``, ``+``, ``-``, ``@`` to stop
    spreadsheet formulas (:func:`gputeam.spreadsheet.csv_cell`)."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime | date):
        return value.isoformat()
    s = str(value).strip()
    if not s.isascii():
        s = unicodedata.normalize("NFC", s)
    return unneutralise(s)


#: what may separate groups of three digits: space, no-break space, narrow no-break space,
#: apostrophe (Swiss) and its typographic form
_GROUP_SPACE = re.compile(r"(?<=\d)[ \u00a0\u202f'\u2019](?=\d{3}(?!\d))")
_DIGITS = re.compile(r"\d{1,15}")
_EXPONENT = re.compile(r"\d+(\.\d+)?[eE][+-]?\d{1,3}")
NUMBER_EXAMPLE = N_("a number such as 4.5, 4,5, 1.234,5, 1,234.5 or 85 000")


def _grouped(s: str, sep: str) -> bool:
    """``s`` is digits in groups of three after a first group of one to three (no leading
    zero), separated by ``sep``: 1.234, 12,345,678."""
    return re.fullmatch(rf"[1-9]\d{{0,2}}(?:{re.escape(sep)}\d{{3}})+", s) is not None


def number(value: Cell, decimal_comma: bool | None = False) -> float:
    """A number written in any common locale.

    ``decimal_comma`` is the file's locale: True when a comma is its decimal mark (a
    ``;``-separated CSV), False when a point is, None when unknown (an XLSX text cell, a
    tab-separated file). Thousands separators ``.``, ``,``, space, no-break spaces and
    apostrophes are understood. A lone ``.`` or ``,`` followed by exactly three digits
    (``1.500``) is read as the locale says, and refused as ambiguous when it is unknown."""
    if isinstance(value, bool):
        raise BadCell(N_("not a number"), N_("a number"))
    result = float(value) if isinstance(value, int | float) else _parse_number(text(value), decimal_comma)
    if result != result or result in (float("inf"), float("-inf")):
        raise BadCell(N_("not a finite number"), N_("a number"))
    return result


def _parse_number(written: str, decimal_comma: bool | None) -> float:
    if _DIGITS.fullmatch(written):
        return float(written)  # fast path: 42
    s = _GROUP_SPACE.sub("", written).replace("\u2212", "-")
    if not s:
        raise BadCell(N_("empty"), N_("a number"))
    sign = ""
    if s[0] in "+-":
        sign, s = s[0], s[1:]
    if _EXPONENT.fullmatch(s):
        return float(sign + s)
    if not s or not re.fullmatch(r"[\d.,]+", s) or not s[-1].isdigit():
        raise BadCell(N_("not a number"), NUMBER_EXAMPLE)
    dots, commas = s.count("."), s.count(",")
    if dots and commas:  # 1.234,5 or 1,234.5: the last mark is the decimal one
        mark = "," if s.rfind(",") > s.rfind(".") else "."
        whole, _, frac = s.rpartition(mark)
        group = "." if mark == "," else ","
        if mark in whole or not _grouped(whole, group):
            raise BadCell(N_("not a number"), NUMBER_EXAMPLE)
        s = whole.replace(group, "") + "." + frac
    elif dots + commas > 1:  # 1.234.567: thousands only
        sep = "." if dots else ","
        if not _grouped(s, sep):
            raise BadCell(N_("not a number"), NUMBER_EXAMPLE)
        s = s.replace(sep, "")
    elif dots + commas == 1:
        sep = "." if dots else ","
        whole, _, frac = s.partition(sep)
        if len(frac) == 3 and _grouped(s, sep):  # 1.500: 1.5 or 1500?
            if decimal_comma is None:
                other = "," if sep == "." else "."
                raise BadCell(
                    N_(
                        "ambiguous number: {number} is {as_decimal} with {mark} as the decimal "
                        "mark, {as_whole} with {separator} separating thousands, and this file "
                        "does not say which"
                    ).format(
                        number=f"{whole}{sep}{frac}",
                        as_decimal=f"{whole}{other}{frac}",
                        mark=repr(sep),
                        as_whole=f"{whole}{frac}",
                        separator=repr(sep),
                    ),
                    N_(
                        "{plain} (no separator) or a number with a decimal mark and thousands "
                        "separator both written (1.234,5 / 1,234.5)"
                    ).format(plain=f"{whole}{frac}"),
                )
            s = whole + "." + frac if (sep == ",") == decimal_comma else whole + frac
        else:  # 4.5, 4,5, 0,500: a decimal mark either way
            s = (whole or "0") + "." + frac
    return float(sign + s)


def integer(value: Cell, decimal_comma: bool | None = False) -> int:
    if isinstance(value, str) and value.isdigit() and value.isascii():
        return int(value)  # fast path
    n = number(value, decimal_comma)
    if not n.is_integer():
        raise BadCell(N_("not a whole number"), N_("a whole number"))
    return int(n)


_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+(?:Z|[+-][\d:]+)?)?$")
_DOTTED = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$")
_SLASHED = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
_YMD_SLASH = re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})$")
DATE_FORMATS = N_("YYYY-MM-DD, DD.MM.YYYY, or DD/MM/YYYY / MM/DD/YYYY when unambiguous")


def day(value: Cell) -> date:
    """A date: ISO, ``DD.MM.YYYY``, ``YYYY/MM/DD``, or ``DD/MM/YYYY``/``MM/DD/YYYY`` when
    only one reading is a valid date; an ambiguous slashed date is refused."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    s = text(value)
    try:
        if m := _ISO.match(s) or _YMD_SLASH.match(s):
            return date(int(m[1]), int(m[2]), int(m[3]))
        if m := _DOTTED.match(s):
            return date(int(m[3]), int(m[2]), int(m[1]))
        if m := _SLASHED.match(s):
            a, b, y = int(m[1]), int(m[2]), int(m[3])
            if a > 12 >= b:
                return date(y, b, a)
            if b > 12 >= a:
                return date(y, a, b)
            if a == b:
                return date(y, a, b)
            raise BadCell(N_("ambiguous date (day/month or month/day?)"), "YYYY-MM-DD")
    except BadCell:
        raise
    except ValueError:
        raise BadCell(N_("no such date"), DATE_FORMATS) from None
    raise BadCell(N_("not a date"), DATE_FORMATS)


_TRUE = {"1", "true", "yes", "y", "x", "ja", "oui", "si", "sí", "wahr", "vrai"}
_FALSE = {"0", "false", "no", "n", "nein", "non", "falsch", "faux"}


def boolean(value: Cell) -> bool:
    if isinstance(value, bool):
        return value
    s = text(value).lower()
    if s in _TRUE:
        return True
    if s in _FALSE:
        return False
    raise BadCell(N_("not yes/no"), N_("true/false, yes/no or 1/0"))


def as_dict(value: Any) -> Any:
    """JSON-safe cell for reports."""
    return text(value) if not isinstance(value, int | float | bool) else value
