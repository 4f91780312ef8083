"""English messages translated where they are shown: the texts of problems.

The domain speaks English and looks up no language: a :class:`~gputeam.errors.Problem`
holds English sentences (``message``, ``expected``, ``hint``), each made from a template
marked for extraction with ``N_`` and filled in with ``.format(...)`` (``N_("no {what}
{key}").format(...)``). :func:`translate` writes such a sentence in the active language:
a message of the catalogs is translated as it is; otherwise the template it was made from
is found among the catalogs' messages with ``{named}`` placeholders (the one with the most
words of its own, when several fit), translated, and filled in with the same values, each
value itself translated when it is a message (``{what}`` "person"). A sentence of no known
form (a value the user typed, a library's own message) stays as it is.

This is the one place problems are translated: ``Problem.__str__`` (the CLI), the web's
error and import pages (the ``message`` filter) and the API's problem documents call it.
:func:`pieces` is the same translation in pieces, each saying whether it stayed English
prose (a library's own words quoted in a translated sentence), for a page to mark it
``lang="en"``.
"""

from __future__ import annotations

import re
from functools import cache
from string import Formatter

from gputeam.i18n import current, gettext, korean, ngettext

__all__ = ["pieces", "translate"]

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_ANY_FIELD = re.compile(r"\{[^{}]*\}")


_Template = tuple[str | tuple[str, str, int], str, str, re.Pattern[str]]


def _compile(template: str) -> tuple[int, str, str, re.Pattern[str]] | None:
    """(words of its own, literal prefix, literal suffix, pattern) of a template with
    placeholders, or None when it cannot tell a sentence (no plain placeholder, a format
    spec a text value cannot take, too few words of its own, a placeholder twice)."""
    fields = _ANY_FIELD.findall(template)
    if not fields or any(not _PLACEHOLDER.fullmatch(f) for f in fields):
        return None
    parts = _PLACEHOLDER.split(template)
    literal = "".join(parts[0::2])
    if not re.search(r"[^\W\d_]{2}", literal):
        return None  # a bare "{a}: {b}" would fit any sentence
    regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
    try:
        return len(literal), parts[0], parts[-1], re.compile(regex, re.DOTALL)
    except re.error:
        return None


@cache
def _messages() -> tuple[frozenset[str], tuple[_Template, ...]]:
    """The template catalog's singular messages, and its messages with placeholders as
    (message id, literal prefix, literal suffix, pattern), the most specific first (a
    singular/plural pair once per form, its id the pair)."""
    from gputeam.i18n import catalogs

    known: set[str] = set()
    found: list[tuple[int, str, str | tuple[str, str, int], str, str, re.Pattern[str]]] = []
    for m in catalogs.read(catalogs.pot_path()):
        if not m.id:
            continue
        msgid: str | tuple[str, str] = m.id if isinstance(m.id, str) else (m.id[0], m.id[1])
        if isinstance(msgid, str):
            known.add(msgid)
        for index, form in enumerate((msgid,) if isinstance(msgid, str) else msgid):
            compiled = _compile(form)
            if compiled is not None:
                size, prefix, suffix, pattern = compiled
                key = msgid if isinstance(msgid, str) else (msgid[0], msgid[1], index)
                found.append((size, form, key, prefix, suffix, pattern))
    found.sort(key=lambda t: (-t[0], t[1]))
    return frozenset(known), tuple(t[2:] for t in found)


def _count(values: dict[str, str], form: int) -> int:
    """The number that chooses a plural form: 1 for English's singular; for its plural,
    ``{n}`` or ``{count}``, else the first whole number among the values (2 when that is 1
    or there is none: the sentence was plural in English)."""
    if form == 0:
        return 1
    for key in ("n", "count", *values):
        if key in values and re.fullmatch(r"-?\d+", values[key].strip()):
            n = int(values[key])
            return n if n != 1 else 2
    return 2


def translate(text: str) -> str:
    """``text`` (an English message, maybe filled in) in the active language."""
    if not text or current() == "en":
        return text
    return "".join(piece for piece, _english in pieces(text))


#: Prose: two words of letters in a row (a sentence, not an identifier, a number or a URL).
_PROSE = re.compile(r"[^\W\d_]{2,}[,;:]? [^\W\d_]{2,}")


def pieces(text: str) -> list[tuple[str, bool]]:
    """``text`` in the active language, as (piece, stayed English) pairs whose pieces join
    to :func:`translate`'s result: True marks English prose the catalogs do not know (a
    library's own message quoted in a translated sentence, or a whole sentence of no known
    form); values such as ids, URLs and numbers are never marked."""
    if not text or current() == "en":
        return [(text, False)]
    known, templates = _messages()
    if text in known:
        return [(gettext(text), False)]
    for msgid, prefix, suffix, pattern in templates:
        if not (text.startswith(prefix) and text.endswith(suffix)):
            continue
        match = pattern.fullmatch(text)
        if match:
            raw = match.groupdict()
            if isinstance(msgid, tuple):
                translated = ngettext(msgid[0], msgid[1], _count(raw, msgid[2]))
            else:
                translated = gettext(msgid)
            return _fill(translated, raw)
    return [(text, _PROSE.search(text) is not None)]


def _fill(translated: str, raw: dict[str, str]) -> list[tuple[str, bool]]:
    """A translated template's literal text and its placeholders' values, each value itself
    in pieces (a message is translated; anything else stays as it is)."""
    out: list[tuple[str, bool]] = []
    for literal, field, spec, conversion in Formatter().parse(translated):
        if literal:
            if current() == "ko":  # a particle after a value agrees with the value
                literal = korean.resolve(literal, "".join(piece for piece, _english in out))
            out.append((literal, False))
        if field is None:
            continue
        if field in raw and not spec and not conversion:
            out += pieces(raw[field])
        else:  # as str.format would (the catalogs' check keeps the placeholders the English's)
            spec_text = (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
            values = {k: translate(v) for k, v in raw.items()}
            out.append((("{" + field + spec_text + "}").format(**values), False))
    return out
