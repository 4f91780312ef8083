"""ROI: what the plan's in-house path returns against the alternative (article §9).

The plan is compared, month by month, with what the organisation would otherwise do
(``scenario.roi.counterfactual``): ``outsourced`` (the slots staff cover run by contractors
at the contractor rate) or ``hire-only`` (the same target filled by hires, bridged by
contractors until they arrive, nobody upskilled: the greedy rule with no current staff).
``g1`` is the first month with GPUs in service.

Investment (one-off costs of building the capability, in the month paid), for the GPU team
(people assigned a target role, and hires): training, exams, certification bonuses, study
time (roadmap hours of current staff at their loaded hourly cost: salary x overhead x
premium / ``hours_per_fte_year``), mentoring, recruiting, hire ramp-up, hires' pay before
``g1``, raises paid up to the deadline month, and contractors paid before ``g1``.

Returns, per month:

* contractor cost the alternative pays and the plan does not, from ``g1`` (outsourced: the
  slots staff cover x ``hours_per_fte_year / 12`` x the rate, so the plan's own bridging
  contractors, paid in both, cancel out);
* less the in-house run cost from ``g1``: the loaded pay and retention bonuses of the team
  (a current person from their ready month, whose former duties are assumed backfilled at
  the same cost; a hire from arrival), raises after the deadline, certificate renewals;
* hire-only only: the alternative's own pay and building costs, avoided;
* operational benefits x (staff coverage - the alternative's coverage), from the article's
  100-GPU example per GPU: downtime ($1,000 per GPU-year) / 12 x GPUs in service;
  efficiency: GPUs whose power the organisation pays x kW x PUE x 730 h x $/kWh x the
  power share (15%); faster deployment ($3,000 per GPU) once, for GPUs added after month 1,
  in the month they arrive. A month whose target is empty, or before ``g1``, earns nothing.

Measures: ``net_roi = (returns - investment) / investment``, ``benefit_cost_ratio = returns
/ investment`` over the horizon; ``payback_months`` from the cumulative cash flow
(``returns - investment`` by month); ``npv`` = sum of the cash flow x ``(1 + r) ** (-(m -
1) / 12)``. A measure that is undefined is None, with the reason in ``reasons``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gputeam.catalog import Catalog
from gputeam.i18n import N_
from gputeam.planning.calendar import month_of
from gputeam.planning.costs import base_salary, contractor_rate, ledger, loaded_uplift
from gputeam.planning.power import HOURS_PER_YEAR, article_saving_per_gpu_year
from gputeam.planning.result import Roadmap, Roi, RoiMonth, Sourcing, Target
from gputeam.planning.text import Text, say
from gputeam.scenario import Scenario

INVESTMENT_LINES = (
    "training",
    "exams",
    "certification bonuses",
    "study time",
    "mentoring",
    "recruiting",
    "hire ramp-up",
    "hires' pay before the first GPU",
    "raises during the build-up",
    "contractors before the first GPU",
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
    """One side's costs by month (index 0 = month 1), split as the ROI needs them.

    Contractor amounts are at ``self.rate``; ``training`` and ``exams`` and ``renewals`` at
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
        self.coverage = list(sourcing.coverage_by_month)
        team = {a.person: a.ready_month for a in sourcing.assignments}
        team.update({f"hire:{i}": x.arrival_month for i, x in enumerate(sourcing.hires)})
        deadline = scenario.deadline
        for c in ledger(scenario, catalog, sourcing, roadmaps):
            if loaded != 1.0 and c.item in ("pay", "raise"):
                c = c._replace(amount=c.amount * loaded)
            i = c.month - 1
            if c.item == "contractors":
                if c.month < g1:
                    self.build["contractors before the first GPU"][i] += c.amount
                else:
                    self.contractors[i] += c.amount
                continue
            if c.who not in team:
                continue  # keeps their former duties: no part of the GPU team's costs
            hire = c.who.startswith("hire:")
            if c.item in _BY_ITEM:
                self.build[_BY_ITEM[c.item]][i] += c.amount
            elif c.item == "renewal":
                (self.renewals if c.month >= g1 else self.build["exams"])[i] += c.amount
            elif c.item == "raise":
                if c.month <= deadline or c.month < g1:
                    self.build["raises during the build-up"][i] += c.amount
                else:
                    self.run[i] += c.amount
            elif hire:  # pay and retention bonus from arrival
                if c.month < g1:
                    self.build["hires' pay before the first GPU"][i] += c.amount
                else:
                    self.run[i] += c.amount
            elif c.month >= max(team[c.who], g1):
                self.run[i] += c.amount
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
            kw=f.kw_per_gpu or e.kw_per_gpu,
            pue=f.pue or e.pue,
            kwh_price=scenario.kwh_price if scenario.kwh_price is not None else e.usd_per_kwh,
            paid=scenario.roi.paid_share(f.deployment),
            disc=scenario.roi.discount_rate,
            article_bill=article_saving_per_gpu_year(catalog) / e.efficiency_power_share
            if f.power_saving == "article" and e.efficiency_power_share
            else None,
        )


@dataclass(frozen=True)
class _Sides:
    """The plan's and the alternative's costs, with the fleet and target by month."""

    plan: _World
    alt: _World | None
    gpus: list[int]
    heads: list[int]
    g1: int

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
    ) -> _Sides:
        h = scenario.horizon_months
        gpus = [scenario.fleet.gpus_at(m) for m in range(1, h + 1)]
        g1 = next((m for m, g in enumerate(gpus, start=1) if g > 0), h + 1)
        heads = [target.at(m).headcount for m in range(1, h + 1)]
        plan = _World(scenario, catalog, sourcing, roadmaps, g1, loaded)
        alt: _World | None = None
        if scenario.roi.counterfactual == "hire-only":
            alt_sourcing = alternative or hire_only(scenario, catalog, target)
            alt = _World(scenario.model_copy(update={"people": ()}), catalog, alt_sourcing, (), g1, loaded)
        return cls(plan, alt, gpus, heads, g1)

    def cover(self, w: _World | None, m: int) -> float:
        if w is None or m < self.g1 or self.heads[m - 1] == 0 or m > len(w.coverage):
            return 0.0
        return w.coverage[m - 1]


_Flow = tuple[float, float, dict[str, float], dict[str, float]]  # coverage, alt's, lines


def _flows(s: _Sides, a: _Assumptions) -> list[_Flow]:
    """Each month's coverage, investment lines and return lines, rounded to cents."""
    plan, alt = s.plan, s.alt
    avoided = "outsourcing cost avoided" if alt is None else "contractor cost avoided"
    bill = a.article_bill if a.article_bill is not None else a.kw * a.pue * HOURS_PER_YEAR * a.kwh_price
    power = a.paid * bill / 12 * a.power_share
    out: list[_Flow] = []
    peak = s.gpus[0] if s.gpus else 0
    priced = ("training", "exams")
    k_plan = a.rate / plan.rate if plan.rate else 1.0  # contractor amounts at the rate used
    k_alt = a.rate / alt.rate if alt is not None and alt.rate else 1.0
    for i, gpus in enumerate(s.gpus):
        m = i + 1
        c, c_alt = s.cover(plan, m), s.cover(alt, m)
        invest = {k: _cents(plan.build[k][i] * (a.price if k in priced else 1.0)) for k in INVESTMENT_LINES}
        invest["contractors before the first GPU"] = _cents(
            plan.build["contractors before the first GPU"][i] * k_plan
        )
        ret: dict[str, float] = {}
        if alt is None:
            ret[avoided] = c * s.heads[i] * a.hours_month * a.rate if m >= s.g1 else 0.0
        else:
            ret[avoided] = alt.contractors[i] * k_alt - plan.contractors[i] * k_plan
            ret["hire-only pay avoided"] = alt.run[i] + alt.renewals[i] * a.price
            ret["hire-only building costs avoided"] = sum(v[i] for v in alt.build.values()) + alt.build[
                "contractors before the first GPU"
            ][i] * (k_alt - 1)
        ret["in-house run cost"] = -(plan.run[i] + plan.renewals[i] * a.price)
        added = max(0, gpus - peak) if m > 1 else 0
        peak = max(peak, gpus)
        ret["downtime avoided"] = gpus * a.downtime / 12 * (c - c_alt)
        ret["efficiency (power)"] = gpus * power * (c - c_alt)
        ret["faster deployment"] = added * a.deploy * (c - c_alt)
        out.append((c, c_alt, invest, {k: _cents(v) for k, v in ret.items()}))
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
    """The plan's ROI against ``scenario.roi.counterfactual`` (see the module docstring).
    ``alternative`` is the hire-only sourcing when already computed."""
    sides = _Sides.of(scenario, catalog, target, sourcing, roadmaps, alternative)
    a = _Assumptions.of(scenario, catalog)
    months: list[RoiMonth] = []
    cumulative = 0.0
    for m, (c, c_alt, invest, ret) in enumerate(_flows(sides, a), start=1):
        flow = round(sum(ret.values()) - sum(invest.values()), 2)
        cumulative = round(cumulative + flow, 2)
        months.append(
            RoiMonth(
                month=m,
                gpus=sides.gpus[m - 1],
                coverage=round(c, 6),
                alternative_coverage=round(c_alt, 6),
                investment=invest,
                returns=ret,
                cash_flow=flow,
                cumulative=cumulative,
                discount_factor=round(discount_factor(m, a.disc), 8),
            )
        )
    return _measures(scenario, months, a, sides.g1)


def _measures(scenario: Scenario, months: list[RoiMonth], a: _Assumptions, g1: int) -> Roi:
    h = scenario.horizon_months
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
                N_(
                    "not paid back within the {months}-month horizon (cumulative cash flow {cumulative:,.0f})"
                ),
                months=h,
                cumulative=months[-1].cumulative,
            )
    else:
        why = say(N_("no investment: the plan pays no building cost, so there is nothing to return on"))
        reasons.update(net_roi=why, benefit_cost_ratio=why, payback_months=why)
    npv = round(sum(x.cash_flow * x.discount_factor for x in months), 2)
    cf = scenario.roi.counterfactual
    cur = scenario.currency
    if cf == "outsourced":
        alt = say(
            N_(
                "fully outsourced operation (contractors at {rate:,.0f} {currency}/h for the slots staff "
                "cover)"
            ),
            rate=a.rate,
            currency=cur,
        )
    else:
        alt = say(N_("hire-only (the target filled by hires and bridging contractors, nobody upskilled)"))
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
    basis = (
        say(N_("the plan against outsourced over {months} months"), months=h)
        if cf == "outsourced"
        else say(N_("the plan against hire-only over {months} months"), months=h)
    )
    return Roi(
        basis_text=basis,
        counterfactual=cf,
        investment=investment,
        investment_lines=inv_lines,
        returns=returns,
        return_lines=ret_lines,
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


def payback_month(months: Sequence[RoiMonth]) -> float | None:
    """Months until the cumulative cash flow turns non-negative for good: after the last
    month ``k`` that ends below zero, ``k + (-cumulative_k) / cash_flow_{k+1}``; 0.0 when it
    never goes below zero; None when it ends below zero."""
    if not months or months[-1].cumulative < 0:
        return None
    k = max((x.month for x in months if x.cumulative < 0), default=0)
    if k == 0:
        return 0.0
    before = months[k - 1].cumulative
    return k + (-before) / months[k].cash_flow


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
    for m, (_, _, invest, returns) in enumerate(flows, start=1):
        i, r = sum(invest.values()), sum(returns.values())
        inv, ret = inv + i, ret + r
        npv += round(r - i, 2) * discount_factor(m, disc)
    return round(npv, 2), (round((ret - inv) / inv, 6) if inv > 0 else None)
