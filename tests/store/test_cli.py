"""`gputeam import|export|remind|db upgrade` on both engines."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gputeam.cli.main import app
from gputeam.store import open_database

from .test_import import CERTS, ROSTER

runner = CliRunner()


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "roster.csv").write_text(ROSTER)
    (tmp_path / "certs.csv").write_text(CERTS)
    (tmp_path / "bad.csv").write_text("id,name,level\np1,Ana,3\np2,Bo,9\n,Cy,2\n")
    return tmp_path


def test_db_upgrade_creates_schema(empty_db_url: str) -> None:
    from alembic.script import ScriptDirectory

    from gputeam.store.db import alembic_config

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    code, out, _ = run("db", "upgrade", "--db", empty_db_url)
    assert code == 0 and f"empty -> {head}" in out
    code, out, _ = run("db", "upgrade", "--db", empty_db_url)
    assert code == 0 and f"schema {head} -> {head}" in out


def test_import_export_remind(db_url: str, files: Path) -> None:
    code, out, err = run("import", "roster", str(files / "bad.csv"), "--db", db_url)
    assert code == 2
    assert "bad.csv:3: level: out of range" in err and "bad.csv:4: id: missing id" in err
    code, out, _ = run(
        "import", "roster", str(files / "roster.csv"), "--db", db_url, "--org", "Acme", "--dry-run"
    )
    assert code == 0 and "3 would be created" in out and "nothing written" in out
    code, out, _ = run("export", "--db", db_url)
    assert code == 2  # still no organisation: the dry run wrote nothing
    code, out, _ = run("import", "roster", str(files / "roster.csv"), "--db", db_url, "--org", "Acme")
    assert code == 0 and "3 were created" in out
    code, out, _ = run("import", "certifications", str(files / "certs.csv"), "--db", db_url)
    assert code == 0 and "3 were created" in out

    code, out, _ = run("export", "--db", db_url)
    assert code == 0 and len(json.loads(out)["tables"]["people"]) == 3
    code, _, _ = run("export", "-f", "csv", "-o", str(files / "out"), "--db", db_url)
    assert code == 0 and (files / "out" / "people.csv").read_text().startswith("id,name")
    code, _, _ = run("export", "-f", "csv", "-o", str(files / "out.zip"), "--db", db_url)
    assert "certifications.csv" in zipfile.ZipFile(files / "out.zip").namelist()
    code, _, _ = run("export", "-f", "xlsx", "-o", str(files / "out.xlsx"), "--db", db_url)
    assert code == 0 and (files / "out.xlsx").read_bytes()[:2] == b"PK"

    env = {"GPUTEAM_SMTP_HOST": ""}
    code, out, _ = run("remind", "--today", "2027-01-01", "--within", "60", "--db", db_url, env=env)
    assert code == 0 and "2 new reminders due" in out
    assert "(CKA) expires on 2027-02-10" in out and "(NCA-AIIO) expires on 2027-01-10" in out
    code, out, _ = run("remind", "--today", "2027-01-01", "--within", "60", "--db", db_url, env=env)
    assert code == 0 and "0 new reminders due; 2 sent before" in out


def test_gputeam_db_environment_variable(tmp_path: Path, files: Path) -> None:
    url = f"sqlite:///{tmp_path / 'env.db'}"
    code, _, _ = run("import", "roster", str(files / "roster.csv"), env={"GPUTEAM_DB": url})
    assert code == 0
    db = open_database(url)
    try:
        assert db.revision() is not None
    finally:
        db.dispose()


def test_bad_options_exit_2(db_url: str, files: Path) -> None:
    assert run("import", "roster", str(files / "roster.csv"), "--db", db_url, "--map", "nonsense")[0] == 2
    assert run("remind", "--today", "yesterday", "--db", db_url)[0] == 2
    assert run("export", "-f", "pdf", "--db", db_url)[0] == 2


def test_admin_token_prints_a_working_token_once(db_url: str) -> None:
    from gputeam.store import verify_token

    env = {"GPUTEAM_ADMIN_PASSWORD": "long enough pw"}
    assert run("admin", "create", "ops", "--role", "manager", "--db", db_url, env=env)[0] == 0
    code, out, err = run("admin", "token", "ops", "--scope", "write", "--name", "ci", "--db", db_url)
    assert code == 0, err
    secret = out.strip()
    assert "\n" not in secret and "shown once" in err
    database = open_database(db_url)
    try:
        with database.session() as s:
            tok = verify_token(s, secret)
            assert tok is not None and tok.name == "ci" and tok.user.username == "ops"
            assert sorted(tok.scopes) == ["read", "write"]
    finally:
        database.dispose()
    # a manager may not hold an admin token; unknown scopes and users are refused, exit 2
    for args in (["ops", "--scope", "admin"], ["ops", "--scope", "root"], ["nobody"]):
        code, out, err = run("admin", "token", *args, "--db", db_url)
        assert code == 2 and out == "" and "Traceback" not in err
    assert (
        "may not hold 'admin' tokens" in run("admin", "token", "ops", "--scope", "admin", "--db", db_url)[2]
    )


def test_import_lists_changes_and_takes_a_header_row(db_url: str, tmp_path: Path) -> None:
    """Issue 9: the dry run shows each change to existing people (field: old -> new) and
    the import says how many existing people it changes; --header-row picks the header."""
    (tmp_path / "r.csv").write_text("id,name,level\np1,Ana,2\np2,Bo,3\n")
    (tmp_path / "c.csv").write_text("Roster\nPersonalnummer,name,level\np1,Ana,4\np2,Bo,3\n")
    assert run("import", "roster", str(tmp_path / "r.csv"), "--db", db_url, "--org", "Acme")[0] == 0
    code, _, err = run("import", "roster", str(tmp_path / "c.csv"), "--db", db_url)
    assert code == 2 and "c.csv:2: Personalnummer: unknown column" in err  # row 2 found
    args = (
        "import",
        "roster",
        str(tmp_path / "c.csv"),
        "--db",
        db_url,
        "--header-row",
        "2",
        "--map",
        "Personalnummer=id",
    )
    code, out, _ = run(*args, "--dry-run")
    assert code == 0 and "1 existing people would be changed" in out
    assert "row 3, p1: level: 2 \u2192 4" in out
    code, out, _ = run(*args)
    assert code == 0 and "1 existing people were changed" in out


def test_admin_token_expires_after_90_days_unless_told(db_url: str) -> None:
    """The finding: tokens from `gputeam admin token` never expired."""
    from datetime import timedelta

    from gputeam.store import ApiToken, secret_digest

    env = {"GPUTEAM_ADMIN_PASSWORD": "long enough pw"}
    assert run("admin", "create", "exp", "--role", "engineer", "--db", db_url, env=env)[0] == 0
    lifetimes: dict[str, timedelta | None] = {}
    for given in (None, "30d", "never"):
        extra = [] if given is None else ["--expires", given]
        code, out, err = run("admin", "token", "exp", *extra, "--db", db_url)
        assert code == 0, err
        database = open_database(db_url)
        try:
            with database.session() as s:
                tok = s.query(ApiToken).filter_by(token_hash=secret_digest(out.strip())).one()
                lifetimes[str(given)] = None if tok.expires_at is None else tok.expires_at - tok.created_at
        finally:
            database.dispose()
        if given == "never":
            assert "never expires" in err
        else:
            assert "expires on" in err
    assert abs(lifetimes["None"] - timedelta(days=90)) < timedelta(minutes=1)  # type: ignore[operator]
    assert abs(lifetimes["30d"] - timedelta(days=30)) < timedelta(minutes=1)  # type: ignore[operator]
    assert lifetimes["never"] is None
    code, out, err = run("admin", "token", "exp", "--expires", "forever", "--db", db_url)
    assert code == 2 and out == "" and "--expires" in err and "Traceback" not in err
