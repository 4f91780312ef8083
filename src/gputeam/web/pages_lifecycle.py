"""A person's lifecycle from the person page: deactivate, reactivate, delete (admin; a
manager within their teams). Deleting asks for confirmation on its own page (type the
person's id), and takes their certifications, enrolments and roadmap with them; every
change is audited by the store."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from gputeam import store
from gputeam.i18n import _
from gputeam.web import notices
from gputeam.web.api.common import PathId, actor
from gputeam.web.auth import require
from gputeam.web.pages_people import _changeable
from gputeam.web.permissions import Perm, Principal
from gputeam.web.render import render

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

Writer = Annotated[Principal, Depends(require(Perm.PEOPLE_WRITE))]


def _set_active(request: Request, who: Principal, person_id: int, active: bool) -> Response:
    with request.app.state.db.session() as s:
        p = _changeable(request, who, s, person_id)
        if p.active != active:
            store.update_person(s, p.id, {"active": active}, actor=actor(who))
    flash = (
        _("Reactivated.")
        if active
        else _("Deactivated: kept with their history, left out of plans, dashboards and reminders.")
    )
    return notices.redirect(request, f"/people/{person_id}", flash)


@router.post("/people/{person_id}/deactivate")
def deactivate(request: Request, person_id: PathId, who: Writer) -> Response:
    return _set_active(request, who, person_id, False)


@router.post("/people/{person_id}/reactivate")
def reactivate(request: Request, person_id: PathId, who: Writer) -> Response:
    return _set_active(request, who, person_id, True)


def _confirm_page(
    request: Request,
    who: Principal,
    person_id: int,
    status: int = 200,
    error: str | None = None,
    typed: str = "",
) -> Response:
    with request.app.state.db.session() as s:
        p = _changeable(request, who, s, person_id)
        counts = {
            "certifications": len(store.list_certifications(s, person_id=p.id)),
            "enrolments": len(store.list_enrolments(s, person_id=p.id)),
            "roadmap items": len(store.list_roadmap_items(s, person_id=p.id)),
        }
        person = {"id": p.id, "key": p.key, "name": p.name, "active": p.active}
    return render(
        request, "person_delete.html", status, who=who, p=person, counts=counts, error=error, typed=typed
    )


@router.get("/people/{person_id}/delete")
def delete_page(request: Request, person_id: PathId, who: Writer) -> Response:
    return _confirm_page(request, who, person_id)


@router.post("/people/{person_id}/delete")
def delete(
    request: Request, person_id: PathId, who: Writer, confirm: Annotated[str, Form(max_length=200)] = ""
) -> Response:
    with request.app.state.db.session() as s:
        p = _changeable(request, who, s, person_id)
        if confirm.strip() != p.key:
            error = _("Type the person's id, {id}, to delete them.").format(id=p.key)
        else:
            name = p.name
            store.delete_person(s, p.id, actor=actor(who))
            error = None
    if error:
        return _confirm_page(request, who, person_id, 422, error, confirm)
    flash = _("{name} deleted.").format(name=name)
    return notices.redirect(request, "/people", flash)
