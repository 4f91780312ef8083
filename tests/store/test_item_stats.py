"""Item analysis over stored attempts (issue 11 §5): distractor counts of every question
type with options (single and multiple response, true/false, each pairing of a matching
question), their flags, and the statistics per domain, recomputed by hand from what five
candidates answered. Both engines."""

from __future__ import annotations

import csv
import io
import math
from datetime import timedelta
from typing import Any

import pytest
from tests.store.exam_helpers import START, exam_catalog, spec

from gputeam import store
from gputeam.certify import read_bank
from gputeam.store.schema_exams import ExamAttempt

CATALOG = exam_catalog()

BANK = """// [id:mr] [tag:domain-networking]
::MR::Which are GPU interconnects?{~%50%NVLink ~%50%InfiniBand ~%-100%SATA ~%-100%USB}

// [id:m] [tag:domain-networking]
::M::Match each part with its job.{=GPU -> compute =NIC -> network =SSD -> storage}

// [id:tf] [tag:domain-networking]
::TF::NVLink connects GPUs.{T}

// [id:s1] [tag:domain-storage]
::S1::Storage one?{=Right ~Wrong A ~Wrong B}

// [id:s2] [tag:domain-storage]
::S2::Storage two?{=Right ~Wrong A ~Wrong B}

// [id:o1] [tag:domain-operations]
::O1::Operations one?{=Right ~Wrong A ~Wrong B}
"""

#: What each candidate answered, by option text (None: no answer).
ANSWERS: list[dict[str, Any]] = [
    {
        "mr": ["NVLink", "InfiniBand"],
        "m": ["compute", "network", "storage"],
        "tf": True,
        "s1": "Right",
        "s2": "Right",
        "o1": "Right",
    },  # noqa: E501
    {
        "mr": ["NVLink"],
        "m": ["compute", "storage", "network"],
        "tf": True,
        "s1": "Right",
        "s2": "Wrong A",
        "o1": "Right",
    },  # noqa: E501
    {
        "mr": ["NVLink", "SATA"],
        "m": ["network", "compute", "storage"],
        "tf": False,
        "s1": "Wrong A",
        "s2": "Right",
        "o1": "Wrong A",
    },  # noqa: E501
    {
        "mr": ["InfiniBand"],
        "m": ["compute", "network", "storage"],
        "tf": True,
        "s1": "Right",
        "s2": "Wrong B",
        "o1": "Right",
    },  # noqa: E501
    {"tf": False},
]


def _value(question: dict[str, Any], answer: Any) -> Any:
    """The value the candidate sends: options by their number as shown."""
    if question["type"] == "multichoice":
        shown = {o["text"]: o["index"] for o in question["options"]}
        return [shown[a] for a in answer] if isinstance(answer, list) else shown[answer]
    return answer


@pytest.fixture
def stats(db: Any) -> dict[str, Any]:
    with db.session() as s:
        org = store.create_organisation(s, "Acme")
        data = spec(questions=6, domain_weights={"networking": 3, "storage": 2, "operations": 1})
        prog = store.save_programme(s, org.id, "acme-l2", data, catalog=CATALOG)
        result = read_bank(BANK.encode(), "gift")
        assert not result.errors
        store.import_bank(s, prog.id, result.bank, now=START)
        for n, answers in enumerate(ANSWERS):
            person = store.add_person(s, org.id, key=f"c{n}", name=f"Candidate {n}").id
            a = store.start_attempt(s, prog, person, now=START, catalog=CATALOG)
            view = store.attempt_view(s, a, now=START)
            assert len(view["questions"]) == 6
            for q in view["questions"]:
                if q["id"] in answers:
                    value = _value(q, answers[q["id"]])
                    store.save_answer(s, a.id, person, q["id"], value, now=START + timedelta(minutes=1))
            store.finish_attempt(s, a.id, now=START + timedelta(minutes=2), catalog=CATALOG)
        return store.item_statistics(s, prog.id) | {"programme_id": prog.id}


def _counts(item: dict[str, Any]) -> list[tuple[str | None, str, bool, int]]:
    return [(d["stem"], d["option"], d["right"], d["chosen"]) for d in item["distractors"]]


def test_distractor_counts_of_every_question_type_with_options(stats: dict[str, Any]) -> None:
    items = {i["item_id"]: i for i in stats["items"]}
    # multiple response: how many candidates chose each option (several each)
    assert _counts(items["mr"]) == [
        (None, "NVLink", True, 3),
        (None, "InfiniBand", True, 2),
        (None, "SATA", False, 1),
        (None, "USB", False, 0),
    ]
    assert "distractor rarely chosen" in items["mr"]["flags"]  # nobody chose USB
    # matching: each stem with each answer
    assert _counts(items["m"]) == [
        ("GPU", "compute", True, 3),
        ("GPU", "network", False, 1),
        ("GPU", "storage", False, 0),
        ("NIC", "compute", False, 1),
        ("NIC", "network", True, 2),
        ("NIC", "storage", False, 1),
        ("SSD", "compute", False, 0),
        ("SSD", "network", False, 1),
        ("SSD", "storage", True, 3),
    ]
    assert _counts(items["tf"]) == [(None, "true", True, 3), (None, "false", False, 2)]
    assert _counts(items["s2"]) == [
        (None, "Right", True, 2),
        (None, "Wrong A", False, 1),
        (None, "Wrong B", False, 1),
    ]
    assert "distractor chosen more than the key" not in items["s2"]["flags"]


def test_per_domain_statistics_recomputed_by_hand(stats: dict[str, Any]) -> None:
    domains = {d["domain"]: d for d in stats["domains"]}
    assert sorted(domains) == ["networking", "operations", "storage"]
    # networking: mr 1, .5, 0 (.5 − 1 clipped), .5, 0; match 1, 1/3, 1/3, 1, 0; tf 1, 1, 0, 1, 0
    net = [1 + 1 + 1, 0.5 + 1 / 3 + 1, 0 + 1 / 3 + 0, 0.5 + 1 + 1, 0.0]
    assert domains["networking"]["facility"] == pytest.approx(sum(net) / 15, abs=1e-3)
    # storage: s1 1 1 0 1 0, s2 1 0 1 0 0 → KR-20 = 2 × (1 − (.6·.4 + .4·.6) / σ²(2, 1, 1, 1, 0))
    sub = [2, 1, 1, 1, 0]
    mean = sum(sub) / 5
    var = sum((x - mean) ** 2 for x in sub) / 5  # 0.4
    assert domains["storage"]["kr20"] == pytest.approx(2 * (1 - 0.48 / var))  # −0.4
    assert domains["storage"]["alpha"] == domains["storage"]["kr20"]
    # discrimination: the storage subscore against the total over the other items
    ops = [1, 1, 0, 1, 0]
    rest = [n + o for n, o in zip(net, ops, strict=True)]
    mr = sum(rest) / 5
    cov = sum((a - mean) * (b - mr) for a, b in zip(sub, rest, strict=True))
    r = cov / math.sqrt(sum((a - mean) ** 2 for a in sub) * sum((b - mr) ** 2 for b in rest))
    assert domains["storage"]["discrimination"] == pytest.approx(r, abs=1e-3)
    assert domains["operations"]["alpha"] is None  # one item: no reliability
    assert domains["networking"]["kr20"] is None  # partial credit: alpha only
    assert domains["networking"]["items"] == 3 and domains["networking"]["attempts"] == 5


def test_the_csv_has_a_row_per_item_per_domain_and_for_the_form(stats: dict[str, Any]) -> None:
    rows = list(csv.DictReader(io.StringIO(store.item_statistics_csv(stats))))
    assert [r["scope"] for r in rows] == ["item"] * 6 + ["domain"] * 3 + ["form"]
    by_item = {r["item_id"]: r for r in rows if r["scope"] == "item"}
    assert by_item["m"]["distractors"] == "3 1 0 | 1 2 1 | 0 1 3"
    assert by_item["mr"]["distractors"] == "3 2 1 0"
    storage = next(r for r in rows if r["domain"] == "storage" and r["scope"] == "domain")
    assert float(storage["kr20"]) == pytest.approx(-0.4)
    form = rows[-1]
    assert form["attempts"] == "5" and form["alpha"] != ""


def test_attempts_finished_before_picks_were_kept_still_read(db: Any, stats: dict[str, Any]) -> None:
    """An attempt stored without "picks" counts in everything but the options chosen of the
    questions that take several."""
    with db.session() as s:
        a = s.query(ExamAttempt).order_by(ExamAttempt.id).first()
        assert a is not None and a.result["picks"]
        a.result = {k: v for k, v in a.result.items() if k != "picks"}
    with db.session() as s:
        again = store.item_statistics(s, stats["programme_id"])
    items = {i["item_id"]: i for i in again["items"]}
    assert [d["chosen"] for d in items["mr"]["distractors"]] == [2, 1, 1, 0]  # candidate 0's gone
    assert items["mr"]["attempts"] == 5
    assert [d["chosen"] for d in items["s1"]["distractors"]] == [3, 1, 0]
