"""Typer's and Click's own words (usage line, help panels, parsing errors) in gputeam's language.

Typer carries its own copy of Click, whose messages are English f-strings (there is no
gettext call of Click's to hand a catalog to), and Typer's help panels read their titles
once, at import, through the standard library's gettext. :func:`install` makes them speak
the active language with gputeam's own catalog:

* the help panels' titles and markers (``Options``, ``Arguments``, ``Commands``, ``Error``,
  ``[default: …]``, ``[required]``, the *Try '… --help' for help.* line) are set from
  :data:`PANELS`;
* the usage line's ``Usage:`` and the help option's *Show this message and exit.* are
  translated where Click writes them;
* a parsing error's message is matched against :data:`MESSAGES`, the English templates of
  the messages Click and Typer write (and of the validation messages Typer passes on), and
  written from the translated template; a message of no known form stays as it is.

The templates are marked for extraction here, so they are in gputeam's ``.pot`` and
translated with every other text (``babel.cfg`` lists this file). Run :func:`install`
after the language is chosen (``gputeam.cli.main`` does, at start-up).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from gputeam.i18n import N_, gettext

__all__ = ["MESSAGES", "PANELS", "install", "translate"]

#: Typer's help-panel constants (``typer.rich_utils``) and their English texts.
PANELS = {
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "ABORTED_TEXT": N_("Aborted."),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
    "DEFAULT_STRING": N_("[default: {value}]"),
    "ENVVAR_STRING": N_("[env var: {value}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "DEPRECATED_STRING": N_("(deprecated) "),
}
USAGE = N_("Usage:")
HELP_OPTION = N_("Show this message and exit.")

#: The messages of Click's and Typer's parsing errors, as they write them in English; a
#: ``{message}`` part is itself translated when it is one of these.
MESSAGES = (
    N_("No such option: {option} (Possible options: {options})"),
    N_("No such option: {option}"),
    N_("No such command {name}."),
    N_("Missing command."),
    N_("Missing argument {name}."),
    N_("Missing option {name}."),
    N_("Missing parameter {name}."),
    N_("Invalid value for {name}: {message}"),
    N_("Invalid value: {message}"),
    N_("Option {name} requires an argument."),
    N_("Option {name} does not take a value."),
    N_("Got unexpected extra argument(s) ({arguments})"),
    N_("Value {value} is not a valid {kind}."),
    N_("{value} is not one of {choices}."),
    N_("Input should be a valid integer, unable to parse string as an integer"),
    N_("Input should be a valid number, unable to parse string as a number"),
    N_("Input should be greater than or equal to {limit}"),
    N_("Input should be less than or equal to {limit}"),
    N_("Input should be greater than {limit}"),
    N_("Input should be less than {limit}"),
)


@cache
def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    regex = "".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts))
    return re.compile(regex, re.DOTALL)


def translate(message: str) -> str:
    """``message`` (English, as Click or Typer writes it) in the active language; unchanged
    when it is of no known form."""
    for template in MESSAGES:
        m = _pattern(template).fullmatch(message)
        if m:
            values = {k: translate(v) if k == "message" else v for k, v in m.groupdict().items()}
            return gettext(template).format(**values)
    return message


_installed = False


#: What an option or argument takes, shown in help where no choices are listed: Typer's
#: own are Python type names (``<str>``, ``<list[str]>``, ``<bool>`` on a flag).
METAVARS = {
    "str": N_("TEXT"),
    "int": N_("INTEGER"),
    "float": N_("NUMBER"),
    "path": N_("PATH"),
    "file": N_("FILE"),
    "directory": N_("DIRECTORY"),
}


def metavar(shown: str | None) -> str | None:
    """Typer's type label (``<str>``, ``<int range>``, ``<list[path]>``) as a help word
    (TEXT, INTEGER, PATH), translated; a label of no known form stays as it is."""
    if shown is None or not (shown.startswith("<") and shown.endswith(">")):
        return shown
    inner = shown[1:-1]
    if inner.startswith("list[") and inner.endswith("]"):
        inner = inner[5:-1]
    inner = inner.removesuffix(" range")
    word = METAVARS.get(inner)
    return gettext(word) if word is not None else inner.upper()


def _plain_metavars() -> None:
    """Help shows an option's choices where it names them (``metavar``), nothing for a
    flag, and a word (TEXT, INTEGER, PATH) for the rest."""
    from typer import core

    for cls in (core.TyperOption, core.TyperArgument):
        shown = cls.display_type_rich

        def display_type_rich(self: Any, ctx: Any, _shown: Callable[..., Any] = shown) -> str | None:
            if self.metavar is not None:
                return str(self.metavar)
            if getattr(self, "is_flag", False) and not getattr(self, "count", False):
                return None
            return metavar(_shown(self, ctx))

        cls.display_type_rich = display_type_rich  # type: ignore[method-assign]


def install() -> None:
    """Make Typer's and Click's words follow the active language (idempotent; the panel
    titles are set from the language active now)."""
    global _installed
    from typer import rich_utils

    for name, text in PANELS.items():
        setattr(rich_utils, name, gettext(text).replace("{value}", "{}"))
    if _installed:
        return
    _installed = True
    _plain_metavars()
    from typer._click import exceptions, formatting
    from typer._click.core import Command
    from typer.exceptions import TyperException

    write_usage = formatting.HelpFormatter.write_usage

    def usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args, gettext(USAGE) + " " if prefix is None else prefix)

    formatting.HelpFormatter.write_usage = usage  # type: ignore[method-assign]

    get_help_option = Command.get_help_option

    def help_option(self: Any, ctx: Any) -> Any:
        option = get_help_option(self, ctx)
        if option is not None:
            option.help = gettext(HELP_OPTION)
        return option

    Command.get_help_option = help_option  # type: ignore[method-assign]

    def translated(method: Callable[[Any], str]) -> Callable[[Any], str]:
        def format_message(self: Any) -> str:
            return translate(method(self))

        return format_message

    for cls in (
        TyperException,
        exceptions.BadParameter,
        exceptions.MissingParameter,
        exceptions.NoSuchOption,
    ):
        if "format_message" in vars(cls):
            setattr(cls, "format_message", translated(vars(cls)["format_message"]))  # noqa: B010
