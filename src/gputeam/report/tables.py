"""Typed report tables: values plus a display kind per column, and their text formatting.

Shared by every document renderer (Markdown, HTML, XLSX) through ``gputeam.report.sections``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from gputeam.i18n import _
from gputeam.i18n import formats as _locale

__all__ = [
    "Cell",
    "Column",
    "Kind",
    "Section",
    "Table",
    "currency_symbol",
    "empty_text",
    "format_value",
    "money",
    "percent_text",
    "plain_data",
]

Kind = Literal["text", "int", "float", "number", "hours", "money", "pct", "ratio", "date", "month", "bool"]
"""How a value is shown: ``float`` with one decimal, ``number`` as written (whole numbers
without decimals, others with up to four), ``pct`` a fraction as a percentage ..."""

_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "CHF": "CHF "}


@dataclass(frozen=True)
class Cell:
    """A value whose kind differs from its column's (key/value tables); ``currency``: an
    amount in another currency than the document's (plans side by side)."""

    value: Any
    kind: Kind
    currency: str | None = None


@dataclass(frozen=True)
class Column:
    title: str
    kind: Kind = "text"


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...] = ()
    rows: tuple[tuple[Any, ...], ...] = ()
    title: str = ""
    empty: str = ""
    """Shown instead of an empty table ("None." in the active language when blank)."""


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    tables: tuple[Table, ...]
    notes: tuple[str, ...] = ()


# ---------------------------------------------------------------- formatting
def currency_symbol(currency: str) -> str | None:
    """The symbol written before amounts in ``currency``, or None to write the code after."""
    return _SYMBOLS.get(currency)


def money(value: float, currency: str) -> str:
    """Whole currency units, with the symbol for the common currencies: $1,234, 1,234 SEK.
    The one way gputeam writes money: every report, the terminal and the web call it.

    In another language than English, the language's CLDR format with the currency's minor
    unit: ``1.234.567,50 €`` (de), ``€ 1.234.567,50`` (nl), ``₩1,234,568`` (ko)."""
    if not _locale.is_english():
        return _locale.money(value, currency)
    amount = f"{abs(value):,.0f}"
    sign = "-" if value < 0 and amount != "0" else ""
    symbol = currency_symbol(currency)
    return f"{sign}{symbol}{amount}" if symbol else f"{sign}{amount} {currency}"


def empty_text(table: Table) -> str:
    return table.empty or _("None.")


def percent_text(fraction: float, digits: int = 0) -> str:
    """A percentage inside a sentence: ``12%`` in English, the locale's way otherwise."""
    if _locale.is_english():
        return f"{fraction:.{digits}%}"
    return _locale.percent(fraction, digits)


def format_value(value: Any, kind: Kind, currency: str = "USD") -> str:
    """A table value as text (Markdown and HTML)."""
    if isinstance(value, Cell):
        return format_value(value.value, value.kind, value.currency or currency)
    if value is None or value == "":
        return "-" if kind != "text" else ""
    if isinstance(value, float) and not math.isfinite(value):
        return "-"
    if kind == "money":
        return money(float(value), currency)
    if not _locale.is_english():
        return _localised(value, kind)
    if kind == "pct":
        return f"{float(value) * 100:,.1f}%"
    if kind == "ratio":
        return f"{float(value):,.2f}"
    if kind == "number":
        number = float(value)
        if number.is_integer():
            return f"{number:,.0f}"
        return f"{number:,.4f}".rstrip("0").rstrip(".") if abs(number) < 100 else f"{number:,.1f}"
    if kind in ("float", "hours"):
        return f"{float(value):,.1f}"
    if kind in ("int", "month"):
        return f"{int(value):,}"
    if kind == "bool":
        return _("yes") if value else _("no")
    if kind == "date":
        return value.isoformat() if isinstance(value, date) else str(value)
    return str(value)


def _localised(value: Any, kind: Kind) -> str:
    """``format_value`` in another language than English (Babel's locale formats)."""
    if kind == "pct":
        return _locale.percent(float(value))
    if kind == "ratio":
        return _locale.decimal(float(value), 2)
    if kind == "number":
        number = float(value)
        if number.is_integer():
            return _locale.decimal(number, 0)
        return _locale.number(number, 4) if abs(number) < 100 else _locale.decimal(number, 1)
    if kind in ("float", "hours"):
        return _locale.decimal(float(value), 1)
    if kind in ("int", "month"):
        return _locale.decimal(int(value), 0)
    if kind == "bool":
        return _("yes") if value else _("no")
    if kind == "date":
        return _locale.date_text(value) if isinstance(value, date) else str(value)
    return str(value)


def plain_data(value: Any) -> Any:
    """``value`` as plain JSON data: NumPy arrays and scalars (from a simulation) as lists and
    numbers, tuples as lists, NaN and infinities as None (JSON has no such numbers)."""
    if hasattr(value, "tolist") and not isinstance(value, str | bytes):
        value = value.tolist()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: plain_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain_data(v) for v in value]
    return value
