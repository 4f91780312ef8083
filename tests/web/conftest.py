"""Web test fixtures: the app on a real database (SQLite and PostgreSQL, from the store's
fixtures), a seeded organisation with one user per role, and login helpers."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest

# The store's database fixtures (db_url is parametrised over sqlite and postgresql; it
# skips PostgreSQL with a reason when unreachable, and fails instead when CI=true).
_spec = importlib.util.spec_from_file_location(
    "gputeam_store_fixtures", Path(__file__).parent.parent / "store" / "conftest.py"
)
assert _spec is not None and _spec.loader is not None
_store_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_store_fixtures)
pg_admin_url = _store_fixtures.pg_admin_url
pg_url = _store_fixtures.pg_url
sqlite_template = _store_fixtures.sqlite_template
db_url = _store_fixtures.db_url
db = _store_fixtures.db
ENGINES = _store_fixtures.ENGINES
create_pg_database = _store_fixtures.create_pg_database
drop_pg_database = _store_fixtures.drop_pg_database

TODAY = date(2026, 12, 2)
SECRET = "test-secret-" + "x" * 40
PASSWORD = "correct horse battery"
ROLES = ("admin", "manager", "engineer", "viewer")

ROSTER_CSV = (
    "id,name,email,title,level,experience_months,role,team,linux,GPU architecture\n"
    "p1,Ada Lovelace,ada@example.org,Sysadmin,2,12,operations-engineer,Alpha,3,2\n"
    "p2,Grace Hopper,grace@example.org,Network engineer,3,30,,Alpha,2,0\n"
    "p3,Linus T,linus@example.org,Storage admin,1,3,,Beta,4,1\n"
)


@dataclass
class World:
    """A seeded organisation: teams Alpha (the manager's) and Beta; people p1 (the
    engineer, in Alpha), p2 (Alpha), p3 (Beta); one user per role."""

    org_id: int
    alpha: int
    beta: int
    people: dict[str, int]
    users: dict[str, int]


def seed(database: Any) -> World:
    from gputeam import store

    with database.session() as s:
        org = store.create_organisation(s, "Acme")
        alpha = store.create_team(s, org.id, "Alpha")
        beta = store.create_team(s, org.id, "Beta")
        people = {}
        for key, name, team, role in (
            ("p1", "Ada Lovelace", alpha.id, "operations-engineer"),
            ("p2", "Grace Hopper", alpha.id, None),
            ("p3", "Linus T", beta.id, None),
        ):
            p = store.add_person(s, org.id, key=key, name=name, team_id=team, role=role, level=2)
            store.rate_skill(s, p.id, "linux", 3)
            people[key] = p.id
        store.add_certification(s, people["p1"], "nca-aiio", date(2024, 1, 15), date(2027, 1, 15))
        store.add_certification(s, people["p3"], "nca-aiio", date(2023, 1, 1), date(2025, 1, 1))
        users = {}
        for role in ROLES:
            u = store.create_user(
                s,
                role,
                PASSWORD,
                role,
                person_id=people["p1"] if role == "engineer" else None,
                team_ids=[alpha.id] if role == "manager" else [],
            )
            users[role] = u.id
        return World(org.id, alpha.id, beta.id, people, users)


def make_settings(**kw: Any) -> Any:
    from gputeam.web import Settings

    return Settings(secret_key=SECRET, **kw)


@pytest.fixture
def world(db: Any) -> World:
    return seed(db)


@pytest.fixture
def app(db: Any, world: World, tmp_path: Path) -> Any:
    from gputeam.store import PendingUploads
    from gputeam.web import create_app

    app = create_app(make_settings(), database=db, today=TODAY)
    # the guided import's uploads: this test's own directory, not the shared temporary one
    app.state.uploads = PendingUploads(tmp_path / "uploads", max_bytes=app.state.uploads.max_bytes)
    return app


@pytest.fixture
def client(app: Any) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    with TestClient(app) as c:
        yield c


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert m, "no CSRF field on the page"
    return m.group(1)


def login(client: Any, username: str, password: str = PASSWORD) -> Any:
    page = client.get("/login")
    r = client.post(
        "/login",
        data={"username": username, "password": password, "csrf_token": csrf_of(page.text), "next": "/"},
        follow_redirects=False,
    )
    return r


def logged_in(app: Any, role: str) -> Any:
    """A new TestClient logged in as ``role``; ``.csrf`` holds its CSRF token."""
    from fastapi.testclient import TestClient

    c = TestClient(app)
    r = login(c, role)
    assert r.status_code == 303, r.text
    c.csrf = csrf_of(c.get("/account").text)
    return c


def token_for(app: Any, role: str, scopes: list[str]) -> str:
    c = logged_in(app, role)
    r = c.post("/api/v1/tokens", json={"name": "t", "scopes": scopes}, headers={"X-CSRF-Token": c.csrf})
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2 with minimal cost parameters, so seeding users and logging in is quick;
    still the real argon2id (the production parameters are argon2-cffi's defaults)."""
    from argon2 import PasswordHasher

    from gputeam.store import accounts

    hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    monkeypatch.setattr(accounts, "_hasher", lambda: hasher)


@pytest.fixture(autouse=True)
def unfreeze_after_test() -> Iterator[None]:
    """The app freezes its long-lived objects (gputeam.web.heap); a test process builds
    and drops many apps, so give what a test froze back to the collector afterwards."""
    import gc

    yield
    gc.unfreeze()
