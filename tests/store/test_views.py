"""The store's queries behind the tracker's lists (issue 10 §1), on both engines: the people
list's filters and sort orders, the certifications view with its expiry statuses, and the
skills matrix's proficiency counts; another organisation's people never appear."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from gputeam.catalog import EXPIRY_STATUSES, expiry_bounds, expiry_status
from gputeam.errors import InputError
from gputeam.store import (
    Database,
    PeopleFilter,
    add_certification,
    add_person,
    count_held,
    count_people,
    create_organisation,
    create_team,
    list_held,
    list_people,
    proficiency_counts,
    rate_skill,
)

TODAY = date(2026, 12, 2)


def _seed(db: Database, org_id: int) -> dict[str, int]:
    with db.session() as s:
        ops = create_team(s, org_id, "Ops").id
        net = create_team(s, org_id, "Net").id
        ids = {}
        for key, name, team, role, level, active in (
            ("a", "Ana", ops, "operations-engineer", 3, True),
            ("b", "Bob", ops, None, 1, True),
            ("c", "Cy", net, "network-specialist", 3, True),
            ("d", "Dee", None, None, 2, False),
        ):
            ids[key] = add_person(
                s, org_id, key=key, name=name, team_id=team, role=role, level=level, active=active
            ).id
        other = create_organisation(s, "Elsewhere").id
        ids["x"] = add_person(s, other, key="x", name="Aaron Outsider", level=3).id
        ids["ops"], ids["net"] = ops, net
        return ids


def test_people_filters_and_sorts(db: Database, org_id: int) -> None:
    ids = _seed(db, org_id)

    def keys(**kw: object) -> list[str]:
        sort = str(kw.pop("sort", "name"))
        desc = bool(kw.pop("descending", False))
        with db.session() as s:
            return [
                p.key
                for p in list_people(
                    s,
                    org_id,
                    where=PeopleFilter(**kw),  # type: ignore[arg-type]
                    sort=sort,
                    descending=desc,
                )
            ]

    assert keys() == ["a", "b", "c"]
    assert keys(active=None) == ["a", "b", "c", "d"]
    assert keys(active=False) == ["d"]
    assert keys(team_id=ids["ops"]) == ["a", "b"]
    assert keys(role="network-specialist") == ["c"]
    assert keys(role="", active=None) == ["b", "d"]
    assert keys(level=3) == ["a", "c"]
    assert keys(team_ids=(ids["net"],)) == ["c"]
    assert keys(person_id=ids["b"]) == ["b"]
    assert keys(sort="level", descending=True) == ["a", "c", "b"]
    assert keys(sort="team", active=None) == ["c", "a", "b", "d"]  # no team: last
    assert keys(sort="team", descending=True, active=None) == ["a", "b", "c", "d"]
    assert keys(sort="role") == ["c", "a", "b"]
    assert keys(sort="name", descending=True) == ["c", "b", "a"]
    with db.session() as s:
        assert count_people(s, org_id, where=PeopleFilter(active=None)) == 4
        assert count_people(s, org_id, where=PeopleFilter(team_id=ids["ops"], level=1)) == 1
        with pytest.raises(InputError, match="sort"):
            list_people(s, org_id, sort="salary; DROP TABLE people")


def test_expiry_status_is_one_rule_with_bounds() -> None:
    """Rule: expired after the expiry day; expiring-30/60/90 within that many days (the day
    itself included); else valid. expiry_bounds covers exactly the days of each status."""
    cases = {
        None: "valid",
        TODAY - timedelta(days=10): "expired",
        TODAY: "expiring-30",
        TODAY + timedelta(days=30): "expiring-30",
        TODAY + timedelta(days=31): "expiring-60",
        TODAY + timedelta(days=60): "expiring-60",
        TODAY + timedelta(days=61): "expiring-90",
        TODAY + timedelta(days=90): "expiring-90",
        TODAY + timedelta(days=91): "valid",
    }
    for expires, status in cases.items():
        assert expiry_status(expires, TODAY) == status
    for offset in range(-5, 100):
        day = TODAY + timedelta(days=offset)
        inside = []
        for status in EXPIRY_STATUSES:
            first, last = expiry_bounds(status, TODAY)
            if (first is None or first <= day) and (last is None or day <= last):
                inside.append(status)
        assert inside == [expiry_status(day, TODAY)]


def test_certifications_view_statuses_filters_and_isolation(db: Database, org_id: int) -> None:
    ids = _seed(db, org_id)
    with db.session() as s:
        # an RHCE that expired 10 days ago, renewed nowhere
        add_certification(s, ids["a"], "rhce", date(2023, 11, 22), TODAY - timedelta(days=10))
        add_certification(s, ids["a"], "nca-aiio", date(2025, 1, 1), TODAY + timedelta(days=20))
        add_certification(s, ids["b"], "nca-aiio", date(2025, 1, 1), TODAY + timedelta(days=45))
        # renewed: the old certificate is superseded and left out
        add_certification(s, ids["c"], "nca-aiio", date(2022, 1, 1), date(2024, 1, 1))
        add_certification(s, ids["c"], "nca-aiio", date(2024, 1, 1), TODAY + timedelta(days=80))
        add_certification(s, ids["c"], "ncp-ain", date(2025, 1, 1), None)
        add_certification(s, ids["d"], "rhce", date(2023, 1, 1), TODAY - timedelta(days=1))
        add_certification(s, ids["x"], "rhce", date(2023, 1, 1), TODAY - timedelta(days=3))

    def rows(**kw: object) -> list[tuple[str, str, str]]:
        with db.session() as s:
            return [(r.person_key, r.cert_id, r.status) for r in list_held(s, org_id, TODAY, **kw)]  # type: ignore[arg-type]

    assert rows() == [
        ("a", "rhce", "expired"),
        ("a", "nca-aiio", "expiring-30"),
        ("b", "nca-aiio", "expiring-60"),
        ("c", "nca-aiio", "expiring-90"),
        ("c", "ncp-ain", "valid"),
    ]
    assert rows(status="expired") == [("a", "rhce", "expired")]
    assert rows(status="expired", where=PeopleFilter(active=None)) == [
        ("a", "rhce", "expired"),
        ("d", "rhce", "expired"),
    ]
    assert rows(status="valid") == [("c", "ncp-ain", "valid")]
    assert rows(status="expiring-60") == [("b", "nca-aiio", "expiring-60")]
    assert rows(cert_id="nca-aiio", sort="expires", descending=True)[0][0] == "c"
    assert [r[0] for r in rows(sort="person", descending=True)] == ["c", "c", "b", "a", "a"]
    assert rows(where=PeopleFilter(team_id=ids["net"]), sort="certification") == [
        ("c", "nca-aiio", "expiring-90"),
        ("c", "ncp-ain", "valid"),
    ]
    assert rows(limit=2, offset=1) == rows()[1:3]
    with db.session() as s:
        assert count_held(s, org_id, TODAY) == 5
        assert count_held(s, org_id, TODAY, status="expired", where=PeopleFilter(active=None)) == 2
        with pytest.raises(InputError, match="sort"):
            list_held(s, org_id, TODAY, sort="valid_until")
    assert "x" not in {r[0] for r in rows(where=PeopleFilter(active=None))}


def test_proficiency_counts_use_latest_rating(db: Database, org_id: int) -> None:
    ids = _seed(db, org_id)
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    with db.session() as s:
        rate_skill(s, ids["a"], "linux", 1, rated_at=t0)
        rate_skill(s, ids["a"], "linux", 4, rated_at=t0 + timedelta(days=1))
        rate_skill(s, ids["b"], "linux", 3, rated_at=t0)
        rate_skill(s, ids["c"], "linux", 3, rated_at=t0)
        rate_skill(s, ids["c"], "nccl", 2, rated_at=t0)
        rate_skill(s, ids["d"], "linux", 4, rated_at=t0)  # inactive
        rate_skill(s, ids["x"], "linux", 4, rated_at=t0)  # another organisation
    with db.session() as s:
        assert proficiency_counts(s, org_id) == {"linux": {4: 1, 3: 2}, "nccl": {2: 1}}
        assert proficiency_counts(s, org_id, PeopleFilter(team_id=ids["ops"])) == {"linux": {4: 1, 3: 1}}
        assert proficiency_counts(s, org_id, PeopleFilter(active=None))["linux"] == {4: 2, 3: 2}
