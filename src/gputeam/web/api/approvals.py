"""Records waiting for approval: the certificates, skill ratings and course hours people
recorded for themselves. Admins decide anyone's, a manager those of their teams' people,
nobody their own (:func:`gputeam.tracker.reach.may_approve`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import Field

from gputeam import store
from gputeam.i18n import N_
from gputeam.tracker import reach
from gputeam.web import services
from gputeam.web.api.common import API_PREFIX, ERRORS, Body, PathId, actor, db, forbid, not_found
from gputeam.web.auth import require
from gputeam.web.permissions import Perm, Principal

router = APIRouter(prefix=API_PREFIX, tags=["approvals"], responses=ERRORS)

Approver = Annotated[Principal, Depends(require(Perm.PEOPLE_WRITE))]


class DecisionIn(Body):
    note: str = Field(default="", max_length=1000, description="Why (shown with the decision).")


def visible_approvals(request: Request, s: Any, who: Principal, status: str | None) -> list[dict[str, Any]]:
    """The requests ``who`` may decide (or has seen decided), as JSON, oldest first."""
    rows = store.list_approvals(
        s,
        services.org_id(request.app, s),
        status=status,
        team_ids=reach.approvable(who.role, who.team_ids),
    )
    return [
        store.approval_json(r) | {"team_id": r.person.team_id}
        for r in rows
        if who.may_approve(r.person_id, r.person.team_id)
    ]


@router.get("/approvals", summary="Records waiting for approval (the ones you may decide)")
def list_approvals(
    request: Request,
    who: Approver,
    status: Annotated[Literal["pending", "approved", "rejected"] | None, Query()] = "pending",
) -> list[dict[str, Any]]:
    with db(request).read_session() as s:
        return visible_approvals(request, s, who, status)


def decide(
    request: Request, approval_id: int, who: Principal, approve: bool, note: str
) -> store.ApprovalJson:
    """Approve or reject one request, if ``who`` may (404 when it is not in reach)."""
    with db(request).session() as s:
        try:
            row = store.get_approval(s, approval_id)
        except store.NotFound:
            raise not_found("approval") from None
        person = services.person_in_org(request.app, s, row.person_id)
        if person is None or not who.may_read_person(person.id, person.team_id):
            raise not_found("approval")
        if not who.may_approve(person.id, person.team_id):
            raise forbid(N_("only an admin or a manager of the person's team approves; never the person"))
        done = store.decide(
            s, approval_id, approve, actor=actor(who), note=note, catalog=services.catalog(request.app)
        )
        return store.approval_json(done)


@router.post("/approvals/{approval_id}/approve", summary="Approve: the record is written and counts")
def approve(
    request: Request, approval_id: PathId, who: Approver, body: DecisionIn | None = None
) -> dict[str, Any]:
    return {**decide(request, approval_id, who, True, body.note if body else "")}


@router.post("/approvals/{approval_id}/reject", summary="Reject: nothing is recorded; the request is kept")
def reject(
    request: Request, approval_id: PathId, who: Approver, body: DecisionIn | None = None
) -> dict[str, Any]:
    return {**decide(request, approval_id, who, False, body.note if body else "")}
