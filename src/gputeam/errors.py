"""Typed input errors shared by every layer: what is wrong and exactly where.

An :class:`InputError` carries one or more :class:`Problem` records (file, line, field
path, the value found, what was expected). Front ends translate it: the CLI prints it and
exits 2, the API answers 422 with a problem document.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    path: str
    message: str
    found: str | None = None
    expected: str | None = None
    file: str | None = None
    line: int | None = None
    hint: str | None = None

    def __str__(self) -> str:
        where = self.file or ("<input>" if self.line is not None else "")
        if self.line is not None:
            where += f":{self.line}"
        text = f"{where + ': ' if where else ''}{self.path or '(top level)'}: {self.message}"
        from gputeam.i18n import gettext as _

        if self.found is not None:
            text += _("; found {value}").format(value=self.found)
        if self.expected is not None:
            text += _("; expected {value}").format(value=self.expected)
        if self.hint:
            text += f" ({self.hint})"
        return text

    def as_dict(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


class InputError(ValueError):
    """Base of every input error gputeam reports to users."""

    kind = "input"

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


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
        raise error([Problem(path="", message=f"cannot read: {exc.strerror}", file=str(path))]) from None


class FieldConflicts(ValueError):
    """Raised inside model validators for checks that span fields: each conflict names the
    field it is about, so the error can point at that field (and its line) rather than at
    the whole document. ``conflicts`` holds (path, message, found) triples."""

    def __init__(self, conflicts: Sequence[tuple[tuple[str | int, ...], str, str | None]]) -> None:
        self.conflicts = tuple(conflicts)
        super().__init__("; ".join(f"{'.'.join(map(str, p))}: {m}" for p, m, _ in self.conflicts))
