"""Plan inputs (issue 9 §4): one validated model for what a plan of an existing team is run
against, with the scenario's own horizon limit; applying it builds a validated Scenario."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from tests.web import conftest as web
from tests.web.conftest import logged_in, token_for

from gputeam.errors import Problem, ScenarioError
from gputeam.scenario import MAX_GPUS, MAX_HORIZON_MONTHS, PlanInputs, Scenario, load_scenario_text

# the app on SQLite and PostgreSQL (the web tests' fixtures)
pg_admin_url, pg_url, sqlite_template = web.pg_admin_url, web.pg_url, web.sqlite_template
db_url, db, world, app = web.db_url, web.db, web.world, web.app

FLEET = {"gpu_model": "H100", "gpus": [{"month": 1, "count": 64}]}


def _team() -> Scenario:
    return Scenario.model_validate(
        {
            "organisation": "Acme",
            "start": date(2027, 1, 1),
            "fleet": FLEET,
            "people": [{"id": "p1", "name": "Ana", "level": 2}],
            "horizon_months": 6,
        }
    )


def _problems(data: dict[str, object]) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as err:
        PlanInputs.parse(data)
    return [(p.path, p.message) for p in err.value.problems]


def test_the_horizon_limit_is_the_scenarios() -> None:
    assert MAX_HORIZON_MONTHS == 120
    assert Scenario.model_fields["horizon_months"].metadata[-1].le == MAX_HORIZON_MONTHS
    assert PlanInputs.parse({"fleet": FLEET, "horizon_months": 120}).horizon_months == 120
    assert [p for p, _ in _problems({"fleet": FLEET, "horizon_months": 121})] == ["horizon_months"]
    assert [p for p, _ in _problems({"fleet": FLEET, "horizon_months": 0})] == ["horizon_months"]


def test_bad_inputs_name_the_field() -> None:
    assert _problems({"fleet": FLEET, "horizon_months": 12, "constraints": {"deadline_month": 13}}) == [
        ("constraints.deadline_month", "beyond horizon_months (12)")
    ]
    assert [p for p, _ in _problems({"fleet": FLEET, "mode": "fast"})] == ["mode"]
    assert [p for p, _ in _problems({"fleet": {"gpus": []}})] == ["fleet.gpus"]
    assert [p for p, _ in _problems({"fleet": FLEET, "colour": "red"})] == ["colour"]
    # None takes the default (older saved inputs)
    assert PlanInputs.parse({"fleet": FLEET, "constraints": None}).constraints.budget is None


def test_apply_to_builds_a_validated_scenario_keeping_the_team() -> None:
    team = _team()
    inputs = PlanInputs.parse(
        {
            "fleet": {"gpus": [{"month": 1, "count": 512}]},
            "constraints": {"deadline_month": 24},
            "horizon_months": 36,
            "mode": "lean",
        }
    )
    out = inputs.apply_to(team)
    assert (out.horizon_months, out.mode, out.deadline) == (36, "lean", 24)
    assert out.fleet.gpus[0].count == 512
    assert out.people == team.people and out.organisation == "Acme"
    assert team.horizon_months == 6  # the team itself is unchanged


def test_changing_one_part_validates_the_whole_again() -> None:
    team = _team()
    inputs = PlanInputs.of(team)
    assert (inputs.horizon_months, inputs.mode, inputs.fleet) == (6, "template", team.fleet)
    assert inputs.changed(mode="lean").apply_to(team).mode == "lean"
    with pytest.raises(ScenarioError) as err:
        inputs.changed(constraints={"deadline_month": 7})
    assert [p.path for p in err.value.problems] == ["constraints.deadline_month"]


# ------------------------------------------------- the limits: one home, every door
# (the scenario models hold them; the API and the plan page re-check nothing by hand)
LIMITS = [
    # (what is refused, as plan inputs, the refused value's path in a scenario file)
    ({"fleet": {"gpus": [{"month": 1, "count": 200_001}]}}, "fleet.gpus[0].count"),
    ({"fleet": {"gpus": [{"month": 1, "count": 8}, {"month": 133, "count": 16}]}}, "fleet.gpus[1].month"),
    ({"fleet": {**FLEET, "gpu_model": "H" * 41}}, "fleet.gpu_model"),
    ({"constraints": {"hiring_lead_time_months": 121}}, "constraints.hiring_lead_time_months"),
    ({"constraints": {"max_hires_per_month": 10_001}}, "constraints.max_hires_per_month"),
    ({"constraints": {"max_in_training": 1_000_001}}, "constraints.max_in_training"),
    ({"constraints": {"budget": 1e12 + 1}}, "constraints.budget"),
]


def _scenario_problem(parts: dict[str, Any]) -> Problem:
    """The one problem a scenario file with ``parts`` (horizon 12) is refused with."""
    data = {"organisation": "Acme", "start": "2027-01-01", "horizon_months": 12, "fleet": FLEET, **parts}
    with pytest.raises(ScenarioError) as err:
        load_scenario_text(json.dumps(data), "team.yaml")
    (problem,) = err.value.problems
    return problem


@pytest.mark.parametrize(("parts", "path"), LIMITS)
def test_the_scenario_models_hold_the_limits(parts: dict[str, Any], path: str) -> None:
    problem = _scenario_problem(parts)
    assert problem.path == path and problem.file == "team.yaml"
    assert [p for p, _ in _problems({"fleet": FLEET, "horizon_months": 12, **parts})] == [path]


def test_values_at_the_limits_are_accepted() -> None:
    inputs = PlanInputs.parse(
        {
            "fleet": {
                "gpu_model": "H" * 40,
                "gpus": [{"month": 1, "count": 8}, {"month": 132, "count": MAX_GPUS}],
            },
            "constraints": {
                "hiring_lead_time_months": 120,
                "max_hires_per_month": 10_000,
                "max_in_training": 1_000_000,
                "budget": 1e12,
            },
            "horizon_months": 12,
        }
    )
    assert inputs.fleet.peak_gpus == MAX_GPUS == 200_000


@pytest.mark.parametrize(("parts", "path"), LIMITS)
def test_a_scenario_file_and_the_api_refuse_the_same_value_alike(
    app: Any, parts: dict[str, Any], path: str
) -> None:
    """The API's body (its fleet and constraints are the scenario's models, the whole then
    checked as PlanInputs) refuses what a scenario file may not hold, with the same message."""
    from fastapi.testclient import TestClient

    expected = _scenario_problem(parts)
    c = TestClient(app)
    c.headers["Authorization"] = "Bearer " + token_for(app, "admin", ["read", "write"])
    body = {"fleet": FLEET, "horizon_months": 12, **parts}
    r = c.post("/api/v1/plans", json=body)
    assert r.status_code == 422, r.text
    problems = r.json()["problems"]
    assert [p["message"] for p in problems] == [expected.message]
    # the path as the API writes it: body.fleet.gpus.0.count (the request) or the inputs'
    wanted = path.replace("[", ".").replace("]", "")
    assert problems[0]["path"].replace("[", ".").replace("]", "").removeprefix("body.") == wanted


@pytest.mark.parametrize(
    ("what_if", "path"),
    [({"gpus": 200_001}, "count"), ({"budget": 2e12}, "constraints.budget")],
)
def test_a_what_if_is_held_to_the_same_limits(app: Any, what_if: dict[str, Any], path: str) -> None:
    from fastapi.testclient import TestClient

    c = TestClient(app)
    c.headers["Authorization"] = "Bearer " + token_for(app, "admin", ["read", "write"])
    r = c.post("/api/v1/plans", json={"what_if": what_if})
    assert r.status_code == 422, r.text
    (problem,) = r.json()["problems"]
    assert problem["path"].endswith(path) and "less than or equal to" in problem["message"]


def test_the_plan_page_shows_the_models_message_beside_the_field(app: Any) -> None:
    expected = _scenario_problem({"fleet": {"gpus": [{"month": 1, "count": 200_001}]}})
    c = logged_in(app, "admin")
    form = {"gpus": "200001", "budget": "2,000,000,000,000", "gpu_model": "H" * 41, "csrf_token": c.csrf}
    r = c.post("/plan", data=form)
    assert r.status_code == 422 and "Target headcount now" not in r.text
    assert f'id="err-gpus" role="alert">GPUs (peak): {expected.message}' in r.text
    assert 'id="err-budget" role="alert">Budget: Input should be less than or equal to' in r.text
    assert 'id="err-gpu_model" role="alert">GPU model: String should have at most 40 characters' in r.text
    assert 'value="200001"' in r.text  # the typed values kept
