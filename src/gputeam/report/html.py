"""Self-contained HTML report: one offline file, tables plus Plotly charts.

Plotly.js is embedded inline: a partial bundle of plotly.js (the trace types the charts use:
scatter, bar, heatmap, histogram) vendored as ``static/plotly-gputeam.min.js`` and built by
``tools/plotly/build.js`` (no plotly Python package: figures are built here as plain dicts
and serialised with ``json.dumps``). The page loads nothing from the
network, and its Content-Security-Policy forbids it to.

Each chart is a ``<div data-chart="ID">`` with its figure in a ``<script
type="application/json">`` block; once Plotly has drawn it, the div gets
``data-chart-ready="true"`` and, when every chart is done, ``<body>`` gets
``data-charts-ready`` with the number drawn (``data-charts-failed`` if any failed).
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from gputeam.i18n import _, current, gettext, ngettext
from gputeam.planning.result import Plan
from gputeam.report.charts import Chart, charts, skill_matrix
from gputeam.report.sections import (
    Section,
    Table,
    deadline_month,
    format_value,
    roi_text,
    sections,
)
from gputeam.report.tables import empty_text

if TYPE_CHECKING:
    import jinja2

__all__ = ["charts", "render", "skill_matrix"]

_NUMERIC = frozenset({"int", "float", "number", "hours", "money", "pct", "ratio", "month"})


def _view_table(table: Table, currency: str) -> dict[str, Any]:
    columns = [{"title": c.title, "css": "num" if c.kind in _NUMERIC else ""} for c in table.columns]
    rows = []
    for row in table.rows:
        cells = []
        for value, col in zip(row, table.columns, strict=True):
            kind = getattr(value, "kind", col.kind)
            css = "num" if kind in _NUMERIC else "date" if kind == "date" else ""
            cells.append({"text": format_value(value, col.kind, currency), "css": css})
        rows.append(cells)
    return {
        "id": table.name,
        "title": table.title,
        "columns": columns,
        "rows": rows,
        "empty": empty_text(table),
    }


def _view_section(section: Section, section_charts: list[Chart], currency: str) -> dict[str, Any]:
    from markupsafe import Markup

    views = [
        {"id": c.id, "title": c.title, "height": c.height, "spec": Markup(c.spec_json())}
        for c in section_charts
    ]
    return {
        "id": section.id,
        "title": section.title,
        "notes": list(section.notes),
        "charts": views,
        "tables": [_view_table(t, currency) for t in section.tables],
    }


#: The vendored plotly.js partial bundle and the trace types it holds (tools/plotly/entry.js).
PLOTLY_BUNDLE = "plotly-gputeam.min.js"
PLOTLY_TRACES = frozenset({"scatter", "bar", "heatmap", "histogram"})

_PLOTLY_SLOT = '"<gputeam:plotly.js>"'
"""Placeholder the page carries where Plotly.js goes; autoescaped text can never contain it
(its ``<`` and ``"`` would be escaped), so splicing the library in as bytes is safe."""


@lru_cache(maxsize=1)
def _plotly_js() -> bytes:
    js = (resources.files("gputeam.report") / "static" / PLOTLY_BUNDLE).read_bytes()
    # an inline script ends at the first "</script": make sure the library cannot contain one
    return re.sub(rb"</(script)", rb"<\\/\1", js, flags=re.IGNORECASE)


def _static(name: str) -> str:
    return (resources.files("gputeam.report") / "static" / name).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    source = (resources.files("gputeam.report") / "templates" / "report.html.j2").read_text(encoding="utf-8")
    return environment().from_string(source)


def environment() -> jinja2.Environment:
    """The report templates' Jinja2 environment, with ``_()`` bound to the active language."""
    import jinja2

    env = jinja2.Environment(
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    return env


def _cards(plan: Plan) -> list[dict[str, str]]:
    currency = plan.costs.currency
    deadline = deadline_month(plan)
    cards = [
        (
            _("Headcount at deadline (month {month})").format(month=deadline),
            format_value(plan.target.at(deadline).headcount, "int"),
        ),
        (_("First-year cost"), format_value(plan.costs.first_year, "money", currency)),
        (_("Annual run rate"), format_value(plan.costs.annual_run_rate, "money", currency)),
        (_("Net ROI"), roi_text(plan.roi, "net_roi")),
        (_("Payback (months)"), roi_text(plan.roi, "payback_months")),
        (_("Net present value"), roi_text(plan.roi, "npv", currency)),
    ]
    if plan.risk is not None:
        cards.append((_("P(ready by deadline)"), format_value(plan.risk.p_ready_by_deadline, "pct")))
    return [{"label": label, "value": value} for label, value in cards]


def title(plan: Plan) -> str:
    return _("Team plan: {organisation}").format(organisation=plan.scenario.organisation)


def render(plan: Plan, *, print_css: str = "", chart_font: str = "") -> bytes:
    """The plan as one self-contained HTML document (UTF-8).

    The PDF report (:mod:`gputeam.report.pdf`) passes its ``print_css`` (fonts, page
    size, page numbers), which also adds a table of contents with a page-number slot per
    section, and the ``chart_font`` family the charts are drawn in once it has loaded."""
    from markupsafe import Markup

    currency = plan.costs.currency
    by_section = charts(plan)
    views = [_view_section(s, by_section.get(s.id, []), currency) for s in sections(plan)]
    n_charts = sum(len(v) for v in by_section.values())
    toc = [(v["id"], v["title"]) for v in views] + ([] if plan.risk else [("risk", _("Risk"))])
    page = _template().render(
        title=title(plan),
        plan=plan,
        lang=current() if current() != "xx" else "en",
        generated_for=format_value(plan.generated_for, "date"),
        sections=views,
        has_risk=plan.risk is not None,
        n_charts=n_charts,
        cards=_cards(plan),
        css=Markup(_static("report.css")),
        print_css=Markup(print_css),
        toc=toc if print_css else [],
        chart_font=chart_font,
        boot_js=Markup(_static("report.js")),
        plotly_js=Markup(_PLOTLY_SLOT),
    )
    if not n_charts:
        return page.encode("utf-8")
    head, slot, tail = page.rpartition(_PLOTLY_SLOT)
    if not slot:  # pragma: no cover - the template always carries it
        raise RuntimeError("the report template lost its Plotly.js slot")
    return b"".join((head.encode("utf-8"), _plotly_js(), tail.encode("utf-8")))
