"""`gputeam plan`'s exit status (issue 19 item 3): 3 when no plan meets every constraint,
with the report still written in full."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from gputeam.cli.main import app
from gputeam.cli.plan_cmds import INFEASIBLE_EXIT

UNIVERSITY = """\
organisation: Technische Universität Beispiel
start: 2027-01-01
currency: EUR
usd_rate: 0.92
mode: lean
fleet:
  gpus: [{month: 1, count: 0}, {month: 4, count: 256}]
  interconnect: infiniband
  storage: parallel-fs
  vendor_support: true
people:
  - {id: tu-01, name: Anna Becker, level: 1, skills: {linux: 3, networking: 2}, salary: 62000}
  - {id: tu-02, name: Jonas Weber, level: 1, skills: {linux: 2, automation: 2}, salary: 58000}
constraints:
  deadline_month: 6
  hiring_lead_time_months: 4
  contractors: {available: true, max_share: 1.0}
"""


def run(tmp_path: Path, *args: str) -> tuple[int, dict[str, object]]:
    scenario = tmp_path / "uni.yaml"
    scenario.write_text(UNIVERSITY, encoding="utf-8")
    out = tmp_path / "plan.json"
    result = CliRunner().invoke(
        app, ["plan", str(scenario), "--runs", "0", "--today", "2027-01-01", "-o", str(out), *args]
    )
    return result.exit_code, json.loads(out.read_text(encoding="utf-8"))


def test_an_infeasible_plan_exits_3_and_the_json_is_written(tmp_path: Path) -> None:
    code, plan = run(tmp_path, "--set", "constraints.budget=100000")
    assert INFEASIBLE_EXIT == 3
    assert code == 3
    sourcing = plan["sourcing"]
    assert isinstance(sourcing, dict) and sourcing["status"] == "infeasible"
    assert "a budget of at least EUR" in sourcing["explanation"][0]


def test_a_feasible_plan_exits_0(tmp_path: Path) -> None:
    code, plan = run(tmp_path)
    assert code == 0
    sourcing = plan["sourcing"]
    assert isinstance(sourcing, dict) and sourcing["status"] == "optimal"


def test_an_infeasible_plan_to_stdout_exits_3(tmp_path: Path) -> None:
    scenario = tmp_path / "uni.yaml"
    scenario.write_text(UNIVERSITY, encoding="utf-8")
    result = CliRunner().invoke(
        app,
        ["plan", str(scenario), "--runs", "0", "-f", "json", "--set", "constraints.budget=100000"],
    )
    assert result.exit_code == 3
    assert json.loads(result.stdout)["sourcing"]["status"] == "infeasible"
