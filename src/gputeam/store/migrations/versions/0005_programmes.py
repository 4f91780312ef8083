"""internal certification programmes: programmes, versioned bank items, exam attempts and
answers, practical assessments, time accommodations (issue 11)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "programmes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("org_id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=100), nullable=False),
        sa.Column("spec", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organisations.id"],
            name=op.f("fk_programmes_org_id_organisations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_programmes")),
        sa.UniqueConstraint("org_id", "code", name="uq_programmes_org_code"),
    )
    op.create_index(op.f("ix_programmes_org_id"), "programmes", ["org_id"], unique=False)
    op.create_table(
        "bank_items",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("programme_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.String(length=100), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("qtype", sa.String(length=20), nullable=False),
        sa.Column("domain", sa.String(length=100), nullable=True),
        sa.Column("question", sa.JSON(), nullable=False),
        sa.Column("used", sa.Boolean(), nullable=False),
        sa.Column("drawn", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("retired_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["programme_id"],
            ["programmes.id"],
            name=op.f("fk_bank_items_programme_id_programmes"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bank_items")),
        sa.UniqueConstraint("programme_id", "item_id", "version", name="uq_bank_items_version"),
    )
    op.create_index("ix_bank_items_programme_item", "bank_items", ["programme_id", "item_id"], unique=False)
    op.create_table(
        "exam_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("programme_id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("form", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("deadline", sa.DateTime(), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("finished_how", sa.String(length=20), nullable=True),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("passed", sa.Boolean(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.CheckConstraint("state IN ('in_progress','finished')", name=op.f("ck_exam_attempts_state")),
        sa.ForeignKeyConstraint(
            ["person_id"], ["people.id"], name=op.f("fk_exam_attempts_person_id_people"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["programme_id"],
            ["programmes.id"],
            name=op.f("fk_exam_attempts_programme_id_programmes"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_exam_attempts")),
        sa.UniqueConstraint("programme_id", "person_id", "number", name="uq_exam_attempts_number"),
    )
    op.create_index(op.f("ix_exam_attempts_person_id"), "exam_attempts", ["person_id"], unique=False)
    op.create_index("ix_exam_attempts_state_deadline", "exam_attempts", ["state", "deadline"], unique=False)
    op.create_index(
        "uq_exam_attempts_open",
        "exam_attempts",
        ["programme_id", "person_id"],
        unique=True,
        sqlite_where=sa.text("state = 'in_progress'"),
        postgresql_where=sa.text("state = 'in_progress'"),
    )
    op.create_table(
        "exam_answers",
        sa.Column("attempt_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.String(length=100), nullable=False),
        sa.Column("response", sa.JSON(), nullable=True),
        sa.Column("saved_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["attempt_id"],
            ["exam_attempts.id"],
            name=op.f("fk_exam_answers_attempt_id_exam_attempts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("attempt_id", "item_id", name=op.f("pk_exam_answers")),
    )
    op.create_table(
        "practical_assessments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("programme_id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("assessor", sa.String(length=100), nullable=False),
        sa.Column("grades", sa.JSON(), nullable=False),
        sa.Column("outcome", sa.String(length=10), nullable=True),
        sa.Column("signed_at", sa.DateTime(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(
            "outcome IS NULL OR outcome IN ('pass','fail')", name=op.f("ck_practical_assessments_outcome")
        ),
        sa.ForeignKeyConstraint(
            ["person_id"],
            ["people.id"],
            name=op.f("fk_practical_assessments_person_id_people"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["programme_id"],
            ["programmes.id"],
            name=op.f("fk_practical_assessments_programme_id_programmes"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_practical_assessments")),
    )
    op.create_index(
        op.f("ix_practical_assessments_person_id"), "practical_assessments", ["person_id"], unique=False
    )
    op.create_index(
        op.f("ix_practical_assessments_programme_id"), "practical_assessments", ["programme_id"], unique=False
    )
    op.create_table(
        "exam_accommodations",
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("time_multiplier", sa.Float(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("set_by", sa.String(length=100), nullable=True),
        sa.Column("set_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("time_multiplier BETWEEN 1 AND 4", name=op.f("ck_exam_accommodations_multiplier")),
        sa.ForeignKeyConstraint(
            ["person_id"],
            ["people.id"],
            name=op.f("fk_exam_accommodations_person_id_people"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("person_id", name=op.f("pk_exam_accommodations")),
    )


def downgrade() -> None:
    op.drop_table("exam_accommodations")
    op.drop_table("practical_assessments")
    op.drop_table("exam_answers")
    op.drop_table("exam_attempts")
    op.drop_table("bank_items")
    op.drop_table("programmes")
