"""Two real app processes (uvicorn subprocesses) on one PostgreSQL database: a change made
through one is seen through the other, a session started on one works on the other, and
the per-process caches (dashboard, live team) notice changes made elsewhere."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import PASSWORD, SECRET, World, csrf_of


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def two_servers(db_url: str, world: World, tmp_path: Any) -> Iterator[list[str]]:
    env = {**os.environ, "GPUTEAM_DB": db_url, "GPUTEAM_SECRET_KEY": SECRET, "GPUTEAM_DEV": "0"}
    procs, urls = [], []
    for i in range(2):
        port = _free_port()
        log = open(tmp_path / f"server{i}.log", "wb")  # noqa: SIM115 (closed below)
        procs.append(
            (
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "uvicorn",
                        "--factory",
                        "gputeam.web:create_app_from_env",
                        "--host",
                        "127.0.0.1",
                        "--port",
                        str(port),
                        "--log-level",
                        "warning",
                    ],
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                ),
                log,
            )
        )
        urls.append(f"http://127.0.0.1:{port}")
    try:
        import httpx

        deadline = time.monotonic() + 30
        for url in urls:
            while True:
                try:
                    if httpx.get(url + "/login", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    logs = [(tmp_path / f"server{i}.log").read_text() for i in range(2)]
                    pytest.fail(f"servers did not start: {logs}")
                time.sleep(0.2)
        yield urls
    finally:
        for proc, log in procs:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
            log.close()


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_change_through_one_process_is_seen_through_the_other(two_servers: list[str]) -> None:
    import httpx

    a_url, b_url = two_servers
    a = httpx.Client(base_url=a_url)
    page = a.get("/login")
    r = a.post(
        "/login",
        data={"username": "admin", "password": PASSWORD, "csrf_token": csrf_of(page.text), "next": "/"},
    )
    assert r.status_code == 303
    csrf = csrf_of(a.get("/account").text)

    # the same browser session, now sent to the other process
    b = httpx.Client(base_url=b_url, cookies=a.cookies)
    assert b.get("/api/v1/me").json()["username"] == "admin"
    assert b.get("/api/v1/dashboard").json()["headcount"] == 3  # B caches the dashboard

    r = a.post(
        "/api/v1/people", json={"key": "p-two", "name": "Seen Elsewhere"}, headers={"X-CSRF-Token": csrf}
    )
    assert r.status_code == 201, r.text
    pid = r.json()["id"]

    assert b.get(f"/api/v1/people/{pid}").json()["name"] == "Seen Elsewhere"
    assert b.get("/api/v1/dashboard").json()["headcount"] == 4
    assert "Seen Elsewhere" in b.get("/people", params={"search": "seen"}).text

    # and back: a plan saved through B is the dashboard's plan on A
    r = b.post("/api/v1/plans", json={"save": True}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    assert a.get("/api/v1/dashboard").json()["plan"]["id"] == r.json()["saved"]["id"]
