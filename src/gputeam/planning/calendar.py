"""Plan months and calendar dates (month 1 starts on the scenario's start date)."""

from __future__ import annotations

from datetime import date, timedelta


def add_months(d: date, months: int) -> date:
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
    day = min(d.day, _days_in_month(year, month))
    return date(year, month, day)


def _days_in_month(year: int, month: int) -> int:
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return (nxt - timedelta(days=1)).day


def month_start(start: date, month: int) -> date:
    """First day of plan month ``month`` (1-based)."""
    return add_months(start, month - 1)


def month_end(start: date, month: int) -> date:
    return add_months(start, month) - timedelta(days=1)


def month_of(start: date, d: date) -> int:
    """The plan month a date falls in (1-based; dates before the start give <= 0)."""
    months = (d.year - start.year) * 12 + (d.month - start.month)
    if d.day < start.day:
        months -= 1
    return months + 1


def weeks(n: float) -> timedelta:
    return timedelta(days=round(7 * n))
