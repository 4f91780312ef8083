"""An internal programme for the exam tests: a user-defined certification in the catalog
extras, a GIFT bank over three domains, and the programme spec (our own words)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from gputeam.catalog import Catalog, load_catalog

START = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
CERT = "acme-operator-l2"
EXTRA = {
    "certifications": [
        {
            "id": CERT,
            "name": "ACME GPU Cluster Operator, Level 2",
            "vendor": "ACME",
            "level": 2,
            "source": "internal programme (test)",
            "validity_months": 24,
            "exam": {
                "domain_weights": {"networking": 40, "storage": 38, "operations": 22},
                "retake_wait_days": 7,
            },
            "grants": [{"domain": "infiniband", "to": 2}],
        }
    ]
}
DOMAINS = ("networking", "storage", "operations")


def exam_catalog() -> Catalog:
    return load_catalog(EXTRA)


def gift_bank(per_domain: int = 12, domains: tuple[str, ...] = DOMAINS) -> str:
    """``per_domain`` single-choice questions per domain; the right answer is option 0."""
    out = []
    for d in domains:
        for i in range(per_domain):
            out.append(
                f"// [id:{d}-{i:03d}] [tag:domain-{d}]\n::{d} {i}::Question {i} about {d}?{{\n"
                f"  =Right {d} {i}#good\n  ~Wrong A {i}#no\n  ~Wrong B {i}#no\n}}\n"
            )
    return "\n".join(out)


def spec(**blueprint: Any) -> dict[str, Any]:
    bp = {"questions": 10, "minutes": 30, "pass_mark": 0.7, "domain_minimum": 0.6, "attempts": 3, **blueprint}
    return {
        "name": "ACME GPU Cluster Operator, Level 2",
        "certification": CERT,
        "curriculum": [{"name": "ACME runbooks", "hours": 8}],
        "blueprint": bp,
        "skills": {"infiniband": 2},
        "assessors": ["p2"],
        "rubric": [],
    }


def setup_programme(
    s: Any, org_id: int, catalog: Catalog, *, code: str = "acme-l2", per_domain: int = 12, **kw: Any
) -> Any:
    from gputeam import store
    from gputeam.certify import read_bank

    rubric = kw.pop("rubric", [])
    data = spec(**kw)
    data["rubric"] = rubric
    prog = store.save_programme(s, org_id, code, data, catalog=catalog)
    bank = read_bank(gift_bank(per_domain).encode(), "gift").bank
    store.import_bank(s, prog.id, bank, now=START)
    return prog


def right_answers(view: dict[str, Any]) -> dict[str, int]:
    """The option shown whose text starts "Right" (:func:`gift_bank`'s words; the candidate
    sees the options in an order of their attempt's own)."""
    return {
        q["id"]: next(o["index"] for o in q["options"] if o["text"].startswith("Right"))
        for q in view["questions"]
    }


def wrong_answers(view: dict[str, Any]) -> dict[str, int]:
    return {
        q["id"]: next(o["index"] for o in q["options"] if o["text"].startswith("Wrong"))
        for q in view["questions"]
    }


ESSAY_BANK = """// [id:net-essay] [tag:domain-networking]
::Drain a node::Explain, step by step, how you drain a GPU node before maintenance.{}

// [id:sto-1] [tag:domain-storage]
::Storage 1::Which storage question is this?{=Right storage ~Wrong A ~Wrong B}

// [id:ops-1] [tag:domain-operations]
::Operations 1::Which operations question is this?{=Right operations ~Wrong A ~Wrong B}
"""


def setup_essay_programme(s: Any, org_id: int, catalog: Catalog, *, code: str = "essay-l2") -> Any:
    """A three-question exam (one per domain, 40/38/22 of 3 is 1/1/1): an essay in
    networking, one single-choice question each in storage and operations."""
    from gputeam import store
    from gputeam.certify import read_bank

    data = spec(questions=3)
    prog = store.save_programme(s, org_id, code, data, catalog=catalog)
    store.import_bank(s, prog.id, read_bank(ESSAY_BANK.encode(), "gift").bank, now=START)
    return prog


def sit_essay_exam(s: Any, prog: Any, person_id: int, essay: str = "Cordon, drain, check.") -> Any:
    """Start, answer both choice questions right and write the essay, hand in."""
    from gputeam import store

    a = store.start_attempt(s, prog, person_id, now=START, catalog=exam_catalog())
    view = store.attempt_view(s, a, now=START)
    for q in view["questions"]:
        if q["type"] == "essay":
            store.save_answer(s, a.id, person_id, q["id"], essay, now=START)
        else:
            right = next(o["index"] for o in q["options"] if o["text"].startswith("Right"))
            store.save_answer(s, a.id, person_id, q["id"], right, now=START)
    return a
