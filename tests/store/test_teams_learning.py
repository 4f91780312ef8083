"""Teams (rename, archive, assign), enrolling many at once, a finished course closing its
roadmap items, adopting a saved plan (idempotent) and the burn-up; on SQLite and
PostgreSQL, every change audited."""

from __future__ import annotations

from datetime import date

import pytest

from gputeam import store
from gputeam.catalog import Catalog
from gputeam.store import Database, NotFound, StoreError


def _team_with_people(db: Database, org_id: int) -> tuple[int, int, list[int]]:
    with db.session() as s:
        a = store.create_team(s, org_id, "Alpha")
        b = store.create_team(s, org_id, "Beta")
        ids = [store.add_person(s, org_id, key=f"p{i}", name=f"P {i}", team_id=a.id).id for i in range(3)]
        return a.id, b.id, ids


def test_rename_archive_assign_are_audited(db: Database, org_id: int) -> None:
    alpha, beta, ids = _team_with_people(db, org_id)
    with db.session() as s:
        store.rename_team(s, org_id, alpha, "  Fabric ", actor="lead")
        assert store.get_team(s, alpha).name == "Fabric"
    with pytest.raises(StoreError) as dup, db.session() as s:
        store.rename_team(s, org_id, alpha, "Beta")
    assert dup.value.problems[0].path == "team.name"
    # archiving a team with active people is refused, naming what to do
    with pytest.raises(StoreError) as busy, db.session() as s:
        store.set_team_archived(s, org_id, alpha, True)
    assert "move them" in busy.value.problems[0].message
    with db.session() as s:
        moved = store.assign_to_team(s, org_id, beta, ids + ids[:1], actor="lead")
        assert len(moved) == 3
        store.set_team_archived(s, org_id, alpha, True, actor="lead")
        assert [t.name for t in store.list_teams(s, org_id, archived=False)] == ["Beta"]
        assert [t.name for t in store.list_teams(s, org_id, archived=True)] == ["Fabric"]
        assert len(store.list_teams(s, org_id)) == 2
    # an archived team takes no one
    with pytest.raises(StoreError), db.session() as s:
        store.assign_to_team(s, org_id, alpha, ids[:1])
    with db.session() as s:
        store.set_team_archived(s, org_id, alpha, False, actor="lead")
        actions = [e.action for e in store.list_audit(s, entity="team", entity_id=alpha, oldest_first=True)]
        assert actions == ["create", "rename", "archive", "restore"]
        person_moves = store.list_audit(s, entity="person", entity_id=ids[0], actor="lead")
        assert [e.after["team_id"] for e in person_moves] == [beta]  # type: ignore[index]


def test_a_roster_cannot_put_people_into_an_archived_team(db: Database, org_id: int) -> None:
    """The roster import keeps the archived team's rule: it takes no one new (a new person,
    or one moving from another team, is refused at the row's team cell and nothing is
    written); people already in it may stay, with other changes imported."""
    alpha, beta, ids = _team_with_people(db, org_id)
    with db.session() as s:
        store.assign_to_team(s, org_id, beta, ids[1:])
        store.update_person(s, ids[0], {"active": False})
        store.set_team_archived(s, org_id, alpha, True)
    roster = (
        "id,name,team,level\n"
        "p0,P 0,Alpha,3\n"  # already in Alpha (inactive): stays, level changes
        "p1,P 1,Alpha,2\n"  # from Beta into the archived team: refused
        "n1,New One,Alpha,1\n"  # a new person into it: refused
        "n2,New Two,Beta,1\n"
    )
    with pytest.raises(store.ImportRejected) as refused, db.session() as s:
        store.import_roster(s, org_id, roster.encode(), filename="roster.csv")
    found = [(p.line, p.path, p.message, p.found) for p in refused.value.problems]
    assert found == [
        (3, "team", "the team is archived", "'Alpha'"),
        (4, "team", "the team is archived", "'Alpha'"),
    ]
    assert all(p.expected == "a current team" and p.hint for p in refused.value.problems)
    with db.session() as s:  # nothing written
        assert store.get_person_by_key(s, org_id, "n2") is None
        assert store.get_person(s, ids[1]).team_id == beta
    ok = "id,name,team,level\np0,P 0,Alpha,3\nn2,New Two,Beta,1\n"
    with db.session() as s:
        report = store.import_roster(s, org_id, ok.encode(), filename="roster.csv")
        assert (report.created, report.updated) == (1, 1)
        assert store.get_person(s, ids[0]).level == 3 and store.get_person(s, ids[0]).team_id == alpha
    # an archived team has no active people: reactivating p0 there is refused, by a file
    # (at the active cell) as by the forms and the API, until the team is restored or p0
    # moves to a current team
    with pytest.raises(store.ImportRejected) as back, db.session() as s:
        store.import_roster(s, org_id, b"id,active\np0,yes\n", filename="roster.csv")
    found = [(p.line, p.path, p.message) for p in back.value.problems]
    assert found == [(2, "active", "the team is archived")]
    with pytest.raises(StoreError) as refused_again, db.session() as s:
        store.update_person(s, ids[0], {"active": True})
    assert refused_again.value.problems[0].path == "person.active"
    with db.session() as s:
        store.update_person(s, ids[0], {"active": True, "team_id": beta})  # moved, then fine
        assert store.get_person(s, ids[0]).active is True


def test_teams_of_another_organisation_are_not_found(db: Database, org_id: int) -> None:
    alpha, _, ids = _team_with_people(db, org_id)
    with db.session() as s:
        other = store.create_organisation(s, "Other").id
        gamma = store.create_team(s, other, "Gamma").id
    for call in (
        lambda s: store.rename_team(s, org_id, gamma, "Mine"),
        lambda s: store.set_team_archived(s, org_id, gamma, True),
        lambda s: store.assign_to_team(s, org_id, gamma, ids),
        lambda s: store.team_members(s, org_id, gamma),
    ):
        with pytest.raises(NotFound), db.session() as s:
            call(s)
    with pytest.raises(NotFound), db.session() as s:  # nor their people moved in here
        o = store.add_person(s, other, key="o1", name="O")
        store.assign_to_team(s, org_id, alpha, [o.id])


def test_enrol_a_path_then_finish_a_course_closes_its_roadmap_item(
    db: Database, org_id: int, catalog: Catalog
) -> None:
    alpha, _, ids = _team_with_people(db, org_id)
    path = next(p for p in catalog.paths.values() if len(p.courses) >= 1)
    courses = store.courses_of(catalog, path_id=path.id)
    assert courses == list(path.courses)
    with pytest.raises(StoreError):
        store.courses_of(catalog, course_id="no-such-course")
    with pytest.raises(StoreError):
        store.courses_of(catalog)
    with db.session() as s:
        item = store.add_roadmap_item(
            s,
            ids[0],
            kind="course",
            ref=courses[0],
            title="C",
            start=date(2026, 11, 1),
            due=date(2027, 1, 31),
        )
        item_id = item.id
        first = store.enrol_people(s, org_id, ids, courses, date(2026, 11, 2), actor="lead")
        again = store.enrol_people(s, org_id, ids, courses, date(2026, 11, 3), actor="lead")
        assert len(first["created"]) == 3 * len(courses) and first["already"] == 0
        assert again["created"] == [] and again["already"] == 3 * len(courses)
        e = next(e for e in first["created"] if e.person_id == ids[0])
        store.record_hours(s, e.id, 3.5)
        done = store.complete_enrolment(s, e.id, date(2026, 12, 1), actor="lead")
        assert done.completed_on == date(2026, 12, 1) and done.hours_done == 3.5
        closed = store.get_roadmap_item(s, item_id)
        assert closed.status == "done" and closed.done_on == date(2026, 12, 1)
        assert [a.actor for a in store.list_audit(s, entity="roadmap_item", entity_id=item_id)][0] == "lead"
        summary = store.learning_summary(s, org_id, date(2026, 12, 2), team_id=alpha)
        assert summary["enrolments_done"] == 1
        assert summary["enrolments_open"] == 3 * len(courses) - 1
        assert summary["hours"] == 3.5 and summary["learners"] == 3
        assert (summary["items"], summary["items_done"], summary["share_done"]) == (1, 1, 1.0)
    with pytest.raises(StoreError), db.session() as s:  # done before it started
        store.complete_enrolment(s, e.id, date(2026, 1, 1))


def _plan(keys: list[str]) -> dict[str, object]:
    items = [
        {
            "kind": "course",
            "ref": "c1",
            "name": "Course 1",
            "start": "2026-10-01",
            "end": "2026-11-15",
            "hours": 8,
        },
        {"kind": "exam", "ref": "x1", "name": "Exam 1", "start": "2027-02-01", "end": "2027-02-01"},
    ]
    return {
        "roadmaps": [{"person": k, "items": items} for k in keys]
        + [{"person": "hire-1", "hire": True, "items": items}, {"person": "gone", "items": items}]
    }


def test_adopting_a_saved_plan_twice_adds_nothing_and_burnup_follows(db: Database, org_id: int) -> None:
    alpha, _, ids = _team_with_people(db, org_id)
    with db.session() as s:
        sc = store.save_scenario(s, org_id, "live", {"fleet": {}})
        plan_id = store.save_plan(s, sc.id, _plan(["p0", "p1"]), date(2026, 10, 1)).id
        first = store.adopt_saved_plan(s, org_id, plan_id, actor="admin")
        again = store.adopt_saved_plan(s, org_id, plan_id, actor="admin")
        # a new version of the same plan adds only what is new
        plan2 = store.save_plan(s, sc.id, _plan(["p0", "p1", "p2"]), date(2026, 10, 2)).id
        third = store.adopt_saved_plan(s, org_id, plan2, actor="admin")
    assert first == {"created": 4, "already": 0, "hires": 1, "unknown": ["gone"]}
    assert again == {"created": 0, "already": 4, "hires": 1, "unknown": ["gone"]}
    assert third["created"] == 2 and third["already"] == 4
    with db.session() as s:
        items = store.list_roadmap_items(s, person_id=ids[0])
        assert [(i.kind, i.start, i.due) for i in items] == [
            ("course", date(2026, 10, 1), date(2026, 11, 15)),
            ("exam", date(2027, 2, 1), date(2027, 2, 1)),
        ]
        store.complete_roadmap_item(s, items[0].id, date(2026, 11, 20))
        assert [e.action for e in store.list_audit(s, entity="plan")].count("adopt") == 3
        curve = store.burnup(s, org_id, date(2026, 12, 2), team_id=alpha)
        mine = store.burnup(s, org_id, date(2026, 12, 2), person_id=ids[0])
        assert store.burnup(s, org_id, date(2026, 12, 2), person_id=9_999_999) == {"total": 0, "points": []}
    assert curve["total"] == 6
    by_month = {p["month"]: (p["planned"], p["done"]) for p in curve["points"]}
    assert list(by_month)[0] == "2026-10" and list(by_month)[-1] == "2027-02"
    assert by_month["2026-10"] == (0, 0)
    assert by_month["2026-11"] == (3, 1)  # three courses due, one done (on the 20th)
    assert by_month["2026-12"] == (3, 1)
    assert by_month["2027-01"] == (3, None)  # the future has no actual
    assert by_month["2027-02"] == (6, None)
    assert {p["month"]: p["planned"] for p in mine["points"]}["2027-02"] == 2


def test_adopting_for_a_team_takes_only_its_people(db: Database, org_id: int) -> None:
    """A manager's adoption for their team: the team's people get what adopting for the
    whole organisation would give them, nobody else gets anything; adopting for the whole
    organisation afterwards adds only the others' items."""
    alpha, beta, ids = _team_with_people(db, org_id)
    with db.session() as s:
        store.assign_to_team(s, org_id, beta, ids[2:])  # p2 in Beta
        other_org = store.create_organisation(s, "Other")
        foreign = store.create_team(s, other_org.id, "Theirs").id
        sc = store.save_scenario(s, org_id, "live", {"fleet": {}})
        plan_id = store.save_plan(s, sc.id, _plan(["p0", "p1", "p2"]), date(2026, 10, 1)).id
        mine = store.adopt_saved_plan(s, org_id, plan_id, team_id=alpha, actor="lead")
        again = store.adopt_saved_plan(s, org_id, plan_id, team_id=alpha, actor="lead")
        assert store.list_roadmap_items(s, person_id=ids[2]) == []
        assert len(store.list_roadmap_items(s, person_id=ids[0])) == 2
        everyone = store.adopt_saved_plan(s, org_id, plan_id, actor="admin")
        entry = store.list_audit(s, entity="plan", entity_id=plan_id)
    # p2 (Beta), the planned hire and the untracked person are outside Alpha
    assert mine == {"created": 4, "already": 0, "outside": 3}
    assert again == {"created": 0, "already": 4, "outside": 3}
    assert everyone == {"created": 2, "already": 4, "hires": 1, "unknown": ["gone"]}
    scopes = sorted((e.actor, (e.after or {}).get("team_id")) for e in entry if e.action == "adopt")
    assert scopes == [("admin", None), ("lead", alpha), ("lead", alpha)]
    for team in (foreign, 9_999_999):  # another organisation's team, no team
        with pytest.raises(NotFound), db.session() as s:
            store.adopt_saved_plan(s, org_id, plan_id, team_id=team)


def test_an_archived_team_takes_no_one_new_by_any_door(db: Database, org_id: int) -> None:
    alpha, beta, ids = _team_with_people(db, org_id)
    with db.session() as s:
        store.update_person(s, ids[0], {"active": False})
        store.assign_to_team(s, org_id, beta, ids[1:])
        store.set_team_archived(s, org_id, alpha, True)
        # the inactive person stays in it and may still be changed
        store.update_person(s, ids[0], {"title": "Retired", "team_id": alpha})
    for call in (
        lambda s: store.add_person(s, org_id, key="n", name="N", team_id=alpha),
        lambda s: store.update_person(s, ids[1], {"team_id": alpha}),
    ):
        with pytest.raises(StoreError) as info, db.session() as s:
            call(s)
        assert info.value.problems[0].message == "the team is archived"


def test_a_course_already_finished_is_adopted_as_done(db: Database, org_id: int) -> None:
    _, _, ids = _team_with_people(db, org_id)
    with db.session() as s:
        e = store.enrol(s, ids[0], "c1", date(2026, 9, 1))
        store.complete_enrolment(s, e.id, date(2026, 9, 20))
        sc = store.save_scenario(s, org_id, "live", {"fleet": {}})
        plan_id = store.save_plan(s, sc.id, _plan(["p0", "p1"]), date(2026, 10, 1)).id
        store.adopt_saved_plan(s, org_id, plan_id)
        got = {
            (i.person_id, i.kind): (i.status, i.done_on) for i in store.list_roadmap_items(s, org_id=org_id)
        }
    assert got[(ids[0], "course")] == ("done", date(2026, 9, 20))
    assert got[(ids[0], "exam")] == ("planned", None)
    assert got[(ids[1], "course")] == ("planned", None)


def test_learning_summaries_at_once_match_one_at_a_time(db: Database, org_id: int) -> None:
    """The team page's and the teams list's summaries (three queries for everyone) say
    what asking for each person or team alone says: enrolments open and done, hours,
    roadmap items done and overdue; inactive people and empty teams count nothing."""
    alpha, beta, ids = _team_with_people(db, org_id)
    today = date(2026, 12, 2)
    with db.session() as s:
        gamma = store.create_team(s, org_id, "Gamma").id  # nobody in it
        store.assign_to_team(s, org_id, beta, ids[2:])
        e = store.enrol(s, ids[0], "fundamentals-dl", date(2026, 9, 1))
        store.record_hours(s, e.id, 6.5, completed_on=date(2026, 11, 1))
        store.enrol(s, ids[0], "intro-ai-infrastructure", date(2026, 10, 1))
        store.enrol(s, ids[2], "fundamentals-dl", date(2026, 10, 1))
        for pid, due, done in ((ids[0], date(2026, 11, 1), True), (ids[1], date(2026, 11, 1), False)):
            item = store.add_roadmap_item(
                s, pid, kind="exam", ref="nca-aiio", title="Exam", start=date(2026, 10, 1), due=due
            )
            if done:
                store.complete_roadmap_item(s, item.id, date(2026, 11, 2))
        store.add_roadmap_item(
            s, ids[1], kind="course", ref="x", title="Later", start=date(2027, 1, 1), due=date(2027, 2, 1)
        )
        inactive = store.add_person(s, org_id, key="gone", name="Gone", team_id=alpha, active=False)
        store.enrol(s, inactive.id, "fundamentals-dl", date(2026, 10, 1))
    with db.session() as s:
        people = store.learning_summaries(s, org_id, today, by="person", team_id=alpha)
        for pid in (*ids[:2], inactive.id):
            assert people.get(pid, store.empty_learning()) == store.learning_summary(
                s, org_id, today, person_id=pid
            )
        assert inactive.id not in people and ids[2] not in people  # inactive; another team
        assert people[ids[0]]["enrolments_done"] == 1 and people[ids[0]]["hours"] == 6.5
        assert people[ids[1]]["items_overdue"] == 1 and people[ids[1]]["items"] == 2
        teams = store.learning_summaries(s, org_id, today, by="team")
        for tid in (alpha, beta, gamma):
            assert teams.get(tid, store.empty_learning()) == store.learning_summary(
                s, org_id, today, team_id=tid
            )
        assert gamma not in teams and teams[alpha]["learners"] == 1
        assert store.team_head_counts(s, org_id) == {alpha: 2, beta: 1}
