"""Property: an import writes every row or none, and reports exactly the bad rows."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gputeam.store import (
    Database,
    ImportRejected,
    create_organisation,
    export_data,
    import_roster,
    list_people,
)

_names = itertools.count()

rows = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c", "d", "e", "f", ""]),
        st.sampled_from(["1", "3", "5", "0", "6", "x", "2,0", " 4 "]),
        st.sampled_from(["0", "2", "4", "5", "expert", "-1", ""]),
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows)
def test_import_is_all_or_nothing(db: Database, data: list[tuple[str, str, str]]) -> None:
    """Rows with an empty id, a duplicate id, a level outside 1-5 or a proficiency
    outside 0-4 make the whole import fail with exactly those rows reported and nothing
    written; otherwise every row is written."""
    text = "id;name;level;linux\n" + "".join(f"{i};Name {i};{lv};{sk}\n" for i, lv, sk in data)
    bad: set[int] = set()
    seen: set[str] = set()
    for line, (key, level, skill) in enumerate(data, start=2):
        level_ok = level.strip() in {"1", "3", "4", "5"} or level == "2,0"
        skill_ok = skill in {"0", "2", "4", "expert", ""}
        if not key or key in seen or not level_ok or not skill_ok:
            bad.add(line)
        if key and key not in seen:
            seen.add(key)
    with db.session() as s:
        org = create_organisation(s, f"Prop {next(_names)}").id
        before = export_data(s, org, include_audit=False)
    try:
        with db.session() as s:
            import_roster(s, org, text.encode(), filename="p.csv")
    except ImportRejected as exc:
        assert {p.line for p in exc.problems} == bad
        with db.session() as s:
            assert export_data(s, org, include_audit=False) == before
    else:
        assert not bad
        with db.session() as s:
            assert sorted(p.key for p in list_people(s, org)) == sorted(seen)
