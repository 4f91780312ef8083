"""The JSON API under ``/api/v1``: the same data and actions as the pages.

Authentication: ``Authorization: Bearer <token>`` (scoped API tokens) or the browser's
session cookie (then unsafe methods need the ``X-CSRF-Token`` header). Errors are RFC 9457
problem documents (``application/problem+json``); invalid input answers 422 with one
``problems`` entry per field (path, message, found, expected).
"""

from fastapi import APIRouter

from gputeam.web.api import accounts, approvals, data, exams, people, plans, skills, teams

#: The API's routers, in matching order; each carries the ``/api/v1`` prefix itself.
ROUTERS: tuple[APIRouter, ...] = (
    people.router,
    teams.router,
    plans.router,
    data.router,
    accounts.router,
    exams.router,
    skills.router,
    approvals.router,
)

__all__ = ["ROUTERS"]
