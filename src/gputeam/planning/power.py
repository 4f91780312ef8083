"""The yearly power saving per GPU that better-run GPUs bring (article §9).

Two bases, chosen by the scenario's ``fleet.power_saving``:

* ``physical`` (default): kW per GPU (the fleet's, else its GPU models', else the catalog's:
  :func:`gputeam.planning.hardware.kw_per_gpu`) x PUE x 8,760 h x price per kWh x the saved share
  (``efficiency_power_share``, the article's 15%), from the fleet's inputs where given and
  the catalog's otherwise;
* ``article``: the article's own figure per GPU ($75,000 for 100 GPUs, §9), which implies a
  power bill of about $5,000 per GPU-year (the power-saving note explains why that is high).
"""

from __future__ import annotations

from gputeam.catalog import Catalog
from gputeam.planning.hardware import kw_per_gpu
from gputeam.scenario import Scenario

HOURS_PER_YEAR = 8760
ARTICLE_LINE = "efficiency (15% power)"


def power_bill_per_gpu_year(scenario: Scenario, catalog: Catalog) -> float:
    """kW per GPU x PUE x 8,760 h x price per kWh (fleet inputs, else the catalog's)."""
    e, f = catalog.economics, scenario.fleet
    kw = kw_per_gpu(scenario, catalog)
    pue = f.pue or e.pue
    price = scenario.kwh_price if scenario.kwh_price is not None else e.usd_per_kwh
    return kw * pue * HOURS_PER_YEAR * price


def article_saving_per_gpu_year(catalog: Catalog) -> float:
    ex = catalog.roi_example
    return ex.returns.get(ARTICLE_LINE, 0.0) / ex.gpus


def saving_per_gpu_year(scenario: Scenario, catalog: Catalog) -> float:
    """The power saving per GPU and year on the scenario's chosen basis."""
    if scenario.fleet.power_saving == "article":
        return article_saving_per_gpu_year(catalog)
    return power_bill_per_gpu_year(scenario, catalog) * catalog.economics.efficiency_power_share
