"""The case-study section: the article's stated outcomes beside the plan's (article §7),
built once as a typed table for every format, and printed in the terminal summary."""

from __future__ import annotations

from typing import Any

from gputeam.planning.result import CaseOutcome, Plan
from gputeam.report.tables import Cell, Column, Kind, Section, Table, format_value

__all__ = ["case_study_section", "print_case_study"]

_KINDS: dict[str, Kind] = {"count": "number", "money": "money", "share": "pct", "month": "month"}


def _difference(o: CaseOutcome) -> Cell:
    kind = _KINDS[o.unit]
    if o.plan is None:
        return Cell(None, kind)
    return Cell(o.plan - o.article, "number" if kind == "month" else kind)


def _rows(plan: Plan) -> tuple[tuple[Any, ...], ...]:
    assert plan.case_study is not None
    return tuple(
        (o.label, o.stated, Cell(o.plan, _KINDS[o.unit]), _difference(o), o.agrees, o.reason,
         o.source)
        for o in plan.case_study.outcomes)


def case_study_section(plan: Plan) -> Section | None:
    """The comparison as a section, or None for a scenario that models no case study."""
    cs = plan.case_study
    if cs is None:
        return None
    cols = (Column("Outcome"), Column("Article"), Column("Plan", "number"),
            Column("Plan - article", "number"), Column("Agrees", "bool"), Column("Why"),
            Column("Source"))
    notes = (f"The scenario models the article's case study '{cs.name}' ({cs.source}). Counts "
             "and months agree when equal, money within 10%, shares within 5 points.",)
    table = Table("case_study", cols, _rows(plan),
                  title="The article's stated outcomes beside the plan's")
    return Section("case_study", "Case study", (table,), notes=notes)


def print_case_study(plan: Plan, console: Any) -> None:
    from rich.table import Table as RichTable

    section = case_study_section(plan)
    if section is None:
        return
    (table,) = section.tables
    t = RichTable(title=f"Case study ({plan.case_study.source if plan.case_study else ''}): "
                  "the article's outcomes beside the plan's")
    for title in ("outcome", "article", "plan", "why it differs"):
        t.add_column(title, overflow="fold", justify="right" if title == "plan" else "left")
    cur = plan.costs.currency
    for label, stated, figure, _, agrees, reason, _ in table.rows:
        t.add_row(label, stated, format_value(figure, "number", cur),
                  "agrees" if agrees else reason)
    console.print(t)
