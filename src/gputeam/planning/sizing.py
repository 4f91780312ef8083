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
  Template mode is the article's rosters, raised (never lowered) where the fleet needs
  more: operations engineers up to the out-of-hours cover, specialists up to the
  ``workload.specialists`` rule, hardware roles on the team's own hardware and, beyond the
  largest anchor, operations engineers up to the work (issue 18).
* ``lean``: the team the fleet's work, cover and span of control need (issue 18, figures in
  the catalog's ``workload``, see :mod:`gputeam.planning.workload`): operations engineers =
  the larger of (incident + maintenance + deployment + service hours) / (productive hours x
  the 50 % operational cap, SRE) and the out-of-hours cover of ``fleet.support_model`` (a
  paged rotation: 1 / 25 % on call = 4 for a primary only, 8 for a one-site primary +
  secondary, 6 a site on several sites, times the people on call at once at 2 incidents a
  12-hour shift; staffed 24/7 seats of 6 FTE; none in business hours or vendor-managed);
  specialists by fabric, storage, cooling and compliance; data-centre technicians from the
  on-site hardware work; one lead per ``span_of_control`` engineers and one architect per
  as many leads. With ``vendor_support`` the vendor takes hardware faults, swaps and
  installation and covers Level-4+ escalations (the first lead), so in-house slots then
  need Level 2 and one proficiency step less than the role's full need. Every count only
  grows with GPUs (Hypothesis tests in tests/planning/test_workload_sizing.py).

The fleet decides which needs hold, from catalog data (``needed_when`` on skill domains and
roles): a domain needed only on some fleets (InfiniBand, GPUDirect Storage, liquid cooling)
is replaced in every role by its ``otherwise`` domain (RoCE/Ethernet, general storage,
cloud networking) or dropped; a role needed only on some fleets (the network specialist on
an all-cloud fleet, the storage specialist on an object store) is left out. Fleet features
also add needs in both modes: parallel file systems / GPUDirect Storage need a storage
specialist; liquid cooling, cloud or hybrid deployment need people who hold those skills;
compliance needs a security specialist; out-of-hours cover needs enough operations
engineers for the rotation or the staffed seats.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from gputeam.catalog import Catalog
from gputeam.catalog.models import FleetCondition, Template
from gputeam.i18n import N_
from gputeam.planning import hardware
from gputeam.planning.calendar import month_start
from gputeam.planning.result import DomainCover, Target, TargetMonth, TargetSlot
from gputeam.planning.text import Term, Text, concat, say
from gputeam.planning.workload import FleetRates, YearWork, ceil_fte, fleet_rates, year_work
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
    w = catalog.workload
    return {
        "support_model": scenario.fleet.support,
        "automation": scenario.fleet.automation,
        "operational_share_cap": w.operational_share_cap,
        "oncall_share_cap": w.oncall_share_cap,
        "span_of_control": float(w.span_of_control),
        "staffed_seat_fte": float(oncall_people(catalog)),
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
    rates = fleet_rates(scenario, catalog)
    if scenario.mode == "lean":
        counts, basis = _lean_counts(scenario, catalog, gpus, rates)
    else:
        counts = _feature_counts(scenario, catalog, template_counts(catalog, gpus))
        counts, basis = _template_floors(scenario, catalog, gpus, rates, counts), template.id
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


def _lean_counts(scenario: Scenario, catalog: Catalog, gpus: int, r: FleetRates) -> tuple[Counts, str]:
    """Lean mode: the team the fleet's work, coverage and span of control need (issue 18)."""
    fleet = scenario.fleet
    ops = _operations(scenario, catalog, gpus, r)
    assert ops is not None
    counts: Counts = {"operations-engineer": ops}
    for role, got in _specialists(scenario, catalog, gpus).items():
        counts[role] = got
    tech = _technicians(scenario, catalog, gpus, r)
    if tech is not None:
        counts["datacenter-technician"] = tech
    engineers = sum(c[0] for c in counts.values())
    span = catalog.workload.span_of_control
    if fleet.vendor_support:
        leads = max(0, math.ceil(engineers / span) - 1)
        why = say(
            N_(
                "span of control: {engineers} engineers / {span} per lead, rounded up, less the "
                "first, whose escalations the vendor support contract covers (article §7A) = {n}"
            ),
            engineers=engineers,
            span=span,
            n=leads,
        )
    else:
        leads = max(1, math.ceil(engineers / span))
        why = say(
            N_("span of control: {engineers} engineers / {span} per lead, rounded up, at least one = {n}"),
            engineers=engineers,
            span=span,
            n=leads,
        )
    if leads > 0:
        counts["infrastructure-lead"] = (leads, 4, 4, why)
    if leads >= 2:
        architects = math.ceil(leads / span)
        counts["infrastructure-architect"] = (
            architects,
            5,
            5,
            say(
                N_("span of control: {leads} leads / {span} per architect, rounded up = {n}"),
                leads=leads,
                span=span,
                n=architects,
            ),
        )
    return counts, "lean"


def _operations(
    scenario: Scenario, catalog: Catalog, gpus: int, r: FleetRates, work: bool = True
) -> tuple[int, int, int, Text] | None:
    """Operations engineers: the work at the operational cap, or the out-of-hours cover
    (``work`` False: the cover only, None without any)."""
    fleet = scenario.fleet
    if not work:
        only = _cover(scenario, catalog, year_work(r, gpus, fleet.sites))
        return None if only is None else (only[0], 2, 3, only[1])
    y = year_work(r, gpus, fleet.sites)
    fte = y.ops_hours / r.ops_capacity
    work_n = max(1, ceil_fte(fte))
    rule = say(
        N_(
            "work: ({incident:,.0f} incident + {maintenance:,.0f} maintenance + {deployment:,.0f} "
            "deployment + {service:,.0f} service hours a year) / ({productive:,.0f} productive "
            "hours x {cap:.0%} operational cap, SRE) = {fte:.2f} FTE, {n} people"
        ),
        incident=y.incident_hours,
        maintenance=y.maintenance_hours,
        deployment=y.deployment_hours,
        service=y.service_hours,
        productive=r.productive_hours,
        cap=r.rates.operational_share_cap,
        fte=fte,
        n=work_n,
    )
    cover = _cover(scenario, catalog, y)
    if cover is None:
        return (work_n, 2, 3, rule)
    cover_n, cover_rule = cover
    n = max(work_n, cover_n)
    return (n, 2, 3, concat(rule, "; ", cover_rule, say(N_("; the larger: {n}"), n=n)))


def oncall_parallel(catalog: Catalog, y: YearWork) -> int:
    """People on call (or seats staffed) at once: SRE's at most N incidents a 12-hour shift."""
    return max(1, math.ceil(round(y.pages_per_shift / catalog.workload.incidents_per_shift_max, 6)))


def _cover(scenario: Scenario, catalog: Catalog, y: YearWork) -> tuple[int, Text] | None:
    """Out-of-hours cover by operations engineers (seniors and the lead escalate, they are
    not counted in it): a paged rotation, or staffed seats, or none."""
    fleet = scenario.fleet
    w = catalog.workload
    parallel = oncall_parallel(catalog, y)
    if fleet.support == "staffed-24x7":
        per_seat = oncall_people(catalog)
        n = parallel * fleet.sites * per_seat
        e = catalog.economics
        return n, say(
            N_(
                "staffed 24/7 shifts (NOC): {seats} seats a site x {sites} sites x {per} FTE a seat "
                "({hours:g} h / ({shift:g} h x (1 - {leave:g} leave and training))) = {n}"
            ),
            seats=parallel,
            sites=fleet.sites,
            per=per_seat,
            hours=e.oncall_hours_per_week,
            shift=e.shift_hours_per_week,
            leave=e.leave_and_training_share,
            n=n,
        )
    if fleet.support != "on-call":
        return None
    if y.pages_per_week < w.secondary_from_pages_per_week:
        per = math.ceil(round(1 / w.oncall_share_cap, 6))
        text = say(
            N_(
                "on-call rotation: {pages:.1f} pages a week, below {secondary:g}: a primary only, "
                "on call at most {share:.0%} of the time = {per} engineers x {parallel} on call at once"
            ),
            pages=y.pages_per_week,
            secondary=w.secondary_from_pages_per_week,
            share=w.oncall_share_cap,
            per=per,
            parallel=parallel,
        )
    elif fleet.sites == 1:
        per = w.rotation_primary_secondary_one_site
        text = say(
            N_(
                "on-call rotation: {pages:.1f} pages a week: primary + secondary on one site, {per} "
                "engineers (SRE) x {parallel} on call at once (at most {most:g} incidents a 12-hour shift)"
            ),
            pages=y.pages_per_week,
            per=per,
            parallel=parallel,
            most=w.incidents_per_shift_max,
        )
    else:
        per = w.rotation_per_site_multi_site * fleet.sites
        text = say(
            N_(
                "on-call rotation: {pages:.1f} pages a week: {each} engineers a site on {sites} sites "
                "(SRE) x {parallel} on call at once (at most {most:g} incidents a 12-hour shift)"
            ),
            pages=y.pages_per_week,
            each=w.rotation_per_site_multi_site,
            sites=fleet.sites,
            parallel=parallel,
            most=w.incidents_per_shift_max,
        )
    return per * parallel, text


def _specialists(scenario: Scenario, catalog: Catalog, gpus: int) -> Counts:
    """Specialists by fabric, storage, cooling and compliance (catalog ``workload.specialists``)."""
    fleet = scenario.fleet
    out: Counts = {}
    for rule in catalog.workload.specialists:
        if rule.compliance and not fleet.compliance:
            continue
        if gpus < rule.from_gpus or not fleet_matches(fleet, rule.when):
            continue
        if not role_needed(catalog, fleet, rule.role):
            continue
        by_size = math.ceil(gpus / rule.gpus_per_person)
        n = max(1, by_size, rule.per_site * fleet.sites)
        if out.get(rule.role, (0, 0, 0, None))[0] >= n:
            continue
        role = catalog.roles[rule.role]
        text = concat(
            say(
                N_("{gpus:,} GPUs / {per:,.0f} GPUs per {role}, rounded up"),
                gpus=gpus,
                per=rule.gpus_per_person,
                role=Term(term=role.name),
            ),
            *([say(N_("; staffed from {start:,} GPUs"), start=rule.from_gpus)] if rule.from_gpus > 1 else []),
            *(
                [say(N_("; at least {each} per site x {sites}"), each=rule.per_site, sites=fleet.sites)]
                if rule.per_site
                else []
            ),
            say(N_(" = {n}"), n=n),
        )
        out[rule.role] = (n, role.level_min, role.level_max, text)
    return out


def _technicians(
    scenario: Scenario, catalog: Catalog, gpus: int, r: FleetRates
) -> tuple[int, int, int, Text] | None:
    """Data-centre technicians from the on-site hardware work (none on cloud or a vendor's)."""
    fleet = scenario.fleet
    if not r.own_hardware or not role_needed(catalog, fleet, "datacenter-technician"):
        return None
    w = catalog.workload
    y = year_work(r, gpus, fleet.sites)
    fte = y.technician_hours / r.technician_capacity
    if fte < w.technician_from_fte:
        return None
    n = max(ceil_fte(fte), fleet.sites)
    role = catalog.roles["datacenter-technician"]
    return (
        n,
        role.level_min,
        role.level_max,
        say(
            N_(
                "on-site hardware work: ({swaps:,.0f} hard failures x {swap_h:g} h + {hw:,.0f} "
                "hardware interruptions x {on_site:g} h) a year / ({productive:,.0f} h x "
                "{share:.0%} hands-on) = {fte:.2f} FTE, at least one a site = {n}"
            ),
            swaps=gpus * w.hard_failures_per_gpu_year,
            swap_h=w.hours_per_hard_failure,
            hw=gpus * r.interruptions * w.hardware_share,
            on_site=w.on_site_hours_per_hardware_interruption,
            productive=r.productive_hours,
            share=w.technician_hands_on_share,
            fte=fte,
            n=n,
        ),
    )


def _template_floors(
    scenario: Scenario, catalog: Catalog, gpus: int, r: FleetRates, counts: Counts
) -> Counts:
    """Template mode: the roster, raised where the fleet's out-of-hours cover, size or
    hardware needs more, and beyond the largest roster's anchor where its work needs more
    (within the article's range the roster's own people absorb the work)."""
    out = dict(counts)
    beyond = gpus > max(t.anchor for t in catalog.templates.values())
    ops = _operations(scenario, catalog, gpus, r, work=beyond)
    floors: Counts = {} if ops is None else {"operations-engineer": ops}
    floors.update(_specialists(scenario, catalog, gpus))
    tech = _technicians(scenario, catalog, gpus, r)
    if tech is not None:
        floors["datacenter-technician"] = tech
    for role, (n, lmin, lmax, rule) in floors.items():
        have = out.get(role)
        if have is None or have[0] <= 0:
            out[role] = (n, lmin, lmax, rule)
        elif n > have[0]:
            out[role] = (
                n,
                have[1],
                have[2],
                concat(
                    *([have[3]] if have[3] else []),
                    say(N_("; raised by the fleet's needs: ")),
                    *([rule] if rule else []),
                ),
            )
    return out


def _feature_counts(scenario: Scenario, catalog: Catalog, counts: Counts) -> Counts:
    """Template mode: a storage, network or security specialist the roster lacks."""
    fleet = scenario.fleet
    out = dict(counts)

    def none(role: str) -> bool:
        return out.get(role, (0, 0, 0, None))[0] <= 0

    if fleet.storage in PARALLEL_STORAGE and none("storage-specialist"):
        out["storage-specialist"] = (
            1,
            3,
            4,
            say(N_("fleet storage is {storage}: one storage specialist (article §2)"), storage=fleet.storage),
        )
    if fleet.interconnect in ("infiniband", "roce") and none("network-specialist"):
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
