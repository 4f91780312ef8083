"""The dashboard as pages and API see it: built once per data version and day, then cut
down to what each caller may read."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from fastapi import FastAPI

from gputeam import store
from gputeam.store import DbSession
from gputeam.tracker import shape_salary_cost
from gputeam.web import cache, dashboard
from gputeam.web.org import catalog, org_id
from gputeam.web.plan_view import caller_reach, data_problems, latest_plan, live_scenario, plan_inputs


def dashboard_data(app: FastAPI, s: DbSession, today: date) -> dict[str, Any]:
    return cache.view(
        app, ("dashboard", store.data_version(s), today), lambda: _build_dashboard(app, s, today)
    )


def _build_dashboard(app: FastAPI, s: DbSession, today: date) -> dict[str, Any]:
    latest = latest_plan(app, s)
    inputs = plan_inputs(s, org_id(app, s))
    scenario = live_scenario(app, s, inputs, today)
    data = dashboard.build(scenario, catalog(app), today, latest[0] if latest else None)
    data["data_problems"] = data_problems(app, s, today)
    data["learning"] = store.learning_summary(s, org_id(app, s), today)  # active people's
    if latest:
        data["plan"]["id"] = latest[1].id
        data["plan"]["version"] = latest[1].version
        data["plan"]["computed_for"] = latest[1].computed_for.isoformat()
    return data


def dashboard_for(app: FastAPI, s: DbSession, today: date, who: Any) -> dict[str, Any]:
    """The dashboard as ``who`` may see it: the figures are organisation-wide, but the
    expiring and expired certificates name only people the caller may read (admin: everyone; manager:
    their teams; engineer: themself; viewer: nobody), and the salary cost is its total
    (:func:`gputeam.tracker.shape_salary_cost`)."""
    data = dashboard_data(app, s, today)
    if who.sees_everyone():
        return data
    teams = person_teams(app, s)

    def named(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for row in rows:
            pid, team = teams.get(row["person"], (None, None))
            if pid is not None and who.may_read_person(pid, team):
                out.append(row)
            else:
                out.append({**row, "person": None, "name": None})
        return out

    # stored values the catalog does not know: what, not whose (admins fix them)
    problems = [{**p, "path": None} for p in data.get("data_problems", [])]
    return {
        **data,
        "annual_salary_cost": shape_salary_cost(data["annual_salary_cost"], caller_reach(app, s, who)),
        "expiring": named(data["expiring"]),
        "expired": named(data["expired"]),
        "data_problems": problems,
    }


def person_teams(app: FastAPI, s: DbSession) -> dict[str, tuple[int, int | None]]:
    """Person key to (id, team id) for the organisation, cached per data version."""
    return cache.view(
        app, ("person_teams", store.data_version(s)), lambda: store.person_teams(s, org_id(app, s))
    )


def dashboard_json(app: FastAPI, s: DbSession, today: date, who: Any) -> bytes:
    """The dashboard as JSON; the full one (admins) is serialised once per data version
    (it lists every expiring certificate, so it can be large)."""
    if not who.sees_everyone():
        return json.dumps(dashboard_for(app, s, today, who), separators=(",", ":")).encode()
    data = dashboard_data(app, s, today)
    entry = cache.view(
        app, ("dashboard.json", id(data)), lambda: (data, json.dumps(data, separators=(",", ":")).encode())
    )
    return entry[1]
