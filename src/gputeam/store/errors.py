"""Store errors: all are :class:`gputeam.errors.InputError`, so front ends already translate
them (CLI exit 2, API 422/404)."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError, IntegrityError

from gputeam.errors import InputError, Problem
from gputeam.i18n import N_


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


#: "no person 'x'": one sentence per kind of record (a language declines the noun).
_NOT_FOUND = {
    "person": N_("no person {key}"),
    "team": N_("no team {key}"),
    "organisation": N_("no organisation {key}"),
    "user": N_("no user {key}"),
    "certification": N_("no certification {key}"),
    "attempt": N_("no attempt {key}"),
    "credential": N_("no credential {key}"),
    "enrolment": N_("no enrolment {key}"),
    "plan": N_("no plan {key}"),
    "programme": N_("no programme {key}"),
    "roadmap item": N_("no roadmap item {key}"),
    "scenario": N_("no scenario {key}"),
    "api token": N_("no API token {key}"),
    "status list": N_("no status list {key}"),
    "item": N_("no item {key}"),
    "approval": N_("no approval {key}"),
}


def not_found(what: str, key: object) -> NotFound:
    return NotFound(
        [
            Problem(
                path=what,
                message=_NOT_FOUND.get(what, N_("no {what} {key}")).format(what=what, key=repr(key)),
                found=str(key),
            )
        ]
    )


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
