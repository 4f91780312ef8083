"""Catalog extras and a scenario's ``overrides`` are validated like scenarios (issue 8 §5):
a negative rate, overhead, salary or price is refused with its field path (it used to be
accepted and gave negative costs), and each fault gets one message."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gputeam.catalog import load_catalog
from gputeam.catalog.models import Economics
from gputeam.cli.main import app
from gputeam.errors import CatalogError, InputError, ScenarioError
from gputeam.planning import plan
from gputeam.scenario import example_text, load_scenario_text, parse_scenario

TODAY = date(2026, 12, 2)
NUMBERS = sorted(name for name, f in Economics.model_fields.items() if f.annotation is float)


def refused(extra: dict[str, Any]) -> list[str]:
    with pytest.raises(CatalogError) as info:
        load_catalog(extra, file="extra.yaml")
    return [p.path for p in info.value.problems]


@pytest.mark.parametrize("field", NUMBERS)
def test_a_negative_economics_figure_is_refused_with_its_path(field: str) -> None:
    assert refused({"economics": {field: -1}}) == [f"economics.{field}"]


@pytest.mark.parametrize(
    "extra, path",
    [
        (
            {"levels": [{"number": 2, "salary_usd": {"low": -100_000, "high": 90_000}}]},
            "levels.2.salary_usd.low",
        ),
        ({"courses": [{"id": "fundamentals-dl", "price_usd": -10}]}, "courses.fundamentals-dl.price_usd"),
        (
            {"certifications": [{"id": "nca-aiio", "exam": {"price_usd": -125}}]},
            "certifications.nca-aiio.exam.price_usd",
        ),
        ({"economics": {"attrition_by_level": {2: -0.1}}}, "economics.attrition_by_level[2]"),
        (
            {"roi_example": {"returns": {"reduced downtime": -100_000}}},
            "roi_example.returns.reduced downtime",
        ),
    ],
)
def test_other_negative_figures_are_refused(extra: dict[str, Any], path: str) -> None:
    assert refused(extra) == [path]


def test_scenario_overrides_are_refused_with_the_overrides_path_and_line() -> None:
    text = example_text("finance") + (
        "overrides:\n  economics: {contractor_rate_usd_h: -300, overhead_multiplier: -1}\n"
    )
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, "team.yaml")
    paths = sorted(p.path for p in info.value.problems)
    assert paths == ["overrides.economics.contractor_rate_usd_h", "overrides.economics.overhead_multiplier"]
    lines = text.splitlines()
    for p in info.value.problems:
        assert p.file == "team.yaml" and p.line is not None
        assert lines[p.line - 1].lstrip().startswith("economics:")


def test_catalog_check_refuses_a_negative_rate(tmp_path: Path) -> None:
    extra = tmp_path / "extra.yaml"
    extra.write_text("economics:\n  contractor_rate_usd_h: -300\n", "utf-8")
    result = CliRunner().invoke(app, ["catalog", "check", str(extra)])
    assert result.exit_code == 2
    assert "economics.contractor_rate_usd_h" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("counts, expected", [([-5], 1), ([-5, -6], 2)])
def test_one_message_per_fault(counts: list[int], expected: int) -> None:
    """A negative GPU count used to add 'Tuple should have at least 1 item after
    validation, not 0' for the list it emptied."""
    data = yaml.safe_load(example_text("finance"))
    data["fleet"]["gpus"] = [{"month": 1 + 2 * i, "count": c} for i, c in enumerate(counts)]
    with pytest.raises(InputError) as info:
        parse_scenario(data, "team.yaml")
    problems = info.value.problems
    assert len(problems) == expected
    assert all(p.path.startswith("fleet.gpus[") and p.path.endswith("].count") for p in problems)
    assert not any("at least 1 item" in p.message for p in problems)


def test_an_empty_gpu_list_still_says_it_is_empty() -> None:
    data = yaml.safe_load(example_text("finance"))
    data["fleet"]["gpus"] = []
    with pytest.raises(InputError) as info:
        parse_scenario(data, "team.yaml")
    assert [p.path for p in info.value.problems] == ["fleet.gpus"]


money = st.floats(-1e6, 1e6, allow_nan=False)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rate=money, overhead=st.floats(-3, 3, allow_nan=False), low=money, high=money)
def test_an_accepted_catalog_never_gives_negative_costs(
    rate: float, overhead: float, low: float, high: float
) -> None:
    """Either the extra is refused, or every cost line of the plan is >= 0."""
    extra = {
        "economics": {"contractor_rate_usd_h": rate, "overhead_multiplier": overhead},
        "levels": [{"number": 2, "salary_usd": {"low": low, "high": high}}],
    }
    try:
        catalog = load_catalog(extra)
    except CatalogError as exc:
        assert exc.problems
        return
    p = plan(load_scenario_text(example_text("finance"), catalog=catalog), catalog, TODAY, runs=0)
    assert all(x.horizon >= 0 and x.first_year >= 0 for x in p.costs.lines)
    assert p.costs.horizon >= 0
