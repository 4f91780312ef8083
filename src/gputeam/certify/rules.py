"""Rules both bank formats share, each in one place: decoding a file, Moodle's grade
options, the checks a question must pass, default names, and the skill domain."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from gputeam.certify.models import DOMAIN_TAG_PREFIX, ImportIssue, Question
from gputeam.i18n import N_

# Moodle's grade options (question_bank::fraction_options_full): 0, ±1 and ± each of these.
_RAW_FRACTIONS = (
    0.9,
    0.8333333,
    0.8,
    0.75,
    0.7,
    0.6666667,
    0.6,
    0.5,
    0.4,
    0.3333333,
    0.3,
    0.25,
    0.2,
    0.1666667,
    0.1428571,
    0.125,
    0.1111111,
    0.1,
    0.05,
)
GRADE_OPTIONS: tuple[float, ...] = tuple(
    sorted({0.0, 1.0, -1.0, *_RAW_FRACTIONS, *(-f for f in _RAW_FRACTIONS)}, reverse=True)
)
_GRADE_TOLERANCE = 0.00001  # Moodle's match_grade_options


#: The characters PHP's trim() removes, which Moodle's importers trim texts with (not every
#: Unicode space: a no-break space at the end of a text stays).
PHP_WHITESPACE = " \t\n\r\0\x0b"


def trim(text: str) -> str:
    """``text`` trimmed as PHP's trim() does."""
    return text.strip(PHP_WHITESPACE)


class BankReadError(ValueError):
    """A bank file that cannot be read at all (not text, not well-formed XML ...)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)


def decode(data: bytes) -> tuple[str, str]:
    """The text of a bank file and the encoding found: UTF-8 (with or without a byte order
    mark), otherwise Windows-1252 (the other encoding such files come in)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="strict"), "utf-8-sig"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "windows-1252"
    except UnicodeDecodeError as exc:
        raise BankReadError(
            N_("neither UTF-8 nor Windows-1252 text (byte {n})").format(n=exc.start)
        ) from None


def match_grade(fraction: float) -> float | None:
    """The Moodle grade option ``fraction`` stands for (within 0.00001), or None."""
    for option in GRADE_OPTIONS:
        if abs(fraction - option) < _GRADE_TOLERANCE:
            return option
    return None


def snap_grade(fraction: float) -> float:
    """The Moodle grade option a read fraction stands for (``-33.33333 / 100`` is
    -0.3333333 exactly), or the fraction itself when it matches none (an error later)."""
    option = match_grade(fraction)
    return fraction if option is None else option


def percent(fraction: float) -> str:
    """A fraction written as Moodle writes a weight: ``-33.33333`` for -0.3333333."""
    text = f"{fraction * 100:.5f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def is_number(text: str) -> bool:
    try:
        value = float(text)
    except ValueError:
        return False
    return math.isfinite(value)


#: Moodle's grade options, as its importer lists them.
_GRADE_OPTIONS = (
    "100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, "
    "14.28571, 12.5, 11.11111, 10, 5, 0"
)


def check_question(q: Question) -> list[str]:
    """What makes a question unusable, as Moodle's importer and question types decide it."""
    problems: list[str] = []
    if q.qtype in ("multichoice", "shortanswer", "numerical"):
        for a in q.answers:
            if match_grade(a.fraction) is None:
                problems.append(
                    N_(
                        "grade {grade}% of answer {answer} is not one of Moodle's grade options "
                        "({options}, and their negatives)"
                    ).format(grade=percent(a.fraction), answer=repr(a.text.text), options=_GRADE_OPTIONS)
                )
    if q.qtype == "multichoice":
        if len([a for a in q.answers if a.text.text.strip()]) < 2:
            problems.append(N_("a multiple-choice question needs at least 2 answers"))
        elif q.single:
            best = max(a.fraction for a in q.answers)
            if abs(best - 1) > _GRADE_TOLERANCE:
                problems.append(
                    N_("one answer must be worth 100% (the best is {best}%)").format(best=percent(best))
                )
        else:
            total = round(sum(a.fraction for a in q.answers if a.fraction > 0), 2)
            if abs(total - 1) > _GRADE_TOLERANCE:
                problems.append(
                    N_(
                        "the positive grades of a multiple-response question must add up to "
                        "100% (they add up to {total}%)"
                    ).format(total=percent(total))
                )
    elif q.qtype == "shortanswer":
        if not q.answers:
            problems.append(N_("a short-answer question needs at least 1 answer"))
        elif abs(max(a.fraction for a in q.answers) - 1) > _GRADE_TOLERANCE:
            problems.append(N_("one answer must be worth 100%"))
    elif q.qtype == "numerical":
        if not q.answers:
            problems.append(N_("a numerical question needs at least 1 answer"))
        for a in q.answers:
            if a.text.text != "*" and not is_number(a.text.text):
                problems.append(N_("answer {answer} is not a number").format(answer=repr(a.text.text)))
            if a.tolerance is not None and not math.isfinite(a.tolerance):
                problems.append(
                    N_("tolerance of answer {answer} is not a number").format(answer=repr(a.text.text))
                )
    elif q.qtype == "truefalse":
        if sorted(a.text.text for a in q.answers) != ["false", "true"]:
            problems.append(N_("a true/false question needs one 'true' and one 'false' answer"))
    elif q.qtype == "match":
        stems = [p for p in q.pairs if p.question.text.strip()]
        if len(q.pairs) < 2 or not stems:
            problems.append(N_("a matching question needs at least 2 pairs"))
        for p in stems:
            if not p.answer.strip():
                problems.append(
                    N_("sub-question {question} has no matching answer").format(
                        question=repr(p.question.text)
                    )
                )
    return problems


def drop_duplicate_ids(questions: Sequence[Question]) -> tuple[list[Question], list[ImportIssue]]:
    """Keep the first question of each author's id; a later one with the same id is an
    error (statistics and exposure are kept per id, so ids must be unique in a bank)."""
    seen: dict[str, Question] = {}
    kept: list[Question] = []
    errors: list[ImportIssue] = []
    for q in questions:
        first = seen.get(q.idnumber) if q.idnumber else None
        if first is not None:
            errors.append(
                ImportIssue(
                    line=q.line,
                    question=q.name,
                    message=(
                        N_("id {id} is already used by question {question} at line {line}")
                        if first.line
                        else N_("id {id} is already used by question {question}")
                    ).format(id=repr(q.idnumber), question=repr(first.name), line=first.line),
                )
            )
            continue
        if q.idnumber:
            seen[q.idnumber] = q
        kept.append(q)
    return kept, errors


_TAG = re.compile(r"<[^>]*>")


def clean_name(name: str) -> str:
    """A question name as Moodle keeps it: no markup, single spaces, at most 255 characters."""
    name = re.sub(r"\s+", " ", _TAG.sub("", name)).strip()
    return name[:255]


def default_name(text: str, fallback: str = "Question") -> str:
    """A name made from the question text (first 80 characters), as Moodle names unnamed
    questions."""
    name = clean_name(text)
    if len(name) > 80:
        cut = name[:77]
        name = (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "..."
    return name or fallback


def resolve_domain(
    tags: Sequence[str], category: str, category_domains: Mapping[str, str] | None
) -> str | None:
    """The question's skill domain: a ``domain-<id>`` tag wins; otherwise the mapping entry
    for the longest category path that is the question's category or one of its parents."""
    for tag in tags:
        if tag.lower().startswith(DOMAIN_TAG_PREFIX) and len(tag) > len(DOMAIN_TAG_PREFIX):
            return tag[len(DOMAIN_TAG_PREFIX) :]
    if not category_domains:
        return None
    best: tuple[int, str] | None = None
    for path, domain in category_domains.items():
        path = path.rstrip("/")
        if (category == path or category.startswith(path + "/")) and (best is None or len(path) > best[0]):
            best = (len(path), domain)
    return best[1] if best else None
