"""`gputeam plan`, `roi`, `example`, `schema`."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer

from gputeam.cli.main import LangOption, friendly
from gputeam.i18n import gettext as _

FORMATS = ("table", "json", "md", "html", "xlsx", "ics", "pdf")


def register(app: typer.Typer) -> None:
    app.command("plan", help=_("Plan the team: target, gaps, sourcing, roadmaps, costs, ROI, risk."))(
        friendly(plan_cmd)
    )
    app.command("roi", help=_("Return on the training investment: net ROI, benefit-cost ratio, payback."))(
        friendly(roi_cmd)
    )
    app.command("example", help=_("Write a bundled example scenario to start from."))(friendly(example_cmd))
    app.command("schema", help=_("Print the JSON Schema of the plan output or of scenario files."))(
        friendly(schema_cmd)
    )


def _bad(path: str, message: str, found: str | None = None, expected: str | None = None) -> Any:
    from gputeam.errors import InputError, Problem

    return InputError([Problem(path=path, message=message, found=found, expected=expected)])


def load_input(
    file: Path | None, example: str | None, catalog_extra: Path | None, sets: list[str] | None = None
) -> Any:
    """(scenario, catalog) from a file or a bundled example, with --catalog-extra and the
    --set field overrides applied."""
    from gputeam.cli.common import load_catalog_file, read_catalog_extra
    from gputeam.scenario import example_text
    from gputeam.scenario.load import load_with_catalog

    if (file is None) == (example is None):
        raise _bad(
            "FILE",
            _("give a scenario file or --example NAME (one of them)"),
            expected=_("one of {choices} for --example").format(
                choices="finance, healthcare, startup, midsize"
            ),
        )
    if example is not None:
        text, name = example_text(example), f"<example {example}>"
    else:
        assert file is not None
        from gputeam.cli.common import read_input_text

        try:
            text, name = read_input_text(file)
        except FileNotFoundError:
            raise _bad("FILE", _("file not found"), found=str(file)) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise _bad("FILE", _("cannot read: {error}").format(error=exc), found=str(file)) from None
    extra = read_catalog_extra(catalog_extra)
    if extra:  # checked alone first, so that its problems name it, not the scenario's overrides
        load_catalog_file(catalog_extra)
    return load_with_catalog(text, name, extra=extra, sets=sets or ())


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (a temporary file renamed into place),
    with the permissions a new file would get under the user's umask."""
    import os
    import tempfile

    target = path.expanduser()
    if target.is_dir():
        raise _bad("--out", _("is a directory"), found=str(path), expected=_("a file path"))
    parent = target.parent.resolve() if str(target.parent) else Path.cwd()
    if not parent.is_dir():
        raise _bad(
            "--out",
            _("its directory does not exist"),
            found=str(path.parent),
            expected=_("an existing directory"),
        )
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=parent)
    except OSError as exc:
        raise _bad(
            "--out", _("cannot write there: {error}").format(error=exc.strerror), found=str(path)
        ) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, parent / target.name)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise _bad("--out", _("cannot write: {error}").format(error=exc.strerror), found=str(path)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def plan_cmd(
    file: Annotated[
        Path | None, typer.Argument(help=_("Scenario YAML/JSON file ('-' reads standard input)."))
    ] = None,
    example: Annotated[
        str | None,
        typer.Option(
            metavar="NAME",
            help=_("Bundled example: finance, healthcare, startup, midsize, cloud, rackscale, hyperscale."),
        ),
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option(metavar="template|lean", help=_("template or lean (overrides the scenario).")),
    ] = None,
    format: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            metavar="|".join(FORMATS),
            help=_("table, json, md, html, xlsx, ics or pdf (default: from --out, else table)."),
        ),
    ] = None,
    paper: Annotated[
        str | None,
        typer.Option(
            metavar="a4|letter",
            help=_("Paper size of a PDF report: a4 or letter (default: the locale's, else a4)."),
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help=_("Write the report here ('-' for standard output)."))
    ] = None,
    catalog_extra: Annotated[Path | None, typer.Option(help=_("Catalog additions/overrides (YAML)."))] = None,
    today: Annotated[
        str | None, typer.Option(metavar="YYYY-MM-DD", help=_("Plan as of this date (YYYY-MM-DD)."))
    ] = None,
    method: Annotated[
        str,
        typer.Option(
            metavar="mip|rule", help=_("Sourcing: mip (exact optimiser) or rule (greedy baseline).")
        ),
    ] = "mip",
    runs: Annotated[
        int, typer.Option(min=0, max=1_000_000, help=_("Monte Carlo runs for the risk section (0: none)."))
    ] = 2000,
    seed: Annotated[int, typer.Option(help=_("Random seed of the risk simulation."))] = 0,
    set_: Annotated[
        list[str] | None, typer.Option("--set", help=_("Override a scenario field: PATH=VALUE (repeatable)."))
    ] = None,
    lang: LangOption = None,
) -> None:
    """Plan the team: target, gaps, sourcing, roadmaps, costs, ROI, risk."""

    from gputeam.cli.common import STDIO, err_console, out_console
    from gputeam.report import EXTENSIONS, render

    to_stdout = out is not None and str(out) == STDIO
    fmt = format
    if fmt is None:
        fmt = EXTENSIONS.get(out.suffix.lstrip(".").lower(), "table") if out and not to_stdout else "table"
    if fmt not in FORMATS:
        raise _bad("--format", _("unknown format"), found=repr(fmt), expected=", ".join(FORMATS))
    if method not in ("mip", "rule", "greedy"):
        raise _bad("--method", _("unknown sourcing method"), found=repr(method), expected="mip or rule")
    if mode is not None and mode not in ("template", "lean"):
        raise _bad("--mode", _("unknown mode"), found=repr(mode), expected="template or lean")
    from gputeam.report.pdf import check_paper, default_paper

    paper = paper or default_paper()
    check_paper(paper)
    if to_stdout and fmt in ("xlsx", "pdf") and sys.stdout.isatty():
        raise _bad(
            "--out",
            _("{format} is binary: it is not printed to a terminal").format(format=fmt),
            expected=_("--out FILE, or '--out -' into a pipe or a file"),
        )
    if to_stdout:
        out = None  # the report goes to standard output, as without --out
    if fmt == "table" and out is not None:
        raise _bad(
            "--out",
            _("the table format prints to the terminal"),
            expected=_("--format {formats} with --out").format(formats="json, md, html, xlsx, ics, pdf"),
        )
    if fmt in ("xlsx", "pdf") and out is None and not to_stdout:
        raise _bad(
            "--out", _("{format} output needs a file").format(format=fmt), expected=f"--out plan.{fmt}"
        )
    if fmt == "pdf":
        from gputeam.report.pdf import chromium_path

        chromium_path()  # before planning: a missing browser is reported at once
    when = _date(today)
    with _Bar(err_console()) as bar:
        scenario, catalog = load_input(file, example, catalog_extra, set_)
        if mode is not None:
            from gputeam.scenario import PlanInputs

            scenario = PlanInputs.of(scenario).changed(mode=mode).apply_to(scenario)
        from gputeam.catalog import load_catalog
        from gputeam.planning import plan

        result = plan(
            scenario,
            catalog or load_catalog(),
            when,
            method=method,
            seed=seed,
            runs=runs,
            progress=bar.update,
        )
        bar.update("rendering", 0, 1)
        data = render(result, fmt, paper) if fmt != "table" else b""
    if out is not None:
        _write_atomic(out, data)
    if fmt == "table" or out is not None:
        from gputeam.report.table import print_plan
        from gputeam.report.tables import format_value

        print_plan(result, out_console())
        if out is not None:  # a message: on stderr, so stdout holds the data alone
            err_console().print(
                _("wrote {path} ({format}, {size} bytes)").format(
                    path=out, format=fmt, size=format_value(len(data), "int")
                ),
                style="green",
                highlight=False,
            )
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    if result.sourcing.status == "infeasible":
        # the report is written and says which constraints conflict; the status tells a script
        raise typer.Exit(INFEASIBLE_EXIT)


#: `gputeam plan`'s exit status when no plan meets every constraint (the report is still written).
INFEASIBLE_EXIT = 3


class _Bar:
    """A progress bar on a terminal's stderr, shown only once work has taken 0.3 s."""

    def __init__(self, console: Any) -> None:
        import time

        self.console = console
        self.clock = time.monotonic
        self.started = self.clock()
        self.progress: Any = None
        self.task: Any = None
        self.stage = ""

    def update(self, stage: str, done: int, total: int) -> None:
        if not self.console.is_terminal:
            return
        if self.progress is None:
            if self.clock() - self.started < 0.3:
                return
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            self.progress = Progress(
                TextColumn("{task.description:<10}"),
                BarColumn(),
                MofNCompleteColumn(),
                console=self.console,
                transient=True,
            )
            self.progress.start()
        if stage != self.stage or self.task is None:
            if self.task is not None:
                self.progress.remove_task(self.task)
            self.task = self.progress.add_task(stage, total=total)
            self.stage = stage
        self.progress.update(self.task, completed=done, total=total)

    def __enter__(self) -> _Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()


def _date(text: str | None) -> date:
    if text is None:
        return date.today()
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise _bad("--today", _("not a date"), found=repr(text), expected="YYYY-MM-DD") from None


def roi_cmd(
    file: Annotated[Path | None, typer.Argument(help=_("Scenario file (ROI of its plan)."))] = None,
    article: Annotated[bool, typer.Option("--article", help=_("The article's worked example (§9)."))] = False,
    example: Annotated[str | None, typer.Option(help=_("Bundled example."))] = None,
    format: Annotated[
        str, typer.Option("--format", "-f", metavar="table|json", help=_("table or json"))
    ] = "table",
    catalog_extra: Annotated[Path | None, typer.Option(help=_("Catalog additions/overrides (YAML)."))] = None,
    today: Annotated[str | None, typer.Option(help=_("Plan as of this date."))] = None,
) -> None:
    """Return on the training investment: net ROI, benefit-cost ratio, payback."""
    import json

    from gputeam.catalog import load_catalog
    from gputeam.planning import article_roi, plan

    if format not in ("table", "json"):
        raise _bad("--format", _("unknown format"), found=repr(format), expected="table or json")
    if article:
        from gputeam.cli.common import load_catalog_file

        roi, currency = article_roi(load_catalog_file(catalog_extra)), "USD"
    else:
        scenario, catalog = load_input(file, example, catalog_extra)
        roi = plan(scenario, catalog or load_catalog(), _date(today), runs=0).roi
        currency = scenario.currency
    if format == "json":
        sys.stdout.write(json.dumps(roi.model_dump(mode="json"), indent=2) + "\n")
        return
    from gputeam.cli.common import out_console
    from gputeam.report.table import print_roi

    print_roi(roi, out_console(), currency)


def example_cmd(
    name: Annotated[str, typer.Argument(help=_("finance, healthcare, startup or midsize"))],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help=_("Where to write it (default NAME.yaml; '-' for stdout).")),
    ] = None,
    force: Annotated[bool, typer.Option(help=_("Overwrite an existing file."))] = False,
) -> None:
    """Write a bundled example scenario to start from."""
    from gputeam.scenario import example_text

    text = example_text(name)
    if out is not None and str(out) == "-":
        sys.stdout.write(text)
        return
    target = out or Path(f"{name}.yaml")
    if target.exists() and not force:
        raise _bad("--out", _("file exists (use --force to overwrite)"), found=str(target))
    _write_atomic(target, text.encode("utf-8"))
    typer.echo(_("wrote {file}").format(file=target), err=True)


def schema_cmd(
    name: Annotated[str, typer.Argument(help=_("plan or scenario"))],
) -> None:
    """Print the JSON Schema of the plan output or of scenario files."""
    import json

    from gputeam.report.json_out import schema

    if name not in ("plan", "scenario"):
        raise _bad("NAME", _("unknown schema"), found=repr(name), expected="plan or scenario")
    sys.stdout.write(json.dumps(schema(name), indent=2) + "\n")
