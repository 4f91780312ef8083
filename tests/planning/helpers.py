"""Builders for small scenarios used by the planning tests."""

from __future__ import annotations

from typing import Any

from gputeam.scenario import Scenario, parse_scenario


def scenario(**overrides: Any) -> Scenario:
    data: dict[str, Any] = {
        "organisation": "Test Org",
        "start": "2027-01-01",
        "horizon_months": 12,
        "mode": "template",
        "fleet": {"gpus": [{"month": 1, "count": 64}], "interconnect": "infiniband", "storage": "nfs"},
        "people": [],
        "constraints": {"deadline_month": 6, "hiring_lead_time_months": 3},
    }
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(data.get(key), dict):
            data[key] = {**data[key], **value}
        else:
            data[key] = value
    return parse_scenario(data, "<test>")


def person(pid: str, **kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": pid, "name": pid.title(), "level": 1, "skills": {}, "weekly_study_hours": 6}
    base.update(kw)
    return base
