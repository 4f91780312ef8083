"""Scenarios: the fleet, people and constraints a plan starts from."""

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

__all__ = ["EXAMPLES", "Constraints", "Contractors", "Fleet", "GpuStep", "HeldCertification",
           "Person", "Retention", "RoiSettings", "Scenario", "catalog_for", "example_text", "load_example",
           "load_scenario", "load_scenario_text", "parse_scenario"]
