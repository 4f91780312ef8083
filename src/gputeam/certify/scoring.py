"""Marking, by Moodle's rules.

Responses, by question type:

- ``multichoice`` with one answer: the chosen answer's index (or None); the mark is that
  answer's fraction (negative fractions are penalties).
- ``multichoice`` with several answers: the indices chosen; the fractions are added and
  the sum clipped to [0, 1].
- ``truefalse``: True or False.
- ``shortanswer``: the text typed. Answers are tried in order, the first that matches gives
  its fraction; ``*`` in an answer matches any characters (``\\*`` a literal star);
  case is ignored unless the question says otherwise; spaces around the response are
  ignored (inside it they count).
- ``numerical``: the number typed; the first answer within its tolerance gives its fraction
  (``*`` matches any number).
- ``match``: the answer chosen for each sub-question (those with text, in order); the mark
  is the share of right choices.
- ``essay``: marked by a person; :func:`score_question` returns None.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from gputeam.certify.models import Question
from gputeam.certify.rules import trim

Response = int | bool | str | float | Collection[int] | Sequence[str | None] | None

UNASSIGNED = "unassigned"


def _normalise(text: str) -> str:
    return trim(unicodedata.normalize("NFC", text))


def wildcard_match(response: str, pattern: str, case_sensitive: bool = False) -> bool:
    """Moodle's short-answer comparison: ``*`` matches anything, ``\\*`` is a star."""
    bits = re.split(r"(?<!\\)\*+", unicodedata.normalize("NFC", pattern))
    regex = ".*".join(re.escape(bit.replace("\\*", "*")) for bit in bits)
    flags = 0 if case_sensitive else re.IGNORECASE
    return re.fullmatch(regex, _normalise(response), flags) is not None


def _number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        try:
            number = float(value.strip().replace(",", "."))
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def score_question(q: Question, response: Response) -> float | None:
    """The fraction of the question's mark a response earns (None: an essay, to be marked
    by a person). A missing or malformed response earns 0."""
    if q.qtype == "essay":
        return None
    if q.qtype == "description" or response is None:
        return 0.0
    if q.qtype == "multichoice":
        if q.single:
            if isinstance(response, bool) or not isinstance(response, int):
                return 0.0
            return q.answers[response].fraction if 0 <= response < len(q.answers) else 0.0
        if isinstance(response, str | int) or not isinstance(response, Collection):
            return 0.0
        picked = {i for i in response if isinstance(i, int) and 0 <= i < len(q.answers)}
        return min(1.0, max(0.0, sum(q.answers[i].fraction for i in picked)))
    if q.qtype == "truefalse":
        if not isinstance(response, bool):
            return 0.0
        chosen = next(a for a in q.answers if a.text.text == ("true" if response else "false"))
        return chosen.fraction
    if q.qtype == "shortanswer":
        if not isinstance(response, str) or not response.strip():
            return 0.0
        for a in q.answers:
            if wildcard_match(response, a.text.text, q.case_sensitive):
                return a.fraction
        return 0.0
    if q.qtype == "numerical":
        value = _number(response)
        if value is None:
            return 0.0
        for a in q.answers:
            if a.text.text == "*":
                return a.fraction
            target = float(a.text.text)
            tolerance = abs(a.tolerance or 0.0)
            if abs(value - target) <= tolerance + 1e-12 * max(1.0, abs(target)):
                return a.fraction
        return 0.0
    stems = [p for p in q.pairs if p.question.text.strip()]
    if not stems or isinstance(response, str) or not isinstance(response, Sequence):
        return 0.0
    right = sum(1 for p, r in zip(stems, response, strict=False) if r is not None and r == p.answer)
    return right / len(stems)


@dataclass(frozen=True)
class DomainScore:
    """A domain's share of its marks, its minimum (if any), and the feedback line."""

    domain: str
    score: float
    marks: float
    max_marks: float
    minimum: float | None
    below_minimum: bool
    feedback: str


@dataclass(frozen=True)
class ExamResult:
    """Score (0-1), pass or fail, per-domain scores, and the essays still to be marked."""

    score: float
    marks: float
    max_marks: float
    pass_mark: float
    passed: bool
    domains: tuple[DomainScore, ...]
    pending: tuple[str, ...]


def _pct(fraction: float) -> str:
    return f"{math.floor(fraction * 100 + 0.5):d} %"


def score_exam(
    questions: Sequence[Question],
    responses: Mapping[str, Response],
    pass_mark: float,
    domain_minimum: float | Mapping[str, float] | None = None,
    manual: Mapping[str, float] | None = None,
    domain_names: Mapping[str, str] | None = None,
) -> ExamResult:
    """Mark a form. ``responses`` and ``manual`` (fractions for essays a person marked) are
    keyed by item id; ``pass_mark`` and the domain minimum are fractions (0.7 = 70 %). A pass
    needs the score at or above the pass mark, every domain at or above its minimum, and no
    essay left unmarked. Scores below zero (penalties) count as zero."""
    manual = manual or {}
    names = domain_names or {}
    totals: dict[str, list[float]] = {}
    pending: list[str] = []
    for q in questions:
        if q.qtype == "description":
            continue
        if q.qtype == "essay":
            fraction = manual.get(q.item_id)
        else:
            fraction = score_question(q, responses.get(q.item_id))
        if fraction is None:
            pending.append(q.item_id)
            fraction = 0.0
        slot = totals.setdefault(q.domain or UNASSIGNED, [0.0, 0.0])
        slot[0] += fraction * q.default_mark
        slot[1] += q.default_mark
    domains = []
    for domain, (marks, top) in sorted(totals.items()):
        score = max(0.0, marks / top) if top else 0.0
        minimum = domain_minimum.get(domain) if isinstance(domain_minimum, Mapping) else domain_minimum
        below = minimum is not None and score < minimum - 1e-12
        text = f"{names.get(domain, domain)} {_pct(score)}"
        if below and minimum is not None:
            text += f" — below the {_pct(minimum)} domain minimum"
        domains.append(DomainScore(domain, score, marks, top, minimum, below, text))
    marks = sum(m for m, _ in totals.values())
    top = sum(t for _, t in totals.values())
    score = max(0.0, marks / top) if top else 0.0
    passed = not pending and score >= pass_mark - 1e-12 and not any(d.below_minimum for d in domains)
    return ExamResult(
        score=score,
        marks=marks,
        max_marks=top,
        pass_mark=pass_mark,
        passed=passed,
        domains=tuple(domains),
        pending=tuple(pending),
    )
