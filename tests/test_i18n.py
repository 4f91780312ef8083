"""Languages: the catalogs' completeness, language choice and the locale formats."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from gputeam import i18n
from gputeam.i18n import LANGUAGES, catalogs
from gputeam.report.tables import format_value, money

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_message_is_translated(language: str) -> None:
    """No untranslated or fuzzy message, every plural form, the source's placeholders."""
    assert [str(p) for p in catalogs.check(language)] == []


def test_the_check_finds_what_it_should() -> None:
    from babel.messages.catalog import Catalog

    cat = Catalog(locale="de", domain="gputeam")
    cat.add("{n} people", "{n} Personen")
    cat.add("at month {month}", "im Monat {monat}")
    cat.add("Hires", "")
    cat.add("Roles", "Rollen", flags=["fuzzy"])
    cat.add(("{n} note", "{n} notes"), ("{n} Hinweis", ""))
    found = {(p.msgid, p.what.split(":")[0]) for p in catalogs.check("de", cat)}
    assert found == {
        ("at month {month}", "placeholders differ"),
        ("Hires", "untranslated"),
        ("Roles", "fuzzy"),
        ("{n} note", "needs 2 plural form(s)"),
    }


def test_the_template_is_up_to_date_with_the_code() -> None:
    """The .pot holds exactly the messages the files of babel.cfg use (run
    `python tools/i18n.py update` after changing a text)."""
    fresh = {m.id for m in catalogs.extract(ROOT) if m.id}
    stored = {m.id for m in catalogs.read(catalogs.pot_path()) if m.id}
    assert sorted(map(str, fresh - stored)) == [] and sorted(map(str, stored - fresh)) == []
    for language in LANGUAGES[1:]:
        po = {m.id for m in catalogs.read(catalogs.po_path(language), language) if m.id}
        assert po == stored, language


@pytest.mark.parametrize(
    ("language", "eur", "krw", "usd"),
    [
        ("en", "€1,234,568", "1,234,568 KRW", "$1,234,568"),
        ("de", "1.234.567,50 €", "1.234.568 ₩", "1.234.567,50 $"),
        ("nl", "€ 1.234.567,50", "₩ 1.234.568", "US$ 1.234.567,50"),
        ("es", "1.234.567,50 €", "1.234.568 KRW", "1.234.567,50 US$"),
        ("ko", "€1,234,567.50", "₩1,234,568", "US$1,234,567.50"),
    ],
)
def test_money_follows_the_language(language: str, eur: str, krw: str, usd: str) -> None:
    with i18n.use(language):
        shown = [money(1234567.5, c).replace("\xa0", " ") for c in ("EUR", "KRW", "USD")]
    assert shown == [eur, krw, usd]


@pytest.mark.parametrize(
    ("language", "day", "pct", "number", "yes"),
    [
        ("en", "2026-12-02", "12.3%", "1,234.5", "yes"),
        ("de", "2.12.2026", "12,3 %", "1.234,5", "ja"),
        ("nl", "2-12-2026", "12,3%", "1.234,5", "ja"),
        ("es", "2/12/2026", "12,3 %", "1.234,5", "sí"),
        ("ko", "2026. 12. 2.", "12.3%", "1,234.5", "예"),
    ],
)
def test_dates_numbers_and_words_follow_the_language(
    language: str, day: str, pct: str, number: str, yes: str
) -> None:
    with i18n.use(language):
        shown = [
            format_value(date(2026, 12, 2), "date"),
            format_value(0.1234, "pct"),
            format_value(1234.5, "float"),
            format_value(True, "bool"),
        ]
    assert [s.replace("\xa0", " ") for s in shown] == [day, pct, number, yes]


def test_english_is_the_default_and_unchanged() -> None:
    assert i18n.current() == "en"
    assert money(-1234567.5, "USD") == "-$1,234,568" and money(5, "SEK") == "5 SEK"
    assert i18n.gettext("Operations Engineer") == "Operations Engineer"


def test_the_language_comes_from_option_then_environment() -> None:
    env = {"GPUTEAM_LANG": "", "LANGUAGE": "fr:nl_BE:de", "LANG": "ko_KR.UTF-8"}
    assert i18n.from_environment(None, env) == "nl"
    assert i18n.from_environment("ES", env) == "es"
    assert i18n.from_environment(None, {**env, "GPUTEAM_LANG": "de_DE"}) == "de"
    assert i18n.from_environment(None, {"LANG": "ko_KR.UTF-8"}) == "ko"
    assert i18n.from_environment(None, {"LANG": "C.UTF-8"}) == "en"
    assert i18n.from_environment(None, {}) == "en"
    with pytest.raises(ValueError):
        i18n.from_environment("fr", env)


def test_the_locale_variables_in_posix_order() -> None:
    """POSIX: LC_ALL overrides LC_MESSAGES, which overrides LANG; only the first one set
    counts; GNU gettext's LANGUAGE list comes first unless the locale is C/POSIX."""
    assert i18n.from_environment(None, {"LC_ALL": "es_ES.UTF-8"}) == "es"
    assert i18n.from_environment(None, {"LC_ALL": "es_ES.UTF-8", "LANG": "de_DE.UTF-8"}) == "es"
    assert i18n.from_environment(None, {"LC_MESSAGES": "nl_NL.UTF-8", "LANG": "de_DE.UTF-8"}) == "nl"
    assert i18n.from_environment(None, {"LC_ALL": "ko_KR.UTF-8", "LC_MESSAGES": "nl_NL"}) == "ko"
    assert i18n.from_environment(None, {"LC_ALL": "C", "LANG": "de_DE.UTF-8"}) == "en"
    assert i18n.from_environment(None, {"LC_ALL": "C.UTF-8", "LANGUAGE": "de"}) == "en"
    assert i18n.from_environment(None, {"LANGUAGE": "fr:de", "LC_ALL": "es_ES.UTF-8"}) == "de"
    assert i18n.from_environment(None, {"LANGUAGE": "fr", "LC_ALL": "es_ES.UTF-8"}) == "es"
    assert i18n.from_environment(None, {"GPUTEAM_LANG": "ko", "LC_ALL": "es_ES.UTF-8"}) == "ko"


def test_accept_language_picks_the_best_supported() -> None:
    assert i18n.from_accept_language("fr-CH, fr;q=0.9, nl;q=0.8, de;q=0.7") == "nl"
    assert i18n.from_accept_language("de;q=0.5, ko-KR") == "ko"
    assert i18n.from_accept_language("fr, ja") is None
    assert i18n.from_accept_language("es;q=0, en;q=0.1") == "en"
    assert i18n.from_accept_language(None) is None


def test_plural_forms_follow_the_language() -> None:
    # the translations' own plural rules (de: one/other; ko: a single form)
    cat = catalogs.read(catalogs.po_path("ko"), "ko")
    assert cat.num_plurals == 1
    assert catalogs.read(catalogs.po_path("de"), "de").num_plurals == 2


def test_the_pseudo_locale_marks_every_message() -> None:
    with i18n.use(i18n.PSEUDO):
        assert i18n.gettext("Roles") == "⟦Roles⟧"
        assert i18n.ngettext("{n} note", "{n} notes", 2) == "⟦{n} notes⟧"
        assert money(1234.4, "USD") == "$1,234"  # figures stay English


def test_the_catalogs_are_package_data() -> None:
    """The wheel carries the .po files (gputeam compiles them on first use)."""
    import fnmatch
    import tomllib

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"][
        "package-data"
    ]["gputeam"]
    for language in LANGUAGES[1:]:
        relative = catalogs.po_path(language).relative_to(ROOT / "src" / "gputeam").as_posix()
        assert any(fnmatch.fnmatch(relative, p) for p in patterns), relative


def test_cli_rejects_an_unknown_language() -> None:
    from typer.testing import CliRunner

    from gputeam.cli.main import app

    result = CliRunner().invoke(app, ["plan", "--example", "startup", "--runs", "0", "--lang", "fr"])
    assert result.exit_code == 2
    assert "--lang: unknown language; found 'fr'; expected en, de, nl, es, ko" in result.output
    assert i18n.current() == "en"


CLI_EXPECTED = {
    "de": ("Zielteam im Monat 18", "Kosten (EUR)", r"\d{1,3}(?:\.\d{3})+,\d\d\xa0€"),
    "nl": ("Doelteam in maand 18", "Kosten (EUR)", r"€\xa0\d{1,3}(?:\.\d{3})+,\d\d"),
    "es": ("Equipo objetivo en el mes 18", "Costos (EUR)", r"\d{1,3}(?:\.\d{3})+,\d\d\xa0€"),
    "ko": ("18개월 차 목표 팀", "비용(KRW)", r"₩\d{1,3}(?:,\d{3})+"),
}


@pytest.mark.parametrize("language", sorted(CLI_EXPECTED))
def test_cli_plan_in_each_language(language: str) -> None:
    """`gputeam plan --lang X`: the terminal summary's titles and money in that language."""
    from typer.testing import CliRunner

    from gputeam.cli.main import app

    currency, rate = ("KRW", "1400") if language == "ko" else ("EUR", "0.9")
    result = CliRunner().invoke(
        app,
        [
            "plan",
            "--example",
            "startup",
            "--runs",
            "0",
            "--today",
            "2026-12-02",
            "--set",
            f"currency={currency}",
            "--set",
            f"usd_rate={rate}",
            "--lang",
            language,
        ],
    )
    assert result.exit_code == 0, result.output
    target, costs, money_shape = CLI_EXPECTED[language]
    assert target in result.output and costs in result.output
    assert re.search(money_shape, result.output)
    assert i18n.current() == "en"  # the command's language does not leak


def test_cli_language_from_the_environment() -> None:
    from typer.testing import CliRunner

    from gputeam.cli.main import app

    result = CliRunner().invoke(
        app,
        ["plan", "--example", "startup", "--runs", "0", "--today", "2026-12-02"],
        env={"GPUTEAM_LANG": "nl"},
    )
    assert result.exit_code == 0 and "Doelteam in maand 18" in result.output


def test_cli_errors_and_help_in_the_language() -> None:
    """`plan`'s input errors and its --help (read at start-up, from --lang or the
    environment) in the chosen language."""
    import os
    import subprocess
    import sys

    from typer.testing import CliRunner

    from gputeam.cli.main import app

    result = CliRunner().invoke(app, ["plan", "--example", "startup", "--format", "xlsx", "--lang", "ko"])
    assert result.exit_code == 2
    assert "--out: xlsx 출력에는 파일이 필요합니다; 예상 값 --out plan.xlsx" in result.output
    env = {**os.environ, "GPUTEAM_LANG": "de", "COLUMNS": "200"}
    CLI = [sys.executable, "-c", "from gputeam.cli.main import main; main()"]
    proc = subprocess.run([*CLI, "plan", "--help"], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Das Team planen: Ziel, Lücken" in proc.stdout and "Den Bericht hierhin schreiben" in proc.stdout
    proc = subprocess.run(
        [*CLI, "plan", "--help", "--lang", "es"], capture_output=True, text=True, env=env, timeout=60
    )
    assert "Planificar el equipo" in proc.stdout


# ---------------------------------------------------------------- every command, and Click's words
_HELP_SCRIPT = r"""
import json, sys
from typer.main import get_command
from typer.testing import CliRunner
from gputeam.cli.main import app

def walk(group, path):
    for name, cmd in sorted(getattr(group, "commands", {}).items()):
        yield [*path, name]
        yield from walk(cmd, [*path, name])

root = get_command(app)
runner = CliRunner()
out = {}
for path in [[], *walk(root, [])]:
    result = runner.invoke(app, ["--lang", sys.argv[1], *path, "--help"], terminal_width=1000)
    out[" ".join(path)] = (result.exit_code, result.output)
print(json.dumps(out))
"""


def _helps(language: str) -> dict[str, tuple[int, str]]:
    """Every command's --help (the root's, each group's and each command's) in ``language``,
    rendered in a fresh process (help texts are read when the commands are defined)."""
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "COLUMNS": "1000", "TERMINAL_WIDTH": "1000", "GPUTEAM_LANG": ""}
    proc = subprocess.run(
        [sys.executable, "-c", _HELP_SCRIPT, language, "--lang", language],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return {k: (v[0], v[1]) for k, v in json.loads(proc.stdout).items()}


def _untranslated_help(text: str, names: set[str]) -> list[str]:
    """Words of a --help page in the pseudo-locale outside ⟦…⟧: none but option names,
    metavars, command and argument names."""
    found = []
    for line in text.splitlines():
        rest = re.sub(r"⟦.*?⟧", " ", line)
        rest = re.sub(r"<[^<>]*>|\[[-\d.<=>x]*x[-\d.<=>x]*\]", " ", rest)  # types, ranges
        rest = re.sub(r"[│╭╮╰╯─]", " ", rest)
        for token in rest.split():
            token = token.strip(".,;:()[]'\"")
            if not token or not re.search(r"[a-z]", token) or token.startswith("-"):
                continue
            if re.fullmatch(r"<[\w ]+>|\{\w+\}\.*|[A-Z_\[\]. ]+", token) or token in names:
                continue
            if re.fullmatch(r"[a-z0-9-]+(\|[a-z0-9-]+)+", token):  # a metavar's choices (codes)
                continue
            found.append(f"{token!r} in {line.strip()!r}")
    return found


def test_pseudo_locale_finds_no_untranslated_text_in_any_help() -> None:
    helps = _helps(i18n.PSEUDO)
    assert len(helps) >= 30  # the root, its groups and every command
    names = {"gputeam", *(part for path in helps for part in path.split())}
    names |= {"file", "files", "section", "name", "username", "uuid", "code", "attempt", "item"}
    names |= {"mark", "key", "person", "certification", "programme", "str", "int", "float", "path", "bool"}
    names |= {"shell"}
    problems = {path or "gputeam": _untranslated_help(out, names) for path, (code, out) in helps.items()}
    assert {k: v for k, v in problems.items() if v} == {}
    assert all(code == 0 for code, _out in helps.values())
    # the check sees untranslated words: the English page has them
    english = _helps("en")
    assert _untranslated_help(english["plan"][1], names)


def test_click_words_in_the_language() -> None:
    """Typer's and Click's own words (usage, panels, parsing errors) and a global --lang."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "COLUMNS": "200", "TERMINAL_WIDTH": "200", "GPUTEAM_LANG": ""}
    cli = [sys.executable, "-c", "from gputeam.cli.main import main; main()"]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*cli, *args], capture_output=True, text=True, env=env, timeout=120)

    bad = run("--lang", "de", "plan", "--bogus")
    assert bad.returncode == 2
    assert "Aufruf: gputeam plan" in bad.stderr and "Fehler" in bad.stderr
    assert "Keine solche Option: --bogus (mögliche Optionen:" in bad.stderr
    missing = run("--lang", "es", "compare")
    assert "Falta el argumento 'files'." in missing.stderr and "Uso: gputeam compare" in missing.stderr
    number = run("--lang", "nl", "plan", "--example", "startup", "--runs", "abc")
    assert "Ongeldige waarde voor '--runs': Invoer moet een geldig geheel getal zijn" in number.stderr
    helped = run("--lang", "ko", "--help")
    assert "사용법: gputeam" in helped.stdout and "옵션" in helped.stdout
    assert "이 도움말을 표시하고 종료." in helped.stdout
    plan = run("--lang", "de", "plan", "--example", "finance", "--runs", "0", "--today", "2026-12-02")
    assert plan.returncode == 0, plan.stderr
    assert "Zielteam im Monat" in plan.stdout and "Warnungen" in plan.stdout
    assert "externe Fachkräfte" in plan.stdout or "weiterbilden" in plan.stdout
    scenario = run("--lang", "de", "plan", "--example", "finance", "--set", "horizon_months=-3")
    assert scenario.returncode == 2 and "Problem" in scenario.stderr and "horizon_months" in scenario.stderr
    assert i18n.current() == "en"


def test_click_messages_are_translated_by_their_template() -> None:
    from gputeam.cli.click_words import translate

    with i18n.use("de"):
        assert translate("Missing argument 'files'.") == "Fehlendes Argument 'files'."
        assert (
            translate("Invalid value for '--runs': Input should be greater than or equal to 0")
            == "Ungültiger Wert für '--runs': Eingabe muss größer oder gleich 0 sein"
        )
        assert translate("something else entirely") == "something else entirely"
    assert translate("Missing argument 'files'.") == "Missing argument 'files'."


def test_compare_in_the_language(tmp_path: Path) -> None:
    """`gputeam compare --lang de`: the table's labels, the difference sentences and German
    numbers; the JSON's differences stay English; no label untranslated in the pseudo-locale."""
    import json

    from typer.testing import CliRunner

    from gputeam.cli.main import app
    from gputeam.scenario import example_text

    files = []
    for name in ("startup", "midsize"):
        path = tmp_path / f"{name}.yaml"
        path.write_text(example_text(name), "utf-8")
        files.append(str(path))
    common = [*files, "--runs", "0", "--today", "2026-12-02", "--method", "rule"]
    runner = CliRunner()
    de = runner.invoke(app, ["--lang", "de", "compare", *common], terminal_width=200)
    assert de.exit_code == 0, de.output
    assert "Pläne nebeneinander" in de.output and "Weitergebildete Personen" in de.output
    assert "midsize gegenüber startup: sieht zum Stichtag" in de.output
    assert re.search(r"\d{1,3}(?:\.\d{3})+,\d\d\xa0\$", de.output)
    data = json.loads(runner.invoke(app, ["--lang", "de", "compare", *common, "--format", "json"]).output)
    assert data["differences"][0].startswith("midsize against startup: targets")
    md = runner.invoke(app, ["--lang", i18n.PSEUDO, "compare", *common, "--format", "md"]).output
    rows = [line.split("|")[1].strip() for line in md.splitlines() if line.startswith("| ")]
    assert rows and [r for r in rows if not r.startswith("⟦")] == []
    notes = [line for line in md.splitlines() if line.startswith("- ")]
    assert notes and all(n.startswith("- ⟦") for n in notes)
    assert i18n.current() == "en"


_KEYWORDS = set(catalogs.KEYWORDS)


def _calls_gettext(path: Path) -> bool:
    """Whether a source file calls one of the extraction keywords (``_(``, ``gettext(``,
    ``ngettext(``, ``N_(``, ``Nn_(``, also as ``i18n.gettext(``); docstrings do not count."""
    import ast

    if path.suffix == ".py":
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name in _KEYWORDS:
                    return True
        return False
    return re.search(r"(?<![\w.])(?:_|gettext|ngettext)\(", path.read_text("utf-8")) is not None


def test_every_file_that_translates_is_extracted() -> None:
    """A file calling _(), gettext(), ngettext(), N_() or Nn_() is listed in babel.cfg, or
    its messages never reach the .pot (and its texts stay English in every language)."""
    from babel.messages.frontend import parse_mapping_cfg
    from babel.util import pathmatch

    with (ROOT / "babel.cfg").open(encoding="utf-8") as f:
        patterns = [pattern for pattern, _method in parse_mapping_cfg(f)[0]]
    sources = [
        p for p in sorted((ROOT / "src").rglob("*")) if p.suffix in (".py", ".html", ".j2") and p.is_file()
    ]
    unlisted = [
        rel
        for p in sources
        if _calls_gettext(p)
        and not any(pathmatch(pattern, rel := p.relative_to(ROOT).as_posix()) for pattern in patterns)
    ]
    assert len(sources) > 100 and unlisted == []


def test_plurals_are_plural_forms_not_parentheses() -> None:
    """A count's noun is a singular/plural pair (ngettext / Nn_), never "problem(s)": a
    language's plural rules choose the form (de "1 Problem", "2 Probleme"; ko one form)."""
    # Click's own English, matched verbatim to translate it (gputeam.cli.click_words)
    click = {"Got unexpected extra argument(s) ({arguments})"}
    ids = [m.id for m in catalogs.read(catalogs.pot_path()) if isinstance(m.id, str)]
    assert [i for i in ids if re.search(r"[^\W\d_]\((?:s|es)\)", i) and i not in click] == []
    with i18n.use("de"):
        assert i18n.ngettext("{n} problem in the import", "{n} problems in the import", 1) == (
            "{n} Problem im Import"
        )
        assert i18n.ngettext("{n} problem in the import", "{n} problems in the import", 3) == (
            "{n} Probleme im Import"
        )


#: The calls whose arguments are sentences a user reads: the position of the message among
#: the positional arguments (``message=`` and ``hint=`` keywords too, wherever they are).
_MESSAGE_AT = {
    "refused": 1,  # gputeam.store.errors.refused(path, message, found, expected)
    "Problem": 1,
    "ResponseError": 0,
    "BlueprintError": 0,
    "_too_late": 0,
    "_bad": 1,
    "_fail": 1,
    "BadCell": 0,  # gputeam.store.tables.BadCell(reason, expected): an import's cell
    # the credential verifier (gputeam.credentials): a check's message, why a proof, a
    # status list, a multikey or a did:web is refused; the web's unreadable upload
    "Check": 2,
    "ProofError": 0,
    "StatusListError": 0,
    "MultibaseError": 0,
    "DidWebError": 0,
    "Unreadable": 0,
    "BakingError": 0,  # why a badge image holds no readable credential
    "SealError": 0,  # why the organisation's issuing key does not open
}
#: The same for methods of these objects: an import's ``problems.add(line, column, value,
#: reason, expected, hint)``.
_METHOD_MESSAGE_AT = {("problems", "add"): 3}


def _unmarked_messages(source: str) -> list[tuple[int, str]]:
    """(line, text) of each message argument of :data:`_MESSAGE_AT`'s calls written as an
    English literal (a string, an f-string, or a literal's ``.format(...)``) instead of
    ``N_(...)`` / ``_(...)``: such a text never reaches the catalogs, so it stays English."""
    import ast

    def literal(node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.JoinedStr):
            return "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            return literal(node.func.value)
        if isinstance(node, ast.BinOp):
            return literal(node.left) or literal(node.right)
        return None

    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        owner = getattr(getattr(func, "value", None), "id", None)
        if name == "append" and owner in ("conflicts", "problems", "failures") and node.args:
            # a model validator's (path, message, found) for FieldConflicts, or a message
            # itself (the credential verifier's structure problems and proof failures)
            item = node.args[0]
            if isinstance(item, ast.Tuple) and len(item.elts) == 3:
                item = item.elts[1]
            text = literal(item)
            if text is not None and re.search(r"[^\W\d_]{3}", text):
                found.append((node.lineno, text))
            continue
        if (owner, name) in _METHOD_MESSAGE_AT:
            at = _METHOD_MESSAGE_AT[(owner, name)]
        elif name in _MESSAGE_AT:
            at = _MESSAGE_AT[name]
        else:
            continue
        args = node.args[at : at + 1]
        args += [k.value for k in node.keywords if k.arg in ("message", "hint")]
        for arg in args:
            text = literal(arg)
            if text is not None and re.search(r"[^\W\d_]{3}", text):
                found.append((node.lineno, text))
    return found


def test_messages_users_read_are_marked_at_source() -> None:
    """Every refusal and problem message in the code (the store's exam, credential and
    account rules, certify's, the catalog's checks, the web's and the CLI's) is marked for
    translation where it is written. The migrations are left out: they speak to the
    operator upgrading, in English, and are not changed once released."""
    unmarked = {
        rel: found
        for path in sorted((ROOT / "src" / "gputeam").rglob("*.py"))
        if "migrations" not in path.parts
        and (found := _unmarked_messages(path.read_text("utf-8")))
        and (rel := path.relative_to(ROOT).as_posix())
    }
    assert unmarked == {}
    # the check sees an unmarked message
    assert _unmarked_messages('raise refused("a", f"no further attempt: {why}")') == [
        (1, "no further attempt: ")
    ]
    assert _unmarked_messages('refused("a", N_("no further attempt: {r}").format(r=why))') == []
    assert _unmarked_messages('conflicts.append((("id",), "person id repeated", "x"))') == [
        (1, "person id repeated")
    ]
    assert _unmarked_messages('problems.append(f"the credential has no {what}")') == [
        (1, "the credential has no ")
    ]
    assert _unmarked_messages('raise ProofError(f"proofValue: {exc}")') == [(1, "proofValue: ")]
    assert _unmarked_messages('return Check("status", False, "revoked by the issuer")') == [
        (1, "revoked by the issuer")
    ]


_ERRORS_SCRIPT = r"""
import json, sys
sys.argv = ["gputeam", "--lang", sys.argv[1]]  # the language is read at start-up
from typer.testing import CliRunner
from gputeam.cli.main import app

out = {}
for args in json.loads(sys.stdin.read()):
    result = CliRunner().invoke(app, ["--lang", sys.argv[2], *args], terminal_width=200)
    out[" ".join(args)] = (result.exit_code, result.output)
print(json.dumps(out))
"""

#: Command lines that fail: Click's parsing errors (an extra argument, an unknown option or
#: command, a missing argument or option value, a bad number) and gputeam's own input
#: problems (a missing file, neither file nor example, a format without --out, an unknown
#: catalog section, an override out of range, YAML that does not parse).
CLI_ERRORS = (
    ("plan", "nope.yaml", "extra"),
    ("plan", "--bogus"),
    ("compare",),
    ("plan", "--runs", "abc", "--example", "startup"),
    ("nosuch",),
    ("plan", "--format"),
    ("plan", "nope.yaml"),
    ("plan",),
    ("plan", "--example", "startup", "--format", "xlsx"),
    ("catalog", "show", "nope"),
    ("plan", "--example", "startup", "--set", "horizon_months=-3"),
    ("plan", "{bad}"),
)


def _cli_errors(language: str, bad_yaml: Path) -> dict[str, tuple[int, str]]:
    import json
    import os
    import subprocess
    import sys

    lines = [[a.replace("{bad}", str(bad_yaml)) for a in args] for args in CLI_ERRORS]
    env = {**os.environ, "COLUMNS": "200", "TERMINAL_WIDTH": "200", "GPUTEAM_LANG": ""}
    proc = subprocess.run(
        [sys.executable, "-c", _ERRORS_SCRIPT, language, language],
        input=json.dumps(lines),
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return {k: (v[0], v[1].replace(str(bad_yaml), "bad.yaml")) for k, v in json.loads(proc.stdout).items()}


def outside_brackets(text: str) -> str:
    """``text`` without the pseudo-locale's translated pieces (⟦…⟧, nested too)."""
    out, depth = [], 0
    for ch in text:
        depth += ch == "⟦"
        if depth == 0:
            out.append(ch)
        depth -= ch == "⟧"
    return "".join(out)


def _untranslated_error(output: str, values: set[str]) -> list[str]:
    """Words of an error in the pseudo-locale outside ⟦…⟧: none but the command path,
    option names, metavars, the values typed and the parser's own words (``[in the parser's
    words: …]``, marked)."""
    found = []
    for line in output.splitlines():
        rest = outside_brackets(line)
        for token in re.split(r"[\s│╭╮╰╯─:;,()\[\]{}'\"]+", rest):
            if not re.search(r"[a-z]{2}", token) or token.startswith("-") or token in values:
                continue
            found.append(f"{token!r} in {line.strip()!r}")
    return found


def test_pseudo_locale_finds_no_untranslated_text_in_cli_errors(tmp_path: Path) -> None:
    """Every error path of the CLI in the pseudo-locale: Click's words (usage, the error
    panel, its messages) and gputeam's problems are all translated; what is left is the
    command, the options and the values as the user typed them."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("organisation: x\n  start: 2026\n", "utf-8")
    outputs = _cli_errors(i18n.PSEUDO, bad)
    values = {"gputeam", "plan", "compare", "catalog", "show", "file", "files", "nope", "nope.yaml"}
    values |= {"extra", "abc", "nosuch", "bad.yaml", "startup", "horizon_months", "finance"}
    values |= {"healthcare", "midsize", "xlsx", "plan.xlsx", "levels", "domains", "courses", "paths"}
    values |= {"certs", "roles", "templates", "strategies", "economics", "transitions", "case-studies"}
    values |= {"contradictions", "vendors", "specialisations", "roi-example", "x", "COMMAND", "ARGS"}
    values |= {"section", "FILE", "horizon_months=-3"}  # the problems' field paths
    found = {cmd: _untranslated_error(out, values) for cmd, (_code, out) in outputs.items()}
    assert {cmd: words for cmd, words in found.items() if words} == {}
    assert all(code == 2 for code, _out in outputs.values()), outputs
    assert "⟦Got unexpected extra argument(s) (extra)⟧" in outputs["plan nope.yaml extra"][1]
    # the check sees English
    english = _cli_errors("en", bad)
    assert all(_untranslated_error(out, values) for _code, out in english.values())


def test_click_errors_in_german(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("organisation: x\n  start: 2026\n", "utf-8")
    out = {cmd: text for cmd, (_code, text) in _cli_errors("de", bad).items()}
    assert "Aufruf: gputeam plan [OPTIONS] [file]" in out["plan nope.yaml extra"]
    assert "Unerwartete zusätzliche Argumente (extra)" in out["plan nope.yaml extra"]
    assert "Option '--format' braucht ein Argument." in out["plan --format"]
    assert "erwartet eines von finance, healthcare, startup, midsize für --example" in out["plan"]
