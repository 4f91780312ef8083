"""The web pages in each language: Accept-Language, the switcher's cookie, locale formats,
problem titles of the API, and the pseudo-locale run over the translated pages."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from tests.web.conftest import World, logged_in

PAGES_IN = {
    "de": ("Personalstärke", "In den nächsten 90 Tagen ablaufende Zertifizierungen", "Abmelden"),
    "nl": ("Bezetting", "Certificeringen die de komende 90 dagen verlopen", "Afmelden"),
    "es": ("Plantilla", "Certificaciones que vencen en los próximos 90 días", "Cerrar sesión"),
    "ko": ("인원", "향후 90일 내 만료되는 자격증", "로그아웃"),
}
#: the dashboard's estimated salary cost (whole dollars in English), as each language writes it
MONEY = {
    "de": r"\d{1,3}(?:\.\d{3})+,\d\d\xa0\$",
    "nl": r"US\$\xa0\d{1,3}(?:\.\d{3})+,\d\d",
    "es": r"\d{1,3}(?:\.\d{3})+,\d\d\xa0US\$",
    "ko": r"US\$\d{1,3}(?:,\d{3})+\.\d\d",
}


@pytest.mark.parametrize("language", sorted(PAGES_IN))
def test_dashboard_in_the_browsers_language(app: Any, world: World, language: str) -> None:
    c = logged_in(app, "manager")
    r = c.get("/", headers={"Accept-Language": f"fr-CH, fr;q=0.9, {language};q=0.8, en;q=0.5"})
    assert r.status_code == 200
    assert f'<html lang="{language}">' in r.text and r.headers["content-language"] == language
    assert "Accept-Language" in r.headers["vary"]
    for text in PAGES_IN[language]:
        assert text in r.text, text
    assert re.search(MONEY[language], r.text)
    english = c.get("/", headers={"Accept-Language": "en-GB"})
    assert '<html lang="en">' in english.text
    assert "Certifications expiring in the next 90 days" in english.text


def test_the_switcher_remembers_the_choice(app: Any, world: World) -> None:
    c = logged_in(app, "admin")
    page = c.get("/people", headers={"Accept-Language": "de"})
    assert 'href="/language?lang=ko&amp;next=/people"' in page.text
    r = c.get("/language", params={"lang": "ko", "next": "/people"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/people"
    assert "gputeam_lang=ko" in r.headers["set-cookie"]
    page = c.get("/people", headers={"Accept-Language": "de"})  # the choice wins
    assert '<html lang="ko">' in page.text and '<th scope="col">이름</th>' in page.text
    for bad in ("//evil.example", "https://evil.example/"):
        r = c.get("/language", params={"lang": "nl", "next": bad}, follow_redirects=False)
        assert r.headers["location"] == "/"
    r = c.get("/language", params={"lang": "xx"}, follow_redirects=False)
    assert "set-cookie" not in r.headers  # the pseudo-locale is not offered


def test_api_problem_titles_follow_the_language(app: Any, world: World) -> None:
    c = logged_in(app, "admin")
    r = c.get("/api/v1/people/999999", headers={"Accept-Language": "es"})
    assert r.status_code == 404 and r.json()["title"] == "No encontrado"
    r = c.get("/api/v1/people/999999")
    assert r.json()["title"] == "Not found"


class _Chrome(HTMLParser):
    """The page's own words: title, headings, table heads, labels, buttons, summaries, the
    cards' labels and the navigation (not the language switcher's names)."""

    TAGS = {"title", "h1", "h2", "h3", "th", "label", "button", "summary"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, str]] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag in ("input", "meta", "link", "br", "img"):
            if a.get("placeholder"):
                self.texts.append("placeholder: " + str(a["placeholder"]))
            return
        self.stack.append((tag, (a.get("class") or "") + " " + (a.get("aria-label") or "")))

    def handle_endtag(self, tag: str) -> None:
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if not text or not self.stack or text in ("·", "gputeam", "–", ";", ":", ","):
            return
        tags = [t for t, _ in self.stack]
        css = " ".join(c for _, c in self.stack)
        if "languages" in css or "script" in tags or "style" in tags:
            return
        tag = tags[-1]
        if (
            (set(tags) & self.TAGS and tag not in ("option", "span", "strong"))
            or (tag == "div" and "label" in self.stack[-1][1])
            or (tag == "a" and "header" in tags)
        ):
            self.texts.append(f"{tag}: {text}")


def _untranslated(html: str) -> list[str]:
    parser = _Chrome()
    parser.feed(html)
    return [t for t in parser.texts if "⟦" not in t and not t.endswith("· gputeam")]


def test_pseudo_locale_pages_show_no_untranslated_text(app: Any, world: World) -> None:
    c = logged_in(app, "admin")
    r = c.post(
        "/plan",
        data={
            "gpus": "256",
            "deadline_month": "6",
            "horizon_months": "12",
            "action": "save",
            "csrf_token": c.csrf,
        },
        follow_redirects=False,
    )
    assert r.status_code == 303
    pages = ["/", "/plan", "/people", f"/people/{world.people['p1']}", "/people/999999"]
    english = {page: _untranslated(c.get(page).text) for page in pages}
    assert all(english.values())  # the check sees the pages' words
    c.cookies.set("gputeam_lang", "xx")
    found = {}
    for page in pages:
        html = c.get(page).text
        if page.startswith("/people/p") or page == f"/people/{world.people['p1']}":
            html = html.replace("<h1>Ada Lovelace", "<h1>⟦Ada Lovelace⟧")  # a name, not a text
        found[page] = _untranslated(html)
    assert found == {page: [] for page in pages}
