"""Markdown report: every section, as tables, with text escaped."""

from __future__ import annotations

import pytest

from gputeam.planning.result import Plan
from gputeam.report import markdown

from .conftest import EXAMPLES

SECTION_HEADINGS = (
    "## Summary",
    "## Target team",
    "## Gaps",
    "## Sourcing decisions",
    "## Roadmaps",
    "## Costs",
    "## Return on investment",
    "## Warnings",
    "## Risk",
)


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_section_is_present(plans: dict[str, Plan], name: str) -> None:
    p = plans[name]
    text = markdown.render(p).decode("utf-8")
    positions = [text.index(h) for h in SECTION_HEADINGS]
    assert positions == sorted(positions), "sections out of order"
    assert "No risk simulation in this plan." in text
    for warning in p.warnings:
        assert warning.code in text
    for a in p.sourcing.assignments:
        assert a.reason.split(" can ")[0] in text
    assert markdown.money(p.costs.first_year, p.costs.currency) in text
    assert "| Net ROI ((returns - investment) / investment) |" in text
    assert "| Benefit-cost ratio (returns / investment) |" in text


def test_tables_are_well_formed(plans: dict[str, Plan]) -> None:
    text = markdown.render(plans["finance"]).decode("utf-8")
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|---") or line.startswith("|--:") or line.startswith("|---:"):
            header = lines[i - 1]
            width = header.count(" | ") + 1
            j = i + 1
            while j < len(lines) and lines[j].startswith("| "):
                assert lines[j].replace("\\|", "").count(" | ") + 1 == width, lines[j]
                j += 1


def test_risk_section(risk_plan: Plan) -> None:
    text = markdown.render(risk_plan).decode("utf-8")
    assert "## Risk" in text and "No risk simulation" not in text
    assert "| Probability ready by deadline | 83.0% |" in text
    assert "### Key-person risk by skill domain" in text
    assert "exam pass rate &lt;NCA-AIIO&gt;" in text
    # widest ROI swing first
    assert text.index("downtime cost per hour") < text.index("attrition |")


def test_text_is_escaped(plans: dict[str, Plan]) -> None:
    p = plans["finance"]
    scenario = dict(p.scenario, organisation="Evil | Corp <script>alert(1)</script> *bold*")
    text = markdown.render(p.model_copy(update={"scenario": scenario})).decode("utf-8")
    assert "<script>" not in text
    assert "Evil \\| Corp &lt;script&gt;alert(1)&lt;/script&gt; \\*bold\\*" in text
