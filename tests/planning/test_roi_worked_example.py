"""docs/planning.md's ROI worked example, recomputed from the plan's JSON: the scenario is
read from the document itself and every total its table states is checked."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from gputeam.planning import plan
from gputeam.scenario import load_scenario_text

DOC = Path(__file__).resolve().parents[2] / "docs" / "planning.md"


def _example() -> tuple[str, list[list[str]]]:
    text = DOC.read_text("utf-8")
    after = text.split("<!-- roi-worked-example -->", 1)[1]
    scenario = after.split("```yaml\n", 1)[1].split("```", 1)[0]
    rows = [
        [c.strip() for c in line.strip("|").split("|")]
        for line in after.splitlines()
        if re.match(r"\| (hire-only|managed-service|outsourced) \|", line)
    ]
    return scenario, rows


def _number(cell: str) -> float | None:
    if cell == "n/a":
        return None
    return float(cell.replace(",", "").rstrip("%"))


def test_the_documented_worked_example_is_what_the_plan_computes(catalog: Any, today: Any) -> None:
    text, rows = _example()
    data = plan(load_scenario_text(text, "docs/planning.md"), catalog, today, runs=0).to_json()
    roi = data["roi"]
    by_name = {x["counterfactual"]: x for x in roi["alternatives"]}
    assert [r[0] for r in rows] == ["hire-only", "managed-service", "outsourced"]
    for name, investment, returns, net, payback, npv in rows:
        x = by_name[name]
        assert x["investment"] == pytest.approx(_number(investment), abs=0.01)
        assert x["returns"] == pytest.approx(_number(returns), abs=0.01)
        assert x["net_roi"] * 100 == pytest.approx(_number(net), abs=0.05)
        p = _number(payback)
        assert (
            (x["payback_months"] is None) if p is None else x["payback_months"] == pytest.approx(p, abs=0.005)
        )
        assert x["npv"] == pytest.approx(_number(npv), abs=0.01)
    # the investment lines the text adds up
    lines = roi["investment_lines"]
    assert lines["training"] == 21_200 and lines["recruiting"] == 86_500
    assert lines["study time"] == pytest.approx(14_235, abs=0.01)
    assert lines["hire ramp-up"] == pytest.approx(3 * 18_020.83, abs=0.01)
    # month 4 against hire-only, line by line
    m4 = data["roi"]["months"][3]
    assert m4["returns"]["contractor cost avoided"] == 0
    assert m4["returns"]["hire-only pay avoided"] == pytest.approx(
        (212_500 + 2 * 110_000) * 1.3 / 12, abs=0.01
    )
    assert m4["returns"]["in-house run cost"] == pytest.approx(-(212_500 + 2 * 110_000) * 1.3 / 12, abs=0.01)
    assert m4["returns"]["hire-only building costs avoided"] == pytest.approx(432_500 / 12 * 0.5, abs=0.01)
    assert m4["cash_flow"] == pytest.approx(0, abs=0.01)
    ms = by_name["managed-service"]["return_lines"]
    assert ms["managed-service fees avoided"] == pytest.approx(1_025_809.64, abs=0.01)
    assert ms["faster deployment"] == -60_000 and ms["downtime avoided"] == pytest.approx(-1_666.67)
