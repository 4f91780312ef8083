"""Server time of the tracker's views at 5,000 people (issue 10 §1, §3), one request at a
time: the skills matrix (page and API, a page of everyone and a team), the certifications
view, the filtered people list, and the matrix's CSV and XLSX downloads (every row).

Each engine gets a fresh database populated as ``bench/serve_load.py`` populates it
(--people people, skills, certifications, a saved plan); the app runs in this process
(FastAPI's TestClient, no network). Each endpoint is requested once (``first``: the view
built; the API's JSON is then kept per data version, the pages are rendered every time),
then --repeat times. Prints the first, median and slowest milliseconds per endpoint.

    python bench/tracker_views.py                       # 5,000 people, SQLite and PostgreSQL
    python bench/tracker_views.py --engines sqlite --repeat 5

Target: every page (not the downloads) <= 300 ms server time at 5,000 people.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from serve_load import PASSWORD, SECRET, TODAY, fresh_database, populate  # noqa: E402

PAGE_TARGET_MS = 300


def endpoints(team: int, people: int) -> list[tuple[str, str]]:
    last = max(people // 50 - 1, 0)
    return [
        ("matrix API, first page", "/api/v1/skills/matrix?limit=50"),
        ("matrix API, last page", f"/api/v1/skills/matrix?limit=50&offset={50 * last}"),
        ("matrix API, a team", f"/api/v1/skills/matrix?limit=50&team={team}"),
        ("matrix page", f"/skills?page={last // 2 + 1}"),
        ("certifications API", "/api/v1/certifications?limit=100"),
        ("certifications, expired", "/certifications?expiry=expired"),
        ("certifications page 20", "/certifications?page=20&sort=person"),
        ("people, filtered + sorted", f"/api/v1/people?team={team}&status=all&sort=level&dir=desc"),
        ("people page, sorted", "/people?sort=team&page=10"),
        ("matrix CSV (all rows)", "/skills.csv"),
        ("matrix XLSX (all rows)", "/skills.xlsx"),
    ]


def run(engine: str, pg_url: str, people: int, repeat: int, workdir: Path) -> bool:
    import re

    from fastapi.testclient import TestClient

    from gputeam.web import Settings, create_app

    with fresh_database(engine, pg_url, workdir) as url:
        t0 = time.perf_counter()
        populate(url, people)
        print(f"\n== {engine}: {people:,} people populated in {time.perf_counter() - t0:.0f} s ==")
        app = create_app(Settings(secret_key=SECRET, db=url), today=TODAY)
        ok = True
        with TestClient(app) as c:
            page = c.get("/login")
            token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
            assert token
            r = c.post(
                "/login",
                data={"username": "admin", "password": PASSWORD, "csrf_token": token.group(1), "next": "/"},
                follow_redirects=False,
            )
            assert r.status_code == 303, r.text
            team = int(c.get("/api/v1/teams").json()[0]["id"])
            c.get("/api/v1/skills/matrix?limit=1")  # the catalog and the plan, once
            c.get("/skills?page=1")  # the templates, once
            print(f"{'endpoint':<28}{'first ms':>9}{'median ms':>10}{'max ms':>9}  bytes")
            for name, path in endpoints(team, people):
                t = time.perf_counter()
                r = c.get(path)  # built (the API's JSON is then cached per data version)
                first = (time.perf_counter() - t) * 1000
                assert r.status_code == 200, (path, r.status_code, r.text[:300])
                times = []
                for _ in range(repeat):
                    t = time.perf_counter()
                    r = c.get(path)
                    times.append((time.perf_counter() - t) * 1000)
                    assert r.status_code == 200
                med = statistics.median(times)
                download = "all rows" in name
                worst = max(first, *times)
                flag = "" if download or worst <= PAGE_TARGET_MS else "  OVER TARGET"
                ok = ok and (download or worst <= PAGE_TARGET_MS)
                print(f"{name:<28}{first:>9.0f}{med:>10.0f}{max(times):>9.0f}  {len(r.content):,}{flag}")
        app.state.db.dispose()
        return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--people", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--engines", default="sqlite,postgresql")
    ap.add_argument(
        "--pg-url",
        default=os.environ.get("GPUTEAM_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/postgres"),
    )
    args = ap.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for engine in args.engines.split(","):
            ok = run(engine, args.pg_url, args.people, args.repeat, Path(tmp)) and ok
    print(f"\ntarget: every page <= {PAGE_TARGET_MS} ms: {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
