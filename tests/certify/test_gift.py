"""GIFT reading, on a bank written for these tests that covers each construct Moodle's
importer handles (question/format/gift/format.php): categories, names, formats, escapes,
feedback, weights, every question type, ids and tags, errors and unsupported cloze."""

from __future__ import annotations

from collections import Counter

import pytest

from gputeam.certify import Question, read_bank
from gputeam.certify.gift import read_gift

from .fixtures import GIFT, GIFT_BAD


def line_of(text: str, marker: str) -> int:
    return text[: text.index(marker)].count("\n") + 1


@pytest.fixture(scope="module")
def bank() -> dict[str, Question]:
    result, errors, unsupported = read_gift(GIFT)
    assert errors == [] and unsupported == []
    return {q.name: q for q in result.questions}


def test_counts_types_and_categories() -> None:
    result, _, _ = read_gift(GIFT)
    assert len(result.questions) == 15
    assert Counter(q.qtype for q in result.questions) == Counter(
        multichoice=3, truefalse=4, shortanswer=2, numerical=3, match=1, essay=1, description=1
    )
    assert [c.path for c in result.categories] == [
        "$course$/top/Cluster operations",
        "$course$/top/Cluster operations/Storage",
    ]
    assert result.questions[0].category == "$course$/top/Cluster operations"
    assert result.questions[-1].category == "$course$/top/Cluster operations/Storage"


def test_single_choice_with_formats_and_feedback(bank: dict[str, Question]) -> None:
    q = bank["IB link"]
    assert q.qtype == "multichoice" and q.single
    assert q.text.text == "Which fabric links the nodes of a DGX SuperPOD?" and q.text.format == "moodle"
    assert [(a.text.text, a.fraction) for a in q.answers] == [
        ("InfiniBand", 1.0),
        ("Token Ring", 0.0),
        ("Carrier pigeon", 0.0),
    ]
    assert q.answers[0].feedback.text == "Right: NDR InfiniBand."
    assert (q.answers[1].feedback.text, q.answers[1].feedback.format) == (
        "<b>No</b>, that is decades old.",
        "html",
    )
    assert q.answers[2].text.format == "plain"
    assert (q.general_feedback.text, q.general_feedback.format) == (
        "The compute fabric is <i>InfiniBand</i>.",
        "html",
    )


def test_ids_tags_and_domain_from_comments(bank: dict[str, Question]) -> None:
    q = bank["IB link"]
    assert q.idnumber == "ops-001" and q.item_id == "ops-001"
    assert q.tags == ("domain-networking", "week1")
    assert q.domain == "networking"
    assert bank["Plain text"].domain == "storage"
    assert bank["Partial credit"].idnumber is None and bank["Partial credit"].item_id.startswith("q-")


def test_multiple_response_and_negative_decimal_weights(bank: dict[str, Question]) -> None:
    multi = bank["Healthy checks"]
    assert not multi.single
    assert [a.fraction for a in multi.answers] == [0.5, 0.5, -1.0]
    partial = bank["Partial credit"]
    assert partial.single
    assert [a.fraction for a in partial.answers] == pytest.approx([-0.3333333, 1.0, 0.3333333])


def test_escapes(bank: dict[str, Question]) -> None:
    q = bank["Escapes: all of them"]
    assert q.qtype == "truefalse"
    assert q.text.text == "Write {braces}, a ~tilde, an =equals, a #hash and a colon: done."


def test_truefalse_feedback_goes_to_the_right_answer(bank: dict[str, Question]) -> None:
    q = bank["TF feedback"]
    assert q.text.format == "markdown"
    true, false = q.answers
    assert (true.text.text, true.fraction, false.text.text, false.fraction) == ("true", 0.0, "false", 1.0)
    # {FALSE#wrong#right}: the first feedback is for the wrong answer (true), the second for false.
    assert true.feedback.text == "They share the NVLink fabric, not memory."
    assert false.feedback.text == "Correct."
    assert q.general_feedback.text == "NVLink joins GPUs; each keeps its own HBM."
    assert bank["Plain text"].answers[0].fraction == 1.0


def test_shortanswer_weights_and_wildcard(bank: dict[str, Question]) -> None:
    q = bank["Short answer"]
    assert [(a.text.text, a.fraction) for a in q.answers] == [("DCGM", 1.0), ("nvidia-smi", 0.5), ("*", 0.0)]


def test_missing_word_puts_a_blank_in_the_text(bank: dict[str, Question]) -> None:
    q = bank["Missing word"]
    assert q.qtype == "shortanswer"
    assert q.text.text == "The scheduler most HPC sites use is _____ and it is open source."


def test_numerical_forms(bank: dict[str, Question]) -> None:
    assert [(a.text.text, a.tolerance) for a in bank["Numbers"].answers] == [("8", 0.0)]
    tol = bank["Tolerance"].answers
    assert [(a.text.text, a.tolerance, a.fraction) for a in tol] == [
        ("10.2", 0.5, 1.0),
        ("10", 2.0, 0.5),
        ("*", 0.0, 0.0),
    ]
    assert tol[2].feedback.text == "Look at the data sheet."
    (rng,) = bank["Range"].answers
    assert (rng.text.text, rng.tolerance) == ("1.3", 0.2)  # decimal arithmetic: no 1.2999999999999998


def test_match_essay_description(bank: dict[str, Question]) -> None:
    m = bank["Match"]
    assert [(p.question.text, p.answer) for p in m.pairs] == [
        ("Scheduler", "Slurm"),
        ("Containers", "Enroot"),
        ("Monitoring", "DCGM"),
        ("", "Kubernetes"),
    ]
    essay = bank["Essay"]
    assert essay.qtype == "essay" and essay.general_feedback.text == "Mention draining in Slurm."
    intro = bank["Intro"]
    assert intro.qtype == "description" and intro.default_mark == 0
    assert (intro.text.format, intro.text.text) == (
        "html",
        "<p>The next questions are about <b>storage</b>.</p>",
    )


def test_unnamed_question_gets_a_short_name_from_its_text(bank: dict[str, Question]) -> None:
    (q,) = [q for q in bank.values() if q.name.startswith("No name here")]
    assert len(q.name) <= 80 and q.name.endswith("...")


def test_line_numbers_point_at_the_question() -> None:
    result, _, _ = read_gift(GIFT)
    for q in result.questions:
        assert q.line is not None and GIFT.splitlines()[q.line - 1].startswith("::")
    assert [q.line for q in result.questions[:2]] == [
        line_of(GIFT, "::IB link::"),
        line_of(GIFT, "::Healthy checks::"),
    ]


def test_invalid_questions_are_reported_with_line_and_name() -> None:
    result, errors, unsupported = read_gift(GIFT_BAD)
    assert [q.name for q in result.questions] == ["Fine"]
    got = {(e.line, e.question) for e in errors}
    assert got == {
        (line_of(GIFT_BAD, f"::{n}::"), n)
        for n in ("Bad grade", "No braces", "One answer", "Bad number", "Bad match")
    }
    messages = {e.question: e.message for e in errors}
    assert "33%" in messages["Bad grade"] and "grade options" in messages["Bad grade"]
    assert "{ }" in messages["No braces"]
    assert "2 or more" in messages["One answer"]
    assert "'lots'" in messages["Bad number"]
    assert "->" in messages["Bad match"]
    assert [(u.line, u.question, u.qtype) for u in unsupported] == [
        (line_of(GIFT_BAD, "::Cloze::"), "Cloze", "multianswer")
    ]


def test_comment_only_blocks_and_blank_files() -> None:
    assert read_gift("// nothing here\n\n   \n")[0].questions == ()


@pytest.mark.parametrize("prefix", [b"", b"\xef\xbb\xbf"])
def test_utf8_with_and_without_bom(prefix: bytes) -> None:
    data = prefix + "::Café::Is the café open?{T}\n".encode()
    result = read_bank(data)
    assert result.format == "gift" and result.bank.questions[0].name == "Café"
    assert result.encoding == ("utf-8-sig" if prefix else "utf-8")


def test_windows_1252_is_detected() -> None:
    data = "::Größe::Die Größe – “richtig”?{T}\n".encode("cp1252")
    result = read_bank(data)
    assert result.encoding == "windows-1252"
    assert result.bank.questions[0].text.text == "Die Größe – “richtig”?"


def test_category_domain_mapping_applies_to_subcategories() -> None:
    mapping = {"$course$/top/Cluster operations": "cluster-ops"}
    result = read_bank(GIFT.encode(), "gift", mapping)
    domains = {q.name: q.domain for q in result.bank.questions}
    assert domains["IB link"] == "networking"  # the tag wins
    assert domains["Partial credit"] == "cluster-ops"
    assert domains["Plain text"] == "storage"
    (unnamed,) = [name for name in domains if name.startswith("No name here")]
    assert domains[unnamed] == "cluster-ops"


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_windows_and_old_mac_line_ends(newline: str) -> None:
    result = read_bank(GIFT.replace("\n", newline).encode())
    assert [q.model_dump() for q in result.bank.questions] == [
        q.model_dump() for q in read_bank(GIFT.encode()).bank.questions
    ]


def test_a_repeated_id_is_an_error_naming_the_first_use() -> None:
    text = "// [id:x1]\n::One::First?{T}\n\n// [id:x1]\n::Two::Second?{F}\n"
    bank, errors, _ = read_gift(text)
    assert [q.name for q in bank.questions] == ["One"]
    assert [(e.line, e.question, e.message) for e in errors] == [
        (5, "Two", "id 'x1' is already used by question 'One' at line 2")
    ]


def test_texts_are_trimmed_as_php_trims_them() -> None:
    """Moodle trims with PHP's trim(): a no-break space ending a text stays, and a form feed
    is not a line break."""
    (q,) = read_gift("::N::Ends with a no-break space\u00a0{T}\n")[0].questions
    assert q.text.text == "Ends with a no-break space\u00a0"
    (ff,) = read_gift("::F::Page\x0cbreak{T}\n")[0].questions
    assert ff.text.text == "Page\x0cbreak"
