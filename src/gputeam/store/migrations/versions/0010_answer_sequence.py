"""exam answers carry a sequence number (the stored changes of the answer; a change from a
page shown with an older number is refused)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # an answer saved before: one stored change (a page shown before this revision carries
    # no numbers, and a save without one is not checked)
    with op.batch_alter_table("exam_answers", schema=None) as batch_op:
        batch_op.add_column(sa.Column("sequence", sa.Integer(), server_default=sa.text("1"), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("exam_answers", schema=None) as batch_op:
        batch_op.drop_column("sequence")
