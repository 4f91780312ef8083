"""One door to the bank formats: :func:`read_bank` (bytes in, :class:`ImportResult` out),
:func:`write_bank`, and :func:`summarise`, the dry-run report the CLI prints."""

from __future__ import annotations

import codecs
import re
from collections import Counter
from collections.abc import Mapping
from typing import Literal

from gputeam.certify.gift import read_gift, write_gift
from gputeam.certify.models import Bank, BankFormat, ImportResult, Question, Text
from gputeam.certify.moodlexml import read_moodle_xml, write_moodle_xml
from gputeam.certify.rules import BankReadError, decode
from gputeam.i18n import N_

FORMATS: tuple[str, ...] = ("gift", "moodle-xml")
_XML_ENCODING = re.compile(rb"^\s*<\?xml[^>]*encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']")


def detect_format(text: str) -> BankFormat:
    """``moodle-xml`` when the text starts with an XML declaration or ``<quiz``, else ``gift``."""
    head = text.lstrip("\ufeff \t\r\n")
    return "moodle-xml" if head.startswith(("<?xml", "<quiz")) else "gift"


def _decode_xml(data: bytes) -> tuple[str, str]:
    m = _XML_ENCODING.match(data.lstrip(b"\xef\xbb\xbf"))
    if m:
        name = m.group(1).decode("ascii").lower()
        try:
            canonical = codecs.lookup(name).name
        except LookupError:
            raise BankReadError(
                N_("unknown encoding {name} in the XML declaration").format(name=repr(name)), 1
            ) from None
        if canonical not in ("utf-8", "utf_8"):
            try:
                return data.decode(canonical), name
            except UnicodeDecodeError as exc:
                raise BankReadError(
                    N_("the file is not valid {encoding} (byte {n})").format(encoding=name, n=exc.start)
                ) from None
    return decode(data)


def read_bank(
    data: bytes,
    format: Literal["gift", "moodle-xml", "auto"] = "auto",
    category_domains: Mapping[str, str] | None = None,
) -> ImportResult:
    """Read a bank file's bytes. ``category_domains`` maps category paths to skill domains
    for questions without a ``domain-*`` tag. Raises :class:`BankReadError` when the file
    cannot be read at all; invalid and unsupported questions are listed in the result."""
    text, encoding = decode(data)
    fmt: BankFormat = detect_format(text) if format == "auto" else format
    if fmt == "moodle-xml":
        text, encoding = _decode_xml(data)
        bank, errors, unsupported = read_moodle_xml(text, category_domains)
    else:
        bank, errors, unsupported = read_gift(text, category_domains)
    return ImportResult(
        bank=bank, errors=tuple(errors), unsupported=tuple(unsupported), format=fmt, encoding=encoding
    )


def write_bank(bank: Bank, format: BankFormat) -> str:
    """The bank written in ``format`` (``gift`` or ``moodle-xml``)."""
    return write_moodle_xml(bank) if format == "moodle-xml" else write_gift(bank)


def _texts(q: Question) -> list[Text]:
    return [
        q.text,
        q.general_feedback,
        *(t for a in q.answers for t in (a.text, a.feedback)),
        *(p.question for p in q.pairs),
    ]


def gift_cannot_hold(bank: Bank) -> list[str]:
    """What writing ``bank`` as GIFT would leave out (GIFT has no embedded files, no
    case-sensitive short answers, no marks other than 1), one line per kind; empty when
    nothing is lost."""
    files = sum(len(t.files) for q in bank.questions for t in _texts(q))
    case = sum(1 for q in bank.questions if q.qtype == "shortanswer" and q.case_sensitive)
    marks = sum(1 for q in bank.questions if q.default_mark != (0.0 if q.qtype == "description" else 1.0))
    wiki = sum(1 for q in bank.questions for t in _texts(q) if t.format == "wiki")
    out = []
    if files:
        out.append(f"{files} embedded file(s) (images) cannot be written in GIFT")
    if case:
        out.append(f"{case} case-sensitive short-answer question(s) become case-insensitive")
    if marks:
        out.append(f"{marks} question(s) with a mark other than 1 get the mark 1")
    if wiki:
        out.append(f"{wiki} text(s) in the old wiki format are written as Moodle auto-format")
    return out


def summarise(result: ImportResult) -> dict[str, object]:
    """The dry-run report: question count, count by Moodle question type, categories,
    errors ``{line, question, message}`` and unsupported questions."""
    return {
        "questions": len(result.bank.questions),
        "by_type": dict(sorted(Counter(q.qtype for q in result.bank.questions).items())),
        "categories": [c.path for c in result.bank.categories],
        "errors": [e.model_dump() for e in result.errors],
        "unsupported": [u.model_dump() for u in result.unsupported],
    }
