"""The case-study section: the article's stated outcomes beside the plan's (article §7),
built once as a typed table for every format, and printed in the terminal summary."""

from __future__ import annotations

from typing import Any, Literal

from gputeam.i18n import _
from gputeam.planning.result import CaseOutcome, Plan
from gputeam.report.tables import Cell, Column, Kind, Section, Table, format_value
from gputeam.report.words import localise

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
        (
            _(o.label),
            _(o.stated),
            Cell(o.plan, _KINDS[o.unit]),
            _difference(o),
            o.agrees,
            localise(o.reason_text, o.reason),
            o.source,
        )
        for o in plan.case_study.outcomes
    )


def case_study_section(plan: Plan) -> Section | None:
    """The comparison as a section, or None for a scenario that models no case study."""
    cs = plan.case_study
    if cs is None:
        return None
    cols = (
        Column(_("Outcome")),
        Column(_("Article")),
        Column(_("Plan"), "number"),
        Column(_("Plan - article"), "number"),
        Column(_("Agrees"), "bool"),
        Column(_("Why")),
        Column(_("Source")),
    )
    notes = (
        _(
            "The scenario models the article's case study '{name}' ({source}). Counts and "
            "months agree when equal, money within 10%, shares within 5 points."
        ).format(name=_(cs.name), source=cs.source),
    )
    table = Table("case_study", cols, _rows(plan), title=_("The article's stated outcomes beside the plan's"))
    return Section("case_study", _("Case study"), (table,), notes=notes)


def print_case_study(plan: Plan, console: Any) -> None:
    from rich.table import Table as RichTable

    section = case_study_section(plan)
    if section is None:
        return
    (table,) = section.tables
    t = RichTable(
        title=_("Case study ({source}): the article's outcomes beside the plan's").format(
            source=plan.case_study.source if plan.case_study else ""
        )
    )
    columns: tuple[tuple[str, Literal["left", "right"]], ...] = (
        (_("outcome"), "left"),
        (_("article"), "left"),
        (_("plan"), "right"),
        (_("why it differs"), "left"),
    )
    for title, justify in columns:
        t.add_column(title, overflow="fold", justify=justify)
    cur = plan.costs.currency
    for label, stated, figure, _diff, agrees, reason, _source in table.rows:
        t.add_row(label, stated, format_value(figure, "number", cur), _("agrees") if agrees else reason)
    console.print(t)
