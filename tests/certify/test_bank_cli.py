"""`gputeam bank import|export`, run through typer's CliRunner on files in tmp_path."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from typer.testing import CliRunner

from gputeam.certify import read_bank
from gputeam.cli.main import app

from .fixtures import GIFT, GIFT_BAD, XML

runner = CliRunner()


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_dry_run_json_report(tmp_path: Path) -> None:
    path = write(tmp_path, "ops.gift", GIFT)
    res = runner.invoke(app, ["bank", "import", str(path), "--dry-run", "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    bank = read_bank(GIFT.encode()).bank
    assert report == {
        "questions": len(bank.questions),
        "by_type": dict(Counter(q.qtype for q in bank.questions)),
        "categories": ["$course$/top/Cluster operations", "$course$/top/Cluster operations/Storage"],
        "errors": [],
        "unsupported": [],
    }


def test_xml_with_unsupported_and_invalid_exits_2_naming_line_and_question(tmp_path: Path) -> None:
    path = write(tmp_path, "fabric.xml", XML)
    res = runner.invoke(app, ["bank", "import", str(path), "--dry-run", "--json", "--format", "moodle-xml"])
    assert res.exit_code == 2
    report = json.loads(res.stdout)
    assert report["by_type"] == {
        "description": 1,
        "essay": 1,
        "match": 1,
        "multichoice": 2,
        "numerical": 1,
        "shortanswer": 1,
        "truefalse": 1,
    }
    assert [(e["question"], type(e["line"])) for e in report["errors"]] == [("Bad grades", int)]
    assert set(report["errors"][0]) == {"line", "question", "message"}
    assert [u["qtype"] for u in report["unsupported"]] == ["multianswer", "calculated"]


def test_text_report_names_line_and_question(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.gift", GIFT_BAD)
    res = runner.invoke(app, ["bank", "import", str(path), "--dry-run"])
    assert res.exit_code == 2
    assert f"{path}:1: question 'Bad grade'" in res.stderr
    assert f"{path}: 1 valid question (" in res.stdout  # one question: no plural


def test_domain_map_option(tmp_path: Path) -> None:
    path = write(tmp_path, "ops.gift", GIFT)
    ok = runner.invoke(
        app,
        [
            "bank",
            "import",
            str(path),
            "--dry-run",
            "--domain-map",
            "$course$/top/Cluster operations=cluster-ops",
        ],
    )
    assert ok.exit_code == 0
    bad = runner.invoke(app, ["bank", "import", str(path), "--dry-run", "--domain-map", "nodomain"])
    assert bad.exit_code == 2 and "CATEGORY=DOMAIN" in bad.stderr


def test_without_dry_run_or_programme_it_says_what_to_give(tmp_path: Path) -> None:
    path = write(tmp_path, "ops.gift", GIFT)
    res = runner.invoke(app, ["bank", "import", str(path)])
    assert res.exit_code == 2 and "--programme" in res.stderr and res.stdout == ""


def test_unreadable_files_exit_2_without_a_traceback(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["bank", "import", str(tmp_path / "nope.gift"), "--dry-run"])
    assert missing.exit_code == 2 and "cannot read" in missing.stderr
    broken = write(tmp_path, "broken.xml", "<?xml version='1.0'?>\n<quiz>\n<question type='essay'>\n")
    res = runner.invoke(app, ["bank", "import", str(broken), "--dry-run"])
    assert res.exit_code == 2 and "not well-formed" in res.stderr and "Traceback" not in res.output
    fmt = runner.invoke(app, ["bank", "import", str(broken), "--dry-run", "--format", "qti"])
    assert fmt.exit_code == 2 and "--format" in fmt.stderr


def test_export_converts_gift_to_moodle_xml_and_back(tmp_path: Path) -> None:
    src = write(tmp_path, "ops.gift", GIFT)
    out = tmp_path / "ops.xml"
    res = runner.invoke(app, ["bank", "export", str(src), "--to", "moodle-xml", "--out", str(out)])
    assert res.exit_code == 0, res.output
    original = read_bank(GIFT.encode()).bank
    converted = read_bank(out.read_bytes())
    assert converted.format == "moodle-xml"
    assert [q.model_dump() for q in converted.bank.questions] == [q.model_dump() for q in original.questions]
    back = tmp_path / "back.gift"
    assert runner.invoke(app, ["bank", "export", str(out), "--to", "gift", "--out", str(back)]).exit_code == 0
    assert [q.content_hash for q in read_bank(back.read_bytes()).bank.questions] == [
        q.content_hash for q in original.questions
    ]


def test_export_refuses_a_file_with_problems_and_writes_nothing(tmp_path: Path) -> None:
    src = write(tmp_path, "fabric.xml", XML)
    out = tmp_path / "out.gift"
    res = runner.invoke(app, ["bank", "export", str(src), "--to", "gift", "--out", str(out)])
    assert res.exit_code == 2 and "nothing written" in res.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == [src]


def test_export_to_gift_warns_about_what_gift_cannot_hold(tmp_path: Path) -> None:
    from gputeam.certify import write_bank

    valid = read_bank(XML.encode()).bank  # the valid questions, images and marks included
    src = write(tmp_path, "valid.xml", write_bank(valid, "moodle-xml"))
    out = tmp_path / "valid.gift"
    res = runner.invoke(app, ["bank", "export", str(src), "--to", "gift", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "warning: 1 embedded file(s)" in res.stderr and "case-sensitive" in res.stderr
    assert len(read_bank(out.read_bytes()).bank.questions) == len(valid.questions)


def test_text_report_in_german(tmp_path: Path) -> None:
    """The bank's problems in the chosen language (certify writes English, marked for
    translation; the report translates it), the question names and values as they are."""
    path = write(tmp_path, "bad.gift", GIFT_BAD)
    res = runner.invoke(app, ["--lang", "de", "bank", "import", str(path), "--dry-run"])
    assert res.exit_code == 2
    err = res.stderr.replace(str(path), "bad.gift")
    assert (
        "bad.gift:8: Frage 'One answer': zu wenige Antworten für eine Multiple-Choice-Frage (2 oder mehr)"
        in err
    )
    assert "bad.gift:10: Frage 'Bad number': die Antwort 'lots' ist keine Zahl" in err
    assert (
        "ist keine der Bewertungsstufen von Moodle (100, 90," in err and "0 und ihre negativen Werte)" in err
    )
    assert "(multianswer): eingebettete Antworten (Lückentext) werden nicht unterstützt" in err
    assert " is not " not in err and "supported" not in err and "enclosed" not in err
    assert "bad.gift: 1 gültige Frage (" in res.stdout.replace(str(path), "bad.gift")
    store = runner.invoke(app, ["--lang", "de", "bank", "import", str(path)])  # neither option
    assert store.exit_code == 2
    assert "Fehler: mit --programme CODE werden die Fragen gespeichert" in store.stderr


def test_an_unreadable_category_in_german(tmp_path: Path) -> None:
    """A Moodle XML category whose path holds unescaped markup fails its check: the report
    says so in the chosen language, naming the category (not a question) and the line."""
    xml = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n<question type="category">\n'
        "  <category><text>$course$/top/<b>Networking</b></text></category>\n</question>\n"
        '<question type="truefalse">\n  <name><text>TF</text></name>\n'
        '  <questiontext format="html"><text>Is it?</text></questiontext>\n'
        '  <answer fraction="100"><text>true</text></answer>\n'
        '  <answer fraction="0"><text>false</text></answer>\n</question>\n</quiz>\n'
    )
    path = write(tmp_path, "cat.xml", xml)
    res = runner.invoke(app, ["--lang", "de", "bank", "import", str(path), "--dry-run"])
    assert res.exit_code == 2
    err = res.stderr.replace(str(path), "cat.xml")
    assert (
        "cat.xml:3: Kategorie: <text> in Zeile 4 enthält nicht maskiertes Markup (<b>): "
        "setzen Sie es in <![CDATA[ ... ]]>"
    ) in err
    res = runner.invoke(app, ["bank", "import", str(path), "--dry-run"])
    assert "cat.xml:3: category: <text> at line 4 holds unescaped markup (<b>)" in res.stderr.replace(
        str(path), "cat.xml"
    )
