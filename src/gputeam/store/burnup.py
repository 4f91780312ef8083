"""Plan against actual over time: the burn-up of a person's or a team's roadmap items.

For each month from the first item's start to the last due date (or today, if later):
``planned``, the items due by the month's end; ``done``, the items done by then (only up
to today: the future has no actual). Cancelled items and inactive people count for
neither."""

from __future__ import annotations

from bisect import bisect_right
from datetime import date, timedelta
from typing import Any

from sqlalchemy import func, select
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
    # counted by the database: one row per due day, done day and status, not per item
    q = (
        select(
            RoadmapItem.due,
            RoadmapItem.done_on,
            RoadmapItem.status,
            func.min(RoadmapItem.start),
            func.count(RoadmapItem.id),
        )
        .join(Person, Person.id == RoadmapItem.person_id)
        .where(Person.org_id == org_id, Person.active.is_(True), RoadmapItem.status != "cancelled")
        .group_by(RoadmapItem.due, RoadmapItem.done_on, RoadmapItem.status)
    )
    if person_id is not None:
        q = q.where(Person.id == person_id)
    if team_id is not None:
        q = q.where(Person.team_id == team_id)
    rows = session.execute(q).all()
    if not rows:
        return {"total": 0, "points": []}
    due_counts: dict[date, int] = {}
    done_counts: dict[date, int] = {}
    for due, done_on, status, _start, n in rows:
        due_counts[due] = due_counts.get(due, 0) + n
        if status == "done":
            day = done_on or due
            done_counts[day] = done_counts.get(day, 0) + n
    dues, planned_by = _cumulative(due_counts)
    dones, done_by = _cumulative(done_counts)
    first = min(r[3] for r in rows)
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
            actual = done_by[bisect_right(dones, min(end, today))]  # done on or before
        points.append(
            {
                "month": end.strftime("%Y-%m"),
                "end": end.isoformat(),
                "planned": planned_by[bisect_right(dues, end)],
                "done": actual,
            }
        )
    return {"total": planned_by[-1], "points": points}


def _cumulative(counts: dict[date, int]) -> tuple[list[date], list[int]]:
    """The days in order, and how many fall on or before each: ``by[i]`` counts the first
    ``i`` days (``by[0]`` is 0), so ``by[bisect_right(days, d)]`` is the count up to ``d``."""
    days = sorted(counts)
    by = [0]
    for d in days:
        by.append(by[-1] + counts[d])
    return days, by
