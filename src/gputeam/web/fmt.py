"""Jinja2 filters shared by the pages: numbers, money, percentages, dates (in the request's
language, through :mod:`gputeam.i18n.formats`), and stored codes in words."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from jinja2 import pass_context

from gputeam.i18n import codes, gettext
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
    """A date (or an ISO date/time text): ISO in English, the language's date otherwise
    (``2.12.2026`` in German, ``2026. 12. 2.`` in Korean)."""
    if value is None or value == "":
        return "–"
    if isinstance(value, datetime):
        value = value.date()
    elif not isinstance(value, date):
        try:
            value = date.fromisoformat(str(value)[:10])
        except ValueError:
            return str(value)
    return value.isoformat() if _locale.is_english() else _locale.date_text(value)


def status_label(status: str) -> str:
    """A certificate's :func:`gputeam.catalog.expiry_status` in words, with a symbol (the
    colour is never the only signal)."""
    if status == "expired":
        return "✗ " + gettext("expired")
    if status.startswith("expiring-"):
        return "⚠ " + gettext("expiring within {days} days").format(days=status.rsplit("-", 1)[1])
    return "✓ " + gettext("valid")


#: Codes shown on the pages in words (the one table of them: gputeam.i18n.codes).
WORDS = codes.WORDS


def word(code: Any) -> str:
    """A stored code (``in-progress``, ``renewal``, ``manager``) in the request's language."""
    return codes.label(code, {})


@pass_context
def role_name(context: Any, role_id: Any) -> str:
    """A catalog role id (``infrastructure-lead``) as the role's name in the request's
    language (the template's context has the ``request``, or the ``app``); an id the catalog
    does not know is shown as it is."""
    from gputeam.web import services

    app = context["request"].app if "request" in context else context["app"]
    roles = services.catalog(app).roles
    return codes.label(role_id, {key: role.name for key, role in roles.items()})


FILTERS = {
    "money": money,
    "pct": pct,
    "num": num,
    "isodate": isodate,
    "status_label": status_label,
    "word": word,
    "role_name": role_name,
}
