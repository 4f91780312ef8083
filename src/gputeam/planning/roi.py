"""ROI: what the training investment returns (article §9).

Returns per year, computed from the scenario's inputs:

* downtime avoided: ``downtime_cost_per_gpu_year`` x GPUs ($100,000 for 100 GPUs, §9);
* contractor avoidance: ``contractor_hours_avoided_per_gpu_year`` x GPUs x (contractor rate
  - employee rate) ($200,000 for 100 GPUs at $300 vs $70 an hour, §9);
* efficiency: GPUs x kW per GPU x PUE x 8,760 h x $/kWh x ``efficiency_power_share`` (the
  article's 15% of power; computed from physical inputs, see the power-saving contradiction);
* faster deployment: ``deployment_speedup_value_per_gpu`` x GPUs deployed in the first
  year ($300,000 for 100 GPUs, §9).

net ROI = (returns - investment) / investment; benefit-cost ratio = returns / investment;
payback = investment / monthly returns.
"""

from __future__ import annotations

from gputeam.catalog import Catalog
from gputeam.planning.power import power_bill_per_gpu_year, saving_per_gpu_year
from gputeam.planning.result import Costs, Roi
from gputeam.scenario import Scenario

HOURS_PER_YEAR = 8760


def _roi(investment_lines: dict[str, float], return_lines: dict[str, float], basis: str,
         notes: tuple[str, ...] = ()) -> Roi:
    investment = sum(investment_lines.values())
    returns = sum(return_lines.values())
    if investment > 0:
        net = (returns - investment) / investment
        bcr = returns / investment
    else:
        net = bcr = 0.0
    payback = investment / (returns / 12) if returns > 0 else None
    return Roi(investment=investment, investment_lines=investment_lines, annual_return=returns,
               return_lines=return_lines, net_roi=net, benefit_cost_ratio=bcr,
               payback_months=payback, basis=basis, notes=notes)


def article_roi(catalog: Catalog) -> Roi:
    """The article's worked example (§9), reproduced exactly."""
    ex = catalog.roi_example
    inv, ret = dict(ex.investment), dict(ex.returns)
    total_inv, total_ret = sum(inv.values()), sum(ret.values())
    notes = (
        f"The article's '{ex.stated_first_year:.0%} first year' is the net ROI: "
        f"({total_ret:,.0f} - {total_inv:,.0f}) / {total_inv:,.0f} = "
        f"{(total_ret - total_inv) / total_inv:.1%}.",
        f"The article's '{ex.stated_ongoing:.0%} ongoing' is the benefit-cost ratio "
        f"{total_ret:,.0f} / {total_inv:,.0f} = {total_ret / total_inv:.3f}, a different measure, "
        "not an ROI.",
    )
    return _roi(inv, ret, basis=f"article §9 worked example ({ex.gpus} GPUs, {ex.engineers} "
                "engineers)", notes=notes)


def compute_roi(scenario: Scenario, catalog: Catalog, costs: Costs) -> Roi:
    e = catalog.economics
    f = scenario.fleet
    year = range(1, min(12, scenario.horizon_months) + 1)
    gpus = max(f.gpus_at(m) for m in year) if year else f.peak_gpus
    first = {x.category: x.first_year for x in costs.lines}
    investment = {"training": first.get("training", 0.0), "exams": first.get("exams", 0.0),
                  "mentoring": first.get("mentoring", 0.0)}
    kw = f.kw_per_gpu or e.kw_per_gpu
    pue = f.pue or e.pue
    price = f.usd_per_kwh if f.usd_per_kwh is not None else e.usd_per_kwh
    rate = scenario.constraints.contractors.rate_usd_h or e.contractor_rate_usd_h
    power_bill = gpus * power_bill_per_gpu_year(scenario, catalog)
    returns = {
        "downtime avoided": gpus * e.downtime_cost_per_gpu_year,
        "contractor avoidance": gpus * e.contractor_hours_avoided_per_gpu_year
        * (rate - e.employee_rate_usd_h),
        "efficiency (power)": gpus * saving_per_gpu_year(scenario, catalog),
        "faster deployment": gpus * e.deployment_speedup_value_per_gpu,
    }
    article_eff = catalog.roi_example.returns.get("efficiency (15% power)", 0.0) / \
        catalog.roi_example.gpus * gpus
    power_note = (
        f"Power bill computed from inputs: {gpus:,} GPUs x {kw:g} kW x PUE {pue:g} x 8,760 h x "
        f"${price:g}/kWh = ${power_bill:,.0f}/year; the article's figure would imply a "
        f"{e.efficiency_power_share:.0%} saving of ${article_eff:,.0f} (article §9; see the "
        "power-saving note).")
    if f.power_saving == "article":
        power_note = (f"Power saving taken from the article (fleet.power_saving: article): "
                      f"${article_eff:,.0f}/year for {gpus:,} GPUs (§9); physical inputs would "
                      f"give {e.efficiency_power_share:.0%} of a ${power_bill:,.0f} power bill, "
                      f"${power_bill * e.efficiency_power_share:,.0f} (see the power-saving note).")
    notes = (
        power_note,
        "net_roi is (returns - investment) / investment; benefit_cost_ratio is returns / "
        "investment (the article's '465% ongoing' is the latter).",
    )
    return _roi({k: round(v, 2) for k, v in investment.items()},
                {k: round(v, 2) for k, v in returns.items()},
                basis=f"computed from the scenario: {gpus:,} GPUs in the first year", notes=notes)
