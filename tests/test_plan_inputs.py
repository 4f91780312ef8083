"""Plan inputs (issue 9 §4): one validated model for what a plan of an existing team is run
against, with the scenario's own horizon limit; applying it builds a validated Scenario."""

from __future__ import annotations

from datetime import date

import pytest

from gputeam.errors import ScenarioError
from gputeam.scenario import MAX_HORIZON_MONTHS, PlanInputs, Scenario

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
