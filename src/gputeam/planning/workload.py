"""Workload: the work a GPU fleet creates, month by month, and the staff it takes (issue 18).

Pure, from the catalog's ``workload`` figures (each public anchor with its source; the rest
gputeam assumptions, all overridable with ``--catalog-extra``) and the fleet:

* unplanned interruptions per GPU-year by the GPU model's generation (Llama 3 on 16,384
  H100: 0.17; a 504-GPU B200 cluster: 0.13; a generation with no public figure takes the
  fallback generation's), or the fleet's own ``interruptions_per_gpu_year``;
* hands-on follow-up hours per interruption (SRE: about 6) and planned maintenance hours,
  both times the ``fleet.automation`` factor (manual 1, scripted 0.6, self-healing 0.3);
  pages are the interruptions automation does not absorb;
* installation work: deployment hours per newly installed GPU, spread in steady state over
  the refresh cycle (``refresh_years``) for sizing, and shown as roll-out hours in the month
  new GPUs arrive;
* fixed service work per site (scheduler, monitoring, user requests, patching);
* on-site hardware work for data-centre technicians: hard failures (Databricks' 1 % a year,
  a parameter separate from interruptions) times the hours per swap, plus the hardware share
  of interruptions (Llama 3: about 78 %) times the on-site hours per hardware interruption.

Where the team does not own the hardware work (an all-cloud fleet, a vendor support
contract, ``support_model: vendor-managed``), the hardware share of interruptions, the swaps
and the installation work belong to the provider: in-house staff keep the rest.

Operations FTE = (incident + maintenance + deployment + service hours) / (productive hours
a year x the operational-work cap; SRE: at most 50 %); technician FTE = on-site hours /
(productive hours x the technicians' hands-on share).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gputeam.catalog import Catalog
from gputeam.catalog.models import WorkloadRates
from gputeam.i18n import N_
from gputeam.planning.calendar import month_start
from gputeam.planning.result import Workload, WorkloadMonth, WorkShare
from gputeam.planning.text import say
from gputeam.scenario import Scenario
from gputeam.scenario.models import Fleet

#: Hours in a year, and 12-hour shifts in a year (SRE: at most 2 incidents a shift).
HOURS_PER_YEAR = 8760
SHIFTS_PER_YEAR = HOURS_PER_YEAR / 12


@dataclass(frozen=True)
class FleetRates:
    """The workload figures of one fleet, per GPU-year (hours) or per site-year."""

    generation: str
    interruptions: float
    factor: float
    own_hardware: bool
    incident_hours: float
    maintenance_hours: float
    deployment_hours: float
    service_hours_per_site: float
    technician_hours: float
    swaps: float
    pages: float
    productive_hours: float
    rates: WorkloadRates

    @property
    def ops_capacity(self) -> float:
        """Operational hours one engineer gives a year: productive hours x the cap."""
        return self.productive_hours * self.rates.operational_share_cap

    @property
    def technician_capacity(self) -> float:
        return self.productive_hours * self.rates.technician_hands_on_share


@dataclass(frozen=True)
class YearWork:
    """The work of a fleet of ``gpus`` GPUs on ``sites`` sites, a year."""

    incident_hours: float
    maintenance_hours: float
    deployment_hours: float
    service_hours: float
    technician_hours: float
    pages: float

    @property
    def ops_hours(self) -> float:
        return self.incident_hours + self.maintenance_hours + self.deployment_hours + self.service_hours

    @property
    def pages_per_week(self) -> float:
        return self.pages / 52

    @property
    def pages_per_shift(self) -> float:
        return self.pages / SHIFTS_PER_YEAR


def owns_hardware(fleet: Fleet) -> bool:
    """Whether the team's own staff do the hardware work (swaps, installs, hardware faults)."""
    return fleet.deployment != "cloud" and not fleet.vendor_support and fleet.support != "vendor-managed"


def generation(catalog: Catalog, fleet: Fleet) -> str:
    gm = catalog.gpu_model(fleet.gpu_model)
    return gm.generation if gm is not None else catalog.workload.fallback_generation


def fleet_rates(scenario: Scenario, catalog: Catalog) -> FleetRates:
    """The per-GPU-year workload figures of the scenario's fleet."""
    w = catalog.workload
    e = catalog.economics
    fleet = scenario.fleet
    gen = generation(catalog, fleet)
    known = w.interruptions_per_gpu_year.get(gen)
    if fleet.interruptions_per_gpu_year is not None:
        ipy = fleet.interruptions_per_gpu_year
    elif known is not None:
        ipy = known
    else:
        ipy = w.interruptions_per_gpu_year.get(w.fallback_generation) or 0.0
    factor = w.automation_factor.get(fleet.automation, 1.0)
    own = owns_hardware(fleet)
    in_house = 1.0 if own else 1.0 - w.hardware_share
    return FleetRates(
        generation=gen,
        interruptions=ipy,
        factor=factor,
        own_hardware=own,
        incident_hours=ipy * in_house * w.hands_on_hours_per_interruption * factor,
        maintenance_hours=w.maintenance_hours_per_gpu_year * factor,
        deployment_hours=(w.deployment_hours_per_gpu / w.refresh_years * factor) if own else 0.0,
        service_hours_per_site=w.service_hours_per_site_week * 52,
        technician_hours=(
            w.hard_failures_per_gpu_year * w.hours_per_hard_failure
            + ipy * w.hardware_share * w.on_site_hours_per_hardware_interruption
        )
        if own
        else 0.0,
        swaps=w.hard_failures_per_gpu_year,
        pages=ipy * in_house * factor,
        productive_hours=e.hours_per_fte_year * (1 - e.leave_and_training_share),
        rates=w,
    )


def year_work(r: FleetRates, gpus: int, sites: int) -> YearWork:
    """A year's work of ``gpus`` GPUs on ``sites`` sites (none without GPUs)."""
    if gpus <= 0:
        return YearWork(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    return YearWork(
        incident_hours=gpus * r.incident_hours,
        maintenance_hours=gpus * r.maintenance_hours,
        deployment_hours=gpus * r.deployment_hours,
        service_hours=sites * r.service_hours_per_site,
        technician_hours=gpus * r.technician_hours,
        pages=gpus * r.pages,
    )


def workload(scenario: Scenario, catalog: Catalog) -> Workload:
    """The fleet's workload, month by month over the horizon, and which roles absorb it."""
    r = fleet_rates(scenario, catalog)
    fleet = scenario.fleet
    w = catalog.workload
    months: list[WorkloadMonth] = []
    before = 0
    for m in range(1, scenario.horizon_months + 1):
        gpus = fleet.gpus_at(m)
        y = year_work(r, gpus, fleet.sites)
        new = max(0, gpus - before)
        before = gpus
        rollout = new * w.deployment_hours_per_gpu * r.factor if r.own_hardware else 0.0
        months.append(
            WorkloadMonth(
                month=m,
                date=month_start(scenario.start, m),
                gpus=gpus,
                interruptions=round(gpus * r.interruptions / 12, 2),
                pages=round(y.pages / 12, 2),
                hardware_swaps=round(gpus * r.swaps / 12 if r.own_hardware else 0.0, 2),
                incident_hours=round(y.incident_hours / 12, 1),
                maintenance_hours=round(y.maintenance_hours / 12, 1),
                deployment_hours=round(y.deployment_hours / 12, 1),
                service_hours=round(y.service_hours / 12, 1),
                rollout_hours=round(rollout, 1),
                technician_hours=round(y.technician_hours / 12, 1),
                operations_fte=round(y.ops_hours / r.ops_capacity, 2),
                technician_fte=round(y.technician_hours / r.technician_capacity, 2),
            )
        )
    return Workload(
        gpu_model=fleet.gpu_model,
        generation=r.generation,
        interruptions_per_gpu_year=r.interruptions,
        interruptions_source=(
            "scenario fleet.interruptions_per_gpu_year"
            if fleet.interruptions_per_gpu_year is not None
            else w.interruptions_source
        ),
        hardware_share=w.hardware_share,
        automation=fleet.automation,
        automation_factor=r.factor,
        support_model=fleet.support,
        own_hardware=r.own_hardware,
        productive_hours_per_fte_year=r.productive_hours,
        operational_share_cap=w.operational_share_cap,
        months=tuple(months),
        absorbed_by=_absorbed_by(r, fleet),
        source=w.source,
    )


def _absorbed_by(r: FleetRates, fleet: Fleet) -> tuple[WorkShare, ...]:
    ops = ("operations-engineer",)
    shares = [
        WorkShare(
            work="incidents",
            roles=ops,
            note_text=say(
                N_(
                    "incident follow-up: operations engineers, escalating to the lead and "
                    "specialists; {share:.0%} of interruptions are hardware"
                ),
                share=r.rates.hardware_share,
            ),
        ),
        WorkShare(work="maintenance", roles=ops),
        WorkShare(work="service", roles=ops),
    ]
    if r.own_hardware:
        shares += [
            WorkShare(work="deployment", roles=(*ops, "datacenter-technician")),
            WorkShare(
                work="hardware",
                roles=("datacenter-technician",),
                note_text=say(
                    N_(
                        "hardware swaps and cable work: data-centre technicians; below "
                        "{fte:g} FTE of it, the colocation's remote hands"
                    ),
                    fte=r.rates.technician_from_fte,
                ),
            ),
        ]
    else:
        shares.append(
            WorkShare(
                work="hardware",
                roles=(),
                note_text=say(
                    N_("hardware faults, swaps and installation: the provider or vendor, not the team")
                ),
            )
        )
    if fleet.support in ("on-call", "staffed-24x7"):
        shares.append(WorkShare(work="out-of-hours", roles=ops))
    return tuple(shares)


def ceil_fte(x: float) -> int:
    """Whole people for ``x`` FTE (a hair of float noise does not add a person)."""
    return math.ceil(round(x, 6))
