"""Markdown report: every section, as tables, with text escaped."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gputeam.planning.result import Plan
from gputeam.report import markdown

from .conftest import EXAMPLES, renamed

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
def test_every_section_is_present(plans: dict[str, Plan], bare: dict[str, Plan], name: str) -> None:
    p = plans[name]
    text = markdown.render(p).decode("utf-8")
    positions = [text.index(h) for h in SECTION_HEADINGS]
    assert positions == sorted(positions), "sections out of order"
    assert ("No risk simulation in this plan." in text) is (p.risk is None)
    assert "No risk simulation in this plan." in markdown.render(bare[name]).decode("utf-8")
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
    assert "| Readiness threshold (share of the deadline month's slots covered) | 95.0% |" in text
    assert "| Probability every slot is covered at the deadline | 61.0% |" in text
    assert "| Share of runs costing no more than the plan | 40.0% |" in text
    assert "40% of the simulated runs cost no more than that" in text
    assert "### Key-person risk by skill domain" in text
    assert "exam pass rate &lt;NCA-AIIO&gt;" in text
    # widest ROI swing first
    assert text.index("downtime cost per hour") < text.index("attrition |")


def test_text_is_escaped(plans: dict[str, Plan]) -> None:
    p = plans["finance"]
    text = markdown.render(renamed(p, "Evil | Corp <script>alert(1)</script> *bold*")).decode("utf-8")
    assert "<script>" not in text
    assert "Evil \\| Corp &lt;script&gt;alert(1)&lt;/script&gt; \\*bold\\*" in text


@given(st.text(min_size=1, max_size=40))
@settings(max_examples=60, deadline=None)
def test_any_name_keeps_tables_intact(name: str) -> None:
    """A cell's text, whatever it holds, stays in its cell: the row keeps its column count."""
    table = markdown.Table("t", (markdown.Column("A"), markdown.Column("B")), ((name, name),))
    header, rule, row = markdown._md_table(table, "USD")[:3]
    unescaped_bars = re.findall(r"(?<!\\)\|", row.replace("\\\\", ""))
    assert len(unescaped_bars) == 3
    assert "\n" not in row and "<" not in row


def test_coverage_runs_cover_every_month(plans: dict[str, Plan]) -> None:
    for p in plans.values():
        section = next(s for s in markdown.sections(p) if s.id == "sourcing")
        runs = next(t for t in section.tables if t.name == "coverage").rows
        expanded = [share for first, last, share in runs for _ in range(first, last + 1)]
        assert expanded == list(p.sourcing.coverage_by_month)


def test_dispatch_by_format_name(plans: dict[str, Plan]) -> None:
    """The lead's dispatcher reaches these renderers by name."""
    from gputeam import report
    from gputeam.report import html, ics, xlsx

    p = plans["startup"]
    for fmt, module in (("md", markdown), ("html", html), ("xlsx", xlsx), ("ics", ics)):
        assert report.render(p, fmt) == module.render(p), fmt
