"""The store is the one home of a person's rules (issue 9 §4): ``add_person`` and
``update_person`` validate what reaches them as ``PersonFields``, so code that calls the
store directly cannot store a role the catalog does not have, a malformed e-mail or an
impossible experience, and nothing is written. SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gputeam import store
from gputeam.catalog import load_catalog


def _people(db: Any, org_id: int) -> list[tuple[Any, ...]]:
    with db.session() as s:
        return [
            (p.key, p.email, p.role, p.experience_months) for p in store.list_people(s, org_id, active=None)
        ]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("role", "wizard", "unknown role"),
        ("email", "not-an-email", "not an e-mail address"),
        ("experience_months", 5000, "out of range"),
        ("experience_months", 2.5, "not a whole number"),
        ("level", True, "not a number"),
        ("name", "", "must not be empty"),
    ],
)
def test_add_person_refuses_bad_fields(db: Any, org_id: int, field: str, value: Any, message: str) -> None:
    before = _people(db, org_id)
    with pytest.raises(store.StoreError) as refused, db.session() as s:
        store.add_person(s, org_id, **({"key": "n1", "name": "New"} | {field: value}))
    assert [(p.path, p.message) for p in refused.value.problems] == [(f"person.{field}", message)]
    assert _people(db, org_id) == before


def test_every_refused_field_at_once_and_the_catalog_in_use(db: Any, org_id: int) -> None:
    with pytest.raises(store.StoreError) as refused, db.session() as s:
        store.add_person(s, org_id, key="n1", name="N", role="wizard", email="x", experience_months=-1)
    assert {p.path for p in refused.value.problems} == {
        "person.role",
        "person.email",
        "person.experience_months",
    }
    roles = load_catalog().roles
    [role] = [p for p in refused.value.problems if p.path == "person.role"]
    assert role.found == "wizard" and all(r in (role.expected or "") for r in roles)
    # a catalog extension's role is allowed when that catalog is the one in use
    senior = load_catalog().roles["senior-engineer"].model_dump(mode="json")
    extended = load_catalog({"roles": [senior | {"id": "wizard", "name": "Wizard"}]})
    with db.session() as s:
        assert (
            store.add_person(s, org_id, key="n1", name="N", role="wizard", catalog=extended).role == "wizard"
        )
    assert _people(db, org_id) == [("n1", None, "wizard", 0)]


def test_update_person_refuses_bad_fields_but_keeps_the_current_role(db: Any, org_id: int) -> None:
    from sqlalchemy import update

    with db.session() as s:
        pid = store.add_person(s, org_id, key="p1", name="Ada", role="senior-engineer").id
    for changes in ({"role": "wizard"}, {"email": "a@b"}, {"experience_months": 1201}, {"nickname": "x"}):
        with pytest.raises(store.StoreError), db.session() as s:
            store.update_person(s, pid, changes)
    assert _people(db, org_id) == [("p1", None, "senior-engineer", 0)]
    with db.session() as s:  # a role from a catalog since changed stays when left as it is
        s.execute(update(store.Person).where(store.Person.id == pid).values(role="legacy-role"))
    with db.session() as s:
        store.update_person(s, pid, {"role": "legacy-role", "experience_months": 12})
    with pytest.raises(store.StoreError), db.session() as s:
        store.update_person(s, pid, {"role": "other-legacy"})
    assert _people(db, org_id) == [("p1", None, "legacy-role", 12)]


def test_blank_is_none_and_text_is_trimmed(db: Any, org_id: int) -> None:
    with db.session() as s:
        p = store.add_person(s, org_id, key=" n1 ", name=" New\n", email=" ", role="", title="  ")
        assert (p.key, p.name, p.email, p.role, p.title) == ("n1", "New", None, None, "")


@given(
    st.dictionaries(
        st.sampled_from(["level", "experience_months", "weekly_study_hours", "salary"]),
        st.one_of(st.integers(-10, 2000), st.floats(allow_nan=True, allow_infinity=True)),
    )
)
def test_numbers_are_stored_only_within_their_rules(values: dict[str, Any]) -> None:
    """Property: a number field is accepted exactly when its rule (range, whole) holds, and
    is then stored as that number (whole numbers as int)."""
    try:
        got = store.PersonFields.parse(values).given()
    except store.StoreError as exc:
        bad = {p.path.removeprefix("person.") for p in exc.problems}
        assert bad and all(store.NUMBER_RULES[f].fault(values[f]) is not None for f in bad)
        return
    for name, v in values.items():
        assert store.NUMBER_RULES[name].fault(v) is None and got[name] == v
        assert isinstance(got[name], int) == store.NUMBER_RULES[name].whole
