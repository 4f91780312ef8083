"""The plan's sentences in the active language.

The planning core keeps each sentence as a :class:`~gputeam.planning.text.Text` (an English
template and its parameters) beside the English sentence. :func:`localise` translates the
template with the catalogs (``ngettext`` when it has a plural form), translates catalog
names (:class:`~gputeam.planning.text.Term`) and writes numbers, money and lists the
locale's way. In English (and the pseudo-locale, whose figures stay English) it writes the
same sentence as the plan's English one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from gputeam.i18n import current, gettext, korean, ngettext
from gputeam.i18n import formats as _locale
from gputeam.planning.result import Roadmap, RoadmapItem
from gputeam.planning.text import Text, Writer

__all__ = ["item_name", "item_note", "line_name", "localise", "localise_all", "roadmap_name"]

_SPEC = re.compile(r"^(?P<group>,)?(?:\.(?P<digits>\d+))?(?P<type>[dfg%])?$")


class _Local(Writer):
    def render(self, text: Text) -> str:
        written = super().render(text)
        if current() == "ko":  # the particles that follow a filled-in value agree with it
            return korean.resolve(written)
        return written

    def template(self, text: Text) -> str:
        if text.plural is None:
            return gettext(text.template)
        n = text.params.get(text.count or "", 0)
        count = int(n) if isinstance(n, int | float) and float(n).is_integer() else 2
        return ngettext(text.template, text.plural, count)

    def term(self, term: str) -> str:
        return gettext(term)

    def money(self, amount: float, currency: str) -> str:
        if _locale.is_english():
            return super().money(amount, currency)
        from gputeam.report.tables import money

        return money(amount, currency)

    def items(self, items: list[str], conjunction: str = "and") -> str:
        if _locale.is_english() or len(items) < 2:
            return super().items(items, conjunction)
        from babel.lists import format_list

        if conjunction == "or":
            return format_list(items, style="or", locale=_locale.babel_locale())
        return format_list(items, locale=_locale.babel_locale())

    def day(self, day: date, spec: str = "") -> str:
        if _locale.is_english():
            return super().day(day, spec)
        if spec == "iso":  # a short date: the language's all-digit form
            return _locale.date_text(day)
        from babel.dates import format_date

        return format_date(day, format="long", locale=_locale.babel_locale())

    def number(self, value: float, spec: str) -> str:
        m = _SPEC.match(spec)
        if _locale.is_english() or m is None:
            return super().number(value, spec)
        digits = int(m["digits"]) if m["digits"] else None
        kind = m["type"] or ""
        if kind == "%":
            return _locale.percent(value, digits or 0)
        if kind == "f" or (kind == "" and isinstance(value, float) and digits is not None):
            if m["group"]:
                return _locale.decimal(value, digits or 0)
            from babel.numbers import format_decimal

            pattern = "0" + ("." + "0" * digits if digits else "")
            return format_decimal(value, format=pattern, locale=_locale.babel_locale())
        if isinstance(value, int) and not m["group"]:
            return str(value)
        return _locale.number(value, 6)


_WRITER = _Local()


def localise(text: Text | None, english: str = "") -> str:
    """``text`` in the active language; ``english`` when the plan has no Text for it (a plan
    read from older JSON)."""
    if text is None:
        return english
    return _WRITER.render(text)


def localise_all(texts: Sequence[Text], english: Sequence[str]) -> tuple[str, ...]:
    """A list of sentences in the active language (the English list when the two differ in
    length: a plan whose sentences were not all kept as Texts)."""
    if len(texts) != len(english):
        return tuple(english)
    return tuple(_WRITER.render(t) for t in texts)


def roadmap_name(roadmap: Roadmap) -> str:
    """A roadmap's person (a planned hire's name is a sentence: 'Operations Engineer hire 1
    (Level 2)')."""
    return localise(roadmap.name_text, roadmap.name)


def item_name(item: RoadmapItem) -> str:
    return localise(item.name_text, item.name)


def item_note(item: RoadmapItem) -> str:
    return localise(item.note_text, item.note)


def line_name(name: str) -> str:
    """An ROI line's or a sensitivity assumption's name (an English key in the JSON)."""
    return gettext(name)
