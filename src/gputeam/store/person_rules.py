"""The rules behind a person's fields, each in one place: the limits, what one line of text
may hold, what an e-mail address is, which roles are allowed. They are applied together by
:class:`gputeam.store.person_fields.PersonFields`, which every way in uses (the store
itself, the roster import, the web app's person form, the JSON API).

* Numbers: :data:`NUMBER_RULES` (lowest, highest, whole number?).
* Text: at most :data:`TEXT_LONGEST` characters, one line, no control characters (NUL, tab,
  CR/LF, ...) and no bidirectional overrides (they make ``evil.exe`` read as ``exe.live``);
  stored in Unicode NFC, so ``mü1`` typed with a combining diaeresis is the same id as
  ``mü1`` typed with ``ü``.
* An e-mail address is at most :data:`EMAIL_LONGEST` characters and matches :data:`EMAIL`
  as a whole (something@domain.tld, no spaces), and is unique within an organisation,
  ignoring case (checked by the store and the importer).
* A role is a catalog role id; when changing a person, also the role they already have
  (kept unchanged even if the catalog no longer has it).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Container
from typing import NamedTuple

from gputeam.i18n import N_

#: what passes for an e-mail address; also public as ``gputeam.store.importing.EMAIL``
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
EMAIL_LONGEST = 320
EMAIL_EXAMPLE = "name@example.org"


class NumberRule(NamedTuple):
    low: float
    high: float
    whole: bool

    def fault(self, value: float) -> str | None:
        """Why ``value`` is refused, or None."""
        if value != value or value in (float("inf"), float("-inf")):
            return N_("not a finite number")
        if self.whole and value != int(value):
            return N_("not a whole number")
        if not self.low <= value <= self.high:  # also refuses NaN
            return N_("out of range")
        return None

    @property
    def expected(self) -> str:
        if self.whole:
            return N_("a whole number {low}-{high}").format(low=f"{self.low:g}", high=f"{self.high:g}")
        return f"{self.low:g}-{self.high:g}"


#: the numeric person fields: lowest, highest, whole number?
NUMBER_RULES: dict[str, NumberRule] = {
    "level": NumberRule(1, 5, True),
    "experience_months": NumberRule(0, 1200, True),
    "weekly_study_hours": NumberRule(0, 40, False),
    "salary": NumberRule(0, 1e9, False),
}
#: the text person fields and their longest length (the database columns' sizes)
TEXT_LONGEST: dict[str, int] = {
    "key": 100,
    "name": 200,
    "email": EMAIL_LONGEST,
    "title": 200,
    "background": 50,
    "role": 100,
    "site": 100,
}
#: text fields that may not be blank
REQUIRED = ("key", "name")
#: the longest team name (teams are named in the roster import and the team form)
TEAM_LONGEST = 200

#: control characters (C0, DEL, C1) and the bidirectional embeddings, overrides, isolates
#: and marks a one-line field may not hold
_FORBIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def text_fault(value: str) -> str | None:
    """Why ``value`` may not be stored as one line of text, or None."""
    m = _FORBIDDEN.search(value)
    if m is None:
        return None
    ch = m.group()
    what = {
        "\x00": N_("a NUL character"),
        "\n": N_("a line break"),
        "\r": N_("a line break"),
        "\t": N_("a tab"),
    }.get(ch)
    if what is None:
        what = N_("a bidirectional text control") if ch >= "\u200e" else N_("a control character")
    return N_("contains {what} ({code})").format(what=what, code=f"U+{ord(ch):04X}")


def clean_text(value: str) -> str:
    """Text as stored: Unicode NFC."""
    return value if value.isascii() else unicodedata.normalize("NFC", value)


#: what a one-line field expects, as its refusals say
ONE_LINE = "one line of text without control characters"


def one_line(path: str, value: str) -> str:
    """``value`` as stored (Unicode NFC), or refused naming ``path`` (a
    :class:`~gputeam.store.errors.StoreError`) when it holds what :func:`text_fault` refuses:
    the rule of a person's text fields, for the store's other one-line texts (a token's
    name, a skill rating's note, a certificate's evidence, a roadmap item's title)."""
    from gputeam.store.errors import refused

    fault = text_fault(value)
    if fault is not None:
        raise refused(path, fault, repr(value)[1:-1], ONE_LINE)
    return clean_text(value)


def email_fault(value: str) -> str | None:
    """Why ``value`` is not an acceptable e-mail address, or None when it is."""
    if len(value) > EMAIL_LONGEST:
        return N_("longer than {n} characters").format(n=EMAIL_LONGEST)
    if not EMAIL.fullmatch(value):
        return N_("not an e-mail address")
    return None


def email_key(value: str) -> str:
    """What two e-mail addresses are compared by: one address whatever its case."""
    return clean_text(value).casefold()


def role_allowed(value: str, roles: Container[str], current: str | None = None) -> bool:
    """Whether ``value`` may be stored as a person's role: one of the catalog's role ids
    (``roles``), or ``current``, the role the person already has."""
    return value in roles or (current is not None and value == current)
