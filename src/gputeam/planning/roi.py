"""ROI: whether to invest in certifying the team (article §9), against named alternatives.

The plan is compared, month by month, with what the organisation would otherwise do. The
headline is ``scenario.roi.counterfactual``; each of ``scenario.roi.alternatives`` is computed
the same way and reported beside it (``Roi.alternatives``):

* ``managed-service``: an operated service runs the whole target from the first GPU
  (``g1``), priced per slot by level (``economics.managed_service``, or
  ``roi.service_rate_h``) or per GPU-month (``roi.service_per_gpu_month``);
* ``hire-only``: the same target filled by experienced hires at the salary bands, with their
  lead time and ramp-up, bridged by contractors, nobody upskilled (the greedy rule with no
  current staff);
* ``outsourced``: every target slot at the one contractor rate (the article's §9 framing).

Investment: the one-off costs of building the capability, in the month paid, for the GPU
team (people assigned a target role, and hires): training, exams, certification bonuses,
study time (roadmap hours of current staff at their loaded hourly cost: salary x overhead x
premium / ``hours_per_fte_year``), mentoring, recruiting, hire ramp-up. Classified by the
kind of cash, never by the deadline: recurring cash is in the returns whatever the month.

Returns, per month:

* against a service: its fees avoided (from ``g1``), less the plan's own contractors;
* against hire-only: its contractors less the plan's, its hires' pay and renewals, its
  building costs, all avoided;
* less the in-house run cost: the loaded pay and retention bonuses of the team (a current
  person from their ready month or ``g1``, whichever is later, whose former duties are
  assumed backfilled at the same cost; a hire from arrival), raises, certificate renewals;
* operational benefits, credited only where the two differ: x (share of the target someone
  runs in the plan - the same share in the alternative), the share being staff plus
  contractor FTEs (at most 1; a service runs all of it). From the article's 100-GPU example
  per GPU: downtime ($1,000 per GPU-year) / 12 x GPUs in service; efficiency: GPUs whose
  power the organisation pays x kW x PUE x 730 h x price per kWh x the power share (15%);
  faster deployment ($3,000 per GPU) once, for GPUs added after month 1. A month whose
  target is empty, or before ``g1``, earns nothing.

Measures: ``net_roi = (returns - investment) / investment``, ``benefit_cost_ratio = returns
/ investment`` over the horizon; ``payback_months`` from the cumulative cash flow
(:func:`payback_month`); ``npv`` = sum of the cash flow x ``(1 + r) ** (-(m - 1) / 12)``;
``risk_adjusted``: NPV and net ROI at the Monte Carlo cost percentiles
(:func:`gputeam.planning.result.risk_adjusted`). A measure that is undefined is None, with
the reason in ``reasons``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gputeam.catalog import Catalog
from gputeam.i18n import N_
from gputeam.planning.calendar import month_of
from gputeam.planning.costs import band_mid, base_salary, contractor_rate, ledger, loaded_uplift
from gputeam.planning.hardware import kw_per_gpu
from gputeam.planning.power import HOURS_PER_YEAR, article_saving_per_gpu_year
from gputeam.planning.result import (
    Roadmap,
    Roi,
    RoiAlternative,
    RoiMonth,
    Sourcing,
    Target,
)
from gputeam.planning.text import Money, Text, say
from gputeam.scenario import Scenario

#: The one-off costs of building the capability: the ROI's investment (recurring cash, such
#: as pay, raises and contractors, is in the returns whatever the month).
INVESTMENT_LINES = (
    "training",
    "exams",
    "certification bonuses",
    "study time",
    "mentoring",
    "recruiting",
    "hire ramp-up",
)
#: The names of the ROI's lines and of the sensitivity's assumptions, marked for translation
#: (they stay English in the JSON, as keys; the reports show them translated).
LINE_NAMES = (
    N_("training"),
    N_("exams"),
    N_("certification bonuses"),
    N_("study time"),
    N_("mentoring"),
    N_("recruiting"),
    N_("hire ramp-up"),
    N_("hires' pay before the first GPU"),
    N_("raises during the build-up"),
    N_("contractors before the first GPU"),
    N_("outsourcing cost avoided"),
    N_("contractor cost avoided"),
    N_("hire-only pay avoided"),
    N_("hire-only building costs avoided"),
    N_("in-house run cost"),
    N_("downtime avoided"),
    N_("efficiency (power)"),
    N_("faster deployment"),
    N_("managed-service fees avoided"),
    N_("contractor cost"),
    N_("managed-service prices (factor)"),
    N_("training (5 engineers x $15,000)"),
    N_("exams and materials"),
    N_("bootcamp and lab access"),
    N_("reduced downtime"),
    N_("contractor cost avoidance"),
    N_("efficiency (15% power)"),
    N_("contractor rate (per hour)"),
    N_("downtime cost per GPU-year"),
    N_("deployment speed-up value per GPU"),
    N_("power saving share"),
    N_("electricity price (per kWh)"),
    N_("PUE"),
    N_("kW per GPU"),
    N_("overhead multiplier (loaded cost)"),
    N_("training and exam prices (factor)"),
    N_("discount rate"),
)
_BY_ITEM = {
    "course": "training",
    "bootcamp": "training",
    "practice": "training",
    "exam": "exams",
    "certification bonus": "certification bonuses",
    "mentoring": "mentoring",
    "recruiting": "recruiting",
    "ramp-up": "hire ramp-up",
}


def discount_factor(month: int, rate: float) -> float:
    """Weight of plan month ``month``'s cash at an annual ``rate`` (month 1 undiscounted)."""
    return float((1 + rate) ** (-(month - 1) / 12))


def article_roi(catalog: Catalog) -> Roi:
    """The article's worked example (§9), reproduced exactly."""
    ex = catalog.roi_example
    inv, ret = dict(ex.investment), dict(ex.returns)
    total_inv, total_ret = sum(inv.values()), sum(ret.values())
    notes = (
        say(
            N_(
                "The article's '{stated:.0%} first year' is the net ROI: ({returns:,.0f} - "
                "{investment:,.0f}) / {investment:,.0f} = {roi:.1%}."
            ),
            stated=ex.stated_first_year,
            returns=total_ret,
            investment=total_inv,
            roi=(total_ret - total_inv) / total_inv,
        ),
        say(
            N_(
                "The article's '{stated:.0%} ongoing' is the benefit-cost ratio {returns:,.0f} / "
                "{investment:,.0f} = {ratio:.3f}, a different measure, not an ROI."
            ),
            stated=ex.stated_ongoing,
            returns=total_ret,
            investment=total_inv,
            ratio=total_ret / total_inv,
        ),
        say(N_("Payback here is investment / (annual return / 12), the article's simple measure.")),
    )
    npv_why = say(N_("the article's example gives one year's totals, not a monthly cash flow"))
    return Roi(
        basis_text=say(
            N_("article §9 worked example ({gpus} GPUs, {engineers} engineers)"),
            gpus=ex.gpus,
            engineers=ex.engineers,
        ),
        counterfactual="article",
        investment=total_inv,
        investment_lines=inv,
        returns=total_ret,
        return_lines=ret,
        annual_return=total_ret,
        net_roi=(total_ret - total_inv) / total_inv,
        benefit_cost_ratio=total_ret / total_inv,
        payback_months=total_inv / (total_ret / 12),
        npv=None,
        reasons={"npv": npv_why.english()},
        reason_texts={"npv": npv_why},
        note_texts=notes,
    )


def hire_only(scenario: Scenario, catalog: Catalog, target: Target) -> Sourcing:
    """The hire-only alternative: the greedy rule with nobody on staff to upskill."""
    from gputeam.planning.sourcing import source

    return source(scenario.model_copy(update={"people": ()}), catalog, target, {}, method="rule")


class _World:
    """One side's costs by month (index 0 = month 1), split as the ROI needs them: one-off
    building costs by line (``build``), the team's recurring pay (``run``), certificate
    renewals and contractors; with the staff coverage and contractor hours of each month.

    Contractor amounts are at ``self.rate``; ``training``, ``exams`` and ``renewals`` at
    list prices (the sensitivity analysis scales both)."""

    def __init__(
        self,
        scenario: Scenario,
        catalog: Catalog,
        sourcing: Sourcing,
        roadmaps: Sequence[Roadmap],
        g1: int,
        loaded: float = 1.0,
    ) -> None:
        """``loaded`` scales what the overhead multiplier scales (pay, raises and study time
        at the loaded cost), so the sensitivity analysis varies the overhead without
        rebuilding the ledger."""
        h = scenario.horizon_months
        self.rate = contractor_rate(scenario, catalog)
        self.build: dict[str, list[float]] = {k: [0.0] * h for k in INVESTMENT_LINES}
        self.run = [0.0] * h
        self.renewals = [0.0] * h
        self.contractors = [0.0] * h
        self.contractor_hours = [0.0] * h
        for need in sourcing.contractors:
            if 1 <= need.month <= h:
                self.contractor_hours[need.month - 1] += need.hours
        self.coverage = list(sourcing.coverage_by_month)
        team = {a.person: a.ready_month for a in sourcing.assignments}
        team.update({f"hire:{i}": x.arrival_month for i, x in enumerate(sourcing.hires)})
        for c in ledger(scenario, catalog, sourcing, roadmaps):
            if loaded != 1.0 and c.item in ("pay", "raise"):
                c = c._replace(amount=c.amount * loaded)
            i = c.month - 1
            if c.item == "contractors":
                self.contractors[i] += c.amount
            elif c.who not in team:
                continue  # keeps their former duties: no part of the GPU team's costs
            elif c.item in _BY_ITEM:
                self.build[_BY_ITEM[c.item]][i] += c.amount
            elif c.item == "renewal":
                self.renewals[i] += c.amount
            elif c.item == "raise" or c.who.startswith("hire:"):
                self.run[i] += c.amount  # a raise from the ready month; a hire from arrival
            elif c.month >= max(team[c.who], g1):
                self.run[i] += c.amount  # a current person's pay once in the GPU team
        uplift = loaded_uplift(scenario, catalog)
        people = {p.id: p for p in scenario.people}
        for rm in roadmaps:
            if rm.person not in people or rm.person not in team:
                continue
            hourly = (
                base_salary(catalog, people[rm.person])
                * uplift
                * loaded
                / catalog.economics.hours_per_fte_year
            )
            for item in rm.items:
                m = month_of(scenario.start, item.start)
                if item.kind != "renewal" and 1 <= m <= h:
                    self.build["study time"][m - 1] += item.hours * hourly


@dataclass(frozen=True)
class _Assumptions:
    """The figures the returns are computed from (the sensitivity analysis varies them)."""

    rate: float  # contractor rate per hour
    hours_month: float
    downtime: float  # per GPU-year
    deploy: float  # per GPU added
    power_share: float
    kw: float
    pue: float
    kwh_price: float
    paid: float  # share of GPUs whose power the organisation pays
    disc: float  # annual discount rate
    price: float = 1.0  # factor on training, exam and renewal prices
    service: float = 1.0  # factor on the managed service's prices
    #: fleet.power_saving: article -- the power bill per GPU-year the article's figure
    #: implies (its saving / its share); None: the bill from kW, PUE and price
    article_bill: float | None = None

    @classmethod
    def of(cls, scenario: Scenario, catalog: Catalog) -> _Assumptions:
        e = catalog.economics
        f = scenario.fleet
        return cls(
            rate=contractor_rate(scenario, catalog),
            hours_month=e.hours_per_fte_year / 12,
            downtime=e.downtime_cost_per_gpu_year,
            deploy=e.deployment_speedup_value_per_gpu,
            power_share=e.efficiency_power_share,
            kw=kw_per_gpu(scenario, catalog),
            pue=f.pue or e.pue,
            kwh_price=scenario.kwh_price if scenario.kwh_price is not None else e.usd_per_kwh,
            paid=scenario.roi.paid_share(f.deployment),
            disc=scenario.roi.discount_rate,
            article_bill=article_saving_per_gpu_year(catalog) / e.efficiency_power_share
            if f.power_saving == "article" and e.efficiency_power_share
            else None,
        )


def service_rates(scenario: Scenario, catalog: Catalog) -> dict[int, float]:
    """The managed service's price per staffed hour by level, in the plan's currency:
    ``roi.service_rate_h``, else the catalog's markup (``economics.managed_service``, article
    §9) times the loaded hourly cost of the level's band middle (the plan's own bands, so a
    service is priced like the local pay), else the contractor rate."""
    e = catalog.economics
    ms = e.managed_service
    out: dict[int, float] = {}
    for lv in (1, 2, 3, 4, 5):
        if lv in scenario.roi.service_rate_h:
            out[lv] = scenario.roi.service_rate_h[lv]
        elif ms is not None:
            out[lv] = (
                ms.markup_over_loaded_cost
                * band_mid(catalog, lv)
                * e.overhead_multiplier
                / e.hours_per_fte_year
            )
        else:
            out[lv] = contractor_rate(scenario, catalog)
    return out


def service_per_gpu_month(scenario: Scenario, catalog: Catalog) -> float | None:
    """The managed service's price per GPU-month, or None when it is priced per slot:
    ``roi.service_per_gpu_month``; else per slot when ``roi.service_rate_h`` is given; else
    the catalog's per-GPU-month price (article §9), else per slot at the catalog's rates."""
    if scenario.roi.service_per_gpu_month is not None:
        return scenario.roi.service_per_gpu_month
    if scenario.roi.service_rate_h:
        return None
    ms = catalog.economics.managed_service
    return ms.per_gpu_month_usd if ms is not None else None


def service_fees(scenario: Scenario, catalog: Catalog, target: Target, g1: int) -> list[float]:
    """What the managed service charges each month to run the whole target, from the first
    GPU: per GPU-month when priced so (``roi.service_per_gpu_month``, else the catalog's),
    else each slot's FTE-month hours at its level's rate."""
    h = scenario.horizon_months
    per_gpu = service_per_gpu_month(scenario, catalog)
    rates = service_rates(scenario, catalog)
    hours = catalog.economics.hours_per_fte_month
    out = [0.0] * h
    for m in range(max(g1, 1), h + 1):
        tm = target.at(m)
        if tm.headcount == 0:
            continue
        if per_gpu is not None:
            out[m - 1] = scenario.fleet.gpus_at(m) * per_gpu
        else:
            out[m - 1] = sum(s.count * hours * rates[s.level_min] for s in tm.slots)
    return out


@dataclass(frozen=True)
class _Sides:
    """The plan's and the alternative's costs, with the fleet and target by month."""

    plan: _World
    alt: _World | None  # hire-only; None: a service (managed or outsourced)
    gpus: list[int]
    heads: list[int]
    g1: int
    counterfactual: str
    fees: list[float]  # the managed service's fees at its list prices

    @classmethod
    def of(
        cls,
        scenario: Scenario,
        catalog: Catalog,
        target: Target,
        sourcing: Sourcing,
        roadmaps: Sequence[Roadmap],
        alternative: Sourcing | None = None,
        loaded: float = 1.0,
        counterfactual: str | None = None,
    ) -> _Sides:
        cf = counterfactual or scenario.roi.counterfactual
        h = scenario.horizon_months
        gpus = [scenario.fleet.gpus_at(m) for m in range(1, h + 1)]
        g1 = next((m for m, g in enumerate(gpus, start=1) if g > 0), h + 1)
        heads = [target.at(m).headcount for m in range(1, h + 1)]
        plan = _World(scenario, catalog, sourcing, roadmaps, g1, loaded)
        alt: _World | None = None
        if cf == "hire-only":
            alt_sourcing = alternative or hire_only(scenario, catalog, target)
            alt = _World(scenario.model_copy(update={"people": ()}), catalog, alt_sourcing, (), g1, loaded)
        fees = service_fees(scenario, catalog, target, g1) if cf == "managed-service" else [0.0] * h
        return cls(plan, alt, gpus, heads, g1, cf, fees)

    def running(self, m: int) -> bool:
        """Whether month ``m`` has GPUs in service (from the first) and a target to run them."""
        return m >= self.g1 and self.heads[m - 1] > 0

    def cover(self, w: _World | None, m: int) -> float:
        if w is None or not self.running(m) or m > len(w.coverage):
            return 0.0
        return w.coverage[m - 1]

    def filled(self, w: _World | None, m: int, hours_month: float) -> float:
        """Share of the target someone runs: staff plus contractor FTEs, at most 1; a service
        (``w`` None) runs all of it."""
        if not self.running(m):
            return 0.0
        if w is None:
            return 1.0
        fte = w.contractor_hours[m - 1] / hours_month if hours_month else 0.0
        return min(1.0, self.cover(w, m) + fte / self.heads[m - 1])


#: coverage, the alternative's, filled shares of both, investment lines, return lines
_Flow = tuple[float, float, float, float, dict[str, float], dict[str, float]]
_PRICED = ("training", "exams")
FEES = {"managed-service": "managed-service fees avoided", "outsourced": "outsourcing cost avoided"}


def _flows(s: _Sides, a: _Assumptions) -> list[_Flow]:
    """Each month's coverage, investment lines and return lines, rounded to cents."""
    plan, alt = s.plan, s.alt
    bill = a.article_bill if a.article_bill is not None else a.kw * a.pue * HOURS_PER_YEAR * a.kwh_price
    power = a.paid * bill / 12 * a.power_share
    out: list[_Flow] = []
    peak = s.gpus[0] if s.gpus else 0
    k_plan = a.rate / plan.rate if plan.rate else 1.0  # contractor amounts at the rate used
    k_alt = a.rate / alt.rate if alt is not None and alt.rate else 1.0
    for i, gpus in enumerate(s.gpus):
        m = i + 1
        c, c_alt = s.cover(plan, m), s.cover(alt, m)
        f, f_alt = s.filled(plan, m, a.hours_month), s.filled(alt, m, a.hours_month)
        invest = {k: _cents(plan.build[k][i] * (a.price if k in _PRICED else 1.0)) for k in INVESTMENT_LINES}
        ret: dict[str, float] = {}
        if alt is None:
            if s.counterfactual == "outsourced":
                fee = s.heads[i] * a.hours_month * a.rate if s.running(m) else 0.0
            else:
                fee = s.fees[i] * a.service
            ret[FEES[s.counterfactual]] = fee
            ret["contractor cost"] = -plan.contractors[i] * k_plan
        else:
            ret["contractor cost avoided"] = alt.contractors[i] * k_alt - plan.contractors[i] * k_plan
            ret["hire-only pay avoided"] = alt.run[i] + alt.renewals[i] * a.price
            ret["hire-only building costs avoided"] = sum(
                v[i] * (a.price if k in _PRICED else 1.0) for k, v in alt.build.items()
            )
        ret["in-house run cost"] = -(plan.run[i] + plan.renewals[i] * a.price)
        added = max(0, gpus - peak) if m > 1 else 0
        peak = max(peak, gpus)
        ret["downtime avoided"] = gpus * a.downtime / 12 * (f - f_alt)
        ret["efficiency (power)"] = gpus * power * (f - f_alt)
        ret["faster deployment"] = added * a.deploy * (f - f_alt)
        out.append((c, c_alt, f, f_alt, invest, {k: _cents(v) for k, v in ret.items()}))
    return out


def _cents(v: float) -> float:
    return round(v, 2) + 0.0 if v else 0.0  # + 0.0: no "-0.0" in the JSON


def compute_roi(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    sourcing: Sourcing,
    roadmaps: Sequence[Roadmap],
    alternative: Sourcing | None = None,
) -> Roi:
    """The plan's ROI against ``scenario.roi.counterfactual`` (the headline), with each of
    ``scenario.roi.alternatives`` beside it (see the module docstring). ``alternative`` is
    the hire-only sourcing when already computed."""
    settings = scenario.roi
    order = [settings.counterfactual, *(x for x in settings.alternatives if x != settings.counterfactual)]
    if any(x == "hire-only" for x in order) and alternative is None:
        alternative = hire_only(scenario, catalog, target)
    a = _Assumptions.of(scenario, catalog)
    results = [
        _one(
            scenario,
            catalog,
            _Sides.of(scenario, catalog, target, sourcing, roadmaps, alternative, counterfactual=cf),
            a,
        )
        for cf in order
    ]
    side_by_side = tuple(
        RoiAlternative(
            counterfactual=r.counterfactual,
            headline=i == 0,
            investment=r.investment,
            returns=r.returns,
            return_lines=r.return_lines,
            net_roi=r.net_roi,
            benefit_cost_ratio=r.benefit_cost_ratio,
            payback_months=r.payback_months,
            npv=r.npv,
            reasons=r.reasons,
            reason_texts=r.reason_texts,
            basis_text=r.basis_text,
        )
        for i, r in enumerate(results)
    )
    return results[0].model_copy(update={"alternatives": side_by_side})


def _one(scenario: Scenario, catalog: Catalog, sides: _Sides, a: _Assumptions) -> Roi:
    months: list[RoiMonth] = []
    cumulative = 0.0
    for m, (c, c_alt, f, f_alt, invest, ret) in enumerate(_flows(sides, a), start=1):
        flow = round(sum(ret.values()) - sum(invest.values()), 2)
        cumulative = round(cumulative + flow, 2)
        months.append(
            RoiMonth(
                month=m,
                gpus=sides.gpus[m - 1],
                coverage=round(c, 6),
                alternative_coverage=round(c_alt, 6),
                filled=round(f, 6),
                alternative_filled=round(f_alt, 6),
                investment=invest,
                returns=ret,
                cash_flow=flow,
                cumulative=cumulative,
                discount_factor=round(discount_factor(m, a.disc), 8),
            )
        )
    return _measures(scenario, catalog, months, a, sides)


def _measures(
    scenario: Scenario, catalog: Catalog, months: list[RoiMonth], a: _Assumptions, sides: _Sides
) -> Roi:
    h = scenario.horizon_months
    g1 = sides.g1
    inv_lines = {k: round(sum(x.investment[k] for x in months), 2) for k in months[0].investment}
    ret_lines = {k: round(sum(x.returns[k] for x in months), 2) for k in months[0].returns}
    investment = round(sum(inv_lines.values()), 2)
    returns = round(sum(ret_lines.values()), 2)
    last = months[-min(12, h) :]
    annual = round(sum(sum(x.returns.values()) for x in last) * 12 / len(last), 2)
    reasons: dict[str, Text] = {}
    net = bcr = payback = None
    if investment > 0:
        net = (returns - investment) / investment
        bcr = returns / investment
        payback = payback_month(months)
        if payback is None:
            reasons["payback_months"] = say(
                N_("not paid back within the {months}-month horizon (cumulative cash flow {cumulative})"),
                months=h,
                cumulative=Money(amount=months[-1].cumulative, currency=scenario.currency),
            )
    else:
        why = say(N_("no investment: the plan pays no building cost, so there is nothing to return on"))
        reasons.update(net_roi=why, benefit_cost_ratio=why, payback_months=why)
    npv = round(sum(x.cash_flow * x.discount_factor for x in months), 2)
    cf = sides.counterfactual
    cur = scenario.currency
    alt = _alternative_text(scenario, catalog, cf, a)
    first = (
        say(N_("first GPU in month {month}"), month=g1) if g1 <= h else say(N_("no GPUs within the horizon"))
    )
    if a.article_bill is None:
        power = say(
            N_("GPUs x {kw:g} kW x PUE {pue:g} x 730 h x {price:g} {currency}/kWh a month x {share:.0%}"),
            kw=a.kw,
            pue=a.pue,
            price=a.kwh_price,
            currency=cur,
            share=a.power_share,
        )
    else:
        power = say(
            N_(
                "the article's figure (fleet.power_saving: article, §9): a power bill of {bill:,.0f} "
                "{currency} per GPU-year / 12 x {share:.0%} (see the power-saving note)"
            ),
            bill=a.article_bill,
            currency=cur,
            share=a.power_share,
        )
    notes = (
        say(
            N_("Counterfactual: {alternative}; {first}; returns counted from then on."),
            alternative=alt,
            first=first,
        ),
        say(
            N_(
                "Investment is the one-off cost of building the capability (training, exams, "
                "certification bonuses, study time, mentoring, recruiting, ramp-up) in the month "
                "it is paid; recurring cash (pay, raises, retention bonuses, renewals, "
                "contractors) is in the returns whatever the month, so the same cash flows "
                "give the same ROI, whatever the deadline."
            )
        ),
        say(
            N_("Power saving on {share:.0%} of the GPUs (those whose power the organisation pays): {power}."),
            share=a.paid,
            power=power,
        ),
        say(
            N_(
                "NPV discounts each month's cash flow at {rate:.1%} a year; net ROI and the benefit-cost "
                "ratio are over the horizon, undiscounted."
            ),
            rate=a.disc,
        ),
    )
    line_why = _line_reasons(cf, scenario)
    return Roi(
        basis_text=say(N_("the plan against {alternative} over {months} months"), alternative=cf, months=h),
        counterfactual=cf,
        investment=investment,
        investment_lines=inv_lines,
        returns=returns,
        return_lines=ret_lines,
        return_reasons={k: v.english() for k, v in line_why.items()},
        return_reason_texts=line_why,
        annual_return=annual,
        net_roi=net,
        benefit_cost_ratio=bcr,
        payback_months=payback,
        npv=npv,
        discount_rate=a.disc,
        reasons={k: v.english() for k, v in reasons.items()},
        reason_texts=reasons,
        months=tuple(months),
        note_texts=notes,
    )


def _alternative_text(scenario: Scenario, catalog: Catalog, cf: str, a: _Assumptions) -> Text:
    cur = scenario.currency
    if cf == "outsourced":
        return say(
            N_(
                "fully outsourced operation (every target slot at the one contractor rate of "
                "{rate:,.0f} {currency}/h, the article's §9 framing)"
            ),
            rate=a.rate,
            currency=cur,
        )
    if cf == "hire-only":
        return say(
            N_(
                "hire-only (the target filled by experienced hires at the salary bands, with "
                "their lead time and ramp-up, bridged by contractors, nobody upskilled)"
            )
        )
    per_gpu = service_per_gpu_month(scenario, catalog)
    if per_gpu is not None:
        return say(
            N_("a managed service running the whole target at {price} per GPU-month"),
            price=Money(amount=per_gpu * a.service, currency=cur),
        )
    rates = service_rates(scenario, catalog)
    return say(
        N_(
            "a managed service running the whole target, each slot priced by its level: "
            "{l1}, {l2}, {l3}, {l4} and {l5} per hour for Levels 1 to 5"
        ),
        **{f"l{lv}": Money(amount=rates[lv] * a.service, currency=cur) for lv in sorted(rates)},
    )


def _line_reasons(cf: str, scenario: Scenario) -> dict[str, Text]:
    """Why each return line counts against ``cf`` (or why it is zero)."""
    out: dict[str, Text] = {}
    if cf == "hire-only":
        out["contractor cost avoided"] = say(
            N_("the contractors hire-only needs until its hires arrive, less the plan's own contractors")
        )
        out["hire-only pay avoided"] = say(
            N_("the pay, retention bonuses and renewals of the hires the alternative would employ instead")
        )
        out["hire-only building costs avoided"] = say(
            N_("the alternative's recruiting, ramp-up and onboarding training, not spent")
        )
        benefit = say(
            N_(
                "credited only for the difference, month by month, in the share of the target "
                "someone runs (staff plus contractors) between the plan and hire-only: both are "
                "competent teams, so a slot run in both earns nothing"
            )
        )
    else:
        out[FEES[cf]] = (
            say(
                N_(
                    "the service's fees for running the whole target from the first GPU, at "
                    "the prices the counterfactual note states"
                )
            )
            if cf == "managed-service"
            else say(
                N_(
                    "every target slot from the first GPU at the one contractor rate (the "
                    "article's §9 framing)"
                )
            )
        )
        out["contractor cost"] = say(
            N_("the plan's own contractors (bridging, shadowing), which the service's fee already includes")
        )
        benefit = say(
            N_(
                "credited only where the plan leaves target slots unrun that the service would run "
                "(then negative): a managed service also reduces downtime, saves power and deploys, "
                "and no source gives a certified team an edge over it"
            )
        )
    out["in-house run cost"] = say(
        N_(
            "the GPU team's pay, raises, retention bonuses and certificate renewals: recurring "
            "cash, every month"
        )
    )
    for line in ("downtime avoided", "efficiency (power)", "faster deployment"):
        out[line] = benefit
    return out


def payback_month(months: Sequence[RoiMonth]) -> float | None:
    """When the cumulative cash flow, counted from the first month with an investment, is
    non-negative for good, in months since the plan's start: each month's investment is paid
    at its start and its returns accrue evenly over it, so after the last month ``k`` that
    starts (after paying) or ends below zero, ``(k - 1) + (-start_k) / returns_k``. None when
    nothing is invested or it ends below zero. Never 0 while anything was invested: the first
    investment puts the running sum below zero."""
    first = next((x.month for x in months if sum(x.investment.values()) > 0), None)
    if first is None:
        return None
    running = 0.0
    last: tuple[int, float, float] | None = None  # month, start, returns of the last month below zero
    for x in months:
        if x.month < first:
            continue
        inv, ret = sum(x.investment.values()), sum(x.returns.values())
        start = running - inv
        running = start + ret
        if start < 0 or running < 0:
            last = (x.month, start, ret)
    if running < 0 or last is None:
        return None
    k, start, ret = last
    return (k - 1) + (-start) / ret if start < 0 else float(k)


# ---------------------------------------------------------------- sensitivity
def sensitivity(
    scenario: Scenario,
    catalog: Catalog,
    target: Target,
    sourcing: Sourcing,
    roadmaps: Sequence[Roadmap],
    top: int = 6,
) -> list[dict[str, Any]]:
    """NPV and net ROI with each ROI assumption at its low and high value, the team plan
    held fixed; the ``top`` widest NPV swings first.

    Ranges: published ones where the article gives them (PUE 1.3-1.5 and $0.10-0.15/kWh
    from its power figures; training prices +-25%, the bootcamp range $15-25k, §6), overhead
    +-10%, discount rate +-4 points; otherwise +-25% around the value used (a gputeam
    assumption). The overhead scales the loaded pay, raises and study time; the other figures
    are linear.
    """
    e = catalog.economics
    alt = hire_only(scenario, catalog, target) if scenario.roi.counterfactual == "hire-only" else None
    base_sides = _Sides.of(scenario, catalog, target, sourcing, roadmaps, alt)
    a = _Assumptions.of(scenario, catalog)

    def with_overhead(v: float) -> _Sides:
        # what the overhead multiplies (pay, raises, study time) scaled by v / the value used
        return _Sides.of(scenario, catalog, target, sourcing, roadmaps, alt, loaded=v / e.overhead_multiplier)

    # (name, value used, low, high, assumption field or None, costs rebuilt for a value)
    Rebuild = Callable[[float], _Sides] | None
    items: list[tuple[str, float, float, float, str | None, Rebuild]] = [
        ("contractor rate (per hour)", a.rate, a.rate * 0.75, a.rate * 1.25, "rate", None),
        ("downtime cost per GPU-year", a.downtime, a.downtime * 0.75, a.downtime * 1.25, "downtime", None),
        ("deployment speed-up value per GPU", a.deploy, a.deploy * 0.75, a.deploy * 1.25, "deploy", None),
        (
            "power saving share",
            a.power_share,
            a.power_share * 0.75,
            a.power_share * 1.25,
            "power_share",
            None,
        ),
        ("electricity price (per kWh)", a.kwh_price, 0.10, 0.15, "kwh_price", None),
        ("PUE", a.pue, 1.3, 1.5, "pue", None),
        ("kW per GPU", a.kw, a.kw * 0.75, a.kw * 1.25, "kw", None),
        (
            "overhead multiplier (loaded cost)",
            e.overhead_multiplier,
            e.overhead_multiplier * 0.9,
            e.overhead_multiplier * 1.1,
            None,
            with_overhead,
        ),
        ("training and exam prices (factor)", 1.0, 0.75, 1.25, "price", None),
        ("managed-service prices (factor)", 1.0, 0.75, 1.25, "service", None),
        ("discount rate", a.disc, max(0.0, a.disc - 0.04), a.disc + 0.04, "disc", None),
    ]
    out: list[dict[str, Any]] = []
    for name, value, lo, hi, field, rebuild in items:
        res = []
        for v in (lo, hi):
            sides = rebuild(v) if rebuild else base_sides
            res.append(
                _quick(
                    _flows(sides, replace(a, **{field: v}) if field else a), a.disc if field != "disc" else v
                )
            )
        out.append(
            {
                "assumption": name,
                "value": round(value, 6),
                "low_value": round(lo, 6),
                "high_value": round(hi, 6),
                "npv_low": res[0][0],
                "npv_high": res[1][0],
                "roi_low": res[0][1],
                "roi_high": res[1][1],
            }
        )
    out.sort(key=lambda s: -abs(float(s["npv_high"]) - float(s["npv_low"])))
    return out[:top]


def _quick(flows: list[_Flow], disc: float) -> tuple[float, float | None]:
    """NPV and net ROI of monthly flows (the same definitions as :func:`compute_roi`)."""
    inv = ret = npv = 0.0
    for m, (*_, invest, returns) in enumerate(flows, start=1):
        i, r = sum(invest.values()), sum(returns.values())
        inv, ret = inv + i, ret + r
        npv += round(r - i, 2) * discount_factor(m, disc)
    return round(npv, 2), (round((ret - inv) / inv, 6) if inv > 0 else None)
