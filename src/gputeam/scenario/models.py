"""Scenario models: the fleet, the people and the constraints a plan starts from.

Every field is documented (``description``) because the scenario reference in the docs and
the JSON Schema published by ``gputeam schema scenario`` are generated from these models.
Unknown fields are errors, never silently dropped.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from gputeam.catalog.models import RetentionLeverId
from gputeam.errors import FieldConflicts
from gputeam.i18n import N_

Interconnect = Literal["infiniband", "roce", "ethernet"]
StorageKind = Literal["parallel-fs", "gpudirect-storage", "nfs", "object", "san", "local"]
Cooling = Literal["air", "liquid"]
Orchestration = Literal["slurm", "kubernetes", "both", "none"]
Deployment = Literal["on-prem", "cloud", "hybrid"]
StrategyId = Literal["bootcamp", "apprenticeship", "vendor", "internal"]
Mode = Literal["template", "lean"]
PowerSaving = Literal["physical", "article"]
Counterfactual = Literal["managed-service", "hire-only", "outsourced"]
SupportModel = Literal["on-call", "staffed-24x7", "business-hours", "vendor-managed"]
Automation = Literal["manual", "scripted", "self-healing"]


#: The longest plan, in months: scenarios, plan inputs and the API all accept 1 to this.
MAX_HORIZON_MONTHS = 120
#: The most GPUs a plan sizes (more would size millions of slots and plan for minutes).
MAX_GPUS = 200_000
#: How far (months) a GPU step may lie beyond the horizon.
MAX_MONTHS_BEYOND_HORIZON = 120
#: The largest budget (in the scenario's currency).
MAX_BUDGET = 1_000_000_000_000
#: The longest GPU model name.
GPU_MODEL_LONGEST = 40


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GpuStep(Model):
    month: int = Field(ge=1, description="Plan month (1 = the start month) from which this count holds.")
    count: int = Field(ge=0, le=MAX_GPUS, description="GPUs in service from that month on.")


class Fleet(Model):
    gpu_model: str = Field(
        default="H100", max_length=GPU_MODEL_LONGEST, description="GPU model, e.g. H100, B200, MI300X."
    )
    gpus: tuple[GpuStep, ...] = Field(
        min_length=1, description="GPU count over time: a step function by plan month."
    )
    sites: int = Field(default=1, ge=1, description="Data-centre sites.")
    interconnect: Interconnect = Field(default="infiniband", description="GPU fabric.")
    storage: StorageKind = Field(default="nfs", description="Main training storage.")
    cooling: Cooling = Field(default="air", description="Air or liquid cooling.")
    orchestration: Orchestration = Field(default="slurm", description="Workload scheduler.")
    deployment: Deployment = Field(default="on-prem", description="Where the fleet runs.")
    on_call_24x7: bool = Field(
        default=False,
        description="Deprecated: use support_model. true reads as support_model: on-call (a paged "
        "24/7 rotation; it used to mean staffed shifts, now support_model: staffed-24x7).",
    )
    support_model: SupportModel | None = Field(
        default=None,
        description="Who answers outside office hours: on-call (a paged 24/7 rotation), "
        "staffed-24x7 (staffed shifts, NOC seats), business-hours (nobody) or vendor-managed (a "
        "vendor or managed service runs the hardware and out-of-hours response); default: "
        "on-call if on_call_24x7 is true, else business-hours.",
    )
    automation: Automation = Field(
        default="scripted",
        description="How much of the hands-on work automation takes: manual, scripted or "
        "self-healing (drain, requeue and reboot without a person).",
    )
    interruptions_per_gpu_year: float | None = Field(
        default=None,
        ge=0,
        le=10,
        description="Unplanned interruptions per GPU-year; default: the catalog's figure for "
        "the GPU model's generation.",
    )
    compliance: tuple[str, ...] = Field(
        default=(), description="Compliance regimes, e.g. PCI-DSS, HIPAA, SOC 2."
    )
    vendor_support: bool = Field(
        default=False, description="A vendor support contract covers escalations (lean mode)."
    )
    kw_per_gpu: float | None = Field(default=None, gt=0, le=20, description="kW per GPU incl. server share.")
    pue: float | None = Field(default=None, ge=1, le=5, description="Power usage effectiveness.")
    usd_per_kwh: float | None = Field(
        default=None,
        ge=0,
        le=10,
        description="Deprecated: use `price_per_kwh`. A price in US dollars, converted with "
        "`usd_rate` (the plan warns).",
    )
    price_per_kwh: float | None = Field(
        default=None, ge=0, le=10_000, description="Electricity price per kWh, in `currency`."
    )
    power_saving: PowerSaving = Field(
        default="physical",
        description="Basis of the ROI's power saving: physical (kW per GPU x PUE x hours x "
        "price x the saved share) or article (the article's $75,000 per 100 GPUs, §9, which "
        "implies an unusually high power bill).",
    )
    gpu_models: tuple[Annotated[str, Field(min_length=1, max_length=GPU_MODEL_LONGEST)], ...] = Field(
        default=(),
        max_length=8,
        description="Further GPU models running beside gpu_model in a mixed fleet, e.g. "
        "[Gaudi 3] beside H100. gpu_model stays the main model (its vendor's stack and "
        "certifications go into every role); each further model adds its needs (its "
        "vendor's software stack, liquid cooling, rack-scale skills) as people to cover. "
        "Power per GPU is the mean of all the models' unless kw_per_gpu is given.",
    )
    gpu_access_from_month: int | None = Field(
        default=None,
        ge=1,
        description="Plan month from which the team works hands-on on GPUs before its own "
        "fleet runs (a vendor lab or bootcamp on real systems, a cloud sandbox). Experience "
        "in GPU infrastructure accrues only in months with GPUs in service or with this "
        "access; none: only with GPUs in service.",
    )

    @model_validator(mode="after")
    def _support_agrees(self) -> Fleet:
        if self.on_call_24x7 and self.support_model == "business-hours":
            raise FieldConflicts(
                [
                    (
                        ("support_model",),
                        N_("business-hours contradicts on_call_24x7: true (drop on_call_24x7)"),
                        self.support_model,
                    )
                ]
            )
        return self

    @property
    def support(self) -> SupportModel:
        """The support model in force: ``support_model``, else what ``on_call_24x7`` reads as."""
        if self.support_model is not None:
            return self.support_model
        return "on-call" if self.on_call_24x7 else "business-hours"

    @field_validator("gpus")
    @classmethod
    def _ordered(cls, v: tuple[GpuStep, ...]) -> tuple[GpuStep, ...]:
        months = [s.month for s in v]
        if months != sorted(set(months)):
            raise ValueError(N_("months must be strictly increasing, found {months}").format(months=months))
        return v

    def gpus_at(self, month: int) -> int:
        count = 0
        for step in self.gpus:
            if step.month <= month:
                count = step.count
        return count

    @property
    def peak_gpus(self) -> int:
        return max(s.count for s in self.gpus)


class HeldCertification(Model):
    id: str = Field(description="Catalog certification id, e.g. nca-aiio.")
    earned: date = Field(description="Date earned.")
    expires: date | None = Field(default=None, description="Expiry; default from its validity.")

    @model_validator(mode="after")
    def _after_earned(self) -> HeldCertification:
        if self.expires is not None and self.expires < self.earned:
            raise FieldConflicts(
                [
                    (
                        ("expires",),
                        N_("before the date earned ({day})").format(day=self.earned),
                        self.expires.isoformat(),
                    )
                ]
            )
        return self


class Person(Model):
    id: str = Field(min_length=1, description="Stable identifier.")
    name: str = Field(min_length=1, description="Full name.")
    title: str = Field(default="", description="Current job title.")
    background: str = Field(
        default="sysadmin",
        description="Where they come from: sysadmin, network-engineer, storage-admin, "
        "researcher, developer, gpu-engineer, security, facilities ...",
    )
    level: int = Field(default=1, ge=1, le=5, description="Competency level 1-5 (article §3).")
    experience_months: int = Field(default=0, ge=0, description="Months of GPU-infrastructure experience.")
    skills: dict[str, int] = Field(
        default_factory=dict,
        description="Skill domain id to proficiency 0-4 (none, aware, working, proficient, expert).",
    )
    certifications: tuple[HeldCertification, ...] = Field(default=(), description="Certifications held.")
    weekly_study_hours: float = Field(
        default=4, ge=0, le=40, description="Hours a week this person can study."
    )
    salary: float | None = Field(default=None, ge=0, description="Annual salary; default from band.")
    role: str | None = Field(default=None, description="Current role id, if any.")

    @field_validator("skills")
    @classmethod
    def _proficiency(cls, v: dict[str, int]) -> dict[str, int]:
        bad = {k: p for k, p in v.items() if not 0 <= p <= 4}
        if bad:
            raise ValueError(N_("proficiency must be 0-4, found {values}").format(values=bad))
        return v


class Contractors(Model):
    available: bool = Field(default=True, description="Contractors can bridge gaps.")
    max_share: float = Field(
        default=0.5, ge=0, le=1, description="Largest share of target headcount they may cover."
    )
    rate_usd_h: float | None = Field(
        default=None,
        ge=0,
        description="Deprecated: use `rate_h`. A rate in US dollars, converted with `usd_rate` "
        "(the plan warns).",
    )
    rate_h: float | None = Field(
        default=None, ge=0, description="Hourly contractor rate, in `currency`; default catalog."
    )


class Retention(Model):
    premium_pay: float = Field(default=0, ge=0, le=1, description="Pay above market (article §8: 0.15-0.25).")
    certification_bonus: float = Field(
        default=0, ge=0, description="Bonus per certification earned, in `currency`."
    )
    retention_bonus: float = Field(
        default=0, ge=0, description="Annual retention bonus per person, in `currency`."
    )
    attrition_reduction: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="Your assumption: share by which the retention levers cut attrition. It is "
        "credited only up to what the funded levers buy (catalog `retention_levers`); more is "
        "warned about and not credited. Left out: what the levers buy.",
    )
    levers: tuple[RetentionLeverId, ...] = Field(
        default=(),
        description="Retention levers taken (article §8): premium-pay, equity, stability-bonus, "
        "career-track, mentoring. Each is priced and credited at its catalog cost and "
        "attrition cut; `premium_pay` and `retention_bonus` above fund premium-pay and "
        "stability-bonus by their own amounts.",
    )


class SalaryBand(Model):
    low: float = Field(ge=0, description="Lower end of the level's annual salary band.")
    high: float = Field(ge=0, description="Upper end of the level's annual salary band.")

    @model_validator(mode="after")
    def _ordered(self) -> SalaryBand:
        if self.high < self.low:
            raise FieldConflicts(
                [(("high",), N_("below low ({low})").format(low=f"{self.low:g}"), f"{self.high:g}")]
            )
        return self


class Constraints(Model):
    deadline_month: int | None = Field(
        default=None, ge=1, description="Plan month by which the target is covered."
    )
    budget: float | None = Field(default=None, ge=0, le=MAX_BUDGET, description="Budget over the horizon.")
    hiring_lead_time_months: int = Field(
        default=3, ge=0, le=120, description="Months from opening a requisition to the hire starting."
    )
    max_hires_per_month: int = Field(default=3, ge=0, le=10_000, description="Hiring capacity.")
    strategies: tuple[StrategyId, ...] = Field(
        default=("bootcamp", "apprenticeship", "vendor", "internal"),
        description="Training strategies allowed.",
    )
    contractors: Contractors = Field(default_factory=Contractors)
    max_in_training: int | None = Field(
        default=None, ge=1, le=1_000_000, description="At most this many people in training at once."
    )
    discount_rate: float = Field(default=0, ge=0, le=1, description="Annual discount rate.")
    readiness_threshold: float = Field(
        default=0.95,
        gt=0,
        le=1,
        description="Share of the deadline month's target slots (staff plus planned "
        "contractors) a simulated run must cover to count as ready by the deadline.",
    )

    target_p_ready: float | None = Field(
        default=None,
        gt=0,
        lt=1,
        description="Probability of being ready by the deadline (staff, not contractors) the "
        "readiness-optimised plan must reach at the least expected cost; it is shown beside "
        "the cheapest plan, which stays the plan (docs/optimiser.md).",
    )

    prerequisite_strictness: float = Field(
        default=1,
        ge=0,
        le=1,
        description="Share of a certification's stated experience (NCP-AII: 24 months, which "
        "the vendor recommends rather than requires) a person must have before its exam: "
        "1 = all of it, 0 = none.",
    )


class RoiSettings(Model):
    counterfactual: Counterfactual = Field(
        default="hire-only",
        description="The headline alternative the plan's in-house path is compared with: "
        "`managed-service` (the target run by an operated service, priced per slot by level or "
        "per GPU-month), `hire-only` (the target filled by experienced hires at market bands, "
        "bridged by contractors until they arrive, nobody upskilled) or `outsourced` (every "
        "slot at the one contractor rate, the article's §9 framing).",
    )
    alternatives: tuple[Counterfactual, ...] = Field(
        default=("hire-only", "managed-service"),
        description="Alternatives reported beside the headline, side by side (the headline "
        "is always among them).",
    )
    service_rate_h: dict[int, float] = Field(
        default_factory=dict,
        description="Managed-service price per staffed hour by level (1-5), in `currency`; "
        "default the catalog's `economics.managed_service`.",
    )
    service_per_gpu_month: float | None = Field(
        default=None,
        ge=0,
        description="Managed-service price per GPU in service a month, in `currency` (a quote); "
        "when given, the service is priced so instead of per slot.",
    )
    discount_rate: float = Field(
        default=0.08,
        ge=0,
        le=1,
        description="Annual rate at which the ROI's net present value discounts the monthly "
        "cash flows. Default 8%, a gputeam assumption: a common corporate cost of capital "
        "(US OMB Circular A-94, 1992, prescribed 7% real for public cost-benefit analyses); use "
        "your finance team's hurdle rate. `constraints.discount_rate` is separate: it only "
        "weights costs inside the optimiser.",
    )
    power_paid_share: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="Share of the GPUs whose power bill the organisation pays (the efficiency "
        "saving counts only on those). Default from `fleet.deployment`: on-prem 1, cloud 0 "
        "(rented GPUs' power is in the rent), hybrid 0.5.",
    )

    def paid_share(self, deployment: Deployment) -> float:
        if self.power_paid_share is not None:
            return self.power_paid_share
        return {"on-prem": 1.0, "cloud": 0.0, "hybrid": 0.5}[deployment]


class Scenario(Model):
    organisation: str = Field(min_length=1, description="Organisation name.")
    start: date = Field(description="First day of plan month 1.")
    currency: str = Field(
        default="USD",
        min_length=3,
        max_length=3,
        description="ISO 4217 code. Your own amounts (salaries, budget, bonuses) are in this currency.",
    )
    usd_rate: float | None = Field(
        default=None,
        gt=0,
        description="Units of `currency` per US dollar, to convert the catalog's USD figures "
        "(salary bands, prices, rates). Needed for a currency other than USD; without it the "
        "catalog's figures are used unconverted and the plan warns.",
    )
    salary_bands: dict[int, SalaryBand] = Field(
        default_factory=dict,
        description="Regional salary bands by level (1-5), in `currency`; they replace the "
        "catalog's US bands (article §3) for those levels, converted or not.",
    )
    country: str | None = Field(
        default=None,
        min_length=2,
        max_length=2,
        description="ISO 3166-1 alpha-2 code of the country whose salary bands (catalog "
        "`salary_bands`) price hires and promotions. Default: the one country of `currency` "
        "(USD US, GBP GB, KRW KR, INR IN, JPY JP ...); a shared currency such as EUR needs it "
        "stated, else the US bands are converted with `usd_rate` and the plan warns.",
    )
    horizon_months: int = Field(default=12, ge=1, le=MAX_HORIZON_MONTHS, description="Months to plan.")
    mode: Mode = Field(
        default="template",
        description="template (article §5) or lean (vendor-supported, as in the case studies).",
    )
    fleet: Fleet
    people: tuple[Person, ...] = Field(default=(), description="The current team.")
    constraints: Constraints = Field(default_factory=Constraints)
    retention: Retention = Field(default_factory=Retention)
    roi: RoiSettings = Field(
        default_factory=RoiSettings,
        description="How the ROI is measured: the alternative and the discount rate.",
    )
    overrides: dict[str, Any] = Field(
        default_factory=dict, description="Catalog overrides, same shape as a --catalog-extra file."
    )
    case_study: str | None = Field(
        default=None,
        description="The article's case study this scenario models (a catalog "
        "case study id: finance, healthcare, startup); the plan then sets the article's stated "
        "outcomes beside its own.",
    )

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        conflicts: list[tuple[tuple[str | int, ...], str, str | None]] = []
        seen: set[str] = set()
        for i, p in enumerate(self.people):
            if p.id in seen:
                conflicts.append(
                    (("people", i, "id"), N_("person id repeated; ids must be unique"), repr(p.id))
                )
            seen.add(p.id)
        if self.currency == "USD" and self.usd_rate not in (None, 1):
            conflicts.append(
                (("usd_rate",), N_("must be 1 (or left out) when currency is USD"), str(self.usd_rate))
            )
        for lvl in self.salary_bands:
            if not 1 <= lvl <= 5:
                conflicts.append((("salary_bands", lvl), N_("a level from 1 to 5"), str(lvl)))
        for lvl, rate in self.roi.service_rate_h.items():
            if not 1 <= lvl <= 5 or rate < 0:
                conflicts.append(
                    (
                        ("roi", "service_rate_h", lvl),
                        N_("a level from 1 to 5 and a rate of 0 or more"),
                        f"{lvl}: {rate:g}",
                    )
                )
        if (
            self.constraints.contractors.rate_h is not None
            and self.constraints.contractors.rate_usd_h is not None
        ):
            conflicts.append(
                (
                    ("constraints", "contractors", "rate_usd_h"),
                    N_("give rate_h only (rate_usd_h is its deprecated name)"),
                    str(self.constraints.contractors.rate_usd_h),
                )
            )
        if self.fleet.price_per_kwh is not None and self.fleet.usd_per_kwh is not None:
            conflicts.append(
                (
                    ("fleet", "usd_per_kwh"),
                    N_("give price_per_kwh only (usd_per_kwh is its deprecated name)"),
                    str(self.fleet.usd_per_kwh),
                )
            )
        conflicts += horizon_conflicts(self.fleet, self.constraints, self.horizon_months)
        if conflicts:
            raise FieldConflicts(conflicts)
        return self

    @property
    def deadline(self) -> int:
        return self.constraints.deadline_month or self.horizon_months

    @property
    def contractor_rate_h(self) -> float | None:
        """The contractor rate per hour in the scenario's currency: ``rate_h``, else the
        deprecated ``rate_usd_h`` (US dollars) times ``usd_rate``; None: the catalog's."""
        c = self.constraints.contractors
        if c.rate_h is not None:
            return c.rate_h
        return None if c.rate_usd_h is None else c.rate_usd_h * (self.usd_rate or 1)

    @property
    def kwh_price(self) -> float | None:
        """The electricity price per kWh in the scenario's currency: ``price_per_kwh``, else
        the deprecated ``usd_per_kwh`` (US dollars) times ``usd_rate``; None: the catalog's."""
        f = self.fleet
        if f.price_per_kwh is not None:
            return f.price_per_kwh
        return None if f.usd_per_kwh is None else f.usd_per_kwh * (self.usd_rate or 1)


def horizon_conflicts(
    fleet: Fleet, constraints: Constraints, horizon_months: int
) -> list[tuple[tuple[str | int, ...], str, str | None]]:
    """What of the fleet and the constraints the horizon cannot hold: a deadline beyond it,
    a GPU step more than :data:`MAX_MONTHS_BEYOND_HORIZON` months past it (the rule of a
    scenario and of plan inputs alike)."""
    conflicts: list[tuple[tuple[str | int, ...], str, str | None]] = []
    deadline = constraints.deadline_month
    if deadline and deadline > horizon_months:
        conflicts.append(
            (
                ("constraints", "deadline_month"),
                N_("beyond horizon_months ({months})").format(months=horizon_months),
                str(deadline),
            )
        )
    last = horizon_months + MAX_MONTHS_BEYOND_HORIZON
    for i, step in enumerate(fleet.gpus):
        if step.month > last:
            conflicts.append(
                (
                    ("fleet", "gpus", i, "month"),
                    N_("more than {beyond} months beyond horizon_months ({months}); at most {last}").format(
                        beyond=MAX_MONTHS_BEYOND_HORIZON, months=horizon_months, last=last
                    ),
                    str(step.month),
                )
            )
    return conflicts


def field_names() -> list[str]:
    """Every field name in the scenario models (for 'did you mean' hints)."""
    names: set[str] = set()
    for model in (
        GpuStep,
        Fleet,
        HeldCertification,
        Person,
        Contractors,
        Retention,
        Constraints,
        RoiSettings,
        Scenario,
    ):
        names.update(model.model_fields)
    return sorted(names)
