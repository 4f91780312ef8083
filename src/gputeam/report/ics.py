"""iCalendar (RFC 5545) export: one all-day event per exam and per renewal in the roadmaps.

UIDs are derived from (person, item kind, ref, date), so rendering the same plan again, or
a re-plan that keeps an exam on its date, yields the same UIDs and calendar clients update
events instead of duplicating them. DTSTAMP is ``plan.generated_for`` (midnight UTC), never
the clock, so the output depends only on the plan.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

from gputeam.i18n import _
from gputeam.i18n.codes import label as code_label
from gputeam.planning.result import Plan, Roadmap, RoadmapItem
from gputeam.report.tables import money
from gputeam.report.words import item_name, item_note, roadmap_name

if TYPE_CHECKING:
    from icalendar import Event

__all__ = ["CALENDAR_KINDS", "event_uid", "render"]

CALENDAR_KINDS = ("exam", "renewal")
"""Roadmap item kinds that become calendar events."""

PRODID = "-//gputeam//team plan//EN"
UID_DOMAIN = "gputeam"


def event_uid(person: str, kind: str, ref: str, day: date) -> str:
    """A stable UID for one roadmap event."""
    key = "\x1f".join((person, kind, ref, day.isoformat())).encode("utf-8")
    return f"{hashlib.sha256(key).hexdigest()[:32]}@{UID_DOMAIN}"


def _event(roadmap: Roadmap, item: RoadmapItem, uid: str, stamp: datetime, currency: str) -> Event:
    from icalendar import Event

    name, person = item_name(item), roadmap_name(roadmap)
    title = _("Exam: {name}").format(name=name) if item.kind == "exam" else name
    summary = f"{title} ({person})"
    details = [name, _("Person: {name} ({id})").format(name=person, id=roadmap.person)]
    if roadmap.role:
        details.append(_("Target role: {role}").format(role=code_label(roadmap.role)))
    if item.cost:
        details.append(_("Fee: {amount}").format(amount=money(item.cost, currency)))
    if item.note:
        details.append(item_note(item))
    end = item.end if item.end > item.start else item.start + timedelta(days=1)
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", stamp)
    event.add("dtstart", item.start)
    event.add("dtend", end)
    event.add("summary", summary)
    event.add("description", "\n".join(details))
    event.add("categories", ["gputeam", item.kind])
    event.add("transp", "TRANSPARENT")
    return event


def render(plan: Plan) -> bytes:
    """The plan's exams and renewals as an iCalendar file."""
    from icalendar import Calendar

    stamp = datetime(plan.generated_for.year, plan.generated_for.month, plan.generated_for.day, tzinfo=UTC)
    organisation = plan.scenario.organisation
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", _("Team plan: {organisation}").format(organisation=organisation).strip())
    seen: dict[str, int] = {}
    for roadmap in plan.roadmaps:
        for item in roadmap.items:
            if item.kind not in CALENDAR_KINDS:
                continue
            uid = event_uid(roadmap.person, item.kind, item.ref, item.start)
            # the same exam twice on one day (a retake booked back to back) still gets distinct UIDs
            seen[uid] = seen.get(uid, 0) + 1
            if seen[uid] > 1:
                uid = uid.replace("@", f"-{seen[uid]}@", 1)
            cal.add_component(_event(roadmap, item, uid, stamp, plan.costs.currency))
    return bytes(cal.to_ical())
