"""Plan months and calendar dates (month 1 starts on the scenario's start date)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

from gputeam.catalog.validity import add_months
from gputeam.i18n import N_
from gputeam.planning.text import Day, Text, english_date, say

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


def month_spans(months: Iterable[int]) -> list[tuple[int, int]]:
    """Consecutive runs of plan months as (first, last): [1, 2, 3, 7] -> [(1, 3), (7, 7)]."""
    runs: list[tuple[int, int]] = []
    for m in sorted(set(months)):
        if runs and m == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], m)
        else:
            runs.append((m, m))
    return runs


def month_list(months: Iterable[int]) -> str:
    """Plan months in words, runs joined: 'month 5', 'months 1-3', 'months 1-3 and 16-18'."""
    runs = month_spans(months)
    if not runs:
        return "no month"
    parts = [str(a) if a == b else f"{a}-{b}" for a, b in runs]
    word = "month" if len(runs) == 1 and runs[0][0] == runs[0][1] else "months"
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{word} {text}"


def month_list_text(months: Iterable[int]) -> Text:
    """:func:`month_list` as a sentence to translate."""
    runs = month_spans(months)
    if not runs:
        return say(N_("no month"))
    parts = tuple(str(a) if a == b else f"{a}-{b}" for a, b in runs)
    if len(runs) == 1 and runs[0][0] == runs[0][1]:
        return say(N_("month {month}"), month=runs[0][0])
    return say(N_("months {months}"), months=parts)


def month_with_date(start: date, month: int) -> str:
    """'month 9 (from 1 September 2027)': a plan month with the calendar date it starts on."""
    first = month_start(start, month)
    return f"month {month} (from {english_date(first)})"


def month_with_date_text(start: date, month: int) -> Text:
    """:func:`month_with_date` as a sentence to translate."""
    return say(N_("month {month} (from {day})"), month=month, day=Day(day=month_start(start, month)))
