"""Optional parts install as extras: PDF output (``gputeam[pdf]``: Playwright) and
PostgreSQL (``gputeam[postgres]``: psycopg). Without them gputeam still plans, reports and
tracks on SQLite, and asking for the missing part says which extra to install.

The packages are hidden from a real ``gputeam`` process by a finder placed before every
other one (the packages stay installed for the rest of the suite)."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

HIDE = """
import sys
class _Hidden:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {hidden!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, _Hidden())
from gputeam.cli.main import main
sys.argv = ['gputeam', *sys.argv[1:]]
main()
"""


def gputeam_without(hidden: set[str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GPUTEAM_LANG": "en", "NO_COLOR": "1", "COLUMNS": "200"}
    env.pop("GPUTEAM_DB", None)
    code = HIDE.format(hidden=hidden)
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=120
    )


def test_the_extras_are_declared_and_not_required() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    required = " ".join(meta["dependencies"]).lower()
    for package in ("playwright", "psycopg", "plotly"):
        assert package not in required, package
    extras = meta["optional-dependencies"]
    assert any(d.startswith("playwright") for d in extras["pdf"])
    assert any(d.startswith("psycopg") for d in extras["postgres"])
    # the tests need both
    assert any(d.startswith("playwright") for d in extras["test"])
    assert any(d.startswith("psycopg") for d in extras["test"])


def test_plans_and_html_without_the_pdf_extra(tmp_path: Path) -> None:
    proc = gputeam_without(
        {"playwright"}, "plan", "--example", "startup", "--runs", "0", "--out", "p.html", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "p.html").stat().st_size > 100_000


def test_pdf_without_the_pdf_extra_names_the_extra(tmp_path: Path) -> None:
    proc = gputeam_without(
        {"playwright"}, "plan", "--example", "startup", "--runs", "0", "--out", "p.pdf", cwd=tmp_path
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "gputeam[pdf]" in proc.stderr and "playwright" in proc.stderr
    assert not (tmp_path / "p.pdf").exists(), "nothing half-written"


@pytest.mark.parametrize("url", ["postgresql://127.0.0.1/test", "postgres://127.0.0.1/test"])
def test_postgresql_without_the_postgres_extra_names_the_extra(tmp_path: Path, url: str) -> None:
    proc = gputeam_without({"psycopg"}, "db", "upgrade", "--db", url, cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "gputeam[postgres]" in proc.stderr and "psycopg" in proc.stderr


def test_sqlite_without_the_postgres_extra(tmp_path: Path) -> None:
    proc = gputeam_without(
        {"psycopg"}, "db", "upgrade", "--db", f"sqlite:///{tmp_path / 't.db'}", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
