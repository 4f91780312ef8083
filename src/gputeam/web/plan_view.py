"""The plan as pages and API see it: the live team's saved inputs, what-ifs on them, the
live team planned against them, and the latest saved plan (each read once per data
version; see :mod:`gputeam.web.cache`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from fastapi import FastAPI

from gputeam import store
from gputeam.scenario import Fleet, GpuStep, PlanInputs, Scenario
from gputeam.store import DbSession
from gputeam.tracker import Reach, shape_plan
from gputeam.web import cache
from gputeam.web.org import catalog, org_id
from gputeam.web.permissions import Principal

LIVE_SCENARIO = "live"
#: Used until someone saves a fleet: one small H100 cluster.
DEFAULT_INPUTS: dict[str, Any] = {
    "fleet": {"gpu_model": "H100", "gpus": [{"month": 1, "count": 64}]},
    "constraints": {},
    "horizon_months": 12,
    "mode": "template",
}
#: Monte Carlo runs for a what-if preview (a saved plan gets the planner's default).
PREVIEW_RISK_RUNS = 200


@dataclass(frozen=True)
class WhatIf:
    gpus: int | None = None
    deadline_month: int | None = None
    budget: float | None = None


def plan_inputs(s: DbSession, org: int) -> dict[str, Any]:
    """The saved fleet scenario of the live team (or the default one)."""
    row = store.latest_scenario(s, org, LIVE_SCENARIO)
    inputs = dict(DEFAULT_INPUTS)
    if row is not None:
        inputs.update({k: v for k, v in row.inputs.items() if k in DEFAULT_INPUTS})
    return inputs


def apply_what_if(inputs: dict[str, Any], what: WhatIf) -> dict[str, Any]:
    out = {**inputs, "fleet": dict(inputs["fleet"]), "constraints": dict(inputs.get("constraints") or {})}
    if what.gpus is not None:
        steps = [dict(st) for st in out["fleet"]["gpus"]]
        peak = max(st["count"] for st in steps) or 1
        out["fleet"]["gpus"] = (
            [{"month": st["month"], "count": max(0, round(st["count"] * what.gpus / peak))} for st in steps]
            if peak
            else [{"month": 1, "count": what.gpus}]
        )
        if max(st["count"] for st in out["fleet"]["gpus"]) != what.gpus:
            out["fleet"]["gpus"][-1]["count"] = what.gpus
    if what.deadline_month is not None:
        out["constraints"]["deadline_month"] = what.deadline_month
        out["horizon_months"] = max(int(out.get("horizon_months", 12)), what.deadline_month)
    if what.budget is not None:
        out["constraints"]["budget"] = what.budget
    return out


def gpus_peak(inputs: dict[str, Any]) -> int:
    return max(GpuStep.model_validate(g).count for g in inputs["fleet"]["gpus"])


def _live_team(app: FastAPI, s: DbSession, today: date) -> tuple[Scenario, list[dict[str, Any]]]:
    """The live team (read once per data version) and what of its stored data the catalog
    does not know (left out, each described: see ``team_scenario(notices=...)``)."""
    org = org_id(app, s)
    start = today.replace(day=1)

    def build() -> tuple[Scenario, list[dict[str, Any]]]:
        from gputeam.errors import Problem

        notices: list[Problem] = []
        team = store.team_scenario(
            s,
            org,
            Fleet.model_validate(DEFAULT_INPUTS["fleet"]),
            start=start,
            catalog=catalog(app),
            notices=notices,
        )
        return team, [n.as_dict() for n in notices]

    return cache.view(app, ("team", store.data_version(s), start), build)


def data_problems(app: FastAPI, s: DbSession, today: date) -> list[dict[str, Any]]:
    """Stored values the catalog does not know, which plans and the dashboard leave out."""
    return _live_team(app, s, today)[1]


def live_scenario(app: FastAPI, s: DbSession, inputs: dict[str, Any], today: date) -> Scenario:
    """The live team planned against ``inputs`` (validated as :class:`PlanInputs`; raises
    ScenarioError naming each bad field). The team part is read from the database once per
    data version; each what-if only swaps the fleet, constraints, horizon and mode."""
    return PlanInputs.parse(inputs).apply_to(_live_team(app, s, today)[0])


def run_plan(app: FastAPI, s: DbSession, inputs: dict[str, Any], today: date, preview: bool = False) -> Any:
    """Plan the live team against ``inputs``. Raises InputError for bad inputs. A
    ``preview`` (what-if) runs fewer risk simulations so it redraws quickly."""
    from gputeam.planning import plan

    scenario = live_scenario(app, s, inputs, today)
    if preview:
        return plan(scenario, catalog(app), today, runs=PREVIEW_RISK_RUNS)
    return plan(scenario, catalog(app), today)


def save_plan(
    app: FastAPI, s: DbSession, inputs: dict[str, Any], plan: Any, today: date, actor: str
) -> dict[str, Any]:
    org = org_id(app, s)
    row = store.save_scenario(s, org, LIVE_SCENARIO, inputs, actor=actor)
    saved = store.save_plan(s, row.id, plan.to_json(), today, actor=actor)
    return {"id": saved.id, "version": saved.version, "scenario_id": row.id}


def latest_plan(app: FastAPI, s: DbSession) -> tuple[Any, Any] | None:
    """The newest saved plan as a Plan model and its row (without the plan JSON, which
    is not loaded), or None. Looked up once per data version."""
    return cache.view(app, ("latest plan", store.data_version(s)), lambda: _latest_plan(app, s))


def _latest_plan(app: FastAPI, s: DbSession) -> tuple[Any, Any] | None:
    from gputeam.planning import Plan

    # the newest plan's row without its (large) JSON; the parsed Plan is cached by id
    row = store.latest_plan_row(s, org_id(app, s))
    if row is None:
        return None
    try:
        parsed = cache.view(app, ("plan", row.id), lambda: Plan.model_validate(store.plan_json(s, row.id)))
    except ValueError:  # saved by an older gputeam with another plan shape
        return None
    return parsed, row


def caller_reach(app: FastAPI, s: DbSession, who: Principal) -> Reach:
    """Whose personal data ``who`` may see (:class:`gputeam.tracker.Reach`)."""
    from gputeam.web.dashboard_view import person_teams

    readable = who.readable_people()
    if readable == (None, None):
        return Reach(everyone=True)
    return Reach.of(readable, person_teams(app, s))


def plan_for(app: FastAPI, s: DbSession, plan: Any, who: Principal, saved: int | None = None) -> Any:
    """``plan`` (a Plan) as ``who`` may see it (:func:`gputeam.tracker.shape_plan`): every
    door that shows or hands out a plan passes it through here first. ``saved``: the
    plan's id when it is a saved one (its shaped forms are then kept, per reach)."""
    reach = caller_reach(app, s, who)
    if reach.everyone or saved is None:
        return shape_plan(plan, reach)
    return cache.shaped(app, ("plan", saved, reach), lambda: shape_plan(plan, reach))


def saved_plan_json(app: FastAPI, s: DbSession, plan_id: int, plan: dict[str, Any], who: Principal) -> Any:
    """A saved plan's JSON as ``who`` may see it: the stored document for those who see
    everyone, else the plan shaped to their reach (cached per plan and reach); None when
    it must be shaped but was saved by an older gputeam in a shape this one cannot read."""
    from gputeam.planning import Plan

    reach = caller_reach(app, s, who)
    if reach.everyone:
        return plan
    try:
        parsed = cache.view(app, ("plan", plan_id), lambda: Plan.model_validate(plan))
    except ValueError:
        return None
    return cache.shaped(app, ("json", plan_id, reach), lambda: shape_plan(parsed, reach).to_json())
