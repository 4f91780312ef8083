"""Killing the server during an import loses nothing committed and writes nothing partial
(a real uvicorn process, SIGKILL while a large roster import is in progress)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import pytest
from sqlalchemy import func, select

from gputeam import store

from .conftest import SECRET, World, token_for
from .test_web_two_processes import _free_port


def _big_roster(n: int) -> bytes:
    rows = ["id,name,level,team,linux"]
    rows += [f"k{i:06d},Killed {i},2,Gamma,{i % 5}" for i in range(n)]
    return ("\n".join(rows) + "\n").encode()


def _people(db: Any) -> int:
    with db.session() as s:
        return int(s.scalar(select(func.count(store.Person.id))) or 0)


def _start(db_url: str) -> tuple[subprocess.Popen[bytes], str]:
    import httpx

    port = _free_port()
    env = {**os.environ, "GPUTEAM_DB": db_url, "GPUTEAM_SECRET_KEY": SECRET}
    proc = subprocess.Popen(
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
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(base + "/login", timeout=1).status_code == 200:
                return proc, base
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("server did not start")
        time.sleep(0.2)


def test_kill_during_import(db_url: str, db: Any, world: World, app: Any) -> None:
    import httpx

    token = token_for(app, "admin", ["read", "write"])
    headers = {"Authorization": f"Bearer {token}"}
    proc, base = _start(db_url)
    try:
        small = b"id,name\nc1,Committed One\nc2,Committed Two\n"
        r = httpx.post(
            base + "/api/v1/import/roster",
            headers=headers,
            timeout=30,
            data={"dry_run": "false"},
            files={"file": ("s.csv", small)},
        )
        assert r.status_code == 200, r.text
        before = _people(db)

        errors: list[str] = []

        def upload() -> None:
            try:
                httpx.post(
                    base + "/api/v1/import/roster",
                    headers=headers,
                    timeout=120,
                    data={"dry_run": "false"},
                    files={"file": ("big.csv", big)},
                )
            except httpx.HTTPError as exc:
                errors.append(type(exc).__name__)

        big = _big_roster(200_000)  # takes several seconds to import on any machine
        t = threading.Thread(target=upload)
        t.start()
        time.sleep(1.0)  # the upload is in and the import is running
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        t.join(timeout=30)
        assert errors, "the import finished before the kill; make the roster bigger"
    finally:
        if proc.poll() is None:
            proc.kill()
    after = _people(db)
    assert after == before, f"partial import: {after - before} people written"
    with db.session() as s:
        assert store.get_person_by_key(s, world.org_id, "c2") is not None  # kept
