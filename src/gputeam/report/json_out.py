"""JSON output and the published JSON Schemas (plan, scenario)."""

from __future__ import annotations

import json
from typing import Any

from gputeam.planning.result import Plan


def render(plan: Plan) -> bytes:
    return (json.dumps(plan.to_json(), indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def schema(name: str) -> dict[str, Any]:
    """JSON Schema of ``plan`` or ``scenario``."""
    if name == "plan":
        out = Plan.model_json_schema(mode="serialization")
    elif name == "scenario":
        from gputeam.scenario import Scenario

        out = Scenario.model_json_schema(mode="validation")
    else:
        raise KeyError(name)
    out["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    out["$id"] = f"https://gputeam.invalid/schema/{name}.json"
    return out
