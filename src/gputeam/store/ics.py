"""iCalendar feeds per person and per team: exams, renewals and certification expiries.

Every event has a UID built from stable facts (organisation, person id, certification,
date), so a calendar client that re-fetches the feed updates events instead of duplicating
them, and ``DTSTAMP`` comes from the stored row, so an unchanged database gives identical
bytes. Each event carries two alarms, 90 and 30 days ahead. The texts (summaries,
descriptions, alarms) are in the active language, dates in its short form.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from gputeam.catalog import Catalog, load_catalog
from gputeam.i18n import N_, _, ngettext
from gputeam.i18n.formats import date_text
from gputeam.store.certifications import list_certifications
from gputeam.store.learning import list_roadmap_items
from gputeam.store.people import get_organisation, get_person, get_team
from gputeam.store.schema import CertificationHeld, Person, RoadmapItem

if TYPE_CHECKING:
    from icalendar import Event

ALARM_DAYS = (90, 30)
PRODID = "-//gputeam//tracker//EN"
CALENDAR_KINDS = ("exam", "renewal")
#: A roadmap item's status in words (translated in the feed's language).
_STATUS = {
    "planned": N_("planned"),
    "in-progress": N_("in progress"),
    "done": N_("done"),
    "cancelled": N_("cancelled"),
}


_LINE_BREAKS = re.compile(r"[\x00-\x1f\x7f]+")


def _one_line(value: str) -> str:
    """Text for a property the calendar library does not escape (the calendar's name):
    line breaks and other control characters become a space (a name stored before the
    store refused them must not break the feed)."""
    return _LINE_BREAKS.sub(" ", value)


def _slug(value: object) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", str(value)).strip("-") or "x"


def cert_expiry_uid(org_id: int, person_key: str, cert_id: str, valid_from: date) -> str:
    return f"cert-expiry.{org_id}.{_slug(person_key)}.{_slug(cert_id)}.{valid_from:%Y%m%d}@gputeam"


def roadmap_uid(org_id: int, person_key: str, item: RoadmapItem) -> str:
    return f"roadmap.{org_id}.{_slug(person_key)}.{item.id}@gputeam"


def _latest(certs: Iterable[CertificationHeld]) -> list[CertificationHeld]:
    latest: dict[tuple[int, str], CertificationHeld] = {}
    for c in certs:
        k = (c.person_id, c.cert_id)
        if k not in latest or c.valid_from > latest[k].valid_from:
            latest[k] = c
    return sorted(latest.values(), key=lambda c: (c.valid_until or date.max, c.id))


def _event(uid: str, summary: str, day: date, stamp: datetime, description: str, categories: str) -> Event:
    from icalendar import Alarm, Event

    ev = Event()
    ev.add("uid", uid)
    ev.add("dtstamp", stamp)
    ev.add("summary", summary)
    ev.add("dtstart", day)
    ev.add("dtend", day + timedelta(days=1))
    ev.add("description", description)
    ev.add("categories", [categories])
    ev.add("transp", "TRANSPARENT")
    for days in ALARM_DAYS:
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add(
            "description",
            ngettext("In {days} day: {summary}", "In {days} days: {summary}", days).format(
                days=days, summary=summary
            ),
        )
        alarm.add("trigger", timedelta(days=-days))
        alarm.add("uid", f"{uid.split('@')[0]}.alarm{days}@gputeam")
        ev.add_component(alarm)
    return ev


def _expiry_advice(valid_until: date, today: date | None) -> str:
    """What an expiry event tells the holder: renew before the date, or, once it has
    passed, that the certificate has expired (``today`` None: neither)."""
    if today is None:
        return ""
    if valid_until < today:
        return " " + _("It has expired: renew it to hold it again.")
    return " " + _("Renew before then.")


def build_calendar(
    name: str,
    org_id: int,
    people: Sequence[Person],
    certs: Iterable[CertificationHeld],
    items: Iterable[RoadmapItem],
    catalog: Catalog | None = None,
    today: date | None = None,
) -> bytes:
    """The ICS feed; ``today`` words the expiry events (expired or still to renew)."""
    from icalendar import Calendar

    catalog = catalog or load_catalog()
    by_id = {p.id: p for p in people}
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", _one_line(name))
    for c in _latest(x for x in certs if x.person_id in by_id):
        if c.valid_until is None:
            continue
        p = by_id[c.person_id]
        cert = catalog.certifications.get(c.cert_id)
        label = cert.name if cert else c.cert_id
        cal.add_component(
            _event(
                cert_expiry_uid(org_id, p.key, c.cert_id, c.valid_from),
                _("{certification} expires ({person})").format(certification=label, person=p.name),
                c.valid_until,
                c.created_at,
                _("{person}'s {certification} ({id}), earned {earned}, is valid until {until}.").format(
                    person=p.name,
                    certification=label,
                    id=c.cert_id,
                    earned=date_text(c.valid_from),
                    until=date_text(c.valid_until),
                )
                + _expiry_advice(c.valid_until, today),
                "expiry",
            )
        )
    for it in items:
        if it.person_id not in by_id or it.kind not in CALENDAR_KINDS or it.status == "cancelled":
            continue
        p = by_id[it.person_id]
        exam = it.kind == "exam"
        cal.add_component(
            _event(
                roadmap_uid(org_id, p.key, it),
                (_("Exam: {title} ({person})") if exam else _("Renewal: {title} ({person})")).format(
                    title=it.title, person=p.name
                ),
                it.due,
                it.created_at,
                (
                    _("Exam {ref} for {person}; status {status}.")
                    if exam
                    else _("Renewal {ref} for {person}; status {status}.")
                ).format(ref=it.ref, person=p.name, status=_(_STATUS.get(it.status, it.status))),
                it.kind,
            )
        )
    return bytes(cal.to_ical())


def person_calendar(
    session: Session, person_id: int, *, catalog: Catalog | None = None, today: date | None = None
) -> bytes:
    """The ICS feed of one person."""
    p = get_person(session, person_id)
    return build_calendar(
        f"gputeam: {p.name}",
        p.org_id,
        [p],
        list_certifications(session, person_id=person_id),
        list_roadmap_items(session, person_id=person_id),
        catalog,
        today,
    )


def team_calendar(
    session: Session,
    org_id: int,
    *,
    team_id: int | None = None,
    catalog: Catalog | None = None,
    today: date | None = None,
) -> bytes:
    """The ICS feed of a team (or of the whole organisation when ``team_id`` is None)."""
    org = get_organisation(session, org_id)
    name = f"gputeam: {org.name}"
    q = select(Person).where(Person.org_id == org_id, Person.active.is_(True))
    if team_id is not None:
        name += f" / {get_team(session, team_id).name}"
        q = q.where(Person.team_id == team_id)
    people = session.scalars(q).all()
    return build_calendar(
        name,
        org_id,
        people,
        list_certifications(session, org_id=org_id, team_id=team_id),
        list_roadmap_items(session, org_id=org_id, team_id=team_id),
        catalog,
        today,
    )
