"""Load benchmark of `gputeam serve` on loopback, for SQLite and PostgreSQL.

For each engine: a fresh database with --people people (imported through the store's
roster import, with certifications and a saved plan), a real server (uvicorn, --workers
processes), then --clients concurrent clients for --duration seconds against the dashboard
(page and API), the people API (list, filtered list and detail), the skills matrix (API
and page) and the certifications view (API). Each client has its own connection
and the server is warmed up first (every client requests every endpoint, then check rounds
until one has no slow request); the figures are steady state after that. Each client pauses --think seconds
on average between requests, like a person using the app; --think 0 makes it a closed
loop that measures the server's capacity instead (then latency = clients / throughput).
Prints p50 / p95 / p99 latency and errors per endpoint and overall. Then times the import
of --import-rows roster rows.

    python bench/serve_load.py                      # 200 clients, 60 s, 5,000 people
    python bench/serve_load.py --duration 10 --engines sqlite --import-rows 10000

Targets (issue 4): p99 <= 150 ms with 0 errors; 100,000 roster rows imported in <= 15 s.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path
from typing import Any

SECRET = "bench-secret-" + "b" * 40
PASSWORD = "bench password"
TODAY = date(2026, 12, 2)
DOMAIN_COLUMNS = ("linux", "GPU architecture", "Monitoring and observability")


# ---------------------------------------------------------------- data
def roster_csv(n: int, seed: int = 1) -> bytes:
    rng = random.Random(seed)
    lines = ["id,name,email,title,level,experience_months,team," + ",".join(DOMAIN_COLUMNS)]
    teams = [f"Team {i}" for i in range(1, 21)]
    for i in range(n):
        skills = ",".join(str(rng.randint(0, 4)) for _ in DOMAIN_COLUMNS)
        lines.append(
            f"e{i:06d},Person {i},p{i}@example.org,Engineer,{rng.randint(1, 5)},"
            f"{rng.randint(0, 120)},{rng.choice(teams)},{skills}"
        )
    return ("\n".join(lines) + "\n").encode()


def certs_csv(n: int, seed: int = 2) -> bytes:
    rng = random.Random(seed)
    lines = ["person,certification,valid_from"]
    for i in range(n):
        earned = TODAY - timedelta(days=rng.randint(30, 900))
        lines.append(f"e{i:06d},nca-aiio,{earned.isoformat()}")
    return ("\n".join(lines) + "\n").encode()


@contextmanager
def fresh_database(engine: str, pg_url: str, workdir: Path) -> Any:
    if engine == "sqlite":
        yield f"sqlite:///{workdir}/bench-{uuid.uuid4().hex[:6]}.db"
        return
    import psycopg

    name = f"gputeam_bench_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield pg_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def populate(url: str, people: int) -> dict[str, float]:
    """Admin user, roster, certifications, and a saved plan (planned on a sample of the
    team: the planner's optimiser on thousands of people is the lead's benchmark)."""
    from gputeam import store
    from gputeam.catalog import load_catalog
    from gputeam.planning import plan
    from gputeam.scenario import Fleet

    catalog = load_catalog()
    db = store.open_database(url)
    times = {}
    with db.session() as s:
        org = store.create_organisation(s, "Bench Corp").id
        store.create_user(s, "admin", PASSWORD, "admin")
    t0 = time.perf_counter()
    with db.session() as s:
        store.import_roster(s, org, roster_csv(people), filename="roster.csv", catalog=catalog)
    times["roster_import_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    with db.session() as s:
        store.import_certifications(s, org, certs_csv(people), filename="certs.csv", catalog=catalog)
    times["cert_import_s"] = time.perf_counter() - t0
    inputs = {
        "fleet": {"gpu_model": "H100", "gpus": [{"month": 1, "count": 1024}]},
        "constraints": {"deadline_month": 9},
        "horizon_months": 12,
        "mode": "template",
    }
    with db.session() as s:
        sc = store.team_scenario(
            s, org, Fleet.model_validate(inputs["fleet"]), start=TODAY.replace(day=1), catalog=catalog
        )
        sample = sc.model_copy(update={"people": sc.people[:60]})
        result = plan(sample, catalog, TODAY, runs=200)
        saved = store.save_scenario(s, org, "live", inputs)
        store.save_plan(s, saved.id, result.to_json(), TODAY)
    db.dispose()
    return times


# ---------------------------------------------------------------- server
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(url: str, workers: int, env: dict[str, str] | None = None) -> Any:
    """A uvicorn server of ``url`` on a free loopback port (``env``: more settings, as
    ``GPUTEAM_*`` variables); yields its base URL and process id."""
    import httpx

    port = free_port()
    env = {**os.environ, "GPUTEAM_DB": url, "GPUTEAM_SECRET_KEY": SECRET, **(env or {})}
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
            "--workers",
            str(workers),
            "--log-level",
            "warning",
            "--no-access-log",
            "--backlog",
            "4096",
            "--timeout-keep-alive",
            "75",
        ],  # longer than any client idles: no close races
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/login", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("server did not start")
            time.sleep(0.3)
        yield base, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


def credentials(base: str) -> tuple[dict[str, str], dict[str, str]]:
    """A browser session cookie and an API token for the admin."""
    import httpx

    c = httpx.Client(base_url=base)
    page = c.get("/login")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert token
    r = c.post(
        "/login", data={"username": "admin", "password": PASSWORD, "csrf_token": token.group(1), "next": "/"}
    )
    assert r.status_code == 303, r.text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', c.get("/account").text)
    assert csrf
    r = c.post(
        "/api/v1/tokens", json={"name": "bench", "scopes": ["read"]}, headers={"X-CSRF-Token": csrf.group(1)}
    )
    assert r.status_code == 201, r.text
    cookies = dict(c.cookies)
    return cookies, {"Authorization": f"Bearer {r.json()['token']}"}


# ---------------------------------------------------------------- load
KINDS = (
    "dashboard page",
    "dashboard api",
    "people list",
    "person detail",
    "people filtered",
    "skills matrix",
    "skills page",
    "certifications",
)
#: Warm-up ends when a check round (every client one request, 4 in flight) has no request
#: slower than this, or after WARMUP_MAX_ROUNDS rounds.
WARMUP_SLOW_S = 0.15
WARMUP_MAX_ROUNDS = 8


def request_target(
    kind: str, rng: random.Random, people: int, teams: list[int], ids: list[int]
) -> tuple[str, dict[str, Any], bool]:
    """One request of ``kind`` (one of KINDS) with random parameters drawn from ``rng``:
    (path, query parameters, whether it carries the API token; else the session cookie
    alone). ``teams`` and ``ids`` are team and person ids to choose from."""
    pages = max(people // 50, 1)
    if kind == "dashboard page":
        return "/", {}, False
    if kind == "dashboard api":
        return "/api/v1/dashboard", {}, True
    if kind == "people list":
        return "/api/v1/people", {"limit": 50, "offset": rng.randrange(0, max(people - 50, 1))}, True
    if kind == "people filtered":  # a team, sorted by level, inactive too
        params = {"team": rng.choice(teams), "status": "all", "sort": "level", "dir": "desc", "limit": 50}
        return "/api/v1/people", params, True
    if kind == "skills matrix":  # any page of everyone, or a team's first
        params = {"limit": 50, "offset": 50 * rng.randrange(pages)}
        if rng.random() < 0.5:
            params = {"limit": 50, "team": rng.choice(teams)}
        return "/api/v1/skills/matrix", params, True
    if kind == "skills page":
        return "/skills", {"page": rng.randrange(pages) + 1}, False
    if kind == "certifications":  # expiring soon, or any page by expiry
        if rng.random() < 0.5:
            return "/api/v1/certifications", {"expiry": "expiring-30"}, True
        return "/api/v1/certifications", {"offset": 100 * rng.randrange(max(people // 100, 1))}, True
    return f"/api/v1/people/{rng.choice(ids)}", {}, True


async def load(
    base: str,
    clients: int,
    duration: float,
    think: float,
    people: int,
    cookies: dict[str, str],
    auth: dict[str, str],
    server_cpu: Any = lambda: float("nan"),
    client: str = "lean",
    database_cpu: Any = lambda: float("nan"),
) -> tuple[dict[str, list[Any]], float, str]:
    """Each simulated user has its own connection (its own client with one keep-alive
    connection), as a browser would (``client``: "lean", :class:`LeanClient`, or "httpx").
    Before the clock starts every user connects and
    requests every endpoint, in rounds, until the workers' caches are warm; then the
    measured run. Returns the results, the load generator's CPU seconds during the measured
    run, and a line describing the warm-up."""
    import httpx

    if client == "httpx":
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        users: list[Any] = [
            httpx.AsyncClient(base_url=base, limits=limits, timeout=60, cookies=cookies)
            for _ in range(clients)
        ]
    else:
        users = [LeanClient(base, cookies) for _ in range(clients)]
    try:
        ids = [
            int(p["id"])
            for p in (await users[0].get("/api/v1/people", params={"limit": 1000}, headers=auth)).json()
        ]
        teams = [int(t["id"]) for t in (await users[0].get("/api/v1/teams", headers=auth)).json()]

        async def request(http: httpx.AsyncClient, kind: str, rng: random.Random) -> float | str:
            path, params, api = request_target(kind, rng, people, teams, ids)
            t0 = time.perf_counter()
            try:
                r = await http.get(path, params=params, headers=auth if api else None)
                return time.perf_counter() - t0 if r.status_code == 200 else f"HTTP {r.status_code}"
            except (httpx.HTTPError, OSError, ValueError, asyncio.IncompleteReadError) as exc:
                return type(exc).__name__

        # warm-up: first every user connects and requests every endpoint (a burst that
        # reaches every worker and fills its caches); then check rounds, 4 requests in
        # flight, every user one endpoint each, until a round has no slow request
        warm_rng = random.Random(-1)
        t_warm = time.perf_counter()
        got = await asyncio.gather(*(request(http, kind, warm_rng) for http in users for kind in KINDS))
        warm_errors = sum(1 for v in got if not isinstance(v, float))
        gate = asyncio.Semaphore(4)

        async def gated(http: httpx.AsyncClient, kind: str) -> float | str:
            async with gate:
                return await request(http, kind, warm_rng)

        rounds, slowest = 0, float("inf")
        while rounds < WARMUP_MAX_ROUNDS and slowest > WARMUP_SLOW_S:
            got = await asyncio.gather(
                *(gated(http, KINDS[(n + rounds) % len(KINDS)]) for n, http in enumerate(users))
            )
            rounds += 1
            lat = [v for v in got if isinstance(v, float)]
            warm_errors += len(got) - len(lat)
            slowest = max(lat, default=float("inf"))
        warm = (
            f"warm-up: {clients} users x {len(KINDS)} endpoints, then {rounds} check "
            f"round(s) of {clients} requests; {time.perf_counter() - t_warm:.1f} s, "
            f"slowest request of the last round {slowest * 1000:.0f} ms, "
            f"{warm_errors} error(s); not counted below"
        )

        results: dict[str, list[Any]] = defaultdict(list)  # endpoint -> [latency or error]
        # the generator's own full GC pauses would be counted as server latency: keep its
        # warm state (200 clients, connections) out of them, and report what remains
        gc.collect()
        gc.freeze()
        pauses = GcPauses()
        speed = reference_loop_ms()
        cpu0, server0, database0 = time.process_time(), server_cpu(), database_cpu()
        stop = time.monotonic() + duration

        async def user(n: int, http: httpx.AsyncClient) -> None:
            rng = random.Random(n)
            i = n
            # spread the first requests over the think time, as in steady state
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            while time.monotonic() < stop:
                i += 1
                kind = KINDS[i % len(KINDS)]
                results[kind].append(await request(http, kind, rng))
                if think:
                    await asyncio.sleep(rng.uniform(0, 2 * think))

        with pauses:
            await asyncio.gather(*(user(n, http) for n, http in enumerate(users)))
        served = sum(len(v) for v in results.values())
        server_ms = (server_cpu() - server0) / max(served, 1) * 1000
        database_ms = (database_cpu() - database0) / max(served, 1) * 1000
        return (
            results,
            time.process_time() - cpu0,
            (
                f"{warm}\n{pauses}\nserver CPU per request (all its processes, user + system): "
                f"{server_ms:.2f} ms; the database server's processes for this database: "
                f"{database_ms:.2f} ms\nhost speed: a reference Python loop took {speed:.0f} ms "
                f"just before the run (this machine's CPU time varies with its neighbours; "
                f"compare runs only with similar figures)"
            ),
        )
    finally:
        await asyncio.gather(*(http.aclose() for http in users))


class LeanClient:
    """One user's keep-alive HTTP/1.1 connection, written for the benchmark: the load
    generator shares the machine's cores with the server it measures, and httpx's client
    spends several times more CPU per request than this (the CPU taken from the server
    shows as server latency). Enough HTTP for our server: GET, and POST with a form or
    JSON body; a Content-Length or chunked response body; the cookies given, updated by
    the server's Set-Cookie (name and value only); one request at a time; no redirects
    followed (the response's ``headers`` carry the location)."""

    class Response:
        def __init__(self, status_code: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            self.status_code, self.content, self.headers = status_code, body, headers or {}

        @property
        def text(self) -> str:
            return self.content.decode()

        def json(self) -> Any:
            import json

            return json.loads(self.content)

    def __init__(self, base: str, cookies: dict[str, str] | None = None) -> None:
        host_port = base.split("://", 1)[1]
        self.host, port = host_port.rsplit(":", 1)
        self.port = int(port)
        self.cookies = dict(cookies or {})
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.one_at_a_time = asyncio.Lock()  # one connection: requests wait their turn

    async def get(
        self, path: str, params: dict[str, Any] | None = None, headers: dict[str, str] | None = None
    ) -> LeanClient.Response:
        async with self.one_at_a_time:
            return await self._request("GET", path, params, headers, None)

    async def post(
        self,
        path: str,
        data: dict[str, Any] | list[tuple[str, str]] | None = None,
        json: Any = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> LeanClient.Response:
        """POST ``data`` as a form (a dict, a list value repeats the field; or (name,
        value) pairs in order) or ``json`` as JSON."""
        import json as json_module
        from urllib.parse import urlencode

        if json is not None:
            body, kind = json_module.dumps(json).encode(), "application/json"
        else:
            body, kind = urlencode(data or {}, doseq=True).encode(), "application/x-www-form-urlencoded"
        async with self.one_at_a_time:
            return await self._request("POST", path, params, headers, (kind, body))

    async def _request(
        self,
        method: str,
        path: str,
        params: dict[str, Any] | None,
        headers: dict[str, str] | None,
        body: tuple[str, bytes] | None,
    ) -> LeanClient.Response:
        from urllib.parse import urlencode

        if self.streams is None:
            self.streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.streams
        target = path + ("?" + urlencode(params) if params else "")
        head = [f"{method} {target} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if body is not None:
            head += [f"Content-Type: {body[0]}", f"Content-Length: {len(body[1])}"]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + (body[1] if body else b""))
        try:
            status_line = await reader.readuntil(b"\r\n")
            if not status_line:
                raise ConnectionResetError("server closed the connection")
            fields: dict[bytes, bytes] = {}
            while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
                name, _, value = line.partition(b":")
                name, value = name.strip().lower(), value.strip()
                if name == b"set-cookie":
                    cookie_name, _, rest = value.decode("latin-1").partition("=")
                    self.cookies[cookie_name.strip()] = rest.split(";", 1)[0]
                fields[name] = value
            if b"content-length" in fields:
                content = await reader.readexactly(int(fields[b"content-length"]))
            elif fields.get(b"transfer-encoding", b"").lower() == b"chunked":
                parts = []
                while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                    parts.append(await reader.readexactly(size))
                    await reader.readexactly(2)
                await reader.readexactly(2)
                content = b"".join(parts)
            else:
                raise ValueError("response without a length")
            if fields.get(b"connection", b"").lower() == b"close":
                await self.aclose()
        except BaseException:
            await self.aclose()
            raise
        found = {k.decode("latin-1"): v.decode("latin-1") for k, v in fields.items()}
        return self.Response(int(status_line.split()[1]), content, found)

    async def aclose(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


def _proc_cpu() -> dict[int, tuple[int, float, str]]:
    """pid -> (parent pid, CPU seconds used (user + system), command line), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    command = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            found[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick, command)
    return found


def database_cpu(url: str) -> float:
    """CPU seconds used so far by the PostgreSQL backends serving ``url``'s database (on
    this machine; a backend's process title names its database); 0 for SQLite, whose
    work is done inside the server's processes."""
    if not url.startswith("postgresql"):
        return 0.0
    name = url.rsplit("/", 1)[1]
    try:
        return sum(cpu for _, cpu, command in _proc_cpu().values() if f" {name} " in command)
    except OSError:
        return float("nan")


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` and its children (the
    server's workers), read from /proc; NaN where /proc is not available."""
    try:
        stats = _proc_cpu()
    except OSError:
        return float("nan")
    tree = {pid}
    for _ in range(3):  # parent, workers, their children
        tree |= {p for p, (ppid, _, _) in stats.items() if ppid in tree}
    return sum(stats[p][1] for p in tree if p in stats)


def reference_loop_ms() -> float:
    """Milliseconds for a fixed pure-Python loop: how fast this machine is right now."""
    t0 = time.perf_counter()
    total = 0
    for i in range(2_000_000):
        total += i
    return (time.perf_counter() - t0) * 1000


class GcPauses:
    """Counts and times this process's garbage collections while active."""

    def __init__(self) -> None:
        self.times: list[tuple[int, float]] = []
        self._t0 = 0.0

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._t0 = time.perf_counter()
        else:
            self.times.append((info["generation"], time.perf_counter() - self._t0))

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def __str__(self) -> str:
        full = [t for g, t in self.times if g == 2]
        return (
            f"load generator GC during the run: {len(self.times)} collections, "
            f"{sum(t for _, t in self.times) * 1000:.0f} ms in all; {len(full)} full, "
            f"longest {max(full, default=0) * 1000:.0f} ms"
        )


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def report(engine: str, results: dict[str, list[Any]], duration: float) -> None:
    print(f"\n== {engine}: latency in ms ==")
    print(f"{'endpoint':<16}{'requests':>10}{'req/s':>8}{'p50':>8}{'p95':>8}{'p99':>8}{'errors':>8}")
    every: list[float] = []
    errors_total = 0
    for kind in sorted(results):
        lat = [v for v in results[kind] if isinstance(v, float)]
        errs = [v for v in results[kind] if not isinstance(v, float)]
        every += lat
        errors_total += len(errs)
        print(
            f"{kind:<16}{len(results[kind]):>10}{len(results[kind]) / duration:>8.0f}"
            f"{pct(lat, 50) * 1000:>8.0f}{pct(lat, 95) * 1000:>8.0f}"
            f"{pct(lat, 99) * 1000:>8.0f}{len(errs):>8}"
        )
        if errs:
            print(f"{'':<16}errors: {dict(Counter(errs))}")
    n = sum(len(v) for v in results.values())
    print(
        f"{'all':<16}{n:>10}{n / duration:>8.0f}{pct(every, 50) * 1000:>8.0f}"
        f"{pct(every, 95) * 1000:>8.0f}{pct(every, 99) * 1000:>8.0f}{errors_total:>8}"
    )


def time_import(engine: str, pg_url: str, rows: int, workdir: Path) -> None:
    from gputeam import store
    from gputeam.catalog import load_catalog

    data = roster_csv(rows, seed=7)
    catalog = load_catalog()
    with fresh_database(engine, pg_url, workdir) as url:
        db = store.open_database(url)
        with db.session() as s:
            org = store.create_organisation(s, "Import Corp").id
        t0 = time.perf_counter()
        with db.session() as s:
            rep = store.import_roster(s, org, data, filename="big.csv", catalog=catalog)
        elapsed = time.perf_counter() - t0
        db.dispose()
    print(
        f"import {rows:,} roster rows on {engine}: {elapsed:.1f} s "
        f"({rep.created:,} created, {rep.skill_ratings:,} skill ratings)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration", type=float, default=60, help="seconds of load per engine")
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--people", type=int, default=5000)
    ap.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean pause between a client's requests, seconds (uniform 0-2x): "
        "200 people using the app; 0 = closed loop, which measures capacity",
    )
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--engines", default="sqlite,postgresql")
    ap.add_argument(
        "--client",
        choices=("lean", "httpx"),
        default="lean",
        help="the load generator's HTTP client: lean (a minimal keep-alive HTTP/1.1 client, "
        "so that the generator takes little CPU from the server on the same machine) or httpx",
    )
    ap.add_argument(
        "--pg-url",
        default=os.environ.get("GPUTEAM_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/postgres"),
    )
    ap.add_argument(
        "--import-rows", type=int, default=100_000, help="roster rows for the import timing (0: skip)"
    )
    args = ap.parse_args()
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    print(
        f"gputeam serve load: {args.clients} clients, {args.duration:g} s, "
        f"{args.people:,} people, {args.workers} worker(s), think {args.think:g} s, "
        f"{os.cpu_count()} CPUs, {args.client} client"
    )
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for engine in engines:
            with fresh_database(engine, args.pg_url, workdir) as url:
                times = populate(url, args.people)
                print(
                    f"\n[{engine}] populated: roster {times['roster_import_s']:.1f} s, "
                    f"certifications {times['cert_import_s']:.1f} s"
                )
                with server(url, args.workers) as (base, pid):
                    cookies, auth = credentials(base)
                    results, client_cpu, warm = asyncio.run(
                        load(
                            base,
                            args.clients,
                            args.duration,
                            args.think,
                            args.people,
                            cookies,
                            auth,
                            lambda: tree_cpu(pid),
                            args.client,
                            lambda: database_cpu(url),
                        )
                    )
                print(warm)
                print(
                    "latencies below are steady state, measured after the warm-up; every "
                    "request of the measured run is counted, errors and slow ones included"
                )
                report(engine, results, args.duration)
                print(
                    f"(load generator used {client_cpu:.1f} CPU s of the machine's "
                    f"{args.duration * (os.cpu_count() or 1):.0f})"
                )
        if args.import_rows:
            print()
            for engine in engines:
                time_import(engine, args.pg_url, args.import_rows, workdir)


if __name__ == "__main__":
    main()
