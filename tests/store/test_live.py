"""The live team converts to a valid Scenario that the planner accepts."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from gputeam.errors import ScenarioError
from gputeam.scenario import Constraints, Fleet, GpuStep, Scenario
from gputeam.store import (
    Database,
    add_certification,
    adopt_plan_roadmaps,
    get_person_by_key,
    list_roadmap_items,
    list_teams,
    rate_skill,
    save_plan,
    save_scenario,
    team_scenario,
    update_person,
)

from .test_import import load

FLEET = Fleet(
    gpus=(GpuStep(month=1, count=64), GpuStep(month=6, count=256)),
    interconnect="infiniband",
    orchestration="slurm",
)


def test_team_scenario_validates(db: Database, org_id: int) -> None:
    load(db, org_id)
    with db.session() as s:
        p2 = get_person_by_key(s, org_id, "p2")
        assert p2 is not None
        rate_skill(s, p2.id, "linux", 4)  # the newest rating wins
        add_certification(s, p2.id, "cka", date(2027, 1, 1), date(2029, 1, 1))  # renewal
        p3 = get_person_by_key(s, org_id, "p3")
        assert p3 is not None
        update_person(s, p3.id, {"active": False})
        sc = team_scenario(
            s,
            org_id,
            FLEET,
            start=date(2027, 1, 1),
            constraints=Constraints(deadline_month=9),
            horizon_months=12,
        )
        fabric = [t for t in list_teams(s, org_id) if t.name == "Fabric"][0]
        only_fabric = team_scenario(s, org_id, FLEET, start=date(2027, 1, 1), team_id=fabric.id)
    assert isinstance(sc, Scenario)
    Scenario.model_validate(sc.model_dump())  # round-trips through validation
    assert sc.organisation == "Acme" and sc.deadline == 9
    people = {p.id: p for p in sc.people}
    assert set(people) == {"p1", "p2"}  # p3 is inactive
    assert people["p2"].skills == {"cuda-drivers": 1, "linux": 4, "networking": 3}
    assert people["p2"].role == "network-specialist"
    certs = {c.id: c for c in people["p2"].certifications}
    assert certs["cka"].earned == date(2027, 1, 1)  # only the latest certificate
    assert people["p1"].weekly_study_hours == 4.5 and people["p1"].salary == 120000
    assert [p.id for p in only_fabric.people] == ["p2"]


def test_planner_runs_on_the_live_team(db: Database, org_id: int) -> None:
    planning = pytest.importorskip("gputeam.planning")
    from gputeam.catalog import load_catalog

    load(db, org_id)
    with db.session() as s:
        sc = team_scenario(s, org_id, FLEET, start=date(2027, 1, 1))
        result = planning.plan(sc, load_catalog(), date(2026, 12, 2))
        saved = save_scenario(s, org_id, "live", sc.model_dump(mode="json"))
        row = save_plan(s, saved.id, result.to_json(), date(2026, 12, 2))
        created = adopt_plan_roadmaps(s, org_id, row.plan, plan_id=row.id)
        again = adopt_plan_roadmaps(s, org_id, row.plan, plan_id=row.id)
        items = list_roadmap_items(s, org_id=org_id)
    assert created and again == []  # adopting twice does not duplicate
    assert len(items) == len(created)
    assert {i.person.key for i in items} <= {"p1", "p2", "p3"}


def test_stale_catalog_ids_are_reported(db: Database, org_id: int) -> None:
    load(db, org_id)
    with db.session() as s:
        p1 = get_person_by_key(s, org_id, "p1")
        assert p1 is not None
        rate_skill(s, p1.id, "quantum-plumbing", 2)
        with pytest.raises(ScenarioError) as info:
            team_scenario(s, org_id, FLEET, start=date(2027, 1, 1))
    assert "quantum-plumbing" in str(info.value)


def test_stale_catalog_ids_can_be_left_out_and_listed(db: Database, org_id: int, catalog: Any) -> None:
    from gputeam.errors import Problem

    load(db, org_id)
    with db.session() as s:
        p1 = get_person_by_key(s, org_id, "p1")
        assert p1 is not None
        rate_skill(s, p1.id, "quantum-plumbing", 2)
        notices: list[Problem] = []
        sc = team_scenario(s, org_id, FLEET, start=date(2027, 1, 1), catalog=catalog, notices=notices)
    [notice] = notices
    assert notice.path.startswith("person p1 (") and notice.path.endswith(".skills.quantum-plumbing")
    assert notice.found == "'quantum-plumbing'" and "not in the catalog" in notice.message
    person = next(p for p in sc.people if p.id == "p1")
    assert "quantum-plumbing" not in person.skills and person.skills  # the rest is kept


def test_plan_inputs_are_the_one_rule_of_the_live_team_scenario(db: Database, org_id: int) -> None:
    """The live team's fleet, constraints, horizon and mode are validated as PlanInputs (the
    what-ifs' model): the same inputs give the same refusal, and the scenario holds exactly
    the validated inputs."""
    from gputeam.scenario import PlanInputs

    load(db, org_id)
    bad = {"fleet": FLEET, "constraints": Constraints(deadline_month=20), "horizon_months": 12}
    with pytest.raises(ScenarioError) as direct:
        PlanInputs.parse(bad)
    with pytest.raises(ScenarioError) as live, db.session() as s:
        team_scenario(s, org_id, FLEET, start=date(2027, 1, 1), constraints=bad["constraints"])
    assert [(p.path, p.message) for p in live.value.problems] == [
        (p.path, p.message) for p in direct.value.problems
    ]
    with db.session() as s:
        sc = team_scenario(s, org_id, FLEET, start=date(2027, 1, 1), horizon_months=24, mode="lean")
    assert PlanInputs.of(sc) == PlanInputs.parse({"fleet": FLEET, "horizon_months": 24, "mode": "lean"})
