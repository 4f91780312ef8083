"""Property: writing a bank and reading it back gives the same questions, in GIFT and in
Moodle XML, and converting GIFT → XML → GIFT changes nothing.

The generated questions stay inside what both formats can say (GIFT has no case-sensitive
short answers, no marks other than 1, and reads a leading ``[word]`` as a text format)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gputeam.certify import Answer, Bank, MatchPair, Question, Text, read_bank, write_bank
from gputeam.certify.rules import GRADE_OPTIONS, resolve_domain, trim

FORMATS = ("moodle", "html", "plain", "markdown")
CHARS = st.characters(blacklist_categories=("Cs", "Cc", "Co", "Cn", "Zl", "Zp"), max_codepoint=0x2FFF)
RAW = st.text(st.one_of(CHARS, st.sampled_from("\n:#=~{}\\%[]<>*")), max_size=30)


def _ok(s: str) -> bool:
    return s == trim(s) and "->" not in s and not s.startswith(("[", "%"))


TEXT = RAW.filter(_ok)
NONEMPTY = TEXT.filter(bool)
WORD = st.from_regex(r"[A-Za-z0-9:#=~{}.()!?\[\]/-]{1,8}", fullmatch=True).filter(lambda w: "->" not in w)
NAME = st.lists(WORD, min_size=1, max_size=4).map(" ".join)
TOKEN = st.from_regex(r"[a-z0-9][a-z0-9._-]{0,10}", fullmatch=True)
NUMBER = st.one_of(st.integers(-10_000, 10_000).map(str), st.floats(-1e6, 1e6, allow_nan=False).map(repr))
TOL = st.floats(0, 1000, allow_nan=False).map(lambda f: float(repr(f)))
POSITIVE_SPLITS = [(1.0,), (0.5, 0.5), (0.3333333,) * 3, (0.25,) * 4, (0.75, 0.25), (0.6, 0.4)]
OTHER = st.sampled_from([g for g in GRADE_OPTIONS if g <= 0])


@st.composite
def text(draw: Any, default: str, nonempty: bool = False) -> Text:
    body = draw(NONEMPTY if nonempty else TEXT)
    return Text(text=body, format=draw(st.sampled_from(FORMATS)) if body else default)


@st.composite
def question(draw: Any) -> Question:
    qtype = draw(
        st.sampled_from(
            ["multichoice", "truefalse", "shortanswer", "numerical", "match", "essay", "description"]
        )
    )
    qtext = draw(text("moodle", nonempty=qtype != "description"))
    fmt = qtext.format
    tags = tuple(draw(st.lists(st.one_of(TOKEN, TOKEN.map(lambda t: "domain-" + t)), max_size=3)))
    category = draw(st.sampled_from(["", "$course$/top/A", "$course$/top/A/B c"]))
    fields: dict[str, Any] = {
        "qtype": qtype,
        "name": draw(NAME),
        "text": qtext,
        "category": category,
        "general_feedback": draw(text(fmt)) if qtype != "description" else Text(format=fmt),
        "idnumber": draw(st.none() | TOKEN),
        "tags": tags,
        "domain": resolve_domain(tags, category, None),
        "default_mark": 0.0 if qtype == "description" else 1.0,
    }
    if qtype == "multichoice":
        single = draw(st.booleans())
        positive = (
            [1.0] + draw(st.lists(st.sampled_from([g for g in GRADE_OPTIONS if g < 1]), max_size=2))
            if single
            else list(draw(st.sampled_from(POSITIVE_SPLITS)))
        )
        fractions = positive + draw(st.lists(OTHER, min_size=2 - min(len(positive), 2), max_size=3))
        fractions = draw(st.permutations(fractions))
        fields["single"] = single
        fields["answers"] = tuple(
            Answer(text=draw(text(fmt, nonempty=True)), fraction=f, feedback=draw(text(fmt)))
            for f in fractions
        )
    elif qtype == "shortanswer":
        fractions = [1.0] + draw(st.lists(st.sampled_from(GRADE_OPTIONS), max_size=2))
        fields["answers"] = tuple(
            Answer(text=Text(text=draw(NONEMPTY), format="plain"), fraction=f, feedback=draw(text(fmt)))
            for f in fractions
        )
    elif qtype == "numerical":
        fractions = [1.0] + draw(st.lists(st.sampled_from(GRADE_OPTIONS), max_size=2))
        answers = [
            Answer(
                text=Text(text=draw(NUMBER), format="plain"),
                fraction=f,
                tolerance=draw(TOL),
                feedback=draw(text(fmt)),
            )
            for f in fractions
        ]
        if draw(st.booleans()):
            answers.append(
                Answer(
                    text=Text(text="*", format="plain"), fraction=0.0, tolerance=0.0, feedback=draw(text(fmt))
                )
            )
        fields["answers"] = tuple(answers)
    elif qtype == "truefalse":
        correct = draw(st.booleans())
        fields["answers"] = (
            Answer(
                text=Text(text="true", format="plain"),
                fraction=1.0 if correct else 0.0,
                feedback=draw(text(fmt)),
            ),
            Answer(
                text=Text(text="false", format="plain"),
                fraction=0.0 if correct else 1.0,
                feedback=draw(text(fmt)),
            ),
        )
    elif qtype == "match":
        pairs = [
            MatchPair(question=draw(text(fmt, nonempty=True)), answer=draw(NONEMPTY))
            for _ in range(draw(st.integers(2, 4)))
        ]
        if draw(st.booleans()):
            pairs.append(MatchPair(question=Text(format=fmt), answer=draw(NONEMPTY)))
        fields["pairs"] = tuple(pairs)
    return Question.model_validate(fields)


def dump(bank: Bank) -> list[dict[str, Any]]:
    return [q.model_dump() for q in bank.questions]


@settings(max_examples=60, deadline=None)
@given(st.lists(question(), min_size=1, max_size=6, unique_by=lambda q: q.idnumber or f"(no id) {id(q)}"))
def test_export_then_import_keeps_every_question(questions: list[Question]) -> None:
    """Export → import round trip preserves questions (types, texts, formats, fractions,
    feedback, tolerances, pairs, categories, ids, tags, domains), in both formats."""
    bank = Bank(questions=tuple(questions))
    for fmt in ("gift", "moodle-xml"):
        result = read_bank(write_bank(bank, fmt).encode("utf-8"), fmt)  # type: ignore[arg-type]
        assert result.errors == () and result.unsupported == ()
        assert dump(result.bank) == dump(bank), fmt
        assert [q.content_hash for q in result.bank.questions] == [q.content_hash for q in questions]
    via_xml = read_bank(write_bank(bank, "moodle-xml").encode(), "moodle-xml").bank
    assert write_bank(via_xml, "gift") == write_bank(bank, "gift")


def test_content_hash_changes_with_content_not_with_metadata() -> None:
    q = Question(
        qtype="truefalse",
        name="n",
        text=Text(text="Is it?"),
        answers=(
            Answer(text=Text(text="true", format="plain"), fraction=1.0),
            Answer(text=Text(text="false", format="plain"), fraction=0.0),
        ),
    )
    assert q.model_copy(update={"tags": ("x",), "category": "c", "line": 9}).content_hash == q.content_hash
    assert q.model_copy(update={"text": Text(text="Is it not?")}).content_hash != q.content_hash


def test_a_name_that_looks_like_an_id_stays_a_name() -> None:
    q = Question(qtype="essay", name="Ask [id:x] and [tag:domain-y]", idnumber="real", tags=("t",))
    (back,) = read_bank(write_bank(Bank(questions=(q,)), "gift").encode(), "gift").bank.questions
    assert (back.name, back.idnumber, back.tags, back.domain) == (q.name, "real", ("t",), None)
