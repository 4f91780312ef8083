"""`gputeam completion SHELL`: the shell-completion script, to source from a shell's start-up
file (``eval "$(gputeam completion bash)"`` in ``~/.bashrc``). The script asks ``gputeam``
itself for candidates through ``_GPUTEAM_COMPLETE``, which :func:`gputeam.cli.main.main`
answers."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from gputeam import i18n

_ = i18n.gettext
COMPLETE_VAR = "_GPUTEAM_COMPLETE"


class Shell(StrEnum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


def completion(shell: Annotated[Shell, typer.Argument(help=_("The shell: bash, zsh or fish."))]) -> None:
    """Print the shell-completion script for SHELL (e.g. eval "$(gputeam completion bash)")."""
    from typer._completion_shared import get_completion_script

    typer.echo(get_completion_script(prog_name="gputeam", complete_var=COMPLETE_VAR, shell=shell.value))


def register(app: typer.Typer) -> None:
    app.command(
        "completion",
        help=_('Print the shell-completion script for SHELL (e.g. eval "$(gputeam completion bash)").'),
    )(completion)
