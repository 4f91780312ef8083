"""XLSX workbook read back with openpyxl: sheets, real numbers, formats, frozen headers."""

from __future__ import annotations

import io
from datetime import datetime

import openpyxl
import pytest

from gputeam.planning.result import Plan
from gputeam.report import xlsx

from .conftest import EXAMPLES, renamed

BASE_SHEETS = [
    "Summary",
    "Target",
    "Gaps",
    "Sourcing",
    "Roadmaps",
    "Costs",
    "ROI",
    "Workload",
    "Warnings",
    "Notes",
]


def _load(p: Plan) -> openpyxl.Workbook:
    return openpyxl.load_workbook(io.BytesIO(xlsx.render(p)))


def _rows(ws: openpyxl.worksheet.worksheet.Worksheet) -> list[tuple[object, ...]]:
    return [tuple(r) for r in ws.iter_rows(values_only=True)]


def _table(ws: openpyxl.worksheet.worksheet.Worksheet, header_first: str) -> list[tuple[object, ...]]:
    """Rows of the table whose header row starts with ``header_first``, up to the blank row."""
    rows = _rows(ws)
    start = next(i for i, r in enumerate(rows) if r and r[0] == header_first)
    out = []
    for r in rows[start + 1 :]:
        if all(v is None for v in r):
            break
        out.append(r)
    return out


@pytest.mark.parametrize("name", EXAMPLES)
def test_sheets_numbers_and_formats(plans: dict[str, Plan], name: str) -> None:
    p = plans[name]
    wb = _load(p)
    case = ["Case study"] if p.case_study else []
    assert wb.sheetnames == BASE_SHEETS + (["Risk"] if p.risk else []) + case
    assert _load(p.model_copy(update={"risk": None})).sheetnames == BASE_SHEETS + case

    summary = {r[0]: r[1] for r in _rows(wb["Summary"])[1:] if r[0]}
    assert summary["First-year cost"] == pytest.approx(p.costs.first_year)
    assert isinstance(summary["First-year cost"], int | float)
    assert summary["Net ROI"] == pytest.approx(p.roi.net_roi)
    assert summary["Benefit-cost ratio"] == pytest.approx(p.roi.benefit_cost_ratio)
    assert summary["Hires"] == sum(h.count for h in p.sourcing.hires)
    assert isinstance(summary["Plan computed for"], datetime)
    assert summary["Plan computed for"].date() == p.generated_for

    costs = wb["Costs"]
    lines = {r[0]: r[1:4] for r in _table(costs, "Category")}
    for line in p.costs.lines:
        assert lines[line.category] == pytest.approx((line.first_year, line.horizon, line.annual_run_rate))
    assert lines["total"] == pytest.approx((p.costs.first_year, p.costs.horizon, p.costs.annual_run_rate))
    by_month = _table(costs, "Month")
    assert [r[2] for r in by_month] == pytest.approx(list(p.costs.by_month))
    templates = {r[0]: r[1:5] for r in _table(costs, "Template")}
    for t in p.costs.template_comparison:
        assert templates[t.template] == pytest.approx(
            (t.computed_low, t.computed_high, t.article_low, t.article_high)
        )

    # real numbers carry number formats; headers are frozen
    cell = next(c for row in costs.iter_rows() for c in row if c.value == p.costs.first_year)
    assert "#,##0" in cell.number_format
    roi = {r[0]: r[1] for r in _rows(wb["ROI"])[1:] if r[0]}
    assert roi["Net ROI ((returns - investment) / investment)"] == pytest.approx(p.roi.net_roi)
    formats = {row[0].value: row[1].number_format for row in wb["ROI"].iter_rows() if row[0].value}
    assert formats["Net ROI ((returns - investment) / investment)"] == "0.0%"
    assert formats["Benefit-cost ratio (returns / investment)"] == "0.00"
    for ws in wb.worksheets:
        assert ws.freeze_panes is not None, ws.title

    people = _table(wb["Roadmaps"], "Person")  # the first table: one row per roadmap, or "No roadmaps"
    assert [r[0] for r in people] == ([r.name for r in p.roadmaps] or [people[0][0]])
    n_items = sum(len(r.items) for r in p.roadmaps)
    items = [
        r
        for r in _rows(wb["Roadmaps"])
        if r and r[1] in ("course", "bootcamp", "exam", "renewal", "practice", "apprenticeship")
    ]
    assert len(items) == n_items
    assert all(isinstance(r[4], datetime) and isinstance(r[7], int | float) for r in items)
    assert sum(r[7] for r in items) == pytest.approx(sum(i.cost for r in p.roadmaps for i in r.items))

    assert len(_table(wb["Sourcing"], "Role") if p.sourcing.hires else []) == len(p.sourcing.hires)
    warnings = _table(wb["Warnings"], "Code")
    assert [w[0] for w in warnings] == [w.code for w in p.warnings]
    assert [n[0] for n in _table(wb["Notes"], "Code")] == [n.code for n in p.notes]
    if p.risk:  # the simulation's own figures, as numbers
        head = {r[0]: r[1] for r in _table(wb["Risk"], "Item")}
        assert head["Probability ready by deadline"] == pytest.approx(p.risk.p_ready_by_deadline)
        bus = _table(wb["Risk"], "Domain")
        assert [r[0] for r in bus] == [b.name or b.domain for b in p.risk.bus_factors]
        assert [r[4] for r in bus] == pytest.approx([b.p_zero for b in p.risk.bus_factors])


def test_risk_sheet(risk_plan: Plan) -> None:
    wb = _load(risk_plan)
    assert wb.sheetnames == [*BASE_SHEETS, "Risk"] + (["Case study"] if risk_plan.case_study else [])
    ws = wb["Risk"]
    head = {r[0]: r[1] for r in _table(ws, "Item")}
    assert head["Probability ready by deadline"] == pytest.approx(0.83)
    assert risk_plan.risk is not None
    assert head["Cost P50"] == pytest.approx(risk_plan.risk.cost_percentiles.p50)
    bands = _table(ws, "Month")
    assert [r[2] for r in bands] == pytest.approx(risk_plan.risk.coverage_bands.p50)
    bus = {r[0]: r for r in _table(ws, "Domain")}
    assert bus["infiniband"][4] == pytest.approx(0.21)


def test_deterministic(plans: dict[str, Plan]) -> None:
    p = plans["healthcare"]
    assert xlsx.render(p) == xlsx.render(p)
    wb = _load(p)
    assert wb.properties.created.date() == p.generated_for
    assert wb.properties.modified.date() == p.generated_for


def test_frozen_below_the_first_header_and_notes_last(plans: dict[str, Plan]) -> None:
    p = plans["healthcare"]
    wb = _load(p)
    assert wb["Summary"].freeze_panes == "A2"
    ws = wb["Sourcing"]
    assert ws.freeze_panes == "A2" and ws["A1"].value == "Item"
    column_a = [r[0] for r in _rows(ws)]
    notes_at = column_a.index("Notes")
    assert column_a[notes_at + 1 : notes_at + 1 + len(p.sourcing.explanation)] == list(p.sourcing.explanation)
    roadmaps = wb["Roadmaps"]
    assert roadmaps["A1"].value == "People" and roadmaps.freeze_panes == "A3"


def test_text_is_never_a_formula(plans: dict[str, Plan]) -> None:
    p = plans["finance"]
    formula = '=HYPERLINK("http://example.invalid","x")'
    p = renamed(p, formula, lambda i, _: formula)
    data = xlsx.render(p)
    wb = openpyxl.load_workbook(io.BytesIO(data))
    cells = [c for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value == formula]
    assert cells, "the name is written"
    assert all(c.data_type == "s" for c in cells)
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert not any(b"<f>" in z.read(n) for n in z.namelist() if n.startswith("xl/worksheets/"))


def test_every_zip_entry_is_dated_by_the_plan_not_the_clock() -> None:
    """The workbook's bytes depend only on the plan: every part carries generated_for as its
    timestamp (worksheets go through temporary files whose mtime is 'now')."""
    import io
    import zipfile
    from datetime import date

    from gputeam.catalog import load_catalog
    from gputeam.planning import plan
    from gputeam.scenario import load_example

    p = plan(load_example("finance"), load_catalog(), date(2026, 12, 2), runs=50)
    with zipfile.ZipFile(io.BytesIO(xlsx.render(p))) as z:
        stamps = {info.filename: info.date_time for info in z.infolist()}
    assert any(name.startswith("xl/worksheets/") for name in stamps)
    assert set(stamps.values()) == {(2026, 12, 2, 0, 0, 0)}, stamps
