"""XLSX workbook: one sheet per section, real numbers with number formats.

Sheets, in order: Summary, Target, Gaps, Sourcing, Roadmaps, Costs, ROI, Warnings, Notes and,
when the plan carries a simulation, Risk. A section's tables are stacked on its sheet,
each under its title, then the section's notes; the rows down to the first table's header
are frozen. Money, percentages and
dates are stored as numbers and dates (never as text) and only formatted for display.

The output is deterministic: the workbook's created/modified properties and the zip
entries' timestamps come from ``plan.generated_for``, not the clock.
"""

from __future__ import annotations

import io
import math
import zipfile
from datetime import date, datetime
from typing import Any, Literal

from gputeam.i18n import N_, _, current
from gputeam.i18n import formats as _locale
from gputeam.planning.result import Plan
from gputeam.report.sections import Cell, Section, Table, sections
from gputeam.report.tables import currency_symbol, empty_text
from gputeam.spreadsheet import XLSX_ILLEGAL, xlsx_put

__all__ = ["SHEETS", "render"]

SHEETS = {
    "summary": N_("Summary"),
    "target": N_("Target"),
    "gaps": N_("Gaps"),
    "sourcing": N_("Sourcing"),
    "roadmaps": N_("Roadmaps"),
    "costs": N_("Costs"),
    "roi": N_("ROI"),
    "workload": N_("Workload"),
    "warnings": N_("Warnings"),
    "notes": N_("Notes"),
    "risk": N_("Risk"),
    "case_study": N_("Case study"),
    "readiness_plan": N_("Readiness plan"),
}
"""Section id to sheet name (in English; shown in the active language)."""
#: Excel date formats in each language's all-digit order (English: ISO).
_DATE_FORMATS = {"de": "d.m.yyyy", "nl": "d-m-yyyy", "es": "d/m/yyyy", "ko": 'yyyy". "m". "d"."'}

_WIDTHS = {"text": 28, "date": 12, "bool": 8}
_LONG_TEXT = 60


def _money_format(currency: str) -> str:
    if not _locale.is_english():
        return _locale_money_format(currency)
    symbol = currency_symbol(currency)
    return f'"{symbol}"#,##0;-"{symbol}"#,##0' if symbol else f'#,##0 "{currency}";-#,##0 "{currency}"'


def _locale_money_format(currency: str) -> str:
    """The language's CLDR currency pattern as an Excel number format (Excel shows its own
    decimal and group marks; the symbol's place and the decimals follow the language)."""
    import re

    from babel import Locale
    from babel.numbers import get_currency_precision, get_currency_symbol

    locale = _locale.babel_locale()
    digits = get_currency_precision(currency)
    number = "#,##0" + ("." + "0" * digits if digits else "")
    pattern = Locale.parse(locale).currency_formats["standard"].pattern.split(";")[0]
    pattern = re.sub(r"[#,0.]+", number, pattern, count=1)
    symbol = get_currency_symbol(currency, locale)
    quoted = re.sub(r"\xa0?¤\xa0?", lambda m: '"' + m.group(0).replace("¤", symbol) + '"', pattern)
    return f"{quoted};-{quoted}"


def _number_format(kind: str, currency: str) -> str | None:
    if kind == "date" and not _locale.is_english():
        return _DATE_FORMATS[current()]
    return {
        "money": _money_format(currency),
        "pct": "0.0%",
        "ratio": "0.00",
        "float": "#,##0.0",
        "number": "General",
        "hours": "#,##0.0",
        "int": "#,##0",
        "month": "0",
        "date": "yyyy-mm-dd",
    }.get(kind)


def _cell_value(value: Any, kind: str) -> Any:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return None
    if kind == "bool":
        return bool(value)
    if kind == "date" and isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            return value
    if kind in ("money", "pct", "ratio", "float", "number", "hours") and isinstance(value, int | float):
        return float(value)
    if kind in ("int", "month") and isinstance(value, int | float):
        return int(value)
    if kind == "text" and not isinstance(value, str):
        return str(value)
    return value


_CONTROL = XLSX_ILLEGAL
_put = xlsx_put  # text as text, never a formula (gputeam.spreadsheet)


def _write_table(ws: Any, table: Table, row: int, currency: str, fonts: dict[str, Any]) -> tuple[int, int]:
    """Write one table from ``row``; return (header row, next free row)."""
    if table.title:
        _put(ws, row, 1, table.title).font = fonts["title"]
        row += 1
    header = row
    for col, column in enumerate(table.columns, start=1):
        cell = _put(ws, row, col, column.title)
        cell.font = fonts["header"]
        cell.fill = fonts["fill"]
    row += 1
    if not table.rows:
        _put(ws, row, 1, empty_text(table)).font = fonts["muted"]
        row += 1
    for values in table.rows:
        for col, (value, column) in enumerate(zip(values, table.columns, strict=True), start=1):
            kind = value.kind if isinstance(value, Cell) else column.kind
            raw = value.value if isinstance(value, Cell) else value
            cell = _put(ws, row, col, _cell_value(raw, kind))
            fmt = _number_format(kind, (value.currency if isinstance(value, Cell) else None) or currency)
            if fmt and cell.value is not None and not isinstance(cell.value, str):
                cell.number_format = fmt
        row += 1
    return header, row + 1


def _write_section(ws: Any, section: Section, currency: str, fonts: dict[str, Any]) -> None:
    from openpyxl.utils import get_column_letter

    row = 1
    first_header = 0
    widths: dict[int, int] = {}
    for table in section.tables:
        header, row = _write_table(ws, table, row, currency, fonts)
        first_header = first_header or header
        for col, column in enumerate(table.columns, start=1):
            longest = max(
                [len(column.title)]
                + [len(str(getattr(v, "value", v) or "")) for v in (r[col - 1] for r in table.rows)]
            )
            widths[col] = max(widths.get(col, 0), min(longest + 2, _LONG_TEXT), _WIDTHS.get(column.kind, 10))
    if section.notes:
        ws.cell(row=row, column=1, value=_("Notes")).font = fonts["title"]
        for offset, note in enumerate(section.notes, start=1):
            _put(ws, row + offset, 1, note)
    for col, width in widths.items():
        ws.column_dimensions[get_column_letter(col)].width = width
    if first_header:
        ws.freeze_panes = ws.cell(row=first_header + 1, column=1)


class _FixedTimeZip(zipfile.ZipFile):
    """A ZipFile whose entries all carry one timestamp, so the bytes depend only on the plan."""

    def __init__(self, file: Any, when: datetime) -> None:
        super().__init__(file, "w", zipfile.ZIP_DEFLATED)
        self._when = (when.year, when.month, when.day, when.hour, when.minute, when.second)

    def writestr(self, zinfo_or_arcname: Any, data: Any, *args: Any, **kwargs: Any) -> None:
        if not isinstance(zinfo_or_arcname, zipfile.ZipInfo):
            zinfo_or_arcname = zipfile.ZipInfo(zinfo_or_arcname, date_time=self._when)
            zinfo_or_arcname.compress_type = zipfile.ZIP_DEFLATED
            zinfo_or_arcname.external_attr = 0o600 << 16
        super().writestr(zinfo_or_arcname, data, *args, **kwargs)

    def write(self, filename: Any, arcname: Any = None, *args: Any, **kwargs: Any) -> None:
        # openpyxl writes worksheets through temporary files: their mtime is 'now'
        with open(filename, "rb") as f:
            self.writestr(arcname or str(filename), f.read())

    def open(self, name: Any, mode: Literal["r", "w"] = "r", *args: Any, **kwargs: Any) -> Any:
        if mode == "w" and not isinstance(name, zipfile.ZipInfo):
            name = zipfile.ZipInfo(name, date_time=self._when)
            name.compress_type = zipfile.ZIP_DEFLATED
            name.external_attr = 0o600 << 16
        return super().open(name, mode, *args, **kwargs)


def render(plan: Plan) -> bytes:
    """The plan as an XLSX workbook."""
    from openpyxl import Workbook
    from openpyxl.styles import Font, PatternFill
    from openpyxl.writer.excel import ExcelWriter

    currency = plan.costs.currency
    fonts = {
        "title": Font(bold=True, size=12),
        "header": Font(bold=True),
        "muted": Font(italic=True, color="666666"),
        "fill": PatternFill("solid", fgColor="EEF2F7"),
    }
    wb = Workbook()
    wb.remove(wb.active)
    for section in sections(plan):
        ws = wb.create_sheet(_(SHEETS[section.id])[:31] if section.id in SHEETS else section.title[:31])
        _write_section(ws, section, currency, fonts)
    when = datetime(plan.generated_for.year, plan.generated_for.month, plan.generated_for.day)
    wb.properties.creator = "gputeam"
    wb.properties.title = _CONTROL.sub(
        "\ufffd", _("Team plan: {organisation}").format(organisation=plan.scenario.organisation)
    )
    wb.properties.created = when
    wb.properties.modified = when
    buffer = io.BytesIO()
    with _FixedTimeZip(buffer, when) as archive:
        ExcelWriter(wb, archive).save()
    return buffer.getvalue()
