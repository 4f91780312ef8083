"""The PDF report in each language, as a user makes it: ``gputeam plan --example startup
--lang ko --format pdf --out plan.pdf``, rendered once per language for this module (each
costs seconds: Chromium prints it twice).

What a reader of each language gets: the headings, the running title and the table of
contents in the catalog's translation (taken from gputeam.i18n, not written here), money
and dates as the product formats them in that language (the figure from the same plan's
JSON), and every character drawn by an embedded font (Hangul included): a glyph printed as
an empty box still extracts as text, so the embedded font programs are read, not only
pdftotext's output.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from tests.pdf_tools import embedded_fonts, need_pdf_tools, tool

from gputeam import i18n
from gputeam.i18n import formats

from .conftest import TODAY
from .test_languages import CURRENCIES, MONEY

EXAMPLE = "startup"
Printed = tuple[str, Path, Any]
"""(language, the PDF, the same plan as JSON)"""
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def flat(text: str) -> str:
    """``text`` with every run of white space (line breaks, no-break spaces) as one space."""
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module", params=sorted(CURRENCIES))
def printed(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, Path, Any]:
    """(language, the PDF, the same plan as JSON), in the language's currency."""
    from tests.test_cli import invoke, run

    need_pdf_tools()
    language = request.param
    currency, rate = CURRENCIES[language]
    args = ["plan", "--example", EXAMPLE, "--today", TODAY.isoformat(), "--runs", "0"]
    args += ["--set", f"currency={currency}", "--set", f"usd_rate={rate}"]
    path = tmp_path_factory.mktemp(f"pdf-{language}") / "plan.pdf"
    r = run(*args, "--lang", language, "--format", "pdf", "--out", str(path))
    assert r.returncode == 0, r.stderr
    result = invoke(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return language, path, json.loads(result.stdout)


def test_every_character_drawn_by_an_embedded_font(printed: Printed) -> None:
    language, path, _ = printed
    rows = tool("pdffonts", path).splitlines()[2:]
    assert rows, "the PDF lists no fonts"
    assert [row for row in rows if row.split()[-5] != "yes"] == [], "fonts not embedded"
    fonts = embedded_fonts(path)
    assert set(fonts) == {row.split()[0] for row in rows}
    drawn = set().union(*fonts.values())
    text = tool("pdftotext", path, "-")
    undrawn = sorted({c for c in text if not c.isspace() and c not in drawn})
    assert undrawn == [], f"characters no embedded font draws: {undrawn}"
    assert bool(HANGUL.search(text)) == (language == "ko")


def test_headings_money_and_dates_in_the_language(printed: Printed) -> None:
    language, path, data = printed
    costs = data["costs"]
    with i18n.use(language):
        _ = i18n.gettext
        title = _("Team plan: {organisation}").format(organisation=data["scenario"]["organisation"])
        headings = [
            _("Contents"),
            _("Summary"),
            _("Target team"),
            _("Costs ({currency})").format(currency=costs["currency"]),
            _("Return on investment"),
            _("Risk"),
            _("First-year cost"),
            _("Annual run rate"),
        ]
        first_year = formats.money(costs["first_year"], costs["currency"])
        run_rate = formats.money(costs["annual_run_rate"], costs["currency"])
        today = formats.date_text(TODAY)
    assert not title.startswith("Team plan") and "Summary" not in headings, "no translation"
    pages = int(dict(line.split(":", 1) for line in tool("pdfinfo", path).splitlines())["Pages"])
    texts = tool("pdftotext", "-layout", path, "-").split("\f")[:-1]
    assert len(texts) == pages > 1
    for n, page in enumerate(texts, start=1):  # the running title and page number of each page
        assert flat(page.rstrip().splitlines()[-1]) == flat(f"{title} {n} / {pages}"), n
    text = flat(tool("pdftotext", path, "-"))
    assert flat(title) in text
    assert [h for h in headings if flat(h) not in text] == []
    assert flat(first_year) in text and flat(run_rate) in text
    assert re.fullmatch(MONEY[language], first_year), first_year  # not the English "$1,234"
    assert today in text  # "computed for" in the language's date format


def test_every_page_prints_at_full_size(printed: Printed) -> None:
    """Rule: the PDF prints at 100 % in every language. Tables wrap (headings between
    words, a cell too wide inside a word) instead of Chromium shrinking the whole document
    to fit the widest one, so no page's text is smaller than the tables' 8.5 pt."""
    from tests.pdf_tools import median_text_heights

    _language, path, _data = printed
    heights = median_text_heights(path)
    assert heights and all(h is None or h >= 8.45 for h in heights), heights


def test_language_tags_outline_and_creator(printed: Printed) -> None:
    """The PDF says its language (/Lang), is tagged (a structure tree), opens on its
    bookmarks, and names gputeam as its creator, not the browser."""
    from pypdf import PdfReader

    from gputeam import __version__

    language, path, _data = printed
    reader = PdfReader(path)
    root = reader.trailer["/Root"]
    assert root["/Lang"] == language
    assert "/StructTreeRoot" in root and root["/MarkInfo"]["/Marked"]
    assert root["/PageMode"] == "/UseOutlines" and len(reader.outline) >= 5
    assert reader.metadata is not None and reader.metadata["/Creator"] == f"gputeam {__version__}"
