"""Benchmark: import a roster of N people (default 100,000) with skills, then their
certifications, on SQLite and PostgreSQL. Target (issue 4): <= 15 s for 100,000 rows.

    python bench/serve_import.py [--rows 100000] [--pg postgresql://postgres@127.0.0.1/test]

PostgreSQL runs in a fresh, uniquely named database that is dropped afterwards; it is
skipped with a message when the server is unreachable.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import uuid
from pathlib import Path

from gputeam.store import (
    create_organisation,
    import_certifications,
    import_roster,
    open_database,
)

DOMAINS = ("linux", "networking", "gpu-architecture", "cuda-drivers", "cluster-ops")
CERTS = ("nca-aiio", "cka", "ncp-aii")


def roster_csv(n: int) -> bytes:
    lines = ["id;name;email;level;experience_months;weekly_study_hours;salary;team;" + ";".join(DOMAINS)]
    for i in range(n):
        skills = ";".join(str((i + k) % 5) for k in range(len(DOMAINS)))
        hours = f"{(i % 8) + 0.5:.1f}".replace(".", ",")  # decimal comma
        lines.append(
            f"e{i:06d};Person {i};p{i}@example.org;{i % 5 + 1};{i % 120};{hours};"
            f"{80000 + i % 50000};Team {i % 40};{skills}"
        )
    return ("\ufeff" + "\n".join(lines) + "\n").encode("utf-8")


def certs_csv(n: int) -> bytes:
    lines = ["person,certification,valid_from"]
    lines += [f"e{i:06d},{CERTS[i % 3]},2025-{i % 12 + 1:02d}-{i % 28 + 1:02d}" for i in range(0, n, 2)]
    return ("\n".join(lines) + "\n").encode()


def run(url: str, roster: bytes, certs: bytes) -> tuple[float, float, float]:
    db = open_database(url)
    try:
        with db.session() as s:
            org = create_organisation(s, f"Bench {uuid.uuid4().hex[:6]}").id
        t0, c0 = time.perf_counter(), time.process_time()
        with db.session() as s:
            r = import_roster(s, org, roster, filename="roster.csv")
        t1, c1 = time.perf_counter(), time.process_time()
        print(f"  {db.dialect}: roster import used {c1 - c0:.2f} s of this process's CPU")
        with db.session() as s:
            c = import_certifications(s, org, certs, filename="certs.csv")
        t2 = time.perf_counter()
        with db.session() as s:  # re-import: every row unchanged
            again = import_roster(s, org, roster, filename="roster.csv")
        t3 = time.perf_counter()
        assert r.created and c.created and again.unchanged == r.created
        return t1 - t0, t2 - t1, t3 - t2
    finally:
        db.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/test")
    args = ap.parse_args()
    roster, certs = roster_csv(args.rows), certs_csv(args.rows)
    print(f"roster: {args.rows} rows ({len(roster) / 1e6:.1f} MB), certifications: {args.rows // 2} rows")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        results["sqlite"] = run(f"sqlite:///{Path(tmp) / 'bench.db'}", roster, certs)
    try:
        import psycopg

        admin = args.pg.replace("postgresql+psycopg://", "postgresql://")
        name = f"gputeam_bench_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(admin, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        try:
            results["postgresql"] = run(admin.rsplit("/", 1)[0] + "/" + name, roster, certs)
        finally:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except psycopg.OperationalError as exc:
        print(f"postgresql: skipped ({str(exc).strip()})")
    for engine, (roster_s, certs_s, again_s) in results.items():
        verdict = "ok" if roster_s <= 15 else "SLOWER THAN TARGET"
        print(
            f"{engine:>10}: roster import {roster_s:6.2f} s ({verdict}; target <= 15 s), "
            f"certifications {certs_s:6.2f} s, unchanged re-import {again_s:6.2f} s"
        )


if __name__ == "__main__":
    main()
