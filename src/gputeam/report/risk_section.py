"""The Risk section (issue 3's simulation) as typed tables, and the ROI sensitivity order
the tornado chart shares."""

from __future__ import annotations

import math
from typing import Any

from gputeam.planning.result import Plan
from gputeam.report.tables import Cell, Column, Section, Table

__all__ = ["risk_section", "sensitivity"]


def risk_section(plan: Plan, risk: dict[str, Any]) -> Section:
    tables: list[Table] = []
    head: list[tuple[Any, ...]] = []
    if "p_ready_by_deadline" in risk:
        head.append(("Probability ready by deadline", Cell(risk["p_ready_by_deadline"], "pct")))
    for key in ("p10", "p50", "p90"):
        value = (risk.get("cost_percentiles") or {}).get(key)
        if value is not None:
            head.append((f"Cost {key.upper()}", Cell(value, "money")))
    if isinstance(risk.get("runs"), int):
        head.append(("Simulated runs", Cell(risk["runs"], "int")))
    if isinstance(risk.get("seed"), int):
        head.append(("Random seed", Cell(risk["seed"], "int")))
    tables.append(Table("risk", (Column("Item"), Column("Value")), tuple(head)))
    bands = risk.get("coverage_bands") or {}
    n = max((len(bands.get(k) or ()) for k in ("p10", "p50", "p90")), default=0)

    def band(key: str, i: int) -> Any:
        values = bands.get(key) or ()
        return values[i] if i < len(values) else None

    tables.append(
        Table(
            "risk_coverage",
            (
                Column("Month", "month"),
                Column("Coverage P10", "pct"),
                Column("Coverage P50", "pct"),
                Column("Coverage P90", "pct"),
            ),
            tuple((i + 1, band("p10", i), band("p50", i), band("p90", i)) for i in range(n)),
            title="Coverage by month",
        )
    )
    bus = []
    for b in risk.get("bus_factors") or ():
        by_month = list(b.get("holders_by_month") or ())
        bus.append(
            (
                b.get("domain", ""),
                b.get("holders_now"),
                min(by_month) if by_month else None,
                by_month[-1] if by_month else None,
                b.get("p_zero"),
            )
        )
    tables.append(
        Table(
            "risk_bus",
            (
                Column("Domain"),
                Column("Holders now", "number"),
                Column("Fewest holders (any month)", "number"),
                Column("Holders at end", "number"),
                Column("P(no holder)", "pct"),
            ),
            tuple(bus),
            title="Key-person risk by skill domain",
        )
    )
    sens = tuple(
        (
            s.get("assumption", ""),
            s.get("low_value"),
            s.get("high_value"),
            s.get("npv_low"),
            s.get("npv_high"),
            s.get("roi_low"),
            s.get("roi_high"),
        )
        for s in sensitivity(risk)
    )
    tables.append(
        Table(
            "risk_sensitivity",
            (
                Column("Assumption"),
                Column("Low value", "number"),
                Column("High value", "number"),
                Column("NPV at low", "money"),
                Column("NPV at high", "money"),
                Column("Net ROI at low", "pct"),
                Column("Net ROI at high", "pct"),
            ),
            sens,
            title="ROI sensitivity (the team plan held fixed)",
        )
    )
    return Section("risk", "Risk", tuple(tables))


def sensitivity(risk: dict[str, Any]) -> list[dict[str, Any]]:
    """The sensitivity entries, widest NPV swing first (net ROI swing for entries without
    NPV figures)."""

    def swing(s: dict[str, Any]) -> float:
        key = "npv" if "npv_low" in s else "roi"
        try:
            width = abs(float(s.get(f"{key}_high", 0)) - float(s.get(f"{key}_low", 0)))
        except (TypeError, ValueError):
            return 0.0
        return width if math.isfinite(width) else 0.0

    return sorted((s for s in risk.get("sensitivity") or () if isinstance(s, dict)), key=swing, reverse=True)
