"""Markdown report: the shared section tables (``gputeam.report.sections``) as GFM tables.

``render(plan)`` returns the Markdown document as UTF-8 bytes.
"""

from __future__ import annotations

from gputeam.i18n import _
from gputeam.planning.result import Plan
from gputeam.report.sections import (  # re-exported: the Markdown module's public names
    Cell,
    Column,
    Section,
    Table,
    format_value,
    money,
    plain_data,
    sections,
)
from gputeam.report.tables import empty_text

__all__ = ["Cell", "Column", "Section", "Table", "format_value", "money", "plain_data", "render", "sections"]

_MD_ESCAPES = str.maketrans({c: "\\" + c for c in "\\|*`[]"} | {"<": "&lt;", ">": "&gt;", "\n": " "})


def md_escape(text: str) -> str:
    return text.replace("&", "&amp;").translate(_MD_ESCAPES)


def _md_table(table: Table, currency: str) -> list[str]:
    out = [f"### {md_escape(table.title)}", ""] if table.title else []
    if not table.rows:
        return [*out, md_escape(empty_text(table)), ""]
    out.append("| " + " | ".join(md_escape(c.title) for c in table.columns) + " |")
    out.append(
        "|"
        + "|".join("---:" if c.kind not in ("text", "date", "bool") else "---" for c in table.columns)
        + "|"
    )
    for row in table.rows:
        cells = (
            md_escape(format_value(v, c.kind, currency)) for v, c in zip(row, table.columns, strict=True)
        )
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    return out


def render(plan: Plan) -> bytes:
    """The plan as a Markdown document (UTF-8)."""
    currency = plan.costs.currency
    organisation = plan.scenario.organisation
    lines = [
        "# " + _("Team plan: {organisation}").format(organisation=md_escape(str(organisation))),
        "",
        _("Computed for {date} with catalog {catalog}.").format(
            date=format_value(plan.generated_for, "date"), catalog=md_escape(plan.catalog_version)
        ),
        "",
    ]
    for section in sections(plan):
        lines += [f"## {md_escape(section.title)}", ""]
        for note in section.notes:
            lines.append(f"- {md_escape(note)}")
        if section.notes:
            lines.append("")
        for table in section.tables:
            lines += _md_table(table, currency)
    if not plan.risk:
        lines += ["## " + _("Risk"), "", _("No risk simulation in this plan."), ""]
    return "\n".join(lines).encode("utf-8")
