"""Plans side by side (``gputeam compare``): the figures a planner weighs, and the
differences against the first plan in words.

Every figure is read from the Plan in one place, :func:`figures`; the comparison table, the
sentences and the sweep grid (:mod:`gputeam.report.sweep`) all use what it returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from gputeam.planning.result import Plan
from gputeam.report.tables import Cell, Column, Kind, Section, Table, format_value, money

__all__ = [
    "READY_SHARE",
    "PlanFigures",
    "compare_json",
    "compare_sections",
    "differences",
    "figures",
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


#: (label, attribute, kind) of each row of the comparison, in order.
ROWS: tuple[tuple[str, str, Kind], ...] = (
    ("Organisation", "organisation", "text"),
    ("Mode", "mode", "text"),
    ("Sourcing status", "status", "text"),
    ("Deadline month", "deadline_month", "month"),
    ("GPUs at deadline", "gpus_at_deadline", "int"),
    ("Target headcount at deadline", "headcount_at_deadline", "int"),
    ("People upskilled", "people_upskilled", "int"),
    ("Hires", "hires", "int"),
    ("Contractor hours", "contractor_hours", "hours"),
    ("First-year cost", "first_year_cost", "money"),
    ("Horizon cost", "horizon_cost", "money"),
    ("Annual run rate", "annual_run_rate", "money"),
    ("Net ROI", "net_roi", "pct"),
    ("Payback (months)", "payback_months", "float"),
    ("P(ready by deadline)", "p_ready", "pct"),
    ("Ready from month", "ready_month", "month"),
)


def _levels(by_level: dict[int, int]) -> str:
    return ", ".join(f"{n} x L{level}" for level, n in by_level.items()) or "none"


def compare_sections(names: Sequence[str], figs: Sequence[PlanFigures]) -> list[Section]:
    """The comparison as one typed section: a row per figure, a column per plan."""
    cols = (Column("Figure"), *(Column(n) for n in names))
    rows: list[tuple[Any, ...]] = []
    for label, attr, kind in ROWS:
        rows.append((label, *(Cell(getattr(f, attr), kind) for f in figs)))
        if attr == "hires":
            rows.append(("  by level", *(Cell(_levels(f.hires_by_level), "text") for f in figs)))
    table = Table("compare", cols, tuple(rows))
    return [Section("compare", "Plans side by side", (table,), notes=tuple(differences(names, figs)))]


# ---------------------------------------------------------------- differences in words
def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _hire_words(base: dict[int, int], other: dict[int, int]) -> list[str]:
    out = []
    for level in sorted(set(base) | set(other)):
        d = other.get(level, 0) - base.get(level, 0)
        if d:
            out.append(
                f"{abs(d)} {'more' if d > 0 else 'fewer'} Level-{level} engineer{'' if abs(d) == 1 else 's'}"
            )
    return out


def _money_words(d: float, currency: str, what: str) -> str | None:
    if abs(d) < 0.5:
        return None
    return f"costs {money(abs(d), currency)} {'more' if d > 0 else 'less'} {what}"


def _points(d: float) -> str:
    return f"{abs(d) * 100:.0f} point{'' if round(abs(d) * 100) == 1 else 's'}"


def differences(names: Sequence[str], figs: Sequence[PlanFigures]) -> list[str]:
    """One sentence per plan after the first, saying how it differs from the first."""
    if len(figs) < 2:
        return []
    a, base = names[0], figs[0]
    out = []
    for name, f in zip(names[1:], figs[1:], strict=True):
        parts: list[str] = []
        d_head = f.headcount_at_deadline - base.headcount_at_deadline
        if d_head:
            parts.append(
                f"targets {abs(d_head)} {'more' if d_head > 0 else 'fewer'} "
                f"{'person' if abs(d_head) == 1 else 'people'} at its deadline"
            )
        hires = _hire_words(base.hires_by_level, f.hires_by_level)
        if hires:
            parts.append("hires " + _join(hires))
        d_up = f.people_upskilled - base.people_upskilled
        if d_up:
            parts.append(f"upskills {abs(d_up)} {'more' if d_up > 0 else 'fewer'} of its staff")
        if f.currency != base.currency:
            parts.append(f"is priced in {f.currency}, not {base.currency}")
        elif f.horizon_months == base.horizon_months:
            words = _money_words(
                f.horizon_cost - base.horizon_cost, f.currency, f"over the {f.horizon_months}-month horizon"
            )
            parts += [words] if words else []
        else:
            words = _money_words(f.first_year_cost - base.first_year_cost, f.currency, "in the first year")
            parts += [words] if words else []
        parts += _ready_words(base.ready_month, f.ready_month)
        if f.p_ready is not None and base.p_ready is not None:
            d = f.p_ready - base.p_ready
            if abs(d) >= 0.005:
                parts.append(
                    f"is {_points(d)} {'more' if d > 0 else 'less'} likely to be ready "
                    f"by its deadline ({format_value(f.p_ready, 'pct')} against "
                    f"{format_value(base.p_ready, 'pct')})"
                )
        if f.net_roi is not None and base.net_roi is not None and abs(f.net_roi - base.net_roi) >= 0.005:
            d = f.net_roi - base.net_roi
            parts.append(f"has a net ROI {_points(d)} {'higher' if d > 0 else 'lower'}")
        elif (f.net_roi is None) != (base.net_roi is None):
            parts.append(
                "has no net ROI (no investment)" if f.net_roi is None else f"has a net ROI where {a} has none"
            )
        if f.status != base.status:
            parts.append(f"is {f.status} where {a} is {base.status}")
        out.append(f"{name} against {a}: " + ("; ".join(parts) if parts else "the same figures") + ".")
    return out


def _ready_words(base: int | None, other: int | None) -> list[str]:
    if base == other:
        return []
    if other is None:
        return [f"is never fully staffed within its horizon (the first is, from month {base})"]
    if base is None:
        return [f"is fully staffed from month {other} (the first never is)"]
    d = base - other
    return [
        f"is ready {_count(abs(d), 'month')} {'earlier' if d > 0 else 'later'} (month {other} against {base})"
    ]


def _join(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# ---------------------------------------------------------------- renderers
def compare_json(names: Sequence[str], figs: Sequence[PlanFigures]) -> dict[str, Any]:
    return {
        "ready_share": READY_SHARE,
        "plans": [{"name": n, **asdict(f)} for n, f in zip(names, figs, strict=True)],
        "differences": differences(names, figs),
    }


def render_md(names: Sequence[str], figs: Sequence[PlanFigures]) -> bytes:
    from gputeam.report.document import markdown_document

    return markdown_document(
        "Plans compared", compare_sections(names, figs), figs[0].currency if figs else "USD"
    )


def render_html(names: Sequence[str], figs: Sequence[PlanFigures]) -> bytes:
    from gputeam.report.document import html_document

    return html_document(
        "Plans compared", compare_sections(names, figs), {}, figs[0].currency if figs else "USD"
    )
