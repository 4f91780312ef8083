"""Records waiting for approval: a certificate, a skill rating or course hours that a
person recorded for themself (who must wait is :func:`gputeam.tracker.reach.needs_approval`).

A request is checked as the record itself would be (a catalog certification, dates in
order, a proficiency 0-4, hours within the course's bound) and kept in ``approvals`` with
an evidence link; nothing of it counts anywhere (compliance, dashboards, the skills
matrix, plans) until a manager of the person's team or an admin approves it: only then is
the record written, by the same function as any other. A rejection keeps the request, with
its reason, as history. Every step is audited.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, TypedDict

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from gputeam.catalog import Catalog
from gputeam.i18n import N_
from gputeam.store import audit
from gputeam.store.certifications import add_certification, check_certification
from gputeam.store.errors import not_found, refused
from gputeam.store.learning import check_hours, record_hours
from gputeam.store.people import get_person, rate_skill
from gputeam.store.person_rules import one_line
from gputeam.store.schema import APPROVAL_KINDS, APPROVAL_STATUSES, Approval, Enrolment, Person, utcnow

EVIDENCE_LONGEST = 2000
_LINK = re.compile(r"https?://[^\s/]+\S*")


def evidence_link(value: str) -> str:
    """An evidence link: blank, or an ``http(s)://`` address of one line (refused:
    ``evidence_url``)."""
    value = value.strip()
    if not value:
        return ""
    if len(value) > EVIDENCE_LONGEST or not _LINK.fullmatch(value):
        raise refused(
            "evidence_url",
            N_("not a web address"),
            value[:100],
            N_("an https:// link of at most {n} characters (a badge, a transcript)").format(
                n=EVIDENCE_LONGEST
            ),
        )
    return value


def _request(
    session: Session, person_id: int, kind: str, payload: dict[str, Any], evidence_url: str, actor: str | None
) -> Approval:
    row = Approval(
        person_id=person_id,
        kind=kind,
        payload=payload,
        evidence_url=evidence_link(evidence_url),
        status="pending",
        requested_by=actor,
        requested_at=utcnow(),
        note="",
    )
    session.add(row)
    session.flush()
    audit.record(session, actor, "request", "approval", row.id, None, audit.snapshot(row))
    return row


def request_certification(
    session: Session,
    person_id: int,
    cert_id: str,
    valid_from: date,
    valid_until: date | None = None,
    *,
    evidence: str = "",
    evidence_url: str = "",
    catalog: Catalog | None = None,
    actor: str | None = None,
) -> Approval:
    """Ask for a certificate to be recorded (checked as :func:`add_certification` would)."""
    evidence = one_line("evidence", evidence)
    valid_until = check_certification(catalog, cert_id, valid_from, valid_until)
    get_person(session, person_id)
    payload = {
        "cert_id": cert_id,
        "valid_from": valid_from.isoformat(),
        "valid_until": valid_until.isoformat() if valid_until else None,
        "evidence": evidence,
    }
    return _request(session, person_id, "certification", payload, evidence_url, actor)


def request_skill(
    session: Session,
    person_id: int,
    domain: str,
    proficiency: int,
    *,
    note: str = "",
    evidence_url: str = "",
    actor: str | None = None,
) -> Approval:
    """Ask for a skill rating (checked as :func:`rate_skill` would)."""
    note = one_line("note", note)
    if not 0 <= proficiency <= 4:
        raise refused(f"skills.{domain}", N_("proficiency out of range"), proficiency, "0-4")
    get_person(session, person_id)
    payload = {"domain": domain, "proficiency": proficiency, "note": note}
    return _request(session, person_id, "skill", payload, evidence_url, actor)


def request_hours(
    session: Session,
    enrolment_id: int,
    hours_done: float | None,
    *,
    completed_on: date | None = None,
    evidence_url: str = "",
    catalog: Catalog | None = None,
    actor: str | None = None,
) -> Approval:
    """Ask for an enrolment's hours (a total; None: the hours it has when approved) and,
    with ``completed_on``, its completion (checked as :func:`record_hours` would)."""
    e = session.get(Enrolment, enrolment_id)
    if e is None:
        raise not_found("enrolment", enrolment_id)
    if hours_done is not None:
        check_hours(catalog, e.course_id, hours_done)
    if completed_on is not None and completed_on < e.started_on:
        raise refused(
            "completed_on",
            N_("before the enrolment started"),
            completed_on.isoformat(),
            f">= {e.started_on.isoformat()}",
        )
    payload = {
        "enrolment_id": e.id,
        "course_id": e.course_id,
        "hours_done": hours_done,
        "completed_on": completed_on.isoformat() if completed_on else None,
    }
    return _request(session, e.person_id, "hours", payload, evidence_url, actor)


def get_approval(session: Session, approval_id: int) -> Approval:
    row = session.get(Approval, approval_id)
    if row is None:
        raise not_found("approval", approval_id)
    return row


def list_approvals(
    session: Session,
    org_id: int,
    *,
    status: str | None = "pending",
    team_ids: frozenset[int] | None = None,
    person_id: int | None = None,
    limit: int = 500,
) -> Sequence[Approval]:
    """The organisation's requests (with ``.person``), oldest first: those of ``status``
    (None: any), of people in ``team_ids`` (None: any team) or of one person."""
    if status is not None and status not in APPROVAL_STATUSES:
        raise refused("status", N_("unknown status"), status, ", ".join(APPROVAL_STATUSES))
    q = (
        select(Approval)
        .join(Person, Person.id == Approval.person_id)
        .options(joinedload(Approval.person))
        .where(Person.org_id == org_id)
    )
    if status is not None:
        q = q.where(Approval.status == status)
    if team_ids is not None:
        q = q.where(Person.team_id.in_(sorted(team_ids)))
    if person_id is not None:
        q = q.where(Approval.person_id == person_id)
    return session.scalars(q.order_by(Approval.requested_at, Approval.id).limit(limit)).all()


def decide(
    session: Session,
    approval_id: int,
    approve: bool,
    *,
    actor: str | None = None,
    note: str = "",
    catalog: Catalog | None = None,
    now: datetime | None = None,
) -> Approval:
    """Approve (write the record, by the requester's name with the approver's in the
    audit log) or reject a pending request; refused when it was already decided. Who may
    is the caller's to check (:func:`gputeam.tracker.reach.may_approve`)."""
    row = get_approval(session, approval_id)
    note = one_line("note", note)
    if row.status != "pending":
        raise refused("approval", N_("already decided"), row.status, "pending")
    before = audit.snapshot(row)
    if approve:
        row.record_id = _write(session, row, catalog, actor)
    row.status = "approved" if approve else "rejected"
    row.decided_by = actor
    row.decided_at = now or utcnow()
    row.note = note
    session.flush()
    audit.record(
        session, actor, "approve" if approve else "reject", "approval", row.id, before, audit.snapshot(row)
    )
    return row


def _write(session: Session, row: Approval, catalog: Catalog | None, actor: str | None) -> int:
    p = row.payload
    by = f"{row.requested_by or '?'}, approved by {actor or '?'}"
    if row.kind == "certification":
        evidence = " ".join(x for x in (p.get("evidence") or "", row.evidence_url) if x)
        held = add_certification(
            session,
            row.person_id,
            p["cert_id"],
            date.fromisoformat(p["valid_from"]),
            date.fromisoformat(p["valid_until"]) if p.get("valid_until") else None,
            evidence=evidence,
            catalog=catalog,
            actor=actor,
        )
        return held.id
    if row.kind == "skill":
        rating = rate_skill(
            session,
            row.person_id,
            p["domain"],
            int(p["proficiency"]),
            rated_by=by[:100],
            note=p.get("note") or "",
        )
        return rating.id
    assert row.kind in APPROVAL_KINDS
    enrolment = session.get(Enrolment, int(p["enrolment_id"]))
    if enrolment is None:
        raise not_found("enrolment", p["enrolment_id"])
    e = record_hours(
        session,
        enrolment.id,
        enrolment.hours_done if p.get("hours_done") is None else float(p["hours_done"]),
        completed_on=date.fromisoformat(p["completed_on"]) if p.get("completed_on") else None,
        actor=actor,
        catalog=catalog,
    )
    return e.id


class ApprovalJson(TypedDict):
    """A request for approval as the API and pages show it."""

    id: int
    person_id: int
    person: str | None
    kind: str
    record: dict[str, Any]
    evidence_url: str
    status: str
    requested_by: str | None
    requested_at: str
    decided_by: str | None
    decided_at: str | None
    note: str
    record_id: int | None


def approval_json(row: Approval) -> ApprovalJson:
    """A request as the API and pages show it."""
    return {
        "id": row.id,
        "person_id": row.person_id,
        "person": row.person.name if row.person is not None else None,
        "kind": row.kind,
        "record": dict(row.payload),
        "evidence_url": row.evidence_url,
        "status": row.status,
        "requested_by": row.requested_by,
        "requested_at": row.requested_at.isoformat(),
        "decided_by": row.decided_by,
        "decided_at": row.decided_at.isoformat() if row.decided_at else None,
        "note": row.note,
        "record_id": row.record_id,
    }
