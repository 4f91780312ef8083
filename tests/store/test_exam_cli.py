"""`gputeam programme save|list`, `gputeam bank import --programme`, `gputeam exams
sweep|items|retire` on both engines."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.store.exam_helpers import EXTRA, START, exam_catalog, gift_bank, spec
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
        attempt = store.start_attempt(
            s, programme, person, now=START - timedelta(days=1), catalog=exam_catalog()
        ).id
    for expected in ("1 overdue", "0 overdue"):
        r = runner.invoke(app, ["exams", "sweep", "--catalog-extra", str(extra), *common])
        assert r.exit_code == 0 and expected in r.stdout, r.output
    with db.session() as s:
        row = s.get(store.schema_exams.ExamAttempt, attempt)
        assert (row.state, row.finished_how, row.passed) == ("finished", "timeout", False)
    r = runner.invoke(app, ["exams", "items", "acme-l2", "--csv", *common])
    assert r.stdout.startswith("scope,item_id,domain,type,attempts")
    assert r.stdout.count("\n") == 41  # the header, 36 items, 3 domains, the form
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


def test_sweep_uses_the_servers_catalog_extra_and_reports_what_it_cannot_finish(
    db_url: str, tmp_path: Path, monkeypatch: Any
) -> None:
    """Without --catalog-extra the sweep reads GPUTEAM_CATALOG_EXTRA as the server does;
    without either, a passing attempt (whose certification the packaged catalog lacks) is
    reported and the other overdue attempts are still finished."""
    from tests.store.exam_helpers import exam_catalog, right_answers, setup_programme

    extra = tmp_path / "extra.yaml"
    extra.write_text(yaml.safe_dump(EXTRA), "utf-8")
    db = store.open_database(db_url)
    with db.session() as s:
        org = store.create_organisation(s, "Acme")
        ada = store.add_person(s, org.id, key="p1", name="Ada").id
        grace = store.add_person(s, org.id, key="p2", name="Grace").id
        prog = setup_programme(s, org.id, exam_catalog())
        passing = store.start_attempt(s, prog, ada, now=START - timedelta(days=1), catalog=exam_catalog())
        for item, choice in right_answers(store.attempt_view(s, passing, now=START)).items():
            store.save_answer(s, passing.id, ada, item, choice, now=START - timedelta(days=1))
        failing = store.start_attempt(
            s, prog, grace, now=START - timedelta(days=1), catalog=exam_catalog()
        ).id
        passing_id = passing.id
    common = ["exams", "sweep", "--db", db_url]
    monkeypatch.delenv("GPUTEAM_CATALOG_EXTRA", raising=False)
    r = runner.invoke(app, common)
    assert r.exit_code == 1, r.output
    assert "1 overdue" in r.stdout
    assert f"attempt {passing_id} not finished" in r.stderr and "not in the catalog" in r.stderr
    with db.session() as s:
        assert s.get(store.schema_exams.ExamAttempt, failing).state == "finished"
        assert s.get(store.schema_exams.ExamAttempt, passing_id).state == "in_progress"
    monkeypatch.setenv("GPUTEAM_CATALOG_EXTRA", str(extra))
    r = runner.invoke(app, common)
    assert r.exit_code == 0 and "1 overdue" in r.stdout, r.output
    with db.session() as s:
        row = s.get(store.schema_exams.ExamAttempt, passing_id)
        assert (row.state, row.passed) == ("finished", True)
        assert [c.cert_id for c in store.list_certifications(s, person_id=ada)] == ["acme-operator-l2"]
    db.dispose()


EXTRA_GIFT = """$CATEGORY: $course$/top/Storage

::No id::A question with neither an id nor a domain tag: its category maps it.{=Right ~Wrong}

// [id:ops-num] [tag:domain-operations] [tag:hard]
::Numbers::How many GPUs in a DGX H100?{#8:0}
"""


@pytest.mark.parametrize("fmt", ["gift", "moodle-xml"])
def test_bank_export_of_a_programme_round_trips(db_url: str, tmp_path: Path, fmt: str) -> None:
    """`bank export --programme` writes the newest version of each item with its id and
    domain; importing the file into another programme gives the same items (content,
    ids, domains). Retired items are left out and named."""
    from tests.store.exam_helpers import setup_programme

    from gputeam.certify import read_bank

    catalog = exam_catalog()
    db = store.open_database(db_url)
    with db.session() as s:
        org = store.create_organisation(s, "Acme")
        person = store.add_person(s, org.id, key="p1", name="Ada").id
        prog = setup_programme(s, org.id, catalog)
        mapping = {"$course$/top/Storage": "storage"}
        store.import_bank(s, prog.id, read_bank(EXTRA_GIFT.encode(), "gift", mapping).bank, now=START)
        store.start_attempt(s, prog, person, now=START, catalog=catalog)  # 10 items used
        changed = gift_bank().replace("Question", "Reworded question")
        report = store.import_bank(s, prog.id, read_bank(changed.encode(), "gift").bank, now=START)
        assert report.new_versions and len(report.new_versions) + len(report.updated) == 36
        store.retire_item(s, prog.id, "networking-000", now=START)
        expected = {
            r.item_id: (r.content_hash, r.domain) for r in store.bank_items(s, prog.id, include_retired=False)
        }
        store.save_programme(s, org.id, "copy", spec(), catalog=catalog)
    assert len(expected) == 37 and "networking-000" not in expected
    assert {d for _h, d in expected.values()} == {"networking", "storage", "operations"}
    out = tmp_path / f"bank.{fmt}"
    r = runner.invoke(
        app, ["bank", "export", "--programme", "acme-l2", "--to", fmt, "--out", str(out), "--db", db_url]
    )
    assert r.exit_code == 0, r.output
    assert "37 questions" in r.stdout and "networking-000" in r.stderr
    text = out.read_text("utf-8")
    assert "Reworded question 3 about storage" in text and "Question 3 about storage" not in text
    r = runner.invoke(app, ["bank", "import", str(out), "--programme", "copy", "--db", db_url])
    assert r.exit_code == 0 and "added 37" in r.stdout, r.output
    with db.session() as s:
        copy = store.get_programme(s, org.id, "copy")
        got = {r.item_id: (r.content_hash, r.domain) for r in store.bank_items(s, copy.id)}
    assert got == expected
    r = runner.invoke(app, ["bank", "export", "--programme", "acme-l2", "--to", fmt, "--db", db_url])
    assert r.exit_code == 0 and r.stdout == text  # standard output: the same file
    db.dispose()


def test_bank_export_wants_a_file_or_a_programme(tmp_path: Path) -> None:
    r = runner.invoke(app, ["bank", "export", "--to", "gift"])
    assert r.exit_code == 2 and "--programme" in r.stderr
