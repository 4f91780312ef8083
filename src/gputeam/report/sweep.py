"""A sweep's grid of plans (``gputeam sweep``): one row per point, as a terminal table, JSON,
CSV or an HTML page with charts of cost, headcount and readiness against the varied field.

Figures come from :func:`gputeam.report.compare.figures`; a point that could not be planned
keeps its values and says why.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from gputeam.i18n import N_, gettext, ngettext
from gputeam.report.charts import Chart, _layout
from gputeam.report.compare import READY_SHARE, MixedCurrencies, PlanFigures, one_currency
from gputeam.report.tables import Cell, Column, Kind, Section, Table, format_value, percent_text

__all__ = [
    "MAX_POINTS",
    "SweepRow",
    "render_csv",
    "render_html",
    "render_json",
    "print_sweep",
    "sweep_charts",
    "sweep_section",
]

MAX_POINTS = 1000
"""The most points one sweep may plan."""


@dataclass(frozen=True)
class SweepRow:
    values: tuple[str, ...]
    figures: PlanFigures | None
    problems: tuple[str, ...] = ()


#: (title, PlanFigures attribute, kind) of the figures shown for each point.
FIGURES: tuple[tuple[str, str, Kind], ...] = (
    (N_("Status"), "status", "text"),
    (N_("GPUs at deadline"), "gpus_at_deadline", "int"),
    (N_("Headcount at deadline"), "headcount_at_deadline", "int"),
    (N_("Upskilled"), "people_upskilled", "int"),
    (N_("Hires"), "hires", "int"),
    (N_("Contractor hours"), "contractor_hours", "hours"),
    (N_("First-year cost"), "first_year_cost", "money"),
    (N_("Horizon cost"), "horizon_cost", "money"),
    (N_("Annual run rate"), "annual_run_rate", "money"),
    (N_("Net ROI"), "net_roi", "pct"),
    (N_("P(ready by deadline)"), "p_ready", "pct"),
    (N_("Ready from month"), "ready_month", "month"),
    (N_("Currency"), "currency", "text"),
)


def _currency(rows: Sequence[SweepRow]) -> str | None:
    """The points' one currency; None when they are priced in several (a sweep over
    ``currency``): their amounts are then shown each in its own and never charted together."""
    try:
        return one_currency([r.figures for r in rows if r.figures is not None])
    except MixedCurrencies:
        return None


def _figure(r: SweepRow, attr: str, kind: Kind) -> Any:
    value = getattr(r.figures, attr) if r.figures else None
    if kind == "money" and r.figures is not None and value is not None:
        return Cell(value, kind, r.figures.currency)
    return value


def sweep_section(names: Sequence[str], rows: Sequence[SweepRow]) -> Section:
    cols = (
        *(Column(n) for n in names),
        *(Column(gettext(t), k) for t, _, k in FIGURES),
        Column(gettext("Problem")),
    )
    out = []
    for r in rows:
        figs = tuple(_figure(r, attr, kind) for _, attr, kind in FIGURES)
        out.append((*r.values, *figs, "; ".join(r.problems)))
    notes: tuple[str, ...] = (
        ngettext(
            "{points} point; ready from month = the first month from which staff cover at least "
            "{share} of the target in every later month.",
            "{points} points; ready from month = the first month from which staff cover at least "
            "{share} of the target in every later month.",
            len(rows),
        ).format(points=len(rows), share=percent_text(READY_SHARE)),
    )
    if _currency(rows) is None:
        found = sorted({r.figures.currency for r in rows if r.figures is not None})
        notes += (
            gettext(
                "The points are priced in {currencies}: each amount is in its own point's "
                "currency, and costs are not charted or added together."
            ).format(currencies=", ".join(found)),
        )
    return Section("sweep", gettext("Sweep"), (Table("sweep", cols, tuple(out)),), notes=notes)


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def sweep_charts(names: Sequence[str], rows: Sequence[SweepRow]) -> list[Chart]:
    """Line charts against the first varied field, one line per combination of the others."""
    if not rows:
        return []
    numeric = all(_number(r.values[0]) is not None for r in rows)
    series: dict[str, list[SweepRow]] = {}
    for r in rows:
        label = ", ".join(f"{n}={v}" for n, v in zip(names[1:], r.values[1:], strict=True))
        series.setdefault(label or names[0], []).append(r)
    currency = _currency(rows)
    charts = []
    for cid, title, attrs in (
        (
            "sweep-cost",
            gettext("Cost ({currency}) against {field}").format(currency=currency, field=names[0]),
            (("horizon_cost", gettext("horizon")), ("first_year_cost", gettext("first year"))),
        ),
        (
            "sweep-team",
            gettext("Team against {field}").format(field=names[0]),
            (("headcount_at_deadline", gettext("headcount at deadline")), ("hires", gettext("hires"))),
        ),
        (
            "sweep-ready",
            gettext("P(ready by deadline) against {field}").format(field=names[0]),
            (("p_ready", gettext("P(ready)")),),
        ),
    ):
        traces = []
        for label, points in series.items():
            for attr, what in attrs:
                ys = [getattr(p.figures, attr) if p.figures else None for p in points]
                if all(y is None for y in ys):
                    continue
                xs: list[Any] = [_number(p.values[0]) if numeric else p.values[0] for p in points]
                name = what if len(series) == 1 else f"{what}, {label}"
                traces.append({"type": "scatter", "mode": "lines+markers", "name": name, "x": xs, "y": ys})
        if traces and not (cid == "sweep-cost" and currency is None):  # no axis of mixed currencies
            layout = _layout(title, xaxis={"title": {"text": names[0]}})
            if cid == "sweep-ready":
                layout["yaxis"] = {"tickformat": ".0%", "range": [0, 1.02]}
            charts.append(Chart(cid, title, {"data": traces, "layout": layout}))
    return charts


def render_json(names: Sequence[str], rows: Sequence[SweepRow]) -> bytes:
    data = {
        "varied": list(names),
        "ready_share": READY_SHARE,
        "points": [
            {
                "values": dict(zip(names, r.values, strict=True)),
                "figures": asdict(r.figures) if r.figures else None,
                "problems": list(r.problems),
            }
            for r in rows
        ],
    }
    return (json.dumps(data, indent=2) + "\n").encode("utf-8")


#: Decimal places of a CSV figure by kind: cents for money, hundredths of an hour, four
#: places of a fraction (0.1234 = 12.34 %); others as they are.
CSV_DECIMALS: dict[str, int] = {"money": 2, "hours": 2, "pct": 4, "ratio": 4, "float": 2}


def csv_figure(value: Any, kind: str) -> Any:
    """A figure as the CSV writes it: raw (no symbol or %), rounded by :data:`CSV_DECIMALS`
    (866.6666666666667 hours as 866.67), whole numbers without a decimal point."""
    if value is None:
        return ""
    if isinstance(value, float) and kind in CSV_DECIMALS:
        value = round(value, CSV_DECIMALS[kind])
        return int(value) if value.is_integer() and kind != "pct" else value
    return value


def render_csv(names: Sequence[str], rows: Sequence[SweepRow]) -> bytes:
    """One header row, one row per point; raw numbers (no currency symbols or %), rounded
    by :func:`csv_figure`."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([*names, *(attr for _, attr, _ in FIGURES), "problems"])
    for r in rows:
        figs = [
            csv_figure(getattr(r.figures, attr) if r.figures else None, kind) for _, attr, kind in FIGURES
        ]
        w.writerow([*r.values, *figs, "; ".join(r.problems)])
    return buf.getvalue().encode("utf-8")


def render_html(names: Sequence[str], rows: Sequence[SweepRow]) -> bytes:
    from gputeam.report.document import html_document

    section = sweep_section(names, rows)
    return html_document(
        gettext("Sweep over {fields}").format(fields=", ".join(names)),
        [section],
        {section.id: sweep_charts(names, rows)},
        _currency(rows) or "USD",
    )


#: The figures the terminal table shows (the other formats show all of :data:`FIGURES`).
TERMINAL = ("status", "headcount_at_deadline", "hires", "horizon_cost", "p_ready", "ready_month")


def print_sweep(names: Sequence[str], rows: Sequence[SweepRow], console: Any) -> None:
    from rich.table import Table as RichTable

    section = sweep_section(names, rows)
    shown = [(gettext(t), a, k) for t, a, k in FIGURES if a in TERMINAL]
    t = RichTable(title=section.title)
    for name in names:
        t.add_column(name, overflow="fold")
    for title, _, kind in shown:
        t.add_column(title, justify="left" if kind == "text" else "right", overflow="fold")
    for r in rows:
        cells = [
            format_value(getattr(r.figures, a), k, r.figures.currency) if r.figures else "-"
            for _, a, k in shown
        ]
        if not r.figures:
            cells[0] = gettext("not planned")
        t.add_row(*r.values, *cells)
    console.print(t)
    for note in section.notes:
        console.print(note, markup=False, highlight=False, soft_wrap=True)
