"""One person as pages and API see them: the record, current skills, certifications with
status, enrolments with progress, roadmap items and overall progress."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from fastapi import FastAPI

from gputeam import store
from gputeam.store import DbSession, PeopleFilter
from gputeam.web import cache
from gputeam.web.org import catalog
from gputeam.web.plan_view import latest_plan


def person_summary(p: Any) -> dict[str, Any]:
    return {
        "id": p.id,
        "key": p.key,
        "name": p.name,
        "email": p.email,
        "title": p.title,
        "background": p.background,
        "level": p.level,
        "experience_months": p.experience_months,
        "weekly_study_hours": p.weekly_study_hours,
        "salary": p.salary,
        "role": p.role,
        "site": p.site,
        "team_id": p.team_id,
        "active": p.active,
    }


def people_json(
    app: FastAPI, s: DbSession, org: int, where: PeopleFilter, sort: str, descending: bool
) -> tuple[bytes, ...]:
    """Every person ``where`` selects, in the list's order, each as the JSON of
    :func:`person_summary` (as the API writes it): built once per data version, filter and
    order, so that a page of the list is a slice, whatever its offset."""

    def build() -> tuple[bytes, ...]:
        rows = store.list_people(s, org, where=where, sort=sort, descending=descending, columns=True)
        dumps = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode
        return tuple(dumps(person_summary(p)).encode() for p in rows)

    return cache.listing(app, ("people.json", store.data_version(s), org, where, sort, descending), build)


def person_detail(app: FastAPI, s: DbSession, p: Any, today: date) -> dict[str, Any]:
    """One person: record, current skills, certifications with status, enrolments with
    progress, roadmap items (tracked, or else the latest plan's) and overall progress."""
    cat = catalog(app)
    skills = store.current_skills(s, [p.id]).get(p.id, {})
    records = store.person_records(s, p.id)
    certs = [
        {
            "id": c.id,
            "cert_id": c.cert_id,
            "name": cat.certifications[c.cert_id].name if c.cert_id in cat.certifications else c.cert_id,
            "valid_from": c.valid_from.isoformat(),
            "valid_until": c.valid_until.isoformat() if c.valid_until else None,
            "status": store.cert_status(c, today),
            "evidence": c.evidence,
        }
        for c in records.certifications
    ]
    enrolments = []
    for e in records.enrolments:
        course = cat.courses.get(e.course_id)
        total = course.hours if course and course.hours else None
        enrolments.append(
            {
                "id": e.id,
                "course_id": e.course_id,
                "name": course.name if course else e.course_id,
                "started_on": e.started_on.isoformat(),
                "hours_done": e.hours_done,
                "hours_total": total,
                "completed_on": e.completed_on.isoformat() if e.completed_on else None,
                "progress": 1.0
                if e.completed_on
                else (round(min(e.hours_done / total, 1.0), 3) if total else None),
            }
        )
    items = [
        {
            "id": i.id,
            "kind": i.kind,
            "ref": i.ref,
            "title": i.title,
            "start": i.start.isoformat(),
            "due": i.due.isoformat(),
            "status": i.status,
            "done_on": i.done_on.isoformat() if i.done_on else None,
            "hours": i.hours,
            "overdue": i.status in ("planned", "in-progress") and i.due < today,
            "source": "tracked",
        }
        for i in records.roadmap
    ]
    if not items:
        items = _planned_items(app, s, p.key)
    live = [i for i in items if i["status"] != "cancelled"]
    done = sum(1 for i in live if i["status"] == "done")
    return {
        **person_summary(p),
        "skills": dict(sorted(skills.items())),
        "certifications": certs,
        "enrolments": enrolments,
        "roadmap": items,
        "progress": {
            "items": len(live),
            "done": done,
            "share": round(done / len(live), 3) if live else None,
            "overdue": sum(1 for i in live if i["overdue"]),
        },
    }


def _planned_items(app: FastAPI, s: DbSession, key: str) -> list[dict[str, Any]]:
    """The latest plan's roadmap for a person who has no tracked items."""
    latest = latest_plan(app, s)
    if latest is None:
        return []
    for rm in latest[0].roadmaps:
        if rm.person == key and not rm.hire:
            return [
                {
                    "id": None,
                    "kind": it.kind,
                    "ref": it.ref,
                    "title": it.name,
                    "start": it.start.isoformat(),
                    "due": it.end.isoformat(),
                    "status": "planned",
                    "done_on": None,
                    "hours": it.hours,
                    "overdue": False,
                    "source": "plan",
                }
                for it in rm.items
            ]
    return []
