"""a person's e-mail is unique in the organisation, whatever its case: a unique index on
(org_id, lower(email)) for people with an e-mail, so two requests adding the same address
at once cannot both succeed (the store's own check reads before it writes)

Existing duplicates are not merged or changed: the upgrade stops, naming each address and
the people who share it, and nothing is migrated; once each has their own address (or
none) the upgrade runs again.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

INDEX = "uq_people_org_email"


def _duplicates(conn: sa.Connection) -> list[tuple[str, str, list[str]]]:
    """(organisation, address, people's ids) for each address the index would refuse."""
    rows = conn.execute(
        sa.text(
            "SELECT o.name, lower(p.email), p.key FROM people p JOIN organisations o ON o.id = p.org_id "
            "WHERE p.email IS NOT NULL AND (p.org_id, lower(p.email)) IN ("
            " SELECT org_id, lower(email) FROM people WHERE email IS NOT NULL"
            " GROUP BY org_id, lower(email) HAVING count(*) > 1) "
            "ORDER BY o.name, lower(p.email), p.key"
        )
    ).all()
    groups: dict[tuple[str, str], list[str]] = {}
    for org, email, key in rows:
        groups.setdefault((org, email), []).append(key)
    return [(org, email, keys) for (org, email), keys in groups.items()]


def upgrade() -> None:
    duplicates = _duplicates(op.get_bind())
    if duplicates:
        from gputeam.errors import Problem
        from gputeam.store.errors import StoreError

        raise StoreError(
            [
                Problem(
                    path=f"people.email (organisation {org!r})",
                    message="the same e-mail address for more than one person: cannot make "
                    "e-mail addresses unique (migration 0008); nothing was changed",
                    found=f"{email} for people {', '.join(keys)}",
                    expected="one person per address: change or clear the others' e-mail, "
                    "then run `gputeam db upgrade` again",
                )
                for org, email, keys in duplicates
            ]
        )
    op.create_index(
        INDEX,
        "people",
        ["org_id", sa.text("lower(email)")],
        unique=True,
        sqlite_where=sa.text("email IS NOT NULL"),
        postgresql_where=sa.text("email IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index(INDEX, table_name="people")
