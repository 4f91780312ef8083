"""Real plans of the bundled examples, and one carrying a risk simulation."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pytest

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.result import Plan, Risk
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
        "deadline_month": n,
        "readiness_threshold": 0.95,
        "p_ready_by_deadline": 0.83,
        "p_fully_covered": 0.61,
        "mean_cost": base * 1.01,
        "plan_cost": base,
        "plan_cost_percentile": 0.4,
        "cost_drivers": {
            "exam_retakes": 100.0,
            "contractor_backfill": base * 0.02,
            "recruiting": 500.0,
            "salaries": -base * 0.01 - 600.0,
        },
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
                "value": (5000 + 15000) / 2,
                "low_value": 5000,
                "high_value": 15000,
                "roi_low": p.roi.net_roi * 0.6,
                "roi_high": p.roi.net_roi * 1.4,
                "npv_low": (p.roi.npv or 0) * 0.6,
                "npv_high": (p.roi.npv or 0) * 1.4,
            },
            {
                "assumption": "exam pass rate <NCA-AIIO>",
                "value": (0.6 + 0.9) / 2,
                "low_value": 0.6,
                "high_value": 0.9,
                "roi_low": p.roi.net_roi * 0.9,
                "roi_high": p.roi.net_roi * 1.05,
                "npv_low": (p.roi.npv or 0) * 0.9,
                "npv_high": (p.roi.npv or 0) * 1.05,
            },
            {
                "assumption": "attrition",
                "value": (0.05 + 0.2) / 2,
                "low_value": 0.05,
                "high_value": 0.2,
                "roi_low": p.roi.net_roi * 0.8,
                "roi_high": p.roi.net_roi * 1.1,
                "npv_low": (p.roi.npv or 0) * 0.8,
                "npv_high": (p.roi.npv or 0) * 1.1,
            },
        ],
    }
    return p.model_copy(update={"risk": Risk.model_validate(risk)})


def renamed(p: Plan, organisation: str | None = None, name: Callable[[int, str], str] | None = None) -> Plan:
    """The plan with its scenario's organisation and people's names replaced."""
    sc = p.scenario
    people = tuple(
        person.model_copy(update={"name": name(i, person.name)}) if name else person
        for i, person in enumerate(sc.people)
    )
    scenario = sc.model_copy(update={"organisation": organisation or sc.organisation, "people": people})
    return p.model_copy(update={"scenario": scenario})


@pytest.fixture(scope="session")
def bare(plans: dict[str, Plan]) -> dict[str, Plan]:
    """The same plans without a risk section (as with no simulation run)."""
    return {name: p.model_copy(update={"risk": None}) for name, p in plans.items()}


@pytest.fixture(scope="session")
def risk_plan(plans: dict[str, Plan]) -> Plan:
    return with_risk(plans["finance"])
