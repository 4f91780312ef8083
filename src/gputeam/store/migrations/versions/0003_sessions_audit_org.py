"""server-side sessions (revocable); the organisation of each audit entry

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("sid_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_sessions_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
        sa.UniqueConstraint("sid_hash", name=op.f("uq_sessions_sid_hash")),
    )
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sessions_user_id"), ["user_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_sessions_expires_at"), ["expires_at"], unique=False)
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.add_column(sa.Column("org_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_audit_log_org_id"), ["org_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_audit_log_org_id_organisations"),
            "organisations",
            ["org_id"],
            ["id"],
            ondelete="CASCADE",
        )
    _backfill_audit_orgs()


def _backfill_audit_orgs() -> None:
    """Give existing audit entries their organisation, as far as the rows tell it (the
    same derivation as ``gputeam.store.audit.record``, written out here so that this
    migration does not change when the code does)."""
    conn = op.get_bind()
    orgs = [r[0] for r in conn.execute(sa.text("SELECT id FROM organisations"))]
    if not orgs:
        return
    people: dict[int, int] = {r[0]: r[1] for r in conn.execute(sa.text("SELECT id, org_id FROM people"))}
    scenarios: dict[int, int] = {
        r[0]: r[1] for r in conn.execute(sa.text("SELECT id, org_id FROM scenarios"))
    }
    rows = conn.execute(
        sa.text(
            "SELECT id, entity, entity_id, before, after FROM audit_log "
            "WHERE entity NOT IN ('user', 'user_teams', 'api_token', "
            "'session')"
        )
    ).all()
    for row in rows:
        org = _org_of(row, orgs, people, scenarios)
        if org is not None:
            conn.execute(sa.text("UPDATE audit_log SET org_id = :o WHERE id = :i"), {"o": org, "i": row.id})


def _org_of(row: Any, orgs: list[int], people: dict[int, int], scenarios: dict[int, int]) -> int | None:
    if len(orgs) == 1:
        return orgs[0]
    if row.entity in ("organisation", "roster", "certifications"):
        return int(row.entity_id) if row.entity_id and row.entity_id.isdigit() else None
    for snap in (row.after, row.before):
        if isinstance(snap, str):
            snap = json.loads(snap)
        if not isinstance(snap, dict):
            continue
        if isinstance(snap.get("org_id"), int):
            return int(snap["org_id"])
        if snap.get("person_id") in people:
            return people[snap["person_id"]]
        if snap.get("scenario_id") in scenarios:
            return scenarios[snap["scenario_id"]]
    return None


def downgrade() -> None:
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_audit_log_org_id_organisations"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_audit_log_org_id"))
        batch_op.drop_column("org_id")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sessions_expires_at"))
        batch_op.drop_index(batch_op.f("ix_sessions_user_id"))
    op.drop_table("sessions")
