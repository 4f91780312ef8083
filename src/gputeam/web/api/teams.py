"""Teams: list, create (admin), read, rename and archive, assign people, enrol the team in
a course or learning path, adopt a saved plan's roadmaps for the team's people, and the
burn-up of plan against actual (also per person).

Who: admins act on every team; a manager on the teams they belong to (reading another
team answers 404, changing it 403); engineers and viewers only list the teams."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import Field

from gputeam import store
from gputeam.i18n import N_
from gputeam.web import services
from gputeam.web.api.common import (
    API_PREFIX,
    ERRORS,
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
from gputeam.web.permissions import Perm, Principal

router = APIRouter(prefix=API_PREFIX, tags=["teams"], responses=ERRORS)

Anyone = Annotated[Principal, Depends(require(Perm.DASHBOARD))]
Reader = Annotated[Principal, Depends(require(Perm.PEOPLE_READ))]
Manager = Annotated[Principal, Depends(require(Perm.TEAMS))]
Admin = Annotated[Principal, Depends(require(Perm.USERS))]


class TeamIn(Body):
    name: str = Field(min_length=1, max_length=200)


class TeamPatch(Body):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    archived: bool | None = Field(
        default=None, description="Archive (refused while active people are in the team) or restore."
    )


class MembersIn(Body):
    person_ids: list[RefId] = Field(min_length=1, max_length=1000)


class TeamEnrolmentIn(Body):
    course_id: str | None = Field(
        default=None, min_length=1, max_length=100, description="A catalog course id (or give path_id)."
    )
    path_id: str | None = Field(
        default=None, min_length=1, max_length=100, description="A catalog learning path id: all its courses."
    )
    started_on: Day


class TeamAdoptionIn(Body):
    plan_id: RefId = Field(description="A saved plan of the organisation (GET /plans).")


def team_json(t: Any, who: Principal) -> dict[str, Any]:
    return {"id": t.id, "name": t.name, "archived": t.archived_at is not None, "yours": t.id in who.team_ids}


def readable_team(request: Request, s: Any, who: Principal, team_id: int) -> Any:
    """The team if in this organisation and ``who`` may read its people; else 404."""
    team = services.team_in_org(request.app, s, team_id)
    if team is None or not who.can(Perm.PEOPLE_READ) or not who.may_team(team.id):
        raise not_found("team")
    return team


def manageable_team(request: Request, s: Any, who: Principal, team_id: int) -> Any:
    """The team if ``who`` may manage it; 404 if they may not see it, else 403."""
    team = readable_team(request, s, who, team_id)
    if not who.may_manage_team(team.id):
        raise forbid(N_("only admins and the team's managers manage a team"))
    return team


def movable_people(request: Request, s: Any, who: Principal, person_ids: list[int]) -> None:
    """Refuse people ``who`` may not move: 404 for one they may not see, 403 for one they
    may not change (a manager moves only people of their own teams)."""
    for pid in person_ids:
        p = services.person_in_org(request.app, s, pid)
        if p is None or not who.may_read_person(p.id, p.team_id):
            raise not_found("person")
        if not who.may_change_person(p.id, p.team_id):
            raise forbid(N_("you may not move this person"))


def team_detail(request: Request, s: Any, team: Any, who: Principal) -> dict[str, Any]:
    org = services.org_id(request.app, s)
    people = store.team_members(s, org, team.id)
    return {
        **team_json(team, who),
        "people": [services.person_summary(p) for p in people],
        "learning": store.learning_summary(s, org, today(request), team_id=team.id),
    }


@router.get("/teams", summary="Teams")
def teams(
    request: Request,
    who: Anyone,
    archived: Annotated[
        bool | None, Query(description="true: only archived; false: only current; absent: all")
    ] = None,
) -> list[dict[str, Any]]:
    with db(request).session() as s:
        org = services.org_id(request.app, s)
        return [team_json(t, who) for t in store.list_teams(s, org, archived=archived)]


@router.post("/teams", status_code=201, summary="Create a team (admin)")
def create_team(request: Request, body: TeamIn, who: Admin) -> dict[str, Any]:
    with db(request).session() as s:
        t = store.create_team(s, services.org_id(request.app, s), body.name, actor=actor(who))
        return team_json(t, who)


@router.get("/teams/{team_id}", summary="A team: its people and their learning progress")
def get_team(request: Request, team_id: PathId, who: Reader) -> dict[str, Any]:
    with db(request).session() as s:
        return team_detail(request, s, readable_team(request, s, who, team_id), who)


@router.patch("/teams/{team_id}", summary="Rename, archive or restore a team")
def update_team(request: Request, team_id: PathId, body: TeamPatch, who: Manager) -> dict[str, Any]:
    with db(request).session() as s:
        team = manageable_team(request, s, who, team_id)
        org = services.org_id(request.app, s)
        if body.name is not None:
            store.rename_team(s, org, team.id, body.name, actor=actor(who))
        if body.archived is not None:
            store.set_team_archived(s, org, team.id, body.archived, actor=actor(who))
        return team_json(team, who)


@router.post("/teams/{team_id}/people", summary="Move people into the team")
def assign(request: Request, team_id: PathId, body: MembersIn, who: Manager) -> dict[str, Any]:
    with db(request).session() as s:
        team = manageable_team(request, s, who, team_id)
        movable_people(request, s, who, body.person_ids)
        moved = store.assign_to_team(
            s, services.org_id(request.app, s), team.id, body.person_ids, actor=actor(who)
        )
        return {"team_id": team.id, "moved": [p.id for p in moved]}


@router.post(
    "/teams/{team_id}/enrolments",
    status_code=201,
    summary="Enrol the team's active people in a course or a learning path",
)
def enrol_team(request: Request, team_id: PathId, body: TeamEnrolmentIn, who: Manager) -> dict[str, Any]:
    courses = store.courses_of(services.catalog(request.app), body.course_id, body.path_id)
    with db(request).session() as s:
        team = manageable_team(request, s, who, team_id)
        org = services.org_id(request.app, s)
        people = [p.id for p in store.team_members(s, org, team.id, active=True)]
        result = store.enrol_people(s, org, people, courses, body.started_on, actor=actor(who))
        return {
            "team_id": team.id,
            "courses": courses,
            "created": [e.id for e in result["created"]],
            "already": result["already"],
        }


@router.post(
    "/teams/{team_id}/adopt",
    summary="Adopt a saved plan's roadmaps for the team's people",
    description="The plan's roadmap items of the team's people become their roadmap items (as "
    "adopting the plan for the whole organisation would give them; items they already have are "
    "not added again). Admins and the team's managers. Answers created, already (items the "
    "people had) and outside (the plan's roadmaps of anyone else: other teams' people, planned "
    "hires; left alone).",
)
def adopt_for_team(request: Request, team_id: PathId, body: TeamAdoptionIn, who: Manager) -> dict[str, Any]:
    with db(request).session() as s:
        team = manageable_team(request, s, who, team_id)
        got = store.adopt_saved_plan(
            s, services.org_id(request.app, s), body.plan_id, team_id=team.id, actor=actor(who)
        )
        return {"team_id": team.id, "plan_id": body.plan_id, **got}


@router.get("/teams/{team_id}/burnup", summary="Roadmap items planned against done, by month")
def team_burnup(request: Request, team_id: PathId, who: Reader) -> dict[str, Any]:
    with db(request).session() as s:
        team = readable_team(request, s, who, team_id)
        return store.burnup(s, services.org_id(request.app, s), today(request), team_id=team.id)


@router.get(
    "/people/{person_id}/burnup",
    tags=["people"],
    summary="A person's roadmap items planned against done, by month",
)
def person_burnup(request: Request, person_id: PathId, who: Reader) -> dict[str, Any]:
    with db(request).session() as s:
        p = services.person_in_org(request.app, s, person_id)
        if p is None or not who.may_read_person(p.id, p.team_id):
            raise not_found("person")
        return store.burnup(s, services.org_id(request.app, s), today(request), person_id=p.id)
