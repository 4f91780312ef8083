"""Maintaining the message catalogs: extract (``.pot``), update (``.po``), check.

Used by ``tools/i18n.py`` (contributors) and by the completeness tests. The files whose texts
are extracted are listed in ONE place, ``babel.cfg`` at the repository's root; the catalog's
own texts (level, role, domain, strategy and template names, strategy descriptions) come from
its YAML files through :func:`extract_catalog_data`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from gputeam.i18n import DOMAIN, LANGUAGES

__all__ = [
    "KEYWORDS",
    "Problem",
    "check",
    "extract",
    "extract_catalog_data",
    "po_path",
    "pot_path",
    "read",
    "update",
    "write",
]

PACKAGE = Path(__file__).resolve().parent
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "Nn_": (1, 2)}
#: The catalog's YAML fields whose values are shown to users, per file.
CATALOG_FIELDS = {
    "levels.yaml": ("name",),
    "roles.yaml": ("name",),
    "domains.yaml": ("name", "description"),
    "strategies.yaml": ("name", "description"),
    "templates.yaml": ("name",),
}
#: The same for lists inside a YAML mapping: file to {list key (dotted: a list inside each
#: item of a list): fields}. Values without a letter (a bare figure) are not extracted.
CATALOG_NESTED = {
    "landscape.yaml": {
        "contradictions": ("title", "detail"),
        "case_studies": ("name",),
        "case_studies.measures": ("label", "stated", "why"),
    },
}
_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:[:!][^{}]*)?\}|%\([A-Za-z_]+\)[sdif]|%[sd]")


def pot_path() -> Path:
    return PACKAGE / "locale" / f"{DOMAIN}.pot"


def po_path(language: str) -> Path:
    return PACKAGE / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract_catalog_data(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extractor for the catalog's YAML: the fields of :data:`CATALOG_FIELDS`."""
    import yaml

    name = Path(getattr(fileobj, "name", "")).name
    fields = CATALOG_FIELDS.get(name, ())
    data = yaml.safe_load(fileobj.read().decode("utf-8"))
    groups = [(data if isinstance(data, list) else [], fields, "")]
    if isinstance(data, dict):
        for key, nested in CATALOG_NESTED.get(name, {}).items():
            outer, _dot, inner = key.partition(".")
            items = data.get(outer) or []
            if inner:
                items = [x for item in items if isinstance(item, dict) for x in item.get(inner) or []]
            groups.append((items, nested, f"{key}."))
    for items, wanted, prefix in groups:
        for item in items:
            if isinstance(item, dict):
                for field in wanted:
                    value = item.get(field)
                    if isinstance(value, str) and re.search(r"[^\W\d_]", value):
                        yield 0, "_", value, [f"catalog {name}: {prefix}{field}"]


def extract(root: Path) -> Any:
    """A fresh template catalog of the files ``root/babel.cfg`` names."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with (root / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    methods: dict[str, Any] = {"catalog": extract_catalog_data}
    try:
        from jinja2.ext import babel_extract

        methods["jinja2"] = babel_extract
    except ImportError:  # pragma: no cover - Jinja2 is a dependency
        pass
    method_map = [(pattern, methods.get(method, method)) for pattern, method in method_map]
    catalog = Catalog(
        project="gputeam",
        domain=DOMAIN,
        charset="utf-8",
        fuzzy=False,
        copyright_holder="gputeam developers",
        version="0.1",
        msgid_bugs_address="https://github.com/gputeam/gputeam/issues",
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        str(root), method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def read(path: Path, locale: str | None = None) -> Any:
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=locale, domain=DOMAIN)


def write(catalog: Any, path: Path) -> None:
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, omit_header=False, sort_output=True, include_lineno=False)


def update(root: Path) -> list[str]:
    """Re-extract the ``.pot`` and merge it into each language's ``.po`` (new messages
    untranslated, removed ones dropped); returns what changed, for the contributor."""
    template = extract(root)
    write(template, pot_path())
    report = [f"{pot_path().relative_to(root)}: {len(template)} messages"]
    for language in LANGUAGES[1:]:
        path = po_path(language)
        if path.exists():
            catalog = read(path, language)
        else:
            from babel.messages.catalog import Catalog

            catalog = Catalog(locale=language, domain=DOMAIN, project="gputeam", fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        write(catalog, path)
        missing = sum(1 for m in catalog if m.id and not _complete(m))
        report.append(f"{path.relative_to(root)}: {missing} to translate")
    return report


def _complete(message: Any) -> bool:
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return all(strings)


def placeholders(text: str) -> list[str]:
    return sorted(_PLACEHOLDER.findall(text))


@dataclass(frozen=True)
class Problem:
    language: str
    msgid: str
    what: str

    def __str__(self) -> str:
        return f"{self.language}: {self.msgid!r}: {self.what}"


def check(language: str, catalog: Any | None = None) -> list[Problem]:
    """Everything wrong with ``language``'s catalog: untranslated or fuzzy messages, missing
    plural forms (as many as the language's Plural-Forms says), placeholders that differ from
    the source's, markup that differs."""
    from babel.messages.catalog import Catalog

    cat: Catalog = catalog if catalog is not None else read(po_path(language), language)
    problems: list[Problem] = []
    nplurals = cat.num_plurals
    for m in cat:
        if not m.id:
            continue
        msgid = m.id[0] if isinstance(m.id, tuple | list) else m.id
        if m.fuzzy:
            problems.append(Problem(language, msgid, "fuzzy"))
        if isinstance(m.id, tuple | list):
            forms = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
            if len(forms) != nplurals or not all(forms):
                problems.append(Problem(language, msgid, f"needs {nplurals} plural form(s)"))
            expected = set(placeholders(m.id[1]))
            for form in forms:
                if form and set(placeholders(form)) != expected:
                    problems.append(Problem(language, msgid, f"placeholders differ in {form!r}"))
            continue
        if not isinstance(m.string, str) or not m.string:
            problems.append(Problem(language, msgid, "untranslated"))
            continue
        if placeholders(m.string) != placeholders(msgid):
            problems.append(Problem(language, msgid, f"placeholders differ: {m.string!r}"))
        if sorted(re.findall(r"</?[a-z]+>", m.string)) != sorted(re.findall(r"</?[a-z]+>", msgid)):
            problems.append(Problem(language, msgid, f"markup differs: {m.string!r}"))
    return problems
