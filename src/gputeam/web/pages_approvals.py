"""The approvals page: the certificates, skill ratings and course hours people recorded for
themselves, waiting for an admin or a manager of their team (never the person), who
approves (the record is written and counts from then on) or rejects them. The JSON API
twin is :mod:`gputeam.web.api.approvals`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from gputeam.errors import InputError
from gputeam.i18n import _
from gputeam.web import notices, services
from gputeam.web.api.approvals import decide, visible_approvals
from gputeam.web.auth import require
from gputeam.web.permissions import Perm, Principal
from gputeam.web.render import render

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

Approver = Annotated[Principal, Depends(require(Perm.PEOPLE_WRITE))]


@router.get("/approvals")
def approvals_page(request: Request, who: Approver) -> Response:
    with request.app.state.db.read_session() as s:
        pending = visible_approvals(request, s, who, "pending")
    cat = services.catalog(request.app)
    return render(
        request, "approvals.html", who=who, pending=pending, certs=cat.certifications, domains=cat.domains
    )


def _decide(request: Request, who: Principal, approval_id: int, approve: bool, note: str) -> Response:
    try:
        done = decide(request, approval_id, who, approve, note)
    except HTTPException:
        raise
    except InputError as exc:
        text = "; ".join(p.localised().message for p in exc.problems)
        return notices.redirect(request, "/approvals", _("Not decided: {reason}").format(reason=text))
    text = _("Approved: it counts from now on.") if approve else _("Rejected: nothing was recorded.")
    return notices.redirect(request, "/approvals", f"{done['person']}: {text}")


@router.post("/approvals/{approval_id}/approve")
def approve(
    request: Request, approval_id: int, who: Approver, note: Annotated[str, Form(max_length=1000)] = ""
) -> Response:
    return _decide(request, who, approval_id, True, note)


@router.post("/approvals/{approval_id}/reject")
def reject(
    request: Request, approval_id: int, who: Approver, note: Annotated[str, Form(max_length=1000)] = ""
) -> Response:
    return _decide(request, who, approval_id, False, note)
