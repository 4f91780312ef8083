"""sessions remember their last request (the idle timeout); approvals hold the records
people make for themselves until a manager or an admin approves them

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last_seen_at", sa.DateTime(), nullable=True))
    op.create_table(
        "approvals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("evidence_url", sa.String(length=2000), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("requested_by", sa.String(length=100), nullable=True),
        sa.Column("requested_at", sa.DateTime(), nullable=False),
        sa.Column("decided_by", sa.String(length=100), nullable=True),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("record_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("kind IN ('certification','skill','hours')", name=op.f("ck_approvals_kind")),
        sa.CheckConstraint("status IN ('pending','approved','rejected')", name=op.f("ck_approvals_status")),
        sa.ForeignKeyConstraint(
            ["person_id"], ["people.id"], name=op.f("fk_approvals_person_id_people"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_approvals")),
    )
    with op.batch_alter_table("approvals", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_approvals_person_id"), ["person_id"], unique=False)
        batch_op.create_index("ix_approvals_status_person", ["status", "person_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("approvals", schema=None) as batch_op:
        batch_op.drop_index("ix_approvals_status_person")
        batch_op.drop_index(batch_op.f("ix_approvals_person_id"))
    op.drop_table("approvals")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_column("last_seen_at")
