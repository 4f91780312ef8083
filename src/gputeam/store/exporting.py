"""Export of everything in an organisation to JSON, CSV or XLSX.

The data is built once (:func:`export_data`, a dict of tables: lists of flat rows) and
rendered to each format. ``people`` and ``certifications`` use the import column names,
so an export imports back unchanged (round trip). ``users`` lists every account of the
installation (password and token hashes are never exported); ``audit_log`` holds only the
organisation's own entries.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from gputeam.spreadsheet import csv_cell, xlsx_put
from gputeam.store.audit import list_audit
from gputeam.store.import_tables import CERT_FIELDS, ROSTER_FIELDS
from gputeam.store.people import current_skills, get_organisation
from gputeam.store.schema import (
    CertificationHeld,
    Enrolment,
    Person,
    RoadmapItem,
    SavedPlan,
    SavedScenario,
    SkillRating,
    Team,
    TeamMembership,
    User,
)

FORMAT_VERSION = 1


def _value(v: Any) -> Any:
    if isinstance(v, datetime | date):
        return v.isoformat()
    return v


def export_data(session: Session, org_id: int, *, include_audit: bool = True) -> dict[str, Any]:
    """Every table of the organisation as ``{"tables": {name: [row, ...]}, ...}``."""
    org = get_organisation(session, org_id)
    people = session.scalars(select(Person).where(Person.org_id == org_id).order_by(Person.key)).all()
    teams = {t.id: t.name for t in session.scalars(select(Team).where(Team.org_id == org_id))}
    skills = current_skills(session, org_id=org_id)
    domains = sorted({d for s in skills.values() for d in s})
    keys = {p.id: p.key for p in people}
    tables: dict[str, list[dict[str, Any]]] = {}
    tables["teams"] = [{"name": n} for n in sorted(teams.values())]
    tables["people"] = [
        {
            "id": p.key,
            "name": p.name,
            "email": p.email or "",
            "title": p.title,
            "background": p.background,
            "level": p.level,
            "experience_months": p.experience_months,
            "weekly_study_hours": p.weekly_study_hours,
            "salary": p.salary if p.salary is not None else "",
            "role": p.role or "",
            "team": teams.get(p.team_id, "") if p.team_id else "",
            "site": p.site or "",
            "active": p.active,
        }
        | {d: skills.get(p.id, {}).get(d, "") for d in domains}
        for p in people
    ]
    pid_join = Person.org_id == org_id
    tables["certifications"] = [
        {
            "person": keys[c.person_id],
            "certification": c.cert_id,
            "valid_from": _value(c.valid_from),
            "valid_until": _value(c.valid_until) or "",
            "evidence": c.evidence,
        }
        for c in session.scalars(
            select(CertificationHeld)
            .join(Person)
            .where(pid_join)
            .order_by(Person.key, CertificationHeld.cert_id, CertificationHeld.valid_from)
        )
    ]
    tables["skill_ratings"] = [
        {
            "person": keys[r.person_id],
            "domain": r.domain,
            "proficiency": r.proficiency,
            "rated_at": _value(r.rated_at),
            "rated_by": r.rated_by or "",
            "note": r.note,
        }
        for r in session.scalars(
            select(SkillRating)
            .join(Person)
            .where(pid_join)
            .order_by(Person.key, SkillRating.domain, SkillRating.rated_at, SkillRating.id)
        )
    ]
    tables["enrolments"] = [
        {
            "person": keys[e.person_id],
            "course": e.course_id,
            "started_on": _value(e.started_on),
            "hours_done": e.hours_done,
            "completed_on": _value(e.completed_on) or "",
        }
        for e in session.scalars(
            select(Enrolment)
            .join(Person)
            .where(pid_join)
            .order_by(Person.key, Enrolment.started_on, Enrolment.id)
        )
    ]
    tables["roadmap_items"] = [
        {
            "person": keys[i.person_id],
            "kind": i.kind,
            "ref": i.ref,
            "title": i.title,
            "start": _value(i.start),
            "due": _value(i.due),
            "status": i.status,
            "done_on": _value(i.done_on) or "",
            "hours": i.hours,
            "plan_id": i.plan_id or "",
        }
        for i in session.scalars(
            select(RoadmapItem)
            .join(Person)
            .where(pid_join)
            .order_by(Person.key, RoadmapItem.start, RoadmapItem.id)
        )
    ]
    scenarios = session.scalars(
        select(SavedScenario)
        .where(SavedScenario.org_id == org_id)
        .order_by(SavedScenario.name, SavedScenario.version)
    ).all()
    tables["scenarios"] = [
        {
            "id": s.id,
            "name": s.name,
            "version": s.version,
            "created_at": _value(s.created_at),
            "created_by": s.created_by or "",
            "inputs": s.inputs,
        }
        for s in scenarios
    ]
    tables["plans"] = (
        [
            {
                "id": p.id,
                "scenario_id": p.scenario_id,
                "version": p.version,
                "computed_for": _value(p.computed_for),
                "created_at": _value(p.created_at),
                "created_by": p.created_by or "",
                "plan": p.plan,
            }
            for p in session.scalars(
                select(SavedPlan)
                .where(SavedPlan.scenario_id.in_([s.id for s in scenarios]))
                .order_by(SavedPlan.scenario_id, SavedPlan.version)
            )
        ]
        if scenarios
        else []
    )
    memberships: dict[int, list[str]] = {}
    for m in session.scalars(select(TeamMembership).where(TeamMembership.team_id.in_(list(teams) or [-1]))):
        memberships.setdefault(m.user_id, []).append(teams[m.team_id])
    # every account of the installation, without password hashes or tokens; the person
    # and teams columns name this organisation's only
    tables["users"] = [
        {
            "username": u.username,
            "role": u.role,
            "person": keys.get(u.person_id or -1, ""),
            "teams": ";".join(sorted(memberships.get(u.id, []))),
            "active": u.active,
        }
        for u in session.scalars(select(User).order_by(User.username))
    ]
    if include_audit:
        tables["audit_log"] = [
            {
                "at": _value(a.at),
                "actor": a.actor or "",
                "action": a.action,
                "entity": a.entity,
                "entity_id": a.entity_id or "",
                "before": a.before,
                "after": a.after,
            }
            for a in list_audit(session, org_id=org_id, limit=None, oldest_first=True)
        ]
    return {
        "format": "gputeam-export",
        "version": FORMAT_VERSION,
        "organisation": {"name": org.name, "currency": org.currency},
        "tables": tables,
    }


def export_json(session: Session, org_id: int, **kwargs: Any) -> str:
    return json.dumps(export_data(session, org_id, **kwargs), indent=2, ensure_ascii=False, default=str)


def _flat(v: Any) -> Any:
    if isinstance(v, dict | list):
        return json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)
    if isinstance(v, bool):
        return "true" if v else "false"
    return v


def _columns(rows: list[dict[str, Any]], table: str) -> list[str]:
    if rows:
        return list(rows[0])
    return list(_EMPTY_COLUMNS.get(table, ()))


#: the columns of an empty table: those the imports read back (one list of columns)
_EMPTY_COLUMNS = {"people": ROSTER_FIELDS, "certifications": CERT_FIELDS}


def to_csv(data: dict[str, Any]) -> dict[str, str]:
    """One CSV text per table (``people.csv`` ...), UTF-8, comma-separated; text that a
    spreadsheet would run as a formula starts with an apostrophe
    (:func:`gputeam.spreadsheet.csv_cell`; the importer takes it off again)."""
    out: dict[str, str] = {}
    for name, rows in data["tables"].items():
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        cols = _columns(rows, name)
        writer.writerow(cols)
        for r in rows:
            writer.writerow([csv_cell(_flat(r.get(c, ""))) for c in cols])
        out[f"{name}.csv"] = buf.getvalue()
    return out


def to_xlsx(data: dict[str, Any]) -> bytes:
    """One worksheet per table, dates as real dates, numbers as numbers, text as text
    (never a formula: :func:`gputeam.spreadsheet.xlsx_put`)."""
    from openpyxl import Workbook

    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in data["tables"].items():
        ws = wb.create_sheet(name[:31])
        cols = _columns(rows, name)
        for col, title in enumerate(cols, start=1):
            xlsx_put(ws, 1, col, title)
        for number, r in enumerate(rows, start=2):
            for col, c in enumerate(cols, start=1):
                xlsx_put(ws, number, col, _xlsx_cell(c, r.get(c, "")))
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


_DATE_COLUMNS = {
    "valid_from",
    "valid_until",
    "started_on",
    "completed_on",
    "start",
    "due",
    "done_on",
    "computed_for",
}


def _xlsx_cell(column: str, v: Any) -> Any:
    if column in _DATE_COLUMNS and isinstance(v, str) and v:
        return date.fromisoformat(v)
    v = _flat(v)
    return None if v == "" else v


def export_csv(session: Session, org_id: int, **kwargs: Any) -> dict[str, str]:
    return to_csv(export_data(session, org_id, **kwargs))


def export_xlsx(session: Session, org_id: int, **kwargs: Any) -> bytes:
    return to_xlsx(export_data(session, org_id, **kwargs))
