"""What the tracker's lists share (the people list, the skills matrix, the certifications
view; pages and API alike): the filter and sort parameters a user chooses, read from the
query string, and who the caller may see, as one :class:`gputeam.store.PeopleFilter`.

Parameters arrive as text (an HTML form sends an empty ``team=`` for "any team"); a value
that is not one of the choices is refused with a problem naming the parameter. The sort
orders are the store's whitelists (``PEOPLE_SORTS``, ``HELD_SORTS``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Annotated

from fastapi import Query

from gputeam import store
from gputeam.errors import InputError, Problem
from gputeam.i18n import N_
from gputeam.web.permissions import Principal

#: People's status in a list: ``active`` (the default), ``inactive`` or ``all``.
PERSON_STATUSES = ("active", "inactive", "all")
#: The ``role`` value selecting people without a role.
NO_ROLE = "none"
#: The ``site`` value selecting people without a site.
NO_SITE = "none"


@dataclass(frozen=True)
class Chosen:
    """The filters and order a user chose (text as it arrived; checked by :meth:`filter`)."""

    team: str = ""
    role: str = ""
    level: str = ""
    site: str = ""
    status: str = "active"
    search: str = ""
    sort: str = ""
    dir: str = "asc"

    def filter(self) -> store.PeopleFilter:
        """The store filter for these choices (no visibility rule yet: :func:`visible`)."""
        problems: list[Problem] = []
        team = _whole(self.team, "team", problems, 1, 2_147_483_647)
        level = _whole(self.level, "level", problems, 1, 5)
        if self.status not in PERSON_STATUSES:
            problems.append(
                Problem(
                    path="status",
                    message=N_("not a person status"),
                    found=self.status,
                    expected=" or ".join(PERSON_STATUSES),
                )
            )
        if self.dir not in ("asc", "desc"):
            problems.append(
                Problem(path="dir", message=N_("not a direction"), found=self.dir, expected="asc or desc")
            )
        if problems:
            raise InputError(problems)
        role = None if not self.role else "" if self.role == NO_ROLE else self.role
        site = self.site.strip()
        active = {"active": True, "inactive": False}.get(self.status)
        return store.PeopleFilter(
            team_id=team,
            role=role,
            level=level,
            active=active,
            search=self.search.strip() or None,
            site=None if not site else "" if site == NO_SITE else site,
        )

    def sort_by(self, allowed: Sequence[str]) -> str:
        """The chosen order, one of ``allowed`` (the store's whitelist; empty: the first)."""
        if self.sort and self.sort not in allowed:
            raise InputError(
                [
                    Problem(
                        path="sort",
                        message=N_("not a sort order"),
                        found=self.sort,
                        expected=", ".join(allowed),
                    )
                ]
            )
        return self.sort or allowed[0]

    @property
    def descending(self) -> bool:
        return self.dir == "desc"

    def query(self, **changes: str) -> str:
        """These choices (with ``changes``) as a query string, for links to other pages and
        orders of the same list."""
        from urllib.parse import urlencode

        chosen = replace(self, **changes)
        pairs = {
            k: v
            for k, v in chosen.__dict__.items()
            if v and not (k == "status" and v == "active") and not (k == "dir" and v == "asc")
        }
        return urlencode(pairs)


def _whole(text: str, name: str, problems: list[Problem], low: int, high: int) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or not low <= int(text) <= high:
        problems.append(
            Problem(
                path=name,
                message=N_("not a choice"),
                found=text,
                expected=N_("a whole number from {low} to {high}, or empty").format(low=low, high=high),
            )
        )
        return None
    return int(text)


async def chosen(
    team: Annotated[str, Query(max_length=12, description="A team id.")] = "",
    role: Annotated[
        str, Query(max_length=100, description=(f"A catalog role id; `{NO_ROLE}` for people without a role."))
    ] = "",
    level: Annotated[str, Query(max_length=2, description="Level 1-5.")] = "",
    site: Annotated[
        str,
        Query(max_length=100, description=f"A site recorded on people; `{NO_SITE}` for people without one."),
    ] = "",
    status: Annotated[
        str, Query(max_length=10, description=("People's status: " + ", ".join(PERSON_STATUSES) + "."))
    ] = "active",
    search: Annotated[str, Query(max_length=100, description=("Part of a name or id (any case)."))] = "",
    sort: Annotated[str, Query(max_length=20, description="The sort order.")] = "",
    dir: Annotated[str, Query(max_length=4, description="asc or desc.")] = "asc",
) -> Chosen:
    """A dependency: the list parameters of the query string (``async``: FastAPI then calls it
    in the event loop, without a hop to a worker thread; it does no I/O)."""
    return Chosen(
        team=team, role=role, level=level, site=site, status=status, search=search, sort=sort, dir=dir
    )


def visible(who: Principal, where: store.PeopleFilter) -> store.PeopleFilter | None:
    """``where`` narrowed to the people ``who`` may read
    (:meth:`~gputeam.web.permissions.Principal.readable_people`), or None: nobody."""
    readable = who.readable_people()
    if readable is None:
        return None
    team_ids, person_id = readable
    return replace(where, team_ids=None if team_ids is None else tuple(sorted(team_ids)), person_id=person_id)
