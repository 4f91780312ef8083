"""Typed input errors shared by every layer: what is wrong and exactly where.

An :class:`InputError` carries one or more :class:`Problem` records (file, line, field
path, the value found, what was expected). Front ends translate it: the CLI prints it and
exits 2, the API answers 422 with a problem document.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from gputeam.i18n import N_, Nn_


@dataclass(frozen=True)
class Problem:
    path: str
    message: str
    found: str | None = None
    expected: str | None = None
    file: str | None = None
    line: int | None = None
    hint: str | None = None
    column: int | None = None
    #: A library's own words about the problem (a parser's message), shown as they are
    #: after gputeam's translated message: they are in English whatever the language.
    detail: str | None = None

    def __str__(self) -> str:
        """The problem in one line, in the active language."""
        from gputeam.i18n import gettext as _

        shown = self.localised()
        where = self.file or ("<input>" if self.line is not None else "")
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        text = f"{where + ': ' if where else ''}{self.path or _('(top level)')}: {shown.message}"
        if self.found is not None:
            text += _("; found {value}").format(value=self.found)
        if shown.expected is not None:
            text += _("; expected {value}").format(value=shown.expected)
        if shown.hint:
            text += f" ({shown.hint})"
        if self.detail:
            text += " " + _("[in the parser's words: {detail}]").format(detail=self.detail)
        return text

    def localised(self) -> Problem:
        """This problem with its message, expectation and hint in the active language (the
        values found, paths and files stay as they are)."""
        from gputeam.i18n.messages import translate

        return replace(
            self,
            message=translate(self.message),
            expected=None if self.expected is None else translate(self.expected),
            hint=None if self.hint is None else translate(self.hint),
        )

    def as_dict(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


#: The headline of an error's problems, per kind of error (``InputError.kind``).
HEADLINES = {
    "input": Nn_("{n} problem in the input", "{n} problems in the input"),
    "catalog": Nn_("{n} problem in the catalog", "{n} problems in the catalog"),
    "scenario": Nn_("{n} problem in the scenario", "{n} problems in the scenario"),
    "settings": Nn_("{n} problem in the settings", "{n} problems in the settings"),
    "environment": Nn_("{n} problem in the environment", "{n} problems in the environment"),
    "request": Nn_("{n} problem in the request", "{n} problems in the request"),
    "lookup": Nn_("{n} problem finding the data", "{n} problems finding the data"),
    "import": Nn_("{n} problem in the import", "{n} problems in the import"),
    "conflict": Nn_("{n} conflict with the stored data", "{n} conflicts with the stored data"),
}


def headline(kind: str, n: int) -> str:
    """ "2 problems in the scenario", in the active language (an unknown kind reads as input)."""
    from gputeam.i18n import ngettext

    singular, plural = HEADLINES.get(kind, HEADLINES["input"])
    return ngettext(singular, plural, n).format(n=n)


class InputError(ValueError):
    """Base of every input error gputeam reports to users."""

    kind = "input"

    @property
    def headline(self) -> str:
        """How many problems, and in what, in the active language."""
        return headline(self.kind, len(self.problems))

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def __str__(self) -> str:
        # written when shown, in the language active then (not the one at raise)
        return "\n".join(str(p) for p in self.problems)


class CatalogError(InputError):
    kind = "catalog"


class ScenarioError(InputError):
    kind = "scenario"


def read_text_file(path: str, error: type[InputError] = InputError) -> str:
    """The UTF-8 text of a file named on a command line or in settings, or ``error``
    naming the file and why it cannot be read (for front ends: the core does no I/O)."""
    from pathlib import Path

    try:
        return Path(path).read_text("utf-8")
    except OSError as exc:
        raise error(
            [
                Problem(
                    path="", message=N_("cannot read: {reason}").format(reason=exc.strerror), file=str(path)
                )
            ]
        ) from None


class FieldConflicts(ValueError):
    """Raised inside model validators for checks that span fields: each conflict names the
    field it is about, so the error can point at that field (and its line) rather than at
    the whole document. ``conflicts`` holds (path, message, found) triples."""

    def __init__(self, conflicts: Sequence[tuple[tuple[str | int, ...], str, str | None]]) -> None:
        self.conflicts = tuple(conflicts)
        super().__init__("; ".join(f"{'.'.join(map(str, p))}: {m}" for p, m, _ in self.conflicts))
