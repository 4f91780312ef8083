"""The docs are tested like code (STYLE.md item 9, after datasette's and sqlite-utils'
tests/test_docs.py): a command, an option, a scenario field or a catalog entry without
documentation fails the build, and so do stale generated references."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import typing
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import typer.main
import yaml
from pydantic import BaseModel

from gputeam.catalog import Catalog, load_catalog
from gputeam.catalog.models import Entry
from gputeam.cli.main import app
from gputeam.scenario import Scenario

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
COMMANDS_MD = (DOCS / "commands.md").read_text("utf-8")
SCENARIO_MD = (DOCS / "scenario.md").read_text("utf-8")
CATALOG_MD = (DOCS / "catalog.md").read_text("utf-8")


# --- the command tree -------------------------------------------------------------------


def _walk(cmd: Any, path: tuple[str, ...]) -> typing.Iterator[tuple[tuple[str, ...], Any]]:
    yield path, cmd
    for name, sub in sorted(getattr(cmd, "commands", {}).items()):
        if not getattr(sub, "hidden", False):
            yield from _walk(sub, (*path, name))


ROOT_COMMAND = typer.main.get_command(app)
COMMANDS = {path: cmd for path, cmd in _walk(ROOT_COMMAND, ()) if path}


def _heading(path: tuple[str, ...]) -> re.Match[str] | None:
    return re.search(r"^(#+) gputeam " + re.escape(" ".join(path)) + r"\s*$", COMMANDS_MD, re.M)


def _section(path: tuple[str, ...]) -> str:
    """The text under a command's heading, up to the next heading of the same or a higher
    level (so a group's section includes its sub-commands' sections)."""
    m = _heading(path)
    assert m is not None
    level = len(m.group(1))
    nxt = re.compile("^#{1," + str(level) + "} ", re.M).search(COMMANDS_MD, m.end())
    return COMMANDS_MD[m.end() : nxt.start() if nxt else len(COMMANDS_MD)]


def _intro(path: tuple[str, ...]) -> str:
    """A group's own text, before its first sub-heading (options shared by sub-commands)."""
    text = _section(path)
    return re.split(r"^#+ ", text, maxsplit=1, flags=re.M)[0]


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=" ".join)
def test_every_command_has_a_heading(path: tuple[str, ...]) -> None:
    assert _heading(path), f"docs/commands.md has no heading '## gputeam {' '.join(path)}'"


OPTIONS = sorted(
    (path, param.opts[0] if param.param_type_name == "option" else param.name.upper())
    for path, cmd in COMMANDS.items()
    for param in cmd.params
    if param.param_type_name in ("option", "argument") and param.name != "help"
)


@pytest.mark.parametrize(("path", "option"), OPTIONS, ids=[" ".join(p) + " " + o for p, o in OPTIONS])
def test_every_option_and_argument_is_documented(path: tuple[str, ...], option: str) -> None:
    """Each option and argument appears in its command's section, or in its group's own
    text when the group documents options shared by all its sub-commands."""
    if not _heading(path):
        pytest.fail(f"gputeam {' '.join(path)} has no section")
    texts = [_section(path)] + ([_intro(path[:-1])] if len(path) > 1 else [])
    pattern = re.compile(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])")
    assert any(pattern.search(t) for t in texts), (
        f"{option} of gputeam {' '.join(path)} is not in docs/commands.md"
    )


def test_every_command_has_an_example() -> None:
    """Each leaf command's section has a shell example that runs it."""
    missing = []
    for path, cmd in COMMANDS.items():
        if getattr(cmd, "commands", None):
            continue
        blocks = re.findall(r"```sh\n(.*?)```", _section(path), re.S)
        if not any(f"gputeam {' '.join(path)}" in b for b in blocks):
            missing.append(" ".join(path))
    assert not missing, f"no ```sh example for: {', '.join(missing)}"


def test_every_plan_format_and_catalog_section_is_documented() -> None:
    from gputeam.cli.plan_cmds import FORMATS

    plan_text = _section(("plan",))
    assert [f for f in FORMATS if f"`{f}`" not in plan_text] == []
    show = COMMANDS[("catalog", "show")]
    (section_arg,) = [p for p in show.params if p.name == "section"]
    sections = section_arg.help.split(":", 1)[1].replace(" ", "").split(",")
    assert len(sections) >= 8
    show_text = _section(("catalog", "show"))
    assert [s for s in sections if f"`{s}`" not in show_text] == []


def _example_command_lines() -> list[str]:
    """`gputeam ...` lines of the shell examples in docs/commands.md and README.md."""
    lines = []
    readme = (ROOT / "README.md").read_text("utf-8")
    for block in re.findall(r"```sh\n(.*?)```", COMMANDS_MD + readme, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            if "gputeam " not in line:
                continue
            line = line[line.index("gputeam ") :]
            line = re.split(r"\s+(?:\||>|#)\s", line)[0]
            lines.append(line.strip())
    return lines


@pytest.mark.parametrize("line", _example_command_lines())
def test_command_examples_parse(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every example in docs/commands.md and the README names real commands and options
    with valid values
    (parsed by the real command, not run; the files it names exist, empty, in a temp dir)."""
    args = shlex.split(line)[1:]
    monkeypatch.chdir(tmp_path)
    for arg in args:
        if re.fullmatch(r"[\w.-]+\.(xlsx|csv|yaml|yml|json|zip|html|db)", arg):
            (tmp_path / arg).touch()
    cmd: Any = ROOT_COMMAND
    ctx_parent = None
    info_name = "gputeam"
    while getattr(cmd, "commands", None) and args and args[0] in cmd.commands:
        info_name = args[0]
        cmd = cmd.commands[args.pop(0)]
    assert not getattr(cmd, "commands", None), f"{line!r} does not name a command"
    ctx = cmd.make_context(info_name, list(args), parent=ctx_parent)
    assert ctx.command is cmd


# --- scenario fields --------------------------------------------------------------------


def _model_in(annotation: Any) -> tuple[type[BaseModel] | None, bool]:
    for arg in (annotation, *typing.get_args(annotation)):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg, arg is not annotation
    return None, False


def scenario_paths(model: type[BaseModel] = Scenario, prefix: str = "") -> list[str]:
    out = []
    for name, field in model.model_fields.items():
        path = f"{prefix}.{name}" if prefix else name
        out.append(path)
        nested, many = _model_in(field.annotation)
        if nested is not None:
            out += scenario_paths(nested, path + ("[]" if many else ""))
    return out


SCENARIO_PATHS = scenario_paths()


def test_scenario_walk_finds_nested_fields() -> None:
    assert {
        "fleet.gpus[].month",
        "people[].certifications[].earned",
        "constraints.contractors.max_share",
        "retention.premium_pay",
    } <= set(SCENARIO_PATHS)


@pytest.mark.parametrize("path", SCENARIO_PATHS)
def test_every_scenario_field_is_documented(path: str) -> None:
    assert f"`{path}`" in SCENARIO_MD, f"docs/scenario.md does not document `{path}`"


def test_every_scenario_field_has_a_description() -> None:
    """Leaf fields carry a description in the model (the docs and JSON Schema use it)."""

    def walk(model: type[BaseModel], prefix: str) -> list[str]:
        missing = []
        for name, field in model.model_fields.items():
            nested, many = _model_in(field.annotation)
            if nested is not None:
                missing += walk(nested, f"{prefix}{name}{'[]' if many else ''}.")
            elif not field.description:
                missing.append(prefix + name)
        return missing

    assert walk(Scenario, "") == []


def _yaml_block(text: str) -> str:
    m = re.search(r"```yaml\n(.*?)```", text, re.S)
    assert m, "no ```yaml block"
    return m.group(1)


def test_scenario_doc_error_example_is_real() -> None:
    """The error output shown in docs/scenario.md is what gputeam says for the annotated
    example with those two mistakes."""
    from gputeam.errors import ScenarioError
    from gputeam.scenario import load_scenario_text

    bad = (
        _yaml_block(SCENARIO_MD)
        .replace("horizon_months:", "horizon_month:")
        .replace("infiniband: 1}", "infiniband: 7}")
    )
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(bad, "lab.yaml")
    shown = re.search(r"```text\n(.*?)```", SCENARIO_MD, re.S)
    assert shown is not None
    lines = [ln.strip() for ln in shown.group(1).splitlines()]
    assert lines[0] == f"error: {info.value.headline}"
    assert sorted(str(p) for p in info.value.problems) == sorted(lines[1:])


def test_scenario_doc_example_plans() -> None:
    """The annotated example in docs/scenario.md is a valid scenario that plans."""
    from gputeam.planning import plan
    from gputeam.scenario import load_scenario_text

    scenario = load_scenario_text(_yaml_block(SCENARIO_MD), "docs/scenario.md")
    result = plan(scenario, load_catalog(scenario.overrides or None), date(2026, 12, 2))
    assert result.scenario == scenario
    assert load_catalog(scenario.overrides).economics.contractor_rate_usd_h == 250


# --- catalog ----------------------------------------------------------------------------


def catalog_entries(cat: Catalog) -> list[tuple[str, Entry]]:
    out: list[tuple[str, Entry]] = []
    for section in Catalog.model_fields:
        value = getattr(cat, section)
        if isinstance(value, Entry):
            out.append((section, value))
        elif isinstance(value, dict):
            out += [(f"{section}.{k}", v) for k, v in value.items() if isinstance(v, Entry)]
        elif isinstance(value, tuple):
            out += [(f"{section}[{i}]", v) for i, v in enumerate(value) if isinstance(v, Entry)]
    return out


ENTRIES = catalog_entries(load_catalog())


def test_catalog_walk_covers_every_section() -> None:
    sections = {name.split(".")[0].split("[")[0] for name, _ in ENTRIES}
    assert sections == set(Catalog.model_fields) - {"version"}
    assert len(ENTRIES) > 70


@pytest.mark.parametrize(("name", "entry"), ENTRIES, ids=[n for n, _ in ENTRIES])
def test_every_catalog_entry_has_source_and_as_of(name: str, entry: Entry) -> None:
    assert entry.source.strip(), f"{name} has an empty source"
    assert isinstance(entry.as_of, date), f"{name} has no as_of date"


def test_every_catalog_entry_is_in_the_catalog_docs() -> None:
    cat = load_catalog()
    ids = [
        *cat.domains,
        *cat.courses,
        *cat.certifications,
        *cat.paths,
        *cat.roles,
        *cat.templates,
        *cat.strategies,
        *cat.case_studies,
        *cat.contradictions,
        *(s.id for s in cat.specialisations),
        *(lv.name for lv in cat.levels.values()),
        *(v.vendor for v in cat.vendor_tracks),
    ]
    missing = [i for i in ids if f"| {i} |" not in CATALOG_MD]
    assert not missing, f"not in docs/catalog.md: {missing}"
    economics = [f for f in type(cat.economics).model_fields if f not in ("source", "as_of")]
    assert [f for f in economics if f"`{f}`" not in CATALOG_MD] == []


def test_catalog_doc_example_is_a_valid_extra(tmp_path: Path) -> None:
    """The --catalog-extra example in docs/catalog.md passes `catalog check` and does
    what the text says."""
    from typer.testing import CliRunner

    extra = tmp_path / "my-catalog.yaml"
    extra.write_text(_yaml_block(CATALOG_MD), "utf-8")
    result = CliRunner().invoke(app, ["catalog", "check", str(extra)])
    assert result.exit_code == 0, result.output
    cat = load_catalog(yaml.safe_load(extra.read_text("utf-8")), file=str(extra))
    assert cat.economics.contractor_rate_usd_h == 220
    assert cat.certifications["ncp-aii"].exam.price_usd == 450
    assert cat.certifications["ncp-aii"].exam.minutes == 120  # untouched fields survive
    assert cat.certifications["acme-gpu-ops"].prerequisites == ("nca-aiio",)


def test_generated_docs_are_up_to_date(tmp_path: Path) -> None:
    """tools/gen_docs.py regenerates docs/scenario.md and docs/catalog.md unchanged
    (run `python tools/gen_docs.py` after changing the models or the catalog data)."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_docs.py"), "--out-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    for name in ("scenario.md", "catalog.md"):
        fresh = (tmp_path / name).read_text("utf-8")
        assert fresh == (DOCS / name).read_text("utf-8"), (
            f"docs/{name} is stale: run python tools/gen_docs.py"
        )


def test_gen_docs_check_flags_a_stale_file(tmp_path: Path) -> None:
    for name in ("scenario.md", "catalog.md"):
        (tmp_path / name).write_text((DOCS / name).read_text("utf-8"), "utf-8")
    cmd = [sys.executable, str(ROOT / "tools" / "gen_docs.py"), "--check", "--docs-dir", str(tmp_path)]
    assert subprocess.run(cmd, capture_output=True, timeout=60).returncode == 0
    stale = (tmp_path / "catalog.md").read_text("utf-8").replace("| nca-aiio |", "| nca-aiio-x |")
    (tmp_path / "catalog.md").write_text(stale, "utf-8")
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "catalog.md" in proc.stderr


def test_user_guide_links_resolve() -> None:
    """Relative links between the docs point to files that exist."""
    for page in DOCS.glob("*.md"):
        for target in re.findall(r"\]\(([^)#:]+\.md)(?:#[^)]*)?\)", page.read_text("utf-8")):
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"
