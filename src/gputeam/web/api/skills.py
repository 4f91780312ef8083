"""The skills matrix and the certifications view as JSON (issue 10 §1): the same dicts the
pages render (:mod:`gputeam.web.tracker_views`), the same filters, paginated by ``limit``
and ``offset``; rows are only people the caller may read. Each answer is serialised once
per data version (and day) for the same people visible, filters and page."""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response

from gputeam import store
from gputeam.web import services
from gputeam.web.api.common import API_PREFIX, ERRORS, db, today
from gputeam.web.auth import require
from gputeam.web.lists import Chosen, chosen
from gputeam.web.permissions import Perm, Principal
from gputeam.web.tracker_views import certifications_data, matrix_data

router = APIRouter(prefix=API_PREFIX, tags=["tracker"], responses=ERRORS)

Reader = Annotated[Principal, Depends(require(Perm.PEOPLE_READ))]
Choices = Annotated[Chosen, Depends(chosen)]
Offset = Annotated[int, Query(ge=0, le=10_000_000)]


def _json(
    request: Request, s: store.DbSession, key: tuple[Hashable, ...], build: Callable[[], dict[str, Any]]
) -> Response:
    """``build()`` as JSON, cached under ``key`` (which names the caller's visible people,
    the filters and the page) and the data version."""
    body = services.cached_text(
        request.app,
        (*key, store.data_version(s)),
        lambda: json.dumps(build(), separators=(",", ":")).encode(),
    )
    return Response(body, media_type="application/json")


@router.get("/skills/matrix", summary="The skills matrix: people × skill domains")
def skills_matrix(
    request: Request,
    who: Reader,
    ch: Choices,
    group: Annotated[
        str, Query(max_length=30, description=("Only the skill domains of this catalog group."))
    ] = "",
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Offset = 0,
) -> dict[str, Any]:
    """Rows: people (filtered, sorted by ``sort``: name, key, level, role or team), each
    with one cell per column: ``proficiency`` (null: unrated), ``target`` (null: none) and
    ``status`` (meets, below, no-target, unrated). Columns: the skill domains with their
    ``target`` and ``bus_factor`` (selected people, all pages, at or above
    ``bus_factor_at``). ``target_source``: ``plan`` (the latest saved plan at its
    deadline) or ``catalog roles``."""
    with db(request).read_session() as s:
        return _json(  # type: ignore[return-value]
            request,
            s,
            ("matrix.json", who.readable_people(), ch, group, limit, offset),
            lambda: matrix_data(request.app, s, who, ch, group, limit=limit, offset=offset),
        )


@router.get("/certifications", summary="Certifications held, with expiry status")
def certifications(
    request: Request,
    who: Reader,
    ch: Choices,
    expiry: Annotated[
        str,
        Query(
            max_length=20,
            description=(
                "The certificate's status: expired, expiring-30, expiring-60, expiring-90 or valid."
            ),
        ),
    ] = "",
    cert: Annotated[str, Query(max_length=100, description=("A catalog certification id."))] = "",
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Offset = 0,
) -> dict[str, Any]:
    """Each person's current certificate of each certification (renewed ones left out),
    sorted by ``sort`` (expires, person, certification, team or earned), with ``status``
    (its expiry status; ``status`` as a parameter is the people's, as in every list)
    and ``days_left`` on the server's today."""
    day = today(request)
    with db(request).read_session() as s:
        return _json(  # type: ignore[return-value]
            request,
            s,
            ("certifications.json", who.readable_people(), ch, expiry, cert, day, limit, offset),
            lambda: certifications_data(
                request.app, s, who, ch, expiry, cert, day, limit=limit, offset=offset
            ),
        )
