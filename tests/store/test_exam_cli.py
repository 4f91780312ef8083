"""`gputeam programme save|list`, `gputeam bank import --programme`, `gputeam exams
sweep|items|retire` on both engines."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import yaml
from tests.store.exam_helpers import EXTRA, START, gift_bank, spec
from typer.testing import CliRunner

from gputeam import store
from gputeam.cli.main import app

runner = CliRunner()


def test_programme_bank_sweep_items_retire(db_url: str, tmp_path: Path) -> None:
    extra = tmp_path / "extra.yaml"
    extra.write_text(yaml.safe_dump(EXTRA), "utf-8")
    prog = tmp_path / "prog.yaml"
    prog.write_text(yaml.safe_dump(spec()), "utf-8")
    bank = tmp_path / "bank.gift"
    bank.write_text(gift_bank(), "utf-8")
    db = store.open_database(db_url)
    with db.session() as s:
        org = store.create_organisation(s, "Acme")
        person = store.add_person(s, org.id, key="p1", name="Ada").id
    common = ["--db", db_url]
    with_extra = ["--catalog-extra", str(extra)]
    r = runner.invoke(app, ["programme", "save", "acme-l2", str(prog), *with_extra, *common])
    assert r.exit_code == 0, r.output
    bad = runner.invoke(app, ["programme", "save", "acme-l2", str(prog), *common])  # no extras
    assert bad.exit_code == 2 and "certification" in bad.stderr
    r = runner.invoke(app, ["bank", "import", str(bank), "--programme", "acme-l2", *common])
    assert r.exit_code == 0 and "added 36" in r.stdout, r.output
    r = runner.invoke(app, ["bank", "import", str(bank), "--programme", "acme-l2", *common])
    assert "unchanged 36" in r.stdout
    broken = tmp_path / "broken.gift"
    broken.write_text(gift_bank() + "\n::x::Broken {=a ~b\n", "utf-8")
    r = runner.invoke(app, ["bank", "import", str(broken), "--programme", "acme-l2", *common])
    assert r.exit_code == 2
    r = runner.invoke(app, ["programme", "list", "--json", *common])
    assert '"items": 36' in r.stdout
    with db.session() as s:  # an attempt long overdue
        programme = store.get_programme(s, org.id, "acme-l2")
        attempt = store.start_attempt(s, programme, person, now=START - timedelta(days=1)).id
    for expected in ("1 overdue", "0 overdue"):
        r = runner.invoke(app, ["exams", "sweep", "--catalog-extra", str(extra), *common])
        assert r.exit_code == 0 and expected in r.stdout, r.output
    with db.session() as s:
        row = s.get(store.schema_exams.ExamAttempt, attempt)
        assert (row.state, row.finished_how, row.passed) == ("finished", "timeout", False)
    r = runner.invoke(app, ["exams", "items", "acme-l2", "--csv", *common])
    assert r.stdout.startswith("item_id,domain,type,attempts") and r.stdout.count("\n") == 37
    r = runner.invoke(app, ["exams", "retire", "acme-l2", "storage-001", *common])
    assert r.exit_code == 0
    r = runner.invoke(app, ["programme", "list", "--json", *common])
    assert '"items": 35' in r.stdout
    db.dispose()


def test_essay_marking_from_the_command_line(db_url: str, tmp_path: Path) -> None:
    import json

    from tests.store.exam_helpers import exam_catalog, setup_essay_programme, sit_essay_exam

    extra = tmp_path / "extra.yaml"
    extra.write_text(yaml.safe_dump(EXTRA), "utf-8")
    db = store.open_database(db_url)
    with db.session() as s:
        org = store.create_organisation(s, "Acme")
        ada = store.add_person(s, org.id, key="p1", name="Ada").id
        store.add_person(s, org.id, key="p2", name="Grace")
        prog = setup_essay_programme(s, org.id, exam_catalog())
        attempt = sit_essay_exam(s, prog, ada).id
        store.finish_attempt(s, attempt, now=START + timedelta(minutes=5), catalog=exam_catalog())
    common = ["--db", db_url]
    r = runner.invoke(app, ["exams", "marking", "essay-l2", *common])
    assert r.exit_code == 0, r.output
    [queued] = json.loads(r.stdout)
    assert queued["attempt"] == attempt and queued["essays"][0]["answer"] == "Cordon, drain, check."
    mark = ["exams", "mark", str(attempt), "net-essay"]
    r = runner.invoke(app, [*mark, "1", "--assessor", "p1", *common])  # the candidate herself
    assert r.exit_code == 2 and "own essay" in r.stderr
    r = runner.invoke(
        app, [*mark, "0.8", "--comment", "Good.", "--assessor", "p2", "--catalog-extra", str(extra), *common]
    )
    assert r.exit_code == 0 and "passed (93 %)" in r.stdout, r.output
    r = runner.invoke(app, ["exams", "marking", "essay-l2", *common])
    assert json.loads(r.stdout) == []
