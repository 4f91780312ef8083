"""Retention levers that cost what they do (article §8, issue 19 item 6).

An attrition reduction is bought, not assumed. The catalog's ``retention_levers`` give each
lever of article §8 (premium pay, equity, stability bonus, career track, mentoring) a cost
(a share of salary a year) and the share of attrition it cuts when fully funded. A
scenario funds levers in two ways:

* its own amounts: ``retention.premium_pay`` funds premium-pay (in proportion to the
  catalog's cost: 10 % premium pay against a 20 % lever is half of it, at most all of it),
  ``retention.retention_bonus`` funds stability-bonus (against the lever's share of the
  team's mean salary);
* ``retention.levers``: each lever listed is taken at its catalog cost; premium-pay is then
  paid as pay (``premium_pay``), every other lever as a retention spend per head and year
  (the lever's share of the team's mean salary), added to ``retention_bonus`` so costs, the
  optimiser and the ROI all charge it.

The funded levers buy ``1 - prod(1 - cut_i * funded_i)``. What the simulation credits:

* ``attrition_reduction`` left out: what the levers buy;
* ``attrition_reduction`` at most what they buy: the scenario's figure (a cautious one);
* more than they buy: only what they buy, with a warning (``retention-unfunded``) naming
  the claim, the credit and the levers. A reduction with no spend at all credits nothing.

:func:`priced` returns the scenario the rest of the plan is computed from (spend and
credited reduction filled in); the plan keeps the user's scenario as given.
"""

from __future__ import annotations

from dataclasses import dataclass

from gputeam.catalog import Catalog
from gputeam.i18n import N_
from gputeam.planning.costs import band_mid, base_salary
from gputeam.planning.result import Warning
from gputeam.planning.text import Money, say
from gputeam.scenario import Scenario


@dataclass(frozen=True)
class RetentionEffect:
    """What a scenario's retention spend buys."""

    funded: tuple[tuple[str, float], ...]  # (lever id, share of it funded, 0-1]
    bought: float  # the attrition reduction the funded levers buy
    claimed: float | None  # retention.attrition_reduction as given
    credited: float  # what the simulation uses
    premium_pay: float  # share of pay above market, as paid
    spend_per_head: float  # retention spend per person a year (bonuses and other levers)
    mean_salary: float  # the team's mean salary the per-head spend is a share of


def mean_salary(scenario: Scenario, catalog: Catalog) -> float:
    """The current team's mean salary (the Level-2 band middle for an empty team)."""
    pay = [base_salary(catalog, p) for p in scenario.people]
    return sum(pay) / len(pay) if pay else band_mid(catalog, 2)


def effect(scenario: Scenario, catalog: Catalog) -> RetentionEffect:
    r = scenario.retention
    levers = catalog.retention_levers
    mean = mean_salary(scenario, catalog)
    funded: dict[str, float] = {}
    premium = r.premium_pay
    spend = r.retention_bonus
    if "premium-pay" in levers:
        lever = levers["premium-pay"]
        if "premium-pay" in r.levers and premium == 0:
            premium = lever.cost
        if premium > 0:
            funded["premium-pay"] = min(premium / lever.cost, 1.0) if lever.cost > 0 else 1.0
    if "stability-bonus" in levers and r.retention_bonus > 0:
        lever = levers["stability-bonus"]
        need = lever.cost * mean
        funded["stability-bonus"] = min(r.retention_bonus / need, 1.0) if need > 0 else 1.0
    for lid in r.levers:
        if lid in funded or lid not in levers:
            continue
        spend += levers[lid].cost * mean
        funded[lid] = 1.0
    keep = 1.0
    for taken, share in funded.items():
        keep *= 1 - levers[taken].attrition_cut * share
    bought = 1 - keep
    claimed = r.attrition_reduction
    credited = bought if claimed is None else min(claimed, bought)
    return RetentionEffect(
        funded=tuple(sorted(funded.items())),
        bought=bought,
        claimed=claimed,
        credited=credited,
        premium_pay=premium,
        spend_per_head=spend,
        mean_salary=mean,
    )


def priced(scenario: Scenario, eff: RetentionEffect) -> Scenario:
    """``scenario`` with the levers' spend and the credited reduction filled in: the scenario
    the costs, the optimiser, the ROI and the simulation are computed from."""
    r = scenario.retention.model_copy(
        update={
            "premium_pay": eff.premium_pay,
            "retention_bonus": eff.spend_per_head,
            "attrition_reduction": eff.credited,
        }
    )
    return scenario.model_copy(update={"retention": r})


def warnings(scenario: Scenario, catalog: Catalog, eff: RetentionEffect) -> tuple[Warning, ...]:
    """``retention-unfunded`` when the scenario claims more attrition reduction than its
    levers buy."""
    if eff.claimed is None or eff.claimed <= eff.bought + 1e-9:
        return ()
    names = ", ".join(lid for lid, _ in eff.funded)
    text = (
        say(
            N_(
                "retention.attrition_reduction {claimed:.0%} is more than the funded levers buy "
                "({bought:.0%}: {levers}, {spend} a head a year besides any premium pay): the "
                "simulation credits {bought:.0%}; add levers (retention.levers) or lower the claim"
            ),
            claimed=eff.claimed,
            bought=eff.bought,
            levers=names,
            spend=Money(amount=eff.spend_per_head, currency=scenario.currency),
        )
        if eff.funded
        else say(
            N_(
                "retention.attrition_reduction {claimed:.0%} is claimed with no retention spend: "
                "no lever is funded (premium pay, bonuses or retention.levers), so the simulation "
                "credits none of it"
            ),
            claimed=eff.claimed,
        )
    )
    return (Warning(code="retention-unfunded", text=text, source="article §8"),)
