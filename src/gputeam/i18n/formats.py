"""Locale formats (Babel/CLDR) for the active language: money, numbers, percentages, dates.

English keeps gputeam's own historical formats (whole currency units, ISO dates), written by
``gputeam.report.tables``; the other languages use CLDR's: ``1.234.567,50 €`` (de, es),
``€ 1.234.567,50`` (nl), ``₩1,234,568`` (ko: the won has no minor unit), dates ``2.12.2026``
(de), ``2-12-2026`` (nl), ``2/12/2026`` (es), ``2026. 12. 2.`` (ko).
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache
from typing import Any

from gputeam.i18n import PSEUDO, current

__all__ = [
    "babel_locale",
    "date_text",
    "decimal",
    "duration",
    "is_english",
    "money",
    "month_text",
    "number",
    "percent",
    "plotly_date_format",
    "plotly_locale",
]

#: All-digit dates that fit a table column, in each language's usual order (CLDR patterns),
#: the same for Plotly's date axes (d3 formats) and months on a category axis.
_DATE_PATTERNS = {"de": "d.M.y", "nl": "d-M-y", "es": "d/M/y", "ko": "y. M. d."}
_PLOTLY_DATES = {"de": "%-d.%-m.%Y", "nl": "%-d-%-m-%Y", "es": "%-d/%-m/%Y", "ko": "%Y. %-m. %-d."}
_MONTHS = {"de": "MM.y", "nl": "MM-y", "es": "MM/y", "ko": "y. MM."}


def is_english() -> bool:
    """True when the active language writes gputeam's English formats (``en`` and the
    pseudo-locale, whose figures stay English so that only its words change)."""
    return current() in ("en", PSEUDO)


def babel_locale() -> str:
    return "en" if is_english() else current()


def money(value: float, currency: str) -> str:
    """An amount in CLDR's currency format of the active language (the currency's own
    number of decimals)."""
    from babel.numbers import format_currency

    return format_currency(value, currency, locale=babel_locale())


def decimal(value: float, digits: int) -> str:
    """``value`` with exactly ``digits`` decimals and the locale's grouping."""
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=babel_locale())


def duration(seconds: float, digits: int = 2) -> str:
    """A duration in seconds in CLDR's short unit form: ``0,07 Sek.`` (de), ``0,07 s`` (es),
    ``0.07초`` (ko); gputeam's ``0.07 s`` in English (and the pseudo-locale)."""
    if is_english():
        return f"{seconds:,.{digits}f} s"
    from babel.units import format_unit

    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_unit(seconds, "duration-second", length="short", format=pattern, locale=babel_locale())


def number(value: float, max_digits: int) -> str:
    """``value`` with up to ``max_digits`` decimals (trailing zeros dropped)."""
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "#" * max_digits if max_digits else "")
    return format_decimal(value, format=pattern, locale=babel_locale())


@lru_cache(maxsize=16)
def _percent_pattern(locale: str, digits: int) -> str:
    from babel import Locale

    pattern: str = Locale.parse(locale).percent_formats[None].pattern
    if digits:
        pattern = re.sub(r"0(?=[^0-9#,.]*%)", "0." + "0" * digits, pattern, count=1)
    return pattern


def percent(fraction: float, digits: int = 1) -> str:
    """A fraction as a percentage: ``12,5 %`` (de), ``12,5%`` (nl), ``12.5%`` (ko)."""
    from babel.numbers import format_percent

    locale = babel_locale()
    return format_percent(fraction, format=_percent_pattern(locale, digits), locale=locale)


def date_text(value: date) -> str:
    """A date in the language's short form: ``2.12.2026`` (de), ``2026. 12. 2.`` (ko);
    ISO ``2026-12-02`` in English (and the pseudo-locale)."""
    if is_english():
        return value.isoformat()
    from babel.dates import format_date

    return format_date(value, format=_DATE_PATTERNS[current()], locale=current())


def month_text(value: date) -> str:
    """A month as a chart's category label: ``01.2027`` (de), ``2027. 01.`` (ko)."""
    from babel.dates import format_date

    return format_date(value, format=_MONTHS[current()], locale=current())


def plotly_date_format() -> str:
    return _PLOTLY_DATES[current()]


def plotly_locale() -> dict[str, Any]:
    """Layout settings that make Plotly write numbers the locale's way: ``separators`` (decimal
    mark, then thousands separator)."""
    from babel.numbers import get_decimal_symbol, get_group_symbol

    locale = babel_locale()
    return {"separators": get_decimal_symbol(locale) + get_group_symbol(locale)}
