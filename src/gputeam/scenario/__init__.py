"""Scenarios: the fleet, people and constraints a plan starts from."""

from gputeam.scenario.inputs import PlanInputs
from gputeam.scenario.load import (
    EXAMPLES,
    catalog_for,
    example_text,
    load_example,
    load_scenario,
    load_scenario_text,
    parse_scenario,
)
from gputeam.scenario.models import (
    MAX_GPUS,
    MAX_HORIZON_MONTHS,
    Constraints,
    Contractors,
    Fleet,
    GpuStep,
    HeldCertification,
    Person,
    Retention,
    RoiSettings,
    Scenario,
)

__all__ = [
    "EXAMPLES",
    "MAX_GPUS",
    "MAX_HORIZON_MONTHS",
    "Constraints",
    "Contractors",
    "Fleet",
    "GpuStep",
    "HeldCertification",
    "Person",
    "PlanInputs",
    "Retention",
    "RoiSettings",
    "Scenario",
    "catalog_for",
    "example_text",
    "load_example",
    "load_scenario",
    "load_scenario_text",
    "parse_scenario",
]
