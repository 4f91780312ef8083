"""Properties of role-shaped plans (gputeam.tracker.reach, issue 20 item 1), for any reach
over a planned team: three plans computed once (the midsize, finance and healthcare
examples; healthcare's hire reasons name the closest candidate on staff), then many
reaches drawn."""

from __future__ import annotations

import json
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import gputeam.scenario
from gputeam.catalog import load_catalog
from gputeam.planning import Plan, plan
from gputeam.scenario import load_scenario
from gputeam.tracker import Reach, shape_plan, shape_salary_cost
from gputeam.tracker.reach import MIN_SALARIES

EXAMPLES = Path(gputeam.scenario.__file__).parent / "examples"


def _marked(name: str) -> Plan:
    """The example planned, its people renamed and paid values found nowhere else."""
    sc = load_scenario(EXAMPLES / f"{name}.yaml")
    people = tuple(
        p.model_copy(update={"name": f"Markerperson{i}Q Zed", "salary": 98765.43 + 1000 * i})
        for i, p in enumerate(sc.people)
    )
    return plan(sc.model_copy(update={"people": people}), load_catalog(), date(2026, 12, 2), runs=40)


@cache
def plans() -> tuple[Plan, ...]:
    return (_marked("midsize"), _marked("finance"), _marked("healthcare"))


def _strings(value: Any) -> list[str]:
    """Every string and number of the plan's JSON, as text (keys too)."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [str(k), *_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [str(value)]


@settings(max_examples=25, deadline=None)
@given(which=st.sampled_from([0, 1, 2]), seen=st.sets(st.integers(min_value=0, max_value=11)))
def test_a_shaped_plan_carries_no_one_outside_the_reach(which: int, seen: set[int]) -> None:
    """'A shaped plan must not carry other people's names, salaries, levels, skills,
    certificates or roadmaps; aggregates (team size, cost totals) may stay' (issue 20)."""
    full = plans()[which]
    people = full.scenario.people
    keys = frozenset(p.id for i, p in enumerate(people) if i in seen)
    shaped = shape_plan(full, Reach(keys=keys))
    text = json.dumps(shaped.to_json())
    values = set(_strings(shaped.to_json()))
    for p in people:
        if p.id in keys:
            assert p.name in text
            continue
        assert p.name not in text
        assert p.id not in values  # no field holds the key
        assert f"{p.salary:.2f}".rstrip("0") not in text
    assert {p.id for p in shaped.scenario.people} == keys & {p.id for p in people}
    assert all(r.hire or r.person in keys for r in shaped.roadmaps)
    # what is about the organisation stays as it was
    assert shaped.costs == full.costs and shaped.target == full.target and shaped.risk == full.risk
    assert [(h.role, h.level, h.count) for h in shaped.sourcing.hires] == [
        (h.role, h.level, h.count) for h in full.sourcing.hires
    ]
    assert [r for r in shaped.roadmaps if r.hire] == [r for r in full.roadmaps if r.hire]


def test_everyone_gets_the_plan_itself() -> None:
    full = plans()[0]
    assert shape_plan(full, Reach(everyone=True)) is full


def test_reach_of_a_caller() -> None:
    """Admin everyone; manager their teams; engineer themself; viewer nobody."""
    people = {"a": (1, 10), "b": (2, 10), "c": (3, 20), "d": (4, None)}
    assert Reach.of((None, None), people) == Reach(everyone=True)
    assert Reach.of((frozenset({10}), None), people).keys == {"a", "b"}
    assert Reach.of((None, 3), people).keys == {"c"}
    assert Reach.of(None, people) == Reach()
    assert not Reach().sees("a")


@given(recorded=st.integers(min_value=0, max_value=20), everyone=st.booleans())
def test_a_salary_sum_of_few_salaries_is_not_shown(recorded: int, everyone: bool) -> None:
    """'Per-person salaries never outside reach': a sum of 1 to 4 recorded salaries is
    shown to admins only."""
    cost = {"total": 1.0, "recorded": 1.0, "recorded_people": recorded, "estimated": 0.0, "basis": "x"}
    out = shape_salary_cost(cost, Reach(everyone=everyone))
    hidden = not everyone and 0 < recorded < MIN_SALARIES
    assert (out["total"] is None) == hidden and (out["recorded"] is None) == hidden
    assert out["recorded_people"] == recorded and out["basis"] == "x"


def test_a_name_is_hidden_as_whole_words_only() -> None:
    """A person named "Li" hides sentences that name them, not every word holding "Li"."""
    from gputeam.tracker.reach import _Hide

    hide = _Hide.of(frozenset({"p9"}), {"Li", "Ada Lovelace"})
    assert hide.mentions("upskill Li to Operations Engineer") and hide.mentions("(closest: Ada Lovelace, who")
    assert hide.mentions("p9") and not hide.mentions("p90")
    assert not hide.mentions("Linux administration") and not hide.mentions("Adapter")


@given(
    role=st.sampled_from(["admin", "manager", "engineer", "viewer"]),
    own=st.none() | st.integers(1, 9),
    teams=st.frozensets(st.integers(1, 5), max_size=3),
    person=st.integers(1, 9),
    team=st.none() | st.integers(1, 5),
)
def test_who_reads_whom(
    role: str, own: int | None, teams: frozenset[int], person: int, team: int | None
) -> None:
    """'read people: admin everyone, manager their teams, engineer themself, viewer no'
    (docs/web.md, Roles), and the reach over a roster agrees with the rule person by person."""
    from gputeam.tracker.reach import readable, reads

    got = reads(readable(role, own, teams), person, team)
    expected = {
        "admin": True,
        "manager": team is not None and team in teams,
        "engineer": own is not None and own == person,
        "viewer": False,
    }[role]
    assert got == expected
    roster = {"k": (person, team)}
    assert Reach.of(readable(role, own, teams), roster).sees("k") == expected
