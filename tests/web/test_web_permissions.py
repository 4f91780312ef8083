"""Properties of the permission rules (gputeam.web.permissions), for any role, scopes,
teams and records."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gputeam.web.permissions import GRANTS, ROLES, SCOPES, Perm, Principal

ids = st.integers(min_value=1, max_value=50)
principals = st.builds(
    Principal,
    user_id=ids,
    username=st.just("u"),
    role=st.sampled_from(ROLES),
    person_id=st.none() | ids,
    team_ids=st.frozensets(ids, max_size=4),
    scopes=st.none() | st.frozensets(st.sampled_from(SCOPES)),
    via=st.sampled_from(["session", "token"]),
)


@given(principals, st.sampled_from(list(Perm)))
def test_nobody_exceeds_their_role(who: Principal, perm: Perm) -> None:
    """'A token acts for its user, narrowed by scopes': no scope adds a permission the
    role lacks."""
    if who.can(perm):
        assert who.role in GRANTS[perm]


@given(principals, st.sampled_from(list(Perm)))
def test_a_token_never_exceeds_the_session(who: Principal, perm: Perm) -> None:
    session = Principal(who.user_id, who.username, who.role, who.person_id, who.team_ids)
    if who.can(perm):
        assert session.can(perm)


@given(principals, ids, st.none() | ids)
def test_record_rules(who: Principal, person_id: int, team_id: int | None) -> None:
    """Changing a person's records needs reading them; viewers read no one; engineers
    only themselves; managers only their teams."""
    if who.may_change_records(person_id, team_id) or who.may_change_person(person_id, team_id):
        assert who.may_read_person(person_id, team_id)
    if who.may_read_person(person_id, team_id):
        assert who.role != "viewer"
        if who.role == "engineer":
            assert who.person_id == person_id
        if who.role == "manager":
            assert team_id in who.team_ids
    if who.may_change_person(person_id, team_id):
        assert who.role in ("admin", "manager")


@given(principals)
def test_read_only_tokens_change_nothing(who: Principal) -> None:
    if who.scopes is not None and who.scopes <= {"read"}:
        for perm in Perm:
            if perm.value.endswith((":write", ":run", ":admin")) or perm == Perm.IMPORT:
                assert not who.can(perm)
