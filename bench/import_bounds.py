"""Measurement: time and peak memory of a roster dry run (as the web's preview and
``gputeam import roster --dry-run`` run it) on hostile files: a zip-bomb XLSX (1 MB that
unzips to 1 GB), a CSV of 1.46 million rows (45 MB), one of 100,000 columns (889 KB) and
one with a 200 KB cell. Each case runs in a fresh process on a fresh SQLite database;
its peak memory is that process's own peak resident set (VmHWM).

    python bench/import_bounds.py [--case zip_bomb] [--out /tmp/files]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ("zip_bomb", "rows_1460000", "columns_100000", "cell_200kb")

CHILD = r"""
import json, resource, sys, time


def peak_kb():
    # this process's own peak resident memory (VmHWM: ru_maxrss would carry the parent's
    # peak over fork and exec)
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


from gputeam.store import create_organisation, import_roster, open_database
from gputeam.errors import InputError
from gputeam.catalog import load_catalog
path, url = sys.argv[1], sys.argv[2]
db = open_database(url)
catalog = load_catalog()
with db.session() as s:
    org = create_organisation(s, "Bench").id
base = peak_kb()
t0 = time.perf_counter()
outcome = "ok"
try:
    with db.session() as s:
        import_roster(s, org, path, dry_run=True, catalog=catalog)
except InputError as exc:
    outcome = "refused: " + str(exc.problems[0])[:150] + f" ({len(exc.problems)} problems)"
except Exception as exc:
    outcome = f"crash: {type(exc).__name__}: {str(exc)[:150]}"
print(json.dumps({"seconds": round(time.perf_counter() - t0, 2),
                  "peak_mb": round(peak_kb() / 1024),
                  "before_mb": round(base / 1024), "outcome": outcome}))
"""


def build(case: str, out: Path, bomb_mb: int = 1024) -> Path:
    sys.path.insert(0, str(ROOT / "tests"))
    import hostile_files as h

    if case == "zip_bomb":
        path, data = out / "bomb.xlsx", h.zip_bomb_xlsx(bomb_mb * 1024 * 1024)
    elif case == "rows_1460000":
        path, data = out / "rows.csv", h.many_rows_csv()
    elif case == "columns_100000":
        path, data = out / "columns.csv", h.many_columns_csv()
    else:
        path, data = out / "cell.csv", h.giant_cell_csv()
    path.write_bytes(data)
    return path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", choices=CASES, action="append")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--bomb-mb", type=int, default=1024, help="what the zip bomb unzips to, in MB")
    args = ap.parse_args()
    out = args.out or Path(tempfile.mkdtemp())
    for case in args.case or CASES:
        path = build(case, out, args.bomb_mb)
        with tempfile.TemporaryDirectory() as d:
            url = f"sqlite:///{d}/bench.db"
            r = subprocess.run([sys.executable, "-c", CHILD, str(path), url], capture_output=True, text=True)
        result = (
            json.loads(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 else {"error": r.stderr[-300:]}
        )
        print(f"{case} ({path.stat().st_size / 1e6:.2f} MB): {json.dumps(result)}", flush=True)


if __name__ == "__main__":
    main()
