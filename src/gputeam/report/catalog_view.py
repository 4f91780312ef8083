"""`gputeam catalog show`: catalog sections as tables or JSON."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.table import Table

from gputeam.catalog import Catalog
from gputeam.i18n import _, gettext

#: The columns whose values are the catalog's own texts (translated like its YAML's, see
#: gputeam.i18n.catalogs.CATALOG_FIELDS); ids, figures and sources stay as they are.
_TEXTS = frozenset({"name", "title", "detail", "description"})

ATTR = {
    "certs": "certifications",
    "case-studies": "case_studies",
    "vendors": "vendor_tracks",
    "roi-example": "roi_example",
}


def section_data(catalog: Catalog, section: str) -> Any:
    value = getattr(catalog, ATTR.get(section, section))
    if isinstance(value, dict):
        return [v.model_dump(mode="json") for v in value.values()]
    if isinstance(value, tuple):
        return [v.model_dump(mode="json") for v in value]
    return value.model_dump(mode="json")


def render_section(
    catalog: Catalog, section: str, fmt: str = "table", console: Console | None = None
) -> None:
    console = console or Console()
    data = section_data(catalog, section)
    if fmt == "json":
        console.print_json(json.dumps(data))
        return
    rows = data if isinstance(data, list) else [data]
    t = Table(
        title=_("{section} (catalog {version})").format(section=section, version=catalog.version),
        show_lines=False,
    )
    cols = _columns(section, rows)
    for c in cols:
        t.add_column(c, overflow="fold")
    for row in rows:
        t.add_row(*(gettext(_cell(row.get(c))) if c in _TEXTS else _cell(row.get(c)) for c in cols))
    console.print(t)


def _columns(section: str, rows: list[dict[str, Any]]) -> list[str]:
    preferred = {
        "levels": [
            "number",
            "name",
            "experience_months",
            "salary_usd",
            "typical_certifications",
            "sfia_levels",
            "source",
        ],
        "domains": ["id", "name", "group", "source"],
        "courses": ["id", "name", "hours", "grants", "source"],
        "paths": ["id", "name", "months", "courses", "exam", "source"],
        "certs": ["id", "vendor", "level", "exam", "validity_months", "prerequisites", "source"],
        "roles": ["id", "name", "level_min", "level_max", "domains", "source"],
        "templates": ["id", "gpus", "slots", "certifications", "article_cost_usd", "source"],
        "strategies": [
            "id",
            "name",
            "weeks",
            "cost_per_participant_usd",
            "mentor_time_share",
            "group_discount",
            "source",
        ],
        "contradictions": ["id", "title", "detail", "source"],
        "transitions": ["background", "domain", "months", "source"],
        "case-studies": ["id", "name", "summary", "outcomes", "source"],
        "vendors": ["vendor", "programme", "formal_certification", "note", "source"],
        "specialisations": ["id", "name", "source"],
    }
    if section in preferred:
        return preferred[section]
    return list(rows[0]) if rows else []


def _cell(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, dict):
        if set(v) == {"low", "high"}:
            return f"{v['low']:,g}-{v['high']:,g}"
        return ", ".join(f"{k}: {_cell(x)}" for k, x in v.items() if x not in (None, {}, [], False))
    if isinstance(v, list):
        return ", ".join(_cell(x) for x in v)
    return str(v)
