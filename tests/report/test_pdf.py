"""PDF report: printed by the system Chromium, checked with poppler-utils (pdfinfo, pdffonts,
pdftotext) and fontTools. One PDF is rendered here (each costs seconds); the web download
test renders the Letter one.

The fonts are tested, not only the text: a PDF whose Hangul shows as empty boxes still
extracts as text, so every font must be embedded, every one must be the bundled Noto Sans KR
(this machine has no other font with Hangul: a fallback would show up in pdffonts), and the
embedded fonts must draw every character pdftotext returns (tests.pdf_tools.embedded_fonts
reads the font programs in the PDF).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tests.pdf_tools import embedded_fonts, need_pdf_tools, tool

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.result import Plan
from gputeam.report import pdf
from gputeam.report.charts import charts
from gputeam.scenario import example_text
from gputeam.scenario.load import load_with_catalog

from .conftest import TODAY, renamed

KOREAN_ORG = "김민준 금융"
KOREAN_PERSON = "김민준"


def page_texts(path: Path, pages: int) -> list[str]:
    texts = tool("pdftotext", "-layout", path, "-").split("\f")  # pages end with a form feed
    assert len(texts) == pages + 1 and not texts[-1].strip()
    return texts[:-1]


def info(path: Path) -> dict[str, str]:
    return dict(line.split(":", 1) for line in tool("pdfinfo", path).splitlines() if ":" in line)


@pytest.fixture(scope="module")
def a4(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Plan]:
    """A long (72-month) finance plan for a Korean organisation, one person renamed in
    Hangul, printed on A4."""
    need_pdf_tools()
    scenario, catalog = load_with_catalog(example_text("finance"), "<finance>", sets=["horizon_months=72"])
    p = plan(scenario, catalog or load_catalog(), TODAY, runs=100)
    p = renamed(p, KOREAN_ORG, lambda i, name: KOREAN_PERSON if i == 0 else name)
    path = tmp_path_factory.mktemp("pdf") / "plan.pdf"
    path.write_bytes(pdf.render(p, "a4"))
    return path, p


def test_a4_fonts_embedded_and_cover_every_character(a4: tuple[Path, Plan]) -> None:
    path, _ = a4
    rows = tool("pdffonts", path).splitlines()[2:]
    assert rows, "the PDF lists no fonts"
    for row in rows:
        name, emb = row.split()[0], row.split()[-5]
        assert emb == "yes", f"font not embedded: {row}"
        assert "NotoSansKR" in name, f"text fell back to a font other than the bundled one: {row}"
    text = tool("pdftotext", path, "-")
    assert KOREAN_ORG in text and KOREAN_PERSON in text
    drawn = set().union(*embedded_fonts(path).values())
    uncovered = sorted({c for c in text if not c.isspace() and c not in drawn})
    assert not uncovered, f"characters without a glyph in the embedded font: {uncovered}"


def test_a4_charts_drawn_in_the_pdf(a4: tuple[Path, Plan]) -> None:
    """Each chart's title exists only in its Plotly figure (the JSON Plotly draws from), so
    finding it in the PDF's text means the chart was drawn before printing."""
    path, p = a4
    text = re.sub(r"\s+", " ", tool("pdftotext", path, "-"))
    titles = [json.loads(c.spec_json())["layout"]["title"]["text"] for cs in charts(p).values() for c in cs]
    assert len(titles) >= 6
    assert [t for t in titles if t not in text] == []


def test_a4_pages_numbered_with_a_table_of_contents(a4: tuple[Path, Plan]) -> None:
    path, _ = a4
    meta = info(path)
    assert meta["Page size"].split("pts")[0].split() == ["594.96", "x", "841.92"]
    pages = int(meta["Pages"])
    assert pages > 1
    texts = page_texts(path, pages)
    for n, text in enumerate(texts, start=1):
        last = text.rstrip().splitlines()[-1]  # the page-margin boxes: running title, n / total
        assert re.fullmatch(rf"\s*Team plan: {KOREAN_ORG}\s+{n} / {pages}", last), (n, last)
    toc = texts[0][texts[0].index("Contents") :]
    entries = re.findall(r"^\s*(\S.*?)\s{2,}(\d+)\s*$", toc, re.M)
    titles = dict(entries)
    for title in ("Summary", "Costs (USD)", "Return on investment", "Risk"):
        assert title in titles, f"{title!r} missing from the table of contents: {entries}"
    for title, number in entries:
        page = texts[int(number) - 1]
        first = next(line for line in page.splitlines() if line.strip())
        assert first.strip() == title, f"the contents say {title!r} is on page {number}"
    from pypdf import PdfReader

    reader = PdfReader(path)  # the bookmarks: the same entries, to the same pages
    bookmarks = [(b.title, str(reader.get_destination_page_number(b) + 1)) for b in reader.outline]
    assert bookmarks == entries


def test_long_tables_repeat_their_header_on_every_page(a4: tuple[Path, Plan]) -> None:
    path, p = a4
    pages = int(info(path)["Pages"])
    header = re.compile(r"^\s*Month\s+Date\s+Cost\s*$", re.M)  # costs by month: 72 rows
    on = [n for n, text in enumerate(page_texts(path, pages), start=1) if header.search(text)]
    assert len(on) >= 2, f"the 72-month cost table's header is on pages {on} only"
    assert on == list(range(on[0], on[0] + len(on)))


def test_missing_chromium_names_the_package_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.test_cli import run

    monkeypatch.setenv(pdf.CHROMIUM_ENV, str(tmp_path / "no-chromium"))
    r = run("plan", "--example", "startup", "--out", str(tmp_path / "plan.pdf"))
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert "Debian package chromium" in r.stderr and "apt-get install chromium" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_pdf_needs_a_file_and_a_known_paper(tmp_path: Path) -> None:
    from tests.test_cli import run

    r = run("plan", "--example", "startup", "--format", "pdf")
    assert r.returncode == 2 and "--out plan.pdf" in r.stderr
    r = run("plan", "--example", "startup", "--out", str(tmp_path / "p.pdf"), "--paper", "a3")
    assert r.returncode == 2 and "--paper" in r.stderr and "a4 or letter" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_running_title_is_a_safe_css_string() -> None:
    css = pdf.print_css("letter", 'x"; } body { display: none } </style><script>')
    assert "size: 8.5in 11in" in css
    box = re.search(r"@bottom-left \{ content: (\"[^\"]*\");", css)
    assert box and "</style" not in box.group(1) and "<" not in box.group(1)


@pytest.mark.parametrize(
    ("env", "paper"),
    [
        ({"LANG": "en_US.UTF-8"}, "letter"),
        ({"LANG": "ko_KR.UTF-8"}, "a4"),
        ({"LANG": "en_US.UTF-8", "LC_PAPER": "de_DE.UTF-8"}, "a4"),
        ({"LC_ALL": "en_CA.UTF-8", "LC_PAPER": "nl_NL.UTF-8", "LANG": "nl_NL.UTF-8"}, "letter"),
        ({"LANG": "C.UTF-8"}, "a4"),
        ({}, "a4"),
    ],
)
def test_default_paper_follows_the_locale(env: dict[str, str], paper: str) -> None:
    assert pdf.default_paper(env) == paper


def test_paper_for_a_browser_language() -> None:
    assert pdf.paper_for_locale("en-US") == "letter"
    assert pdf.paper_for_locale("es-MX") == "letter"
    assert pdf.paper_for_locale("es-ES") == "a4"
    assert pdf.paper_for_locale("ko") is None and pdf.paper_for_locale("") is None


def test_a_browser_that_cannot_print_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An executable that is not Chromium: planned, then a one-line reason, status 2, no file."""
    from tests.test_cli import run

    monkeypatch.setenv(pdf.CHROMIUM_ENV, "/bin/false")
    r = run("plan", "--example", "startup", "--runs", "0", "--out", str(tmp_path / "plan.pdf"))
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert "Chromium could not print the report" in r.stderr and "/bin/false" in r.stderr
    assert list(tmp_path.iterdir()) == []
