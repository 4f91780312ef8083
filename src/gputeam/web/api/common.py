"""Shared pieces of the API: response models, error responses and record-level guards."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import HTTPException, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from gputeam.i18n import N_, gettext
from gputeam.web.permissions import Principal

#: Where the JSON API lives; its routers carry it as their prefix.
API_PREFIX = "/api/v1"

#: Database ids fit a 32-bit signed integer on every engine.
MAX_ID = 2_147_483_647
PathId = Annotated[int, Path(ge=1, le=MAX_ID)]
RefId = Annotated[int, Field(ge=1, le=MAX_ID)]
#: Calendar dates the store can do arithmetic on (expiries, alarms) without overflowing.
Day = Annotated[date, Field(ge=date(1950, 1, 1), le=date(2199, 12, 31))]

PROBLEM = {
    "content": {
        "application/problem+json": {
            "schema": {
                "type": "object",
                "properties": {
                    "type": {"type": "string"},
                    "title": {"type": "string"},
                    "status": {"type": "integer"},
                    "detail": {"type": "string"},
                    "problems": {"type": "array", "items": {"type": "object"}},
                },
            }
        }
    }
}
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "Not authenticated", **PROBLEM},
    403: {"description": "Forbidden for this role or token scope", **PROBLEM},
    404: {"description": "Not found", **PROBLEM},
    422: {"description": "Invalid input (problem document)", **PROBLEM},
}


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


def db(request: Request) -> Any:
    return request.app.state.db


def today(request: Request) -> Any:
    return request.app.state.clock.today()


def actor(who: Principal) -> str:
    return who.username if who.via == "session" else f"{who.username} (token)"


def forbid(message: str = N_("not allowed for your role")) -> HTTPException:
    """A 403 whose ``message`` (English, marked with ``N_``) is said in the request's language."""
    return HTTPException(403, gettext(message))


#: What :func:`not_found` says of each kind of record, in words that translate whole.
NOT_FOUND = {
    "catalog section": N_("no such catalog section"),
    "approval": N_("no such approval"),
    "certification": N_("no such certification"),
    "enrolment": N_("no such enrolment"),
    "person": N_("no such person"),
    "plan": N_("no such plan"),
    "plan (none saved yet)": N_("no plan saved yet"),
    "roadmap item": N_("no such roadmap item"),
    "team": N_("no such team"),
    "token": N_("no such token"),
}


def not_found(what: str) -> HTTPException:
    message = NOT_FOUND.get(what)
    return HTTPException(404, gettext(message) if message else gettext("no such {what}").format(what=what))
