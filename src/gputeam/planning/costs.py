"""Costs by month and category: salaries, hiring, training, exams, contractors, mentoring,
retention.

* Salary bands (:func:`salary_bands`): per level, the scenario's own ``salary_bands``, else
  the catalog's bands for the plan's country, else the range of the scenario's own staff at
  that level, else the US bands (article §3) scaled to the staff's pay or, with nobody's pay
  given, converted at ``usd_rate``; every band not from local figures is warned about.
* Salaries: the person's salary, or the middle of their level's band (article §3). A raise
  comes only with a promotion (a move to a higher level), from the month they are ready for
  it (:func:`salary_at`); times the overhead multiplier and any premium pay (article §8).
* Hires: band middle of the hired level from arrival; recruiting cost
  (``hiring_cost_share`` of salary) in the requisition month, and ramp-up (half
  productivity for ``ramp_up_months``) from arrival.
* Training: each roadmap item's cost in its start month; the vendor group discount
  (50-70%, article §6) when 10 or more people take the same course and vendor training is
  allowed.
* Contractors: hours times the contractor rate ($300/h, article §9).
* Mentoring: apprenticeships cost 20% of a senior's salary for their duration (article §6).
* Retention: certification bonuses when an exam is passed; retention bonuses monthly.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from typing import NamedTuple

from gputeam.catalog import Catalog
from gputeam.catalog.models import Range
from gputeam.i18n import N_, Nn_
from gputeam.planning.calendar import month_of
from gputeam.planning.result import CostLine, Costs, Roadmap, Sourcing, Target, TemplateCost
from gputeam.planning.text import Text, say, say_n
from gputeam.scenario import Person, Scenario

CATEGORIES = ("salaries", "hiring", "training", "exams", "contractors", "mentoring", "retention")


class Charge(NamedTuple):
    """One amount the plan pays in one month, and what for.

    ``item`` refines the category: ``pay`` and ``raise`` (salaries: the pay before the plan,
    and the excess over it from the ready month), ``recruiting`` and ``ramp-up`` (hiring),
    the roadmap item kind (``course``, ``bootcamp``, ``practice``, ``exam``, ``renewal``),
    ``mentoring``, ``contractors``, ``retention bonus`` and ``certification bonus``.
    ``who`` is a person's id, ``hire:<i>`` for the i-th entry of ``Sourcing.hires`` (all its
    heads), or ``""`` (contractors). The ROI (:mod:`gputeam.planning.roi`) reads these.
    A named tuple (immutable, and cheap: a large plan's ledger holds millions)."""

    category: str
    item: str
    who: str
    month: int
    amount: float


LEVELS = (1, 2, 3, 4, 5)


def plan_country(scenario: Scenario, catalog: Catalog) -> str | None:
    """The country whose salary bands apply: ``scenario.country``, else the one country of
    the scenario's currency among the catalog's (USD: the US), else None (a currency several
    countries share, such as EUR, or one the catalog does not list)."""
    if scenario.country:
        code = scenario.country.upper()
        return "GB" if code == "UK" else code  # ISO 3166 says GB; UK is the common name
    if scenario.currency == "USD":
        return "US"
    users = [c.country for c in catalog.salary_bands.values() if c.currency == scenario.currency]
    return users[0] if len(users) == 1 else None


class Bands(NamedTuple):
    """The salary bands a plan prices pay with, and where each level's came from.

    ``bands``: level to (low, high) in the plan's currency, for the levels whose band is not
    the catalog's (converted) US band; ``origin``: level to ``scenario``, ``country``,
    ``staff``, ``scaled`` (the US band times ``ratio``, the staff's pay against it) or ``us``
    (the US band, converted at ``usd_rate`` when the currency is not USD)."""

    bands: dict[int, tuple[float, float]]
    origin: dict[int, str]
    country: str | None
    ratio: float | None

    @property
    def local(self) -> frozenset[int]:
        """Levels priced from figures of the plan's own country or staff."""
        return frozenset(lv for lv, o in self.origin.items() if o in ("scenario", "country", "staff"))


#: The last few band choices, keyed by the identity of their (immutable) inputs, kept alive
#: by the entry (a promotion's salary asks for them once per person and level).
_BANDS: list[tuple[tuple[object, object], Bands]] = []


def salary_bands(scenario: Scenario, catalog: Catalog) -> Bands:
    """Each level's band (see the module docstring); ``catalog`` holds the US bands already
    converted to the plan's currency (:func:`gputeam.catalog.currency.in_currency`)."""
    for (sc, cat), found in _BANDS:
        if sc is scenario and cat is catalog:
            return found
    found = _salary_bands(scenario, catalog)
    _BANDS.append(((scenario, catalog), found))
    del _BANDS[:-4]
    return found


def _salary_bands(scenario: Scenario, catalog: Catalog) -> Bands:
    country = plan_country(scenario, catalog)
    entry = catalog.salary_bands.get(country or "")
    if entry is not None and entry.currency != scenario.currency:
        entry = None  # bands in another currency than the plan's: not used (the plan warns)
    staff: dict[int, list[float]] = {}
    for p in scenario.people:
        if p.salary is not None and p.salary > 0:
            staff.setdefault(p.level, []).append(p.salary)
    us = country == "US" and scenario.currency == "USD"
    bands: dict[int, tuple[float, float]] = {}
    origin: dict[int, str] = {}
    ratio: float | None = None
    for lv in LEVELS:
        if lv in scenario.salary_bands:
            b = scenario.salary_bands[lv]
            bands[lv], origin[lv] = (b.low, b.high), "scenario"
        elif entry is not None and lv in entry.levels:
            r = entry.levels[lv]
            bands[lv], origin[lv] = (r.low, r.high), "country"
        elif us:
            origin[lv] = "country"  # the levels' own bands are the US ones (article §3)
        elif lv in staff:
            bands[lv], origin[lv] = (min(staff[lv]), max(staff[lv])), "staff"
        elif staff:
            if ratio is None:
                ratio = statistics.median(
                    s / _us_band(catalog, lvl).mid for lvl, pay in staff.items() for s in pay
                )
            r = _us_band(catalog, lv)
            bands[lv], origin[lv] = (r.low * ratio, r.high * ratio), "scaled"
        else:
            origin[lv] = "us"
    return Bands(bands, origin, country, ratio)


def _us_band(catalog: Catalog, level: int) -> Range:
    """The level's US band (article §3) in the plan's currency, even once a regional band
    replaced it."""
    lv = catalog.levels[level]
    return lv.us_salary or lv.salary_usd


def band_warnings(scenario: Scenario, catalog: Catalog) -> list[Text]:
    """What the plan's salary bands assume, where they are not local figures (the plan
    warns): levels priced from the staff, scaled US bands, converted US bands."""
    b = salary_bands(scenario, catalog)
    out: list[Text] = []
    if scenario.currency == "USD" and b.country in (None, "US"):
        return out
    where = b.country or scenario.currency
    if b.country is None:
        shared = sorted(c.country for c in catalog.salary_bands.values() if c.currency == scenario.currency)
        if shared:
            out.append(
                say(
                    N_(
                        "currency {currency} is used by {countries}: set country to use that "
                        "country's salary bands"
                    ),
                    currency=scenario.currency,
                    countries=tuple(shared),
                )
            )
    elif b.country in catalog.salary_bands and catalog.salary_bands[b.country].currency != scenario.currency:
        out.append(
            say(
                N_(
                    "the catalog's salary bands for {country} are in {their}, not the plan's "
                    "{currency}: not used"
                ),
                country=b.country,
                their=catalog.salary_bands[b.country].currency,
                currency=scenario.currency,
            )
        )
    staff = tuple(str(lv) for lv, o in b.origin.items() if o == "staff")
    scaled = tuple(str(lv) for lv, o in b.origin.items() if o == "scaled")
    us = tuple(str(lv) for lv, o in b.origin.items() if o == "us")
    if staff:
        out.append(
            say_n(
                Nn_(
                    "no salary band for {where} at level {levels}: hires there are priced at "
                    "the range of your own staff's salaries at the same level",
                    "no salary band for {where} at levels {levels}: hires there are priced at "
                    "the range of your own staff's salaries at the same level",
                ),
                "count",
                where=where,
                levels=staff,
                count=len(staff),
            )
        )
    if scaled and b.ratio is not None:
        out.append(
            say_n(
                Nn_(
                    "no salary band for {where} and nobody on staff at level {levels}: priced at "
                    "the US band (article §3) x {ratio:.2f}, your staff's median pay against "
                    "the US band of their level (an assumption: the same gap at every level)",
                    "no salary band for {where} and nobody on staff at levels {levels}: priced at "
                    "the US bands (article §3) x {ratio:.2f}, your staff's median pay against "
                    "the US band of their level (an assumption: the same gap at every level)",
                ),
                "count",
                where=where,
                levels=scaled,
                ratio=b.ratio,
                count=len(scaled),
            )
        )
    if us:
        rate = scenario.usd_rate or 1
        out.append(
            say_n(
                Nn_(
                    "no salary band for {where} at level {levels} and no salaries of your own: "
                    "priced at the US band (article §3) x {rate:g} (usd_rate), which assumes "
                    "pay there matches US pay; set salary_bands or people's salaries",
                    "no salary band for {where} at levels {levels} and no salaries of your own: "
                    "priced at the US bands (article §3) x {rate:g} (usd_rate), which assumes "
                    "pay there matches US pay; set salary_bands or people's salaries",
                ),
                "count",
                where=where,
                levels=us,
                rate=rate,
                count=len(us),
            )
        )
    return out


def band_mid(catalog: Catalog, level: int) -> float:
    return catalog.levels[level].salary_usd.mid


def base_salary(catalog: Catalog, person: Person) -> float:
    """A person's annual salary before the plan: their own, else their level's band middle."""
    return person.salary if person.salary is not None else band_mid(catalog, person.level)


def loaded_uplift(scenario: Scenario, catalog: Catalog) -> float:
    """Salary to fully loaded cost: the overhead multiplier times any premium pay."""
    return catalog.economics.overhead_multiplier * (1 + scenario.retention.premium_pay)


def salary_at(person: Person, level: int, scenario: Scenario, catalog: Catalog) -> float:
    """The person's salary once at ``level``.

    No promotion (``level`` not above theirs): their own salary, whatever the band says. A
    promotion: at least the new level's band low end when that band is a local figure (the
    US bands in a US plan, the scenario's or the country's band, the staff's range:
    :attr:`Bands.local`); with converted or scaled US bands, their own
    salary raised by the ratio of the two levels' band low ends, so a local salary is never
    replaced by a converted US figure.
    """
    own = base_salary(catalog, person)
    if level <= person.level:
        return own
    new_low = catalog.levels[level].salary_usd.low
    if person.salary is None or level in salary_bands(scenario, catalog).local:
        return max(own, new_low)
    old_low = catalog.levels[person.level].salary_usd.low
    return own * new_low / old_low if old_low > 0 else own


#: The last few ledgers, keyed by the identity of their (immutable) inputs, which the entry
#: keeps alive so an id is never reused while cached: the costs, the ROI and its sensitivity
#: ask for the same plan's ledger several times, and a large plan's holds millions of lines.
_LEDGERS: list[tuple[tuple[object, ...], tuple[Charge, ...]]] = []
_LEDGERS_KEPT = 4


def ledger(
    scenario: Scenario, catalog: Catalog, sourcing: Sourcing, roadmaps: Sequence[Roadmap]
) -> tuple[Charge, ...]:
    """Every amount the plan pays, month by month (months outside the horizon dropped)."""
    if not isinstance(roadmaps, tuple):  # a list could change under the same identity
        return tuple(_ledger(scenario, catalog, sourcing, roadmaps))
    key: tuple[object, ...] = (scenario, catalog, sourcing, roadmaps)
    for k, charges in _LEDGERS:
        if all(a is b for a, b in zip(k, key, strict=True)):
            return charges
    charges = tuple(_ledger(scenario, catalog, sourcing, roadmaps))
    _LEDGERS.append((key, charges))
    del _LEDGERS[:-_LEDGERS_KEPT]
    return charges


def _ledger(
    scenario: Scenario, catalog: Catalog, sourcing: Sourcing, roadmaps: Sequence[Roadmap]
) -> list[Charge]:
    e = catalog.economics
    h = scenario.horizon_months
    r = scenario.retention
    uplift = loaded_uplift(scenario, catalog)
    out: list[Charge] = []

    def add(cat: str, month: int, amount: float, item: str = "", who: str = "") -> None:
        if 1 <= month <= h and amount:
            out.append(Charge(cat, item or cat, who, month, amount))

    by_person = {rm.person: rm for rm in roadmaps}
    ready_level = {a.person: (a.ready_month, a.level) for a in sourcing.assignments}
    for p in scenario.people:
        base = base_salary(catalog, p)
        rm = by_person.get(p.id)
        promoted, ready = base, h + 1
        if p.id in ready_level:
            ready, lvl = ready_level[p.id]
            lvl = max(lvl, rm.level_at_ready or 0) if rm else lvl
            promoted = salary_at(p, lvl, scenario, catalog)
        for m in range(1, h + 1):
            add("salaries", m, base / 12 * uplift, "pay", p.id)
            if m >= ready:
                add("salaries", m, (promoted - base) / 12 * uplift, "raise", p.id)
            add("retention", m, r.retention_bonus / 12, "retention bonus", p.id)
    for i, hire in enumerate(sourcing.hires):
        who = f"hire:{i}"
        salary = band_mid(catalog, hire.level)
        add("hiring", hire.requisition_month, hire.count * salary * e.hiring_cost_share, "recruiting", who)
        for m in range(hire.arrival_month, h + 1):
            add("salaries", m, hire.count * salary / 12 * uplift, "pay", who)
            add("retention", m, hire.count * r.retention_bonus / 12, "retention bonus", who)
            if m < hire.arrival_month + e.ramp_up_months:
                add("hiring", m, hire.count * salary / 12 * 0.5, "ramp-up", who)
    rate = contractor_rate(scenario, catalog)
    for need in sourcing.contractors:
        add("contractors", need.month, need.hours * rate)
    _training(scenario, catalog, roadmaps, add)
    return out


def contractor_rate(scenario: Scenario, catalog: Catalog) -> float:
    """The contractor hourly rate: the scenario's, else the catalog's ($300/h, article §9)."""
    return scenario.contractor_rate_h or catalog.economics.contractor_rate_usd_h


def compute_costs(
    scenario: Scenario, catalog: Catalog, target: Target, sourcing: Sourcing, roadmaps: Sequence[Roadmap]
) -> Costs:
    e = catalog.economics
    h = scenario.horizon_months
    rate = contractor_rate(scenario, catalog)
    uplift = loaded_uplift(scenario, catalog)
    months: dict[str, list[float]] = {c: [0.0] * h for c in CATEGORIES}
    for c in ledger(scenario, catalog, sourcing, roadmaps):
        months[c.category][c.month - 1] += c.amount
    by_month = tuple(round(sum(months[c][i] for c in CATEGORIES), 2) for i in range(h))
    steady = _steady_state(scenario, catalog, sourcing, roadmaps, months, uplift)
    lines = []
    for cat in CATEGORIES:
        series = months[cat]
        lines.append(
            CostLine(
                category=cat,
                first_year=round(_first_year(series), 2),
                horizon=round(sum(series), 2),
                annual_run_rate=round(steady.get(cat, 0.0), 2),
            )
        )
    deadline_tm = target.at(scenario.deadline)
    peak = max(target.months, key=lambda tm: tm.headcount)
    heads = max(deadline_tm.headcount, peak.headcount)
    return Costs(
        currency=scenario.currency,
        lines=tuple(lines),
        first_year=round(sum(x.first_year for x in lines), 2),
        horizon=round(sum(x.horizon for x in lines), 2),
        annual_run_rate=round(sum(x.annual_run_rate for x in lines), 2),
        by_month=by_month,
        outsourced_annual=round(heads * e.hours_per_fte_year * rate, 2),
        hours_per_fte_month=e.hours_per_fte_month,
        template_comparison=template_costs(catalog),
    )


def _steady_state(
    scenario: Scenario,
    catalog: Catalog,
    sourcing: Sourcing,
    roadmaps: Sequence[Roadmap],
    months: dict[str, list[float]],
    uplift: float,
) -> dict[str, float]:
    """The annual run rate: a year of the team as it stands at the end of the horizon, with
    every planned person and hire on board at full pay and no one-off costs (recruiting,
    ramp-up, courses, first exams, mentoring): salaries and contractors of the final month
    times 12 (the optimiser's terminal year keeps end-of-horizon contractors to those it
    would keep), retention bonuses for every head, and each certification held or earned
    renewed at its exam price once per validity period."""
    h = scenario.horizon_months
    heads = len(scenario.people) + sum(x.count for x in sourcing.hires if x.arrival_month <= h)
    renewals = 0.0
    own = {p.id: {c.id for c in p.certifications} for p in scenario.people}
    for rm in roadmaps:
        held = own.get(rm.person, set()) | {i.ref for i in rm.items if i.kind == "exam"}
        for cid in held:
            cert = catalog.certifications.get(cid)
            if cert and cert.validity_months and cert.exam.price_usd:
                renewals += cert.exam.price_usd * 12 / cert.validity_months
    return {
        "salaries": months["salaries"][-1] * 12 if h else 0.0,
        "contractors": months["contractors"][-1] * 12 if h else 0.0,
        "retention": heads * scenario.retention.retention_bonus,
        "exams": renewals,
    }


def _first_year(series: Sequence[float]) -> float:
    if len(series) >= 12:
        return sum(series[:12])
    # a shorter horizon: extend its last month to a full year
    return sum(series) + series[-1] * (12 - len(series)) if series else 0.0


def _training(
    scenario: Scenario,
    catalog: Catalog,
    roadmaps: Sequence[Roadmap],
    add: Callable[[str, int, float, str, str], None],
) -> None:
    e = catalog.economics
    allowed = set(scenario.constraints.strategies)
    vendor = catalog.strategies.get("vendor")
    # the group discount counts current people taking a course together (hires arrive apart)
    takers = Counter(
        i.ref for rm in roadmaps if not rm.hire for i in rm.items if i.kind == "course" and i.cost > 0
    )
    discount = 0.0
    if "vendor" in allowed and vendor and vendor.group_discount:
        discount = vendor.group_discount.mid
    seniors = [p.salary or band_mid(catalog, p.level) for p in scenario.people if p.level >= 4]
    mentor_salary = max(seniors) if seniors else band_mid(catalog, 4)
    appr = catalog.strategies.get("apprenticeship")
    share = appr.mentor_time_share if appr and appr.mentor_time_share else 0.2
    for rm in roadmaps:
        for item in rm.items:
            month = month_of(scenario.start, item.start)
            if item.kind in ("course", "bootcamp", "practice"):
                cost = item.cost
                if (
                    item.kind == "course"
                    and vendor
                    and vendor.group_min
                    and not rm.hire
                    and takers[item.ref] >= vendor.group_min
                ):
                    cost *= 1 - discount
                add("training", month, cost, item.kind, rm.person)
            elif item.kind in ("exam", "renewal"):
                add("exams", month, item.cost, item.kind, rm.person)
                if item.kind == "exam" and scenario.retention.certification_bonus:
                    add(
                        "retention",
                        month,
                        scenario.retention.certification_bonus,
                        "certification bonus",
                        rm.person,
                    )
            elif item.kind == "apprenticeship":
                end = month_of(scenario.start, item.end)
                for m in range(month, end):
                    add(
                        "mentoring",
                        m,
                        mentor_salary * e.overhead_multiplier / 12 * share,
                        "mentoring",
                        rm.person,
                    )


def template_costs(catalog: Catalog) -> tuple[TemplateCost, ...]:
    """Each template's roster priced at the salary bands, beside the article's total
    (the team-totals contradiction, article §3 and §5)."""
    out = []
    for t in catalog.templates.values():
        low = sum(s.count * catalog.levels[s.level_min].salary_usd.low for s in t.slots)
        high = sum(s.count * catalog.levels[s.level_max].salary_usd.high for s in t.slots)
        out.append(
            TemplateCost(
                template=t.id,
                computed_low=low,
                computed_high=high,
                article_low=t.article_cost_usd.low,
                article_high=t.article_cost_usd.high,
            )
        )
    return tuple(out)
