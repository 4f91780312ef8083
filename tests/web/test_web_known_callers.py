"""Callers are remembered per process while the database's versions are unchanged
(gputeam.web.auth.load_principal). Whatever changes who may do what, made anywhere (here
straight through the store, as another process or `gputeam admin` would), takes effect on
the next request."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from tests.web.conftest import PASSWORD, World, logged_in, login, token_for

from gputeam import store


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_revoked_token_refused_at_once(app: Any, db: Any, world: World) -> None:
    c = logged_in(app, "admin")
    token = token_for(app, "admin", ["read"])
    assert c.get("/api/v1/me", headers=_bearer(token)).status_code == 200  # remembered
    with db.session() as s:
        [row] = [t for t in store.list_tokens(s) if t.revoked_at is None]
        store.revoke_token(s, row.id)
    r = c.get("/api/v1/me", headers=_bearer(token))
    assert r.status_code == 401 and "revoked" in r.json()["detail"]


def test_role_and_team_changes_apply_at_once(app: Any, db: Any, world: World) -> None:
    admin = logged_in(app, "admin")
    assert admin.get("/api/v1/users").status_code == 200
    with db.session() as s:
        store.update_user(s, world.users["admin"], role="viewer")
    assert admin.get("/api/v1/users").status_code == 403

    manager = logged_in(app, "manager")
    beta_person = f"/api/v1/people/{world.people['p3']}"
    assert manager.get(beta_person).status_code in (403, 404)
    with db.session() as s:
        store.set_user_teams(s, world.users["manager"], [world.alpha, world.beta])
    assert manager.get(beta_person).status_code == 200


def test_person_link_change_applies_at_once(app: Any, db: Any, world: World) -> None:
    engineer = logged_in(app, "engineer")
    assert engineer.get("/api/v1/me").json()["person_id"] == world.people["p1"]
    with db.session() as s:
        store.update_user(s, world.users["engineer"], person_id=world.people["p2"])
    assert engineer.get("/api/v1/me").json()["person_id"] == world.people["p2"]


def test_password_rehashed_at_login_keeps_the_new_session(app: Any, db: Any, world: World) -> None:
    """A login may rehash the password (argon2 parameters changed) without an audited
    account change: the session it starts must work although the process remembers the
    user with the old hash's fingerprint."""
    from argon2 import PasswordHasher

    from gputeam.store.schema import User

    first = logged_in(app, "viewer")
    assert first.get("/api/v1/me").status_code == 200  # remembered with this hash
    stronger = PasswordHasher(time_cost=2, memory_cost=1024, parallelism=1).hash(PASSWORD)
    with db.session() as s:  # as an upgrade of the hashing parameters would leave it
        s.execute(update(User).where(User.id == world.users["viewer"]).values(password_hash=stronger))
    from fastapi.testclient import TestClient

    second = TestClient(app)
    assert login(second, "viewer").status_code == 303  # rehashed with the app's params
    assert second.get("/api/v1/me").status_code == 200
