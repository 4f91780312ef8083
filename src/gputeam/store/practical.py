"""Practical (lab) sign-off and what a programme pass records (issue 11 §3-4, issue 12 §1).

- An assessor grades each rubric criterion (``met`` / ``not met``, evidence link or note)
  and signs off; the outcome is a pass when every required criterion is met. Assessors are
  admins, managers and the people a programme names; **the assessor is never the
  candidate**. Every grade change and the sign-off are audited; a signed assessment is
  final (a new one is started for a re-assessment).
- :func:`record_pass`: when the exam is passed and (where the programme has a practical)
  the practical signed off as a pass, the certification is recorded with the catalog's
  validity, the programme's skill ratings are raised to what it grants, and an Open Badges
  3.0 credential is issued with the per-domain results. Passing again on a later day (a
  renewal) records and issues anew.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from gputeam.catalog import Catalog
from gputeam.i18n import N_
from gputeam.store import audit
from gputeam.store.certifications import add_certification, default_valid_until
from gputeam.store.errors import not_found, refused
from gputeam.store.people import current_skills, get_person, rate_skill
from gputeam.store.programmes import programme_spec
from gputeam.store.schema import CertificationHeld, Person
from gputeam.store.schema_exams import ExamAttempt, PracticalAssessment, Programme

GRADES = ("met", "not met")
ASSESSOR_ROLES = ("admin", "manager")


def may_assess(session: Session, programme: Programme, role: str, person_id: int | None) -> bool:
    """Admins and managers, and the people the programme names as assessors."""
    if role in ASSESSOR_ROLES:
        return True
    if person_id is None:
        return False
    person = session.get(Person, person_id)
    return person is not None and person.key in programme_spec(programme).assessors


#: "an assessor cannot assess their own practical" (or essay): one sentence per kind of work.
_OWN = {
    "practical": N_("an assessor cannot assess their own practical"),
    "essay": N_("an assessor cannot assess their own essay"),
}
_WHO = {
    "practical": N_("only admins, managers and the programme's named assessors assess practicals"),
    "essay": N_("only admins, managers and the programme's named assessors assess essays"),
}


def check_assessor(
    session: Session,
    programme: Programme,
    candidate_id: int,
    role: str,
    assessor_person_id: int | None,
    what: str = "practical",
) -> None:
    """Refused unless the caller may assess (:func:`may_assess`) and is not the candidate:
    the one rule for practicals and essay marking alike."""
    if assessor_person_id is not None and assessor_person_id == candidate_id:
        raise refused("assessor", _OWN[what])
    if not may_assess(session, programme, role, assessor_person_id):
        raise refused("assessor", _WHO[what])


def _grades(programme: Programme, grades: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    criteria = {c.id for c in programme_spec(programme).rubric}
    if not criteria:
        raise refused("programme", N_("this programme has no practical"))
    out = {}
    for cid, g in grades.items():
        if cid not in criteria:
            raise refused(
                f"grades.{cid}", N_("not a criterion of the rubric"), cid, ", ".join(sorted(criteria))
            )
        g = g if isinstance(g, Mapping) else {"grade": g}
        grade = str(g.get("grade") or "")
        if grade not in GRADES:
            raise refused(f"grades.{cid}.grade", N_("unknown grade"), grade, " or ".join(GRADES))
        out[cid] = {
            "grade": grade,
            "evidence": str(g.get("evidence") or "")[:2000],
            "note": str(g.get("note") or "")[:2000],
        }
    return out


def open_assessment(session: Session, programme: Programme, person_id: int) -> PracticalAssessment | None:
    return session.scalar(
        select(PracticalAssessment).where(
            PracticalAssessment.programme_id == programme.id,
            PracticalAssessment.person_id == person_id,
            PracticalAssessment.signed_at.is_(None),
        )
    )


def list_assessments(
    session: Session, programme_id: int, person_id: int | None = None
) -> Sequence[PracticalAssessment]:
    q = select(PracticalAssessment).where(PracticalAssessment.programme_id == programme_id)
    if person_id is not None:
        q = q.where(PracticalAssessment.person_id == person_id)
    return session.scalars(q.order_by(PracticalAssessment.id)).all()


def grade_practical(
    session: Session,
    programme: Programme,
    person_id: int,
    grades: Mapping[str, Any],
    *,
    assessor: str,
    role: str,
    assessor_person_id: int | None,
) -> PracticalAssessment:
    """Set grades on the person's open assessment (started on first use); audited."""
    person = get_person(session, person_id)
    if person.org_id != programme.org_id:
        raise not_found("person", person_id)
    check_assessor(session, programme, person_id, role, assessor_person_id)
    clean = _grades(programme, grades)
    row = open_assessment(session, programme, person_id)
    before = None if row is None else dict(row.grades)
    if row is None:
        row = PracticalAssessment(
            programme_id=programme.id, person_id=person_id, assessor=assessor, grades={}
        )
        session.add(row)
    row.grades = {**(before or {}), **clean}
    row.assessor = assessor
    session.flush()
    audit.record(
        session,
        assessor,
        "grade",
        "practical",
        row.id,
        None if before is None else {"person_id": person_id, "grades": before},
        {"person_id": person_id, "programme": programme.code, "grades": row.grades},
    )
    return row


def sign_off(
    session: Session,
    programme: Programme,
    person_id: int,
    *,
    assessor: str,
    role: str,
    assessor_person_id: int | None,
    now: datetime,
    catalog: Catalog,
    issuer: Any = None,
) -> PracticalAssessment:
    """Sign the person's open assessment off: a pass when every required criterion is
    met. A pass with the exam passed records the programme pass."""
    check_assessor(session, programme, person_id, role, assessor_person_id)
    row = open_assessment(session, programme, person_id)
    if row is None:
        raise refused("practical", N_("no graded practical to sign off"))
    rubric = programme_spec(programme).rubric
    missing = [c.id for c in rubric if c.required and c.id not in row.grades]
    if missing:
        raise refused("practical", N_("grade every required criterion first"), ", ".join(missing))
    passed = all(row.grades.get(c.id, {}).get("grade") == "met" for c in rubric if c.required)
    row.outcome, row.signed_at, row.assessor = ("pass" if passed else "fail"), now, assessor
    session.flush()
    audit.record(
        session,
        assessor,
        "sign-off",
        "practical",
        row.id,
        None,
        {"person_id": person_id, "programme": programme.code, "outcome": row.outcome, "grades": row.grades},
    )
    if passed:
        record_pass(session, programme, person_id, now=now, catalog=catalog, issuer=issuer, actor=assessor)
    return row


def practical_queue(
    session: Session, programme: Programme, *, role: str, person_id: int | None
) -> list[dict[str, Any]]:
    """People who passed the programme's exam and have no practical signed off as a pass
    since, for a caller who may assess (never their own): person id and name, and whether
    an assessment is open."""
    if not programme_spec(programme).practical or not may_assess(session, programme, role, person_id):
        return []
    passed = session.execute(
        select(ExamAttempt.person_id, Person.name)
        .join(Person, Person.id == ExamAttempt.person_id)
        .where(ExamAttempt.programme_id == programme.id, ExamAttempt.passed.is_(True))
        .distinct()
        .order_by(Person.name)
    ).all()
    out = []
    for pid, name in passed:
        if pid == person_id:
            continue
        rows = list_assessments(session, programme.id, pid)
        if any(r.outcome == "pass" for r in rows):
            continue
        out.append({"person_id": pid, "name": name, "open": any(r.signed_at is None for r in rows)})
    return out


def _passed_attempt(session: Session, programme: Programme, person_id: int) -> ExamAttempt | None:
    return session.scalar(
        select(ExamAttempt)
        .where(
            ExamAttempt.programme_id == programme.id,
            ExamAttempt.person_id == person_id,
            ExamAttempt.passed.is_(True),
        )
        .order_by(ExamAttempt.finished_at.desc())
        .limit(1)
    )


def record_pass(
    session: Session,
    programme: Programme,
    person_id: int,
    *,
    now: datetime,
    catalog: Catalog,
    issuer: Any = None,
    actor: str | None = None,
) -> dict[str, Any] | None:
    """Record the programme pass when complete (see the module docstring); None when a part
    is missing. Once per person, programme and day."""
    spec = programme_spec(programme)
    attempt = _passed_attempt(session, programme, person_id)
    if attempt is None:
        return None
    if spec.practical and not any(
        a.outcome == "pass" for a in list_assessments(session, programme.id, person_id)
    ):
        return None
    today = now.date()
    cert_id = spec.certification
    if (
        session.scalar(
            select(CertificationHeld.id).where(
                CertificationHeld.person_id == person_id,
                CertificationHeld.cert_id == cert_id,
                CertificationHeld.valid_from == today,
            )
        )
        is not None
    ):
        return None
    held = add_certification(
        session,
        person_id,
        cert_id,
        today,
        default_valid_until(catalog, cert_id, today),
        evidence=f"programme {programme.code}, exam attempt {attempt.number}",
        catalog=catalog,
        actor=actor,
    )
    skills = current_skills(session, [person_id]).get(person_id, {})
    raised = {}
    for domain, level in sorted(spec.skills.items()):
        if skills.get(domain, 0) < level:
            rate_skill(
                session,
                person_id,
                domain,
                level,
                rated_at=now,
                rated_by=f"programme:{programme.code}",
                note=f"passed {spec.name} on {today.isoformat()}",
            )
            raised[domain] = level
    credential, not_issued = None, None
    if issuer is not None:
        from gputeam.credentials.keys import SealError
        from gputeam.store.credentials import issue_credential

        results = {
            f"domain-{d['domain']}": (f"{d['name']} score", f"{round(d['score'] * 100)} %")
            for d in (attempt.result or {}).get("domains", [])
        }
        results["exam"] = ("Exam score", f"{round((attempt.score or 0) * 100)} %")
        try:
            with session.begin_nested():  # nothing of a failed issue is kept
                row = issue_credential(
                    session,
                    programme.org_id,
                    person_id,
                    cert_id,
                    catalog=catalog,
                    secret=issuer.secret,
                    base_url=issuer.base_url,
                    now=now,
                    actor=actor,
                    criteria=criteria_text(spec),
                    results=results,
                    programme=programme.code,
                    issuer_did=getattr(issuer, "did", None),
                )
            credential = row.uuid
        except SealError as exc:
            # The pass stands (certification and skills are recorded); the credential is
            # left for an admin to issue once the key can be unsealed, and the audit says why.
            not_issued = (
                f"credential not issued: {exc}; the pass is recorded, and an admin can issue the "
                "credential once the server's secret key is the one that sealed the issuing key"
            )
            audit.record(
                session,
                actor,
                "issue-failed",
                "credential",
                None,
                None,
                {
                    "org_id": programme.org_id,
                    "person_id": person_id,
                    "achievement": cert_id,
                    "programme": programme.code,
                    "reason": not_issued,
                },
            )
    return {
        "certification": held.id,
        "valid_until": held.valid_until,
        "skills": raised,
        "credential": credential,
        "credential_not_issued": not_issued,
    }


def criteria_text(spec: Any) -> str:
    """The programme's blueprint and rubric in words (the credential's criteria)."""
    bp = spec.blueprint
    weights = ", ".join(f"{d} {w:g}" for d, w in bp.domain_weights.items())
    text = (
        f"Passed the {spec.name} exam: {bp.questions} questions in {bp.minutes} minutes, "
        f"pass mark {round(bp.pass_mark * 100)} %, domain weights {weights}"
    )
    if isinstance(bp.domain_minimum, float | int):
        text += f", at least {round(bp.domain_minimum * 100)} % in every domain"
    if spec.rubric:
        text += "; and a practical assessment signed off by an assessor: " + "; ".join(
            c.name + ("" if c.required else " (optional)") for c in spec.rubric
        )
    return text + "."
