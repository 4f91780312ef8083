"""Documents that are not one plan (``compare``, ``sweep``): typed sections, and charts, as
a self-contained HTML page or Markdown, rendered the way the plan report renders its own
sections (the same table views, styles and offline Plotly.js)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from gputeam.report.charts import Chart
from gputeam.report.tables import Section

if TYPE_CHECKING:
    import jinja2

__all__ = ["html_document", "markdown_document"]


@lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    from gputeam.report.html import environment

    source = (resources.files("gputeam.report") / "templates" / "document.html.j2").read_text(
        encoding="utf-8"
    )
    return environment().from_string(source)


def html_document(
    title: str, sections: Sequence[Section], charts: Mapping[str, list[Chart]], currency: str, meta: str = ""
) -> bytes:
    """One offline HTML page: each section's notes, charts (``charts[section.id]``) and
    tables."""
    from markupsafe import Markup

    from gputeam.report.html import _PLOTLY_SLOT, _plotly_js, _static, _view_section

    views = [_view_section(s, list(charts.get(s.id, [])), currency) for s in sections]
    n_charts = sum(len(charts.get(s.id, [])) for s in sections)
    from gputeam.i18n import PSEUDO, current

    page = _template().render(
        title=title,
        meta=meta,
        sections=views,
        n_charts=n_charts,
        lang="en" if current() == PSEUDO else current(),
        css=Markup(_static("report.css")),
        boot_js=Markup(_static("report.js")),
        plotly_js=Markup(_PLOTLY_SLOT),
    )
    if not n_charts:
        return page.encode("utf-8")
    head, _, tail = page.rpartition(_PLOTLY_SLOT)
    return b"".join((head.encode("utf-8"), _plotly_js(), tail.encode("utf-8")))


def markdown_document(title: str, sections: Sequence[Section], currency: str) -> bytes:
    from gputeam.report.markdown import _md_table, md_escape

    lines = [f"# {md_escape(title)}", ""]
    for section in sections:
        lines += [f"## {md_escape(section.title)}", ""]
        lines += [f"- {md_escape(note)}" for note in section.notes]
        if section.notes:
            lines.append("")
        for table in section.tables:
            lines += _md_table(table, currency)
    return "\n".join(lines).encode("utf-8")
