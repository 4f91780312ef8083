"""The sourcing cluster's structure (issue 8 §7): no import cycle, typed details."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.differences import differences

import gputeam.planning
from gputeam.planning import plan
from gputeam.planning.result import Plan, SourcingDetails
from gputeam.scenario import load_example

from .helpers import person, scenario

PLANNING = Path(gputeam.planning.__file__).parent


def _imports(module: str) -> set[str]:
    """Planning modules ``module`` imports, at the top or inside a function."""
    tree = ast.parse((PLANNING / f"{module}.py").read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("gputeam.planning."):
            out.add(node.module.rsplit(".", 1)[1])
    return out


def test_no_import_cycle_in_the_planning_package():
    """ "The planner's sourcing cluster loses its import cycle": the import graph of
    gputeam.planning, deferred imports included, has no cycle."""
    graph = {p.stem: _imports(p.stem) for p in PLANNING.glob("*.py") if p.stem != "__init__"}
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            assert state.get(nxt) != 1, " -> ".join([*path, node, nxt])
            if nxt not in state:
                visit(nxt, [*path, node])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])


def test_sourcing_details_are_typed(catalog, today):
    p = plan(load_example("finance"), catalog, today, runs=0)
    assert isinstance(p.sourcing.details, SourcingDetails)
    assert p.sourcing.details.solver == "HiGHS" and p.sourcing.details.options > 0
    schema = Plan.model_json_schema()
    details = schema["$defs"]["Sourcing"]["properties"]["details"]
    assert details.get("$ref", "").endswith("/SourcingDetails")
    assert not differences(Plan.model_validate(p.to_json()), p)


def test_conflict_is_typed(catalog, today):
    sc = scenario(
        people=[person("ann", weekly_study_hours=0)],
        constraints={"deadline_month": 3, "hiring_lead_time_months": 4, "contractors": {"available": False}},
    )
    conflict = plan(sc, catalog, today, runs=0).sourcing.details.conflict
    assert conflict is not None
    assert conflict.fixes.deadline is not None and conflict.fixes.deadline > 3
    assert set(conflict.fixes.relax) <= set(conflict.constraints)
