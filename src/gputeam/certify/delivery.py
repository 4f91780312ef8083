"""What a candidate sees of a question, and responses read from what they send.

:func:`public_question` is the only view of a question that leaves the server while an
attempt runs: the texts and the options, never fractions, feedback, tolerances or which
match answer belongs to which stem. :func:`read_response` turns a submitted value (a form
field's strings or JSON) into the response :func:`gputeam.certify.score_question` marks,
or raises :class:`ResponseError`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from gputeam.certify.models import Question
from gputeam.certify.scoring import Response
from gputeam.i18n import N_


class ResponseError(ValueError):
    """A response that does not fit its question (wrong type, option out of range)."""


def _match_answers(q: Question) -> list[str]:
    return sorted({p.answer for p in q.pairs if p.answer})


def match_options(q: Question, seed: int) -> list[str]:
    """The answers a match question offers, in an order fixed by the attempt's seed."""
    options = _match_answers(q)
    random.Random(f"{seed}:{q.item_id}").shuffle(options)
    return options


def option_order(q: Question, seed: int) -> list[int]:
    """The answers of a multiple-choice question in the order shown (answer indices), fixed
    by the attempt's seed: a bank that lists the right answer first does not show it first,
    and the option numbers a candidate sends say nothing about the file's order."""
    order = list(range(len(q.answers)))
    random.Random(f"{seed}:options:{q.item_id}").shuffle(order)
    return order


def public_question(q: Question, seed: int) -> dict[str, Any]:
    """The question as the candidate sees it (no key, no feedback)."""
    out: dict[str, Any] = {
        "id": q.item_id,
        "type": q.qtype,
        "name": q.name,
        "text": q.text.text,
        "format": q.text.format,
    }
    if q.qtype == "multichoice":
        out["multiple"] = not q.single
        out["options"] = [
            {"index": shown, "text": q.answers[i].text.text, "format": q.answers[i].text.format}
            for shown, i in enumerate(option_order(q, seed))
        ]
    elif q.qtype == "match":
        out["stems"] = [p.question.text for p in q.pairs if p.question.text.strip()]
        out["options"] = match_options(q, seed)
    return out


def _int(value: Any) -> int:
    if isinstance(value, bool):
        raise ResponseError(N_("expected an option number"))
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ResponseError(
            N_("expected an option number, found {value}").format(value=repr(value))
        ) from None


def read_response(q: Question, value: Any, seed: int) -> Response:
    """A response from JSON or form values (None or "" clears the answer). Options are
    numbered as shown (:func:`option_order`); the response holds the answers' indices."""
    if value is None or value == "" or value == []:
        return None
    if q.qtype == "multichoice":
        order = option_order(q, seed)
        if q.single:
            if isinstance(value, list):
                if len(value) != 1:
                    raise ResponseError(N_("choose one option"))
                value = value[0]
            index = _int(value)
            if not 0 <= index < len(q.answers):
                raise ResponseError(N_("option {n} does not exist").format(n=index))
            return order[index]
        values = value if isinstance(value, list) else [value]
        picked = sorted({_int(v) for v in values})
        if any(not 0 <= i < len(q.answers) for i in picked):
            raise ResponseError(N_("an option chosen does not exist"))
        return sorted(order[i] for i in picked)
    if q.qtype == "truefalse":
        if isinstance(value, bool):
            return value
        if str(value).lower() in ("true", "false"):
            return str(value).lower() == "true"
        raise ResponseError(N_("expected true or false"))
    if q.qtype in ("shortanswer", "essay"):
        if not isinstance(value, str):
            raise ResponseError(N_("expected text"))
        if len(value) > 20_000:
            raise ResponseError(N_("the answer is longer than {n} characters").format(n="20,000"))
        return value
    if q.qtype == "numerical":
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise ResponseError(N_("expected a number"))
        text = str(value).strip()
        if len(text) > 50:
            raise ResponseError(N_("expected a number"))
        return text
    if q.qtype == "match":
        stems = [p for p in q.pairs if p.question.text.strip()]
        options = set(match_options(q, seed))
        if not isinstance(value, list) or len(value) != len(stems):
            raise ResponseError(N_("expected a list of {n} choices").format(n=len(stems)))
        out: list[str | None] = []
        for v in value:
            if v in (None, ""):
                out.append(None)
            elif isinstance(v, str) and v in options:
                out.append(v)
            else:
                raise ResponseError(N_("{value} is not one of the options").format(value=repr(v)))
        return out
    raise ResponseError(N_("a {kind} question takes no answer").format(kind=q.qtype))


def shown_response(q: Question, response: Any, seed: int) -> Any:
    """A stored response as the candidate sent it (option numbers as shown)."""
    if q.qtype != "multichoice" or response is None:
        return response
    where = {i: shown for shown, i in enumerate(option_order(q, seed))}
    if isinstance(response, list):
        return sorted(where[i] for i in response if i in where)
    return where.get(response) if isinstance(response, int) else None


class ItemOption(NamedTuple):
    """One option item analysis counts: a choice question's answer, or a matching question's
    pairing of a stem (``group``, its number; ``stem``, its text) with an answer."""

    group: int
    stem: str | None
    text: str
    right: bool


def item_options(q: Question) -> list[ItemOption]:
    """The options of a question, numbered as :func:`picked_options` numbers them: a
    multiple-choice question's answers in the bank's order (right: worth more than 0),
    true and false, or each stem of a matching question with each answer in turn (right:
    the stem's answer). Empty for the other types."""
    if q.qtype == "multichoice":
        return [ItemOption(0, None, a.text.text, a.fraction > 0) for a in q.answers]
    if q.qtype == "truefalse":
        worth = {a.text.text: a.fraction for a in q.answers}
        return [ItemOption(0, None, v, worth.get(v, 0.0) > 0) for v in ("true", "false")]
    if q.qtype == "match":
        answers = _match_answers(q)
        stems = [p for p in q.pairs if p.question.text.strip()]
        return [
            ItemOption(s, p.question.text, a, a == p.answer) for s, p in enumerate(stems) for a in answers
        ]
    return []


def picked_options(q: Question, response: Response) -> list[int]:
    """The options (numbered as :func:`item_options`) a stored response chose."""
    if q.qtype == "truefalse":
        return [0 if response else 1] if isinstance(response, bool) else []
    if response is None or isinstance(response, bool | str | float):
        return []
    if q.qtype == "multichoice":
        if isinstance(response, int):
            picked = [response] if q.single else []
        else:
            picked = (
                [] if q.single else [i for i in response if isinstance(i, int) and not isinstance(i, bool)]
            )
        return sorted({i for i in picked if 0 <= i < len(q.answers)})
    if q.qtype == "match" and not isinstance(response, int):
        answers = {a: k for k, a in enumerate(_match_answers(q))}
        return [
            s * len(answers) + answers[a]
            for s, a in enumerate(response)
            if isinstance(a, str) and a in answers
        ]
    return []


def choice_index(q: Question, response: Response) -> int:
    """The option a single-choice (or true/false) response picked, -1 for none or for a
    question that takes several: the distractor counts of item analysis read these from a
    compact matrix, and :func:`picked_options` of the other questions separately."""
    if q.qtype in ("truefalse", "multichoice") and (q.qtype == "truefalse" or q.single):
        picked = picked_options(q, response)
        return picked[0] if picked else -1
    return -1


def out_of_sequence(seen: int | None, current: int, changes: bool) -> bool:
    """Whether a submission of one question comes from an older state of it and must be
    refused (Moodle's per-question sequence check).

    Every stored change of an answer adds one to the question's sequence number (0: never
    answered); a page carries the numbers it was shown with. A submission is out of
    sequence when the number it carries (``seen``) is not the question's number now
    (``current``) and it would change the stored answer (``changes``): a tab left open
    since, or a form sent twice, never overwrites (or clears) an answer saved after it was
    shown. A submission that would store the answer already stored changes nothing and
    passes (a save sent again after its reply was lost). Without a number (``seen`` None:
    an API client that does not send one) a save is not checked, as in Moodle."""
    return seen is not None and seen != current and changes


def stale_questions(
    submitted: Mapping[str, tuple[int | None, bool]], current: Mapping[str, int]
) -> list[str]:
    """The questions of a submission that are :func:`out_of_sequence`: ``submitted`` maps
    each question to ``(the sequence number seen, whether it would change the answer)``,
    ``current`` holds the stored numbers (a question missing there: 0). One stale question
    makes the whole submission stale: a save stores nothing of it, a hand-in is refused and
    the attempt stays open."""
    return [
        item
        for item, (seen, changes) in submitted.items()
        if out_of_sequence(seen, current.get(item, 0), changes)
    ]
