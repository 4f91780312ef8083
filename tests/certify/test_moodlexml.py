"""Moodle XML reading, on a file written for these tests: nested categories, every
supported type, ids and tags, unsupported types, invalid grades, and refused input."""

from __future__ import annotations

import pytest

from gputeam.certify import BankReadError, Question, read_bank
from gputeam.certify.moodlexml import read_moodle_xml

from .fixtures import XML


def line_of(text: str, marker: str) -> int:
    return text[: text.index(marker)].count("\n") + 1


@pytest.fixture(scope="module")
def parsed() -> tuple[dict[str, Question], object, list, list]:
    bank, errors, unsupported = read_moodle_xml(XML)
    return {q.name: q for q in bank.questions}, bank, errors, unsupported


def test_types_and_nested_categories(parsed) -> None:  # type: ignore[no-untyped-def]
    qs, bank, _, _ = parsed
    assert {n: q.qtype for n, q in qs.items()} == {
        "Rail-optimised": "multichoice",
        "Multi": "multichoice",
        "TF": "truefalse",
        "Case": "shortanswer",
        "Num": "numerical",
        "Match": "match",
        "Essay": "essay",
        "Intro": "description",
    }
    assert [c.path for c in bank.categories] == ["$course$/top/Fabric", "$course$/top/Fabric/Storage"]
    first = bank.categories[0]
    assert (first.info.text, first.info.format, first.idnumber) == (
        "Questions on the network fabric.",
        "markdown",
        "cat-fabric",
    )
    assert qs["Rail-optimised"].category == "$course$/top/Fabric"
    assert qs["TF"].category == "$course$/top/Fabric/Storage"


def test_headers_formats_ids_tags(parsed) -> None:  # type: ignore[no-untyped-def]
    qs = parsed[0]
    q = qs["Rail-optimised"]
    assert q.text == q.text.model_copy(update={"format": "html"})
    assert q.text.text.startswith("<p>What does a <b>rail-optimised</b>")
    assert q.general_feedback.format == "html" and q.default_mark == 2.0
    assert (q.idnumber, q.tags, q.domain) == ("fab-001", ("domain-networking", "fabric"), "networking")
    assert [(a.fraction, a.text.format) for a in q.answers] == [(1.0, "html"), (0.0, "html"), (-0.5, "plain")]
    assert q.answers[0].feedback.text == "Yes."
    assert qs["Multi"].single is False and qs["Multi"].text.format == "moodle"
    assert qs["TF"].text.format == "plain"


def test_truefalse_reads_answers_in_any_order(parsed) -> None:  # type: ignore[no-untyped-def]
    true, false = parsed[0]["TF"].answers
    assert (true.text.text, true.fraction, true.feedback.text) == ("true", 1.0, "Right.")
    assert (false.text.text, false.fraction, false.feedback.text) == ("false", 0.0, "They do.")


def test_shortanswer_numerical_match(parsed) -> None:  # type: ignore[no-untyped-def]
    qs = parsed[0]
    assert qs["Case"].case_sensitive is True
    assert [(a.text.text, a.tolerance, a.fraction) for a in qs["Num"].answers] == [
        ("4", 0.5, 1.0),
        ("*", 0.0, 0.0),
    ]
    assert [(p.question.text, p.answer) for p in qs["Match"].pairs] == [
        ("Lustre", "DDN"),
        ("GPFS", "IBM"),
        ("", "Nobody"),
    ]
    assert qs["Intro"].default_mark == 0.0


def test_unsupported_and_invalid_are_reported_not_skipped(parsed) -> None:  # type: ignore[no-untyped-def]
    _, _, errors, unsupported = parsed
    assert [(u.question, u.qtype, u.line) for u in unsupported] == [
        ("Cloze", "multianswer", line_of(XML, '<question type="cloze">')),
        ("Calc", "calculated", line_of(XML, '<question type="calculated">')),
    ]
    (error,) = errors
    assert error.question == "Bad grades" and "42%" in error.message
    assert error.line == XML.count("\n", 0, XML.rindex('<question type="multichoice">')) + 1


def test_declared_encoding_is_honoured() -> None:
    text = XML.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').replace("Rail-optimised", "Réseau")
    result = read_bank(text.encode("latin-1"))
    assert result.format == "moodle-xml" and result.encoding == "iso-8859-1"
    assert "Réseau" in {q.name for q in result.bank.questions}


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"<quiz><question type='essay'>", "not well-formed"),
        (b"<?xml version='1.0'?><html/>", "expected <quiz>"),
        (b'<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY a "aaaa">]><quiz>&a;</quiz>', "refused"),
    ],
)
def test_unreadable_files_raise_a_clear_error(data: bytes, fragment: str) -> None:
    with pytest.raises(BankReadError) as info:
        read_bank(data, "moodle-xml")
    assert fragment in info.value.message


def test_question_without_a_name_is_an_error() -> None:
    text = '<quiz>\n<question type="essay"><questiontext><text>x</text></questiontext></question>\n</quiz>'
    bank, errors, _ = read_moodle_xml(text)
    assert bank.questions == () and errors[0].line == 2 and "<name>" in errors[0].message


def test_embedded_files_are_kept_and_written_back(parsed) -> None:  # type: ignore[no-untyped-def]
    from gputeam.certify import write_bank

    qs, bank, _, _ = parsed
    (image,) = qs["Rail-optimised"].text.files
    assert (image.name, image.path, image.content) == ("rails.png", "/", "iVBORw0KGgo=")
    again = read_bank(write_bank(bank, "moodle-xml").encode(), "moodle-xml").bank
    assert [q.model_dump() for q in again.questions] == [q.model_dump() for q in bank.questions]
    assert again.categories == bank.categories


def test_what_gift_cannot_hold_is_listed(parsed) -> None:  # type: ignore[no-untyped-def]
    from gputeam.certify import gift_cannot_hold

    assert gift_cannot_hold(parsed[1]) == [
        "1 embedded file(s) (images) cannot be written in GIFT",
        "1 case-sensitive short-answer question(s) become case-insensitive",
        "1 question(s) with a mark other than 1 get the mark 1",
    ]


def test_unescaped_markup_in_a_text_is_an_error_not_a_silent_loss() -> None:
    text = (
        '<quiz>\n<question type="essay"><name><text>E</text></name>\n'
        '<questiontext format="html"><text>Say <b>why</b></text></questiontext></question>\n</quiz>'
    )
    bank, errors, _ = read_moodle_xml(text)
    assert bank.questions == ()
    assert errors[0].question == "E" and "<b>" in errors[0].message and "CDATA" in errors[0].message
