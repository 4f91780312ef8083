"""Certifications held: validity, evidence, status, expiry queries."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Literal, Protocol

from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session, aliased, joinedload

from gputeam.catalog import Catalog, ExpiryStatus, certificate_expiry, expiry_bounds, expiry_status
from gputeam.i18n import N_
from gputeam.store import audit
from gputeam.store.errors import not_found, refused
from gputeam.store.people import PeopleFilter, get_person
from gputeam.store.person_rules import one_line
from gputeam.store.schema import CertificationHeld, Person, Team

CertStatus = Literal["valid", "expiring", "expired"]


def default_valid_until(catalog: Catalog | None, cert_id: str, valid_from: date) -> date | None:
    """Expiry from the catalog's ``validity_months`` (``None``: does not expire / unknown);
    the rule is :func:`gputeam.catalog.certificate_expiry`."""
    return certificate_expiry(catalog, cert_id, valid_from)


class _Validity(Protocol):
    @property
    def valid_until(self) -> date | None: ...


def cert_status(held: _Validity, today: date) -> CertStatus:
    """``expired`` after ``valid_until``, ``expiring`` within 90 days of it (``held``: a
    :class:`CertificationHeld` or a row with its ``valid_until``): the coarse form of
    :func:`gputeam.catalog.expiry_status` (the one rule)."""
    status = expiry_status(held.valid_until, today)
    return "expiring" if status.startswith("expiring") else status  # type: ignore[return-value]


def add_certification(
    session: Session,
    person_id: int,
    cert_id: str,
    valid_from: date,
    valid_until: date | None = None,
    *,
    evidence: str = "",
    catalog: Catalog | None = None,
    actor: str | None = None,
) -> CertificationHeld:
    """Record a certification held. With a ``catalog``, the id must exist in it and a
    missing ``valid_until`` defaults from its validity. The evidence is one line of text."""
    evidence = one_line("evidence", evidence)
    valid_until = check_certification(catalog, cert_id, valid_from, valid_until)
    get_person(session, person_id)
    held = CertificationHeld(
        person_id=person_id,
        cert_id=cert_id,
        valid_from=valid_from,
        valid_until=valid_until,
        evidence=evidence,
    )
    session.add(held)
    session.flush()
    audit.record(session, actor, "create", "certification", held.id, None, audit.snapshot(held))
    return held


def check_certification(
    catalog: Catalog | None, cert_id: str, valid_from: date, valid_until: date | None
) -> date | None:
    """The certificate's ``valid_until`` (defaulted from the catalog) if it may be
    recorded, else refused: an id not in the ``catalog``, or an end before its start."""
    if catalog is not None and cert_id not in catalog.certifications:
        raise refused("certification", N_("not in the catalog"), cert_id, N_("a catalog certification id"))
    if valid_until is None:
        valid_until = default_valid_until(catalog, cert_id, valid_from)
    if valid_until is not None and valid_until < valid_from:
        raise refused(
            "valid_until", N_("before valid_from"), valid_until.isoformat(), f">= {valid_from.isoformat()}"
        )
    return valid_until


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


def list_certifications(
    session: Session, *, person_id: int | None = None, org_id: int | None = None, team_id: int | None = None
) -> Sequence[CertificationHeld]:
    """Certifications held (with ``.person`` loaded) by a person, a team or an organisation."""
    q = (
        select(CertificationHeld)
        .join(Person, Person.id == CertificationHeld.person_id)
        .options(joinedload(CertificationHeld.person))
    )
    if person_id is not None:
        q = q.where(CertificationHeld.person_id == person_id)
    if org_id is not None:
        q = q.where(Person.org_id == org_id)
    if team_id is not None:
        q = q.where(Person.team_id == team_id)
    q = q.order_by(Person.name, CertificationHeld.cert_id, CertificationHeld.valid_from)
    return session.scalars(q).all()


def expiring_certifications(
    session: Session,
    today: date,
    within_days: int,
    *,
    org_id: int | None = None,
    include_expired: bool = False,
) -> Sequence[CertificationHeld]:
    """Certifications of active people whose ``valid_until`` falls within ``within_days``
    from ``today`` (and, with ``include_expired``, those already expired), soonest first.
    A certification superseded by a later one of the same id is left out."""
    later = aliased(CertificationHeld)
    renewed = exists().where(
        later.person_id == CertificationHeld.person_id,
        later.cert_id == CertificationHeld.cert_id,
        later.valid_from > CertificationHeld.valid_from,
    )
    q = (
        select(CertificationHeld)
        .join(Person, Person.id == CertificationHeld.person_id)
        .options(joinedload(CertificationHeld.person))
        .where(
            Person.active.is_(True),
            CertificationHeld.valid_until.is_not(None),
            CertificationHeld.valid_until <= today + timedelta(days=within_days),
            ~renewed,
        )
    )
    if not include_expired:
        q = q.where(CertificationHeld.valid_until >= today)
    if org_id is not None:
        q = q.where(Person.org_id == org_id)
    return session.scalars(q.order_by(CertificationHeld.valid_until, CertificationHeld.id)).all()


# ---------------------------------------------------------------- the certifications view
#: The orders the certifications view may be sorted in.
HELD_SORTS = ("expires", "person", "certification", "team", "earned")


@dataclass(frozen=True)
class HeldRow:
    """One certificate as the certifications view lists it (plain values, read-only)."""

    id: int
    person_id: int
    person_key: str
    person_name: str
    team_id: int | None
    team: str | None
    cert_id: str
    valid_from: date
    valid_until: date | None
    status: ExpiryStatus


def _held_query(
    org_id: int, today: date, where: PeopleFilter, status: ExpiryStatus | None, cert_id: str | None
) -> Any:
    later = aliased(CertificationHeld)
    renewed = exists().where(
        later.person_id == CertificationHeld.person_id,
        later.cert_id == CertificationHeld.cert_id,
        later.valid_from > CertificationHeld.valid_from,
    )
    q = (
        select(
            CertificationHeld.id,
            CertificationHeld.person_id,
            Person.key.label("person_key"),
            Person.name.label("person_name"),
            Person.team_id,
            Team.name.label("team"),
            CertificationHeld.cert_id,
            CertificationHeld.valid_from,
            CertificationHeld.valid_until,
        )
        .join(Person, Person.id == CertificationHeld.person_id)
        .outerjoin(Team, Team.id == Person.team_id)
        .where(*where.clauses(org_id), ~renewed)
    )
    if cert_id is not None:
        q = q.where(CertificationHeld.cert_id == cert_id)
    if status is not None:
        first, last = expiry_bounds(status, today)
        until = CertificationHeld.valid_until
        if first is not None:
            q = q.where(until >= first if status != "valid" else until.is_(None) | (until >= first))
        if last is not None:
            q = q.where(until <= last)
    return q


def list_held(
    session: Session,
    org_id: int,
    today: date,
    *,
    where: PeopleFilter | None = None,
    status: ExpiryStatus | None = None,
    cert_id: str | None = None,
    sort: str = "expires",
    descending: bool = False,
    limit: int | None = None,
    offset: int = 0,
) -> list[HeldRow]:
    """The certifications view: each person's current certificate of each certification
    (one renewed by a later certificate of the same id is left out) for the people ``where``
    selects (active ones by default), with its :func:`gputeam.catalog.expiry_status` on
    ``today``; ``status`` and ``cert_id`` narrow it. Sorted by ``sort`` (one of
    :data:`HELD_SORTS`; certificates that never expire come last by expiry), ties by
    person name and certification."""
    if sort not in HELD_SORTS:
        raise refused("sort", N_("unknown sort order"), sort, ", ".join(HELD_SORTS))
    column = {
        "expires": CertificationHeld.valid_until,
        "person": Person.name,
        "certification": CertificationHeld.cert_id,
        "team": Team.name,
        "earned": CertificationHeld.valid_from,
    }[sort]
    order: list[Any] = [column.desc() if descending else column.asc()]
    if sort in ("expires", "team"):
        order.insert(0, column.is_(None))
    q = (
        _held_query(org_id, today, where or PeopleFilter(), status, cert_id)
        .order_by(*order, Person.name, CertificationHeld.cert_id, CertificationHeld.id)
        .offset(offset)
    )
    if limit is not None:
        q = q.limit(limit)
    session.flush()
    return [
        HeldRow(**row._asdict(), status=expiry_status(row.valid_until, today))
        for row in session.connection().execute(q)
    ]


def count_held(
    session: Session,
    org_id: int,
    today: date,
    *,
    where: PeopleFilter | None = None,
    status: ExpiryStatus | None = None,
    cert_id: str | None = None,
) -> int:
    """How many rows :func:`list_held` gives for the same filters."""
    q = _held_query(org_id, today, where or PeopleFilter(), status, cert_id).subquery()
    return session.scalar(select(func.count()).select_from(q)) or 0
