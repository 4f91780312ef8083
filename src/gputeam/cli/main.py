"""`gputeam` entry point. Each command is a few lines: parse, call the library, render.

Heavy modules are imported inside commands so that ``gputeam --help`` stays fast.
Input errors (:class:`gputeam.errors.InputError`) are printed without a traceback and
exit with status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import typer

app = typer.Typer(
    name="gputeam",
    help="Plan, build and track the team that runs GPU / AI infrastructure.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])


def friendly(func: F) -> F:
    """Turn InputError into a clear message and exit status 2 (no traceback)."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from gputeam.errors import InputError

        try:
            return func(*args, **kwargs)
        except InputError as exc:
            err = _stderr()
            err.print(f"[bold red]error:[/] {len(exc.problems)} problem(s) in the {exc.kind}",
                      soft_wrap=True)
            for p in exc.problems:
                err.print(f"  {p}", markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


def _stderr() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def _register() -> None:
    # Each module adds its commands to ``app``; modules must stay cheap to import.
    from gputeam.cli import catalog_cmds, plan_cmds

    plan_cmds.register(app)
    catalog_cmds.register(app)
    for name in ("tracker_cmds", "serve_cmds", "certify_cmds", "credential_cmds"):
        try:
            module = __import__(f"gputeam.cli.{name}", fromlist=["register"])
        except ModuleNotFoundError as exc:
            if exc.name != f"gputeam.cli.{name}":
                raise
            continue
        module.register(app)


_register()


def main() -> None:
    app(prog_name="gputeam")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
