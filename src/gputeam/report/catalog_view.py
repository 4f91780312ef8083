"""`gputeam catalog show`: catalog sections as tables or JSON."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.table import Table

from gputeam.catalog import Catalog
from gputeam.i18n import N_, _, gettext

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


#: Each section's title in the table's heading.
SECTION_TITLES = {
    "levels": N_("Levels"),
    "domains": N_("Skill domains"),
    "courses": N_("Courses"),
    "paths": N_("Learning paths"),
    "certs": N_("Certifications"),
    "roles": N_("Roles"),
    "templates": N_("Team templates"),
    "strategies": N_("Training strategies"),
    "economics": N_("Economics"),
    "workload": N_("Workload"),
    "transitions": N_("Transitions"),
    "case-studies": N_("Case studies"),
    "contradictions": N_("Contradictions"),
    "vendors": N_("Vendor tracks"),
    "specialisations": N_("Specialisations"),
    "roi-example": N_("The article's ROI example"),
}

#: The catalog's field names as column headings and as labels inside a cell (an exam's
#: minutes, a level's salary ...); a field not listed is shown by its name.
LABELS = {
    "id": N_("ID"),
    "name": N_("Name"),
    "number": N_("Level"),
    "level": N_("Level"),
    "vendor": N_("Vendor"),
    "exam": N_("Exam"),
    "validity_months": N_("Valid for (months)"),
    "prerequisites": N_("Prerequisites"),
    "source": N_("Source"),
    "experience_months": N_("Experience (months)"),
    "salary_usd": N_("Salary (USD)"),
    "typical_certifications": N_("Typical certifications"),
    "sfia_levels": N_("SFIA levels"),
    "group": N_("Group"),
    "hours": N_("Hours"),
    "grants": N_("Grants"),
    "months": N_("Months"),
    "courses": N_("Courses"),
    "level_min": N_("Lowest level"),
    "level_max": N_("Highest level"),
    "domains": N_("Domains"),
    "gpus": N_("GPUs"),
    "slots": N_("Slots"),
    "certifications": N_("Certifications"),
    "article_cost_usd": N_("Article's cost (USD)"),
    "weeks": N_("Weeks"),
    "cost_per_participant_usd": N_("Cost per participant (USD)"),
    "mentor_time_share": N_("Mentor's time"),
    "group_discount": N_("Group discount"),
    "title": N_("Title"),
    "detail": N_("Detail"),
    "background": N_("Background"),
    "summary": N_("Summary"),
    "outcomes": N_("Outcomes"),
    "programme": N_("Programme"),
    "formal_certification": N_("Formal certification"),
    "note": N_("Note"),
    "questions_min": N_("fewest questions"),
    "questions_max": N_("most questions"),
    "minutes": N_("minutes"),
    "price_usd": N_("price (USD)"),
    "remote_proctored": N_("remote proctored"),
    "domain_weights": N_("domain weights"),
    "pass_probability": N_("pass probability"),
    "retake_wait_days": N_("days before a retake"),
}


def label(field: str) -> str:
    """A field's heading or label in the active language (its name where none is listed)."""
    word = LABELS.get(field)
    return gettext(word) if word is not None else field.replace("_", " ")


def render_section(
    catalog: Catalog, section: str, fmt: str = "table", console: Console | None = None
) -> None:
    """``section`` as JSON (the catalog's own data, field names as they are) or as a table
    in the active language: headings and labels from :data:`LABELS`, the catalog's texts
    translated, yes/no for flags and numbers in the language's format."""
    console = console or Console()
    data = section_data(catalog, section)
    if fmt == "json":
        console.print_json(json.dumps(data))
        return
    rows = data if isinstance(data, list) else [data]
    title = gettext(SECTION_TITLES[section]) if section in SECTION_TITLES else section
    t = Table(
        title=_("{section} (catalog {version})").format(section=title, version=catalog.version),
        show_lines=False,
    )
    cols = _columns(section, rows)
    for c in cols:
        t.add_column(label(c), overflow="fold")
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
    from gputeam.i18n.formats import number

    if v is None:
        return "-"
    if isinstance(v, bool):
        return _("yes") if v else _("no")
    if isinstance(v, int | float):
        return number(v, 4)
    if isinstance(v, dict):
        if set(v) == {"low", "high"}:
            return f"{_cell(v['low'])}-{_cell(v['high'])}"
        return ", ".join(
            f"{label(str(k))}: {_cell(x)}" for k, x in v.items() if x not in (None, {}, [], False)
        )
    if isinstance(v, list):
        return ", ".join(_cell(x) for x in v)
    return str(v)
