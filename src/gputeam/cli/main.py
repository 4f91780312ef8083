"""`gputeam` entry point. Each command is a few lines: parse, call the library, render.

Heavy modules are imported inside commands so that ``gputeam --help`` stays fast.
Input errors (:class:`gputeam.errors.InputError`) are printed without a traceback and
exit with status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextvars import ContextVar
from functools import wraps
from typing import Annotated, Any, TypeVar

import typer

from gputeam import i18n


def _language_in(argv: list[str]) -> str | None:
    """The ``--lang`` value on the command line, if any (read before the commands are
    defined, so that their help texts are in that language too)."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def _click_words() -> None:
    from gputeam.cli.click_words import install

    install()


try:
    i18n.activate(i18n.from_environment(_language_in(sys.argv[1:])))
except ValueError:  # an unknown --lang: the command reports it
    i18n.activate(i18n.from_environment())
_ = i18n.gettext
_click_words()

app = typer.Typer(
    name="gputeam",
    help=_("Plan, build and track the team that runs GPU / AI infrastructure."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

F = TypeVar("F", bound=Callable[..., Any])

LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        metavar="|".join(i18n.LANGUAGES),
        help=_(
            "Language of the output: {languages} (default: GPUTEAM_LANG, then LANGUAGE, LC_ALL, "
            "LC_MESSAGES, LANG, else en)."
        ).format(languages=", ".join(i18n.LANGUAGES)),
    ),
]
"""A command's ``--lang`` option; :func:`friendly` runs the command in that language."""


def friendly(func: F) -> F:
    """Turn InputError into a clear message and exit status 2 (no traceback); run a command
    with a ``lang`` parameter (:data:`LangOption`) in that language."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from gputeam.errors import InputError, Problem

        try:
            given = kwargs.get("lang") or _GLOBAL_LANG.get()
            language: str | None = i18n.from_environment(given)
        except ValueError:
            language = None
        with i18n.use(language or i18n.current()):
            try:
                if language is None:
                    raise InputError(
                        [
                            Problem(
                                path="--lang",
                                message=_("unknown language"),
                                found=repr(given),
                                expected=", ".join(i18n.LANGUAGES),
                            )
                        ]
                    )
                return func(*args, **kwargs)
            except InputError as exc:
                err = _stderr()
                err.print("[bold red]" + _("error:") + "[/] " + exc.headline, soft_wrap=True)
                for p in exc.problems:
                    err.print(f"  {p}", markup=False, highlight=False, soft_wrap=True)
                raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


_GLOBAL_LANG: ContextVar[str | None] = ContextVar("gputeam_cli_lang", default=None)


def _print_version(value: bool) -> None:
    if value:
        from gputeam import __version__

        typer.echo(f"gputeam {__version__}")
        raise typer.Exit()


VersionOption = Annotated[
    bool,
    typer.Option(
        "--version",
        "-V",
        help=_("Show the version and exit."),
        callback=_print_version,
        is_eager=True,
    ),
]


@app.callback(help=_("Plan, build and track the team that runs GPU / AI infrastructure."))
def _main(lang: LangOption = None, version: VersionOption = False) -> None:
    """Plan, build and track the team that runs GPU / AI infrastructure."""
    # ``gputeam --lang de plan ...``: the commands run in that language (a command's own
    # --lang wins); an unknown language is reported by the command.
    _GLOBAL_LANG.set(lang)


def _stderr() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def _register() -> None:
    # Each module adds its commands to ``app``; modules must stay cheap to import.
    from gputeam.cli import catalog_cmds, compare_cmds, plan_cmds

    plan_cmds.register(app)
    compare_cmds.register(app)
    catalog_cmds.register(app)
    optional = ("tracker_cmds", "serve_cmds", "bank_cmds", "credential_cmds", "exam_cmds", "completion_cmds")
    for name in optional:
        try:
            module = __import__(f"gputeam.cli.{name}", fromlist=["register"])
        except ModuleNotFoundError as exc:
            if exc.name != f"gputeam.cli.{name}":
                raise
            continue
        module.register(app)


_register()


def main() -> None:
    import os

    if "_GPUTEAM_COMPLETE" in os.environ:  # a shell asks for completions (gputeam completion)
        from typer.completion import completion_init  # type: ignore[attr-defined]

        completion_init()
    app(prog_name="gputeam")


if __name__ == "__main__":  # pragma: no cover
    main()
