"""Retention levers cost what they do (issue 19 item 6): an attrition reduction is credited
only up to what its funded levers (article §8) buy, and the levers are charged."""

from __future__ import annotations

import math
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.retention import effect, mean_salary
from gputeam.scenario import Scenario, load_example

TODAY = date(2026, 12, 2)
CATALOG = load_catalog()
LEVERS = ("premium-pay", "equity", "stability-bonus", "career-track", "mentoring")
DOCS = Path(__file__).resolve().parents[2] / "docs"


def finance(**retention: Any) -> Scenario:
    sc = load_example("finance")
    return sc.model_copy(update={"retention": sc.retention.model_copy(update=retention)})


def test_a_reduction_without_spend_is_warned_about_and_not_credited() -> None:
    """Before: attrition_reduction 0.9 with no spend raised finance's P(ready) from 79 % to
    98 %, silently. Now it credits nothing, says so, and the plan is unchanged."""
    base = plan(finance(), CATALOG, TODAY, runs=2000)
    claim = plan(finance(attrition_reduction=0.9), CATALOG, TODAY, runs=2000)
    assert base.risk is not None and claim.risk is not None
    assert claim.risk.p_ready_by_deadline == base.risk.p_ready_by_deadline
    assert claim.costs.horizon == base.costs.horizon
    (w,) = [w for w in claim.warnings if w.code == "retention-unfunded"]
    assert "retention.attrition_reduction 90% is claimed with no retention spend" in w.message
    assert not [w for w in base.warnings if w.code == "retention-unfunded"]


@settings(max_examples=200, deadline=None)
@given(
    levers=st.lists(st.sampled_from(LEVERS), unique=True),
    premium=st.sampled_from([0.0, 0.05, 0.1, 0.2, 0.3]),
    bonus=st.sampled_from([0.0, 2000.0, 9000.0, 30000.0]),
    claimed=st.one_of(st.none(), st.floats(0, 1)),
)
def test_the_credit_is_what_the_spend_buys(
    levers: list[str], premium: float, bonus: float, claimed: float | None
) -> None:
    """Rule: "an attrition reduction is credited only up to what its funded levers buy":
    bought = 1 - prod(1 - cut_i * funded_i); credited = bought when no claim is made, else
    min(claim, bought); no spend buys nothing."""
    sc = finance(
        levers=tuple(levers), premium_pay=premium, retention_bonus=bonus, attrition_reduction=claimed
    )
    eff = effect(sc, CATALOG)
    cat = CATALOG.retention_levers
    keep = 1.0
    for lid, share in eff.funded:
        assert 0 < share <= 1
        keep *= 1 - cat[lid].attrition_cut * share
    assert eff.bought == pytest.approx(1 - keep)
    assert eff.credited == pytest.approx(eff.bought if claimed is None else min(claimed, eff.bought))
    assert eff.credited <= eff.bought + 1e-12
    if not levers and premium == 0 and bonus == 0:
        assert eff.funded == () and eff.bought == 0 and eff.credited == 0
    if premium:
        assert dict(eff.funded)["premium-pay"] == pytest.approx(min(premium / cat["premium-pay"].cost, 1))
    spent = sum(
        cat[lid].cost
        for lid in levers
        if lid not in ("premium-pay", "stability-bonus") or (lid == "stability-bonus" and bonus == 0)
    )
    assert eff.spend_per_head == pytest.approx(bonus + spent * mean_salary(sc, CATALOG))


def test_levers_are_charged_and_credited() -> None:
    """Finance with mentoring and a career track: 8 % of the team's mean salary ($88,200) a
    head a year, charged as retention (5 heads x $7,056 = $35,280 over 12 months), buying
    1 - 0.90 x 0.85 = 23.5 % less attrition."""
    base = plan(finance(), CATALOG, TODAY, runs=2000)
    p = plan(finance(levers=("mentoring", "career-track")), CATALOG, TODAY, runs=2000)
    eff = effect(finance(levers=("mentoring", "career-track")), CATALOG)
    assert eff.mean_salary == pytest.approx(88_200)
    assert eff.spend_per_head == pytest.approx(7_056)
    assert eff.bought == pytest.approx(0.235)
    retention = next(line for line in p.costs.lines if line.category == "retention")
    assert retention.horizon == pytest.approx(35_280)
    assert p.costs.horizon > base.costs.horizon + 35_000
    assert p.risk is not None and base.risk is not None
    assert p.risk.p_ready_by_deadline > base.risk.p_ready_by_deadline
    assert p.scenario.retention.levers == ("mentoring", "career-track")  # kept as given
    assert p.scenario.retention.retention_bonus == 0
    text = re.sub(r"\s+", " ", (DOCS / "planning.md").read_text(encoding="utf-8"))
    assert (
        f"P(ready) {base.risk.p_ready_by_deadline:.1%} without them, "
        f"{p.risk.p_ready_by_deadline:.1%} with them" in text
    )


def test_lever_costs_and_effects_can_be_overridden() -> None:
    """A lever's catalog cost and cut are overridable (--catalog-extra)."""
    cat = load_catalog({"retention_levers": [{"id": "mentoring", "attrition_cut": 0.0, "cost": 0.02}]})
    eff = effect(finance(levers=("mentoring",)), cat)
    assert eff.bought == 0 and eff.spend_per_head == pytest.approx(0.02 * 88_200)
    for lever in CATALOG.retention_levers.values():
        assert "article §8" in lever.source
        assert lever.as_of is not None and 0 < lever.attrition_cut < 1 and 0 < lever.cost <= 0.25
    assert math.isclose(CATALOG.retention_levers["premium-pay"].cost, 0.20)
