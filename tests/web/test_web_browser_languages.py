"""The web pages in each language in headless Debian Chromium over a real uvicorn server
(issue 13): German from the browser's language (Playwright's locale sends Accept-Language),
then Korean chosen with the language switcher, which wins over the browser's German and is
saved on the account (another German browser signs in to Korean), then Dutch and Spanish
with the switcher. On the dashboard, the people list and the plan page (Dutch and Spanish:
the plan page): ``<html lang>``, the navigation, the headings and the plan's money are the
catalog's translations and the language's formats (expected texts from gputeam.i18n, not
written here). One server and one browser for the whole walk."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gputeam import i18n

from . import test_web_browser
from .conftest import PASSWORD, seed
from .test_web_browser import page, running_server  # noqa: F401 (page: a fixture)
from .test_web_languages import MONEY

pytestmark = test_web_browser.pytestmark  # Chromium, skipped (or failed under CI) without it

#: the navigation an admin sees, in its order (msgids)
NAVIGATION = (
    "Dashboard",
    "People",
    "Skills",
    "Certifications",
    "Teams",
    "Approvals",
    "Plan",
    "Catalog",
    "Exams",
    "Import",
    "Export",
    "Account",
    "Users",
)
#: each page: its path, the msgid of its title, its first heading and its other headings
PAGES = (
    ("/", "Dashboard", "{Dashboard} · Acme", ("Bus factor per skill domain", "Headcount by role")),
    ("/people", "People", "{People}", ()),
    ("/plan", "Plan", "{Plan the live team}", ("Gaps at the deadline", "Sourcing", "Costs")),
)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    from gputeam import store

    url = f"sqlite:///{tmp_path}/languages.db"
    db = store.open_database(url)
    seed(db)
    db.dispose()
    with running_server(url, tmp_path) as base:
        yield base


def in_language(language: str, msgid: str) -> str:
    """The catalog's translation of ``msgid`` (German keeps "Dashboard")."""
    with i18n.use(language):
        return i18n.gettext(msgid)


def check_page(tab: Any, base: str, language: str, path: str) -> None:
    from playwright.sync_api import expect

    _path, title, h1, h2s = next(p for p in PAGES if p[0] == path)
    heading = re.sub(r"\{([^}]+)\}", lambda m: in_language(language, m.group(1)), h1)
    if tab.url != base + path:
        tab.goto(base + path)
    expect(tab.locator("html")).to_have_attribute("lang", language)
    expect(tab).to_have_title(f"{in_language(language, title)} · gputeam")
    expect(tab.locator("main h1")).to_have_text(heading)
    navigation = [in_language(language, m) for m in NAVIGATION]
    assert navigation != list(NAVIGATION)  # the English page would fail here
    expect(tab.locator("header.top > a:not(.brand)")).to_have_text(navigation)
    expect(tab.locator("header.top form[action='/logout'] button")).to_have_text(
        in_language(language, "Log out")
    )
    expect(tab.locator("nav.languages strong")).to_have_text(i18n.language_names()[language])
    shown = tab.locator("main h2").all_inner_texts()
    for msgid in h2s:
        assert in_language(language, msgid) in shown, (path, msgid, shown)
    if path == "/plan":  # the first-year cost, in the language's money format
        cost = tab.locator(".card", has_text=in_language(language, "First-year cost")).locator(".big")
        assert re.fullmatch(MONEY[language], cost.inner_text()), cost.inner_text()


def test_pages_in_german_korean_dutch_and_spanish(site: str, page: Any) -> None:  # noqa: F811
    from playwright.sync_api import expect

    browser = page.context.browser
    context = browser.new_context(locale="de-DE")  # Accept-Language: de-DE
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    tab.goto(site + "/login")
    expect(tab.locator("html")).to_have_attribute("lang", "de")
    expect(tab.locator("main h1")).to_have_text(in_language("de", "Log in"))
    tab.fill("#username", "admin")
    tab.fill("#password", PASSWORD)
    tab.locator("main button[type=submit]").click()
    expect(tab).to_have_url(site + "/")
    for path in ("/", "/people", "/plan"):
        check_page(tab, site, "de", path)

    tab.locator("nav.languages button[lang=ko]").click()  # the switcher: back to the same page
    expect(tab).to_have_url(site + "/plan")
    for path in ("/plan", "/", "/people"):
        check_page(tab, site, "ko", path)
    context.close()
    # the switcher saved Korean on the account: another German browser signs in to Korean
    other = browser.new_context(locale="de-DE")
    tab = other.new_page()
    tab.set_default_timeout(15_000)
    tab.goto(site + "/login")
    expect(tab.locator("html")).to_have_attribute("lang", "de")
    tab.fill("#username", "admin")
    tab.fill("#password", PASSWORD)
    tab.locator("main button[type=submit]").click()
    expect(tab).to_have_url(site + "/")
    check_page(tab, site, "ko", "/")
    # Dutch, then Spanish, with the switcher: the plan page (its money format too)
    for language in ("nl", "es"):
        tab.locator(f"nav.languages button[lang={language}]").click()
        expect(tab.locator("html")).to_have_attribute("lang", language)
        check_page(tab, site, language, "/plan")
    other.close()


def test_hangul_renders_in_the_bundled_font(site: str, page: Any) -> None:  # noqa: F811
    """On a machine without a Hangul font of its own (CI installs none), a Korean page is
    drawn with the bundled Noto Sans KR, not as empty boxes: the browser loaded the face
    for the page's Hangul, and the page's font measures Korean text as that face does."""
    page.goto(site + "/language?lang=ko&next=/login")
    page.wait_for_function("document.fonts.status === 'loaded'")
    loaded = page.evaluate(
        "() => [...document.fonts].filter(f => f.family.replace(/\"/g, '') === 'gputeam Hangul'"
        " && f.status === 'loaded').map(f => f.weight)"
    )
    assert "400" in loaded, loaded
    widths = page.evaluate(
        """() => {
            const text = '로그인 한국어 자격증';
            const ctx = document.createElement('canvas').getContext('2d');
            const width = font => { ctx.font = font; return ctx.measureText(text).width; };
            return [width('15px "gputeam Hangul"'), width(getComputedStyle(document.body).font)];
        }"""
    )
    bundled, page_font = widths
    assert page_font == pytest.approx(bundled, rel=0.02), widths


#: An element that shows a figure or a label and must not spill out of its box.
_CLIPPED = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.card .big, .card .label, .card .muted')) {
    const box = el.closest('.card') || el.parentElement;
    const r = el.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1 || r.right > b.right + 1 || r.left < b.left - 1)
      out.push(el.className + ': ' + el.textContent.trim().slice(0, 40)
        + ' ' + Math.round(b.width) + '/' + el.scrollWidth);
  }
  return out;
}"""


def test_no_figure_spills_out_of_its_card(site: str, page: Any) -> None:  # noqa: F811
    """Rule: at any width from 320 to 1,440 px and in every language, a card's figure and
    label stay inside the card (the money of de/nl/es/ko is the longest)."""
    page.goto(site + "/login")
    page.fill("#username", "admin")
    page.fill("#password", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(site + "/")
    found = {}
    for language in i18n.LANGUAGES:
        page.goto(f"{site}/language?lang={language}&next=/plan")
        for width in (320, 390, 768, 1024, 1440):
            page.set_viewport_size({"width": width, "height": 900})
            for path in ("/", "/plan"):
                if page.url != site + path:
                    page.goto(site + path)
                spilled = page.evaluate(_CLIPPED)
                if spilled:
                    found[(language, width, path)] = spilled
    assert found == {}
