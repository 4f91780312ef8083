"""Problems (scenario, override, roster) in the chosen language: the CLI's and the web's
English messages translated where they are shown (gputeam.i18n.messages)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gputeam import i18n
from gputeam.cli.main import app
from gputeam.errors import Problem, headline
from gputeam.i18n.messages import translate

BAD_SCENARIOS = {
    "types": """organisation: Bad
start: 2026-13-01
horizon_months: abc
fleet:
  gpus:
    - {month: 0, count: -5}
  interconect: x
people:
  - {id: a, name: A, skills: {networking: 9}}
mode: fast
""",
    "ids": """organisation: Bad
start: 2026-01-01
fleet:
  gpus: [{month: 1, count: 64}]
people:
  - {id: a, name: A, role: operatons-engineer, skills: {netwrking: 2}}
  - {id: b, name: B, certifications: [{id: NCP-XYZ, earned: 2025-05-01}]}
""",
    "missing": """organisation: Bad
people: []
fleet: {gpus: []}
""",
    "dates": """organisation: Bad
start: 2026-01-01
fleet:
  gpus: [{month: 1, count: 64}, {month: 1, count: 8}]
people:
  - {id: b, name: B, certifications: [{id: NCP-AII, earned: 2025-05-01, expires: 2024-01-01}]}
""",
    "list": "- just\n- a list\n",
    "conflicts": """organisation: Bad
start: 2026-01-01
currency: USD
usd_rate: 2
salary_bands: {7: {low: 1, high: 2}}
fleet: {gpus: [{month: 1, count: 64}]}
people:
  - {id: a, name: A}
  - {id: a, name: B}
""",
}


def _unbracketed(text: str) -> str:
    """``text`` without its ⟦…⟧ parts (nested ones too)."""
    out, depth = [], 0
    for ch in text:
        if ch == "⟦":
            depth += 1
        elif ch == "⟧":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def _untranslated(output: str) -> list[str]:
    """Lines of a problem listing in the pseudo-locale with words outside ⟦…⟧ (after the
    place: file, line and field path)."""
    found = []
    for line in output.splitlines():
        if not line.strip():
            continue
        rest = line.strip()
        if line.startswith("  "):  # "  file:line[:column]: path: message..."
            rest = re.sub(r"^(?:[^:⟦]*:(?:\d+:){0,2} )?(?:[^:⟦]*: )?", "", rest, count=1)
        if re.search(r"[A-Za-z]{2}", _unbracketed(rest)):
            found.append(line)
    return found


def _plan(tmp_path: Path, language: str, text: str, *extra: str) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(text, "utf-8")
    result = CliRunner().invoke(app, ["--lang", language, "plan", str(path), "--runs", "0", *extra])
    assert result.exit_code == 2, result.output
    return result.output.replace(str(path), "bad.yaml")


def test_scenario_problems_in_german(tmp_path: Path) -> None:
    """`gputeam --lang de plan bad.yaml`: the headline, pydantic's messages (by error
    type, with their values), gputeam's own messages, expectations and hints in German."""
    out = _plan(tmp_path, "de", BAD_SCENARIOS["types"])
    assert "Fehler: 7 Probleme im Szenario" in out
    assert "start: Eingabe muss ein gültiges Datum oder ein gültiger Zeitpunkt sein" in out
    assert "erwartet ein Datum JJJJ-MM-TT" in out
    count = "gpus[0].count: Eingabe muss größer oder gleich 0 sein; gefunden -5; erwartet eine Zahl >= 0"
    assert count in out
    assert "fleet.interconect: unbekanntes Feld (meinten Sie 'interconnect'?)" in out
    assert "mode: Eingabe muss 'template' oder 'lean' sein" in out
    assert "die Kompetenzstufe muss 0-4 sein" in out
    assert "Input should" not in out and "unknown field" not in out and "scenario" not in out
    ids = _plan(tmp_path, "de", BAD_SCENARIOS["ids"])
    assert "people[0].role: unbekannte Rolle; gefunden 'operatons-engineer'" in ids
    assert "erwartet eine Rollen-ID aus dem Katalog (meinten Sie 'operations-engineer'?)" in ids
    one = _plan(tmp_path, "de", BAD_SCENARIOS["list"])
    assert "1 Problem im Szenario" in one and "(oberste Ebene): ein Szenario muss eine Zuordnung" in one
    assert i18n.current() == "en"


def test_scenario_problems_in_korean(tmp_path: Path) -> None:
    out = _plan(tmp_path, "ko", BAD_SCENARIOS["missing"])
    assert "오류: 시나리오 문제" in out and "필수 필드가 없습니다" in out
    assert "scenario" not in out and "required" not in out


@pytest.mark.parametrize("name", sorted(BAD_SCENARIOS))
def test_pseudo_locale_finds_no_untranslated_problem(tmp_path: Path, name: str) -> None:
    out = _plan(tmp_path, i18n.PSEUDO, BAD_SCENARIOS[name])
    assert "⟦" in out and _untranslated(out) == []


@pytest.mark.parametrize(
    "option",
    [
        ["--set", "fleet.gpuz=3"],
        ["--set", "fleet.gpus[7].count=3"],
        ["--set", "horizon_months"],
        ["--set", "horizon_months=-3"],
        ["--set", "people[nobody].role=x"],
    ],
)
def test_pseudo_locale_override_problems(option: list[str]) -> None:
    result = CliRunner().invoke(
        app, ["--lang", i18n.PSEUDO, "plan", "--example", "startup", "--runs", "0", *option]
    )
    assert result.exit_code == 2, result.output
    assert _untranslated(result.output) == []


def test_the_check_sees_english(tmp_path: Path) -> None:
    assert _untranslated(_plan(tmp_path, "en", BAD_SCENARIOS["types"]))


def test_translate_fills_a_template_with_its_values() -> None:
    with i18n.use("de"):
        assert translate("unknown field") == "unbekanntes Feld"
        at_most = translate("Input should be less than or equal to 12")
        assert at_most == "Eingabe muss kleiner oder gleich 12 sein"
        assert translate("did you mean 'x'?") == "meinten Sie 'x'?"
        assert translate("at least 1 item") == "mindestens 1 Eintrag"
        assert translate("at least 3 items") == "mindestens 3 Einträge"
        assert translate("something a library said") == "something a library said"
        assert headline("scenario", 1) == "1 Problem im Szenario"
        problem = Problem(path="", message="unknown field", expected="a list", hint="did you mean 'a'?")
        assert str(problem) == "(oberste Ebene): unbekanntes Feld; erwartet eine Liste (meinten Sie 'a'?)"
    assert translate("unknown field") == "unknown field"
    assert str(problem) == "(top level): unknown field; expected a list (did you mean 'a'?)"


BAD_ROSTER = (
    "Employee,Full name,level,E-mail,Shoe size,Role\n"
    "p1,Ada King,nine,ada@example.org,38,operations-engineer\n"
    "p1,Ada Again,2,ada@example.org,38,\n"
    "p4,Ada Twin,2,ADA@example.org,38,\n"
    "p2,,1,not-an-address,40,wizard\n"
    ",Nobody,1,,41,\n"
    "p3,Tab\tName,7,grace@example.org,42,operations-engineer\n"
)


def _import(tmp_path: Path, language: str, text: str = BAD_ROSTER, *extra: str) -> str:
    roster = tmp_path / "roster.csv"
    roster.write_text(text, "utf-8")
    db = f"sqlite:///{tmp_path / 'team.db'}"
    result = CliRunner().invoke(
        app, ["--lang", language, "import", "roster", str(roster), "--db", db, "--map", "Shoe size=-", *extra]
    )
    assert result.exit_code == 2, result.output
    return result.output.replace(str(roster), "roster.csv")


def test_roster_problems_in_the_pseudo_locale(tmp_path: Path) -> None:
    """`gputeam import roster bad.csv --lang xx`: every problem's words are translated
    (the file, row, column and values stay as they are)."""
    out = _import(tmp_path, i18n.PSEUDO)
    assert out.count("\n  ") >= 6 and _untranslated(out) == []
    unknown = _import(tmp_path, i18n.PSEUDO, "id,nmae\np1,Ada\n")
    assert "⟦unknown column⟧" in unknown and _untranslated(unknown) == []
    assert _untranslated(_import(tmp_path, "en"))


def test_roster_problems_in_german(tmp_path: Path) -> None:
    out = _import(tmp_path, "de")
    assert "Probleme im Import" in out
    assert "Employee: doppelte ID (zuerst in Zeile 2); gefunden 'p1'; erwartet jede ID nur einmal" in out
    assert "keine E-Mail-Adresse" in out and "Name fehlt bei einer neuen Person" in out
    assert "E-Mail-Adresse wird auch von Person" in out and "enthält einen Tabulator (U+0009)" in out
    assert "Role: unbekannte Rolle; gefunden 'wizard'; erwartet eine Rollen-ID aus dem Katalog" in out
    assert "duplicate" not in out and "missing" not in out and "expected" not in out


def test_catalog_show_in_german() -> None:
    """`gputeam catalog show roles --lang de`: the title, headings and the catalog's names in
    German; ids and sources as they are."""
    result = CliRunner().invoke(app, ["--lang", "de", "catalog", "show", "roles"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "Rollen (Katalog " in result.output and "Infrastruktur-Architekt" in result.output
    assert "infrastructure-architect" in result.output and "Niedrigste Stufe" in result.output
    assert "level_min" not in result.output


BAD_YAML = {
    "indent": ("organisation: x\n  start: 2026\n", 2, 8),
    "bracket": ("organisation: x\nstart: [2026\nfleet: {gpus: []}\n", 3, 6),
    "tab": ("organisation: x\npeople:\n\t- a\n", 3, 1),
    "twice": ("organisation: x\norganisation: y\n", 2, 1),
}


@pytest.mark.parametrize("name", sorted(BAD_YAML))
def test_yaml_syntax_errors_are_framed_in_the_language(tmp_path: Path, name: str) -> None:
    """A scenario that does not parse: file, line and column, 'not valid YAML', what the
    parser expected and found, and advice, in German; the parser's own English sentence
    follows in brackets, named as such, instead of being half-translated."""
    text, line, column = BAD_YAML[name]
    out = _plan(tmp_path, "de", text)
    problem = out.splitlines()[1].strip()
    assert problem.startswith(f"bad.yaml:{line}:{column}: (oberste Ebene): kein gültiges YAML")
    said = re.search(r" \[Meldung des Parsers: (.+)\]$", problem)
    assert said, problem
    german = problem[: said.start()]
    advice = {
        "indent": "rücken Sie jeden Schlüssel wie die übrigen seiner Zuordnung ein",
        "bracket": "gefunden ':'; erwartet ',' oder ']'",
        "tab": "rücken Sie mit Leerzeichen ein, nicht mit Tabulatoren",
        "twice": "jeder Schlüssel nur einmal in seiner Zuordnung",
    }[name]
    assert advice in german
    assert not re.search(r"\b(?:expected|found|but|got|not|allowed|while|the|for)\b", german), german
    assert i18n.current() == "en"


def test_yaml_syntax_errors_in_the_pseudo_locale(tmp_path: Path) -> None:
    for text, _line, _column in BAD_YAML.values():
        out = _plan(tmp_path, i18n.PSEUDO, text)
        assert _untranslated(out) == [], out


def test_scenario_conflicts_in_german(tmp_path: Path) -> None:
    """The scenario's checks across fields (a repeated person id, a USD rate other than 1, a
    salary band for no level) in German, each at its line."""
    out = _plan(tmp_path, "de", BAD_SCENARIOS["conflicts"])
    assert "Fehler: 3 Probleme im Szenario" in out
    assert "bad.yaml:9: people[1].id: Personen-ID wiederholt; IDs müssen eindeutig sein; gefunden 'a'" in out
    assert "bad.yaml:4: usd_rate: muss 1 sein (oder fehlen), wenn die Währung USD ist; gefunden 2.0" in out
    assert "bad.yaml:5: salary_bands[7]: eine Stufe von 1 bis 5; gefunden 7" in out


def test_certificate_import_problems_in_german(tmp_path: Path) -> None:
    """`gputeam import certifications` in German: an unknown person, an unknown
    certification, a missing date and a repeated certificate, each at its row and column;
    and a file without a required column."""
    db = f"sqlite:///{tmp_path / 'team.db'}"
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\np1,Ada\n", "utf-8")
    runner = CliRunner()
    assert runner.invoke(app, ["import", "roster", str(roster), "--db", db]).exit_code == 0
    certs = tmp_path / "certs.csv"
    certs.write_text(
        "person,certification,valid_from\n"
        "p9,nca-aiio,2025-01-01\n"
        "p1,no-such-cert,2025-01-01\n"
        "p1,nca-aiio,\n"
        "p1,nca-aiio,2025-01-01\n"
        "p1,nca-aiio,2025-01-01\n",
        "utf-8",
    )
    out = runner.invoke(app, ["--lang", "de", "import", "certifications", str(certs), "--db", db]).output
    out = out.replace(str(certs), "certs.csv")
    assert (
        "certs.csv:2: person: keine Person mit dieser ID; gefunden 'p9'; "
        "erwartet eine ID aus der Personalliste" in out
    )
    assert "certs.csv:3: certification: unbekannte Zertifizierung; gefunden 'no-such-cert'" in out
    assert "certs.csv:4: valid_from: Datum fehlt" in out
    assert "certs.csv:6: certification: dasselbe Zertifikat wie in Zeile 5" in out
    certs.write_text("person,certification\np1,nca-aiio\n", "utf-8")
    out = runner.invoke(app, ["--lang", "de", "import", "certifications", str(certs), "--db", db]).output
    assert (
        "valid_from: Pflichtspalte 'valid_from' fehlt (oder ordnen Sie eine mit --map 'SPALTE=valid_from' zu)"
        in out
    )
