"""bench/exams.py --http: the exam benchmark through the web app the candidates use.

The saves go through the web app the candidates use: per engine a
fresh database, a real ``gputeam serve`` (uvicorn, ``--workers`` processes, as
bench/serve_load.py starts it), and each candidate a user of its own with its own
keep-alive connection (bench/serve_load.py's ``LeanClient``). Each candidate is signed in
(``--login mint``: a session recorded through the store and its signed cookie, as the
login does after checking the password; ``--login form``: posting the login form, an
argon2 check per user on the server), opens the exams list, starts the exam with the
list's form (CSRF token) and opens the exam page, then saves as the page does with
JavaScript (htmx: the whole form posted to ``/exams/attempts/<id>/save?item=<id>`` with
``HX-Request`` and the ``X-CSRF-Token`` header): a random option of the next question,
the first save spread over the first 10 s, then every 5-15 s (10 on average). Prints
the save latency from when the save was due, errors by kind, the load average before and
after, the server's CPU per save (its processes; for PostgreSQL its backends too), then
reads every attempt's answers back from the database and compares them with the last
answer each candidate saved for each question (lost answers: must be 0). Target: p99
save <= 100 ms with 0 errors and 0 lost answers; exit status 1 when missed.

Run as ``python bench/exams.py --http`` (its options are bench/exams.py's).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.exams import P99_SAVE_MS, _catalog_and_spec

HTTP_CODE = "bench-exam"


def _http_setup(url: str, candidates: int, workdir: Path) -> tuple[dict[str, str], list[tuple[str, int]]]:
    """The programme (60 questions of 120 from three domains, 120 minutes), ``candidates``
    people, each with an engineer's user (created through the store in one session; one
    argon2 hash of the bench password computed once and given to every user). Returns
    the server's extra settings (the catalog extra naming the programme's certification)
    and the users' (name, id)."""
    import yaml
    from bench.serve_load import PASSWORD
    from tests.store.exam_helpers import EXTRA, gift_bank

    from gputeam import store
    from gputeam.certify import read_bank
    from gputeam.store import accounts

    extra = workdir / "catalog-extra.yaml"
    extra.write_text(yaml.safe_dump(EXTRA), "utf-8")
    catalog, data = _catalog_and_spec(60)
    hashed = accounts.hash_password(PASSWORD)
    db = store.open_database(url)
    real_hash = accounts.hash_password
    accounts.hash_password = lambda password, **_: hashed  # type: ignore[assignment]
    try:
        with db.session() as s:
            org = store.create_organisation(s, "Bench exams")
            prog = store.save_programme(s, org.id, HTTP_CODE, data, catalog=catalog)
            bank = read_bank(gift_bank(per_domain=40).encode(), "gift").bank
            store.import_bank(s, prog.id, bank, now=datetime.now(UTC))
            users = []
            for i in range(candidates):
                person = store.add_person(s, org.id, key=f"c{i}", name=f"Candidate {i}")
                user = store.create_user(s, f"cand{i:04d}", PASSWORD, "engineer", person_id=person.id)
                users.append((user.username, user.id))
    finally:
        accounts.hash_password = real_hash  # type: ignore[assignment]
        db.dispose()
    return {"GPUTEAM_CATALOG_EXTRA": str(extra)}, users


def _minted_cookies(url: str, users: list[tuple[str, int]]) -> list[dict[str, str]]:
    """A signed-in session per user, recorded through the store in one transaction, and
    its signed cookie: what ``gputeam.web.auth.login`` does once the password is checked."""
    from bench.serve_load import SECRET

    from gputeam import store
    from gputeam.web import Settings
    from gputeam.web.app import SESSION_COOKIE
    from gputeam.web.security import Session, SessionSigner

    max_age = Settings(secret_key=SECRET).session_max_age
    signer = SessionSigner(SECRET, max_age)
    now = datetime.now(UTC)
    db = store.open_database(url, migrate=False)
    out = []
    try:
        with db.session() as s:
            for _, uid in users:
                session = Session(sid=Session.anonymous().sid, uid=uid)
                store.start_session(s, uid, session.sid, now=now, expires_at=now + timedelta(seconds=max_age))
                out.append({SESSION_COOKIE: signer.dumps(session)})
    finally:
        db.dispose()
    return out


class Candidate:
    """One candidate's browser: its connection, the exam page's CSRF token, questions
    (in the page's order) with their options, and the answers on the page."""

    def __init__(self, client: Any) -> None:
        self.http = client
        self.csrf = ""
        self.page = ""
        self.attempt = 0
        self.items: list[str] = []
        self.options: dict[str, list[str]] = {}
        self.answers: dict[str, str] = {}

    async def sign_in(self, username: str) -> None:
        from bench.serve_load import PASSWORD

        page = await self.http.get("/login")
        r = await self.http.post(
            "/login",
            data={
                "username": username,
                "password": PASSWORD,
                "csrf_token": _csrf(page.text),
                "next": "/exams",
            },
        )
        if r.status_code != 303:
            raise RuntimeError(f"login of {username}: HTTP {r.status_code}")

    async def start(self) -> None:
        """The exams list, its Start button, the exam page it leads to."""
        import html

        listing = await self.http.get("/exams")
        if listing.status_code != 200:
            raise RuntimeError(f"/exams: HTTP {listing.status_code}")
        r = await self.http.post(f"/exams/{HTTP_CODE}/start", data={"csrf_token": _csrf(listing.text)})
        if r.status_code != 303:
            raise RuntimeError(f"start: HTTP {r.status_code} {r.text[:200]}")
        self.page = r.headers["location"]
        self.attempt = int(self.page.rsplit("/", 1)[1])
        page = await self.http.get(self.page)
        if page.status_code != 200:
            raise RuntimeError(f"exam page: HTTP {page.status_code}")
        self.csrf = _csrf(page.text)
        self.items = [html.unescape(v) for v in re.findall(r'name="present" value="([^"]+)"', page.text)]
        for name, value in re.findall(r'<input type="radio" name="q:([^"]+)" value="([^"]+)"', page.text):
            self.options.setdefault(html.unescape(name), []).append(html.unescape(value))
        if len(self.items) != 60 or set(self.options) != set(self.items):
            raise RuntimeError(f"exam page: {len(self.items)} questions, {len(self.options)} with options")

    async def save(self, n: int, value: str, base: str) -> Any:
        """Choose ``value`` for question ``n`` and save it as the page does with htmx: the
        whole form, to the question's save address."""
        item = self.items[n]
        self.answers[item] = value
        form = [("csrf_token", self.csrf)]
        for i in self.items:
            form.append(("present", i))
            if i in self.answers:
                form.append((f"q:{i}", self.answers[i]))
        headers = {
            "HX-Request": "true",
            "HX-Trigger": f"q-{n + 1}",
            "HX-Current-URL": base + self.page,
            "X-CSRF-Token": self.csrf,
        }
        return await self.http.post(
            f"/exams/attempts/{self.attempt}/save", data=form, params={"item": item}, headers=headers
        )


def _csrf(page: str) -> str:
    m = re.search(r'name="csrf_token" value="([^"]+)"', page)
    if not m:
        raise RuntimeError("no CSRF token on the page")
    return m.group(1)


async def _http_run(
    base: str,
    pid: int,
    url: str,
    users: list[tuple[str, int]],
    cookies: list[dict[str, str]] | None,
    seconds: float,
) -> tuple[list[Candidate], dict[str, Any]]:
    import gc
    import os
    from collections import Counter

    from bench.serve_load import LeanClient, database_cpu, tree_cpu

    n = len(users)
    people = [Candidate(LeanClient(base, cookies[i] if cookies else None)) for i in range(n)]
    gate = asyncio.Semaphore(8)

    async def prepare(c: Candidate, username: str) -> None:
        async with gate:
            if cookies is None:
                await c.sign_in(username)
            await c.start()

    t_setup = time.perf_counter()
    await asyncio.gather(*(prepare(c, name) for c, (name, _) in zip(people, users, strict=True)))
    setup_s = time.perf_counter() - t_setup

    latencies: list[float] = []
    errors: Counter[str] = Counter()
    # what each candidate saved, per (attempt, item): the last value the server confirmed,
    # and the values sent after it without a confirmation (a failed request may be stored)
    confirmed: dict[tuple[int, str], str] = {}
    unconfirmed: dict[tuple[int, str], list[str]] = {}
    gc.collect()
    gc.freeze()
    load_before = os.getloadavg()
    cpu0, server0, database0 = time.process_time(), tree_cpu(pid), database_cpu(url)
    t0 = time.perf_counter()

    async def sit(i: int, c: Candidate) -> None:
        rng = random.Random(i)
        due = i * 10.0 / n
        k = 0
        while due < seconds:
            wait = t0 + due - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            q = k % len(c.items)
            value = rng.choice(c.options[c.items[q]])
            key = (c.attempt, c.items[q])
            try:
                r = await c.save(q, value, base)
                if r.status_code == 200 and b"Saved" in r.content:
                    latencies.append(time.perf_counter() - (t0 + due))
                    confirmed[key] = value
                    unconfirmed.pop(key, None)
                else:
                    errors[f"HTTP {r.status_code}"] += 1
                    unconfirmed.setdefault(key, []).append(value)
            except (OSError, ValueError, asyncio.IncompleteReadError) as exc:
                errors[type(exc).__name__] += 1
                unconfirmed.setdefault(key, []).append(value)
            due += rng.uniform(5.0, 15.0)
            k += 1

    await asyncio.gather(*(sit(i, c) for i, c in enumerate(people)))
    elapsed = time.perf_counter() - t0
    saves = len(latencies) + sum(errors.values())
    server_s, database_s = tree_cpu(pid) - server0, database_cpu(url) - database0
    client_s = time.process_time() - cpu0
    load_after = os.getloadavg()
    gc.unfreeze()
    await asyncio.gather(*(c.http.aclose() for c in people))
    lat = sorted(latencies)
    return people, {
        "setup_s": setup_s,
        "saves": saves,
        "confirmed": len(lat),
        "errors": dict(errors),
        "elapsed_s": elapsed,
        "p50_ms": 1000 * statistics.median(lat) if lat else None,
        "p95_ms": 1000 * lat[int(0.95 * (len(lat) - 1))] if lat else None,
        "p99_ms": 1000 * lat[int(0.99 * (len(lat) - 1))] if lat else None,
        "max_ms": 1000 * lat[-1] if lat else None,
        "server_ms_per_save": 1000 * server_s / max(saves, 1),
        "database_ms_per_save": 1000 * database_s / max(saves, 1),
        "client_cpu_s": client_s,
        "load_before": load_before,
        "load_after": load_after,
        "confirmed_map": confirmed,
        "unconfirmed_map": unconfirmed,
    }


def _lost_answers(url: str, people: list[Candidate], r: dict[str, Any]) -> tuple[int, int, int]:
    """Reads every attempt's saved answers back, as the exam page shows them (the options
    in the attempt's own order): (lost, answers compared, answers stored though their
    save failed). Lost: the database does not hold the last answer the server confirmed
    for a question (nor one sent after it whose save failed)."""
    from gputeam import store
    from gputeam.store.schema_exams import ExamAttempt

    confirmed, unconfirmed = r["confirmed_map"], r["unconfirmed_map"]
    lost = compared = stored_unconfirmed = 0
    db = store.open_database(url, migrate=False)
    try:
        with db.session() as s:
            for c in people:
                view = store.attempt_view(s, s.get(ExamAttempt, c.attempt), now=datetime.now(UTC))
                held = {k: None if v is None else str(v) for k, v in view["answers"].items()}
                for item in c.items:
                    key = (c.attempt, item)
                    if key not in confirmed and key not in unconfirmed:
                        lost += item in held  # never saved: nothing may be stored
                        continue
                    compared += 1
                    if key in unconfirmed and held.get(item) in unconfirmed[key]:
                        stored_unconfirmed += 1
                    elif held.get(item) != confirmed.get(key):
                        lost += 1
    finally:
        db.dispose()
    return lost, compared, stored_unconfirmed


def http_engine(engine: str, args: argparse.Namespace, workdir: Path) -> list[str]:
    """The HTTP benchmark on one engine; prints its figures, returns the missed targets."""
    import os

    from bench.serve_load import fresh_database, server

    with fresh_database(engine, args.pg, workdir) as url:
        t = time.perf_counter()
        env, users = _http_setup(url, args.candidates, workdir)
        created_s = time.perf_counter() - t
        t = time.perf_counter()
        cookies = None if args.login == "form" else _minted_cookies(url, users)
        minted_s = time.perf_counter() - t
        with server(url, args.workers, env) as (base, pid):
            people, r = asyncio.run(_http_run(base, pid, url, users, cookies, args.seconds))
        lost, compared, stored_unconfirmed = _lost_answers(url, people, r)
    signed = "signed in by the login form" if cookies is None else f"sessions minted in {minted_s:.1f} s"
    print(
        f"{engine} over HTTP: {args.candidates} candidates ({args.candidates} users and people "
        f"created in {created_s:.1f} s, {signed}; every candidate opened the exams list, started "
        f"the exam and opened its page in {r['setup_s']:.1f} s), {args.workers} server worker(s)"
    )
    print(
        f"{engine} over HTTP: a save every 10 s on average each for {args.seconds:.0f} s "
        f"(the last answered after {r['elapsed_s']:.1f} s): {r['saves']} saves "
        f"({r['saves'] / args.seconds:.1f}/s), "
        + (
            f"p50 {r['p50_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, "
            f"max {r['max_ms']:.1f} ms"
            if r["p50_ms"] is not None
            else "none confirmed"
        )
        + f"; errors {sum(r['errors'].values())} {r['errors'] or ''}".rstrip()
    )
    print(
        f"{engine} over HTTP: lost answers {lost} (of {compared} questions answered; "
        f"{stored_unconfirmed} stored although their save failed)"
    )
    print(
        f"{engine} over HTTP: server CPU per save {r['server_ms_per_save']:.2f} ms (its "
        f"processes, user + system)"
        + (
            f", the database server's backends {r['database_ms_per_save']:.2f} ms"
            if engine == "postgresql"
            else ""
        )
        + f"; load generator {r['client_cpu_s']:.1f} CPU s of the machine's "
        f"{r['elapsed_s'] * (os.cpu_count() or 1):.0f}; load average (1, 5, 15 min) "
        + ", ".join(f"{x:.2f}" for x in r["load_before"])
        + " before, "
        + ", ".join(f"{x:.2f}" for x in r["load_after"])
        + " after"
    )
    out = []
    if r["p99_ms"] is None or r["p99_ms"] > P99_SAVE_MS:
        p99 = "no saves" if r["p99_ms"] is None else f"{r['p99_ms']:.1f} ms"
        out.append(f"{engine} over HTTP: p99 save latency {p99} > {P99_SAVE_MS:.0f} ms")
    errors = sum(r["errors"].values())
    if lost or errors:
        out.append(f"{engine} over HTTP: {lost} lost answers and {errors} failed saves (target 0)")
    return out


def http_main(args: argparse.Namespace) -> int:
    import os

    args.workers = args.workers or os.cpu_count() or 1
    misses: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for engine in ["sqlite"] + ([] if args.no_pg else ["postgresql"]):
            misses += http_engine(engine, args, Path(tmp))
    for miss in misses:
        print(f"target missed: {miss}")
    if not misses:
        print(f"all targets met over HTTP: p99 save <= {P99_SAVE_MS:.0f} ms, 0 errors, 0 lost answers")
    return 1 if misses else 0
