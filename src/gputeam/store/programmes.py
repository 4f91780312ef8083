"""Internal certification programmes and their question banks (issue 11).

- A programme is saved under a code, its spec checked by
  :func:`gputeam.certify.programme.read_spec` against the catalog in use.
- A bank import adds items and versions: an item (by its stable ``item_id``) whose content
  changed gets a new version when its current one was used by an attempt, and is updated in
  place when it was not; an unchanged item is left alone; retired items stay retired.
- An export (:func:`export_bank`) gives the newest version of each item, ready to be read
  back: every question carries its item id and a ``domain-*`` tag for its domain, so an
  import (into this programme or another) finds the same items in the same domains.
- Time accommodations: a person's exam time multiplier, set by an admin or manager.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gputeam._yaml import problems_from_validation
from gputeam.catalog import Catalog
from gputeam.certify import Bank, Question
from gputeam.certify.programme import ProgrammeError, ProgrammeSpec, read_spec
from gputeam.errors import Problem
from gputeam.i18n import N_
from gputeam.store import audit
from gputeam.store.errors import StoreError, not_found, refused
from gputeam.store.people import get_person
from gputeam.store.schema_exams import Accommodation, BankItem, Programme

CODE_PATTERN = r"^[a-z0-9][a-z0-9_.-]{0,99}$"


def save_programme(
    session: Session,
    org_id: int,
    code: str,
    spec: Mapping[str, Any],
    *,
    catalog: Catalog,
    actor: str | None = None,
) -> Programme:
    """Create the programme ``code`` or replace its spec (checked against ``catalog``)."""
    import re

    if not re.match(CODE_PATTERN, code):
        raise refused(
            "code",
            N_("a programme code is lower-case letters, digits, '.', '_' or '-'"),
            code,
            N_("for example {example}").format(example="acme-operator-l2"),
        )
    try:
        parsed = ProgrammeSpec.model_validate(spec)
    except ValidationError as exc:  # worded by the one rule for pydantic's refusals
        raise StoreError(problems_from_validation(exc, {}, f"programme {code}")) from None
    try:
        checked = read_spec(parsed, catalog)
    except ProgrammeError as exc:
        raise StoreError(
            [
                Problem(
                    path=p.path,
                    message=p.message,
                    found=p.found,
                    expected=p.expected,
                    file=f"programme {code}",
                )
                for p in exc.problems
            ]
        ) from None
    data = checked.model_dump(mode="json")
    row = session.scalar(select(Programme).where(Programme.org_id == org_id, Programme.code == code))
    before = None if row is None else dict(row.spec)
    if row is None:
        row = Programme(org_id=org_id, code=code, spec=data)
        session.add(row)
    else:
        row.spec = data
    session.flush()
    audit.record(
        session,
        actor,
        "create" if before is None else "update",
        "programme",
        row.id,
        None if before is None else {"org_id": org_id, "code": code, "spec": before},
        {"org_id": org_id, "code": code, "spec": data},
    )
    return row


def get_programme(session: Session, org_id: int, code: str) -> Programme:
    row = session.scalar(select(Programme).where(Programme.org_id == org_id, Programme.code == code))
    if row is None:
        raise not_found("programme", code)
    return row


def list_programmes(session: Session, org_id: int) -> Sequence[Programme]:
    return session.scalars(select(Programme).where(Programme.org_id == org_id).order_by(Programme.code)).all()


def programme_spec(row: Programme) -> ProgrammeSpec:
    """The stored spec (checked when it was saved)."""
    return ProgrammeSpec.model_validate(row.spec)


@dataclass
class BankImport:
    """What a bank import did, by item id."""

    added: list[str] = field(default_factory=list)
    new_versions: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {k: list(v) for k, v in self.__dict__.items()}


def _current(session: Session, programme_id: int) -> dict[str, BankItem]:
    """The newest version of each item of a programme."""
    newest = (
        select(BankItem.item_id, func.max(BankItem.version).label("v"))
        .where(BankItem.programme_id == programme_id)
        .group_by(BankItem.item_id)
        .subquery()
    )
    rows = session.scalars(
        select(BankItem)
        .join(newest, (BankItem.item_id == newest.c.item_id) & (BankItem.version == newest.c.v))
        .where(BankItem.programme_id == programme_id)
    )
    return {r.item_id: r for r in rows}


def import_bank(
    session: Session, programme_id: int, bank: Bank, *, now: datetime, actor: str | None = None
) -> BankImport:
    """Store the questions of ``bank`` in the programme's bank (see the module docstring).
    Descriptions are not exam items and are skipped; two questions with one item id are
    refused (nothing written)."""
    questions = [q for q in bank.questions if q.qtype != "description"]
    ids = [q.item_id for q in questions]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise refused(
            "bank",
            N_("several questions share an item id; give each its own [id:...] or <idnumber>"),
            ", ".join(twice),
        )
    current = _current(session, programme_id)
    report = BankImport()
    for q in questions:
        data = q.model_dump(mode="json")
        row = current.get(q.item_id)
        if row is None:
            session.add(
                BankItem(
                    programme_id=programme_id,
                    item_id=q.item_id,
                    version=1,
                    content_hash=q.content_hash,
                    qtype=q.qtype,
                    domain=q.domain,
                    question=data,
                    created_at=now,
                )
            )
            report.added.append(q.item_id)
        elif row.content_hash == q.content_hash and row.domain == q.domain and row.question == data:
            (report.retired if row.retired_at else report.unchanged).append(q.item_id)
        elif not row.used:
            row.content_hash, row.qtype, row.domain, row.question = q.content_hash, q.qtype, q.domain, data
            report.updated.append(q.item_id)
        else:
            session.add(
                BankItem(
                    programme_id=programme_id,
                    item_id=q.item_id,
                    version=row.version + 1,
                    content_hash=q.content_hash,
                    qtype=q.qtype,
                    domain=q.domain,
                    question=data,
                    created_at=now,
                    drawn=row.drawn,
                    retired_at=row.retired_at,
                )
            )
            report.new_versions.append(q.item_id)
    session.flush()
    audit.record(
        session,
        actor,
        "import",
        "bank",
        programme_id,
        None,
        {
            "org_id": _org(session, programme_id),
            "programme_id": programme_id,
            **{k: len(v) for k, v in report.as_dict().items()},
        },
    )
    return report


def _org(session: Session, programme_id: int) -> int | None:
    row = session.get(Programme, programme_id)
    return None if row is None else row.org_id


def bank_items(session: Session, programme_id: int, *, include_retired: bool = True) -> list[BankItem]:
    """The current version of each item, by item id."""
    rows = sorted(_current(session, programme_id).values(), key=lambda r: r.item_id)
    return [r for r in rows if include_retired or r.retired_at is None]


def question_of(row: BankItem) -> Question:
    return Question.model_validate(row.question)


@dataclass(frozen=True)
class BankExport:
    """A programme's bank as a :class:`~gputeam.certify.Bank` for the GIFT and Moodle XML
    writers, and the retired items left out of it (their ids)."""

    bank: Bank
    retired: list[str]


def export_bank(session: Session, programme_id: int, *, include_retired: bool = False) -> BankExport:
    """The newest version of each item, grouped by category: each with its item id as its
    ``idnumber`` (``[id:...]``) and a ``domain-*`` tag naming its domain (also when the
    domain came from a category mapping), so that reading the file back gives the same
    items in the same domains. Retired items are left out unless ``include_retired``; an
    exported retired item is not retired in the bank it is imported into."""
    from gputeam.certify.models import DOMAIN_TAG_PREFIX

    rows = bank_items(session, programme_id)
    questions = []
    for row in rows:
        if row.retired_at and not include_retired:
            continue
        q = question_of(row)
        tags = tuple(t for t in q.tags if not t.startswith(DOMAIN_TAG_PREFIX))
        if row.domain:
            tags += (DOMAIN_TAG_PREFIX + row.domain,)
        questions.append(q.model_copy(update={"idnumber": row.item_id, "tags": tags, "domain": row.domain}))
    questions.sort(key=lambda q: (q.category, q.item_id))
    retired = (
        [] if include_retired else [r.item_id for r in bank_items(session, programme_id) if r.retired_at]
    )
    return BankExport(Bank(questions=tuple(questions)), retired)


def retire_item(
    session: Session, programme_id: int, item_id: str, *, now: datetime, actor: str | None = None
) -> None:
    """Stop drawing an item (every version); attempts that hold it keep it."""
    rows = session.scalars(
        select(BankItem).where(BankItem.programme_id == programme_id, BankItem.item_id == item_id)
    ).all()
    if not rows:
        raise not_found("item", item_id)
    if all(r.retired_at for r in rows):
        return
    for r in rows:
        r.retired_at = r.retired_at or now
    session.flush()
    audit.record(
        session,
        actor,
        "retire",
        "bank_item",
        item_id,
        None,
        {"org_id": _org(session, programme_id), "programme_id": programme_id, "item_id": item_id},
    )


def set_time_multiplier(
    session: Session, person_id: int, multiplier: float, *, note: str = "", actor: str | None = None
) -> Accommodation:
    """A person's exam time multiplier (1 = no extra time; at most 4)."""
    person = get_person(session, person_id)
    if not (1.0 <= multiplier <= 4.0):
        raise refused(
            "time_multiplier", N_("must be between 1 and 4"), multiplier, N_("1.25 for 25 % extra time")
        )
    row = session.get(Accommodation, person_id)
    before = None if row is None else {"time_multiplier": row.time_multiplier, "note": row.note}
    if row is None:
        row = Accommodation(person_id=person_id)
        session.add(row)
    row.time_multiplier, row.note, row.set_by = multiplier, note[:1000], actor
    session.flush()
    audit.record(
        session,
        actor,
        "update",
        "accommodation",
        person_id,
        None if before is None else {"person_id": person.id, **before},
        {"person_id": person.id, "time_multiplier": multiplier, "note": row.note},
    )
    return row


def time_multiplier(session: Session, person_id: int) -> float:
    row = session.get(Accommodation, person_id)
    return 1.0 if row is None else float(row.time_multiplier)
