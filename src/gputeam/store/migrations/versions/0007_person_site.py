"""people have an optional site (where they work; filters the lists and the skills matrix)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("people", schema=None) as batch_op:
        batch_op.add_column(sa.Column("site", sa.String(length=100), nullable=True))
        batch_op.create_index("ix_people_org_site", ["org_id", "site"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("people", schema=None) as batch_op:
        batch_op.drop_index("ix_people_org_site")
        batch_op.drop_column("site")
