"""Bounded imports (OWASP ASVS 5.0 V5.2.1 / 12.1.1: "the application will only accept files
of a size which it can process without causing a loss of performance or a denial of
service attack"; V5.2.3 "checks compressed files (e.g., zip, gz, docx, odt) against
maximum allowed uncompressed size and against maximum number of files before
uncompressing"), on SQLite and PostgreSQL: every limit of :class:`TableLimits` refuses a
file over it with a problem naming the limit and its setting, before the file can hold
the process's memory or time; nothing is written; the command line says the same and
exits 2."""

from __future__ import annotations

import functools
import io
import json
import subprocess
import sys
import time
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gputeam.errors import InputError
from gputeam.store import (
    Database,
    ImportRejected,
    LimitExceeded,
    TableLimits,
    import_certifications,
    import_roster,
    list_organisations,
    list_people,
    read_table,
)
from gputeam.store.limits import from_environment
from gputeam.store.unzip import BoundedZip

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import hostile_files as hostile  # noqa: E402

ROSTER = "id,name,level\np1,Ana,3\np2,Bo,2\n"


def _people(db: Database, org_id: int) -> list[str]:
    with db.session() as s:
        return [p.key for p in list_people(s, org_id, active=None)]


def _refused(run: Callable[[], Any]) -> tuple[LimitExceeded, float, int]:
    """The refusal ``run`` raises, the seconds it took and its peak of Python memory."""
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        with pytest.raises(LimitExceeded) as info:
            run()
        seconds = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return info.value, seconds, peak


@functools.cache
def _catalog() -> Any:
    from gputeam.catalog import load_catalog

    return load_catalog()


def _import(db: Database, org_id: int, data: bytes, name: str, limits: TableLimits | None = None) -> None:
    with db.session() as s:
        import_roster(s, org_id, data, filename=name, limits=limits, catalog=_catalog())


MB = 1024 * 1024


# ---------------------------------------------------------------- XLSX: zip bombs
def test_a_zip_bomb_is_refused_from_its_directory_before_unzipping(db: Database, org_id: int) -> None:
    bomb = hostile.zip_bomb_xlsx(1024 * MB)  # 4 MB that unzips to 1 GB
    assert len(bomb) < 5 * MB
    exc, seconds, peak = _refused(lambda: _import(db, org_id, bomb, "bomb.xlsx"))
    assert exc.status == 413 and exc.setting == "GPUTEAM_IMPORT_MAX_UNCOMPRESSED_BYTES"
    p = exc.problems[0]
    assert "GPUTEAM_IMPORT_MAX_UNCOMPRESSED_BYTES" in p.message and "268,435,456" in p.message
    assert p.found is not None and int(p.found.replace(",", "")) > 1000 * MB
    assert seconds < 10 and peak < 30 * MB, (seconds, peak)
    assert _people(db, org_id) == []


def test_a_highly_compressed_part_is_refused_by_its_ratio(db: Database, org_id: int) -> None:
    bomb = hostile.zip_bomb_xlsx(64 * MB)  # within the size limit, 250 times compressed
    exc, _seconds, peak = _refused(lambda: _import(db, org_id, bomb, "bomb.xlsx"))
    assert exc.setting == "GPUTEAM_IMPORT_MAX_COMPRESSION_RATIO" and exc.status == 413
    assert "xl/worksheets/sheet1.xml" in (exc.problems[0].found or "")
    assert peak < 30 * MB
    # a real workbook compresses about 10:1 and is read
    import openpyxl

    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet()
    ws.append(["id", "name", "level"])
    for i in range(30_000):
        ws.append([f"p{i}", f"Person {i}", i % 5])
    buf = io.BytesIO()
    wb.save(buf)
    sheet = zipfile.ZipFile(buf).getinfo("xl/worksheets/sheet1.xml")
    assert sheet.file_size > 1 * MB
    assert len(read_table(buf.getvalue(), filename="real.xlsx").rows) == 30_000


def test_what_a_part_unzips_to_is_counted_as_it_is_read_not_taken_from_the_directory() -> None:
    """The directory can lie: the archive the workbook is read from counts the bytes it
    really unzips and stops at the limit, without holding them."""
    bomb = hostile.zip_bomb_xlsx(256 * MB)
    limits = TableLimits(import_max_uncompressed_bytes=8 * MB, import_max_compression_ratio=10_000)
    archive = BoundedZip(io.BytesIO(bomb), "bomb.xlsx", limits)
    exc, _seconds, peak = _refused(lambda: archive.read("xl/worksheets/sheet1.xml"))
    assert exc.setting == "GPUTEAM_IMPORT_MAX_UNCOMPRESSED_BYTES"
    assert peak < 24 * MB, peak
    ratio = TableLimits(import_max_compression_ratio=100)
    archive = BoundedZip(io.BytesIO(bomb), "bomb.xlsx", ratio)
    with archive.open("xl/worksheets/sheet1.xml") as part, pytest.raises(LimitExceeded) as info:
        while part.read(65536):
            pass
    assert info.value.setting == "GPUTEAM_IMPORT_MAX_COMPRESSION_RATIO"


def test_a_directory_that_understates_a_part_is_refused_cleanly(db: Database, org_id: int) -> None:
    liar = hostile.lying_xlsx(256 * MB, declared=10_000)
    tracemalloc.start()
    try:
        with pytest.raises(ImportRejected) as info:
            _import(db, org_id, liar, "liar.xlsx")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "not a readable XLSX file" in str(info.value)
    assert peak < 30 * MB
    assert _people(db, org_id) == []


# ---------------------------------------------------------------- rows, columns, cells
def test_rows_over_the_limit_are_refused_at_the_first_one_over(db: Database, org_id: int) -> None:
    data = hostile.many_rows_csv(5_000)
    exc, _s, _p = _refused(lambda: _import(db, org_id, data, "rows.csv", TableLimits(import_max_rows=1_000)))
    assert exc.setting == "GPUTEAM_IMPORT_MAX_ROWS" and exc.status == 413
    assert exc.problems[0].line == 1_001 and exc.problems[0].file == "rows.csv"
    assert _people(db, org_id) == []
    with db.session() as s:  # the header and 999 rows: at the limit (a dry run: no statistics)
        report = import_roster(
            s,
            org_id,
            hostile.many_rows_csv(999),
            filename="rows.csv",
            dry_run=True,
            catalog=_catalog(),
            limits=TableLimits(import_max_rows=1_000),
        )
    assert report.rows == 999 and report.created == 999


def test_a_hundred_thousand_columns_are_refused_at_the_header(db: Database, org_id: int) -> None:
    data = hostile.many_columns_csv(100_000)
    exc, seconds, peak = _refused(lambda: _import(db, org_id, data, "wide.csv"))
    assert exc.setting == "GPUTEAM_IMPORT_MAX_COLUMNS" and exc.status == 413
    assert exc.problems[0].line == 1 and exc.problems[0].found == "100,000"
    assert len(exc.problems) == 1  # not one "unknown column" per column
    assert seconds < 3 and peak < 40 * MB, (seconds, peak)


@pytest.mark.parametrize("chars", [40_000, 200 * 1024])
def test_a_cell_over_the_limit_is_a_problem_at_its_row_not_a_crash(
    db: Database, org_id: int, chars: int
) -> None:
    """Once a bare 500 (``_csv.Error: field larger than field limit``) past 128 KB."""
    exc, _s, _p = _refused(lambda: _import(db, org_id, hostile.giant_cell_csv(chars), "cell.csv"))
    assert exc.setting == "GPUTEAM_IMPORT_MAX_CELL_CHARS" and exc.status == 422
    p = exc.problems[0]
    assert p.line == 2 and "32,767 characters" in p.message and p.found == "> 32,767"


def test_a_long_xlsx_cell_is_refused_too() -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    wb.active.append(["id", "name"])
    wb.active.append(["p1", "x" * 100])
    buf = io.BytesIO()
    wb.save(buf)
    with pytest.raises(LimitExceeded) as info:
        read_table(buf.getvalue(), filename="r.xlsx", limits=TableLimits(import_max_cell_chars=50))
    assert info.value.problems[0].line == 2 and info.value.problems[0].path == "column 2"


def test_a_file_over_the_byte_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text(ROSTER * 20)
    with pytest.raises(LimitExceeded) as info:
        read_table(path, limits=TableLimits(max_upload_bytes=100))
    assert info.value.setting == "GPUTEAM_MAX_UPLOAD_BYTES" and info.value.status == 413
    with pytest.raises(LimitExceeded):
        read_table(path.read_bytes(), filename="r.csv", limits=TableLimits(max_upload_bytes=100))


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 40), columns=st.integers(1, 12), cell=st.integers(1, 30), limit=st.integers(1, 40))
def test_a_table_is_read_exactly_when_it_is_within_every_limit(
    rows: int, columns: int, cell: int, limit: int
) -> None:
    """The rule: a file is read when its rows (header included), its widest row and its
    longest cell are each at most their limit, and refused naming the first one over."""
    data = "\n".join(",".join("x" * cell for _ in range(columns)) for _ in range(rows)).encode()
    limits = TableLimits(import_max_rows=limit, import_max_columns=limit, import_max_cell_chars=limit)
    try:
        table = read_table(data, filename="t.csv", limits=limits)
    except LimitExceeded as exc:
        assert max(rows, columns, cell) > limit
        assert exc.value == limit and exc.setting in exc.problems[0].message
    else:
        assert max(rows, columns, cell) <= limit
        assert len(table.rows) == rows - 1 and len(table.header) == columns


# ---------------------------------------------------------------- problems
def test_the_problems_listed_are_the_first_n_and_a_count_of_the_rest(db: Database, org_id: int) -> None:
    bad = "id,name,level\n" + "".join(f"p{i},Person {i},x\n" for i in range(3_000))
    with db.session() as s, pytest.raises(ImportRejected) as info:
        import_roster(
            s, org_id, bad.encode(), filename="bad.csv", limits=TableLimits(import_max_problems=100)
        )
    problems = info.value.problems
    assert len(problems) == 101
    assert all(p.line is not None for p in problems[:100])
    assert (
        "2,900 more problems" in problems[-1].message
        and "GPUTEAM_IMPORT_MAX_PROBLEMS" in problems[-1].message
    )
    with db.session() as s:  # the certifications import counts them as well
        import_roster(s, org_id, ROSTER.encode(), filename="r.csv")
    certs = "person,certification,valid_from\n" + "".join(f"p1,nope{i},2025-01-01\n" for i in range(50))
    with db.session() as s, pytest.raises(ImportRejected) as info:
        import_certifications(
            s, org_id, certs.encode(), filename="c.csv", limits=TableLimits(import_max_problems=5)
        )
    assert len(info.value.problems) == 6 and "45 more problems" in info.value.problems[-1].message


# ---------------------------------------------------------------- settings, command line
def test_the_limits_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPUTEAM_IMPORT_MAX_ROWS", "2")
    monkeypatch.setenv("GPUTEAM_MAX_UPLOAD_BYTES", "12345")
    limits = from_environment()
    assert (limits.import_max_rows, limits.max_upload_bytes) == (2, 12345)
    with pytest.raises(LimitExceeded, match="GPUTEAM_IMPORT_MAX_ROWS"):
        read_table(ROSTER.encode(), filename="r.csv")  # three rows
    monkeypatch.setenv("GPUTEAM_IMPORT_MAX_ROWS", "many")
    with pytest.raises(InputError) as info:
        from_environment()
    assert info.value.problems[0].path == "GPUTEAM_IMPORT_MAX_ROWS"


def test_the_command_line_names_the_limit_and_exits_2(db: Database, db_url: str, tmp_path: Path) -> None:
    from gputeam.cli.main import app

    runner = CliRunner()
    (tmp_path / "bomb.xlsx").write_bytes(hostile.zip_bomb_xlsx(1024 * MB))
    (tmp_path / "wide.csv").write_bytes(hostile.many_columns_csv(100_000))
    (tmp_path / "cell.csv").write_bytes(hostile.giant_cell_csv())
    (tmp_path / "r.csv").write_text(ROSTER)
    cases = [
        ("bomb.xlsx", {}, "GPUTEAM_IMPORT_MAX_UNCOMPRESSED_BYTES"),
        ("wide.csv", {}, "GPUTEAM_IMPORT_MAX_COLUMNS"),
        ("cell.csv", {}, "GPUTEAM_IMPORT_MAX_CELL_CHARS"),
        ("r.csv", {"GPUTEAM_IMPORT_MAX_ROWS": "2"}, "GPUTEAM_IMPORT_MAX_ROWS"),
        ("r.csv", {"GPUTEAM_MAX_UPLOAD_BYTES": "10"}, "GPUTEAM_MAX_UPLOAD_BYTES"),
        ("r.csv", {"GPUTEAM_IMPORT_MAX_ROWS": "0"}, "GPUTEAM_IMPORT_MAX_ROWS"),
    ]
    for name, env, setting in cases:
        result = runner.invoke(app, ["import", "roster", str(tmp_path / name), "--db", db_url], env=env)
        assert result.exit_code == 2, (name, result.output)
        assert setting in result.stderr and "Traceback" not in result.output + result.stderr, result.stderr
    with db.session() as s:
        assert list_organisations(s) == []  # nothing written, not even the organisation


# ---------------------------------------------------------------- memory, in a process of its own
_CHILD = r"""
import json, resource, sys, time


def peak_kb():
    # this process's own peak resident memory (VmHWM: ru_maxrss would carry the parent's
    # peak over fork and exec)
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


from gputeam.errors import InputError
from gputeam.catalog import load_catalog
from gputeam.store import create_organisation, import_roster, open_database
path, url = sys.argv[1], sys.argv[2]
db = open_database(url)
catalog = load_catalog()
with db.session() as s:
    org = create_organisation(s, "Acme").id
base = peak_kb()
t0 = time.perf_counter()
try:
    with db.session() as s:
        import_roster(s, org, path, dry_run=True, catalog=catalog)
    outcome = "read"
except InputError as exc:
    outcome = exc.problems[0].path
peak = peak_kb()
print(json.dumps({"grew_kb": peak - base, "seconds": time.perf_counter() - t0, "outcome": outcome}))
"""


@pytest.mark.parametrize(
    ("name", "make", "setting", "seconds"),
    [
        ("bomb.xlsx", lambda: hostile.zip_bomb_xlsx(1024 * MB), "GPUTEAM_IMPORT_MAX_UNCOMPRESSED_BYTES", 10),
        ("wide.csv", lambda: hostile.many_columns_csv(100_000), "GPUTEAM_IMPORT_MAX_COLUMNS", 10),
        ("cell.csv", lambda: hostile.giant_cell_csv(), "GPUTEAM_IMPORT_MAX_CELL_CHARS", 10),
    ],
)
def test_the_process_memory_stays_bounded(
    db_url: str, tmp_path: Path, name: str, make: Callable[[], bytes], setting: str, seconds: float
) -> None:
    """The import process's peak resident memory (VmHWM) grows by less than 64 MB
    on a 1 GB zip bomb and a 100,000-column file (once 2.4 GB and 11.5 s)."""
    path = tmp_path / name
    path.write_bytes(make())
    r = subprocess.run([sys.executable, "-c", _CHILD, str(path), db_url], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout.strip().splitlines()[-1])
    assert result["outcome"] == setting, result
    assert result["grew_kb"] < 64 * 1024, result
    assert result["seconds"] < seconds, result
