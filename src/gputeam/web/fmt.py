"""Jinja2 filters shared by the pages: numbers, money, percentages, dates (in the request's
language, through :mod:`gputeam.i18n.formats`), and stored codes in words."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from jinja2 import pass_context

from gputeam.i18n import N_, gettext
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


#: Codes shown on the pages (roadmap item kinds and statuses, user roles, certificate states,
#: cost categories, sizing modes, sort keys) in words; a code not listed is shown as it is.
WORDS = {
    "course": N_("course"),
    "bootcamp": N_("bootcamp"),
    "exam": N_("exam"),
    "renewal": N_("renewal"),
    "practice": N_("practice"),
    "apprenticeship": N_("apprenticeship"),
    "planned": N_("planned"),
    "in-progress": N_("in progress"),
    "done": N_("done"),
    "cancelled": N_("cancelled"),
    "valid": N_("valid"),
    "expiring": N_("expiring"),
    "expired": N_("expired"),
    "salaries": N_("salaries"),
    "hiring": N_("hiring"),
    "training": N_("training"),
    "exams": N_("exams"),
    "contractors": N_("contractors"),
    "mentoring": N_("mentoring"),
    "retention": N_("retention"),
    "template": N_("template"),
    "lean": N_("lean"),
    "name": N_("name"),
    "key": N_("id"),
    "level": N_("level"),
    "role": N_("role"),
    "team": N_("team"),
    "expires": N_("expiry"),
    "person": N_("person"),
    "certification": N_("certification"),
    "earned": N_("earned"),
    # a practical assessment's outcome
    "pass": N_("pass"),
    "fail": N_("fail"),
    # the skills matrix: a cell's status and where the targets come from
    "meets": N_("meets"),
    "below": N_("below"),
    "no-target": N_("no target"),
    "unrated": N_("unrated"),
    "plan": N_("plan"),
    "catalog roles": N_("catalog roles"),
    # the catalog's skill-domain groups and its sections
    "cloud": N_("cloud"),
    "fabric": N_("fabric"),
    "facilities": N_("facilities"),
    "foundation": N_("foundation"),
    "gpu": N_("GPU"),
    "operations": N_("operations"),
    "performance": N_("performance"),
    "platform": N_("platform"),
    "security": N_("security"),
    "storage": N_("storage"),
    "certifications": N_("certifications"),
    "courses": N_("courses"),
    "paths": N_("learning paths"),
    "roles": N_("roles"),
    "domains": N_("skill domains"),
    "templates": N_("team templates"),
    "strategies": N_("training strategies"),
    "levels": N_("levels"),
    "admin": N_("admin"),
    "manager": N_("manager"),
    "engineer": N_("engineer"),
    "viewer": N_("viewer"),
}


def word(code: Any) -> str:
    """A stored code (``in-progress``, ``renewal``, ``manager``) in the request's language."""
    text = str(code)
    if text.startswith("expiring-"):
        return gettext("expiring within {days} days").format(days=text.rsplit("-", 1)[1])
    return gettext(WORDS[text]) if text in WORDS else text


@pass_context
def role_name(context: Any, role_id: Any) -> str:
    """A catalog role id (``infrastructure-lead``) as the role's name in the request's
    language (the template's context has the ``request``, or the ``app``); an id the catalog
    does not know is shown as it is."""
    from gputeam.web import services

    app = context["request"].app if "request" in context else context["app"]
    roles = services.catalog(app).roles
    text = str(role_id)
    return gettext(roles[text].name) if text in roles else text


FILTERS = {
    "money": money,
    "pct": pct,
    "num": num,
    "isodate": isodate,
    "status_label": status_label,
    "word": word,
    "role_name": role_name,
}
