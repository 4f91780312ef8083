"""The sentences a plan says, as English templates with named parameters.

The planning core speaks English only and looks up no language (it does no I/O): each
sentence a user reads (a warning, a note, a sourcing decision, a rule, a reason) is made by
:func:`say` from an English template marked for extraction with ``N_`` (or ``Nn_`` for a
singular/plural pair) and its parameters. The result, a :class:`Text`, is stored in the plan
beside the English sentence (``message``, ``reason`` ...), which :meth:`Text.english` writes
and which stays in the JSON for compatibility. The report and CLI layer translates the
template into the active language and fills in the parameters in the locale's formats
(``gputeam.report.words.localise``).

Parameters: ``str`` (a name or id, shown as it is), ``int`` and ``float`` (formatted by the
template's format spec, e.g. ``{cost:,.0f}``, ``{share:.0%}``, ``{fte:g}``), :class:`Money`,
:class:`Term` (a catalog name such as a role or domain, translated with the catalog's
texts), a nested :class:`Text`, :class:`Day`, and a tuple of names, terms or texts
(written as a list: "a, b and c"; :class:`Either` for "a, b or c").
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Day", "Either", "Money", "Param", "Term", "Text", "concat", "english_list", "say", "say_n"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Money(_Frozen):
    """An amount of money inside a sentence."""

    amount: float
    currency: str


class Term(_Frozen):
    """A catalog name inside a sentence (a role, domain, course, certification, level):
    translated with the catalog's own texts."""

    term: str


class Day(_Frozen):
    """A calendar date inside a sentence ('1 September 2027')."""

    day: date


class Either(_Frozen):
    """Alternatives inside a sentence, written as a list with 'or' ("a, b or c")."""

    items: tuple[Item, ...]


class Text(_Frozen):
    """One sentence: an English ``template`` (the message id of its translations) and the
    ``params`` it names (an empty template: the ``parts`` parameter's items one after the
    other, see :func:`concat`); with ``plural`` set, the template is the singular form and the
    ``count`` parameter chooses the form."""

    template: str = Field(description="English template with {named} parameters (the msgid).")
    plural: str | None = Field(default=None, description="English plural template (msgid_plural).")
    count: str | None = Field(default=None, description="The parameter that chooses the plural form.")
    params: dict[str, Param] = Field(default_factory=dict)

    def english(self) -> str:
        """The sentence in English."""
        return _ENGLISH.render(self)

    def __str__(self) -> str:
        return self.english()


def say(template: str, /, **params: Any) -> Text:
    """A sentence from its English template (marked ``N_(...)``) and parameters."""
    return Text(template=template, params=params)


def say_n(forms: tuple[str, str], count: str, /, **params: Any) -> Text:
    """A sentence whose wording depends on the number in parameter ``count``: ``forms`` is
    the (singular, plural) pair marked ``Nn_(...)``."""
    return Text(template=forms[0], plural=forms[1], count=count, params=params)


def concat(*parts: Text | Term | str) -> Text:
    """Sentences and fragments written one after the other (each fragment's template starts
    with its own punctuation, e.g. ``N_("; starts in month {month}")``)."""
    return Text(template="", params={"parts": tuple(parts)})


def english_list(items: Sequence[str], conjunction: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


class Writer(string.Formatter):
    """Writes a :class:`Text` in English; the report layer's subclass writes it in the active
    language (translated template, the locale's numbers, lists and money)."""

    def template(self, text: Text) -> str:
        if text.plural is None:
            return text.template
        n = text.params.get(text.count or "", 0)
        return text.template if n == 1 else text.plural

    def render(self, text: Text) -> str:
        if not text.template:  # concat(): its parts one after the other
            parts = text.params.get("parts", ())
            return "".join(self.format_field(p, "") for p in (parts if isinstance(parts, tuple) else ()))
        return self.vformat(self.template(text), (), text.params)

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        return kwargs[str(key)]

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Text):
            return self.render(value)
        if isinstance(value, Term):
            return self.term(value.term)
        if isinstance(value, Money):
            return self.money(value.amount, value.currency)
        if isinstance(value, tuple | list):
            return self.items([self.format_field(v, "") for v in value])
        if isinstance(value, Either):
            return self.items([self.format_field(v, "") for v in value.items], "or")
        if isinstance(value, Day):
            return self.day(value.day, format_spec)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return self.number(value, format_spec)
        return format(value, format_spec)

    def term(self, term: str) -> str:
        return term

    def money(self, amount: float, currency: str) -> str:
        return f"{currency} {amount:,.0f}"

    def items(self, items: list[str], conjunction: str = "and") -> str:
        return english_list(items, conjunction)

    def day(self, day: date, spec: str = "") -> str:
        """'1 September 2027'; with the spec ``iso``, '2027-09-01'."""
        if spec == "iso":
            return day.isoformat()
        return english_date(day)

    def number(self, value: float, spec: str) -> str:
        return format(value, spec)


_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def english_date(day: date) -> str:
    """A date as the English sentences write it: ``2 December 2026``."""
    return f"{day.day} {_MONTH_NAMES[day.month - 1]} {day.year}"


Item = str | Term | Text
Param = int | float | str | Money | Term | Day | Either | Text | tuple[Item, ...]
Either.model_rebuild()
Text.model_rebuild()
_ENGLISH = Writer()
