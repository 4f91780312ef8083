"""Plan against actual over time: the burn-up of a person's or a team's roadmap items.

For each month from the first item's start to the last due date (or today, if later):
``planned``, the items due by the month's end; ``done``, the items done by then (only up
to today: the future has no actual). Cancelled items and inactive people count for
neither."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from gputeam.store.schema import Person, RoadmapItem

#: At most this many months are drawn (the latest ones).
MAX_MONTHS = 60


def month_end(day: date) -> date:
    return (day.replace(day=1) + timedelta(days=32)).replace(day=1) - timedelta(days=1)


def burnup(
    session: Session, org_id: int, today: date, *, person_id: int | None = None, team_id: int | None = None
) -> dict[str, Any]:
    """``{"total": items, "points": [{"month": "YYYY-MM", "end", "planned", "done"}]}``
    (``done`` is None for months after today's)."""
    q = (
        select(RoadmapItem.due, RoadmapItem.start, RoadmapItem.status, RoadmapItem.done_on)
        .join(Person, Person.id == RoadmapItem.person_id)
        .where(Person.org_id == org_id, Person.active.is_(True), RoadmapItem.status != "cancelled")
    )
    if person_id is not None:
        q = q.where(Person.id == person_id)
    if team_id is not None:
        q = q.where(Person.team_id == team_id)
    rows = session.execute(q).all()
    if not rows:
        return {"total": 0, "points": []}
    dues = sorted(r.due for r in rows)
    dones = sorted((r.done_on or r.due) for r in rows if r.status == "done")
    first = min(r.start for r in rows)
    last = max(dues[-1], today)
    ends = []
    m = month_end(first)
    while m <= month_end(last):
        ends.append(m)
        m = month_end(m + timedelta(days=1))
    ends = ends[-MAX_MONTHS:]
    points = []
    for end in ends:
        actual = None
        if end.replace(day=1) <= today:
            actual = sum(1 for d in dones if d <= min(end, today))
        points.append(
            {
                "month": end.strftime("%Y-%m"),
                "end": end.isoformat(),
                "planned": sum(1 for d in dues if d <= end),
                "done": actual,
            }
        )
    return {"total": len(rows), "points": points}
