"""PDF report: the offline HTML report (:mod:`gputeam.report.html`) printed by the system
Chromium through Playwright.

The page is laid out for print: the bundled Noto Sans KR (SIL OFL 1.1, from Fontsource;
Latin, Latin Extended and all 11,172 Hangul syllables, regular and bold) embedded as
``@font-face`` data URLs, so every language's text renders in one embedded font; A4 or
Letter pages numbered "page / pages" in CSS page-margin boxes; a table of contents whose
page numbers come from a first printing (the page each section's named destination lands
on), repeated as the PDF's bookmarks; long tables repeat their header row on every page;
the charts are drawn at the printable width, in the bundled font, before printing.

Chromium is ``/usr/bin/chromium`` (the Debian package ``chromium``), or the path in
``GPUTEAM_CHROMIUM``; without it :class:`RendererMissing` (an input error: exit status 2)
names the package to install; when it cannot print, :class:`PrintFailed` says why.
"""

from __future__ import annotations

import base64
import os
import tempfile
import threading
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gputeam.errors import InputError, Problem
from gputeam.i18n import _

if TYPE_CHECKING:
    from gputeam.planning.result import Plan

__all__ = [
    "FONT_FAMILY",
    "PAPERS",
    "PrintFailed",
    "RendererMissing",
    "check_paper",
    "chromium_path",
    "default_paper",
    "paper_for_locale",
    "print_html",
    "render",
]

FONT_FAMILY = "Noto Sans KR"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ENV = "GPUTEAM_CHROMIUM"
PAPERS = {"a4": ("210mm", "297mm"), "letter": ("8.5in", "11in")}
"""Paper sizes (width, height) by ``--paper`` name."""
_CONTENT_PX = {"a4": 688, "letter": 710}
"""The printable width in CSS pixels (page width less 2 x 14 mm margins): the charts are
drawn at this width."""
_MARGINS = "14mm 14mm 16mm 14mm"
_SUBSETS = (
    # (Fontsource subset, unicode-range): later rules are tried first, as in Fontsource's CSS
    ("korean", ""),
    (
        "latin-ext",
        "U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,"
        "U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,"
        "U+2113,U+2C60-2C7F,U+A720-A7FF",
    ),
    (
        "latin",
        "U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,"
        "U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD",
    ),
)
_WEIGHTS = (400, 700)
_TIMEOUT_MS = 60_000
_ARGS = ["--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
_SLOTS = threading.BoundedSemaphore(2)
"""At most two Chromium processes print at once (the web server renders in its threads)."""


_LETTER_TERRITORIES = frozenset({"US", "CA", "MX", "PH", "CL", "CO", "VE", "GT", "PR"})
"""Where Letter is the usual paper (elsewhere: A4)."""


def paper_for_locale(value: str | None) -> str | None:
    """``letter`` or ``a4`` for a locale naming a territory ("en_US.UTF-8", "en-US",
    "ko_KR"), else None ("C", "en", empty)."""
    code = (value or "").strip().split(".")[0].split("@")[0].split(",")[0].replace("-", "_")
    parts = code.split("_")
    if len(parts) < 2 or len(parts[-1]) != 2 or not parts[-1].isalpha():
        return None
    return "letter" if parts[-1].upper() in _LETTER_TERRITORIES else "a4"


def default_paper(environ: Mapping[str, str] | None = None) -> str:
    """The paper of the user's locale (``LC_ALL``, else ``LC_PAPER``, else ``LANG``, as POSIX
    orders them): Letter in the US, Canada, Mexico and a few more; else A4."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_PAPER", "LANG"):
        if env.get(var):
            return paper_for_locale(env[var]) or "a4"
    return "a4"


class RendererMissing(InputError):
    """PDF output was asked for but Chromium (or Playwright) is not installed."""

    kind = "environment"


class PrintFailed(InputError):
    """Chromium is there but could not print the report (it would not start, timed out, or
    a chart failed to draw)."""

    kind = "environment"


def font_files() -> list[Path]:
    """The bundled font files (woff2), for tests and the licence notice."""
    root = resources.files("gputeam.report") / "fonts"
    return [Path(str(root / f"noto-sans-kr-{s}-{w}-normal.woff2")) for w in _WEIGHTS for s, _ in _SUBSETS]


@lru_cache(maxsize=1)
def _font_css() -> str:
    rules = []
    for weight in _WEIGHTS:
        for subset, ranges in _SUBSETS:
            name = f"noto-sans-kr-{subset}-{weight}-normal.woff2"
            data = (resources.files("gputeam.report") / "fonts" / name).read_bytes()
            rules.append(
                f'@font-face {{ font-family: "{FONT_FAMILY}"; font-style: normal; '
                f"font-weight: {weight}; font-display: block; "
                f"src: url(data:font/woff2;base64,{base64.b64encode(data).decode()}) format('woff2');"
                + (f" unicode-range: {ranges};" if ranges else "")
                + " }"
            )
    return "\n".join(rules)


def _css_string(text: str) -> str:
    """``text`` as a CSS string literal that cannot end the string or the <style> element."""
    out = "".join(c if c.isprintable() and c not in '\\"<>&' else f"\\{ord(c):x} " for c in text)
    return f'"{out}"'


def print_css(paper: str, running_title: str) -> str:
    """The fonts, page size and page-margin boxes (title, "page / pages") for ``paper``."""
    width, height = PAPERS[paper]
    box = f'font: 8pt "{FONT_FAMILY}", sans-serif; color: #5b6575;'
    page = (
        f"@page {{ size: {width} {height}; margin: {_MARGINS};\n"
        f"  @bottom-left {{ content: {_css_string(running_title)}; {box} }}\n"
        f'  @bottom-right {{ content: counter(page) " / " counter(pages); {box} }}\n}}'
    )
    static = (resources.files("gputeam.report") / "static" / "print.css").read_text("utf-8")
    return "\n".join((_font_css(), page, static))


def check_paper(paper: str) -> None:
    """An input error unless ``paper`` is one of :data:`PAPERS`."""
    if paper not in PAPERS:
        raise InputError(
            [
                Problem(
                    path="--paper",
                    message=_("unknown paper size"),
                    found=repr(paper),
                    expected=_("{a} or {b}").format(a="a4", b="letter"),
                )
            ]
        )


def chromium_path() -> str:
    """The Chromium executable, or :class:`RendererMissing` naming the package to install."""
    path = os.environ.get(CHROMIUM_ENV) or CHROMIUM
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise RendererMissing(
            [
                Problem(
                    path="--format pdf",
                    message=_("PDF reports are printed by Chromium, which is not installed"),
                    found=path,
                    expected=_("an executable Chromium"),
                    hint=_(
                        "install the Debian package chromium: apt-get install chromium; or set "
                        "{variable} to the browser's path"
                    ).format(variable=CHROMIUM_ENV),
                )
            ]
        )
    return path


def render(plan: Plan, paper: str = "a4") -> bytes:
    """The plan's report as a PDF on ``paper`` (a4 or letter)."""
    from gputeam.report import html

    check_paper(paper)
    exe = chromium_path()
    page = html.render(plan, print_css=print_css(paper, html.title(plan)), chart_font=FONT_FAMILY)
    return print_html(page, paper, exe)


def print_html(page: bytes, paper: str, executable: str | None = None) -> bytes:
    """Print an HTML report page (with its charts drawn and its table of contents numbered)
    to PDF bytes; :class:`PrintFailed` when Chromium cannot."""
    exe = executable or chromium_path()
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:  # PDF output is the optional gputeam[pdf]
        raise RendererMissing(
            [
                Problem(
                    path="--format pdf",
                    message=_("PDF output needs the Python package playwright, which is not installed"),
                    expected="pip install 'gputeam[pdf]'",
                )
            ]
        ) from None
    with _SLOTS, tempfile.TemporaryDirectory(prefix="gputeam-pdf-") as tmp:
        source = Path(tmp) / "report.html"
        source.write_bytes(page)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=exe, args=_ARGS, timeout=_TIMEOUT_MS)
                try:
                    return _print(browser, source, paper)
                finally:
                    browser.close()
        except Error as exc:
            reason = (exc.message or str(exc)).strip().splitlines()[0]
            raise PrintFailed(
                [
                    Problem(
                        path="--format pdf",
                        message=_("Chromium could not print the report: {reason}").format(reason=reason),
                        found=exe,
                    )
                ]
            ) from None


def _print(browser: Any, source: Path, paper: str) -> bytes:
    width, height = PAPERS[paper]
    tab = browser.new_page(viewport={"width": _CONTENT_PX[paper], "height": 1000})
    tab.goto(source.as_uri(), wait_until="load", timeout=_TIMEOUT_MS)
    tab.wait_for_function("document.body.hasAttribute('data-charts-ready')", timeout=_TIMEOUT_MS)
    failed = tab.evaluate("document.body.getAttribute('data-charts-failed')")
    if failed:
        raise PrintFailed(
            [Problem(path="--format pdf", message=_("the report's charts failed to draw"), found=failed)]
        )
    tab.evaluate("document.fonts.ready.then(() => true)")
    tab.evaluate(_MARK_WIDE_TABLES)
    options: dict[str, Any] = {
        "width": width,
        "height": height,
        "prefer_css_page_size": True,
        "print_background": True,
        "tagged": True,  # a structure tree (headings, tables, lists) for screen readers and reflow
    }
    first: bytes = tab.pdf(**options)
    pages = _destination_pages(first)
    toc = tab.evaluate(_FILL_TOC, {k: str(v) for k, v in pages.items()})
    language, title = tab.evaluate("[document.documentElement.lang, document.title]")
    printed = tab.pdf(**options) if toc else first
    entries = [(text, pages[id_]) for id_, text in toc if id_ in pages]
    return _finish(printed, entries, language=language or "en", title=title)


_MARK_WIDE_TABLES = """() => {
  const width = document.documentElement.clientWidth;
  for (const t of document.querySelectorAll('table'))
    if (t.getBoundingClientRect().right > width + 0.5) t.classList.add('fit');
}"""
"""Mark the tables whose whole words are wider than the printable width (print.css lets
their cells break inside a word), so that Chromium never shrinks the page to fit one."""

_FILL_TOC = """pages => Array.from(document.querySelectorAll('[data-toc-page]'), el => {
  const id = el.getAttribute('data-toc-page');
  el.textContent = pages[id] || '';
  return [id, el.closest('li').querySelector('.toc-text').textContent];
})"""
"""Write each section's page into the table of contents; give back its (id, title) pairs."""


def _finish(pdf: bytes, entries: list[tuple[str, int]], language: str, title: str) -> bytes:
    """The PDF with a bookmark (outline entry) per (title, page from 1), shown on opening;
    its language (``/Lang``, so readers pick the voice and hyphenation), title and
    ``/Creator`` (gputeam and its version, not the browser's user agent)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject, TextStringObject

    from gputeam import __version__

    writer = PdfWriter(clone_from=PdfReader(BytesIO(pdf)))
    for text, page in entries:
        writer.add_outline_item(title=text, page_number=page - 1)
    if entries:
        writer.page_mode = "/UseOutlines"
    writer._root_object[NameObject("/Lang")] = TextStringObject(language)
    writer.add_metadata({"/Title": title, "/Creator": f"gputeam {__version__}"})
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def _destination_pages(pdf: bytes) -> dict[str, int]:
    """Page number (from 1) of each named destination (the report's link targets)."""
    from pypdf import PdfReader

    reader = PdfReader(BytesIO(pdf))
    out = {}
    for name, dest in reader.named_destinations.items():
        number = reader.get_destination_page_number(dest)
        if number is not None and number >= 0:
            out[str(name).lstrip("/")] = number + 1
    return out
