"""The live team as a :class:`~gputeam.scenario.Scenario`, so the planner runs on it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from gputeam.catalog import Catalog
from gputeam.errors import Problem
from gputeam.i18n import N_
from gputeam.scenario import Constraints, Fleet, PlanInputs, Retention, Scenario, parse_scenario
from gputeam.store.people import current_skills, get_organisation
from gputeam.store.schema import CertificationHeld, Person


def team_scenario(
    session: Session,
    org_id: int,
    fleet: Fleet,
    *,
    start: date,
    team_id: int | None = None,
    constraints: Constraints | None = None,
    retention: Retention | None = None,
    horizon_months: int = 12,
    mode: str = "template",
    currency: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    catalog: Catalog | None = None,
    notices: list[Problem] | None = None,
) -> Scenario:
    """A validated scenario of the organisation's (or one team's) active people with their
    current skills and latest certifications, planned against ``fleet``.

    Stored data may no longer fit the catalog (a role, skill domain or certification the
    catalog in use does not have: renamed in an update, or from a removed
    ``--catalog-extra``). By default that raises :class:`gputeam.errors.ScenarioError`
    (path ``people[i]...``). Given a ``notices`` list (and the ``catalog``), such values are
    left out of the scenario instead and each is described there, so one stale value does
    not stop the whole team from being planned.

    ``fleet``, ``constraints``, ``horizon_months`` and ``mode`` are validated together as
    :class:`~gputeam.scenario.PlanInputs` (the one model of what a plan of an existing team
    is run against, as the web's what-ifs and saved scenarios are), before anything is read.
    """
    inputs = PlanInputs.parse(
        {"fleet": fleet, "constraints": constraints, "horizon_months": horizon_months, "mode": mode}
    )
    org = get_organisation(session, org_id)
    # plain column rows, not ORM objects: for thousands of people, building entities
    # (identity map, attribute instrumentation, datetime conversion) was most of the time
    session.flush()  # Core execution (no autoflush) reads what this session added, too
    where = [Person.org_id == org_id, Person.active.is_(True)]
    if team_id is not None:
        where.append(Person.team_id == team_id)
    people = (
        session.connection()
        .execute(select(*_PERSON_COLUMNS).where(*where).order_by(Person.name, Person.id))
        .all()
    )
    skills = (
        current_skills(session, [p.id for p in people])
        if team_id is not None
        else current_skills(session, org_id=org_id)
    )
    certs = _latest_certifications(session, where)
    entries = [_person(p, skills.get(p.id, {}), certs.get(p.id, [])) for p in people]
    if notices is not None and catalog is not None:
        for entry in entries:
            notices.extend(_drop_unknown(entry, catalog))
    data: dict[str, Any] = {
        "organisation": org.name,
        "start": start,
        "currency": currency or org.currency,
        **inputs.model_dump(),  # fleet, constraints, horizon_months, mode
        "people": entries,
        "retention": (retention or Retention()).model_dump(),
        "overrides": dict(overrides or {}),
    }
    return parse_scenario(data, file="<database>", catalog=catalog)


def _drop_unknown(entry: dict[str, Any], catalog: Catalog) -> list[Problem]:
    """Remove from one scenario person what the catalog does not know; say what and why."""
    who = f"person {entry['id']} ({entry['name']})"
    out = []

    def note(field: str, value: str, message: str, expected: str) -> None:
        out.append(
            Problem(
                path=f"{who}.{field}",
                message=message,
                found=repr(value),
                expected=expected,
                file="<database>",
            )
        )

    role = entry.get("role")
    if role is not None and role not in catalog.roles:
        del entry["role"]
        note("role", role, N_("role not in the catalog; planned as having no role"), N_("a catalog role id"))
    for domain in [d for d in entry["skills"] if d not in catalog.domains]:
        del entry["skills"][domain]
        note(
            f"skills.{domain}",
            domain,
            N_("skill domain not in the catalog; rating left out of the plan"),
            N_("a catalog skill domain id"),
        )
    kept = []
    for held in entry["certifications"]:
        if held["id"] in catalog.certifications:
            kept.append(held)
        else:
            note(
                "certifications",
                held["id"],
                N_("certification not in the catalog; left out of the plan"),
                N_("a catalog certification id"),
            )
    entry["certifications"] = kept
    return out


_PERSON_COLUMNS = (
    Person.id,
    Person.key,
    Person.name,
    Person.title,
    Person.background,
    Person.level,
    Person.experience_months,
    Person.weekly_study_hours,
    Person.salary,
    Person.role,
)


def _person(p: Any, skills: dict[str, int], certs: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": p.key,
        "name": p.name,
        "title": p.title,
        "background": p.background,
        "level": p.level,
        "experience_months": p.experience_months,
        "weekly_study_hours": p.weekly_study_hours,
        "skills": dict(sorted(skills.items())),
        "certifications": certs,
    }
    if p.salary is not None:
        out["salary"] = p.salary
    if p.role:
        out["role"] = p.role
    return out


def _latest_certifications(session: Session, where: list[Any]) -> dict[int, list[dict[str, Any]]]:
    """Per person, the most recent certificate of each certification id, as scenario
    ``certifications`` entries."""
    q = (
        select(
            CertificationHeld.person_id,
            CertificationHeld.cert_id,
            CertificationHeld.valid_from,
            CertificationHeld.valid_until,
        )
        .join(Person, Person.id == CertificationHeld.person_id)
        .where(*where)
        .order_by(CertificationHeld.valid_from, CertificationHeld.id)
    )
    latest: dict[tuple[int, str], tuple[date, date | None]] = {}
    for pid, cert_id, valid_from, valid_until in session.connection().execute(q):
        latest[pid, cert_id] = (valid_from, valid_until)
    out: dict[int, list[dict[str, Any]]] = {}
    for (pid, cert_id), (earned, expires) in sorted(latest.items()):
        out.setdefault(pid, []).append({"id": cert_id, "earned": earned, "expires": expires})
    return out
