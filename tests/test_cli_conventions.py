"""The command line's conventions, run for real in subprocesses (the installed console
script, output piped as a script would pipe it): '-' for standard input and output, data on
stdout and messages on stderr, no hard wraps when piped, rounded CSV figures, choices in
help, and `catalog show` as tables in the language asked for."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
from pathlib import Path

from gputeam.scenario import example_text

from .test_cli import gputeam_exe

TODAY = "2026-12-02"


def run(
    *args: str, stdin: bytes | None = None, cwd: Path | None = None, columns: str | None = None
) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    if columns:
        env["COLUMNS"] = columns
    env["GPUTEAM_LANG"] = "en"
    return subprocess.run(
        [*gputeam_exe(), *args], input=stdin, capture_output=True, env=env, cwd=cwd, timeout=300
    )


def test_a_scenario_from_standard_input() -> None:
    """`gputeam plan -` reads the scenario from stdin, as `gputeam plan FILE` reads FILE."""
    text = example_text("finance").encode()
    piped = run("plan", "-", "--runs", "0", "--today", TODAY, "--format", "json", stdin=text)
    assert piped.returncode == 0, piped.stderr.decode()
    data = json.loads(piped.stdout)
    assert data["scenario"]["organisation"] == "Example Capital Markets"
    bad = run("plan", "-", "--runs", "0", stdin=b"fleet: [\n")
    assert bad.returncode == 2 and b"<stdin>" in bad.stderr and b"Traceback" not in bad.stderr


def test_a_report_to_standard_output_holds_the_report_alone(tmp_path: Path) -> None:
    """`--out -` writes the report to stdout (no file named '-'), messages to stderr."""
    md = run(
        "plan",
        "--example",
        "finance",
        "--runs",
        "0",
        "--today",
        TODAY,
        "--out",
        "-",
        "-f",
        "md",
        cwd=tmp_path,
    )
    assert md.returncode == 0, md.stderr.decode()
    assert md.stdout.startswith(b"# ") and b"wrote" not in md.stdout
    assert not (tmp_path / "-").exists()
    xlsx = run("plan", "--example", "finance", "--runs", "0", "--today", TODAY, "--out", "-", "-f", "xlsx")
    assert xlsx.returncode == 0 and xlsx.stdout[:2] == b"PK"  # a zip: the workbook, into the pipe


def test_data_on_stdout_messages_on_stderr(tmp_path: Path) -> None:
    """'wrote ...' is a message: on stderr for plan, sweep and example alike."""
    out = tmp_path / "plan.json"
    p = run("plan", "--example", "finance", "--runs", "0", "--today", TODAY, "--out", str(out))
    assert p.returncode == 0, p.stderr.decode()
    assert b"wrote" not in p.stdout and f"wrote {out} (json, ".encode() in p.stderr
    scenario = tmp_path / "s.yaml"
    e = run("example", "finance", "--out", str(scenario))
    assert e.returncode == 0 and e.stdout == b"" and b"wrote" in e.stderr
    grid = tmp_path / "grid.csv"
    s = run(
        "sweep",
        str(scenario),
        "--vary",
        "fleet.sites=1,2",
        "--runs",
        "0",
        "--today",
        TODAY,
        "--out",
        str(grid),
    )
    assert s.returncode == 0, s.stderr.decode()
    assert b"wrote" not in s.stdout and b"wrote" in s.stderr


def test_piped_output_is_not_hard_wrapped() -> None:
    """A pipe gets whole lines: no sentence of the plan's terminal report is broken at 80
    columns (a terminal still gets its own width)."""
    p = run("plan", "--example", "finance", "--runs", "0", "--today", TODAY)
    assert p.returncode == 0, p.stderr.decode()
    lines = p.stdout.decode().splitlines()
    assert max(len(line) for line in lines) > 100
    # every assignment's reason stands on one line
    data = json.loads(
        run("plan", "--example", "finance", "--runs", "0", "--today", TODAY, "-f", "json").stdout
    )
    reasons = [a["reason"] for a in data["sourcing"]["assignments"]]
    assert reasons and all(any(r in line for line in lines) for r in reasons)


def test_sweep_csv_figures_are_rounded(tmp_path: Path) -> None:
    """Rule: money to the cent, hours to the hundredth, fractions to four places."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text(example_text("finance"), "utf-8")
    p = run(
        "sweep",
        str(scenario),
        "--vary",
        "fleet.gpus[1].count=300..900:4",
        "--runs",
        "0",
        "--today",
        TODAY,
        "-f",
        "csv",
    )
    assert p.returncode == 0, p.stderr.decode()
    rows = list(csv.DictReader(io.StringIO(p.stdout.decode())))
    assert len(rows) == 4
    for row in rows:
        for field, value in row.items():
            if re.fullmatch(r"-?\d+\.\d+", value or ""):
                decimals = len(value.split(".")[1])
                assert decimals <= (4 if field in ("net_roi", "p_ready") else 2), (field, value)


def test_help_lists_choices_not_python_types() -> None:
    p = run("plan", "--help", columns="200")
    text = p.stdout.decode()
    assert p.returncode == 0
    assert "table|json|md|html|xlsx|ics|pdf" in text and "template|lean" in text and "mip|rule" in text
    assert not re.search(r"<(str|bool|int|path|list\[str\])", text), text


def test_catalog_show_is_a_table_in_the_language() -> None:
    """`catalog show certs --lang de`: German headings, yes/no words, no raw field names."""
    p = run("--lang", "de", "catalog", "show", "certs")
    text = p.stdout.decode()
    assert p.returncode == 0, p.stderr.decode()
    assert "Zertifizierungen" in text and "Prüfung" in text and "Voraussetzungen" in text
    for raw in ("validity_months", "remote_proctored", "True", "price_usd", "questions_min"):
        assert raw not in text, raw
    assert "online beaufsichtigt: ja" in text
