"""Certifications held: validity, evidence, status, expiry queries."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import Literal, Protocol

from sqlalchemy import exists, select
from sqlalchemy.orm import Session, aliased, joinedload

from gputeam.catalog import Catalog, certificate_expiry
from gputeam.store import audit
from gputeam.store.errors import not_found, refused
from gputeam.store.people import get_person
from gputeam.store.schema import CertificationHeld, Person

CertStatus = Literal["valid", "expiring", "expired"]


def default_valid_until(catalog: Catalog | None, cert_id: str, valid_from: date) -> date | None:
    """Expiry from the catalog's ``validity_months`` (``None``: does not expire / unknown);
    the rule is :func:`gputeam.catalog.certificate_expiry`."""
    return certificate_expiry(catalog, cert_id, valid_from)


class _Validity(Protocol):
    @property
    def valid_until(self) -> date | None: ...


def cert_status(held: _Validity, today: date, warn_days: int = 90) -> CertStatus:
    """``expired`` after ``valid_until``, ``expiring`` within ``warn_days`` of it (``held``:
    a :class:`CertificationHeld` or a row with its ``valid_until``)."""
    if held.valid_until is None:
        return "valid"
    if held.valid_until < today:
        return "expired"
    if held.valid_until <= today + timedelta(days=warn_days):
        return "expiring"
    return "valid"


def add_certification(session: Session, person_id: int, cert_id: str, valid_from: date,
                      valid_until: date | None = None, *, evidence: str = "",
                      catalog: Catalog | None = None, actor: str | None = None
                      ) -> CertificationHeld:
    """Record a certification held. With a ``catalog``, the id must exist in it and a
    missing ``valid_until`` defaults from its validity."""
    if catalog is not None and cert_id not in catalog.certifications:
        raise refused("certification", "not in the catalog", cert_id,
                      "a catalog certification id")
    get_person(session, person_id)
    if valid_until is None:
        valid_until = default_valid_until(catalog, cert_id, valid_from)
    if valid_until is not None and valid_until < valid_from:
        raise refused("valid_until", "before valid_from", valid_until.isoformat(),
                      f">= {valid_from.isoformat()}")
    held = CertificationHeld(person_id=person_id, cert_id=cert_id, valid_from=valid_from,
                             valid_until=valid_until, evidence=evidence)
    session.add(held)
    session.flush()
    audit.record(session, actor, "create", "certification", held.id, None,
                 audit.snapshot(held))
    return held


def get_certification(session: Session, held_id: int) -> CertificationHeld:
    held = session.get(CertificationHeld, held_id)
    if held is None:
        raise not_found("certification", held_id)
    return held


def remove_certification(session: Session, held_id: int, *, actor: str | None = None) -> None:
    held = get_certification(session, held_id)
    audit.record(session, actor, "delete", "certification", held.id, audit.snapshot(held), None)
    session.delete(held)
    session.flush()


def list_certifications(session: Session, *, person_id: int | None = None,
                        org_id: int | None = None, team_id: int | None = None
                        ) -> Sequence[CertificationHeld]:
    """Certifications held (with ``.person`` loaded) by a person, a team or an organisation."""
    q = (select(CertificationHeld).join(Person, Person.id == CertificationHeld.person_id)
         .options(joinedload(CertificationHeld.person)))
    if person_id is not None:
        q = q.where(CertificationHeld.person_id == person_id)
    if org_id is not None:
        q = q.where(Person.org_id == org_id)
    if team_id is not None:
        q = q.where(Person.team_id == team_id)
    q = q.order_by(Person.name, CertificationHeld.cert_id, CertificationHeld.valid_from)
    return session.scalars(q).all()


def expiring_certifications(session: Session, today: date, within_days: int, *,
                            org_id: int | None = None, include_expired: bool = False
                            ) -> Sequence[CertificationHeld]:
    """Certifications of active people whose ``valid_until`` falls within ``within_days``
    from ``today`` (and, with ``include_expired``, those already expired), soonest first.
    A certification superseded by a later one of the same id is left out."""
    later = aliased(CertificationHeld)
    renewed = exists().where(later.person_id == CertificationHeld.person_id,
                             later.cert_id == CertificationHeld.cert_id,
                             later.valid_from > CertificationHeld.valid_from)
    q = (select(CertificationHeld).join(Person, Person.id == CertificationHeld.person_id)
         .options(joinedload(CertificationHeld.person))
         .where(Person.active.is_(True), CertificationHeld.valid_until.is_not(None),
                CertificationHeld.valid_until <= today + timedelta(days=within_days),
                ~renewed))
    if not include_expired:
        q = q.where(CertificationHeld.valid_until >= today)
    if org_id is not None:
        q = q.where(Person.org_id == org_id)
    return session.scalars(q.order_by(CertificationHeld.valid_until, CertificationHeld.id)).all()
