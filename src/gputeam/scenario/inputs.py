"""Plan inputs: what a user chooses when planning a team that exists already (the tracker's
live team): the fleet, the constraints, the horizon and the mode. One validated model, so
that a what-if, a saved scenario and the API are held to the same rules as a scenario file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field, ValidationError, model_validator

from gputeam.errors import FieldConflicts, ScenarioError
from gputeam.scenario.models import (
    MAX_HORIZON_MONTHS,
    Constraints,
    Fleet,
    Mode,
    Model,
    Scenario,
    field_names,
    horizon_conflicts,
)


class PlanInputs(Model):
    """The parts of a :class:`Scenario` a plan of an existing team is run against."""

    fleet: Fleet
    constraints: Constraints = Field(default_factory=Constraints)
    horizon_months: int = Field(default=12, ge=1, le=MAX_HORIZON_MONTHS, description="Months to plan.")
    mode: Mode = Field(default="template", description="template (article §5) or lean.")

    @model_validator(mode="after")
    def _within_horizon(self) -> PlanInputs:
        conflicts = horizon_conflicts(self.fleet, self.constraints, self.horizon_months)
        if conflicts:
            raise FieldConflicts(conflicts)
        return self

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> PlanInputs:
        """Validate plan inputs (e.g. as saved, or from a form or the API; a part that is
        None takes its default); raises :class:`ScenarioError` with one problem per bad
        field."""
        from gputeam._yaml import problems_from_validation

        try:
            return cls.model_validate({k: v for k, v in data.items() if v is not None})
        except ValidationError as exc:
            raise ScenarioError(problems_from_validation(exc, {}, None, field_names())) from None

    @classmethod
    def of(cls, scenario: Scenario) -> PlanInputs:
        """The plan inputs a scenario holds."""
        return cls(
            fleet=scenario.fleet,
            constraints=scenario.constraints,
            horizon_months=scenario.horizon_months,
            mode=scenario.mode,
        )

    def changed(self, **parts: Any) -> PlanInputs:
        """These inputs with some ``parts`` replaced (e.g. ``mode="lean"``), validated
        again as a whole."""
        return PlanInputs.parse({**dict(self), **parts})

    def apply_to(self, team: Scenario) -> Scenario:
        """``team`` (its people, currency, retention ...) planned against these inputs: a
        new Scenario, validated as a whole (the team's people, already validated models,
        are not checked again field by field)."""
        fields = {name: getattr(team, name) for name in Scenario.model_fields}
        fields.update(
            fleet=self.fleet, constraints=self.constraints, horizon_months=self.horizon_months, mode=self.mode
        )
        try:
            return Scenario.model_validate(fields)
        except ValidationError as exc:
            from gputeam._yaml import problems_from_validation

            raise ScenarioError(problems_from_validation(exc, {}, None, field_names())) from None
