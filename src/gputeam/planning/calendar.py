"""Plan months and calendar dates (month 1 starts on the scenario's start date)."""

from __future__ import annotations

from datetime import date, timedelta

from gputeam.catalog.validity import add_months

__all__ = ["add_months", "month_end", "month_of", "month_start", "weeks"]


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
