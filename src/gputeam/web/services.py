"""What pages and API share: each function builds one JSON-ready dict from the store and the
planner; the page renders it as HTML, the API returns it as JSON.

The live team (a :class:`~gputeam.scenario.Scenario` built from the database) and the latest
plan are cached per process, keyed by the database's data version (a counter every commit of
tracked data bumps; logins and account changes do not), so a change made through any
process is seen by every process on its next request.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.orm import Session as DbSession

from gputeam.catalog import Catalog
from gputeam.scenario import Constraints, Fleet, GpuStep, Scenario
from gputeam.store.audit import data_version
from gputeam.web import dashboard, heap

LIVE_SCENARIO = "live"
#: Used until someone saves a fleet: one small H100 cluster.
DEFAULT_INPUTS: dict[str, Any] = {
    "fleet": {"gpu_model": "H100", "gpus": [{"month": 1, "count": 64}]},
    "constraints": {},
    "horizon_months": 12,
    "mode": "template",
}


def catalog(app: FastAPI) -> Catalog:
    cache = app.state.catalog_cache
    if "catalog" not in cache:
        from gputeam.catalog import load_catalog

        extra = None
        path = app.state.settings.catalog_extra
        if path:
            from pathlib import Path

            from gputeam.cli.common import read_catalog_extra

            extra = read_catalog_extra(Path(path))
        cache["catalog"] = load_catalog(extra, file=path)
        heap.settle_soon()
    return cache["catalog"]  # type: ignore[no-any-return]


def org_id(app: FastAPI, s: DbSession) -> int:
    """The organisation this server tracks (the first one; created on first use)."""
    cached = app.state.catalog_cache.get("org_id")
    if cached is not None:
        return int(cached)
    from gputeam.store.people import get_or_create_organisation
    from gputeam.store.schema import Organisation

    first = s.scalar(select(Organisation.id).order_by(Organisation.id).limit(1))
    if first is None:
        first = get_or_create_organisation(s, app.state.settings.organisation).id
        s.flush()
    app.state.catalog_cache["org_id"] = first
    return int(first)


def person_in_org(app: FastAPI, s: DbSession, person_id: int) -> Any:
    """The person with this id in this server's organisation, else None."""
    from gputeam.store.people import find_person

    return find_person(s, org_id(app, s), person_id)


def team_in_org(app: FastAPI, s: DbSession, team_id: int) -> Any:
    """The team with this id in this server's organisation, else None."""
    from gputeam.store.people import find_team

    return find_team(s, org_id(app, s), team_id)


# ---------------------------------------------------------------- plan inputs
@dataclass(frozen=True)
class WhatIf:
    gpus: int | None = None
    deadline_month: int | None = None
    budget: float | None = None


def plan_inputs(s: DbSession, org: int) -> dict[str, Any]:
    """The saved fleet scenario of the live team (or the default one)."""
    from gputeam.store.plans import latest_scenario

    row = latest_scenario(s, org, LIVE_SCENARIO)
    inputs = dict(DEFAULT_INPUTS)
    if row is not None:
        inputs.update({k: v for k, v in row.inputs.items() if k in DEFAULT_INPUTS})
    return inputs


def apply_what_if(inputs: dict[str, Any], what: WhatIf) -> dict[str, Any]:
    out = {**inputs, "fleet": dict(inputs["fleet"]),
           "constraints": dict(inputs.get("constraints") or {})}
    if what.gpus is not None:
        steps = [dict(st) for st in out["fleet"]["gpus"]]
        peak = max(st["count"] for st in steps) or 1
        out["fleet"]["gpus"] = [{"month": st["month"],
                                 "count": max(0, round(st["count"] * what.gpus / peak))}
                                for st in steps] if peak else [{"month": 1, "count": what.gpus}]
        if max(st["count"] for st in out["fleet"]["gpus"]) != what.gpus:
            out["fleet"]["gpus"][-1]["count"] = what.gpus
    if what.deadline_month is not None:
        out["constraints"]["deadline_month"] = what.deadline_month
        out["horizon_months"] = max(int(out.get("horizon_months", 12)), what.deadline_month)
    if what.budget is not None:
        out["constraints"]["budget"] = what.budget
    return out


def _live_team(app: FastAPI, s: DbSession, today: date
               ) -> tuple[Scenario, list[dict[str, Any]]]:
    """The live team (read once per data version) and what of its stored data the catalog
    does not know (left out, each described: see ``team_scenario(notices=...)``)."""
    from gputeam.store.live import team_scenario

    org = org_id(app, s)
    start = today.replace(day=1)

    def build() -> tuple[Scenario, list[dict[str, Any]]]:
        from gputeam.errors import Problem

        notices: list[Problem] = []
        team = team_scenario(s, org, Fleet.model_validate(DEFAULT_INPUTS["fleet"]),
                             start=start, catalog=catalog(app), notices=notices)
        return team, [n.as_dict() for n in notices]

    return _cached(app.state.plan_cache,  # type: ignore[no-any-return]
                   ("team", data_version(s), start), build)


def data_problems(app: FastAPI, s: DbSession, today: date) -> list[dict[str, Any]]:
    """Stored values the catalog does not know, which plans and the dashboard leave out."""
    return _live_team(app, s, today)[1]


def live_scenario(app: FastAPI, s: DbSession, inputs: dict[str, Any], today: date
                  ) -> Scenario:
    """The live team planned against ``inputs``. The team part is read from the database
    once per data version; each what-if only swaps the fleet and constraints."""
    from gputeam.errors import Problem, ScenarioError

    team = _live_team(app, s, today)[0]
    fleet = Fleet.model_validate(inputs["fleet"])
    constraints = Constraints.model_validate(inputs.get("constraints") or {})
    horizon = int(inputs.get("horizon_months", 12))
    if not 1 <= horizon <= 120:
        raise ScenarioError([Problem(path="horizon_months", message="out of range",
                                     found=str(horizon), expected="1-120")])
    if constraints.deadline_month and constraints.deadline_month > horizon:
        raise ScenarioError([Problem(path="constraints.deadline_month",
                                     message="beyond the horizon",
                                     found=str(constraints.deadline_month),
                                     expected=f"<= horizon_months ({horizon})")])
    mode = str(inputs.get("mode", "template"))
    if mode not in ("template", "lean"):
        raise ScenarioError([Problem(path="mode", message="unknown mode", found=mode,
                                     expected="template or lean")])
    return team.model_copy(update={"fleet": fleet, "constraints": constraints,
                                   "horizon_months": horizon, "mode": mode})


_LOCK = threading.Lock()


def _remember(cache: dict[Any, Any], key: Any, value: Any, limit: int = 32) -> None:
    with _LOCK:
        while len(cache) >= limit:
            cache.pop(next(iter(cache)))
        cache[key] = value


#: (id of the cache, key) -> the lock held while that entry is being built.
_BUILDING: dict[tuple[int, Any], threading.Lock] = {}
_MISSING = object()


def _cached(cache: dict[Any, Any], key: Any, build: Callable[[], Any]) -> Any:
    """``cache[key]``, built by ``build()`` if missing. Single flight: when several threads
    miss the same key at once, one builds it and the others wait for its result instead
    of repeating the work. If the build raises, nothing is cached and a waiting thread
    tries again."""
    value = cache.get(key, _MISSING)
    if value is not _MISSING:
        return value
    with _LOCK:
        lock = _BUILDING.setdefault((id(cache), key), threading.Lock())
    try:
        with lock:
            value = cache.get(key, _MISSING)
            if value is _MISSING:
                value = build()
                _remember(cache, key, value)
                heap.settle_soon()  # long-lived from now on: keep it out of full collections
            return value
    finally:
        with _LOCK:
            if _BUILDING.get((id(cache), key)) is lock and not lock.locked():
                del _BUILDING[(id(cache), key)]


#: Rendered pages and JSON documents kept per process (str / bytes: the garbage collector
#: does not walk them, so they cost no pause time); the oldest are dropped beyond this.
TEXT_CACHE_ENTRIES = 4096


def cached_text(app: FastAPI, key: Any, build: Callable[[], Any]) -> Any:
    """``build()`` (a str or bytes) cached under ``key``, which must name everything the
    text depends on (a data version, the day, who may see what)."""
    value = app.state.text_cache.get(key)
    if value is None:
        value = build()
        _remember(app.state.text_cache, key, value, TEXT_CACHE_ENTRIES)
    return value


#: Monte Carlo runs for a what-if preview (a saved plan gets the planner's default).
PREVIEW_RISK_RUNS = 200


def run_plan(app: FastAPI, s: DbSession, inputs: dict[str, Any], today: date,
             preview: bool = False) -> Any:
    """Plan the live team against ``inputs``. Raises InputError for bad inputs. A
    ``preview`` (what-if) runs fewer risk simulations so it redraws quickly."""
    from gputeam.planning import plan

    scenario = live_scenario(app, s, inputs, today)
    if preview:
        return plan(scenario, catalog(app), today, runs=PREVIEW_RISK_RUNS)
    return plan(scenario, catalog(app), today)


def save_plan(app: FastAPI, s: DbSession, inputs: dict[str, Any], plan: Any, today: date,
              actor: str) -> dict[str, Any]:
    from gputeam.store import plans

    org = org_id(app, s)
    row = plans.save_scenario(s, org, LIVE_SCENARIO, inputs, actor=actor)
    saved = plans.save_plan(s, row.id, plan.to_json(), today, actor=actor)
    return {"id": saved.id, "version": saved.version, "scenario_id": row.id}


def latest_plan(app: FastAPI, s: DbSession) -> tuple[Any, Any] | None:
    """The newest saved plan as a Plan model and its row (without the plan JSON, which
    is not loaded), or None. Looked up once per data version."""
    return _cached(app.state.plan_cache,  # type: ignore[no-any-return]
                   ("latest plan", data_version(s)), lambda: _latest_plan(app, s))


def _latest_plan(app: FastAPI, s: DbSession) -> tuple[Any, Any] | None:
    from sqlalchemy.orm import defer

    from gputeam.planning import Plan
    from gputeam.store.schema import SavedPlan, SavedScenario

    # the newest plan's row without its (large) JSON; the parsed Plan is cached by id
    row = s.scalar(select(SavedPlan).options(defer(SavedPlan.plan, raiseload=True))
                   .join(SavedScenario, SavedScenario.id == SavedPlan.scenario_id)
                   .where(SavedScenario.org_id == org_id(app, s))
                   .order_by(SavedPlan.created_at.desc(), SavedPlan.id.desc()).limit(1))
    if row is None:
        return None
    try:
        parsed = _cached(app.state.plan_cache, ("plan", row.id),
                         lambda: Plan.model_validate(_plan_json(s, row.id)))
    except ValueError:  # saved by an older gputeam with another plan shape
        return None
    return parsed, row


def _plan_json(s: DbSession, plan_id: int) -> Any:
    from gputeam.store.schema import SavedPlan

    return s.scalar(select(SavedPlan.plan).where(SavedPlan.id == plan_id))


def dashboard_data(app: FastAPI, s: DbSession, today: date) -> dict[str, Any]:
    key = ("dashboard", data_version(s), today)
    return _cached(app.state.plan_cache, key,  # type: ignore[no-any-return]
                   lambda: _build_dashboard(app, s, today))


def _build_dashboard(app: FastAPI, s: DbSession, today: date) -> dict[str, Any]:
    latest = latest_plan(app, s)
    inputs = plan_inputs(s, org_id(app, s))
    scenario = live_scenario(app, s, inputs, today)
    data = dashboard.build(scenario, catalog(app), today, latest[0] if latest else None)
    data["data_problems"] = data_problems(app, s, today)
    if latest:
        data["plan"]["id"] = latest[1].id
        data["plan"]["version"] = latest[1].version
        data["plan"]["computed_for"] = latest[1].computed_for.isoformat()
    return data


def dashboard_for(app: FastAPI, s: DbSession, today: date, who: Any) -> dict[str, Any]:
    """The dashboard as ``who`` may see it: the figures are organisation-wide, but the
    expiring certificates name only people the caller may read (admin: everyone; manager:
    their teams; engineer: themself; viewer: nobody)."""
    data = dashboard_data(app, s, today)
    if who.sees_everyone():
        return data
    teams = person_teams(app, s)
    rows = []
    for row in data["expiring"]:
        pid, team = teams.get(row["person"], (None, None))
        if pid is not None and who.may_read_person(pid, team):
            rows.append(row)
        else:
            rows.append({**row, "person": None, "name": None})
    # stored values the catalog does not know: what, not whose (admins fix them)
    problems = [{**p, "path": None} for p in data.get("data_problems", [])]
    return {**data, "expiring": rows, "data_problems": problems}


def person_teams(app: FastAPI, s: DbSession) -> dict[str, tuple[int, int | None]]:
    """Person key to (id, team id) for the organisation, cached per data version."""
    from gputeam.store.schema import Person

    def build() -> dict[str, tuple[int, int | None]]:
        rows = s.execute(select(Person.key, Person.id, Person.team_id)
                         .where(Person.org_id == org_id(app, s)))
        return {k: (i, t) for k, i, t in rows}

    key = ("person_teams", data_version(s))
    return _cached(app.state.plan_cache, key, build)  # type: ignore[no-any-return]


def dashboard_json(app: FastAPI, s: DbSession, today: date, who: Any) -> bytes:
    """The dashboard as JSON; the full one (admins) is serialised once per data version
    (it lists every expiring certificate, so it can be large)."""
    import json

    if not who.sees_everyone():
        return json.dumps(dashboard_for(app, s, today, who), separators=(",", ":")).encode()
    data = dashboard_data(app, s, today)
    key = ("dashboard.json", id(data))
    entry = _cached(app.state.plan_cache, key,
                    lambda: (data, json.dumps(data, separators=(",", ":")).encode()))
    return entry[1]  # type: ignore[no-any-return]


def gpus_peak(inputs: dict[str, Any]) -> int:
    return max(GpuStep.model_validate(g).count for g in inputs["fleet"]["gpus"])


# ---------------------------------------------------------------- people
def person_summary(p: Any) -> dict[str, Any]:
    return {"id": p.id, "key": p.key, "name": p.name, "email": p.email, "title": p.title,
            "background": p.background, "level": p.level,
            "experience_months": p.experience_months,
            "weekly_study_hours": p.weekly_study_hours, "salary": p.salary, "role": p.role,
            "team_id": p.team_id, "active": p.active}


def _person_statements() -> tuple[Any, Any, Any]:
    """One person's certificates, enrolments and roadmap items, as plain rows: built once
    (the hottest page after the dashboard; ORM entities and per-request statement building
    were most of its cost)."""
    from sqlalchemy import bindparam

    from gputeam.store.schema import CertificationHeld, Enrolment, RoadmapItem

    pid = bindparam("pid")
    certs = (select(CertificationHeld.id, CertificationHeld.cert_id,
                    CertificationHeld.valid_from, CertificationHeld.valid_until,
                    CertificationHeld.evidence)
             .where(CertificationHeld.person_id == pid)
             .order_by(CertificationHeld.cert_id, CertificationHeld.valid_from))
    enrolments = (select(Enrolment.id, Enrolment.course_id, Enrolment.started_on,
                         Enrolment.hours_done, Enrolment.completed_on)
                  .where(Enrolment.person_id == pid)
                  .order_by(Enrolment.started_on, Enrolment.id))
    roadmap = (select(RoadmapItem.id, RoadmapItem.kind, RoadmapItem.ref, RoadmapItem.title,
                      RoadmapItem.start, RoadmapItem.due, RoadmapItem.status,
                      RoadmapItem.done_on, RoadmapItem.hours)
               .where(RoadmapItem.person_id == pid)
               .order_by(RoadmapItem.start, RoadmapItem.id))
    return certs, enrolments, roadmap


_PERSON_CERTS, _PERSON_ENROLMENTS, _PERSON_ROADMAP = _person_statements()


def person_detail(app: FastAPI, s: DbSession, p: Any, today: date) -> dict[str, Any]:
    """One person: record, current skills, certifications with status, enrolments with
    progress, roadmap items (tracked, or else the latest plan's) and overall progress."""
    from gputeam.store.certifications import cert_status
    from gputeam.store.people import current_skills

    cat = catalog(app)
    skills = current_skills(s, [p.id]).get(p.id, {})
    certs = [{"id": c.id, "cert_id": c.cert_id,
              "name": cat.certifications[c.cert_id].name if c.cert_id in cat.certifications
              else c.cert_id,
              "valid_from": c.valid_from.isoformat(),
              "valid_until": c.valid_until.isoformat() if c.valid_until else None,
              "status": cert_status(c, today), "evidence": c.evidence}
             for c in s.execute(_PERSON_CERTS, {"pid": p.id})]
    enrolments = []
    for e in s.execute(_PERSON_ENROLMENTS, {"pid": p.id}):
        course = cat.courses.get(e.course_id)
        total = course.hours if course and course.hours else None
        enrolments.append({
            "id": e.id, "course_id": e.course_id,
            "name": course.name if course else e.course_id,
            "started_on": e.started_on.isoformat(), "hours_done": e.hours_done,
            "hours_total": total,
            "completed_on": e.completed_on.isoformat() if e.completed_on else None,
            "progress": 1.0 if e.completed_on else
            (round(min(e.hours_done / total, 1.0), 3) if total else None)})
    items = [{"id": i.id, "kind": i.kind, "ref": i.ref, "title": i.title,
              "start": i.start.isoformat(), "due": i.due.isoformat(), "status": i.status,
              "done_on": i.done_on.isoformat() if i.done_on else None, "hours": i.hours,
              "overdue": i.status in ("planned", "in-progress") and i.due < today,
              "source": "tracked"}
             for i in s.execute(_PERSON_ROADMAP, {"pid": p.id})]
    if not items:
        latest = latest_plan(app, s)
        if latest is not None:
            for rm in latest[0].roadmaps:
                if rm.person == p.key and not rm.hire:
                    items = [{"id": None, "kind": it.kind, "ref": it.ref, "title": it.name,
                              "start": it.start.isoformat(), "due": it.end.isoformat(),
                              "status": "planned", "done_on": None, "hours": it.hours,
                              "overdue": False, "source": "plan"} for it in rm.items]
    live = [i for i in items if i["status"] != "cancelled"]
    done = sum(1 for i in live if i["status"] == "done")
    return {**person_summary(p), "skills": dict(sorted(skills.items())),
            "certifications": certs, "enrolments": enrolments, "roadmap": items,
            "progress": {"items": len(live), "done": done,
                         "share": round(done / len(live), 3) if live else None,
                         "overdue": sum(1 for i in live if i["overdue"])}}
