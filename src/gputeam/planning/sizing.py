"""Sizing: the target team by month (role x level x count), each count with its rule.

Two modes (the staffing-density contradiction, article §5 and §7):

* ``template``: the article's team templates (§5) inside their GPU ranges; beyond 1,000
  GPUs each role of the large template grows as ``count x (GPUs / 1000) ^ exponent``
  (exponents in the catalog's economics, a gputeam assumption).
* ``lean``: vendor-supported staffing as in the case studies (§7): one person per
  ``gpus_per_engineer_lean`` GPUs (80: 400 GPUs / 5 people), or per
  ``gpus_per_engineer_vendor_supported`` (100: 500 H100s / 5 engineers) with a vendor
  support contract, which also covers Level-4+ escalations, so in-house slots then need
  Level 2 and one proficiency step less than the role's full need.

Fleet features add needs in both modes: InfiniBand or RoCE changes the network
specialist's fabric skill; parallel file systems / GPUDirect Storage need a storage
specialist; liquid cooling, cloud or hybrid deployment need people who hold those skills;
compliance needs a security specialist; a 24/7 rotation needs enough operations staff to
cover 168 hours a week after leave and training.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from gputeam.catalog import Catalog
from gputeam.catalog.models import Template
from gputeam.planning.calendar import month_start
from gputeam.planning.result import DomainCover, Target, TargetMonth, TargetSlot
from gputeam.scenario import Scenario

PARALLEL_STORAGE = ("parallel-fs", "gpudirect-storage")
LEVEL_CERTS: dict[int, tuple[str, ...]] = {2: ("nca-aiio",), 3: ("ncp-aii", "ncp-ain", "ncp-aio"),
                                           4: ("ncp-aii", "ncp-aio")}


def size(scenario: Scenario, catalog: Catalog) -> Target:
    """The target team for every month of the horizon."""
    cache: dict[int, TargetMonth] = {}
    months = []
    for m in range(1, scenario.horizon_months + 1):
        gpus = scenario.fleet.gpus_at(m)
        if gpus not in cache:
            cache[gpus] = size_for(scenario, catalog, gpus, 1)
        tm = cache[gpus]
        months.append(tm.model_copy(update={"month": m, "date": month_start(scenario.start, m)}))
    return Target(mode=scenario.mode, months=tuple(months), assumptions=assumptions(scenario, catalog))


def assumptions(scenario: Scenario, catalog: Catalog) -> dict[str, float | str]:
    e = catalog.economics
    return {
        "gpus_per_engineer_lean": e.gpus_per_engineer_lean,
        "gpus_per_engineer_vendor_supported": e.gpus_per_engineer_vendor_supported,
        "oncall_people_per_rotation": float(oncall_people(catalog)),
        "oncall_hours_per_week": e.oncall_hours_per_week,
        "shift_hours_per_week": e.shift_hours_per_week,
        "leave_and_training_share": e.leave_and_training_share,
        "templates": ", ".join(f"{t.id} {t.gpus.low:g}-{t.gpus.high:g}"
                               for t in catalog.templates.values()),
    }


def oncall_people(catalog: Catalog) -> int:
    e = catalog.economics
    return math.ceil(e.oncall_hours_per_week / (e.shift_hours_per_week
                                                 * (1 - e.leave_and_training_share)))


def template_for(catalog: Catalog, gpus: int) -> Template:
    by_size = sorted(catalog.templates.values(), key=lambda t: t.gpus.high)
    for t in by_size:
        if gpus <= t.gpus.high:
            return t
    return by_size[-1]


def size_for(scenario: Scenario, catalog: Catalog, gpus: int, month: int) -> TargetMonth:
    """The target team for one GPU count."""
    date = month_start(scenario.start, month)
    if gpus <= 0:
        return TargetMonth(month=month, date=date, gpus=0, basis="none", slots=())
    template = template_for(catalog, gpus)
    if scenario.mode == "lean":
        counts, basis = _lean_counts(scenario, catalog, gpus)
    else:
        counts, basis = _template_counts(catalog, template, gpus), template.id
    counts = _feature_counts(scenario, catalog, counts)
    relaxed = scenario.mode == "lean" and scenario.fleet.vendor_support
    slots = tuple(_slot(scenario, catalog, template, role, n, lmin, lmax, rule, relaxed)
                  for role, (n, lmin, lmax, rule) in counts.items() if n > 0)
    return TargetMonth(month=month, date=date, gpus=gpus, basis=basis, slots=slots,
                       coverage=tuple(_coverage(scenario, gpus)))


Counts = dict[str, tuple[int, int, int, str]]  # role -> (count, level_min, level_max, rule)


def _template_counts(catalog: Catalog, template: Template, gpus: int) -> Counts:
    counts: Counts = {}
    scale = gpus / 1000
    for s in template.slots:
        if gpus > template.gpus.high and template.gpus.high >= 1000:
            exp = catalog.economics.template_scale_exponent.get(s.role, 1.0)
            n = math.ceil(s.count * scale ** exp)
            rule = (f"{template.id} template scaled beyond 1,000 GPUs: "
                    f"{s.count} x ({gpus:,}/1,000)^{exp:g} = {n}")
        else:
            n = s.count
            rule = f"{template.name} (article §5): {s.count}"
        counts[s.role] = (n, s.level_min, s.level_max, rule)
    return counts


def _lean_counts(scenario: Scenario, catalog: Catalog, gpus: int) -> tuple[Counts, str]:
    e = catalog.economics
    fleet = scenario.fleet
    density = e.gpus_per_engineer_vendor_supported if fleet.vendor_support else e.gpus_per_engineer_lean
    total = max(2, math.ceil(gpus / density))
    why = (f"lean: {gpus:,} GPUs / {density:g} GPUs per person"
           f"{' (vendor-supported, article §7A)' if fleet.vendor_support else ' (article §7B)'}"
           f" = {total}")
    counts: Counts = {}
    left = total
    if not fleet.vendor_support:
        counts["infrastructure-lead"] = (1, 4, 4, why + "; one Level-4 lead (article §7B, §7C)")
        left -= 1
    if fleet.interconnect == "infiniband" and left >= 2:
        counts["network-specialist"] = (1, 3, 4, why + "; InfiniBand needs a network specialist")
        left -= 1
    if fleet.storage in PARALLEL_STORAGE and left >= 2:
        counts["storage-specialist"] = (1, 3, 4, why + "; parallel FS / GPUDirect Storage "
                                        "needs a storage specialist")
        left -= 1
    if left > 0:
        counts["operations-engineer"] = (left, 2, 3, why + "; the rest operations engineers")
    return counts, "lean"


def _feature_counts(scenario: Scenario, catalog: Catalog, counts: Counts) -> Counts:
    fleet = scenario.fleet
    out = dict(counts)
    if fleet.storage in PARALLEL_STORAGE and "storage-specialist" not in out and scenario.mode == "template":
        out["storage-specialist"] = (1, 3, 4, f"fleet storage is {fleet.storage}: one storage "
                                     "specialist (article §2)")
    if fleet.interconnect in ("infiniband", "roce") and "network-specialist" not in out \
            and scenario.mode == "template":
        out["network-specialist"] = (1, 3, 4, f"{fleet.interconnect} fabric: one network specialist")
    if fleet.compliance and "security-specialist" not in out:
        out["security-specialist"] = (1, 4, 4, "compliance (" + ", ".join(fleet.compliance)
                                      + "): one security specialist (article §5, §10)")
    if fleet.on_call_24x7:
        need = oncall_people(catalog) * fleet.sites
        ops_roles = [r for r in out if catalog.roles[r].operations]
        have = sum(out[r][0] for r in ops_roles)
        if have < need:
            n, lmin, lmax, rule = out.get("operations-engineer", (0, 2, 3, ""))
            e = catalog.economics
            add = need - have
            out["operations-engineer"] = (
                n + add, lmin, lmax,
                (rule + "; " if rule else "") + f"24/7 on-call: {e.oncall_hours_per_week:g} h/week"
                f" / ({e.shift_hours_per_week:g} h x (1 - {e.leave_and_training_share:g} leave and "
                f"training)) = {oncall_people(catalog)} operations staff per site x "
                f"{fleet.sites} site(s), +{add}")
    return out


def _slot(scenario: Scenario, catalog: Catalog, template: Template, role_id: str, count: int,
          lmin: int, lmax: int, rule: str, relaxed: bool) -> TargetSlot:
    role = catalog.roles[role_id]
    domains = {n.domain: n.proficiency for n in role.domains}
    if role_id == "network-specialist" and scenario.fleet.interconnect != "infiniband":
        need = domains.pop("infiniband", 3)
        domains["roce-ethernet"] = need
    certs = _certs_for(catalog, template, role_id)
    if relaxed:
        domains = {d: max(1, p - 1) for d, p in domains.items()}
        lmin, lmax = 2, max(lmax, 2)
        certs = (("nca-aiio",),)
        rule += "; vendor support covers Level-4+ escalation: Level 2+, one step less skill"
    return TargetSlot(role=role_id, level_min=lmin, level_max=lmax, count=count, rule=rule,
                      domains=domains, certifications=certs)


def _certs_for(catalog: Catalog, template: Template, role: str) -> tuple[tuple[str, ...], ...]:
    if role in template.certifications:
        return template.certifications[role]
    for t in sorted(catalog.templates.values(), key=lambda t: t.gpus.high):
        if role in t.certifications:
            return t.certifications[role]
    return ()


def _coverage(scenario: Scenario, gpus: int) -> Iterable[DomainCover]:
    fleet = scenario.fleet
    if fleet.cooling == "liquid":
        yield DomainCover(domain="liquid-cooling", proficiency=3, people=max(2, fleet.sites),
                          rule="liquid cooling: two people per site able to run it (article §2, "
                               "§10), at least two")
    if fleet.deployment in ("cloud", "hybrid"):
        yield DomainCover(domain="cloud", proficiency=3, people=1,
                          rule=f"{fleet.deployment} deployment: one cloud-proficient person")
    if fleet.orchestration in ("kubernetes", "both"):
        yield DomainCover(domain="cluster-ops", proficiency=3, people=2 if gpus > 100 else 1,
                          rule="Kubernetes: Kubernetes-proficient staff (CKA level, article §5)")
    if fleet.sites > 1:
        yield DomainCover(domain="networking", proficiency=3, people=fleet.sites,
                          rule=f"{fleet.sites} sites: one network-proficient person per site")
