"""Exams served by the store (issue 11 §3-4): forms, server time, saves, finishing,
sweeping, retakes, practical sign-off and what a pass records. Both engines."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from tests.store.exam_helpers import (
    CERT,
    START,
    exam_catalog,
    right_answers,
    setup_programme,
    wrong_answers,
)

from gputeam import store
from gputeam.certify.programme import GRACE_SECONDS
from gputeam.store.schema_exams import ExamAttempt

CATALOG = exam_catalog()


@pytest.fixture
def world(db: Any) -> dict[str, Any]:
    with db.session() as s:
        org = store.create_organisation(s, "Acme")
        team = store.create_team(s, org.id, "Alpha")
        p1 = store.add_person(s, org.id, key="p1", name="Ada", team_id=team.id)
        p2 = store.add_person(s, org.id, key="p2", name="Grace", team_id=team.id)
        prog = setup_programme(s, org.id, CATALOG)
        return {"org": org.id, "p1": p1.id, "p2": p2.id, "prog": prog.code}


def _prog(s: Any, w: dict[str, Any]) -> Any:
    return store.get_programme(s, w["org"], w["prog"])


def test_start_draws_blueprint_counts_and_resume_shows_the_same_form(db: Any, world: Any) -> None:
    with db.session() as s:
        a = store.start_attempt(s, _prog(s, world), world["p1"], now=START, catalog=CATALOG)
        view = store.attempt_view(s, a, now=START)
    assert len(view["questions"]) == 10
    domains = [q["id"].split("-")[0] for q in view["questions"]]
    assert sorted(domains.count(d) for d in set(domains)) == [2, 4, 4]  # 40/38/22 of 10
    assert view["remaining_seconds"] == 30 * 60
    with db.session() as s:  # a reload, a resume on another device: the same attempt and form
        again = store.start_attempt(
            s, _prog(s, world), world["p1"], now=START + timedelta(minutes=5), catalog=CATALOG
        )
        view2 = store.attempt_view(s, again, now=START + timedelta(minutes=5))
    assert again.id == a.id
    assert [q["id"] for q in view2["questions"]] == [q["id"] for q in view["questions"]]
    assert view2["remaining_seconds"] == 25 * 60


def test_no_answer_key_in_the_candidate_view(db: Any, world: Any) -> None:
    with db.session() as s:
        a = store.start_attempt(s, _prog(s, world), world["p1"], now=START, catalog=CATALOG)
        text = repr(store.attempt_view(s, a, now=START))
    for leak in ("fraction", "feedback", "good", "tolerance", "'#", "score"):
        assert leak not in text


def test_saves_return_remaining_time_and_are_refused_after_deadline_plus_grace(db: Any, world: Any) -> None:
    with db.session() as s:
        a = store.start_attempt(s, _prog(s, world), world["p1"], now=START, catalog=CATALOG)
        item = store.attempt_view(s, a, now=START)["questions"][0]["id"]
        assert (
            store.save_answer(s, a.id, world["p1"], item, 1, now=START + timedelta(seconds=61))
            == 30 * 60 - 61
        )
        end = a.deadline
        assert (
            store.save_answer(s, a.id, world["p1"], item, 0, now=end + timedelta(seconds=GRACE_SECONDS)) == 0
        )
    with pytest.raises(store.TooLate), db.session() as s:
        store.save_answer(s, a.id, world["p1"], item, 2, now=end + timedelta(seconds=GRACE_SECONDS + 1))
    with db.session() as s:
        assert store.attempt_view(s, s.get(type(a), a.id), now=START)["answers"] == {item: 0}
        # the options are shown in an order of the attempt's own: option 0 shown is not
        # always the file's first (the right one, in this bank)
        views = [store.attempt_view(s, s.get(type(a), a.id), now=START)["questions"]]
        assert {tuple(o["text"][:5] for o in q["options"]).index("Right") for q in views[0]} != {0}


def test_bad_responses_and_other_peoples_attempts_are_refused(db: Any, world: Any) -> None:
    with db.session() as s:
        a = store.start_attempt(s, _prog(s, world), world["p1"], now=START, catalog=CATALOG)
        item = store.attempt_view(s, a, now=START)["questions"][0]["id"]
    for value in (7, "x", True):
        with pytest.raises(store.StoreError, match="option"), db.session() as s:
            store.save_answer(s, a.id, world["p1"], item, value, now=START)
    with pytest.raises(store.NotFound), db.session() as s:
        store.save_answer(s, a.id, world["p2"], item, 0, now=START)
    with pytest.raises(store.StoreError, match="not a question"), db.session() as s:
        store.save_answer(s, a.id, world["p1"], "storage-999", 0, now=START)


def test_time_multiplier_extends_the_deadline(db: Any, world: Any) -> None:
    with db.session() as s:
        store.set_time_multiplier(s, world["p1"], 1.5, note="accommodation", actor="admin")
        a = store.start_attempt(s, _prog(s, world), world["p1"], now=START, catalog=CATALOG)
        assert a.deadline == START + timedelta(minutes=45)
    with pytest.raises(store.StoreError), db.session() as s:
        store.set_time_multiplier(s, world["p1"], 0.5)


def test_pass_records_certification_skills_and_credential(db: Any, world: Any) -> None:
    issuer = store.Issuer(secret="s" * 40, base_url="https://tracker.example")
    with db.session() as s:
        a = store.start_attempt(s, _prog(s, world), world["p1"], now=START, catalog=CATALOG)
        for item, choice in right_answers(store.attempt_view(s, a, now=START)).items():
            store.save_answer(s, a.id, world["p1"], item, choice, now=START)
        done = store.finish_attempt(
            s, a.id, now=START + timedelta(minutes=20), catalog=CATALOG, issuer=issuer
        )
        assert done.passed is True and done.score == 1.0
        held = store.list_certifications(s, person_id=world["p1"])
        assert [(c.cert_id, c.valid_until.isoformat()) for c in held] == [(CERT, "2028-12-02")]
        assert store.current_skills(s, [world["p1"]])[world["p1"]]["infiniband"] == 2
        creds = store.list_credentials(s, world["org"], person_id=world["p1"])
        assert len(creds) == 1
        subject = creds[0].document["credentialSubject"]
        values = {r["resultDescription"].rsplit("#", 1)[1]: r["value"] for r in subject["result"]}
        assert values == {
            "domain-networking": "100 %",
            "domain-storage": "100 %",
            "domain-operations": "100 %",
            "exam": "100 %",
        }
        assert "10 questions in 30 minutes" in subject["achievement"]["criteria"]["narrative"]
        # the programme's achievement (its criteria are the programme's): its own public page
        assert (
            subject["achievement"]["id"] == f"https://tracker.example/achievements/{CERT}/programmes/acme-l2"
        )
        public = store.public_achievement(
            s, world["org"], CATALOG, CERT, base_url="https://tracker.example", programme=world["prog"]
        )
        assert public["criteria"] == subject["achievement"]["criteria"]
        view = store.attempt_view(s, done, now=START + timedelta(minutes=20))
    assert "questions" not in view and "fractions" not in view["result"]
    from datetime import UTC, datetime

    from gputeam.credentials import verify

    assert verify(creds[0].document, now=datetime(2027, 1, 1, tzinfo=UTC)).valid


def test_what_a_pass_records_reaches_the_reminders_and_the_planner(db: Any, world: Any) -> None:
    """Issue 11 §3: the certification a pass records, with its validity, and the skill
    ratings are what the reminders and the planner's live team read."""
    from datetime import date

    from gputeam.scenario import Fleet, GpuStep

    with db.session() as s:
        a = store.start_attempt(s, _prog(s, world), world["p1"], now=START, catalog=CATALOG)
        for item, choice in right_answers(store.attempt_view(s, a, now=START)).items():
            store.save_answer(s, a.id, world["p1"], item, choice, now=START)
        store.finish_attempt(s, a.id, now=START + timedelta(minutes=20), catalog=CATALOG)
    with db.session() as s:  # valid 24 months: due for renewal within 90 days of 2028-12-02
        assert store.due_reminders(s, date(2028, 6, 1), catalog=CATALOG) == []
        [due] = store.due_reminders(s, date(2028, 10, 1), catalog=CATALOG)
        assert "Ada" in due.line() and "ACME GPU Cluster Operator, Level 2" in due.line()
        fleet = Fleet(gpus=(GpuStep(month=1, count=64),), interconnect="infiniband", orchestration="slurm")
        scenario = store.team_scenario(s, world["org"], fleet, start=date(2027, 1, 1), catalog=CATALOG)
    ada = next(p for p in scenario.people if p.name == "Ada")
    assert [(c.id, c.earned, c.expires) for c in ada.certifications] == [
        (CERT, date(2026, 12, 2), date(2028, 12, 2))
    ]
    assert ada.skills["infiniband"] == 2


def test_a_pass_is_recorded_when_the_issuing_key_cannot_be_unsealed(db: Any, world: Any) -> None:
    """The key was sealed with another secret (GPUTEAM_SECRET_KEY changed): the pass, the
    certification and the skills are recorded, no credential is issued, and the audit says
    why."""
    with db.session() as s:
        store.current_issuer_key(s, world["org"], "an-earlier-secret-" + "q" * 30)
    issuer = store.Issuer(secret="s" * 40, base_url="https://tracker.example")
    with db.session() as s:
        a = store.start_attempt(s, _prog(s, world), world["p1"], now=START, catalog=CATALOG)
        for item, choice in right_answers(store.attempt_view(s, a, now=START)).items():
            store.save_answer(s, a.id, world["p1"], item, choice, now=START)
        done = store.finish_attempt(
            s, a.id, now=START + timedelta(minutes=20), catalog=CATALOG, issuer=issuer, actor="p1"
        )
        assert done.passed is True
    with db.session() as s:
        assert [c.cert_id for c in store.list_certifications(s, person_id=world["p1"])] == [CERT]
        assert store.current_skills(s, [world["p1"]])[world["p1"]]["infiniband"] == 2
        assert store.list_credentials(s, world["org"], person_id=world["p1"]) == []
        failed = [e for e in store.list_audit(s, entity="credential") if e.action == "issue-failed"]
    assert len(failed) == 1 and failed[0].after is not None
    reason = failed[0].after["reason"]
    assert "does not open with this server's secret" in reason and "the pass is recorded" in reason
    assert failed[0].after["person_id"] == world["p1"]


def test_fail_gives_domain_feedback_and_the_cooldown(db: Any, world: Any) -> None:
    with db.session() as s:
        a = store.start_attempt(s, _prog(s, world), world["p1"], now=START, catalog=CATALOG)
        view = store.attempt_view(s, a, now=START)
        right, wrong = right_answers(view), wrong_answers(view)
        for q in view["questions"]:
            pick = wrong if q["id"].startswith("networking") else right
            store.save_answer(s, a.id, world["p1"], q["id"], pick[q["id"]], now=START)
        store.finish_attempt(s, a.id, now=START + timedelta(minutes=10), catalog=CATALOG)
        result = store.attempt_view(s, a, now=START + timedelta(minutes=10))
    assert result["result"]["passed"] is False, result
    feedback = {d["domain"]: d["feedback"] for d in result["result"]["domains"]}
    # "networking" is a catalog domain: its name is used
    assert feedback == {
        "networking": "Networking fundamentals 0 % — below the 60 % domain minimum",
        "operations": "operations 100 %",
        "storage": "storage 100 %",
    }
    assert result["next_attempt"] == "2026-12-09"  # the catalog's retake wait: 7 days
    with pytest.raises(store.StoreError, match="2026-12-09"), db.session() as s:
        store.start_attempt(s, _prog(s, world), world["p1"], now=START + timedelta(days=3), catalog=CATALOG)
    with db.session() as s:  # after the cooldown a retake draws a new form
        b = store.start_attempt(
            s, _prog(s, world), world["p1"], now=START + timedelta(days=8), catalog=CATALOG
        )
        assert b.number == 2 and b.seed != a.seed


def test_attempts_allowed(db: Any, world: Any) -> None:
    now = START
    for _ in range(3):
        with db.session() as s:
            a = store.start_attempt(s, _prog(s, world), world["p1"], now=now, catalog=CATALOG)
            store.finish_attempt(s, a.id, now=now, catalog=CATALOG)
        now += timedelta(days=8)
    with pytest.raises(store.StoreError, match="all 3 attempts used"), db.session() as s:
        store.start_attempt(s, _prog(s, world), world["p1"], now=now, catalog=CATALOG)


def test_overdue_attempt_is_finished_on_read_and_by_the_sweep_once(db: Any, world: Any) -> None:
    with db.session() as s:
        a = store.start_attempt(s, _prog(s, world), world["p1"], now=START, catalog=CATALOG)
        b = store.start_attempt(s, _prog(s, world), world["p2"], now=START, catalog=CATALOG)
        item, choice = next(iter(right_answers(store.attempt_view(s, a, now=START)).items()))
        store.save_answer(s, a.id, world["p1"], item, choice, now=START + timedelta(minutes=1))
    late = START + timedelta(minutes=30, seconds=GRACE_SECONDS + 1)
    with db.session() as s:
        assert (
            store.current_attempt(s, a.id, now=START + timedelta(minutes=30), catalog=CATALOG).state
            == "in_progress"
        )  # within the grace
        read = store.current_attempt(s, a.id, now=late, catalog=CATALOG)
        assert (read.state, read.finished_how) == ("finished", "timeout")
        version = next(r.id for r in store.bank_items(s, read.programme_id) if r.item_id == item)
        k = read.form.index(version)
        assert read.result["fractions"][4 * k : 4 * k + 4] == "2000"  # marked from the saved answer
    with db.session() as s:
        assert store.finalise_overdue(s, now=late, catalog=CATALOG) == store.Swept([b.id], [])
    with db.session() as s:
        assert store.finalise_overdue(s, now=late, catalog=CATALOG) == store.Swept([], [])


def test_sweep_finishes_each_attempt_in_its_own_savepoint(db: Any, world: Any) -> None:
    """An attempt the store refuses to finish (its pass grants a certification the catalog
    given lacks) is rolled back alone and reported; the others are finished."""
    from gputeam.catalog import load_catalog

    with db.session() as s:
        a = store.start_attempt(s, _prog(s, world), world["p1"], now=START, catalog=CATALOG)
        for item, choice in right_answers(store.attempt_view(s, a, now=START)).items():
            store.save_answer(s, a.id, world["p1"], item, choice, now=START + timedelta(minutes=1))
        b = store.start_attempt(s, _prog(s, world), world["p2"], now=START, catalog=CATALOG)
    late = START + timedelta(hours=1)
    with db.session() as s:  # the packaged catalog alone: no acme-operator-l2
        swept = store.finalise_overdue(s, now=late, catalog=load_catalog())
    assert swept.finished == [b.id]
    [(failed, why)] = swept.failed
    assert failed == a.id and "not in the catalog" in why and CERT in why
    with db.session() as s:
        assert s.get(type(a), a.id).state == "in_progress"
        assert s.get(type(b), b.id).state == "finished"
        assert store.finalise_overdue(s, now=late, catalog=load_catalog(), skip=[a.id]) == store.Swept([], [])
    with db.session() as s:  # with the catalog that has it, the pass is recorded
        assert store.finalise_overdue(s, now=late, catalog=CATALOG) == store.Swept([a.id], [])
        assert s.get(type(a), a.id).passed is True


def test_retired_items_are_not_drawn_and_used_items_get_new_versions(db: Any, world: Any) -> None:
    from tests.store.exam_helpers import gift_bank

    from gputeam.certify import read_bank

    with db.session() as s:
        prog = _prog(s, world)
        for i in range(8):
            store.retire_item(s, prog.id, f"networking-{i:03d}", now=START)
        a = store.start_attempt(s, prog, world["p1"], now=START, catalog=CATALOG)
        ids = [q["id"] for q in store.attempt_view(s, a, now=START)["questions"]]
        assert sorted(i for i in ids if i.startswith("networking")) == [
            f"networking-{i:03d}" for i in range(8, 12)
        ]
        changed = gift_bank().replace("Question 8 about networking", "Question 8, reworded,")
        report = store.import_bank(s, prog.id, read_bank(changed.encode(), "gift").bank, now=START)
        assert report.new_versions == ["networking-008"] or "networking-008" in report.updated
        assert len(report.retired) == 8
        view = store.attempt_view(s, a, now=START)  # the attempt keeps the version it drew
        texts = {q["id"]: q["text"] for q in view["questions"]}
        if "networking-008" in texts:
            assert "reworded" not in texts["networking-008"]
            assert report.new_versions == ["networking-008"]


def test_practical_sign_off_rules_and_pass(db: Any, world: Any) -> None:
    rubric = [{"id": "drain", "name": "Drains a node"}, {"id": "ib", "name": "Checks IB links"}]
    with db.session() as s:
        prog = setup_programme(s, world["org"], CATALOG, code="lab", rubric=rubric)
        a = store.start_attempt(s, prog, world["p1"], now=START, catalog=CATALOG)
        for item, choice in right_answers(store.attempt_view(s, a, now=START)).items():
            store.save_answer(s, a.id, world["p1"], item, choice, now=START)
        store.finish_attempt(s, a.id, now=START, catalog=CATALOG)
        assert store.list_certifications(s, person_id=world["p1"]) == []  # practical missing
    with pytest.raises(store.StoreError, match="own practical"), db.session() as s:
        store.grade_practical(
            s,
            store.get_programme(s, world["org"], "lab"),
            world["p2"],
            {"drain": "met"},
            assessor="p2",
            role="engineer",
            assessor_person_id=world["p2"],
        )
    with pytest.raises(store.StoreError, match="named assessors"), db.session() as s:
        store.grade_practical(
            s,
            store.get_programme(s, world["org"], "lab"),
            world["p2"],
            {"drain": "met"},
            assessor="p1",
            role="engineer",
            assessor_person_id=world["p1"],
        )
    with db.session() as s:
        prog = store.get_programme(s, world["org"], "lab")
        kw = {"assessor": "grace", "role": "engineer", "assessor_person_id": world["p2"]}
        store.grade_practical(s, prog, world["p1"], {"drain": "not met", "ib": "met"}, **kw)
        store.grade_practical(
            s, prog, world["p1"], {"drain": {"grade": "met", "evidence": "https://x/1"}}, **kw
        )
        row = store.sign_off(s, prog, world["p1"], now=START, catalog=CATALOG, **kw)
        assert row.outcome == "pass"
        assert [c.cert_id for c in store.list_certifications(s, person_id=world["p1"])] == [CERT]
        actions = [e.action for e in store.list_audit(s, entity="practical", oldest_first=True)]
    assert actions == ["grade", "grade", "sign-off"]


def test_renewal_by_re_exam_records_and_issues_anew(db: Any, world: Any) -> None:
    issuer = store.Issuer(secret="s" * 40, base_url="https://tracker.example")
    for day in (0, 400):
        now = START + timedelta(days=day)
        with db.session() as s:
            a = store.start_attempt(s, _prog(s, world), world["p1"], now=now, catalog=CATALOG)
            for item, choice in right_answers(store.attempt_view(s, a, now=now)).items():
                store.save_answer(s, a.id, world["p1"], item, choice, now=now)
            store.finish_attempt(s, a.id, now=now, catalog=CATALOG, issuer=issuer)
    with db.session() as s:
        held = sorted(c.valid_from.isoformat() for c in store.list_certifications(s, person_id=world["p1"]))
        creds = store.list_credentials(s, world["org"], person_id=world["p1"])
    assert held == ["2026-12-02", "2028-01-06"]
    assert len(creds) == 2 and len({c.uuid for c in creds}) == 2


def test_starting_again_finishes_an_overdue_attempt_first(db: Any, world: Any) -> None:
    """An attempt in progress whose time and grace ran out is finished (from its saved
    answers) when the person starts again; then the rules for a new attempt apply: after
    the cooldown a new attempt with a new form, before it a refusal naming the date."""
    with db.session() as s:
        a = store.start_attempt(s, _prog(s, world), world["p1"], now=START, catalog=CATALOG)
        b = store.start_attempt(s, _prog(s, world), world["p2"], now=START, catalog=CATALOG)
    with db.session() as s:
        again = store.start_attempt(
            s, _prog(s, world), world["p1"], now=START + timedelta(days=8), catalog=CATALOG
        )
        assert again.id != a.id and again.number == 2 and again.state == "in_progress"
        assert again.seed != a.seed
        old = s.get(ExamAttempt, a.id)
        assert (old.state, old.finished_how, old.passed) == ("finished", "timeout", False)
    late = START + timedelta(minutes=30, seconds=GRACE_SECONDS + 1)
    with pytest.raises(store.StoreError, match="2026-12-09"), db.session() as s:
        store.start_attempt(s, _prog(s, world), world["p2"], now=late, catalog=CATALOG)
    with db.session() as s:  # within the grace it is still the attempt in progress
        assert (
            store.start_attempt(
                s, _prog(s, world), world["p2"], now=late - timedelta(seconds=2), catalog=CATALOG
            ).id
            == b.id
        )


def test_overdue_attempts_are_finished_in_scope(db: Any, world: Any) -> None:
    """A read finishes the overdue attempts of the person or programme it reports on, and
    no others."""
    with db.session() as s:
        prog = _prog(s, world)
        other = setup_programme(s, world["org"], CATALOG, code="other")
        a = store.start_attempt(s, prog, world["p1"], now=START, catalog=CATALOG).id
        b = store.start_attempt(s, prog, world["p2"], now=START, catalog=CATALOG).id
        c = store.start_attempt(s, other, world["p1"], now=START, catalog=CATALOG).id
    late = START + timedelta(hours=1)
    with db.session() as s:
        swept = store.finalise_overdue(s, now=late, catalog=CATALOG, limit=None, person_id=world["p2"])
        assert swept == store.Swept([b], [])
        swept = store.finalise_overdue(s, now=late, catalog=CATALOG, limit=None, programme_id=other.id)
        assert swept == store.Swept([c], [])
        assert s.get(ExamAttempt, a).state == "in_progress"


def test_only_the_blueprints_teams_may_sit(db: Any, world: Any) -> None:
    """`blueprint.teams`: a person in no listed team (or in no team) is refused at start;
    a person of a listed team starts."""
    with db.session() as s:
        beta = store.create_team(s, world["org"], "Beta")
        p3 = store.add_person(s, world["org"], key="p3", name="Linus", team_id=beta.id).id
        p4 = store.add_person(s, world["org"], key="p4", name="Nobody").id
        prog = setup_programme(s, world["org"], CATALOG, code="beta-only", teams=[beta.id])
    for outsider in (world["p1"], p4):
        with pytest.raises(store.StoreError, match="not in a team that may sit"), db.session() as s:
            store.start_attempt(s, prog, outsider, now=START, catalog=CATALOG)
    with db.session() as s:
        assert store.start_attempt(s, prog, p3, now=START, catalog=CATALOG).state == "in_progress"
        assert store.attempts_of(s, prog.id, world["p1"]) == []


def test_item_statistics_csv_neutralises_the_authors_texts(db: Any, world: Any) -> None:
    """An item id or domain a spreadsheet would run as a formula is written with a leading
    apostrophe (gputeam.spreadsheet.csv_cell), like every other CSV export."""
    import csv
    import io

    from gputeam.certify import read_bank

    hostile = '// [id:=HYPERLINK("http://evil.example")] [tag:domain-+cmd]\n::Bad::Which?{=Right ~Wrong}\n'
    with db.session() as s:
        prog = _prog(s, world)
        store.import_bank(s, prog.id, read_bank(hostile.encode(), "gift").bank, now=START)
        text = store.item_statistics_csv(store.item_statistics(s, prog.id))
    [row] = [r for r in csv.DictReader(io.StringIO(text)) if "HYPERLINK" in r["item_id"]]
    assert row["item_id"] == '\'=HYPERLINK("http://evil.example")'
    assert row["domain"] == "'+cmd"
