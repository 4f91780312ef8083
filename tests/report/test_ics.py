"""iCalendar export parsed back with icalendar: one event per exam and renewal, stable UIDs."""

from __future__ import annotations

from datetime import date, datetime

import icalendar
import pytest

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.result import Plan
from gputeam.report import ics
from gputeam.scenario import load_example

from .conftest import EXAMPLES, TODAY


def _events(p: Plan) -> list[icalendar.Event]:
    cal = icalendar.Calendar.from_ical(ics.render(p))
    assert str(cal["version"]) == "2.0"
    assert str(cal["prodid"]) == ics.PRODID
    return list(cal.walk("VEVENT"))


@pytest.mark.parametrize("name", EXAMPLES)
def test_one_event_per_exam_and_renewal(plans: dict[str, Plan], name: str) -> None:
    p = plans[name]
    expected = [(r, i) for r in p.roadmaps for i in r.items if i.kind in ("exam", "renewal")]
    events = _events(p)
    assert len(events) == len(expected)
    uids = [str(e["uid"]) for e in events]
    assert len(set(uids)) == len(uids)
    for event, (roadmap, item) in zip(events, expected, strict=True):
        start = event.decoded("dtstart")
        assert type(start) is date, "all-day events carry a DATE, not a DATE-TIME"
        assert start == item.start
        assert event.decoded("dtend") > start
        assert roadmap.name in str(event["summary"])
        assert str(event["uid"]) == ics.event_uid(roadmap.person, item.kind, item.ref, item.start)
        stamp = event.decoded("dtstamp")
        assert isinstance(stamp, datetime) and stamp.date() == p.generated_for


def test_uids_stable_across_renders_and_replans(plans: dict[str, Plan], catalog) -> None:  # type: ignore[no-untyped-def]
    first = ics.render(plans["finance"])
    assert first == ics.render(plans["finance"])
    again = plan(load_example("finance"), catalog or load_catalog(), TODAY)
    assert [str(e["uid"]) for e in _events(again)] == [str(e["uid"]) for e in _events(plans["finance"])]


def test_finance_has_exams_and_a_renewal(plans: dict[str, Plan]) -> None:
    kinds = [
        str(e["categories"].cats[1]) if hasattr(e["categories"], "cats") else ""
        for e in _events(plans["finance"])
    ]
    assert "exam" in kinds and "renewal" in kinds


def test_names_cannot_inject_properties(plans: dict[str, Plan]) -> None:
    p = plans["finance"]
    evil = "Eve\r\nBEGIN:VEVENT\r\nUID:evil\r\nEND:VEVENT; x, y"
    roadmaps = tuple(r.model_copy(update={"name": evil}) for r in p.roadmaps)
    p = p.model_copy(update={"roadmaps": roadmaps})
    events = _events(p)
    expected = sum(1 for r in p.roadmaps for i in r.items if i.kind in ("exam", "renewal"))
    assert len(events) == expected
    assert all(str(e["uid"]) != "evil" for e in events)
    assert all(evil.replace("\r\n", "\n") in str(e["summary"]) or "Eve" in str(e["summary"]) for e in events)
