"""data versions (a counter of tracked-data commits, for caches of derived views); an
index in the people list's order

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "data_versions",
        sa.Column("scope", sa.String(length=30), nullable=False),
        sa.Column("n", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("scope", name=op.f("pk_data_versions")),
    )
    op.bulk_insert(table, [{"scope": "tracked", "n": 0}, {"scope": "accounts", "n": 0}])
    op.create_index("ix_people_org_name", "people", ["org_id", "name", "id"])


def downgrade() -> None:
    op.drop_index("ix_people_org_name", table_name="people")
    op.drop_table("data_versions")
