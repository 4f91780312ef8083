"""The README's promises: the Quickstart is two commands that set everything up in a virtual
environment (PEP 668 leaves the system Python alone), `.ci/run` runs the second of them as
written, and every "Commands at a glance" line runs as written in an empty directory."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text("utf-8")
#: Lines that wait for a person (a password prompt) or run until stopped (the server).
INTERACTIVE = ("gputeam admin create", "gputeam serve")


def _section(title: str) -> str:
    start = README.index(f"## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end > 0 else None]


def _blocks(text: str) -> list[str]:
    return [b.strip() for b in re.findall(r"```sh\n(.*?)```", text, flags=re.S)]


def test_quickstart_is_two_commands_in_a_virtual_environment() -> None:
    blocks = _blocks(_section("Quickstart"))
    assert len(blocks) == 2 and all("\n" not in b for b in blocks), blocks
    plan, tests = blocks
    for command in blocks:
        assert "python3 -m venv .venv" in command and "python3-venv" in command
        assert "pip install" in command and ".venv/bin/python -m pip" in command
        assert "sudo pip" not in command and "--break-system-packages" not in command
    assert "gputeam plan --example finance" in plan
    assert "'.[test]'" in tests and "pytest" in tests


def test_ci_runs_the_readmes_test_command_as_written() -> None:
    tests = _blocks(_section("Quickstart"))[1]
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert tests in ci.splitlines(), "the last step of .ci/run is the README's second command"


def test_every_command_at_a_glance_runs_as_written(tmp_path: Path) -> None:
    (block,) = _blocks(_section("Commands at a glance"))
    lines = [ln for ln in block.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    runnable = [ln for ln in lines if not ln.startswith(INTERACTIVE)]
    assert len(runnable) >= 12
    bin_dir = Path(sys.executable).parent
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "NO_COLOR": "1",
        "GPUTEAM_LANG": "en",
    }
    for line in runnable:
        proc = subprocess.run(
            ["bash", "-c", f"set -o pipefail; {line}"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, f"{line}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    made_files = (
        "finance.yaml",
        "healthcare.yaml",
        "plan.json",
        "plan.xlsx",
        "sweep.html",
        "scenario.schema.json",
    )
    for made in made_files:
        assert (tmp_path / made).stat().st_size > 0, made
