"""Load the packaged catalog, optionally patched by a user's extra file."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from pydantic import ValidationError

from gputeam.catalog.models import Catalog
from gputeam.errors import CatalogError, Problem
from gputeam.i18n import N_

CATALOG_VERSION = "2025.10.1"

#: section name -> key that identifies an entry (None: the section is one mapping).
KEYED = {
    "levels": "number",
    "domains": "id",
    "courses": "id",
    "certifications": "id",
    "paths": "id",
    "roles": "id",
    "templates": "id",
    "strategies": "id",
    "case_studies": "id",
    "contradictions": "id",
    "gpu_models": "id",
    "gpu_vendors": "id",
    "retention_levers": "id",
    "salary_bands": "country",
}
APPENDED = ("transitions", "vendor_tracks", "specialisations")
PATCHED = ("economics", "roi_example", "workload")
SECTIONS = (*KEYED, *APPENDED, *PATCHED)


@cache
def packaged_data() -> dict[str, Any]:
    """The catalog's raw data as shipped (sections of plain lists and mappings)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    root = resources.files("gputeam.catalog") / "data"
    raw: dict[str, Any] = {}
    for name in (
        "levels",
        "domains",
        "courses",
        "certifications",
        "paths",
        "roles",
        "templates",
        "strategies",
        "economics",
    ):
        raw[name] = yaml.load((root / f"{name}.yaml").read_text("utf-8"), Loader=loader)
    raw["gpu_models"] = yaml.load((root / "gpus.yaml").read_text("utf-8"), Loader=loader)
    raw["gpu_vendors"] = yaml.load((root / "vendors.yaml").read_text("utf-8"), Loader=loader)
    raw["workload"] = yaml.load((root / "workload.yaml").read_text("utf-8"), Loader=loader)
    raw["retention_levers"] = yaml.load((root / "retention.yaml").read_text("utf-8"), Loader=loader)
    raw["salary_bands"] = yaml.load((root / "salaries.yaml").read_text("utf-8"), Loader=loader)
    raw.update(yaml.load((root / "landscape.yaml").read_text("utf-8"), Loader=loader))
    return raw


def merge(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """Patch catalog data: keyed entries are added or updated field by field."""
    out = copy.deepcopy(dict(base))
    for section, value in extra.items():
        if section in KEYED and isinstance(value, list):
            key = KEYED[section]
            entries: dict[Any, Any] = {e[key]: e for e in out.get(section, [])}
            for i, item in enumerate(value):
                ident = item.get(key) if isinstance(item, Mapping) else None
                if isinstance(ident, str | int) and ident in entries:
                    entries[ident] = _deep_update(entries[ident], item)
                elif isinstance(ident, str | int):
                    entries[ident] = dict(item)
                else:  # no usable id: keep it so validation reports the entry
                    entries[f"<entry {i} without a valid {key}>"] = item
            out[section] = list(entries.values())
        elif section in APPENDED and isinstance(value, list):
            out[section] = [*out.get(section, []), *value]
        elif section in PATCHED and isinstance(value, Mapping):
            out[section] = _deep_update(out.get(section, {}), value)
        else:
            out[section] = value  # wrong shape or unknown section: validation reports it
    return out


def _deep_update(base: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in patch.items():
        out[k] = _deep_update(out[k], v) if isinstance(v, Mapping) and isinstance(out.get(k), Mapping) else v
    return out


def build(raw: Mapping[str, Any], file: str | None = None) -> Catalog:
    """Validate raw catalog data into a Catalog (pure: no I/O)."""
    data: dict[str, Any] = {"version": raw.get("version", CATALOG_VERSION)}
    for section, value in raw.items():
        if section == "version":
            continue
        if section in KEYED and isinstance(value, list):
            key = KEYED[section]
            data[section] = {}
            for i, e in enumerate(value):
                ident = e.get(key) if isinstance(e, Mapping) else None
                data[section][ident if isinstance(ident, str | int) else f"#{i}"] = e
        else:
            data[section] = value
    try:
        return Catalog.model_validate(data)
    except ValidationError as exc:
        import dataclasses
        import re

        from gputeam._yaml import problems_from_validation

        # levels are keyed by number: show 'levels.6.number', not a list index 'levels[6]'
        raise CatalogError(
            [
                dataclasses.replace(p, path=re.sub(r"^levels\[(\d+)\]", r"levels.\1", p.path))
                for p in problems_from_validation(exc, {}, file)
            ]
        ) from None


@cache
def _default() -> Catalog:
    return build(packaged_data())


def load_catalog(extra: Mapping[str, Any] | None = None, file: str | None = None) -> Catalog:
    """The packaged catalog, patched by ``extra`` (the contents of a --catalog-extra file)."""
    if not extra:
        return _default()
    if not isinstance(extra, Mapping):
        raise CatalogError(
            [
                Problem(
                    path="",
                    message=N_("a catalog file must be a mapping of sections"),
                    file=file,
                    expected=", ".join(SECTIONS),
                )
            ]
        )
    unknown = [s for s in extra if s not in SECTIONS and s != "version"]
    if unknown:
        import difflib

        raise CatalogError(
            [
                Problem(
                    path=s,
                    message=N_("unknown catalog section"),
                    file=file,
                    expected=N_("one of {choices}").format(choices=", ".join(SECTIONS)),
                    hint=(
                        N_("did you mean {name}?").format(name=repr(m[0]))
                        if (m := difflib.get_close_matches(s, SECTIONS, n=1))
                        else None
                    ),
                )
                for s in unknown
            ]
        )
    return build(merge(packaged_data(), extra), file=file)


def parse_catalog_extra(text: str, file: str | None = None) -> dict[str, Any]:
    """The sections of a --catalog-extra file, parsed from its ``text`` (the caller reads
    the file: no I/O here); an empty file is no sections. Raises :class:`CatalogError`
    naming ``file`` for YAML that is not a mapping; :func:`load_catalog` checks the rest."""
    from gputeam._yaml import load_with_lines

    data, _ = load_with_lines(text, file)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise CatalogError(
            [
                Problem(
                    path="",
                    message=N_("expected a mapping of catalog sections"),
                    file=file,
                    found=type(data).__name__,
                )
            ]
        )
    return data
