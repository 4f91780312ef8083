"""Store errors: all are :class:`gputeam.errors.InputError`, so front ends already translate
them (CLI exit 2, API 422/404)."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError, IntegrityError

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


def refused(path: str, message: str, found: object = None, expected: str | None = None) -> StoreError:
    return StoreError(
        [Problem(path=path, message=message, found=None if found is None else str(found), expected=expected)]
    )


#: A write broke one of the database's uniqueness or reference rules (e.g. the same
#: certificate recorded twice by two requests at once): front ends answer 409.
WriteConflict = IntegrityError


def lost_connection(exc: BaseException) -> bool:
    """Whether ``exc`` (or an exception it wraps, e.g. in an exception group) means the
    database connection was lost (server restart, failover, idle timeout): the
    transaction was rolled back, and a read may be run again on a new connection."""
    if isinstance(exc, DBAPIError):
        return bool(exc.connection_invalidated)
    if isinstance(exc, BaseExceptionGroup):
        return any(lost_connection(e) for e in exc.exceptions)
    return False
