"""Chart figures for the HTML report, as plain Plotly figure dicts (no Plotly Python API).

``charts(plan)`` returns, per report section, the charts to draw there.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from gputeam.i18n import N_, _
from gputeam.i18n import formats as _locale
from gputeam.i18n.codes import label as code_label
from gputeam.planning.result import Plan, Risk
from gputeam.report.sections import (
    contractor_hours_by_month,
    deadline_month,
    money,
    plain_data,
    sensitivity,
)
from gputeam.report.tables import percent_text
from gputeam.report.words import item_name, line_name, roadmap_name

__all__ = ["Chart", "charts", "skill_matrix"]

_KIND_COLOURS = {
    "course": "#4c78a8",
    "bootcamp": "#f58518",
    "practice": "#72b7b2",
    "apprenticeship": "#b279a2",
    "exam": "#e45756",
    "renewal": "#54a24b",
}
_KIND_NAMES = (
    N_("course"),
    N_("bootcamp"),
    N_("practice"),
    N_("apprenticeship"),
    N_("exam"),
    N_("renewal"),
)  # the roadmap item kinds, as the Gantt chart's legend names them
_DAY_MS = 86_400_000


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    figure: dict[str, Any]
    height: int = 420

    def spec_json(self) -> str:
        """The figure as JSON safe to embed in a <script> element."""
        text = json.dumps(plain_data(self.figure), separators=(",", ":"), allow_nan=False)
        return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _ptext(text: Any) -> str:
    """Text for Plotly, which reads a few HTML tags (<br>, <b>, <a> ...) in labels: escape them
    so that scenario text is shown as written."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _unique(labels: dict[str, str]) -> dict[str, str]:
    """Row labels by person id, with the id added where two people share a name (a category
    axis would otherwise draw them on one row)."""
    counts: dict[str, int] = {}
    for label in labels.values():
        counts[label] = counts.get(label, 0) + 1
    return {pid: label if counts[label] == 1 else f"{label} [{pid}]" for pid, label in labels.items()}


def _number(value: Any, default: float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    return number if math.isfinite(number) else default


# ---------------------------------------------------------------- charts
def _layout(title: str, **extra: Any) -> dict[str, Any]:
    layout: dict[str, Any] = {
        "title": {"text": title, "x": 0.01, "xanchor": "left"},
        "margin": {"l": 70, "r": 20, "t": 50, "b": 50},
        "font": {"family": "system-ui, -apple-system, Segoe UI, Roboto, sans-serif", "size": 12},
        "legend": {"orientation": "h", "x": 0, "y": -0.12, "yanchor": "top"},
        "paper_bgcolor": "white",
        "plot_bgcolor": "white",
    }
    layout.update(extra)
    if not _locale.is_english():  # the language's decimal and group marks, and date order
        layout.update(_locale.plotly_locale())
        for axis in ("xaxis", "yaxis"):
            if layout.get(axis, {}).get("type") == "date":
                layout[axis] = {**layout[axis], "tickformat": _locale.plotly_date_format()}
    return layout


def _month_labels(plan: Plan) -> list[str]:
    if not _locale.is_english():
        return [_locale.month_text(m.date) for m in plan.target.months]
    return [f"{m.date:%Y-%m}" for m in plan.target.months]


def _month_n(i: int) -> str:
    return _("month {n}").format(n=i)


def _headcount_chart(plan: Plan) -> Chart | None:
    months = plan.target.months
    if not months or not any(m.slots for m in months):
        return None
    x = _month_labels(plan)
    roles: dict[str, list[int]] = {}
    for i, m in enumerate(months):
        for s in m.slots:
            roles.setdefault(s.role, [0] * len(months))[i] += s.count
    traces: list[dict[str, Any]] = [
        {
            "type": "bar",
            "name": _ptext(code_label(role)),
            "x": x,
            "y": counts,
            "hovertemplate": _ptext(code_label(role)) + ": %{y}<extra>%{x}</extra>",
        }
        for role, counts in roles.items()
    ]
    coverage = list(plan.sourcing.coverage_by_month) + [0.0] * len(months)
    staffed = [round(coverage[i] * m.headcount, 2) for i, m in enumerate(months)]
    traces.append(
        {
            "type": "scatter",
            "mode": "lines+markers",
            "name": _("staffed by employees"),
            "x": x,
            "y": staffed,
            "line": {"color": "#222", "width": 2},
        }
    )
    fte = [round(h / plan.costs.hours_per_fte_month, 2) for h in contractor_hours_by_month(plan)]
    if any(fte):
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": _("contractors (FTE)"),
                "x": x,
                "y": fte,
                "line": {"color": "#e45756", "dash": "dot", "width": 2},
            }
        )
    layout = _layout(
        _("Target headcount by role, and how it is staffed"),
        barmode="stack",
        xaxis={"type": "category"},
        yaxis={"title": {"text": _("people")}, "rangemode": "tozero"},
    )
    return Chart("headcount", _("Headcount by role over time"), {"data": traces, "layout": layout})


def _gantt_chart(plan: Plan) -> Chart | None:
    rows = [r for r in plan.roadmaps if r.items]
    if not rows:
        return None
    raw = _unique(
        {r.person: _("{name} (hire)").format(name=roadmap_name(r)) if r.hire else r.name for r in rows}
    )
    labels = {pid: _ptext(label) for pid, label in raw.items()}
    order = [labels[r.person] for r in rows]
    bars: dict[str, dict[str, list[Any]]] = {}
    marks: dict[str, dict[str, list[Any]]] = {}
    for r in rows:
        for item in r.items:
            hover = _("{item}<br>{start} to {end}<br>{hours} h").format(
                item=_ptext(item_name(item)),
                start=_date(item.start),
                end=_date(item.end),
                hours=_hours(item.hours),
            )
            if item.kind in ("exam", "renewal"):
                m = marks.setdefault(item.kind, {"x": [], "y": [], "text": []})
                m["x"].append(item.start.isoformat())
                m["y"].append(labels[r.person])
                m["text"].append(hover)
            else:
                b = bars.setdefault(item.kind, {"base": [], "x": [], "y": [], "text": []})
                days = max((item.end - item.start).days, 1)
                b["base"].append(item.start.isoformat())
                b["x"].append(days * _DAY_MS)
                b["y"].append(labels[r.person])
                b["text"].append(hover)
    traces: list[dict[str, Any]] = []
    for kind, b in bars.items():
        traces.append(
            {
                "type": "bar",
                "orientation": "h",
                "name": code_label(kind),
                "base": b["base"],
                "x": b["x"],
                "y": b["y"],
                "hovertext": b["text"],
                "hoverinfo": "text",
                "marker": {
                    "color": _KIND_COLOURS.get(kind, "#9d755d"),
                    "line": {"color": "white", "width": 1},
                },
            }
        )
    for kind, m in marks.items():
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": code_label(kind),
                "x": m["x"],
                "y": m["y"],
                "hovertext": m["text"],
                "hoverinfo": "text",
                "marker": {
                    "symbol": "diamond" if kind == "exam" else "star",
                    "size": 12,
                    "color": _KIND_COLOURS[kind],
                    "line": {"color": "#222", "width": 1},
                },
            }
        )
    shapes: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    deadline = deadline_month(plan)
    if 1 <= deadline <= len(plan.target.months):
        # the end of the deadline month
        when = _month_end(plan.target.months[deadline - 1].date).isoformat()
        shapes.append(
            {
                "type": "line",
                "xref": "x",
                "yref": "paper",
                "x0": when,
                "x1": when,
                "y0": 0,
                "y1": 1,
                "line": {"color": "#e45756", "dash": "dash", "width": 1.5},
            }
        )
        notes.append(
            {
                "x": when,
                "y": 1,
                "xref": "x",
                "yref": "paper",
                "text": _("deadline (month {month})").format(month=deadline),
                "showarrow": False,
                "xanchor": "right",
                "yanchor": "bottom",
                "font": {"color": "#e45756"},
            }
        )
    layout = _layout(
        _("Roadmaps: courses, exams and renewals per person"),
        barmode="overlay",
        xaxis={"type": "date"},
        yaxis={
            "type": "category",
            "categoryorder": "array",
            "categoryarray": order[::-1],
            "automargin": True,
        },
        shapes=shapes,
        annotations=notes,
    )
    return Chart(
        "gantt", _("Roadmap Gantt"), {"data": traces, "layout": layout}, height=max(320, 90 + 42 * len(rows))
    )


def _date(value: date) -> str:
    return value.isoformat() if _locale.is_english() else _locale.date_text(value)


def _hours(value: float) -> str:
    return f"{value:g}" if _locale.is_english() else _locale.number(value, 4)


def _month_end(first: date) -> date:
    nxt = first.replace(day=28) + timedelta(days=4)
    return nxt - timedelta(days=nxt.day)


def _cost_category_chart(plan: Plan) -> Chart:
    c = plan.costs
    cats = [code_label(line.category) for line in c.lines]
    traces = [
        {
            "type": "bar",
            "name": name,
            "x": cats,
            "y": [round(getattr(line, attr), 2) for line in c.lines],
            "hovertemplate": "%{x}: %{y:,.0f}<extra>" + name + "</extra>",
        }
        for name, attr in (
            (_("first year"), "first_year"),
            (_("horizon"), "horizon"),
            (_("annual run rate"), "annual_run_rate"),
        )
    ]
    layout = _layout(
        _("Cost by category ({currency})").format(currency=c.currency),
        barmode="group",
        yaxis={"title": {"text": c.currency}, "tickformat": ",.0f", "rangemode": "tozero"},
        xaxis={"type": "category"},
    )
    return Chart("cost-category", _("Cost by category"), {"data": traces, "layout": layout})


def _cost_month_chart(plan: Plan) -> Chart:
    c = plan.costs
    labels = _month_labels(plan)
    x = [labels[i] if i < len(labels) else _month_n(i + 1) for i in range(len(c.by_month))]
    traces = [
        {
            "type": "bar",
            "name": _("cost"),
            "x": x,
            "y": [round(v, 2) for v in c.by_month],
            "marker": {"color": "#4c78a8"},
            "hovertemplate": "%{x}: %{y:,.0f}<extra></extra>",
        }
    ]
    layout = _layout(
        _("Cost by month ({currency})").format(currency=c.currency),
        showlegend=False,
        yaxis={"title": {"text": c.currency}, "tickformat": ",.0f", "rangemode": "tozero"},
        xaxis={"type": "category"},
    )
    return Chart("cost-month", _("Cost by month"), {"data": traces, "layout": layout})


def skill_matrix(plan: Plan) -> tuple[list[str], list[str], list[list[int]], list[list[int]]]:
    """(people, domains, held, needed): each person's proficiency per domain against what the
    target needs of them (their assigned role's slot, or the most any slot needs if unassigned)."""
    people = plan.scenario.people
    role_needs: dict[str, dict[str, int]] = {}
    for m in plan.target.months:
        for s in m.slots:
            need = role_needs.setdefault(s.role, {})
            for d, p in s.domains.items():
                need[d] = max(need.get(d, 0), p)
    any_need: dict[str, int] = {}
    for need in role_needs.values():
        for d, p in need.items():
            any_need[d] = max(any_need.get(d, 0), p)
    domains = list(any_need)
    for person in people:
        for d in person.skills:
            if d not in domains:
                domains.append(d)
    assigned = {a.person: a.role for a in plan.sourcing.assignments}
    labels: dict[str, str] = {}
    held, needed = [], []
    for person in people:
        pid = person.id
        need = role_needs.get(assigned.get(pid, ""), any_need)
        skills = person.skills
        role = assigned.get(pid)
        labels[pid] = f"{person.name} ({code_label(role)})" if role else person.name
        held.append([int(skills.get(d, 0)) for d in domains])
        needed.append([int(need.get(d, 0)) for d in domains])
    names = list(_unique(labels).values())
    return names, domains, held, needed


def _skills_chart(plan: Plan) -> Chart | None:
    names, domains, held, needed = skill_matrix(plan)
    if not names or not domains:
        return None
    z = [[h - n for h, n in zip(hr, nr, strict=True)] for hr, nr in zip(held, needed, strict=True)]
    text = [[f"{h}/{n}" for h, n in zip(hr, nr, strict=True)] for hr, nr in zip(held, needed, strict=True)]
    trace = {
        "type": "heatmap",
        "x": [_ptext(d) for d in domains],
        "y": [_ptext(n) for n in names],
        "z": z,
        "text": text,
        "texttemplate": "%{text}",
        "zmid": 0,
        "zmin": -4,
        "zmax": 4,
        "colorscale": [
            [0, "#b2182b"],
            [0.375, "#f4a582"],
            [0.5, "#f7f7f7"],
            [0.625, "#92c5de"],
            [1, "#2166ac"],
        ],
        "colorbar": {"title": {"text": _("held - needed")}},
        "hovertemplate": _("%{y}<br>%{x}: held/needed %{text}<extra></extra>"),
    }
    layout = _layout(
        _("Skill coverage now: proficiency held / needed by the target role"),
        xaxis={"type": "category", "tickangle": -35, "automargin": True},
        yaxis={"type": "category", "autorange": "reversed", "automargin": True},
    )
    return Chart(
        "skills",
        _("Skill coverage heatmap"),
        {"data": [trace], "layout": layout},
        height=max(320, 160 + 36 * len(names)),
    )


def _fan_chart(plan: Plan, risk: Risk) -> Chart | None:
    p10, p50, p90 = (
        list(v) for v in (risk.coverage_bands.p10, risk.coverage_bands.p50, risk.coverage_bands.p90)
    )
    if not p50 and not p10:
        return None
    labels = _month_labels(plan)
    n = max(len(p10), len(p50), len(p90))
    x = [labels[i] if i < len(labels) else _month_n(i + 1) for i in range(n)]
    traces = []
    if p10 and p90:
        traces.append(
            {
                "type": "scatter",
                "mode": "lines",
                "name": "P10",
                "x": x,
                "y": p10,
                "line": {"color": "rgba(76,120,168,0.6)", "width": 1},
            }
        )
        traces.append(
            {
                "type": "scatter",
                "mode": "lines",
                "name": "P10-P90",
                "x": x,
                "y": p90,
                "fill": "tonexty",
                "fillcolor": "rgba(76,120,168,0.25)",
                "line": {"color": "rgba(76,120,168,0.6)", "width": 1},
            }
        )
    if p50:
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": _("P50 (median)"),
                "x": x,
                "y": p50,
                "line": {"color": "#4c78a8", "width": 3},
            }
        )
    layout = _layout(
        _("Coverage of the target by month (simulated)"),
        yaxis={"tickformat": ".0%", "range": [0, 1.05], "title": {"text": _("coverage")}},
        xaxis={"type": "category"},
    )
    return Chart("risk-fan", _("Coverage fan chart"), {"data": traces, "layout": layout})


def _cost_distribution_chart(plan: Plan, risk: Risk) -> Chart | None:
    currency = plan.costs.currency
    pct = {k: v for k, v in risk.cost_percentiles.model_dump().items() if math.isfinite(v)}
    pct["plan"] = risk.plan_cost
    samples = [v for v in risk.cost_samples if math.isfinite(v)]
    if samples:
        traces: list[dict[str, Any]] = [
            {
                "type": "histogram",
                "x": samples,
                "name": _("simulated cost"),
                "marker": {"color": "#4c78a8"},
                "nbinsx": 40,
            }
        ]
        shapes = [
            {
                "type": "line",
                "xref": "x",
                "yref": "paper",
                "x0": v,
                "x1": v,
                "y0": 0,
                "y1": 1,
                "line": {"color": "#e45756", "dash": "dash"},
            }
            for v in pct.values()
        ]
        notes = [
            {
                "x": v,
                "y": 1,
                "xref": "x",
                "yref": "paper",
                "text": _("PLAN") if k == "plan" else k.upper(),
                "showarrow": False,
                "yanchor": "bottom",
            }
            for k, v in pct.items()
        ]
        layout = _layout(
            _("Distribution of total cost ({currency}, simulated)").format(currency=currency),
            showlegend=False,
            shapes=shapes,
            annotations=notes,
            bargap=0.02,
            xaxis={"title": {"text": currency}, "tickformat": ",.0f"},
            yaxis={"title": {"text": _("runs")}},
        )
    elif pct:
        keys = [k for k in ("p10", "p50", "p90", "plan") if k in pct]
        traces = [
            {
                "type": "bar",
                "x": [_("PLAN") if k == "plan" else k.upper() for k in keys],
                "y": [pct[k] for k in keys],
                "marker": {"color": "#4c78a8"},
                "name": _("cost"),
            }
        ]
        layout = _layout(
            _("Total cost percentiles ({currency}, simulated)").format(currency=currency),
            showlegend=False,
            yaxis={"title": {"text": currency}, "tickformat": ",.0f"},
            xaxis={"type": "category"},
        )
    else:
        return None
    return Chart("risk-cost", _("Cost distribution"), {"data": traces, "layout": layout})


def _tornado_chart(plan: Plan, risk: Risk) -> Chart | None:
    entries = [s.model_dump() for s in sensitivity(risk)]
    if not entries:
        return None
    # NPV when the entries carry it (always defined); else net ROI, when the plan has one
    npv = any("npv_low" in s for s in entries) and plan.roi.npv is not None
    key, base_value = ("npv", plan.roi.npv) if npv else ("roi", plan.roi.net_roi)
    if base_value is None:
        return None
    base = float(base_value)
    currency = plan.costs.currency

    def show(v: float) -> str:
        return money(v, currency) if npv else percent_text(v, 1)

    entries = entries[::-1]  # widest at the top
    names = [_ptext(line_name(s["assumption"])) for s in entries]

    def side(which: str, value_key: str, label: str, colour: str) -> dict[str, Any]:
        xs = [_number(s.get(f"{key}_{which}"), base) - base for s in entries]
        text = [
            f"{name} = {_ptext(s.get(value_key))}: "
            f"{_('NPV') if npv else _('net ROI')} {show(_number(s.get(f'{key}_{which}'), base))}"
            for name, s in zip(names, entries, strict=True)
        ]
        return {
            "type": "bar",
            "orientation": "h",
            "name": label,
            "y": names,
            "x": xs,
            "base": [base] * len(entries),
            "hovertext": text,
            "hoverinfo": "text",
            "marker": {"color": colour},
        }

    traces = [
        side("low", "low_value", _("assumption at low value"), "#e45756"),
        side("high", "high_value", _("assumption at high value"), "#4c78a8"),
    ]
    shapes = [
        {
            "type": "line",
            "xref": "x",
            "yref": "paper",
            "x0": base,
            "x1": base,
            "y0": 0,
            "y1": 1,
            "line": {"color": "#222", "width": 1},
        }
    ]
    layout = _layout(
        (
            _("Net present value sensitivity (base {base})")
            if npv
            else _("Net ROI sensitivity (base {base})")
        ).format(base=show(base)),
        barmode="overlay",
        shapes=shapes,
        xaxis={"tickformat": ",.0f" if npv else ".0%"},
        yaxis={"type": "category", "automargin": True},
    )
    return Chart(
        "risk-tornado",
        _("ROI tornado"),
        {"data": traces, "layout": layout},
        height=max(320, 140 + 40 * len(entries)),
    )


def charts(plan: Plan) -> dict[str, list[Chart]]:
    """The charts to draw, by the id of the section they belong to."""
    out: dict[str, list[Chart]] = {
        "target": [c for c in (_headcount_chart(plan),) if c],
        "gaps": [c for c in (_skills_chart(plan),) if c],
        "roadmaps": [c for c in (_gantt_chart(plan),) if c],
        "costs": [_cost_category_chart(plan), _cost_month_chart(plan)],
    }
    if plan.risk is not None:
        risk = plan.risk
        out["risk"] = [
            c
            for c in (
                _fan_chart(plan, risk),
                _cost_distribution_chart(plan, risk),
                _tornado_chart(plan, risk),
            )
            if c
        ]
    return out


# ---------------------------------------------------------------- page
