"""People, skills, certifications held, enrolments and roadmap items."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any, get_args

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import Field, create_model

from gputeam import store
from gputeam.errors import InputError, Problem
from gputeam.i18n import N_, gettext
from gputeam.store import (
    EMAIL_EXAMPLE,
    NUMBER_RULES,
    PERSON_FIELDS,
    REQUIRED,
    TEXT_LONGEST,
    PersonFields,
)
from gputeam.web import services
from gputeam.web.api.common import (
    API_PREFIX,
    ERRORS,
    MAX_ID,
    Body,
    Day,
    PathId,
    RefId,
    actor,
    db,
    forbid,
    not_found,
    today,
)
from gputeam.web.auth import require
from gputeam.web.lists import Chosen, chosen, visible
from gputeam.web.permissions import Perm, Principal

router = APIRouter(prefix=API_PREFIX, tags=["people"], responses=ERRORS)

Reader = Annotated[Principal, Depends(require(Perm.PEOPLE_READ))]
Writer = Annotated[Principal, Depends(require(Perm.PEOPLE_WRITE))]
Recorder = Annotated[Principal, Depends(require(Perm.RECORDS_WRITE))]


SITE_DOC = (
    "Where the person works (a data-centre site, a city): free text, null or blank for none. "
    "Not checked against a scenario's sites (a scenario counts its sites; it does not name them)."
)
EMAIL_DOC = (
    f"An e-mail address like {EMAIL_EXAMPLE}, unique in the organisation (case ignored); "
    "null or blank for none."
)
ROLE_DOC = (
    "A catalog role id (`GET /api/v1/catalog/roles`), or null (or blank) for none. On PATCH, "
    "the person's current role is also accepted, even if the catalog no longer has it."
)


def _limits(name: str) -> dict[str, Any]:
    """The field's limits, as the schema documents them. They are enforced by the store
    (``store.PersonFields``, one rule for every door), which answers 422 naming the field
    (``person.<field>``) with the same message the person form and the roster import give."""
    if name in NUMBER_RULES:
        rule = NUMBER_RULES[name]
        return {"minimum": rule.low, "maximum": rule.high}
    return {"maxLength": TEXT_LONGEST[name]}


#: what the API documents of a person field beyond its type and limits
FIELD_DOCS = {
    "key": "Stable identifier.",
    "email": EMAIL_DOC,
    "role": ROLE_DOC,
    "site": SITE_DOC,
    "team_id": "The person's team (`GET /api/v1/teams`), or null for none.",
    "active": "false: the person has left (kept for the record, counted nowhere); true: active.",
}


def _nullable(name: str) -> bool:
    """The person field may hold null (none)."""
    return type(None) in get_args(PersonFields.model_fields[name].annotation)


#: the fields that never hold null: on PATCH, null for one of them changes nothing
NOT_NULL = tuple(name for name in PERSON_FIELDS if not _nullable(name))


def _field(name: str, way: str) -> tuple[Any, Any]:
    """The API model field for the person field ``name``: its type and default from
    ``store.PersonFields``, its limits and description for the schema. ``way``: ``in``
    (POST: the store's defaults, ``key`` and ``name`` required), ``patch`` (every field
    optional: what is given changes) or ``out``."""
    model = PersonFields.model_fields[name]
    kind: Any = model.annotation
    if name == "team_id":
        kind = RefId | None if way != "out" else int | None
    elif name == "active":
        kind = bool  # JSON true / false (the store's field is strict about it)
    limits = _limits(name) if name in NUMBER_RULES or name in TEXT_LONGEST else None
    spec: dict[str, Any] = {"description": FIELD_DOCS.get(name), "json_schema_extra": limits}
    if way == "patch":
        return kind | None, Field(default=None, **spec)
    if way == "out" or name in REQUIRED:
        return kind, Field(**spec)
    return kind, Field(default=model.default, **spec)


def _person_model(
    name: str, way: str, doc: str, first: dict[str, Any] | None = None, **more: Any
) -> type[Body]:
    """An API model with the fields ``first``, one for each of ``store.PERSON_FIELDS``, then
    ``more``."""
    fields = {**(first or {}), **{f: _field(f, way) for f in PERSON_FIELDS}, **more}
    made: type[Body] = create_model(name, __base__=Body, __doc__=doc, **fields)
    return made


# The person models of the API, made from the store's one model of a person's fields
# (store.PersonFields): a field added there is in the API, its schema and its checks. The
# store checks every value (the same words whichever door it came in by).
if TYPE_CHECKING:
    PersonOut = Body
    PersonIn = Body
    PersonPatch = Body
else:
    PersonOut = _person_model("PersonOut", "out", "A person's fields.", first={"id": (int, ...)})
    PersonIn = _person_model(
        "PersonIn",
        "in",
        "A new person: `key` and `name`, the other fields as they default.",
        skills=(
            dict[str, Annotated[int, Field(ge=0, le=4)]],
            Field(default_factory=dict, description="Skill domain id to proficiency (0 none ... 4 expert)."),
        ),
    )
    PersonPatch = _person_model("PersonPatch", "patch", "The fields to change: those given change.")


class SkillIn(Body):
    proficiency: int = Field(ge=0, le=4, description="0 none ... 4 expert.")
    note: str = Field(default="", max_length=1000)
    evidence_url: str = Field(
        default="",
        max_length=2000,
        description="A link to evidence (a badge, a transcript): shown to whoever approves a "
        "record the person made for themself.",
    )


class CertificationIn(Body):
    cert_id: str = Field(min_length=1, max_length=100, description="Catalog certification id.")
    valid_from: Day
    valid_until: Day | None = Field(default=None, description="Default: from its validity.")
    evidence: str = Field(default="", max_length=2000)
    evidence_url: str = Field(
        default="",
        max_length=2000,
        description="A link to evidence (a badge, a transcript): shown to whoever approves a "
        "record the person made for themself.",
    )


class EnrolmentIn(Body):
    course_id: str | None = Field(
        default=None, min_length=1, max_length=100, description="A catalog course id (or give path_id)."
    )
    path_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="A catalog learning path id: enrols in each of "
        "its courses not already open (the answer lists them).",
    )
    started_on: Day
    hours_done: float = Field(
        default=0,
        ge=0,
        le=10000,
        description="At most the course's catalog hours times the course-hours factor (1.5).",
    )


class HoursIn(Body):
    hours_done: float = Field(ge=0, le=10000)
    completed_on: Day | None = None
    evidence_url: str = Field(
        default="",
        max_length=2000,
        description="A link to evidence (a badge, a transcript): shown to whoever approves a "
        "record the person made for themself.",
    )


class RoadmapPatch(Body):
    status: str | None = Field(default=None, pattern="^(planned|in-progress|done|cancelled)$")
    done_on: Day | None = None


def _visible(who: Principal, s: Any, person_id: int, request: Request) -> Any:
    """The person, if in this server's organisation and readable by ``who``; else 404."""
    p = services.person_in_org(request.app, s, person_id)
    if p is None or not who.may_read_person(p.id, p.team_id):
        raise not_found("person")
    return p


def _team(request: Request, s: Any, team_id: int) -> Any:
    """The team, if in this server's organisation; else 404."""
    team = services.team_in_org(request.app, s, team_id)
    if team is None:
        raise not_found("team")
    return team


def _check_team(who: Principal, team_id: int | None) -> None:
    if who.role != "admin" and (team_id is None or not who.may_team(team_id)):
        raise forbid(N_("managers may only place people in their own teams"))


@router.get("/people", response_model=list[PersonOut], summary="List people")
def list_people(
    request: Request,
    who: Reader,
    ch: Annotated[Chosen, Depends(chosen)],
    team_id: Annotated[
        int | None, Query(ge=1, le=MAX_ID, description=("The same as `team` (kept for older callers)."))
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
) -> list[dict[str, Any]]:
    """People the caller may see: everyone (admin), their teams (manager), themself
    (engineer); filtered by team, role (`none`: without one), level, status (active,
    inactive or all) and search, sorted by `sort` (name, key, level, role or team) in
    `dir` order."""
    sort = ch.sort_by(store.PEOPLE_SORTS)
    where = visible(who, ch.filter())
    if where is None:
        return []
    if team_id is not None and where.team_id is None:
        where = replace(where, team_id=team_id)
    with db(request).read_session() as s:
        org = services.org_id(request.app, s)
        # the whole list's rows as JSON, once per data version, filter and order: the same
        # fields as PersonOut (not validated again on the way out); a page is a slice
        rows = services.people_json(request.app, s, org, where, sort, ch.descending)
    body = b"[" + b",".join(rows[offset : offset + limit]) + b"]"
    return Response(body, media_type="application/json")  # type: ignore[return-value]


@router.post("/people", response_model=PersonOut, status_code=201, summary="Add a person")
def add_person(request: Request, body: PersonIn, who: Writer, response: Response) -> dict[str, Any]:
    fields = body.model_dump()
    skills: dict[str, int] = fields.pop("skills")
    _check_team(who, fields["team_id"])
    with db(request).session() as s:
        org = services.org_id(request.app, s)
        if fields["team_id"] is not None:
            _team(request, s, fields["team_id"])
        p = store.add_person(s, org, actor=actor(who), catalog=services.catalog(request.app), **fields)
        for domain, prof in skills.items():
            _known_domain(request, domain)
            store.rate_skill(s, p.id, domain, prof, rated_by=actor(who))
        response.headers["Location"] = f"/api/v1/people/{p.id}"
        return services.person_summary(p)


@router.get(
    "/people/{person_id}", summary="A person with skills, certifications, enrolments, roadmap and progress"
)
def get_person(request: Request, person_id: PathId, who: Reader) -> dict[str, Any]:
    import json

    day = today(request)
    with db(request).read_session() as s:
        p = _visible(who, s, person_id, request)
        # the same for every caller allowed to see this person: once per data version
        body = services.cached_text(
            request.app,
            ("person.json", services.data_version(s), p.id, day),
            lambda: json.dumps(
                services.person_detail(request.app, s, p, day), separators=(",", ":")
            ).encode(),
        )
    return Response(body, media_type="application/json")  # type: ignore[return-value]


@router.patch("/people/{person_id}", response_model=PersonOut, summary="Change a person")
def update_person(request: Request, person_id: PathId, body: PersonPatch, who: Writer) -> dict[str, Any]:
    changes = body.model_dump(exclude_unset=True)
    with db(request).session() as s:
        p = _visible(who, s, person_id, request)
        if not who.may_change_person(p.id, p.team_id):
            raise forbid()
        if "team_id" in changes:
            _check_team(who, changes["team_id"])
            if changes["team_id"] is not None:
                _team(request, s, changes["team_id"])
        for k in NOT_NULL:
            if k in changes and changes[k] is None:
                changes.pop(k)
        p = store.update_person(s, p.id, changes, actor=actor(who), catalog=services.catalog(request.app))
        return services.person_summary(p)


@router.delete("/people/{person_id}", status_code=204, summary="Delete a person")
def delete_person(request: Request, person_id: PathId, who: Writer) -> Response:
    with db(request).session() as s:
        p = _visible(who, s, person_id, request)
        if not who.may_change_person(p.id, p.team_id):
            raise forbid()
        store.delete_person(s, p.id, actor=actor(who))
    return Response(status_code=204)


def _known_domain(request: Request, domain: str) -> None:
    cat = services.catalog(request.app)
    if domain not in cat.domains:
        raise InputError(
            [
                Problem(
                    path="domain",
                    message=gettext("unknown skill domain"),
                    found=domain,
                    expected=gettext("a catalog domain id"),
                )
            ]
        )


#: what a record someone made for themself answers: waiting for approval, counted nowhere yet
PENDING: dict[int | str, dict[str, Any]] = {
    202: {"description": "Recorded as pending: waits for a manager of the person's team or an admin."}
}


def _pending(response: Response, approval: Any) -> dict[str, Any]:
    response.status_code = 202
    return {"status": "pending", "approval": store.approval_json(approval)}


@router.put(
    "/people/{person_id}/skills/{domain}",
    summary="Rate a skill (history kept); one's own rating waits for approval",
    responses=PENDING,
)
def rate_skill(
    request: Request, person_id: PathId, domain: str, body: SkillIn, who: Recorder, response: Response
) -> dict[str, Any]:
    with db(request).session() as s:
        p = _visible(who, s, person_id, request)
        if not who.may_change_records(p.id, p.team_id):
            raise forbid(N_("only admins, the person's managers and the person rate skills"))
        _known_domain(request, domain)
        if who.needs_approval(p.id):
            pending = store.request_skill(
                s,
                p.id,
                domain,
                body.proficiency,
                note=body.note,
                evidence_url=body.evidence_url,
                actor=actor(who),
            )
            return _pending(response, pending)
        r = store.rate_skill(s, p.id, domain, body.proficiency, rated_by=actor(who), note=body.note)
        return {
            "person_id": p.id,
            "domain": r.domain,
            "proficiency": r.proficiency,
            "rated_at": r.rated_at.isoformat(),
        }


@router.get("/people/{person_id}/certifications", summary="Certifications held")
def list_certifications(request: Request, person_id: PathId, who: Reader) -> list[dict[str, Any]]:
    with db(request).session() as s:
        p = _visible(who, s, person_id, request)
        return list(services.person_detail(request.app, s, p, today(request))["certifications"])


@router.post(
    "/people/{person_id}/certifications",
    status_code=201,
    summary="Record a certification held; one's own waits for approval",
    responses=PENDING,
)
def add_certification(
    request: Request, person_id: PathId, body: CertificationIn, who: Recorder, response: Response
) -> dict[str, Any]:
    with db(request).session() as s:
        p = _visible(who, s, person_id, request)
        if not who.may_change_records(p.id, p.team_id):
            raise forbid()
        if who.needs_approval(p.id):
            pending = store.request_certification(
                s,
                p.id,
                body.cert_id,
                body.valid_from,
                body.valid_until,
                evidence=body.evidence,
                evidence_url=body.evidence_url,
                catalog=services.catalog(request.app),
                actor=actor(who),
            )
            return _pending(response, pending)
        held = store.add_certification(
            s,
            p.id,
            body.cert_id,
            body.valid_from,
            body.valid_until,
            evidence=body.evidence,
            catalog=services.catalog(request.app),
            actor=actor(who),
        )
        return {
            "id": held.id,
            "cert_id": held.cert_id,
            "valid_from": held.valid_from.isoformat(),
            "valid_until": held.valid_until.isoformat() if held.valid_until else None,
            "status": store.cert_status(held, today(request)),
        }


@router.delete("/certifications/{held_id}", status_code=204, summary="Remove a certification record")
def remove_certification(request: Request, held_id: PathId, who: Recorder) -> Response:
    with db(request).session() as s:
        owner = store.record_person(s, "certification", held_id)
        if owner is None:
            raise not_found("certification")
        p = _visible(who, s, owner, request)
        if not who.may_change_records(p.id, p.team_id):
            raise forbid()
        store.remove_certification(s, held_id, actor=actor(who))
    return Response(status_code=204)


@router.get("/people/{person_id}/enrolments", summary="Course enrolments with progress")
def list_enrolments(request: Request, person_id: PathId, who: Reader) -> list[dict[str, Any]]:
    with db(request).session() as s:
        p = _visible(who, s, person_id, request)
        return list(services.person_detail(request.app, s, p, today(request))["enrolments"])


@router.post(
    "/people/{person_id}/enrolments",
    status_code=201,
    summary="Enrol in a course; hours one records for oneself wait for approval",
)
def enrol(request: Request, person_id: PathId, body: EnrolmentIn, who: Recorder) -> dict[str, Any]:
    with db(request).session() as s:
        p = _visible(who, s, person_id, request)
        if not who.may_change_records(p.id, p.team_id):
            raise forbid()
        courses = store.courses_of(services.catalog(request.app), body.course_id, body.path_id)
        if body.path_id is not None:
            made = store.enrol_people(s, p.org_id, [p.id], courses, body.started_on, actor=actor(who))
            return {
                "path_id": body.path_id,
                "already": made["already"],
                "enrolments": [
                    {
                        "id": e.id,
                        "course_id": e.course_id,
                        "started_on": e.started_on.isoformat(),
                        "hours_done": e.hours_done,
                    }
                    for e in made["created"]
                ],
            }
        catalog = services.catalog(request.app)
        store.check_hours(catalog, courses[0], body.hours_done)
        own = who.needs_approval(p.id) and body.hours_done > 0
        e = store.enrol(
            s,
            p.id,
            courses[0],
            body.started_on,
            hours_done=0.0 if own else body.hours_done,
            actor=actor(who),
            catalog=catalog,
        )
        out: dict[str, Any] = {
            "id": e.id,
            "course_id": e.course_id,
            "started_on": e.started_on.isoformat(),
            "hours_done": e.hours_done,
        }
        if own:  # enrolled now; the hours wait for approval
            pending = store.request_hours(s, e.id, body.hours_done, catalog=catalog, actor=actor(who))
            out["approval"] = store.approval_json(pending)
        return out


@router.patch(
    "/enrolments/{enrolment_id}",
    summary="Record hours done (a total, at most the course's hours times 1.5); "
    "completed_on marks it done, and the person's roadmap items for the course; "
    "one's own hours wait for approval",
    responses=PENDING,
)
def record_hours(
    request: Request, enrolment_id: PathId, body: HoursIn, who: Recorder, response: Response
) -> dict[str, Any]:
    with db(request).session() as s:
        owner = store.record_person(s, "enrolment", enrolment_id)
        if owner is None:
            raise not_found("enrolment")
        p = _visible(who, s, owner, request)
        if not who.may_change_records(p.id, p.team_id):
            raise forbid()
        catalog = services.catalog(request.app)
        if who.needs_approval(p.id):
            pending = store.request_hours(
                s,
                enrolment_id,
                body.hours_done,
                completed_on=body.completed_on,
                evidence_url=body.evidence_url,
                catalog=catalog,
                actor=actor(who),
            )
            return _pending(response, pending)
        e = store.record_hours(
            s,
            enrolment_id,
            body.hours_done,
            completed_on=body.completed_on,
            actor=actor(who),
            catalog=catalog,
        )
        return {
            "id": e.id,
            "hours_done": e.hours_done,
            "completed_on": e.completed_on.isoformat() if e.completed_on else None,
        }


@router.get("/people/{person_id}/roadmap", summary="Roadmap items and progress")
def roadmap(request: Request, person_id: PathId, who: Reader) -> dict[str, Any]:
    with db(request).session() as s:
        p = _visible(who, s, person_id, request)
        d = services.person_detail(request.app, s, p, today(request))
        return {"person_id": p.id, "items": d["roadmap"], "progress": d["progress"]}


@router.patch("/roadmap-items/{item_id}", summary="Mark roadmap progress")
def update_roadmap_item(
    request: Request, item_id: PathId, body: RoadmapPatch, who: Recorder
) -> dict[str, Any]:
    changes = body.model_dump(exclude_unset=True, exclude_none=True)
    with db(request).session() as s:
        owner = store.record_person(s, "roadmap item", item_id)
        if owner is None:
            raise not_found("roadmap item")
        p = _visible(who, s, owner, request)
        if not who.may_change_records(p.id, p.team_id):
            raise forbid()
        if changes.get("status") == "done" and "done_on" not in changes:
            changes["done_on"] = today(request)
        item = store.update_roadmap_item(s, item_id, changes, actor=actor(who))
        return {
            "id": item.id,
            "status": item.status,
            "done_on": item.done_on.isoformat() if item.done_on else None,
        }
