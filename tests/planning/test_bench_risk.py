"""bench/risk.py runs (it crashed with "'Risk' object is not subscriptable" once the Plan was
typed, and no test noticed): a small mode, run as the benchmark is run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_risk_runs_in_small_mode() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "risk.py"), "--people", "20", "--months", "12"]
        + ["--runs", "200", "--loop-runs", "3"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "check: P(ready by deadline) " in done.stdout and " ± " in done.stdout
