"""Sizing: the target team by month (role x level x count), each count with its rule.

Two modes (the staffing-density contradiction, article §5 and §7):

* ``template``: the article's team templates (§5), each roster placed at its anchor fleet
  size (catalog ``anchor_gpus``: 100, 1,000 and 3,000 GPUs). At or below the smallest
  anchor the small roster applies; between two anchors each role's count moves along a
  straight line on a log scale of GPUs from one roster to the next; beyond the largest
  anchor each role grows as ``count x (GPUs / anchor) ^ exponent`` (exponents in the
  catalog's economics, a gputeam assumption). Each role's count is then rounded to the
  nearest person (half up; a role that shrinks between rosters rounds half down), so the
  team grows with the fleet without a cliff at any boundary: a role changes by at most one
  person from one GPU count to the next.
* ``lean``: vendor-supported staffing as in the case studies (§7): one person per
  ``gpus_per_engineer_lean`` GPUs (80: 400 GPUs / 5 people), or per
  ``gpus_per_engineer_vendor_supported`` (100: 500 H100s / 5 engineers) with a vendor
  support contract, which also covers Level-4+ escalations, so in-house slots then need
  Level 2 and one proficiency step less than the role's full need.

The fleet decides which needs hold, from catalog data (``needed_when`` on skill domains and
roles): a domain needed only on some fleets (InfiniBand, GPUDirect Storage, liquid cooling)
is replaced in every role by its ``otherwise`` domain (RoCE/Ethernet, general storage,
cloud networking) or dropped; a role needed only on some fleets (the network specialist on
an all-cloud fleet, the storage specialist on an object store) is left out. Fleet features
also add needs in both modes: parallel file systems / GPUDirect Storage need a storage
specialist; liquid cooling, cloud or hybrid deployment need people who hold those skills;
compliance needs a security specialist; a 24/7 rotation needs enough operations staff to
cover 168 hours a week after leave and training.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from gputeam.catalog import Catalog
from gputeam.catalog.models import FleetCondition, Template
from gputeam.i18n import N_, Nn_
from gputeam.planning import hardware
from gputeam.planning.calendar import month_start
from gputeam.planning.result import DomainCover, Target, TargetMonth, TargetSlot
from gputeam.planning.text import Term, Text, concat, say, say_n
from gputeam.scenario import Scenario
from gputeam.scenario.models import Fleet

PARALLEL_STORAGE = ("parallel-fs", "gpudirect-storage")


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
        "templates": ", ".join(
            f"{t.id} {t.gpus.low:g}-{t.gpus.high:g} (roster at {t.anchor:,.0f})"
            for t in catalog.templates.values()
        ),
        **fleet_assumptions(scenario, catalog),
    }


def fleet_assumptions(scenario: Scenario, catalog: Catalog) -> dict[str, float | str]:
    """The needs this fleet changes (catalog ``needed_when``), in words."""
    fleet = scenario.fleet
    changes: list[str] = []
    for d in catalog.domains.values():
        to = fleet_domain(catalog, fleet, d.id)
        if to != d.id:
            instead = f"{catalog.domains[to].name} instead" if to else "not needed"
            changes.append(f"{d.name}: {instead} ({(d.fleet_note or d.source).rstrip('.')})")
    for r in catalog.roles.values():
        if not role_needed(catalog, fleet, r.id):
            changes.append(f"{r.name}: left out ({(r.fleet_note or r.source).rstrip('.')})")
    return {"fleet_needs": "; ".join(changes)} if changes else {}


def oncall_people(catalog: Catalog) -> int:
    e = catalog.economics
    return math.ceil(e.oncall_hours_per_week / (e.shift_hours_per_week * (1 - e.leave_and_training_share)))


def template_for(catalog: Catalog, gpus: int) -> Template:
    """The article's template whose GPU range holds ``gpus`` (the plan's basis)."""
    by_size = sorted(catalog.templates.values(), key=lambda t: t.gpus.high)
    for t in by_size:
        if gpus <= t.gpus.high:
            return t
    return by_size[-1]


def fleet_matches(fleet: Fleet, condition: FleetCondition) -> bool:
    """Whether every feature listed in a catalog ``needed_when`` holds for the fleet."""
    return all(str(getattr(fleet, feature)) in values for feature, values in condition.items())


def role_needed(catalog: Catalog, fleet: Fleet, role: str) -> bool:
    return fleet_matches(fleet, catalog.roles[role].needed_when)


def fleet_domain(catalog: Catalog, fleet: Fleet, domain: str) -> str | None:
    """The domain a need for ``domain`` becomes on this fleet (None: dropped)."""
    seen: set[str] = set()
    current: str | None = domain
    while current is not None and current not in seen:
        seen.add(current)
        d = catalog.domains.get(current)
        if d is None or fleet_matches(fleet, d.needed_when):
            return current
        current = d.otherwise
    return None


def fleet_needs(catalog: Catalog, fleet: Fleet, needs: Mapping[str, int]) -> dict[str, int]:
    """Domain needs mapped onto this fleet (the highest proficiency where two meet)."""
    out: dict[str, int] = {}
    for d, prof in needs.items():
        to = fleet_domain(catalog, fleet, d)
        if to is not None:
            out[to] = max(out.get(to, 0), prof)
    return out


def size_for(scenario: Scenario, catalog: Catalog, gpus: int, month: int) -> TargetMonth:
    """The target team for one GPU count."""
    date = month_start(scenario.start, month)
    if gpus <= 0:
        return TargetMonth(month=month, date=date, gpus=0, basis="none", slots=())
    template = template_for(catalog, gpus)
    if scenario.mode == "lean":
        counts, basis = _lean_counts(scenario, catalog, gpus)
    else:
        counts, basis = template_counts(catalog, gpus), template.id
    counts = _feature_counts(scenario, catalog, counts)
    counts = {r: c for r, c in counts.items() if role_needed(catalog, scenario.fleet, r)}
    relaxed = scenario.mode == "lean" and scenario.fleet.vendor_support
    slots = tuple(
        _slot(scenario, catalog, template, role, n, lmin, lmax, rule, relaxed)
        for role, (n, lmin, lmax, rule) in counts.items()
        if n > 0
    )
    return TargetMonth(
        month=month,
        date=date,
        gpus=gpus,
        basis=basis,
        slots=slots,
        coverage=(*_coverage(scenario, catalog, gpus), *hardware.coverage(catalog, scenario.fleet)),
    )


Counts = dict[str, tuple[int, int, int, Text | None]]  # role -> (count, level_min, level_max, rule)


def _round(x: float, shrinking: bool) -> int:
    """Nearest whole person: half up, or half down for a role that shrinks between rosters
    (so a role handed over to another, the lead to the architect, never counts twice)."""
    return math.ceil(x - 0.5) if shrinking else math.floor(x + 0.5)


def template_counts(catalog: Catalog, gpus: int) -> Counts:
    """Each role's count on the continuous template rule (see the module docstring)."""
    ladder = sorted(catalog.templates.values(), key=lambda t: t.anchor)
    first, last = ladder[0], ladder[-1]
    counts: Counts = {}
    if gpus <= first.anchor:
        for s in first.slots:
            counts[s.role] = (
                s.count,
                s.level_min,
                s.level_max,
                say(N_("{template} (article §5): {count}"), template=Term(term=first.name), count=s.count),
            )
        return counts
    if gpus >= last.anchor:
        for s in last.slots:
            exp = catalog.economics.template_scale_exponent.get(s.role, 1.0)
            x = s.count * (gpus / last.anchor) ** exp
            n = _round(x, False)
            rule = say(
                N_(
                    "{template} (article §5) at {anchor:,.0f} GPUs, scaled: {count} x "
                    "({gpus:,}/{anchor:,.0f})^{exp:g} = {x:.2f}, rounded to {n}"
                ),
                template=Term(term=last.name),
                anchor=last.anchor,
                count=s.count,
                gpus=gpus,
                exp=exp,
                x=x,
                n=n,
            )
            counts[s.role] = (n, s.level_min, s.level_max, rule)
        return counts
    i = max(k for k, t in enumerate(ladder) if t.anchor <= gpus)
    lo, hi = ladder[i], ladder[i + 1]
    share = math.log(gpus / lo.anchor) / math.log(hi.anchor / lo.anchor)
    a = {s.role: s for s in lo.slots}
    b = {s.role: s for s in hi.slots}
    for role in [*a, *(r for r in b if r not in a)]:
        ca = a[role].count if role in a else 0
        cb = b[role].count if role in b else 0
        x = ca + (cb - ca) * share
        n = _round(x, cb < ca)
        slot = b.get(role) or a[role]
        if gpus == lo.anchor:
            rule = say(N_("{template} (article §5): {count}"), template=Term(term=lo.name), count=ca)
        else:
            rule = say(
                N_(
                    "between the {low} ({low_count} at {low_anchor:,.0f} GPUs) and {high} "
                    "({high_count} at {high_anchor:,.0f} GPUs) rosters of article §5, on a log "
                    "scale of GPUs: {x:.2f}, rounded to {n}"
                ),
                low=lo.id,
                low_count=ca,
                low_anchor=lo.anchor,
                high=hi.id,
                high_count=cb,
                high_anchor=hi.anchor,
                x=x,
                n=n,
            )
        counts[role] = (n, slot.level_min, slot.level_max, rule)
    return counts


def _lean_counts(scenario: Scenario, catalog: Catalog, gpus: int) -> tuple[Counts, str]:
    e = catalog.economics
    fleet = scenario.fleet
    density = e.gpus_per_engineer_vendor_supported if fleet.vendor_support else e.gpus_per_engineer_lean
    total = max(2, math.ceil(gpus / density))
    why = say(
        N_("lean: {gpus:,} GPUs / {density:g} GPUs per person (vendor-supported, article §7A) = {total}")
        if fleet.vendor_support
        else N_("lean: {gpus:,} GPUs / {density:g} GPUs per person (article §7B) = {total}"),
        gpus=gpus,
        density=density,
        total=total,
    )
    counts: Counts = {}
    left = total
    if not fleet.vendor_support:
        counts["infrastructure-lead"] = (
            1,
            4,
            4,
            concat(why, say(N_("; one Level-4 lead (article §7B, §7C)"))),
        )
        left -= 1
    if fleet.interconnect == "infiniband" and left >= 2 and role_needed(catalog, fleet, "network-specialist"):
        counts["network-specialist"] = (
            1,
            3,
            4,
            concat(why, say(N_("; InfiniBand needs a network specialist"))),
        )
        left -= 1
    if fleet.storage in PARALLEL_STORAGE and left >= 2 and role_needed(catalog, fleet, "storage-specialist"):
        counts["storage-specialist"] = (
            1,
            3,
            4,
            concat(why, say(N_("; parallel FS / GPUDirect Storage needs a storage specialist"))),
        )
        left -= 1
    if left > 0:
        counts["operations-engineer"] = (left, 2, 3, concat(why, say(N_("; the rest operations engineers"))))
    return counts, "lean"


def _feature_counts(scenario: Scenario, catalog: Catalog, counts: Counts) -> Counts:
    fleet = scenario.fleet
    out = dict(counts)

    def none(role: str) -> bool:
        return out.get(role, (0, 0, 0, None))[0] <= 0

    if fleet.storage in PARALLEL_STORAGE and none("storage-specialist") and scenario.mode == "template":
        out["storage-specialist"] = (
            1,
            3,
            4,
            say(N_("fleet storage is {storage}: one storage specialist (article §2)"), storage=fleet.storage),
        )
    if (
        fleet.interconnect in ("infiniband", "roce")
        and none("network-specialist")
        and scenario.mode == "template"
    ):
        out["network-specialist"] = (
            1,
            3,
            4,
            say(N_("{fabric} fabric: one network specialist"), fabric=fleet.interconnect),
        )
    if fleet.compliance and none("security-specialist"):
        out["security-specialist"] = (
            1,
            4,
            4,
            say(
                N_("compliance ({regimes}): one security specialist (article §5, §10)"),
                regimes=", ".join(fleet.compliance),
            ),
        )
    if fleet.on_call_24x7:
        need = oncall_people(catalog) * fleet.sites
        ops_roles = [r for r in out if catalog.roles[r].operations]
        have = sum(out[r][0] for r in ops_roles)
        if have < need:
            n, lmin, lmax, rule = out.get("operations-engineer", (0, 2, 3, None))
            e = catalog.economics
            add = need - have
            oncall = say_n(
                Nn_(
                    "24/7 on-call: {hours:g} h/week / ({shift:g} h x (1 - {leave:g} leave and "
                    "training)) = {people} operations staff per site x {sites} site, +{add}",
                    "24/7 on-call: {hours:g} h/week / ({shift:g} h x (1 - {leave:g} leave and "
                    "training)) = {people} operations staff per site x {sites} sites, +{add}",
                ),
                "sites",
                hours=e.oncall_hours_per_week,
                shift=e.shift_hours_per_week,
                leave=e.leave_and_training_share,
                people=oncall_people(catalog),
                sites=fleet.sites,
                add=add,
            )
            out["operations-engineer"] = (
                n + add,
                lmin,
                lmax,
                concat(rule, "; ", oncall) if rule else oncall,
            )
    return out


def _slot(
    scenario: Scenario,
    catalog: Catalog,
    template: Template,
    role_id: str,
    count: int,
    lmin: int,
    lmax: int,
    rule: Text | None,
    relaxed: bool,
) -> TargetSlot:
    role = catalog.roles[role_id]
    domains = fleet_needs(catalog, scenario.fleet, {n.domain: n.proficiency for n in role.domains})
    certs = _certs_for(catalog, template, role_id)
    if relaxed:
        domains = {d: max(1, p - 1) for d, p in domains.items()}
        lmin, lmax = 2, max(lmax, 2)
        certs = (("nca-aiio",),)
        rule = concat(
            *([rule] if rule else []),
            say(N_("; vendor support covers Level-4+ escalation: Level 2+, one step less skill")),
        )
    domains, certs = hardware.slot_needs(catalog, scenario.fleet, domains, certs)  # the vendor's
    return TargetSlot(
        role=role_id,
        level_min=lmin,
        level_max=lmax,
        count=count,
        rule_text=rule,
        domains=domains,
        certifications=certs,
    )


def _certs_for(catalog: Catalog, template: Template, role: str) -> tuple[tuple[str, ...], ...]:
    if role in template.certifications:
        return template.certifications[role]
    for t in sorted(catalog.templates.values(), key=lambda t: t.gpus.high):
        if role in t.certifications:
            return t.certifications[role]
    return ()


def _coverage(scenario: Scenario, catalog: Catalog, gpus: int) -> Iterable[DomainCover]:
    fleet = scenario.fleet
    if fleet.cooling == "liquid" and fleet_domain(catalog, fleet, "liquid-cooling") == "liquid-cooling":
        yield DomainCover(
            domain="liquid-cooling",
            proficiency=3,
            people=max(2, fleet.sites),
            rule_text=say(
                N_("liquid cooling: two people per site able to run it (article §2, §10), at least two")
            ),
        )
    if fleet.deployment in ("cloud", "hybrid"):
        yield DomainCover(
            domain="cloud",
            proficiency=3,
            people=1,
            rule_text=say(
                N_("{deployment} deployment: one cloud-proficient person"), deployment=fleet.deployment
            ),
        )
    if fleet.orchestration in ("kubernetes", "both"):
        yield DomainCover(
            domain="cluster-ops",
            proficiency=3,
            people=2 if gpus > 100 else 1,
            rule_text=say(N_("Kubernetes: Kubernetes-proficient staff (CKA level, article §5)")),
        )
    if fleet.sites > 1:
        yield DomainCover(
            domain="networking",
            proficiency=3,
            people=fleet.sites,
            rule_text=say(N_("{sites} sites: one network-proficient person per site"), sites=fleet.sites),
        )
