"""Plans side by side (``gputeam compare``): the figures a planner weighs, and the
differences against the first plan in words.

Every figure is read from the Plan in one place, :func:`figures`; the comparison table, the
sentences and the sweep grid (:mod:`gputeam.report.sweep`) all use what it returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from gputeam.i18n import N_, _, ngettext
from gputeam.i18n.codes import label as code_label
from gputeam.planning.result import Plan
from gputeam.report.tables import Cell, Column, Kind, Section, Table, format_value, money

__all__ = [
    "READY_SHARE",
    "MixedCurrencies",
    "PlanFigures",
    "compare_json",
    "compare_sections",
    "differences",
    "figures",
    "one_currency",
    "render_html",
    "render_md",
]

READY_SHARE = 1.0
"""A plan is *ready* from the first month from which staff (not contractors) cover at least
this share of the target's slots in every later month of the horizon."""


@dataclass(frozen=True)
class PlanFigures:
    """The headline figures of one plan (``None`` where the plan has no such figure)."""

    organisation: str
    currency: str
    mode: str
    status: str
    horizon_months: int
    deadline_month: int
    gpus_at_deadline: int
    headcount_at_deadline: int
    people_upskilled: int
    hires: int
    hires_by_level: dict[int, int] = field(default_factory=dict)
    contractor_hours: float = 0.0
    first_year_cost: float = 0.0
    horizon_cost: float = 0.0
    annual_run_rate: float = 0.0
    net_roi: float | None = None
    payback_months: float | None = None
    p_ready: float | None = None
    ready_month: int | None = None


def figures(plan: Plan) -> PlanFigures:
    """The plan's headline figures. The only place compare and sweep read a Plan's fields."""
    sc = plan.scenario
    deadline = sc.deadline
    at = plan.target.at(deadline)
    by_level: dict[int, int] = {}
    for h in plan.sourcing.hires:
        by_level[h.level] = by_level.get(h.level, 0) + h.count
    p_ready = plan.risk.p_ready_by_deadline if plan.risk is not None else None
    return PlanFigures(
        organisation=sc.organisation,
        currency=plan.costs.currency,
        mode=plan.target.mode,
        status=plan.sourcing.status,
        horizon_months=len(plan.target.months),
        deadline_month=deadline,
        gpus_at_deadline=at.gpus,
        headcount_at_deadline=at.headcount,
        people_upskilled=len(plan.sourcing.assignments),
        hires=sum(by_level.values()),
        hires_by_level=dict(sorted(by_level.items())),
        contractor_hours=sum(c.hours for c in plan.sourcing.contractors),
        first_year_cost=plan.costs.first_year,
        horizon_cost=plan.costs.horizon,
        annual_run_rate=plan.costs.annual_run_rate,
        net_roi=plan.roi.net_roi,
        payback_months=plan.roi.payback_months,
        p_ready=None if p_ready is None else float(p_ready),
        ready_month=plan.sourcing.ready_month(READY_SHARE),
    )


#: (label, attribute, kind) of each row of the comparison, in order (labels translated
#: where shown).
ROWS: tuple[tuple[str, str, Kind], ...] = (
    (N_("Organisation"), "organisation", "text"),
    (N_("Currency"), "currency", "text"),
    (N_("Mode"), "mode", "text"),
    (N_("Sourcing status"), "status", "text"),
    (N_("Deadline month"), "deadline_month", "month"),
    (N_("GPUs at deadline"), "gpus_at_deadline", "int"),
    (N_("Target headcount at deadline"), "headcount_at_deadline", "int"),
    (N_("People upskilled"), "people_upskilled", "int"),
    (N_("Hires"), "hires", "int"),
    (N_("Contractor hours"), "contractor_hours", "hours"),
    (N_("First-year cost"), "first_year_cost", "money"),
    (N_("Horizon cost"), "horizon_cost", "money"),
    (N_("Annual run rate"), "annual_run_rate", "money"),
    (N_("Net ROI"), "net_roi", "pct"),
    (N_("Payback (months)"), "payback_months", "float"),
    (N_("P(ready by deadline)"), "p_ready", "pct"),
    (N_("Ready from month"), "ready_month", "month"),
)


class MixedCurrencies(ValueError):
    """Amounts of plans in different currencies were to be added or set on one axis."""


def one_currency(figs: Sequence[PlanFigures]) -> str:
    """The one currency of ``figs``, the condition for adding or charting their amounts
    together; :class:`MixedCurrencies` when they differ (there is no exchange rate between
    plans: each converts the catalog with its own ``usd_rate``)."""
    found = sorted({f.currency for f in figs})
    if len(found) > 1:
        raise MixedCurrencies(
            _("the plans are priced in {currencies}: their amounts are not added together").format(
                currencies=_and(found)
            )
        )
    return found[0] if found else "USD"


def _levels(by_level: dict[int, int]) -> str:
    return ", ".join(f"{n} x L{level}" for level, n in by_level.items()) or _("none")


def compare_sections(names: Sequence[str], figs: Sequence[PlanFigures]) -> list[Section]:
    """The comparison as one typed section: a row per figure, a column per plan."""
    cols = (Column(_("Figure")), *(Column(n) for n in names))
    rows: list[tuple[Any, ...]] = []
    for label, attr, kind in ROWS:
        # each plan's amounts in its own currency, never the first plan's
        rows.append((_(label), *(Cell(getattr(f, attr), kind, f.currency) for f in figs)))
        if attr == "hires":
            rows.append(("  " + _("by level"), *(Cell(_levels(f.hires_by_level), "text") for f in figs)))
    table = Table("compare", cols, tuple(rows))
    return [Section("compare", _("Plans side by side"), (table,), notes=tuple(differences(names, figs)))]


# ---------------------------------------------------------------- differences in words
def _hire_words(base: dict[int, int], other: dict[int, int]) -> list[str]:
    out = []
    for level in sorted(set(base) | set(other)):
        d = other.get(level, 0) - base.get(level, 0)
        if d:
            forms = (
                ngettext("{n} more Level-{level} engineer", "{n} more Level-{level} engineers", abs(d))
                if d > 0
                else ngettext("{n} fewer Level-{level} engineer", "{n} fewer Level-{level} engineers", abs(d))
            )
            out.append(forms.format(n=abs(d), level=level))
    return out


def _money_words(d: float, currency: str, months: int | None) -> str | None:
    """'costs $X more over the 24-month horizon' (``months``) or '... in the first year'."""
    if abs(d) < 0.5:
        return None
    amount = money(abs(d), currency)
    if months is not None:
        text = (
            _("costs {amount} more over the {months}-month horizon")
            if d > 0
            else _("costs {amount} less over the {months}-month horizon")
        )
        return text.format(amount=amount, months=months)
    text = _("costs {amount} more in the first year") if d > 0 else _("costs {amount} less in the first year")
    return text.format(amount=amount)


def differences(names: Sequence[str], figs: Sequence[PlanFigures]) -> list[str]:
    """One sentence per plan after the first, saying how it differs from the first (in the
    active language)."""
    if len(figs) < 2:
        return []
    a, base = names[0], figs[0]
    out = []
    for name, f in zip(names[1:], figs[1:], strict=True):
        parts: list[str] = []
        d_head = f.headcount_at_deadline - base.headcount_at_deadline
        if d_head:
            n = abs(d_head)
            parts.append(
                (
                    ngettext(
                        "targets {n} more person at its deadline",
                        "targets {n} more people at its deadline",
                        n,
                    )
                    if d_head > 0
                    else ngettext(
                        "targets {n} fewer person at its deadline",
                        "targets {n} fewer people at its deadline",
                        n,
                    )
                ).format(n=n)
            )
        hires = _hire_words(base.hires_by_level, f.hires_by_level)
        if hires:
            parts.append(_("hires {list}").format(list=_and(hires)))
        d_up = f.people_upskilled - base.people_upskilled
        if d_up:
            parts.append(
                (
                    _("upskills {n} more of its staff") if d_up > 0 else _("upskills {n} fewer of its staff")
                ).format(n=abs(d_up))
            )
        if f.currency != base.currency:
            parts.append(
                _("is priced in {currency}, not {other}").format(currency=f.currency, other=base.currency)
            )
        elif f.horizon_months == base.horizon_months:
            words = _money_words(f.horizon_cost - base.horizon_cost, f.currency, f.horizon_months)
            parts += [words] if words else []
        else:
            words = _money_words(f.first_year_cost - base.first_year_cost, f.currency, None)
            parts += [words] if words else []
        parts += _ready_words(base.ready_month, f.ready_month)
        if f.p_ready is not None and base.p_ready is not None:
            d = f.p_ready - base.p_ready
            if abs(d) >= 0.005:
                points = round(abs(d) * 100)
                parts.append(
                    (
                        ngettext(
                            "is {n} point more likely to be ready by its deadline ({p} against {base})",
                            "is {n} points more likely to be ready by its deadline ({p} against {base})",
                            points,
                        )
                        if d > 0
                        else ngettext(
                            "is {n} point less likely to be ready by its deadline ({p} against {base})",
                            "is {n} points less likely to be ready by its deadline ({p} against {base})",
                            points,
                        )
                    ).format(
                        n=points, p=format_value(f.p_ready, "pct"), base=format_value(base.p_ready, "pct")
                    )
                )
        if f.net_roi is not None and base.net_roi is not None and abs(f.net_roi - base.net_roi) >= 0.005:
            d = f.net_roi - base.net_roi
            points = round(abs(d) * 100)
            parts.append(
                (
                    ngettext("has a net ROI {n} point higher", "has a net ROI {n} points higher", points)
                    if d > 0
                    else ngettext("has a net ROI {n} point lower", "has a net ROI {n} points lower", points)
                ).format(n=points)
            )
        elif (f.net_roi is None) != (base.net_roi is None):
            parts.append(
                _("has no net ROI (no investment)")
                if f.net_roi is None
                else _("has a net ROI where {first} has none").format(first=a)
            )
        if f.status != base.status:
            parts.append(
                _("is {status} where {first} is {other}").format(
                    status=code_label(f.status), first=a, other=code_label(base.status)
                )
            )
        said = "; ".join(parts) if parts else _("the same figures")
        out.append(_("{name} against {first}: {differences}.").format(name=name, first=a, differences=said))
    return out


def _ready_words(base: int | None, other: int | None) -> list[str]:
    if base == other:
        return []
    if other is None:
        return [
            _("is never fully staffed within its horizon (the first is, from month {month})").format(
                month=base
            )
        ]
    if base is None:
        return [_("is fully staffed from month {month} (the first never is)").format(month=other)]
    d = base - other
    n = abs(d)
    forms = (
        ngettext(
            "is ready {n} month earlier (month {month} against {base})",
            "is ready {n} months earlier (month {month} against {base})",
            n,
        )
        if d > 0
        else ngettext(
            "is ready {n} month later (month {month} against {base})",
            "is ready {n} months later (month {month} against {base})",
            n,
        )
    )
    return [forms.format(n=n, month=other, base=base)]


def _and(items: Sequence[str]) -> str:
    from gputeam.i18n import formats

    if len(items) == 1:
        return items[0]
    if formats.is_english():
        return ", ".join(items[:-1]) + " and " + items[-1]
    from babel.lists import format_list

    return format_list(list(items), locale=formats.babel_locale())


# ---------------------------------------------------------------- renderers
def compare_json(names: Sequence[str], figs: Sequence[PlanFigures]) -> dict[str, Any]:
    return {
        "ready_share": READY_SHARE,
        "plans": [{"name": n, **asdict(f)} for n, f in zip(names, figs, strict=True)],
        "differences": _english_differences(names, figs),
    }


def render_md(names: Sequence[str], figs: Sequence[PlanFigures]) -> bytes:
    from gputeam.report.document import markdown_document

    return markdown_document(
        _("Plans compared"), compare_sections(names, figs), figs[0].currency if figs else "USD"
    )


def render_html(names: Sequence[str], figs: Sequence[PlanFigures]) -> bytes:
    from gputeam.report.document import html_document

    return html_document(
        _("Plans compared"), compare_sections(names, figs), {}, figs[0].currency if figs else "USD"
    )


def _english_differences(names: Sequence[str], figs: Sequence[PlanFigures]) -> list[str]:
    """The JSON's differences: English whatever the language (a stable output)."""
    from gputeam import i18n

    with i18n.use("en"):
        return differences(names, figs)
