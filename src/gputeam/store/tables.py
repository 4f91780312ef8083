"""Reading tabular files (CSV, XLSX) and parsing their cells, whatever the locale.

CSV files written by spreadsheet programs differ by locale: ``;`` separators and decimal
commas (most of Europe), a UTF-8 byte-order mark (Excel's "CSV UTF-8"), or Windows-1252
bytes (Excel's plain "CSV"). :func:`read_table` detects all of these; cell parsers accept
``4.5``, ``4,5``, ``1.234,5``, ``1,234.5`` and ``85 000``, and ISO or day-first dotted dates.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

Cell = str | int | float | date | datetime | bool | None


class BadCell(ValueError):
    """A cell that does not parse; ``expected`` says what would."""

    def __init__(self, reason: str, expected: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.expected = expected


@dataclass
class Table:
    """Rows of cells under a header. ``rows`` holds ``(row_number, cells)`` where the row
    number is what a spreadsheet shows (the header is row 1); blank rows are dropped."""

    header: list[str]
    rows: list[tuple[int, list[Cell]]]
    name: str = "<input>"
    delimiter: str | None = None
    encoding: str | None = None
    decimal_comma: bool = False
    notes: list[str] = field(default_factory=list)


def read_table(source: bytes | str | Path, *, filename: str | None = None,
               sheet: str | None = None, encoding: str | None = None,
               delimiter: str | None = None) -> Table:
    """Read a CSV or XLSX file (a path, or its bytes with ``filename`` for the format)."""
    if isinstance(source, str | Path):
        path = Path(source)
        filename = filename or path.name
        data = path.read_bytes()
    else:
        data = source
    name = filename or "<input>"
    if data[:4] == b"PK\x03\x04" or name.lower().endswith((".xlsx", ".xlsm")):
        return _read_xlsx(data, name, sheet)
    return _read_csv(data, name, encoding, delimiter)


def decode(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """Text and the encoding used: a UTF-8 BOM or valid UTF-8, else Windows-1252."""
    if encoding:
        return data.decode(encoding), encoding
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8"), "utf-8-sig"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16"), "utf-16"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), "cp1252"


def _read_csv(data: bytes, name: str, encoding: str | None, delimiter: str | None) -> Table:
    text, used = decode(data, encoding)
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    if delimiter is None:
        counts = {d: first.count(d) for d in (";", ",", "\t", "|")}
        delimiter = max(counts, key=lambda d: counts[d]) if any(counts.values()) else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header: list[str] | None = None
    rows: list[tuple[int, list[Cell]]] = []
    for number, record in enumerate(reader, start=1):
        if not any(c.strip() for c in record):
            continue
        if header is None:
            header = [c.strip() for c in record]
            continue
        rows.append((number, list(record)))
    table = Table(header or [], rows, name, delimiter, used, decimal_comma=delimiter == ";")
    if used == "cp1252":
        table.notes.append("not UTF-8: read as Windows-1252")
    return table


def _read_xlsx(data: bytes, name: str, sheet: str | None) -> Table:
    from openpyxl import load_workbook

    try:
        wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        raise BadCell(f"not a readable XLSX file ({type(exc).__name__}: {exc})",
                      "an .xlsx workbook") from None
    try:
        ws = wb[sheet] if sheet else wb.worksheets[0]
    except KeyError:
        raise BadCell(f"no sheet {sheet!r}", ", ".join(wb.sheetnames)) from None
    header: list[str] | None = None
    rows: list[tuple[int, list[Cell]]] = []
    for number, record in enumerate(ws.iter_rows(values_only=True), start=1):
        cells: list[Cell] = list(record)
        if all(c is None or (isinstance(c, str) and not c.strip()) for c in cells):
            continue
        if header is None:
            header = ["" if c is None else str(c).strip() for c in cells]
            continue
        rows.append((number, cells))
    wb.close()
    return Table(header or [], rows, name)


# ---------------------------------------------------------------- cell parsers
def is_blank(value: Cell) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def text(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime | date):
        return value.isoformat()
    return str(value).strip()


_DOT_THOUSANDS = re.compile(r"-?\d{1,3}(\.\d{3})+")
_PLAIN = re.compile(r"^-?\d{1,15}(\.\d+)?$")
_SPACES = re.compile(r"[\s\u00a0\u202f']")


def number(value: Cell, decimal_comma: bool = False) -> float:
    """A number written in any common locale."""
    if isinstance(value, bool):
        raise BadCell("not a number", "a number")
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str) and _PLAIN.match(value):
        return float(value)  # fast path: 42, -3, 4.5
    s = _SPACES.sub("", text(value))
    if not s:
        raise BadCell("empty", "a number")
    if "," in s and "." in s:
        comma_last = s.rfind(",") > s.rfind(".")
        s = s.replace(".", "").replace(",", ".") if comma_last else s.replace(",", "")
    elif decimal_comma and _DOT_THOUSANDS.fullmatch(s):
        s = s.replace(".", "")  # 1.234 in a decimal-comma file
    elif "," in s:
        whole, _, frac = s.rpartition(",")
        if s.count(",") > 1 or (len(frac) == 3 and not decimal_comma and whole.lstrip("-")):
            s = s.replace(",", "")  # thousands separators
        else:
            s = s.replace(",", ".")
    try:
        result = float(s)
    except ValueError:
        raise BadCell("not a number", "a number such as 4.5 or 4,5") from None
    if result != result or result in (float("inf"), float("-inf")):
        raise BadCell("not a finite number", "a number")
    return result


def integer(value: Cell, decimal_comma: bool = False) -> int:
    if isinstance(value, str) and value.isdigit() and value.isascii():
        return int(value)  # fast path
    n = number(value, decimal_comma)
    if not n.is_integer():
        raise BadCell("not a whole number", "a whole number")
    return int(n)


_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+(?:Z|[+-][\d:]+)?)?$")
_DOTTED = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$")
_SLASHED = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
_YMD_SLASH = re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})$")
DATE_FORMATS = "YYYY-MM-DD, DD.MM.YYYY, or DD/MM/YYYY / MM/DD/YYYY when unambiguous"


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
            raise BadCell("ambiguous date (day/month or month/day?)", "YYYY-MM-DD")
    except BadCell:
        raise
    except ValueError:
        raise BadCell("no such date", DATE_FORMATS) from None
    raise BadCell("not a date", DATE_FORMATS)


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
    raise BadCell("not yes/no", "true/false, yes/no or 1/0")


def as_dict(value: Any) -> Any:
    """JSON-safe cell for reports."""
    return text(value) if not isinstance(value, int | float | bool) else value
