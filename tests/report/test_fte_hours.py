"""Hours per FTE-month have one home (issue 8 §7): the catalog's hours_per_fte_year / 12,
carried in the plan, so an override reaches the report's contractor-FTE line too."""

from __future__ import annotations

import pytest

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.report import html
from gputeam.report.sections import contractor_hours_by_month
from gputeam.scenario import load_example

from .conftest import TODAY


@pytest.mark.parametrize("hours_per_year", [2080, 1800])
def test_contractor_fte_uses_the_catalogs_hours(hours_per_year: float) -> None:
    catalog = load_catalog({"economics": {"hours_per_fte_year": hours_per_year}})
    p = plan(load_example("finance"), catalog, TODAY, runs=0)
    assert p.costs.hours_per_fte_month == hours_per_year / 12
    headcount = next(c for c in html.charts(p)["target"] if c.id == "headcount")
    fte = next(t for t in headcount.figure["data"] if t["name"] == "contractors (FTE)")
    hours = contractor_hours_by_month(p)
    assert any(hours)
    assert fte["y"] == [round(h / (hours_per_year / 12), 2) for h in hours]
