"""The Plan is typed end to end (issue 8 §7): risk and scenario are models, the published
schema says so, and the JSON reads back into the same Plan."""

from __future__ import annotations

import json
from datetime import date

import pytest

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.result import Plan, Risk
from gputeam.report.json_out import render, schema
from gputeam.scenario import Scenario, load_example


@pytest.mark.parametrize("name", ["finance", "healthcare", "startup"])
def test_plan_json_reads_back_into_the_same_plan(name: str) -> None:
    p = plan(load_example(name), load_catalog(), date(2026, 12, 2), runs=200)
    assert isinstance(p.risk, Risk) and isinstance(p.scenario, Scenario)
    again = Plan.model_validate(json.loads(render(p)))
    assert again == p
    assert again.scenario == load_example(name)


def test_schema_types_risk_and_scenario() -> None:
    s = schema("plan")
    props = s["properties"]
    assert props["scenario"].get("$ref") == "#/$defs/Scenario"
    assert {"$ref": "#/$defs/Risk"} in props["risk"]["anyOf"]
    risk = s["$defs"]["Risk"]
    assert set(risk["properties"]) == set(Risk.model_fields)
    assert risk["properties"]["cost_drivers"] == {"$ref": "#/$defs/CostDrivers"}
    assert set(s["$defs"]["BusFactor"]["properties"]) == {
        "domain",
        "name",
        "holders_now",
        "holders_by_month",
        "p_zero",
    }
