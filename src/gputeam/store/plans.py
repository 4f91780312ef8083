"""Saved scenarios (inputs) and the plans computed from them, both versioned.

Versions are allocated as ``max(version) + 1`` under a lock on the parent row (the
organisation for scenarios, the scenario for plans), held until the caller's transaction
ends, so that concurrent saves (threads or processes) get consecutive versions instead of
one of them violating ``uq_scenarios_version`` / ``uq_plans_version``. Save as the last
step of a unit of work (after the planner ran): the lock lasts until it commits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, defer

from gputeam.store import audit
from gputeam.store.errors import not_found
from gputeam.store.schema import Organisation, SavedPlan, SavedScenario


def _lock_versions_of(session: Session, parent: Any, parent_id: int) -> bool:
    """Serialise version allocation under the ``parent`` row until this transaction ends;
    false if there is no such row (``parent``: a table, e.g. ``Organisation.__table__``).

    PostgreSQL: ``SELECT ... FOR NO KEY UPDATE`` of the row. Concurrent savers wait here
    and, under READ COMMITTED, then read the max including what the first one committed;
    inserts of other rows referencing the parent (``FOR KEY SHARE``) are not blocked.

    SQLite: a write to the row takes the database's write lock now, before the max is
    read, waiting up to the busy timeout for another writer to commit. Reading first and
    writing afterwards would either compute a stale max or, inside a transaction that
    already read, fail with "database is locked" (SQLITE_BUSY_SNAPSHOT, which the busy
    timeout does not wait out)."""
    if session.get_bind().dialect.name == "sqlite":
        done = session.execute(
            update(parent).where(parent.c.id == parent_id).values({parent.c.created_at: parent.c.created_at})
        )
        return bool(getattr(done, "rowcount", 0))
    return (
        session.scalar(select(parent.c.id).where(parent.c.id == parent_id).with_for_update(key_share=True))
        is not None
    )


def save_scenario(
    session: Session, org_id: int, name: str, inputs: Mapping[str, Any], *, actor: str | None = None
) -> SavedScenario:
    """Save scenario inputs (JSON-safe, e.g. ``Scenario.model_dump(mode="json")``) as the
    next version of ``name``."""
    if not _lock_versions_of(session, Organisation.__table__, org_id):
        raise not_found("organisation", org_id)
    last = session.scalar(
        select(func.max(SavedScenario.version)).where(
            SavedScenario.org_id == org_id, SavedScenario.name == name
        )
    )
    row = SavedScenario(
        org_id=org_id, name=name, version=(last or 0) + 1, inputs=dict(inputs), created_by=actor
    )
    session.add(row)
    session.flush()
    audit.record(session, actor, "create", "scenario", row.id, None, {"name": name, "version": row.version})
    return row


def get_scenario(session: Session, scenario_id: int) -> SavedScenario:
    row = session.get(SavedScenario, scenario_id)
    if row is None:
        raise not_found("scenario", scenario_id)
    return row


def latest_scenario(session: Session, org_id: int, name: str) -> SavedScenario | None:
    return session.scalar(
        select(SavedScenario)
        .where(SavedScenario.org_id == org_id, SavedScenario.name == name)
        .order_by(SavedScenario.version.desc())
        .limit(1)
    )


def list_scenarios(session: Session, org_id: int, *, all_versions: bool = False) -> Sequence[SavedScenario]:
    """Saved scenarios by name; only the latest version of each unless ``all_versions``."""
    rows = session.scalars(
        select(SavedScenario)
        .where(SavedScenario.org_id == org_id)
        .order_by(SavedScenario.name, SavedScenario.version.desc())
    ).all()
    if all_versions:
        return rows
    latest: dict[str, SavedScenario] = {}
    for r in rows:
        latest.setdefault(r.name, r)
    return list(latest.values())


def save_plan(
    session: Session,
    scenario_id: int,
    plan: Mapping[str, Any],
    computed_for: date,
    *,
    actor: str | None = None,
) -> SavedPlan:
    """Store a plan (``Plan.to_json()``) as the next version for the scenario."""
    if not _lock_versions_of(session, SavedScenario.__table__, scenario_id):
        raise not_found("scenario", scenario_id)
    last = session.scalar(select(func.max(SavedPlan.version)).where(SavedPlan.scenario_id == scenario_id))
    row = SavedPlan(
        scenario_id=scenario_id,
        version=(last or 0) + 1,
        plan=dict(plan),
        computed_for=computed_for,
        created_by=actor,
    )
    session.add(row)
    session.flush()
    audit.record(
        session, actor, "create", "plan", row.id, None, {"scenario_id": scenario_id, "version": row.version}
    )
    return row


def get_plan(session: Session, plan_id: int) -> SavedPlan:
    row = session.get(SavedPlan, plan_id)
    if row is None:
        raise not_found("plan", plan_id)
    return row


def latest_plan(session: Session, org_id: int, scenario_name: str | None = None) -> SavedPlan | None:
    """The newest plan of the organisation (or of one scenario name)."""
    q = (
        select(SavedPlan)
        .join(SavedScenario, SavedScenario.id == SavedPlan.scenario_id)
        .where(SavedScenario.org_id == org_id)
    )
    if scenario_name is not None:
        q = q.where(SavedScenario.name == scenario_name)
    return session.scalar(q.order_by(SavedPlan.created_at.desc(), SavedPlan.id.desc()).limit(1))


def latest_plan_row(session: Session, org_id: int) -> SavedPlan | None:
    """The organisation's newest plan without its (large) JSON, which raises if touched:
    read it with :func:`plan_json` when the parsed plan is not cached already."""
    return session.scalar(
        select(SavedPlan)
        .options(defer(SavedPlan.plan, raiseload=True))
        .join(SavedScenario, SavedScenario.id == SavedPlan.scenario_id)
        .where(SavedScenario.org_id == org_id)
        .order_by(SavedPlan.created_at.desc(), SavedPlan.id.desc())
        .limit(1)
    )


def find_plan(session: Session, org_id: int, plan_id: int) -> SavedPlan | None:
    """The saved plan with this id if it belongs to this organisation, else None."""
    return session.scalar(
        select(SavedPlan)
        .join(SavedScenario, SavedScenario.id == SavedPlan.scenario_id)
        .where(SavedPlan.id == plan_id, SavedScenario.org_id == org_id)
    )


def plan_json(session: Session, plan_id: int) -> Any:
    """One saved plan's JSON (``Plan.to_json()`` as saved), or None."""
    return session.scalar(select(SavedPlan.plan).where(SavedPlan.id == plan_id))


def list_plans(session: Session, scenario_id: int) -> Sequence[SavedPlan]:
    return session.scalars(
        select(SavedPlan).where(SavedPlan.scenario_id == scenario_id).order_by(SavedPlan.version.desc())
    ).all()
