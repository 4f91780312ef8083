"""ICS feeds: parsed back by icalendar, stable UIDs, alarms 90 and 30 days ahead."""

from __future__ import annotations

from datetime import date, timedelta

from icalendar import Alarm, Calendar, Event

from gputeam.store import (
    Database,
    add_certification,
    add_roadmap_item,
    get_person_by_key,
    list_teams,
    person_calendar,
    team_calendar,
)

from .test_import import load


def events(ics: bytes) -> dict[str, Event]:
    cal = Calendar.from_ical(ics)
    return {str(e["UID"]): e for e in cal.events}


def test_person_and_team_feeds(db: Database, org_id: int) -> None:
    load(db, org_id)
    with db.session() as s:
        p2 = get_person_by_key(s, org_id, "p2")
        assert p2 is not None
        exam = add_roadmap_item(
            s,
            p2.id,
            kind="exam",
            ref="ncp-aii",
            title="NCP-AII exam",
            start=date(2026, 3, 1),
            due=date(2026, 3, 15),
        )
        add_roadmap_item(
            s, p2.id, kind="course", ref="x", title="A course", start=date(2026, 3, 1), due=date(2026, 3, 15)
        )
        first = person_calendar(s, p2.id)
        team = team_calendar(s, org_id)
        fabric = [t for t in list_teams(s, org_id) if t.name == "Fabric"][0]
        fabric_feed = team_calendar(s, org_id, team_id=fabric.id)
    evs = events(first)
    # p2 holds cka and ncp-ain (both expire) and has one exam; courses are not in the feed
    assert len(evs) == 3
    kinds = sorted(c for e in evs.values() for c in e.categories)
    assert kinds == ["exam", "expiry", "expiry"]
    cka = evs[f"cert-expiry.{org_id}.p2.cka.20250210@gputeam"]
    start = cka.DTSTART
    assert start == date(2027, 2, 10)
    alarms = [a for a in cka.subcomponents if isinstance(a, Alarm)]
    triggers = sorted(a.TRIGGER for a in alarms if isinstance(a.TRIGGER, timedelta))
    assert triggers == [timedelta(days=-90), timedelta(days=-30)]
    assert f"roadmap.{org_id}.p2.{exam.id}@gputeam" in evs
    assert len(events(team)) == 4  # + p1's nca-aiio
    assert set(events(fabric_feed)) == set(evs)

    # stable: the same bytes again; adding something keeps the existing UIDs
    with db.session() as s:
        assert person_calendar(s, p2.id) == first
        add_certification(s, p2.id, "cka", date(2027, 1, 20), date(2029, 1, 20))
        again = events(person_calendar(s, p2.id))
    assert f"cert-expiry.{org_id}.p2.cka.20270120@gputeam" in again
    # the renewed certificate replaces the old expiry; the others keep their UIDs
    assert set(evs) - set(again) == {f"cert-expiry.{org_id}.p2.cka.20250210@gputeam"}


def test_feeds_in_the_language(db: Database, org_id: int) -> None:
    """The feed's texts in the active language (the web's request's, the CLI's --lang):
    summaries, descriptions and alarms, dates in the language's short form."""
    from gputeam import i18n

    load(db, org_id)
    with db.session() as s:
        p2 = get_person_by_key(s, org_id, "p2")
        assert p2 is not None
        exam = add_roadmap_item(
            s,
            p2.id,
            kind="exam",
            ref="ncp-aii",
            title="NCP-AII exam",
            start=date(2026, 3, 1),
            due=date(2026, 3, 15),
        )
        with i18n.use("de"):
            german = events(person_calendar(s, p2.id, today=date(2026, 12, 2)))
        with i18n.use("ko"):
            korean = events(person_calendar(s, p2.id, today=date(2026, 12, 2)))
        english = events(person_calendar(s, p2.id, today=date(2026, 12, 2)))
    uid = f"cert-expiry.{org_id}.p2.cka.20250210@gputeam"
    cka = german[uid]
    assert str(cka["SUMMARY"]) == str(english[uid]["SUMMARY"]).replace(" expires (", " läuft ab (")
    assert "erworben am 10.2.2025, ist gültig bis 10.2.2027. Erneuern Sie sie vorher." in str(
        cka["DESCRIPTION"]
    )
    alarms = sorted(str(a["DESCRIPTION"]) for a in cka.subcomponents if isinstance(a, Alarm))
    assert alarms[0].startswith("In 30 Tagen: ") and alarms[1].startswith("In 90 Tagen: ")
    roadmap = f"roadmap.{org_id}.p2.{exam.id}@gputeam"
    assert str(german[roadmap]["SUMMARY"]).startswith("Prüfung: NCP-AII exam (")
    assert "Status geplant." in str(german[roadmap]["DESCRIPTION"])
    assert "2025. 2. 10.에 취득했으며 2027. 2. 10.까지 유효합니다." in str(korean[uid]["DESCRIPTION"])
    assert str(korean[roadmap]["SUMMARY"]).startswith("시험: NCP-AII exam(")
    assert "earned 2025-02-10, is valid until 2027-02-10. Renew before then." in str(
        english[uid]["DESCRIPTION"]
    )
