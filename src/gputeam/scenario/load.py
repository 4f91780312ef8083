"""Read and validate scenario files: errors name file, line, field, value and expectation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gputeam._yaml import line_for, parse_yaml, problems_from_validation
from gputeam.catalog import Catalog, load_catalog
from gputeam.errors import InputError, Problem, ScenarioError
from gputeam.i18n import N_
from gputeam.scenario.models import Scenario, field_names

EXAMPLES = ("finance", "healthcare", "startup", "midsize", "cloud", "rackscale", "hyperscale")
#: A scenario's reference to the catalog that names nothing in it: (message, expected).
_UNKNOWN = {
    "skill domain": (N_("unknown skill domain"), N_("a catalog skill domain id")),
    "certification": (N_("unknown certification"), N_("a catalog certification id")),
    "role": (N_("unknown role"), N_("a catalog role id")),
    "case study": (N_("unknown case study"), N_("a catalog case study id")),
}


def parse_scenario(
    data: Any,
    file: str | None = None,
    lines: Mapping[tuple[str | int, ...], int] | None = None,
    catalog: Catalog | None = None,
) -> Scenario:
    """Validate already-parsed data into a Scenario, checking ids against the catalog."""
    lines = lines or {}
    if not isinstance(data, Mapping):
        raise ScenarioError(
            [
                Problem(
                    path="",
                    message=N_("a scenario must be a mapping"),
                    found=type(data).__name__,
                    expected="organisation, start, fleet, people, ...",
                    file=file,
                    line=1,
                )
            ]
        )
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(problems_from_validation(exc, lines, file, field_names())) from None
    catalog = catalog or catalog_for(scenario, file, lines)
    problems = _check_ids(scenario, catalog, file, lines)
    if problems:
        raise ScenarioError(problems)
    return scenario


def catalog_for(
    scenario: Scenario,
    file: str | None = None,
    lines: Mapping[tuple[str | int, ...], int] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Catalog:
    """The catalog a scenario plans against: packaged, patched by --catalog-extra and by
    the scenario's own ``overrides`` (the scenario wins)."""
    from gputeam.catalog import merge

    combined: dict[str, Any] = dict(extra or {})
    if scenario.overrides:
        combined = merge(combined, scenario.overrides) if combined else dict(scenario.overrides)
    try:
        return load_catalog(combined or None, file=file)
    except InputError as exc:
        raise ScenarioError(
            [
                Problem(
                    path=f"overrides.{p.path}" if p.path else "overrides",
                    message=p.message,
                    found=p.found,
                    expected=p.expected,
                    file=file,
                    hint=p.hint,
                    line=line_for(("overrides", *p.path.split(".")[:1]), lines or {}),
                )
                for p in exc.problems
            ]
        ) from None


def _check_ids(
    scenario: Scenario, catalog: Catalog, file: str | None, lines: Mapping[tuple[str | int, ...], int]
) -> list[Problem]:
    import difflib

    problems = []

    def bad(loc: tuple[str | int, ...], value: str, known: Mapping[str, Any], what: tuple[str, str]) -> None:
        close = difflib.get_close_matches(value, list(known), n=1)
        path = ".".join(f"[{x}]" if isinstance(x, int) else str(x) for x in loc).replace(".[", "[")
        problems.append(
            Problem(
                path=path,
                message=what[0],
                found=repr(value),
                expected=what[1],
                file=file,
                line=line_for(loc, lines),
                hint=N_("did you mean {name}?").format(name=repr(close[0])) if close else None,
            )
        )

    for i, person in enumerate(scenario.people):
        for domain in person.skills:
            if domain not in catalog.domains:
                bad(("people", i, "skills", domain), domain, catalog.domains, _UNKNOWN["skill domain"])
        for j, held in enumerate(person.certifications):
            if held.id not in catalog.certifications:
                bad(
                    ("people", i, "certifications", j, "id"),
                    held.id,
                    catalog.certifications,
                    _UNKNOWN["certification"],
                )
        if person.role is not None and person.role not in catalog.roles:
            bad(("people", i, "role"), person.role, catalog.roles, _UNKNOWN["role"])
    if scenario.case_study is not None and scenario.case_study not in catalog.case_studies:
        bad(("case_study",), scenario.case_study, catalog.case_studies, _UNKNOWN["case study"])
    return problems


def load_scenario_text(text: str, file: str | None = None, catalog: Catalog | None = None) -> Scenario:
    return load_with_catalog(text, file, catalog=catalog)[0]


def load_with_catalog(
    text: str,
    file: str | None = None,
    *,
    catalog: Catalog | None = None,
    extra: Mapping[str, Any] | None = None,
    sets: Sequence[str] = (),
) -> tuple[Scenario, Catalog]:
    """Parse and validate a scenario's text; with it the catalog it plans against: ``catalog``
    if given, else the packaged one patched by ``extra`` (a --catalog-extra file's contents)
    and by the scenario's own ``overrides``. ``sets`` are field overrides (``PATH=VALUE``,
    :mod:`gputeam.scenario.overrides`) applied before validation; a problem with an
    overridden value names its ``--set``."""
    from gputeam.scenario.overrides import apply_sets, blame_sets, parse_set

    parsed = [parse_set(s) for s in sets]

    def build(data: Any, lines: Mapping[tuple[str | int, ...], int]) -> tuple[Scenario, Catalog]:
        if not parsed:
            return validate(data, lines)
        if not isinstance(data, Mapping):
            parse_scenario(data, file, lines)  # raises the 'must be a mapping' problem
        data, resolved = apply_sets(data, parsed)
        try:
            return validate(data, lines)
        except ScenarioError as exc:
            raise ScenarioError(blame_sets(exc.problems, resolved)) from None

    def validate(data: Any, lines: Mapping[tuple[str | int, ...], int]) -> tuple[Scenario, Catalog]:
        try:
            if catalog is not None:
                return parse_scenario(data, file, lines, catalog), catalog
            if not isinstance(data, Mapping):
                parse_scenario(data, file, lines)  # raises the 'must be a mapping' problem
            try:
                scenario = Scenario.model_validate(data)
            except ValidationError:
                return parse_scenario(data, file, lines), load_catalog()  # raises, with lines
            cat = catalog_for(scenario, file, lines, extra)
            problems = _check_ids(scenario, cat, file, lines)
            if problems:
                raise ScenarioError(problems)
            return scenario, cat
        except InputError as exc:
            if isinstance(exc, ScenarioError):
                raise
            raise ScenarioError(exc.problems) from None

    return parse_yaml(text, file, build)


def load_scenario(path: str | Path, catalog: Catalog | None = None) -> Scenario:
    """Read a scenario from a YAML or JSON file."""
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except FileNotFoundError:
        raise ScenarioError([Problem(path="", message=N_("file not found"), file=str(p))]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(
            [Problem(path="", message=N_("cannot read: {reason}").format(reason=exc), file=str(p))]
        ) from None
    return load_scenario_text(text, str(p), catalog)


def example_text(name: str) -> str:
    if name not in EXAMPLES:
        raise ScenarioError(
            [
                Problem(
                    path="",
                    message=N_("no bundled example {name}").format(name=repr(name)),
                    expected=", ".join(EXAMPLES),
                )
            ]
        )
    return (resources.files("gputeam.scenario") / "examples" / f"{name}.yaml").read_text("utf-8")


def load_example(name: str, catalog: Catalog | None = None) -> Scenario:
    return load_scenario_text(example_text(name), f"<example {name}>", catalog)
