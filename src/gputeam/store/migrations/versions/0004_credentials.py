"""Open Badges 3.0 credentials: sealed issuing keys per organisation, credentials issued

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "issuer_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("org_id", sa.Integer(), nullable=False),
        sa.Column("did", sa.String(length=200), nullable=False),
        sa.Column("sealed", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("retired_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_issuer_keys_org_id_organisations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_issuer_keys")),
        sa.UniqueConstraint("did", name=op.f("uq_issuer_keys_did")),
    )
    op.create_index(op.f("ix_issuer_keys_org_id"), "issuer_keys", ["org_id"], unique=False)
    op.create_table(
        "credentials_issued",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("org_id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=True),
        sa.Column("key_id", sa.Integer(), nullable=False),
        sa.Column("uuid", sa.String(length=36), nullable=False),
        sa.Column("achievement_id", sa.String(length=100), nullable=False),
        sa.Column("status_index", sa.Integer(), nullable=False),
        sa.Column("issued_at", sa.DateTime(), nullable=False),
        sa.Column("valid_until", sa.Date(), nullable=True),
        sa.Column("document", sa.JSON(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.Column("revoked_reason", sa.Text(), nullable=False),
        sa.CheckConstraint("status_index >= 0", name=op.f("ck_credentials_issued_status_index")),
        sa.ForeignKeyConstraint(
            ["key_id"],
            ["issuer_keys.id"],
            name=op.f("fk_credentials_issued_key_id_issuer_keys"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_credentials_issued_org_id_organisations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["person_id"],
            ["people.id"],
            name=op.f("fk_credentials_issued_person_id_people"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_credentials_issued")),
        sa.UniqueConstraint("key_id", "status_index", name="uq_credentials_issued_status"),
        sa.UniqueConstraint("uuid", name=op.f("uq_credentials_issued_uuid")),
    )
    op.create_index(op.f("ix_credentials_issued_org_id"), "credentials_issued", ["org_id"], unique=False)
    op.create_index(
        op.f("ix_credentials_issued_person_id"), "credentials_issued", ["person_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_credentials_issued_person_id"), table_name="credentials_issued")
    op.drop_index(op.f("ix_credentials_issued_org_id"), table_name="credentials_issued")
    op.drop_table("credentials_issued")
    op.drop_index(op.f("ix_issuer_keys_org_id"), table_name="issuer_keys")
    op.drop_table("issuer_keys")
