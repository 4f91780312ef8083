"""docs/reports.md documents every section, sheet and chart the renderers produce."""

from __future__ import annotations

from pathlib import Path

from gputeam.planning.result import Plan
from gputeam.report import html, markdown, xlsx

DOC = Path(__file__).resolve().parents[2] / "docs" / "reports.md"


def test_reports_doc_covers_sections_sheets_and_charts(risk_plan: Plan) -> None:
    text = DOC.read_text(encoding="utf-8").lower()
    for section in markdown.sections(risk_plan):
        assert f"| {section.title.split(' (')[0].lower()}" in text, section.title
    for sheet in xlsx.SHEETS.values():
        assert f"**{sheet.lower()}" in text or f"{sheet.lower()}**" in text, sheet
    for chart_list in html.charts(risk_plan).values():
        for chart in chart_list:
            assert chart.title.lower() in text, chart.title
    assert "data-chart-ready" in text and "data-charts-ready" in text
