"""Store errors: all are :class:`gputeam.errors.InputError`, so front ends already translate
them (CLI exit 2, API 422/404)."""

from __future__ import annotations

from gputeam.errors import InputError, Problem


class StoreError(InputError):
    """A request the store refuses: unknown ids, duplicates, values out of range."""

    kind = "request"


class NotFound(StoreError):
    """The record asked for does not exist (the API answers 404)."""

    kind = "lookup"


class ImportRejected(InputError):
    """An import with bad rows: one :class:`Problem` per bad cell (``line`` is the row
    number as the spreadsheet shows it, ``path`` the column, ``found`` the value,
    ``message`` the reason). Nothing was written."""

    kind = "import"


def not_found(what: str, key: object) -> NotFound:
    return NotFound([Problem(path=what, message=f"no {what} {key!r}", found=str(key))])


def refused(path: str, message: str, found: object = None, expected: str | None = None
            ) -> StoreError:
    return StoreError([Problem(path=path, message=message,
                               found=None if found is None else str(found), expected=expected)])
