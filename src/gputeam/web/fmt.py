"""Jinja2 filters shared by the pages: numbers, money, percentages, dates."""

from __future__ import annotations

from datetime import date
from typing import Any

from gputeam.i18n import formats as _locale
from gputeam.report.tables import money as report_money


def money(value: Any, currency: str = "USD") -> str:
    if value is None:
        return "–"
    return report_money(float(value), currency)


def pct(value: Any) -> str:
    if value is None:
        return "–"
    if not _locale.is_english():
        return _locale.percent(float(value), 0)
    return f"{float(value) * 100:.0f}%"


def num(value: Any, digits: int = 0) -> str:
    if value is None:
        return "–"
    if not _locale.is_english():
        return _locale.decimal(float(value), digits)
    return f"{float(value):,.{digits}f}"


def isodate(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)[:10]


def status_label(status: str) -> str:
    """A certificate's :func:`gputeam.catalog.expiry_status` in words, with a symbol (the
    colour is never the only signal)."""
    if status == "expired":
        return "✗ expired"
    if status.startswith("expiring-"):
        return f"⚠ expiring within {status.rsplit('-', 1)[1]} days"
    return "✓ valid"


FILTERS = {"money": money, "pct": pct, "num": num, "isodate": isodate, "status_label": status_label}
