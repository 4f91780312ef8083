"""Real plans of the bundled examples, and one carrying a risk simulation."""

from __future__ import annotations

from datetime import date

import pytest

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.result import Plan
from gputeam.scenario import EXAMPLES, load_example

TODAY = date(2026, 12, 2)


@pytest.fixture(scope="session")
def catalog():  # type: ignore[no-untyped-def]
    return load_catalog()


@pytest.fixture(scope="session")
def plans(catalog) -> dict[str, Plan]:  # type: ignore[no-untyped-def]
    return {name: plan(load_example(name), catalog, TODAY) for name in EXAMPLES}


def with_risk(p: Plan) -> Plan:
    """The plan with a synthetic risk section shaped as issue 3's simulation fills it, with
    values chosen to test the rendering (escaping, ordering)."""
    n = len(p.target.months)
    base = p.costs.horizon
    risk = {
        "runs": 100,
        "seed": 7,
        "p_ready_by_deadline": 0.83,
        "coverage_bands": {
            "p10": [min(1.0, 0.1 * i) for i in range(n)],
            "p50": [min(1.0, 0.15 * i) for i in range(n)],
            "p90": [min(1.0, 0.2 * i + 0.1) for i in range(n)],
        },
        "cost_percentiles": {"p10": base * 0.92, "p50": base, "p90": base * 1.15},
        "cost_samples": [base * (0.85 + 0.003 * i) for i in range(100)],
        "bus_factors": [
            {
                "domain": "infiniband",
                "holders_now": 0,
                "holders_by_month": [0] * (n - 2) + [1, 1],
                "p_zero": 0.21,
            },
            {"domain": "linux", "holders_now": 5, "holders_by_month": [5] * n, "p_zero": 0.0},
        ],
        "sensitivity": [
            {
                "assumption": "downtime cost per hour",
                "low_value": 5000,
                "high_value": 15000,
                "roi_low": p.roi.net_roi * 0.6,
                "roi_high": p.roi.net_roi * 1.4,
            },
            {
                "assumption": "exam pass rate <NCA-AIIO>",
                "low_value": 0.6,
                "high_value": 0.9,
                "roi_low": p.roi.net_roi * 0.9,
                "roi_high": p.roi.net_roi * 1.05,
            },
            {
                "assumption": "attrition",
                "low_value": 0.05,
                "high_value": 0.2,
                "roi_low": p.roi.net_roi * 0.8,
                "roi_high": p.roi.net_roi * 1.1,
            },
        ],
    }
    return p.model_copy(update={"risk": risk})


@pytest.fixture(scope="session")
def bare(plans: dict[str, Plan]) -> dict[str, Plan]:
    """The same plans without a risk section (as with no simulation run)."""
    return {name: p.model_copy(update={"risk": None}) for name, p in plans.items()}


@pytest.fixture(scope="session")
def risk_plan(plans: dict[str, Plan]) -> Plan:
    return with_risk(plans["finance"])
