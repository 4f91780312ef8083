"""Issue 8 §6: the article's stated case-study outcomes (§7) beside the plan's, with the
reason for each difference. Each plan figure is recomputed here from the plan's JSON by the
definition the catalog documents for its kind."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from gputeam.catalog import load_catalog
from gputeam.catalog.models import CaseMeasure
from gputeam.cli.main import app
from gputeam.errors import CatalogError, ScenarioError
from gputeam.planning import plan
from gputeam.planning.calendar import month_of
from gputeam.report.markdown import render as render_md
from gputeam.scenario import load_example, load_scenario_text
from gputeam.scenario.load import example_text

CASES = ("finance", "healthcare", "startup")


def figure(m: CaseMeasure, p: dict[str, Any]) -> float | None:
    sc = p["scenario"]
    start = date.fromisoformat(sc["start"])
    last = m.month or sc["horizon_months"]
    if m.kind == "certified":
        who = {
            person["id"]
            for person in sc["people"]
            if any(c["id"] in m.certifications for c in person["certifications"])
        }
        who |= {
            r["person"]
            for r in p["roadmaps"]
            for i in r["items"]
            if i["kind"] == "exam"
            and i["ref"] in m.certifications
            and month_of(start, date.fromisoformat(i["end"])) <= last
        }
        return len(who)
    if m.kind == "cost":
        return sum(line[m.period] for line in p["costs"]["lines"] if line["category"] in m.categories)
    if m.kind == "hires":
        return sum(
            h["count"]
            for h in p["sourcing"]["hires"]
            if h["level"] == m.level and m.from_month <= h["arrival_month"] <= last
        )
    if m.kind == "headcount":
        return sum(s["count"] for s in p["target"]["months"][last - 1]["slots"])
    if m.kind == "staffed_share":
        return p["sourcing"]["coverage_by_month"][last - 1]
    if m.kind == "ready_month":
        shares = p["sourcing"]["coverage_by_month"]
        return next(
            (k for k in range(1, len(shares) + 1) if all(s >= 1 - 1e-9 for s in shares[k - 1 :])), None
        )
    assert m.kind == "saving_vs_outsourced"
    return 1 - p["costs"]["annual_run_rate"] / p["costs"]["outsourced_annual"]


def agrees(m: CaseMeasure, value: float | None) -> bool:
    if value is None:
        return False
    if m.kind == "cost":
        return abs(value - m.article) <= 0.10 * m.article
    if m.kind in ("staffed_share", "saving_vs_outsourced"):
        return abs(value - m.article) <= 0.05
    return value == m.article


@pytest.mark.parametrize("name", CASES)
def test_outcomes_beside_the_articles(name: str, catalog, today) -> None:  # type: ignore[no-untyped-def]
    sc = load_example(name)
    assert sc.case_study == name
    p = plan(sc, catalog, today, runs=0)
    data = json.loads(p.model_dump_json())
    study = catalog.case_studies[name]
    assert p.case_study is not None and p.case_study.source == study.source
    assert [o.id for o in p.case_study.outcomes] == [m.id for m in study.measures]
    assert len(study.measures) >= 4
    for m, o in zip(study.measures, p.case_study.outcomes, strict=True):
        want = figure(m, data)
        assert o.plan == pytest.approx(want), m.id
        assert o.article == m.article and o.stated == m.stated
        assert o.agrees is agrees(m, want), m.id
        assert o.reason == ("Agrees with the article." if o.agrees else m.why)
        assert o.source.startswith("article §7")
    assert data["case_study"]["outcomes"][0]["article"] == study.measures[0].article


def test_finance_measures_are_the_articles_figures(catalog) -> None:  # type: ignore[no-untyped-def]
    """§7A: 4 of 5 Associate, 2 Professional within the year, $180k training, $300k
    contractors, independent operation in month 6."""
    got = {m.id: m.article for m in catalog.case_studies["finance"].measures}
    assert got == {
        "associate": 4,
        "professional": 2,
        "training": 180_000,
        "contractors": 300_000,
        "independent": 6,
    }


def test_no_case_study_no_section(catalog, today) -> None:  # type: ignore[no-untyped-def]
    p = plan(load_example("midsize"), catalog, today, runs=0)
    assert p.case_study is None
    assert b"Case study" not in render_md(p)
    md = render_md(plan(load_example("finance"), catalog, today, runs=0)).decode()
    assert "## Case study" in md and "4 of 5" in md and "$180,000" in md


def test_unknown_case_study_is_refused() -> None:
    data = yaml.safe_load(example_text("finance"))
    data["case_study"] = "finanse"
    with pytest.raises(ScenarioError) as exc:
        load_scenario_text(yaml.safe_dump(data), "f.yaml")
    (problem,) = exc.value.problems
    assert problem.path == "case_study" and "unknown case study" in problem.message
    assert problem.hint == "did you mean 'finance'?"


def test_measure_with_unknown_certification_is_refused() -> None:
    with pytest.raises(CatalogError) as exc:
        load_catalog(
            {
                "case_studies": [
                    {
                        "id": "finance",
                        "name": "x",
                        "summary": "x",
                        "outcomes": [],
                        "source": "me",
                        "measures": [
                            {
                                "id": "a",
                                "label": "a",
                                "article": 1,
                                "stated": "1",
                                "kind": "certified",
                                "certifications": ["nope"],
                                "why": "w",
                                "source": "me",
                            }
                        ],
                    }
                ]
            }
        )
    assert any("case_studies" in p.path and "nope" in p.message for p in exc.value.problems)


def test_terminal_summary_shows_the_case_study() -> None:
    def run(name: str) -> str:
        result = CliRunner().invoke(
            app, ["plan", "--example", name, "--runs", "0", "--today", "2026-12-02"], env={"COLUMNS": "200"}
        )
        assert result.exit_code == 0, result.output
        return result.stdout

    out = run("startup")
    assert "Case study (article §7C)" in out and "costs down 60%" in out
    assert "Case study" not in run("midsize")
