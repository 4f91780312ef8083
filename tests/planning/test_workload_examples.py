"""Issue 18: the headcounts docs/planning.md derives by hand for the bundled examples cloud,
rackscale and hyperscale, recomputed here from the plan's JSON (its workload figures) and
the catalog's stated rules, not from the sizing code."""

from __future__ import annotations

import json
import math

import pytest

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.scenario import load_example

CATALOG = load_catalog()
W = CATALOG.workload


def by_hand(data: dict, month: int) -> dict[str, int]:
    fleet = data["scenario"]["fleet"]
    wm = data["workload"]["months"][month - 1]
    gpus, sites = wm["gpus"], fleet["sites"]
    ops = max(1, math.ceil(round(wm["operations_fte"], 2)))
    pages_year = wm["pages"] * 12
    per_shift = pages_year / (8760 / 12)
    parallel = max(1, math.ceil(round(per_shift / W.incidents_per_shift_max, 6)))
    if pages_year / 52 < W.secondary_from_pages_per_week:
        rotation = round(1 / W.oncall_share_cap) * parallel
    elif sites == 1:
        rotation = W.rotation_primary_secondary_one_site * parallel
    else:
        rotation = W.rotation_per_site_multi_site * sites * parallel
    team = {"operations-engineer": max(ops, rotation)}
    on_prem = fleet["deployment"] != "cloud"
    for rule in W.specialists:
        if gpus < rule.from_gpus or (rule.compliance and not fleet["compliance"]):
            continue
        if not all(fleet[k] in v for k, v in rule.when.items()) or not on_prem:
            continue
        n = max(1, math.ceil(gpus / rule.gpus_per_person), rule.per_site * sites)
        team[rule.role] = max(team.get(rule.role, 0), n)
    if on_prem and wm["technician_fte"] >= W.technician_from_fte:
        team["datacenter-technician"] = max(math.ceil(wm["technician_fte"] - 0.005), sites)
    engineers = sum(team.values())
    team["infrastructure-lead"] = max(1, math.ceil(engineers / W.span_of_control))
    if team["infrastructure-lead"] >= 2:
        team["infrastructure-architect"] = math.ceil(team["infrastructure-lead"] / W.span_of_control)
    return team


@pytest.mark.parametrize(
    ("name", "month", "total"),
    [("cloud", 12, 5), ("rackscale", 4, 13), ("rackscale", 18, 27), ("hyperscale", 12, 72)],
)
def test_examples_headcounts_by_hand(name, month, total, today):
    data = json.loads(plan(load_example(name), CATALOG, today, runs=0).model_dump_json())
    slots = {s["role"]: s["count"] for s in data["target"]["months"][month - 1]["slots"]}
    assert slots == by_hand(data, month)
    assert sum(slots.values()) == total  # the figure docs/planning.md states
