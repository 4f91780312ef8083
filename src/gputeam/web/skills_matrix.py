"""The skills matrix: people × skill domains, each cell a person's current proficiency
against the target, each column's bus factor. Pure functions over the catalog, the latest
plan and rows the caller fetched; the page, the CSV and XLSX downloads and
``GET /api/v1/skills/matrix`` render the one dict :func:`build` returns.

Targets. With a saved plan, the plan's target at its deadline month: a person's target in a
domain is what the target's slots for their role need (the highest, if several), a column's
target is the highest any slot or domain cover of that month needs (what the plan's gaps
measure); a person without a role is held to the column's target (the plan does not say
which slot they fill, so the most any slot needs). Without a plan, a person's target is
what their catalog role needs (none without a role), and a column has none. A column's
bus factor counts the selected people at or above its target (without one, at least
proficient, 3 of 4, as the dashboard counts); 1 or 0 is a key-person risk.

Every cell says its status in words and a symbol as well as a colour class: ``meets``
(✓), ``below`` (✗, unrated counts as 0), ``no-target`` (no mark) and ``unrated``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gputeam.catalog import Catalog

#: Proficiency counting a person towards a column's bus factor when it has no target.
PROFICIENT = 3
PROFICIENCY_NAMES = ("none", "aware", "basic", "proficient", "expert")
SYMBOLS = {"meets": "✓", "below": "✗", "no-target": "", "unrated": ""}


@dataclass(frozen=True)
class Targets:
    """Proficiency needed, by role and domain and by domain, and where it comes from."""

    source: str  # "plan" or "catalog roles"
    by_role: Mapping[str, Mapping[str, int]]
    by_domain: Mapping[str, int]


def targets(catalog: Catalog, plan: Any = None) -> Targets:
    """The targets of the latest ``plan`` (at its deadline month), else the catalog roles'."""
    if plan is None:
        return Targets(
            "catalog roles",
            {r.id: {n.domain: n.proficiency for n in r.domains} for r in catalog.roles.values()},
            {},
        )
    month = plan.target.at(plan.gaps.month)
    by_role: dict[str, dict[str, int]] = {}
    by_domain: dict[str, int] = {}
    for slot in month.slots:
        need = by_role.setdefault(slot.role, {})
        for domain, proficiency in slot.domains.items():
            need[domain] = max(need.get(domain, 0), proficiency)
            by_domain[domain] = max(by_domain.get(domain, 0), proficiency)
    for cover in month.coverage:
        by_domain[cover.domain] = max(by_domain.get(cover.domain, 0), cover.proficiency)
    return Targets("plan", by_role, by_domain)


def columns(catalog: Catalog, group: str | None = None) -> list[Any]:
    """The catalog's skill domains (of ``group``), in catalog order."""
    return [d for d in catalog.domains.values() if group is None or d.group == group]


def groups(catalog: Catalog) -> list[str]:
    """The domain groups, in the order the catalog first uses them."""
    return list(dict.fromkeys(d.group for d in catalog.domains.values()))


def cell(proficiency: int | None, target: int | None) -> dict[str, Any]:
    """One cell: proficiency (None: unrated), target (None: none) and status in words."""
    if target is None:
        status = "unrated" if proficiency is None else "no-target"
    else:
        status = "meets" if (proficiency or 0) >= target else "below"
    return {"proficiency": proficiency, "target": target, "status": status}


def cell_text(c: Mapping[str, Any]) -> str:
    """A cell as text (CSV, XLSX, screen readers): ``2/3 ✗ below``, ``4/3 ✓ meets``,
    ``2`` (no target), ``–`` (unrated)."""
    shown = "–" if c["proficiency"] is None else str(c["proficiency"])
    if c["target"] is None:
        return shown
    return f"{shown}/{c['target']} {SYMBOLS[c['status']]} {c['status']}"


def build(
    catalog: Catalog,
    tg: Targets,
    people: Sequence[Any],
    skills: Mapping[int, Mapping[str, int]],
    teams: Mapping[int, str],
    counts: Mapping[str, Mapping[int, int]],
    *,
    group: str | None = None,
) -> dict[str, Any]:
    """The matrix of ``people`` (rows with ``id``, ``key``, ``name``, ``team_id``, ``role``,
    ``level``, ``site``, ``active``) with their current ``skills``; ``counts`` are the proficiency
    counts of every selected person (all pages: :func:`gputeam.store.proficiency_counts`)."""
    cols = []
    for d in columns(catalog, group):
        target = tg.by_domain.get(d.id)
        threshold = target if target is not None else PROFICIENT
        have = counts.get(d.id, {})
        cols.append(
            {
                "domain": d.id,
                "name": d.name,
                "group": d.group,
                "target": target,
                "bus_factor": sum(n for p, n in have.items() if p >= threshold),
                "bus_factor_at": threshold,
            }
        )
    rows = []
    for p in people:
        # no role, against a plan: the column's target (see the module's docstring)
        need = tg.by_role.get(p.role, {}) if p.role else (tg.by_domain if tg.source == "plan" else {})
        mine = skills.get(p.id, {})
        rows.append(
            {
                "id": p.id,
                "key": p.key,
                "name": p.name,
                "team_id": p.team_id,
                "team": teams.get(p.team_id) if p.team_id is not None else None,
                "role": p.role,
                "level": p.level,
                "site": p.site,
                "active": p.active,
                "cells": [
                    {"domain": c["domain"], **cell(mine.get(c["domain"]), need.get(c["domain"]))}
                    for c in cols
                ],
            }
        )
    return {"target_source": tg.source, "columns": cols, "rows": rows}


HEADER = ("id", "name", "team", "role", "level", "site")


def table(matrix: Mapping[str, Any]) -> Iterable[list[Any]]:
    """The matrix as spreadsheet rows: a header, one row per person (cells as
    :func:`cell_text`), then the targets and the bus factor per column."""
    cols = matrix["columns"]
    yield [*HEADER, *(c["name"] for c in cols)]
    for r in matrix["rows"]:
        yield [
            r["key"],
            r["name"],
            r["team"] or "",
            r["role"] or "",
            r["level"],
            r["site"] or "",
            *(cell_text(c) for c in r["cells"]),
        ]
    yield [
        "",
        f"target ({matrix['target_source']})",
        "",
        "",
        "",
        "",
        *("" if c["target"] is None else c["target"] for c in cols),
    ]
    yield [
        "",
        "bus factor (people at or above)",
        "",
        "",
        "",
        "",
        *(f"{c['bus_factor']} (≥{c['bus_factor_at']})" for c in cols),
    ]


def to_csv(matrix: Mapping[str, Any]) -> str:
    import csv
    import io

    from gputeam.spreadsheet import csv_cell

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in table(matrix):
        writer.writerow([csv_cell(v) for v in row])
    return out.getvalue()


def to_xlsx(matrix: Mapping[str, Any]) -> bytes:
    import io

    from openpyxl import Workbook

    from gputeam.spreadsheet import xlsx_put

    wb = Workbook(write_only=False)
    ws = wb.active
    ws.title = "Skills matrix"
    for i, row in enumerate(table(matrix), start=1):
        for j, value in enumerate(row, start=1):
            xlsx_put(ws, i, j, value)
    ws.freeze_panes = "G2"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()
