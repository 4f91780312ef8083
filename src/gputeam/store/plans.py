"""Saved scenarios (inputs) and the plans computed from them, both versioned."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gputeam.store import audit
from gputeam.store.errors import not_found
from gputeam.store.people import get_organisation
from gputeam.store.schema import SavedPlan, SavedScenario


def save_scenario(session: Session, org_id: int, name: str, inputs: Mapping[str, Any], *,
                  actor: str | None = None) -> SavedScenario:
    """Save scenario inputs (JSON-safe, e.g. ``Scenario.model_dump(mode="json")``) as the
    next version of ``name``."""
    get_organisation(session, org_id)
    last = session.scalar(select(func.max(SavedScenario.version))
                          .where(SavedScenario.org_id == org_id, SavedScenario.name == name))
    row = SavedScenario(org_id=org_id, name=name, version=(last or 0) + 1, inputs=dict(inputs),
                        created_by=actor)
    session.add(row)
    session.flush()
    audit.record(session, actor, "create", "scenario", row.id, None,
                 {"name": name, "version": row.version})
    return row


def get_scenario(session: Session, scenario_id: int) -> SavedScenario:
    row = session.get(SavedScenario, scenario_id)
    if row is None:
        raise not_found("scenario", scenario_id)
    return row


def latest_scenario(session: Session, org_id: int, name: str) -> SavedScenario | None:
    return session.scalar(select(SavedScenario)
                          .where(SavedScenario.org_id == org_id, SavedScenario.name == name)
                          .order_by(SavedScenario.version.desc()).limit(1))


def list_scenarios(session: Session, org_id: int, *, all_versions: bool = False
                   ) -> Sequence[SavedScenario]:
    """Saved scenarios by name; only the latest version of each unless ``all_versions``."""
    rows = session.scalars(select(SavedScenario).where(SavedScenario.org_id == org_id)
                           .order_by(SavedScenario.name, SavedScenario.version.desc())).all()
    if all_versions:
        return rows
    latest: dict[str, SavedScenario] = {}
    for r in rows:
        latest.setdefault(r.name, r)
    return list(latest.values())


def save_plan(session: Session, scenario_id: int, plan: Mapping[str, Any], computed_for: date,
              *, actor: str | None = None) -> SavedPlan:
    """Store a plan (``Plan.to_json()``) as the next version for the scenario."""
    get_scenario(session, scenario_id)
    last = session.scalar(select(func.max(SavedPlan.version))
                          .where(SavedPlan.scenario_id == scenario_id))
    row = SavedPlan(scenario_id=scenario_id, version=(last or 0) + 1, plan=dict(plan),
                    computed_for=computed_for, created_by=actor)
    session.add(row)
    session.flush()
    audit.record(session, actor, "create", "plan", row.id, None,
                 {"scenario_id": scenario_id, "version": row.version})
    return row


def get_plan(session: Session, plan_id: int) -> SavedPlan:
    row = session.get(SavedPlan, plan_id)
    if row is None:
        raise not_found("plan", plan_id)
    return row


def latest_plan(session: Session, org_id: int, scenario_name: str | None = None
                ) -> SavedPlan | None:
    """The newest plan of the organisation (or of one scenario name)."""
    q = (select(SavedPlan).join(SavedScenario, SavedScenario.id == SavedPlan.scenario_id)
         .where(SavedScenario.org_id == org_id))
    if scenario_name is not None:
        q = q.where(SavedScenario.name == scenario_name)
    return session.scalar(q.order_by(SavedPlan.created_at.desc(), SavedPlan.id.desc()).limit(1))


def list_plans(session: Session, scenario_id: int) -> Sequence[SavedPlan]:
    return session.scalars(select(SavedPlan).where(SavedPlan.scenario_id == scenario_id)
                           .order_by(SavedPlan.version.desc())).all()
