"""Dashboard, plans (run on the live team, what-if, save, adopt) and the catalog."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import Field

from gputeam import store
from gputeam.errors import InputError, Problem
from gputeam.i18n import N_, _
from gputeam.scenario import Constraints, Fleet, PlanInputs
from gputeam.scenario.models import Mode
from gputeam.web import plan_view, services
from gputeam.web.api.common import API_PREFIX, ERRORS, Body, PathId, actor, db, not_found, today
from gputeam.web.auth import require
from gputeam.web.permissions import Perm, Principal

router = APIRouter(prefix=API_PREFIX, responses=ERRORS)

Viewer = Annotated[Principal, Depends(require(Perm.DASHBOARD))]
PlanReader = Annotated[Principal, Depends(require(Perm.PLANS_READ))]
Planner = Annotated[Principal, Depends(require(Perm.PLANS_RUN))]
CatalogReader = Annotated[Principal, Depends(require(Perm.CATALOG))]


class WhatIfIn(Body):
    """A what-if on the inputs; the result is held to the scenario's rules
    (:class:`~gputeam.scenario.PlanInputs`: one home for every limit)."""

    gpus: int | None = Field(default=None, description="Peak GPU count.")
    deadline_month: int | None = Field(default=None, description="Plan month of the deadline.")
    budget: float | None = Field(default=None, description="Budget over the horizon.")


class PlanIn(Body):
    """Plan the live team. Omitted parts come from the last saved fleet scenario."""

    fleet: Fleet | None = None
    constraints: Constraints | None = None
    horizon_months: int | None = Field(default=None, description="Months to plan.")
    mode: Mode | None = None
    what_if: WhatIfIn = Field(default_factory=WhatIfIn)
    save: bool = Field(
        default=False,
        description="Save the inputs and the plan (a new version); the dashboard then measures against it.",
    )


@router.get(
    "/dashboard",
    tags=["dashboard"],
    summary="Coverage, compliance, expiries, bus factor, headcount and cost",
    response_class=Response,
    responses={200: {"content": {"application/json": {"schema": {"type": "object"}}}}},
)
def get_dashboard(request: Request, who: Viewer) -> Response:
    with db(request).read_session() as s:
        return Response(
            services.dashboard_json(request.app, s, today(request), who), media_type="application/json"
        )


@router.get("/plans/inputs", tags=["plans"], summary="The saved fleet scenario of the live team")
def plan_inputs(request: Request, who: PlanReader) -> dict[str, Any]:
    with db(request).session() as s:
        return services.plan_inputs(s, services.org_id(request.app, s))


def merged_inputs(base: dict[str, Any], body: PlanIn) -> dict[str, Any]:
    inputs = dict(base)
    if body.fleet is not None:
        inputs["fleet"] = body.fleet.model_dump(mode="json", exclude_defaults=True)
        inputs["fleet"]["gpus"] = [g.model_dump() for g in body.fleet.gpus]
    if body.constraints is not None:
        inputs["constraints"] = body.constraints.model_dump(mode="json", exclude_defaults=True)
    if body.horizon_months is not None:
        inputs["horizon_months"] = body.horizon_months
    if body.mode is not None:
        inputs["mode"] = body.mode
    w = body.what_if
    inputs = services.apply_what_if(inputs, services.WhatIf(w.gpus, w.deadline_month, w.budget))
    PlanInputs.parse(inputs)  # the scenario's rules (raises ScenarioError naming each field)
    return inputs


def plan_or_422(request: Request, s: Any, inputs: dict[str, Any], preview: bool) -> Any:
    try:
        return services.run_plan(request.app, s, inputs, today(request), preview=preview)
    except InputError:
        raise
    except (ValueError, OverflowError) as exc:  # accepted by the models, not plannable
        raise InputError(
            [Problem(path="", message=N_("cannot plan this scenario"), detail=str(exc))]
        ) from None


@router.post(
    "/plans", tags=["plans"], summary="Run the planner on the live team (what-if unless save is true)"
)
def run_plan(request: Request, body: PlanIn, who: Planner) -> dict[str, Any]:
    with db(request).session() as s:
        inputs = merged_inputs(services.plan_inputs(s, services.org_id(request.app, s)), body)
        plan = plan_or_422(request, s, inputs, preview=not body.save)
        shown = plan_view.plan_for(request.app, s, plan, who)
        out: dict[str, Any] = {"inputs": inputs, "plan": shown.to_json(), "saved": None}
        if body.save:
            out["saved"] = services.save_plan(request.app, s, inputs, plan, today(request), actor(who))
        return out


@router.get("/plans", tags=["plans"], summary="Saved plans, newest first")
def list_plans(request: Request, who: PlanReader) -> list[dict[str, Any]]:
    with db(request).session() as s:
        org = services.org_id(request.app, s)
        out: list[dict[str, Any]] = []
        for sc in store.list_scenarios(s, org, all_versions=True):
            for p in store.list_plans(s, sc.id):
                out.append(
                    {
                        "id": p.id,
                        "version": p.version,
                        "scenario": sc.name,
                        "scenario_version": sc.version,
                        "computed_for": p.computed_for.isoformat(),
                        "created_at": p.created_at.isoformat(),
                        "created_by": p.created_by,
                    }
                )
        out.sort(key=lambda r: r["id"], reverse=True)
        return out


@router.get("/plans/latest", tags=["plans"], summary="The newest saved plan")
def latest(request: Request, who: PlanReader) -> dict[str, Any]:
    with db(request).session() as s:
        row = store.latest_plan(s, services.org_id(request.app, s))
        if row is None:
            raise not_found("plan (none saved yet)")
        return _saved(request, s, row, who)


@router.get("/plans/{plan_id}", tags=["plans"], summary="One saved plan")
def get_plan(request: Request, plan_id: PathId, who: PlanReader) -> dict[str, Any]:
    with db(request).session() as s:
        row = store.find_plan(s, services.org_id(request.app, s), plan_id)
        if row is None:
            raise not_found("plan")
        return _saved(request, s, row, who)


def _saved(request: Request, s: Any, row: Any, who: Principal) -> dict[str, Any]:
    """A saved plan as ``who`` may see it (shaped to their reach: docs/web.md, Roles)."""
    plan = plan_view.saved_plan_json(request.app, s, row.id, row.plan, who)
    if plan is None:
        raise not_found("plan (saved by an older gputeam: only admins read it)")
    return {"id": row.id, "version": row.version, "plan": plan}


@router.post(
    "/plans/{plan_id}/adopt",
    tags=["plans"],
    summary="Turn a saved plan's roadmaps into tracked roadmap items",
)
def adopt(request: Request, plan_id: PathId, who: Planner) -> dict[str, Any]:
    if who.role != "admin":
        raise HTTPException(
            403,
            _(
                "only admins adopt a plan for the whole organisation; a team's manager adopts it "
                "for their own team with POST {path}"
            ).format(path=f"{API_PREFIX}/teams/{{team_id}}/adopt"),
        )
    with db(request).session() as s:
        # created: items added; already: items people had (adopting twice adds nothing);
        # hires: planned hires skipped; unknown: roadmap people not tracked here
        return store.adopt_saved_plan(s, services.org_id(request.app, s), plan_id, actor=actor(who))


# ---------------------------------------------------------------- catalog
@router.get("/catalog", tags=["catalog"], summary="Catalog sections and their entry counts")
def catalog_index(request: Request, who: CatalogReader) -> dict[str, Any]:
    cat = services.catalog(request.app)
    sections = {name: len(v) for name, v in cat if isinstance(v, dict | tuple)}
    return {"version": cat.version, "sections": sections}


@router.get("/catalog/{section}", tags=["catalog"], summary="One catalog section")
def catalog_section(request: Request, section: str, who: CatalogReader) -> Any:
    cat = services.catalog(request.app)
    data = cat.model_dump(mode="json")
    if section not in data or section == "version":
        raise not_found("catalog section")
    return data[section]
