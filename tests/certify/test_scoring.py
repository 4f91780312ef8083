"""Marking by Moodle's rules, checked on small hand-worked cases."""

from __future__ import annotations

import pytest

from gputeam.certify import Answer, MatchPair, Question, Text, read_bank, score_exam, score_question

from .fixtures import GIFT


def bank() -> dict[str, Question]:
    return {q.name: q for q in read_bank(GIFT.encode(), "gift").bank.questions}


Q = bank()


def test_single_choice_is_the_chosen_answers_fraction() -> None:
    q = Q["Partial credit"]  # -33.33333 %, 100 %, 33.33333 %
    assert score_question(q, 1) == 1.0
    assert score_question(q, 2) == pytest.approx(0.3333333)
    assert score_question(q, 0) == pytest.approx(-0.3333333)
    assert score_question(q, None) == 0.0 and score_question(q, 7) == 0.0


def test_multiple_response_sums_and_clips_to_0_1() -> None:
    q = Q["Healthy checks"]  # 50 %, 50 %, -100 %
    assert score_question(q, {0, 1}) == 1.0
    assert score_question(q, {0}) == 0.5
    assert score_question(q, {0, 1, 2}) == 0.0  # 0.5 + 0.5 - 1
    assert score_question(q, {0, 2}) == 0.0  # -0.5 clipped to 0


def test_truefalse() -> None:
    q = Q["TF feedback"]  # the answer is FALSE
    assert (score_question(q, False), score_question(q, True)) == (1.0, 0.0)


@pytest.mark.parametrize(
    ("response", "fraction"), [("DCGM", 1.0), ("  dcgm ", 1.0), ("NVIDIA-SMI", 0.5), ("htop", 0.0), ("", 0.0)]
)
def test_shortanswer_first_match_case_insensitive_with_wildcard(response: str, fraction: float) -> None:
    assert score_question(Q["Short answer"], response) == fraction


def test_shortanswer_wildcards_and_case() -> None:
    def sa(pattern: str, case: bool = False) -> Question:
        return Question(
            qtype="shortanswer",
            name="s",
            case_sensitive=case,
            answers=(Answer(text=Text(text=pattern, format="plain"), fraction=1.0),),
        )

    assert score_question(sa("infini*band"), "InfiniBand") == 1.0
    assert score_question(sa("infini*band"), "Infini-fast-band") == 1.0
    assert score_question(sa("a\\*b"), "a*b") == 1.0 and score_question(sa("a\\*b"), "axb") == 0.0
    assert score_question(sa("MDS", case=True), "mds") == 0.0
    assert score_question(sa("Slurm job"), " slurm job\t") == 1.0  # spaces around: trimmed
    assert score_question(sa("Slurm job"), "slurm  job") == 0.0  # spaces inside count, as in Moodle
    assert score_question(sa("Caf\u00e9"), "Cafe\u0301") == 1.0  # both NFC-normalised


@pytest.mark.parametrize(
    ("response", "fraction"),
    [(10.2, 1.0), ("10.7", 1.0), ("10,69", 1.0), (9.0, 0.5), (12.0, 0.5), (12.5, 0.0), ("many", 0.0)],
)
def test_numerical_tolerance_in_order(response: object, fraction: float) -> None:
    assert score_question(Q["Tolerance"], response) == fraction  # type: ignore[arg-type]


def test_numerical_range() -> None:
    q = Q["Range"]  # 1.1..1.5
    assert [score_question(q, v) for v in (1.1, 1.3, 1.5, 1.51, 1.09)] == [1.0, 1.0, 1.0, 0.0, 0.0]


def test_match_is_the_share_of_right_pairs() -> None:
    q = Q["Match"]  # three stems; the fourth pair is a distractor
    assert score_question(q, ["Slurm", "Enroot", "DCGM"]) == 1.0
    assert score_question(q, ["Slurm", "Kubernetes", None]) == pytest.approx(1 / 3)


def test_essay_is_marked_by_a_person() -> None:
    assert score_question(Q["Essay"], "text") is None


def tf(name: str, domain: str, correct: bool = True) -> Question:
    return Question(
        qtype="truefalse",
        name=name,
        idnumber=name,
        domain=domain,
        answers=(
            Answer(text=Text(text="true"), fraction=1.0 if correct else 0.0),
            Answer(text=Text(text="false"), fraction=0.0 if correct else 1.0),
        ),
    )


def test_exam_per_domain_scores_and_domain_minimum_feedback() -> None:
    form = [tf(f"n{i}", "networking") for i in range(20)] + [tf(f"s{i}", "storage") for i in range(10)]
    answers = {f"n{i}": i < 11 for i in range(20)} | {f"s{i}": True for i in range(10)}
    result = score_exam(form, answers, pass_mark=0.6, domain_minimum=0.6)
    # 11/20 networking + 10/10 storage = 21/30 = 70 %: above the pass mark, but networking is 55 %
    assert result.score == pytest.approx(21 / 30)
    net = next(d for d in result.domains if d.domain == "networking")
    assert net.score == pytest.approx(0.55) and net.below_minimum
    assert net.feedback == "networking 55 % — below the 60 % domain minimum"
    assert next(d for d in result.domains if d.domain == "storage").feedback == "storage 100 %"
    assert not result.passed
    assert score_exam(form, answers, pass_mark=0.6).passed  # no domain minimum
    assert not score_exam(form, answers, pass_mark=0.75).passed
    named = score_exam(form, answers, 0.6, {"networking": 0.6}, domain_names={"networking": "Networking"})
    assert named.domains[0].feedback.startswith("Networking 55 %")


def test_exam_waits_for_essays_and_uses_marks() -> None:
    essay = Question(qtype="essay", name="e", idnumber="e", domain="ops", default_mark=2.0)
    form = [tf("t", "ops"), essay]
    pending = score_exam(form, {"t": True}, pass_mark=0.5)
    assert pending.pending == ("e",) and not pending.passed
    marked = score_exam(form, {"t": True}, pass_mark=0.5, manual={"e": 0.5})
    assert marked.marks == 2.0 and marked.max_marks == 3.0 and marked.passed


def test_penalties_never_make_an_exam_score_negative() -> None:
    q = Question(
        qtype="multichoice",
        name="m",
        idnumber="m",
        domain="d",
        answers=(Answer(text=Text(text="a"), fraction=1.0), Answer(text=Text(text="b"), fraction=-1.0)),
    )
    assert score_exam([q], {"m": 1}, 0.5).score == 0.0


def test_match_pairs_model() -> None:
    q = Question(
        qtype="match",
        name="m",
        pairs=(
            MatchPair(question=Text(text="x"), answer="1"),
            MatchPair(question=Text(text="y"), answer="2"),
        ),
    )
    assert score_question(q, ["1", "1"]) == 0.5
