"""`gputeam compare` and `gputeam sweep`: several plans at once.

Each plan is one *point*: a scenario text with field overrides (``--set`` style), planned and
reduced to its headline figures (:func:`gputeam.report.compare.figures`). Points run in
parallel processes when there are more than :data:`PARALLEL_FROM` of them and more than one
process is allowed, one after the other otherwise. A point whose scenario is invalid, or whose
plan fails, is reported with its values; the others still run.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer

from gputeam.i18n import gettext as _
from gputeam.i18n import ngettext

PARALLEL_FROM = 4
"""Points above this count run in parallel processes (when more than one is allowed)."""


def register(app: typer.Typer) -> None:
    from gputeam.cli.main import friendly

    app.command("compare", help=_("Plans side by side, with the differences against the first explained."))(
        friendly(compare_cmd)
    )
    app.command("sweep", help=_("A grid of plans over one or more varied fields, with a chart in HTML."))(
        friendly(sweep_cmd)
    )


@dataclass(frozen=True)
class Point:
    """One plan to compute: a scenario's text with overrides."""

    text: str
    file: str
    extra: dict[str, Any] | None
    sets: tuple[str, ...]
    today: date
    runs: int
    seed: int
    method: str


@dataclass(frozen=True)
class Outcome:
    figures: Any = None  # PlanFigures
    problems: tuple[Any, ...] = ()  # gputeam.errors.Problem
    pid: int = 0  # the process that planned it


def plan_point(point: Point) -> Outcome:
    """Plan one point; an input error, or a failure of the planner, becomes its problems."""
    import os

    from gputeam.errors import InputError, Problem
    from gputeam.planning import plan
    from gputeam.report.compare import figures
    from gputeam.scenario.load import load_with_catalog

    try:
        scenario, catalog = load_with_catalog(point.text, point.file, extra=point.extra, sets=point.sets)
        result = plan(scenario, catalog, point.today, method=point.method, seed=point.seed, runs=point.runs)
    except InputError as exc:
        return Outcome(problems=exc.problems, pid=os.getpid())
    except Exception as exc:  # a planner failure in one point must not lose the others
        failed = Problem(
            path="",
            message=_("planning failed: {error}").format(error=f"{type(exc).__name__}: {exc}"),
            file=point.file,
        )
        return Outcome(problems=(failed,), pid=os.getpid())
    return Outcome(figures=figures(result), pid=os.getpid())


def run_points(points: list[Point], jobs: int) -> list[Outcome]:
    """Every point's outcome, in order; in ``jobs`` processes (0: one per CPU) when there
    are more than :data:`PARALLEL_FROM` points."""
    import os

    workers = min(jobs or (os.cpu_count() or 1), len(points))
    if workers <= 1 or len(points) <= PARALLEL_FROM:
        return [plan_point(p) for p in points]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # Workers fork from a fresh server process, never from this one: a process that has
    # already solved (the solver keeps threads) must not be forked.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["gputeam.planning", "gputeam.scenario.load", "gputeam.report.compare"])
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return list(pool.map(plan_point, points, chunksize=1))


def _bad(path: str, message: str, found: str | None = None, expected: str | None = None) -> Any:
    from gputeam.cli.plan_cmds import _bad as bad

    return bad(path, message, found, expected)


def _read(file: Path) -> str:
    from gputeam.cli.common import read_input_text

    try:
        return read_input_text(file)[0]
    except FileNotFoundError:
        raise _bad("FILE", _("file not found"), found=str(file)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _bad("FILE", _("cannot read: {error}").format(error=exc), found=str(file)) from None


def _extra(catalog_extra: Path | None) -> dict[str, Any] | None:
    from gputeam.cli.common import load_catalog_file, read_catalog_extra

    extra = read_catalog_extra(catalog_extra)
    if extra:
        load_catalog_file(catalog_extra)  # its own problems name it
    return extra or None


def _check_sets(sets: list[str]) -> None:
    from gputeam.scenario.overrides import parse_set

    for s in sets:
        parse_set(s)  # a malformed --set is refused before any plan runs


def _emit(data: bytes, out: Path | None, fmt: str) -> None:
    from gputeam.cli.common import STDIO, err_console
    from gputeam.cli.plan_cmds import _write_atomic

    if out is None or str(out) == STDIO:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    _write_atomic(out, data)
    from gputeam.report.tables import format_value

    err_console().print(
        _("wrote {path} ({format}, {size} bytes)").format(
            path=out, format=fmt, size=format_value(len(data), "int")
        ),
        style="green",
        highlight=False,
    )


def _format(fmt: str | None, out: Path | None, allowed: tuple[str, ...]) -> str:
    if fmt is None:
        suffix = out.suffix.lstrip(".").lower() if out else ""
        fmt = (
            {"htm": "html", "markdown": "md"}.get(suffix, suffix)
            if suffix in (*allowed, "htm", "markdown")
            else "table"
        )
    if fmt not in allowed:
        raise _bad("--format", _("unknown format"), found=repr(fmt), expected=", ".join(allowed))
    if fmt == "table" and out is not None and str(out) != "-":
        raise _bad(
            "--out",
            _("the table format prints to the terminal"),
            expected=f"--format {' or '.join(a for a in allowed if a != 'table')} with --out",
        )
    return fmt


def _today(text: str | None) -> date:
    from gputeam.cli.plan_cmds import _date

    return _date(text)


def _names(files: list[Path]) -> list[str]:
    names: list[str] = []
    for f in files:
        name = f.stem or str(f)
        names.append(name if name not in names else f"{name} ({len(names) + 1})")
    return names


# ---------------------------------------------------------------- compare
def compare_cmd(
    files: Annotated[list[Path], typer.Argument(help=_("Two or more scenario files."))],
    format: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            metavar="table|md|html|json",
            help=_("table, md, html or json (default: from --out, else table)."),
        ),
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help=_("Write the comparison here."))] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help=_("Override a field in every scenario: PATH=VALUE (repeatable).")),
    ] = None,
    catalog_extra: Annotated[Path | None, typer.Option(help=_("Catalog additions/overrides (YAML)."))] = None,
    today: Annotated[str | None, typer.Option(help=_("Plan as of this date (YYYY-MM-DD)."))] = None,
    method: Annotated[str, typer.Option(metavar="mip|rule", help=_("Sourcing: mip or rule."))] = "mip",
    runs: Annotated[
        int, typer.Option(min=0, max=1_000_000, help=_("Monte Carlo runs per plan (0: no P(ready))."))
    ] = 500,
    seed: Annotated[int, typer.Option(help=_("Random seed of the risk simulation."))] = 0,
    jobs: Annotated[int, typer.Option(min=0, help=_("Processes to plan in (0: one per CPU)."))] = 0,
) -> None:
    """Plans side by side, with the differences against the first explained."""
    import json

    from gputeam.report.compare import compare_json, render_html, render_md

    if len(files) < 2:
        raise _bad("FILES", _("give two or more scenario files to compare"), found=str(len(files)))
    fmt = _format(format, out, ("table", "md", "html", "json"))
    if method not in ("mip", "rule", "greedy"):
        raise _bad("--method", _("unknown sourcing method"), found=repr(method), expected="mip or rule")
    sets = list(set_ or [])
    _check_sets(sets)
    when, extra = _today(today), _extra(catalog_extra)
    points = [Point(_read(f), str(f), extra, tuple(sets), when, runs, seed, method) for f in files]
    outcomes = run_points(points, jobs)
    failed = [p for o in outcomes if o.figures is None for p in o.problems]
    if failed:
        from gputeam.errors import ScenarioError

        raise ScenarioError(failed)
    names, figs = _names(files), [o.figures for o in outcomes]
    if fmt == "table":
        from gputeam.cli.common import out_console

        _print_compare(names, figs, out_console())
    elif fmt == "json":
        _emit((json.dumps(compare_json(names, figs), indent=2) + "\n").encode(), out, fmt)
    else:
        _emit(render_md(names, figs) if fmt == "md" else render_html(names, figs), out, fmt)


def _print_compare(names: list[str], figs: list[Any], console: Any) -> None:
    from rich.table import Table

    from gputeam.report.compare import compare_sections
    from gputeam.report.tables import format_value

    (section,) = compare_sections(names, figs)
    (table,) = section.tables
    t = Table(title=section.title)
    for i, col in enumerate(table.columns):
        t.add_column(col.title, justify="left" if i == 0 else "right", overflow="fold")
    for row in table.rows:  # money cells carry their own plan's currency
        t.add_row(*(format_value(v, c.kind) for v, c in zip(row, table.columns, strict=True)))
    console.print(t)
    for note in section.notes:
        console.print(f"- {note}", markup=False, highlight=False, soft_wrap=True)


# ---------------------------------------------------------------- sweep
def sweep_cmd(
    file: Annotated[Path, typer.Argument(help=_("Scenario file."))],
    vary: Annotated[
        list[str],
        typer.Option(
            help=_("PATH=A..B:N (N values from A to B) or PATH=V1,V2,... (repeatable: every combination).")
        ),
    ],
    format: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            metavar="table|json|csv|html",
            help=_("table, json, csv or html (default: from --out, else table)."),
        ),
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help=_("Write the grid here."))] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help=_("Override a field at every point: PATH=VALUE (repeatable).")),
    ] = None,
    catalog_extra: Annotated[Path | None, typer.Option(help=_("Catalog additions/overrides (YAML)."))] = None,
    today: Annotated[str | None, typer.Option(help=_("Plan as of this date (YYYY-MM-DD)."))] = None,
    method: Annotated[str, typer.Option(metavar="mip|rule", help=_("Sourcing: mip or rule."))] = "mip",
    runs: Annotated[
        int, typer.Option(min=0, max=1_000_000, help=_("Monte Carlo runs per point (0: no P(ready))."))
    ] = 200,
    seed: Annotated[int, typer.Option(help=_("Random seed of the risk simulation."))] = 0,
    jobs: Annotated[int, typer.Option(min=0, help=_("Processes to plan in (0: one per CPU)."))] = 0,
) -> None:
    """A grid of plans over one or more varied fields, with a chart in HTML."""
    from gputeam.report.sweep import MAX_POINTS, SweepRow, render_csv, render_html, render_json
    from gputeam.scenario.overrides import grid, parse_vary

    fmt = _format(format, out, ("table", "json", "csv", "html"))
    if method not in ("mip", "rule", "greedy"):
        raise _bad("--method", _("unknown sourcing method"), found=repr(method), expected="mip or rule")
    sets = list(set_ or [])
    _check_sets(sets)
    axes = [parse_vary(v) for v in vary]
    combos = grid(axes, MAX_POINTS)
    text, when, extra = _read(file), _today(today), _extra(catalog_extra)
    points = [
        Point(
            text,
            str(file),
            extra,
            (*sets, *(f"{a.path}={v}" for a, v in zip(axes, combo, strict=True))),
            when,
            runs,
            seed,
            method,
        )
        for combo in combos
    ]
    outcomes = run_points(points, jobs)
    rows = [
        SweepRow(tuple(combo), o.figures, tuple(str(p) for p in o.problems))
        for combo, o in zip(combos, outcomes, strict=True)
    ]
    names = [a.path for a in axes]
    if fmt == "table":
        from gputeam.cli.common import out_console
        from gputeam.report.sweep import print_sweep

        print_sweep(names, rows, out_console())
    else:
        render = {"json": render_json, "csv": render_csv, "html": render_html}[fmt]
        _emit(render(names, rows), out, fmt)
    if any(r.problems for r in rows):
        from gputeam.cli.common import err_console

        err = err_console()
        bad = [r for r in rows if r.problems]
        err.print(
            "[bold yellow]"
            + ngettext(
                "{bad} of {total} point could not be planned",
                "{bad} of {total} points could not be planned",
                len(rows),
            ).format(bad=len(bad), total=len(rows))
            + "[/]"
        )
        for r in bad:
            where = ", ".join(f"{n}={v}" for n, v in zip(names, r.values, strict=True))
            for p in r.problems:
                err.print(f"  {where}: {p}", markup=False, highlight=False, soft_wrap=True)
        if len(bad) == len(rows):
            raise typer.Exit(2)
