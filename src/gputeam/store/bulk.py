"""Fast bulk inserts inside the session's transaction (imports of 100,000 rows).

PostgreSQL: ``COPY ... FROM STDIN`` through psycopg; SQLite: the driver's ``executemany``.
Values go through each column type's bind processor first (the UTC datetime handling and
SQLite's date/datetime storage), so rows read back exactly as ORM-written rows do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from sqlalchemy import Table, insert
from sqlalchemy.orm import Session

from gputeam.store.schema import Base


def bulk_insert(session: Session, model: type[Base], rows: Sequence[dict[str, Any]]) -> None:
    """Insert ``rows`` (dicts with the same keys) into ``model``'s table in the current
    transaction."""
    if not rows:
        return
    table = cast(Table, model.__table__)
    conn = session.connection()
    dialect = conn.dialect
    columns = list(rows[0])
    processors: list[Callable[[Any], Any] | None] = [
        table.c[c].type._cached_bind_processor(dialect) for c in columns
    ]
    if dialect.name not in ("postgresql", "sqlite"):
        conn.execute(insert(table), list(rows))
        return

    def memo(p: Callable[[Any], Any]) -> Callable[[Any], Any]:
        # imports repeat the same timestamp on every row: convert it once
        last: list[Any] = [object(), None]

        def process(v: Any) -> Any:
            if v is not last[0]:
                last[0], last[1] = v, p(v)
            return last[1]

        return process

    procs = [(c, memo(p) if p is not None else None) for c, p in zip(columns, processors, strict=True)]
    if all(p is None for _, p in procs):

        def values(row: dict[str, Any]) -> tuple[Any, ...]:
            return tuple(row[c] for c in columns)
    else:

        def values(row: dict[str, Any]) -> tuple[Any, ...]:
            return tuple(row[c] if p is None else p(row[c]) for c, p in procs)

    raw = conn.connection.driver_connection
    assert raw is not None
    names = ", ".join(f'"{c}"' for c in columns)
    if dialect.name == "postgresql":
        with raw.cursor() as cur, cur.copy(f'COPY "{table.name}" ({names}) FROM STDIN') as copy:
            for row in rows:
                copy.write_row(values(row))
        return
    marks = ", ".join("?" for _ in columns)
    cur = raw.cursor()
    try:
        cur.executemany(f'INSERT INTO "{table.name}" ({names}) VALUES ({marks})', [values(r) for r in rows])
    finally:
        cur.close()
