"""Stored codes in words (gputeam.i18n.codes.label) and durations in the locale's form, in
every report format and on the web."""

from __future__ import annotations

import os
import re

import pytest
from typer.testing import CliRunner

from gputeam import i18n
from gputeam.cli.main import app
from gputeam.i18n import codes, formats
from gputeam.web import fmt

#: codes a report shows: cost categories, a roadmap kind, a training strategy, a sizing mode
#: and basis, a solver status, role ids and the ROI's counterfactuals
CODES = (
    "salaries",
    "hiring",
    "retention",
    "training",
    "exams",
    "contractors",
    "mentoring",
    "course",
    "vendor",
    "lean",
    "none",
    "optimal",
    "operations-engineer",
    "network-specialist",
    "storage-specialist",
    "outsourced",
    "hire-only",
    "managed-service",
)
_CODE = re.compile(r"(?<![\w-])(" + "|".join(re.escape(c) for c in CODES) + r")(?![\w-])")


def _outside_markers(text: str) -> str:
    """``text`` without the pseudo-locale's translated ``⟦...⟧`` (nested ones too)."""
    while True:
        stripped = re.sub(r"⟦[^⟦⟧]*⟧", "", text)
        if stripped == text:
            return text
        text = stripped


def _finance(*options: str) -> str:
    env = {**os.environ, "COLUMNS": "400", "TERMINAL_WIDTH": "400", "GPUTEAM_LANG": ""}
    result = CliRunner(env=env).invoke(
        app,
        ["--lang", i18n.PSEUDO, "plan", "--example", "finance", "--runs", "0", *options],
        terminal_width=400,
    )
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("options", [(), ("--format", "md")], ids=["terminal", "markdown"])
def test_reports_show_no_code_outside_translated_words(options: tuple[str, ...]) -> None:
    output = _finance(*options)
    assert "⟦salaries⟧" in output and "⟦Operations Engineer⟧" in output
    lines = [line for line in output.splitlines() if "⟦Source⟧" not in line]  # sources quote English
    left = _outside_markers("\n".join(lines))  # a long sentence may wrap over lines
    assert [line.strip()[:120] for line in left.splitlines() if _CODE.search(line)] == []


def test_one_label_for_reports_and_the_web() -> None:
    with i18n.use("ko"):
        assert codes.label("salaries") == fmt.word("salaries") == "급여"
        assert codes.label("operations-engineer") == "운영 엔지니어"  # the role's translated name
        assert codes.label("vendor") == "공급업체 파트너십"  # the strategy's
        assert codes.label("hire-only") == "채용만"
        assert codes.label("someone's-own-code") == "someone's-own-code"
    assert fmt.WORDS is codes.WORDS


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "0.07 s"),
        ("xx", "0.07 s"),
        ("de", "0,07 Sek."),
        ("nl", "0,07 sec"),
        ("es", "0,07 s"),
        ("ko", "0.07초"),
    ],
)
def test_durations_in_the_locale_form(language: str, expected: str) -> None:
    with i18n.use(language):
        assert formats.duration(0.07) == expected


def test_the_terminal_writes_the_solve_time_the_locale_way() -> None:
    env = {**os.environ, "COLUMNS": "400", "GPUTEAM_LANG": ""}
    result = CliRunner(env=env).invoke(app, ["--lang", "de", "plan", "--example", "finance", "--runs", "0"])
    assert result.exit_code == 0, result.output
    assert re.search(r", \d+,\d\d Sek\.\)", result.output), result.output[:400]
    assert not re.search(r"\d\.\d\d s\)", result.output)


def test_html_charts_name_roles_and_categories_in_words() -> None:
    page = _finance("--format", "html")
    for code in ("operations-engineer", "salaries", "contractors"):
        assert f'"{code}"' not in page, code
    assert '"name":"\\u27e6Operations Engineer\\u27e7"' in page
    assert '"\\u27e6salaries\\u27e7"' in page  # the cost chart's categories
