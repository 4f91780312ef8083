"""Generate the reference parts of docs/scenario.md and docs/catalog.md.

The scenario reference is built from the pydantic models in ``gputeam.scenario.models``
(field names, types, defaults, limits and ``description``), the catalog reference from the
packaged catalog data (every entry with its ``source`` and ``as_of``). Only the text between
the ``<!-- BEGIN GENERATED ... -->`` and ``<!-- END GENERATED ... -->`` markers is replaced;
everything else in those files is written by hand.

Usage::

    python tools/gen_docs.py               # rewrite docs/scenario.md and docs/catalog.md
    python tools/gen_docs.py --check       # exit 1 if either file is stale
    python tools/gen_docs.py --out-dir D   # write the regenerated files into D instead

``tests/test_docs.py`` runs the generator into a temporary directory and fails when the
committed files differ.
"""

from __future__ import annotations

import argparse
import re
import sys
import types
import typing
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import BaseModel

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

BEGIN = "<!-- BEGIN GENERATED: {name} (tools/gen_docs.py; do not edit by hand) -->"
END = "<!-- END GENERATED: {name} -->"

#: Field paths whose values are mappings keyed by the user (shown as ``<key>``).
MAPPING_KEYS = {"people[].skills": "<domain id>"}


# ---------------------------------------------------------------------------------------
# Scenario reference
# ---------------------------------------------------------------------------------------


def scenario_sections() -> list[tuple[str, type[BaseModel]]]:
    """(path prefix, model) for the scenario and every model nested in it, depth first."""
    from gputeam.scenario import Scenario

    out: list[tuple[str, type[BaseModel]]] = []

    def walk(prefix: str, model: type[BaseModel]) -> None:
        out.append((prefix, model))
        for name, field in model.model_fields.items():
            nested, many = _nested_model(field.annotation)
            if nested is not None:
                path = _join(prefix, name) + ("[]" if many else "")
                walk(path, nested)

    walk("", Scenario)
    return out


def scenario_field_paths() -> list[str]:
    """Every documented field path, e.g. ``fleet.gpus[].month`` (used by the docs test)."""
    return [_join(prefix, name) for prefix, model in scenario_sections() for name in model.model_fields]


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _nested_model(ann: Any) -> tuple[type[BaseModel] | None, bool]:
    """The BaseModel inside an annotation, and whether it is a list of them."""
    ann = _strip_optional(ann)
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return ann, False
    origin = typing.get_origin(ann)
    if origin in (tuple, list, dict):  # a dict's values: documented like a list's items
        args = [a for a in typing.get_args(ann) if a is not Ellipsis]
        args = args[1:] if origin is dict else args
        if len(args) == 1 and isinstance(args[0], type) and issubclass(args[0], BaseModel):
            return args[0], True
    return None, False


def _strip_optional(ann: Any) -> Any:
    if typing.get_origin(ann) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(ann) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return ann


def type_text(ann: Any) -> str:
    """A reader's name for a type annotation."""
    origin = typing.get_origin(ann)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(ann)
        parts = [type_text(a) for a in args if a is not type(None)]
        text = " or ".join(parts)
        return text + " or null" if type(None) in args else text
    if origin is typing.Literal:
        return "one of " + ", ".join(f"`{v}`" for v in typing.get_args(ann))
    if origin in (tuple, list):
        args = [a for a in typing.get_args(ann) if a is not Ellipsis]
        return "list of " + (_plural(type_text(args[0])) if args else "values")
    if origin is dict:
        key, value = typing.get_args(ann)
        return f"mapping of {type_text(key)} to {type_text(value)}"
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return f"[{ann.__name__}](#{ann.__name__.lower()})"
    names = {
        str: "text",
        int: "integer",
        float: "number",
        bool: "true or false",
        date: "date (YYYY-MM-DD)",
        typing.Any: "any value",
    }
    return names.get(ann, getattr(ann, "__name__", str(ann)))


def _plural(text: str) -> str:
    if text.startswith("one of ") or text.startswith("["):
        return text
    return {"text": "texts", "integer": "integers", "number": "numbers"}.get(text, text)


def limits_text(field: Any) -> str:
    words = {"ge": ">=", "gt": ">", "le": "<=", "lt": "<"}
    parts = []
    for meta in field.metadata:
        for attr, word in words.items():
            if getattr(meta, attr, None) is not None:
                parts.append(f"{word} {_number(getattr(meta, attr))}")
        if getattr(meta, "min_length", None) is not None:
            parts.append(
                "not empty"
                if meta.min_length == 1 and _unit(field) == "characters"
                else f"at least {meta.min_length} {_unit(field)}"
            )
        if getattr(meta, "max_length", None) is not None:
            parts.append(f"at most {meta.max_length} {_unit(field)}")
    if (
        len(parts) == 2
        and parts[0].startswith("at least")
        and parts[1].startswith("at most")
        and parts[0].split()[2] == parts[1].split()[2]
    ):
        parts = [f"exactly {parts[0].split(maxsplit=2)[2]}"]
    return ", ".join(parts)


def _number(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and abs(value) >= 10_000 else str(value)


def _unit(field: Any) -> str:
    return "characters" if _strip_optional(field.annotation) is str else "items"


def default_text(field: Any) -> str:
    if field.is_required():
        return "**required**"
    if field.default_factory is not None:
        value = field.default_factory()
        if isinstance(value, BaseModel):
            return "all defaults"
    else:
        value = field.default
    return f"`{_yaml_value(value)}`"


def _yaml_value(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_yaml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def scenario_reference() -> str:
    lines: list[str] = []
    for prefix, model in scenario_sections():
        title = model.__name__
        where = f"`{prefix}`" if prefix else "the top level of the file"
        lines += [f"### {title}", "", f"At {where}.", ""]
        lines += ["| field | type | default | limits | meaning |", "|---|---|---|---|---|"]
        for name, field in model.model_fields.items():
            path = _join(prefix, name)
            nested, _ = _nested_model(field.annotation)
            meaning = field.description or (
                f"See [{nested.__name__}](#{nested.__name__.lower()})." if nested else ""
            )
            if path in MAPPING_KEYS:
                meaning += f" Keys: {MAPPING_KEYS[path]}."
            lines.append(
                "| "
                + " | ".join(
                    _cell(x)
                    for x in (
                        f"`{path}`",
                        type_text(field.annotation),
                        default_text(field),
                        limits_text(field),
                        meaning,
                    )
                )
                + " |"
            )
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# ---------------------------------------------------------------------------------------
# Catalog reference
# ---------------------------------------------------------------------------------------


def _cell(value: Any) -> str:
    if value is None:
        text = "null"
    elif isinstance(value, float) and value.is_integer():
        text = f"{int(value):,}" if abs(value) >= 10_000 else str(int(value))
    elif isinstance(value, int) and not isinstance(value, bool):
        text = f"{value:,}" if abs(value) >= 10_000 else str(value)
    else:
        text = str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def _range(r: Any, money: bool = False) -> str:
    if r is None:
        return "null"
    fmt: Callable[[float], str] = (lambda x: f"${x:,.0f}") if money else (lambda x: f"{x:g}")
    return fmt(r.low) if r.low == r.high else f"{fmt(r.low)}-{fmt(r.high)}"


def _table(headers: list[str], rows: list[list[Any]]) -> list[str]:
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return [*out, ""]


def _gpus(template: Any, cat: Any) -> str:
    """GPU range; the largest template is open-ended ('1,000+')."""
    top = max(t.gpus.low for t in cat.templates.values())
    if template.gpus.low == top:
        return f"{template.gpus.low:,.0f}+"
    return f"{template.gpus.low:,.0f}-{template.gpus.high:,.0f}"


def _grants(grants: Any) -> str:
    return ", ".join(f"{g.domain} -> {g.to}" for g in grants) or "-"


def _ids(values: Any) -> str:
    return ", ".join(values) or "-"


def catalog_blocks() -> Iterator[tuple[str, str, list[str]]]:
    """(heading, one-line intro, table lines) for each catalog section."""
    from gputeam.catalog import load_catalog

    cat = load_catalog()

    yield (
        "Levels",
        "`levels`, keyed by `number` (article §3).",
        _table(
            [
                "number",
                "name",
                "experience (months)",
                "salary (USD/yr)",
                "typical certifications",
                "SFIA levels",
                "source",
                "as of",
            ],
            [
                [
                    lv.number,
                    lv.name,
                    _range(lv.experience_months),
                    _range(lv.salary_usd, money=True),
                    _ids(lv.typical_certifications),
                    ", ".join(map(str, lv.sfia_levels)) or "-",
                    lv.source,
                    lv.as_of,
                ]
                for lv in cat.levels.values()
            ],
        ),
    )
    yield (
        "Skill domains",
        "`domains`, keyed by `id`. Proficiency runs 0-4: none, aware, working, proficient, expert.",
        _table(
            ["id", "name", "group", "source", "as of"],
            [[d.id, d.name, d.group, d.source, d.as_of] for d in cat.domains.values()],
        ),
    )
    yield (
        "Courses",
        "`courses`, keyed by `id`. `grants` is the proficiency a course brings a domain up to.",
        _table(
            ["id", "name", "provider", "hours", "price (USD)", "grants", "source", "as of"],
            [
                [c.id, c.name, c.provider, c.hours, c.price_usd, _grants(c.grants), c.source, c.as_of]
                for c in cat.courses.values()
            ],
        ),
    )
    yield (
        "Certifications",
        "`certifications`, keyed by `id`. `null` means nobody has "
        "published the figure. No vendor publishes pass rates: the pass probabilities are "
        "gputeam assumptions (the source says so).",
        _table(
            [
                "id",
                "name",
                "vendor",
                "level",
                "questions",
                "minutes",
                "price (USD)",
                "hands-on",
                "exam domains",
                "valid (months)",
                "prerequisites",
                "min. experience (months)",
                "study hours",
                "grants",
                "pass probability",
                "source",
                "as of",
            ],
            [
                [
                    c.id,
                    c.name,
                    c.vendor,
                    c.level,
                    _questions(c.exam),
                    c.exam.minutes,
                    c.exam.price_usd,
                    "yes" if c.exam.hands_on else "no",
                    _weights(c.exam),
                    c.validity_months,
                    _ids(c.prerequisites),
                    c.min_experience_months,
                    c.study_hours,
                    _grants(c.grants),
                    c.exam.pass_probability,
                    c.source,
                    c.as_of,
                ]
                for c in cat.certifications.values()
            ],
        ),
    )
    yield (
        "Training paths",
        "`paths`, keyed by `id` (article §4).",
        _table(
            ["id", "name", "months", "courses", "exam", "source", "as of"],
            [
                [p.id, p.name, p.months, _ids(p.courses), p.exam, p.source, p.as_of]
                for p in cat.paths.values()
            ],
        ),
    )
    yield (
        "Roles",
        "`roles`, keyed by `id`. `needs` lists domain -> proficiency.",
        _table(
            ["id", "name", "levels", "needs", "on-call", "source", "as of"],
            [
                [
                    r.id,
                    r.name,
                    f"{r.level_min}-{r.level_max}" if r.level_min != r.level_max else r.level_min,
                    ", ".join(f"{n.domain} {n.proficiency}" for n in r.domains),
                    "yes" if r.operations else "no",
                    r.source,
                    r.as_of,
                ]
                for r in cat.roles.values()
            ],
        ),
    )
    yield (
        "Team templates",
        "`templates`, keyed by `id` (article §5). Certification groups separated by `/` mean 'any one of'.",
        _table(
            [
                "id",
                "GPUs",
                "roster (count x role, levels)",
                "certifications by role",
                "article's total (USD/yr)",
                "source",
                "as of",
            ],
            [
                [
                    t.id,
                    _gpus(t, cat),
                    "; ".join(
                        f"{s.count} x {s.role} (L{s.level_min}"
                        + (f"-{s.level_max})" if s.level_max != s.level_min else ")")
                        for s in t.slots
                    ),
                    "; ".join(
                        f"{role}: " + ", ".join(" / ".join(g) for g in groups)
                        for role, groups in t.certifications.items()
                    ),
                    _range(t.article_cost_usd, money=True),
                    t.source,
                    t.as_of,
                ]
                for t in cat.templates.values()
            ],
        ),
    )
    yield (
        "Training strategies",
        "`strategies`, keyed by `id` (article §6).",
        _table(
            [
                "id",
                "name",
                "weeks",
                "months",
                "cost per participant (USD)",
                "mentor time",
                "group discount",
                "group minimum",
                "source",
                "as of",
            ],
            [
                [
                    s.id,
                    s.name,
                    _range(s.weeks),
                    _range(s.months),
                    _range(s.cost_per_participant_usd, money=True),
                    s.mentor_time_share,
                    _range(s.group_discount),
                    s.group_min,
                    s.source,
                    s.as_of,
                ]
                for s in cat.strategies.values()
            ],
        ),
    )
    yield (
        "Transitions",
        "`transitions`, a list (entries are appended, article §2).",
        _table(
            ["background", "domain", "months", "source", "as of"],
            [[t.background, t.domain, _range(t.months), t.source, t.as_of] for t in cat.transitions],
        ),
    )
    eco = cat.economics
    rows = []
    for name, field in type(eco).model_fields.items():
        if name in ("source", "as_of"):
            continue
        value = getattr(eco, name)
        if hasattr(value, "low"):
            value = _range(value)
        elif isinstance(value, dict):
            value = ", ".join(f"{k}: {v}" for k, v in value.items())
        elif isinstance(value, BaseModel):  # a nested entry with its own source
            parts = [f"{k}: {_cell(v)}" for k, v in value if k not in ("source", "as_of")]
            value = ", ".join(parts) + f" (source: {getattr(value, 'source', '')})"
        rows.append([f"`{name}`", value, field.description or ECONOMICS_MEANING.get(name, "")])
    yield (
        "Economics",
        (f"`economics`, one mapping patched field by field. Source: {eco.source}; as of {eco.as_of}."),
        _table(["field", "value", "meaning"], rows),
    )
    work = cat.workload
    rows = []
    for name, field in type(work).model_fields.items():
        if name in ("source", "as_of", "specialists"):
            continue
        value = getattr(work, name)
        if isinstance(value, dict):
            value = ", ".join(f"{k}: {v}" for k, v in value.items())
        rows.append([f"`{name}`", value, field.description or ""])
    for rule in work.specialists:
        when = ", ".join(f"{k} {'/'.join(v)}" for k, v in rule.when.items()) or "any fleet"
        extra = (" with compliance" if rule.compliance else "") + (
            f", at least {rule.per_site} a site" if rule.per_site else ""
        )
        rows.append(
            [
                f"`specialists`: {rule.role}",
                f"from {rule.from_gpus:,} GPUs, one per {rule.gpus_per_person:,.0f}",
                f"{when}{extra}",
            ]
        )
    yield (
        "Workload",
        (
            "`workload`, one mapping patched field by field: the work a fleet creates and the "
            f"norms the team is sized from (see planning.md). Source: {work.source}; as of {work.as_of}."
        ),
        _table(["field", "value", "meaning"], rows),
    )
    yield (
        "Retention levers",
        "`retention_levers`, keyed by `id` (article §8): what each lever costs a year, as a share "
        "of salary, and the share of attrition it cuts when fully funded (see docs/planning.md, Costs).",
        _table(
            ["id", "name", "cost (share of salary)", "attrition cut", "source", "as of"],
            [
                [lv.id, lv.name, lv.cost, lv.attrition_cut, lv.source, lv.as_of]
                for lv in cat.retention_levers.values()
            ],
        ),
    )
    yield (
        "Salary bands by country",
        "`salary_bands`, keyed by `country` (ISO 3166-1 alpha-2), in that country's currency; "
        "the US bands are the levels' own (article §3). A level left out has no published "
        "figure: a plan prices it from the scenario's own staff or converts the US band, and "
        "warns (docs/planning.md, Salary bands by country).",
        _table(
            ["country", "currency", "bands by level", "source", "as of"],
            [
                [
                    b.country,
                    b.currency,
                    ", ".join(f"{lv}: {_range(r)}" for lv, r in sorted(b.levels.items())) or "none",
                    b.source,
                    b.as_of,
                ]
                for b in cat.salary_bands.values()
            ],
        ),
    )
    ex = cat.roi_example
    yield (
        "ROI worked example",
        (f"`roi_example` ({ex.gpus} GPUs, {ex.engineers} engineers). Source: {ex.source}; as of {ex.as_of}."),
        _table(
            ["kind", "item", "USD"],
            [["investment", k, v] for k, v in ex.investment.items()]
            + [["annual return", k, v] for k, v in ex.returns.items()],
        ),
    )
    yield (
        "Case studies",
        "`case_studies`, keyed by `id` (article §7); the bundled examples of the same names model them.",
        _table(
            ["id", "name", "summary", "source", "as of"],
            [[c.id, c.name, c.summary, c.source, c.as_of] for c in cat.case_studies.values()],
        ),
    )
    yield (
        "Contradictions",
        "`contradictions`, keyed by `id`: where the article's own "
        "numbers disagree. Plans show them as warnings where they matter.",
        _table(
            ["id", "title", "detail", "source", "as of"],
            [[c.id, c.title, c.detail, c.source, c.as_of] for c in cat.contradictions.values()],
        ),
    )
    yield (
        "Vendor tracks",
        "`vendor_tracks`, a list (article §4, §10).",
        _table(
            ["vendor", "programme", "formal certification", "note", "source", "as of"],
            [
                [v.vendor, v.programme, "yes" if v.formal_certification else "no", v.note, v.source, v.as_of]
                for v in cat.vendor_tracks
            ],
        ),
    )
    yield (
        "GPU models",
        "`gpu_models`, keyed by `id`: what a fleet's `gpu_model` (and `gpu_models`) brings: "
        "vendor, power, rack scale and cooling (issue 18; `gputeam.planning.hardware`).",
        _table(
            ["id", "name", "vendor", "generation", "kW per GPU", "rack scale", "cooling", "source", "as of"],
            [
                [
                    g.id,
                    g.name,
                    g.vendor,
                    g.generation,
                    g.kw_per_gpu,
                    "yes" if g.rack_scale else "no",
                    g.cooling,
                    g.source,
                    g.as_of,
                ]
                for g in cat.gpu_models.values()
            ],
        ),
    )
    yield (
        "GPU vendors",
        "`gpu_vendors`, keyed by `id`: each vendor's software-stack skill domain and the "
        "certifications that mark each level; `replaces` maps the templates' NVIDIA "
        "certifications to the vendor's (none: dropped).",
        _table(
            ["id", "name", "stack domain", "level certifications", "replaces", "note", "source", "as of"],
            [
                [
                    v.id,
                    v.name,
                    v.stack_domain,
                    "; ".join(f"{lvl}: {', '.join(c)}" for lvl, c in v.level_certifications.items())
                    or "none",
                    ", ".join(f"{a} -> {b or 'none'}" for a, b in v.replaces.items()) or "-",
                    v.certification_note or "-",
                    v.source,
                    v.as_of,
                ]
                for v in cat.gpu_vendors.values()
            ],
        ),
    )
    yield (
        "Emerging specialisations",
        "`specialisations`, a list (article §10).",
        _table(
            ["id", "name", "source", "as of"],
            [[s.id, s.name, s.source, s.as_of] for s in cat.specialisations],
        ),
    )


ECONOMICS_MEANING = {
    "contractor_rate_usd_h": "Contractor cost per hour.",
    "employee_rate_usd_h": "Employee cost per hour, for comparison with contractors.",
    "retention_premium": "Pay above market that retains people (a share).",
    "efficiency_gain": "Cluster efficiency gained by certified staff (a share).",
    "hours_per_fte_year": "Working hours in a full-time year.",
    "ramp_up_months": "Months before a new hire is fully productive.",
    "contractor_hours_avoided_per_gpu_year": "Contractor hours an in-house team saves per GPU and year.",
    "kw_per_gpu": "Default kW per GPU including its share of the server.",
    "pue": "Default power usage effectiveness of the site.",
    "usd_per_kwh": "Default electricity price.",
    "downtime_cost_per_gpu_year": "Downtime cost avoided per GPU and year.",
    "deployment_speedup_value_per_gpu": "Value of faster deployment per GPU.",
    "attrition_by_level": "Yearly attrition by competency level.",
}


def _questions(exam: Any) -> str:
    lo, hi = exam.questions_min, exam.questions_max
    if lo is None and hi is None:
        return "null"
    if lo is None:
        return f"up to {hi}"
    return str(lo) if lo == hi or hi is None else f"{lo}-{hi}"


def _weights(exam: Any) -> str:
    return ", ".join(f"{k} {v:.0%}" for k, v in exam.domain_weights.items()) or "-"


def catalog_reference() -> str:
    from gputeam.catalog.load import CATALOG_VERSION

    lines = [f"Catalog version `{CATALOG_VERSION}`.", ""]
    for heading, intro, table in catalog_blocks():
        lines += [f"### {heading}", "", intro, "", *table]
    return "\n".join(lines).rstrip() + "\n"


def catalog_sections_reference() -> str:
    from gputeam.catalog.load import APPENDED, KEYED, PATCHED

    rows = [
        [
            f"`{s}`",
            f"keyed by `{k}`: an entry with a known key is updated field by field, a new key adds an entry",
        ]
        for s, k in KEYED.items()
    ]
    rows += [[f"`{s}`", "a list: entries are appended"] for s in APPENDED]
    rows += [[f"`{s}`", "one mapping: the fields you give replace the packaged ones"] for s in PATCHED]
    return "\n".join(_table(["section", "how an extra file changes it"], rows)).rstrip() + "\n"


# ---------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------

GENERATORS: dict[str, dict[str, Callable[[], str]]] = {
    "scenario.md": {"scenario-reference": scenario_reference},
    "catalog.md": {"catalog-sections": catalog_sections_reference, "catalog-reference": catalog_reference},
}


def regenerate(text: str, blocks: dict[str, Callable[[], str]], filename: str) -> str:
    for name, make in blocks.items():
        begin, end = BEGIN.format(name=name), END.format(name=name)
        pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
        if not pattern.search(text):
            raise SystemExit(f"{filename}: markers for {name!r} not found:\n  {begin}\n  {end}")
        body = make()
        text = pattern.sub(lambda _m, b=begin, e=end, body=body: f"{b}\n\n{body}\n{e}", text)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the docs are stale")
    parser.add_argument("--out-dir", type=Path, help="write the files here instead of docs/")
    parser.add_argument("--docs-dir", type=Path, default=DOCS, help="where the docs live")
    args = parser.parse_args(argv)
    stale = []
    for filename, blocks in GENERATORS.items():
        current = (args.docs_dir / filename).read_text("utf-8")
        new = regenerate(current, blocks, filename)
        if args.check:
            if new != current:
                stale.append(filename)
            continue
        target = (args.out_dir or args.docs_dir) / filename
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_text("utf-8") != new:
            target.write_text(new, "utf-8")
            print(f"wrote {target}")
    if stale:
        print("stale: " + ", ".join(stale) + " (run python tools/gen_docs.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
