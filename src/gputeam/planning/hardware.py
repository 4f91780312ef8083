"""The hardware: what the fleet's GPU models ask of the plan (power, skills, certifications).

A fleet names its main GPU model (``fleet.gpu_model``) and, in a mixed fleet, further models
(``fleet.gpu_models``); each name resolves to a catalog GPU model (``gpus.yaml``: vendor,
generation, power, rack scale, cooling) and its vendor to a catalog vendor stack
(``vendors.yaml``: the vendor's software-stack skill domain and the certifications that mark
each level). Rules:

1. Power: ``fleet.kw_per_gpu`` when given; otherwise the mean wall power per GPU of the
   fleet's known models (a GB200 NVL72 is 1.8 kW, an H100 1.3 kW); with no known model, the
   catalog's economics default (and a warning names the unknown model).
2. Roles name NVIDIA's stack (CUDA environments and drivers) and NVIDIA's certifications
   (article §4, §5). On a fleet whose main model is another vendor's, the stack domain is
   that vendor's (ROCm for AMD Instinct, the Gaudi software for Intel) and each certification
   becomes the vendor's counterpart (``replaces``: NCP-AII becomes the ROCm Professional)
   or is dropped where none exists (Intel publishes no Gaudi certification: the plan says so).
   The levels' certifications (Level 2: an Associate ...) are the main vendor's.
3. Coverage needs the hardware adds, each at proficiency 3 for at least two people and one
   per site (as liquid cooling, article §2, §10): every further vendor's stack in a mixed
   fleet; NVLink switch / rack-scale skills for a rack-scale model (NVL72) and liquid cooling
   for a liquid-only model on premises (hybrid too), even where ``fleet.cooling`` says air.
4. Experience in GPU infrastructure accrues only in plan months in which the organisation
   runs GPUs (``fleet.gpus_at(month) > 0``) or its team works hands-on on GPUs before
   (``fleet.gpu_access_from_month``: a vendor lab, a cloud sandbox): a person's level and an
   exam's minimum experience wait for those months; a hire brings the experience of their
   level.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date

from gputeam.catalog import Catalog
from gputeam.catalog.models import GpuModel, GpuVendorStack
from gputeam.i18n import N_
from gputeam.planning.calendar import add_months, month_of
from gputeam.planning.result import DomainCover, Warning
from gputeam.planning.text import say
from gputeam.scenario import Scenario
from gputeam.scenario.models import Fleet

#: The vendor the catalog's roles and templates are written for (article §4, §5).
ROLE_VENDOR = "nvidia"
#: The stack domain the roles name when the catalog has no vendor stacks.
ROLE_STACK_DOMAIN = "cuda-drivers"
#: Coverage the hardware asks for: proficiency and the fewest people (one per site above).
COVER_PROFICIENCY = 3
COVER_PEOPLE_MIN = 2
#: Months an exam waits when the experience it asks for is never gained (no GPUs ever).
EXPERIENCE_LOOKAHEAD = 240


@dataclass(frozen=True)
class Hardware:
    """The fleet's GPU models as the catalog knows them."""

    models: tuple[GpuModel, ...]  # known models, the main one first when known
    unknown: tuple[str, ...]  # names the catalog does not know
    main: GpuModel | None  # the model ``fleet.gpu_model`` names, if known
    main_vendor: str  # its vendor (NVIDIA when unknown: the roles' vendor)

    @property
    def vendors(self) -> tuple[str, ...]:
        out = [self.main_vendor]
        for m in self.models:
            if m.vendor not in out:
                out.append(m.vendor)
        return tuple(out)


def fleet_hardware(fleet: Fleet, catalog: Catalog) -> Hardware:
    names = (fleet.gpu_model, *fleet.gpu_models)
    models: list[GpuModel] = []
    unknown: list[str] = []
    for name in names:
        m = catalog.gpu_model(name)
        if m is None:
            if name not in unknown:
                unknown.append(name)
        elif m not in models:
            models.append(m)
    main = catalog.gpu_model(fleet.gpu_model)
    return Hardware(
        models=tuple(models),
        unknown=tuple(unknown),
        main=main,
        main_vendor=main.vendor if main is not None else ROLE_VENDOR,
    )


def kw_per_gpu(scenario: Scenario, catalog: Catalog) -> float:
    """Wall power per GPU before PUE: the scenario's, else the fleet's models' mean, else
    the catalog default."""
    f = scenario.fleet
    if f.kw_per_gpu:
        return f.kw_per_gpu
    models = fleet_hardware(f, catalog).models
    if models:
        return sum(m.kw_per_gpu for m in models) / len(models)
    return catalog.economics.kw_per_gpu


def _stack(catalog: Catalog, vendor: str) -> GpuVendorStack | None:
    return catalog.gpu_vendors.get(vendor)


def _role_stack_domain(catalog: Catalog) -> str:
    s = _stack(catalog, ROLE_VENDOR)
    return s.stack_domain if s is not None else ROLE_STACK_DOMAIN


@dataclass(frozen=True)
class LevelCertifications:
    """The certifications that mark each level (any one of), for the fleet's main vendor,
    and the one a network specialist prefers."""

    by_level: Mapping[int, tuple[str, ...]]
    network: str | None

    def at(self, level: int) -> tuple[str, ...]:
        return self.by_level.get(level, ())


def level_certifications(catalog: Catalog, fleet: Fleet | None = None) -> LevelCertifications:
    """The main vendor's level certifications (the roles' vendor without a fleet)."""
    vendor = fleet_hardware(fleet, catalog).main_vendor if fleet is not None else ROLE_VENDOR
    s = _stack(catalog, vendor)
    if s is None:
        return LevelCertifications(by_level={}, network=None)
    return LevelCertifications(by_level=s.level_certifications, network=s.network_certification)


def slot_needs(
    catalog: Catalog,
    fleet: Fleet,
    domains: Mapping[str, int],
    certifications: tuple[tuple[str, ...], ...],
) -> tuple[dict[str, int], tuple[tuple[str, ...], ...]]:
    """A slot's domains and certifications for the fleet's main vendor (rule 2)."""
    vendor = fleet_hardware(fleet, catalog).main_vendor
    stack = _stack(catalog, vendor)
    if vendor == ROLE_VENDOR or stack is None:
        return dict(domains), certifications
    role_stack = _role_stack_domain(catalog)
    out: dict[str, int] = {}
    for d, p in domains.items():
        to = stack.stack_domain if d == role_stack else d
        out[to] = max(out.get(to, 0), p)
    groups: list[tuple[str, ...]] = []
    for group in certifications:
        mapped: list[str] = []
        for cid in group:
            swap: str | None = stack.replaces.get(cid, cid)
            if swap is not None and swap not in mapped:
                mapped.append(swap)
        if mapped and tuple(mapped) not in groups:
            groups.append(tuple(mapped))
    return out, tuple(groups)


def coverage(catalog: Catalog, fleet: Fleet) -> Iterator[DomainCover]:
    """The coverage needs the fleet's hardware adds (rule 3)."""
    hw = fleet_hardware(fleet, catalog)
    people = max(COVER_PEOPLE_MIN, fleet.sites)
    on_prem = fleet.deployment in ("on-prem", "hybrid")
    for vendor in hw.vendors[1:]:
        stack = _stack(catalog, vendor)
        if stack is None or stack.stack_domain not in catalog.domains:
            continue
        models = tuple(m.name for m in hw.models if m.vendor == vendor)
        yield DomainCover(
            domain=stack.stack_domain,
            proficiency=COVER_PROFICIENCY,
            people=people,
            rule_text=say(
                N_(
                    "mixed fleet: {models} run on {vendor}'s software stack, so at least two "
                    "people and one per site able to run it (gputeam assumption)"
                ),
                models=models,
                vendor=stack.name,
            ),
        )
    rack = tuple(m.name for m in hw.models if m.rack_scale)
    if rack and on_prem and "nvlink-rack-scale" in catalog.domains:
        yield DomainCover(
            domain="nvlink-rack-scale",
            proficiency=COVER_PROFICIENCY,
            people=people,
            rule_text=say(
                N_(
                    "{models}: rack-scale systems with NVLink switch trays, so at least two "
                    "people and one per site able to run them (gputeam assumption)"
                ),
                models=rack,
            ),
        )
    liquid = tuple(m.name for m in hw.models if m.cooling == "liquid")
    if liquid and on_prem and fleet.cooling != "liquid" and "liquid-cooling" in catalog.domains:
        yield DomainCover(
            domain="liquid-cooling",
            proficiency=COVER_PROFICIENCY,
            people=people,
            rule_text=say(
                N_(
                    "{models}: liquid-cooled only, so at least two people and one per site "
                    "able to run liquid cooling (article §2, §10)"
                ),
                models=liquid,
            ),
        )


def warnings(scenario: Scenario, catalog: Catalog) -> Iterator[Warning]:
    """What the plan says about the hardware: unknown models, vendors without a public
    certification (or with one still opening), a liquid-only model on an 'air' fleet."""
    fleet = scenario.fleet
    hw = fleet_hardware(fleet, catalog)
    if hw.unknown:
        yield Warning(
            code="unknown-gpu-model",
            text=say(
                N_(
                    "GPU model {models} is not in the catalog: planned as an NVIDIA GPU at "
                    "{kw:g} kW per GPU; add it to the catalog's gpu_models with "
                    "--catalog-extra for its own power and skills"
                ),
                models=hw.unknown,
                kw=kw_per_gpu(scenario, catalog),
            ),
        )
    for vendor in hw.vendors:
        stack = _stack(catalog, vendor)
        if stack is None or not stack.certification_note:
            continue
        yield Warning(
            code="gpu-vendor-certifications",
            text=say(
                N_("{models}: {note}"),
                models=tuple(m.name for m in hw.models if m.vendor == vendor),
                note=stack.certification_note,
            ),
            source=stack.source,
        )
    first = first_gpu_month(fleet)
    if fleet.gpu_access_from_month is not None and first is not None:
        first = min(first, fleet.gpu_access_from_month)
    if first is not None and first > 1:
        yield Warning(
            code="gpus-arrive-late",
            text=say(
                N_(
                    "no GPUs run before month {month}: experience in GPU infrastructure "
                    "accrues only from then, so people who still need experience for their "
                    "level are ready no sooner than that allows (a hire brings theirs; "
                    "fleet.gpu_access_from_month states hands-on access before the fleet)"
                ),
                month=first,
            ),
        )
    liquid = tuple(m.name for m in hw.models if m.cooling == "liquid")
    if liquid and fleet.cooling != "liquid" and fleet.deployment != "cloud":
        yield Warning(
            code="liquid-cooled-gpu-model",
            text=say(
                N_(
                    "{models}: liquid-cooled only, but fleet.cooling is {cooling}: the plan "
                    "asks for liquid-cooling skills"
                ),
                models=liquid,
                cooling=fleet.cooling,
            ),
        )


def first_gpu_month(fleet: Fleet) -> int | None:
    """The first plan month in which the fleet runs GPUs (None: it never does)."""
    return next((s.month for s in fleet.gpus if s.count > 0), None)


def gains_experience(fleet: Fleet, month: int) -> bool:
    """Whether plan month ``month`` adds GPU-infrastructure experience (rule 4): GPUs in
    service, or the team's hands-on access before them (``fleet.gpu_access_from_month``)."""
    access = fleet.gpu_access_from_month
    return fleet.gpus_at(month) > 0 or (access is not None and month >= access)


@dataclass(frozen=True)
class Experience:
    """The plan months that add experience (rule 4) as ordered, disjoint spans (first, last;
    None: open-ended), from the GPU steps and the access month: built once per roadmap, so
    counting is a few spans, not a loop over months."""

    spans: tuple[tuple[int, int | None], ...]

    @classmethod
    def of(cls, fleet: Fleet) -> Experience:
        raw: list[tuple[int, int | None]] = []
        steps = fleet.gpus
        for i, step in enumerate(steps):
            if step.count > 0:
                raw.append((step.month, steps[i + 1].month - 1 if i + 1 < len(steps) else None))
        if fleet.gpu_access_from_month is not None:
            raw.append((fleet.gpu_access_from_month, None))
        raw.sort(key=lambda r: r[0])
        out: list[tuple[int, int | None]] = []
        for a, b in raw:
            if out and (out[-1][1] is None or a <= (out[-1][1] or 0) + 1):
                last = out[-1][1]
                out[-1] = (out[-1][0], None if last is None or b is None else max(last, b))
            else:
                out.append((a, b))
        return cls(spans=tuple(out))

    def between(self, first: int, last: int) -> int:
        """Months from ``first`` to ``last`` (inclusive) that add experience."""
        got = 0
        for a, b in self.spans:
            lo, hi = max(a, first), last if b is None else min(b, last)
            got += max(0, hi - lo + 1)
        return got

    def month(self, months: int, from_month: int = 1) -> int | None:
        """The plan month by whose end ``months`` months of experience have accrued from
        ``from_month`` on (``from_month - 1`` when none is needed; None: never)."""
        if months <= 0:
            return from_month - 1
        need = months
        for a, b in self.spans:
            lo = max(a, from_month)
            if b is not None and b < lo:
                continue
            if b is None or b - lo + 1 >= need:
                return lo + need - 1
            need -= b - lo + 1
        return None

    def date(self, plan_start: date, since: date, months: int) -> date | None:
        """The first day by which ``months`` months of experience have accrued since ``since``."""
        m = self.month(months, max(1, month_of(plan_start, since)))
        return None if m is None else max(since, add_months(plan_start, m))


def experience_between(fleet: Fleet, first: int, last: int) -> int:
    """Months from ``first`` to ``last`` (inclusive) that add experience (rule 4)."""
    return Experience.of(fleet).between(first, last)


def experience_month(fleet: Fleet, months: int, from_month: int = 1) -> int | None:
    """:meth:`Experience.month` for ``fleet``."""
    return Experience.of(fleet).month(months, from_month)
