"""The reports in each language: translated headings and the language's number, money and
date formats; and the pseudo-locale run that finds any text bypassing the translations."""

from __future__ import annotations

import io
import json
import re
from datetime import date
from html.parser import HTMLParser

import pytest
from babel.numbers import format_currency
from tests.differences import differences

from gputeam import i18n
from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.result import Plan
from gputeam.report import render
from gputeam.scenario import load_example

TODAY = date(2026, 12, 2)
#: Each language's currency for the test (the won has no minor unit) and its money's shape.
CURRENCIES = {"de": ("EUR", 0.9), "nl": ("EUR", 0.9), "es": ("EUR", 0.9), "ko": ("KRW", 1400.0)}
MONEY = {
    "de": r"\d{1,3}(?:\.\d{3})+,\d\d\xa0€",
    "nl": r"€\xa0\d{1,3}(?:\.\d{3})+,\d\d",
    "es": r"\d{1,3}(?:\.\d{3})+,\d\d\xa0€",
    "ko": r"₩\d{1,3}(?:,\d{3})+(?![.\d])",
}
HEADINGS = {
    "de": ("Teamplan: ", "Übersicht", "Zielteam", "Lücken", "Kapitalwert"),
    "nl": ("Teamplan: ", "Samenvatting", "Doelteam", "Hiaten", "Netto contante waarde"),
    "es": ("Plan de equipo: ", "Resumen", "Equipo objetivo", "Brechas", "Valor actual neto"),
    "ko": ("팀 계획: ", "요약", "목표 팀", "격차", "순현재가치"),
}
DATES = {"de": "2.12.2026", "nl": "2-12-2026", "es": "2/12/2026", "ko": "2026. 12. 2."}
SEPARATORS = {"de": ",.", "nl": ",.", "es": ",.", "ko": ".,"}


@pytest.fixture(scope="module")
def local_plans() -> dict[str, Plan]:
    catalog = load_catalog()
    out = {}
    for language, (currency, rate) in CURRENCIES.items():
        scenario = load_example("startup").model_copy(update={"currency": currency, "usd_rate": rate})
        out[language] = plan(scenario, catalog, TODAY)
    return out


@pytest.mark.parametrize("language", sorted(CURRENCIES))
def test_html_report_in_each_language(language: str, local_plans: dict[str, Plan]) -> None:
    p = local_plans[language]
    with i18n.use(language):
        page = render(p, "html").decode("utf-8")
        expected = format_currency(p.costs.first_year, p.costs.currency, locale=language)
    assert f'<html lang="{language}">' in page
    for heading in HEADINGS[language]:
        assert heading in page, heading
    assert expected in page and re.search(MONEY[language], page)
    assert DATES[language] in page  # "computed for" and the summary's dates
    specs = [json.loads(s) for s in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', page)]
    assert specs and all(s["layout"]["separators"] == SEPARATORS[language] for s in specs)
    with i18n.use(language):
        assert all(s["layout"]["title"]["text"] != "Cost by month (EUR)" for s in specs)


@pytest.mark.parametrize("language", sorted(CURRENCIES))
def test_markdown_report_in_each_language(language: str, local_plans: dict[str, Plan]) -> None:
    p = local_plans[language]
    with i18n.use(language):
        text = render(p, "md").decode("utf-8")
    heads = [line for line in text.splitlines() if line.startswith("#")]
    assert heads[0].startswith("# " + HEADINGS[language][0])
    assert f"## {HEADINGS[language][1]}" in heads
    assert re.search(MONEY[language], text) and DATES[language] in text


@pytest.mark.parametrize("language", sorted(CURRENCIES))
def test_xlsx_report_in_each_language(language: str, local_plans: dict[str, Plan]) -> None:
    from openpyxl import load_workbook

    p = local_plans[language]
    with i18n.use(language):
        wb = load_workbook(io.BytesIO(render(p, "xlsx")))
        summary = i18n.gettext("Summary")
    assert wb.sheetnames[0] == summary == HEADINGS[language][1]
    ws = wb[summary]
    assert [ws.cell(1, 1).value, ws.cell(1, 2).value] != ["Item", "Value"]
    money_formats = {
        c.number_format for row in wb[wb.sheetnames[5]].iter_rows() for c in row if isinstance(c.value, float)
    }
    symbol = "€" if p.costs.currency == "EUR" else "₩"
    assert any(symbol in f for f in money_formats), money_formats
    if language == "ko":
        assert all(".00" not in f for f in money_formats if symbol in f)  # no minor unit
    else:
        assert any(".00" in f for f in money_formats if symbol in f)


def test_english_reports_are_unchanged_by_the_languages(local_plans: dict[str, Plan]) -> None:
    p = local_plans["de"]
    before = render(p, "html")
    with i18n.use("de"):
        render(p, "html")
    assert render(p, "html") == before
    specs = re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', before.decode("utf-8"))
    assert b'<html lang="en">' in before
    assert specs and all("separators" not in json.loads(s)["layout"] for s in specs)


# ---------------------------------------------------------------- pseudo-locale
class _Chrome(HTMLParser):
    """The texts of a report's chrome: title, headings, table heads, cards, navigation,
    empty-table texts and the footer (table cells and notes carry the plan's own data)."""

    TAGS = {"title", "h1", "h2", "h3", "th", "dt", "footer", "noscript"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, str]] = []
        self.texts: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("meta", "br", "link", "input"):
            return
        self.stack.append((tag, dict(attrs).get("class") or ""))

    def handle_endtag(self, tag: str) -> None:
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if not text or not self.stack or self.stack[-1][0] in ("script", "style"):
            return
        tags = {t for t, _ in self.stack}
        tag, css = self.stack[-1]
        if tags & self.TAGS or ("nav" in tags and tag == "a") or (tag == "p" and css in ("meta", "empty")):
            self.texts.append((tag, text))


def _untranslated_html(page: str) -> list[str]:
    parser = _Chrome()
    parser.feed(page)
    found = [
        f"{tag}: {text}" for tag, text in parser.texts if "⟦" not in text and not text.startswith("gputeam")
    ]
    for spec in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', page):
        layout = json.loads(spec)["layout"]
        texts = [layout["title"]["text"]] + [
            layout[a]["title"]["text"] for a in ("xaxis", "yaxis") if "title" in layout.get(a, {})
        ]
        found += [f"chart: {t}" for t in texts if "⟦" not in t and t not in ("USD", "EUR")]
    return found


def test_pseudo_locale_html_report_has_no_untranslated_text(risk_plan: Plan) -> None:
    with i18n.use(i18n.PSEUDO):
        page = render(risk_plan, "html").decode("utf-8")
    assert risk_plan.case_study is not None and risk_plan.risk is not None
    assert _untranslated_html(page) == []
    # the check sees the chrome: in English, every heading, table head and chart title
    english = _untranslated_html(render(risk_plan, "html").decode("utf-8"))
    for text in (
        "h1: Team plan:",
        "h2: Summary",
        "th: Item",
        "dt: Net ROI",
        "p: Generated",
        "chart: Cost by month",
        "chart: people",
        "p: Computed for",
    ):
        assert any(t.startswith(text) for t in english), text


def test_pseudo_locale_markdown_and_xlsx_have_no_untranslated_text(risk_plan: Plan) -> None:
    from openpyxl import load_workbook

    with i18n.use(i18n.PSEUDO):
        text = render(risk_plan, "md").decode("utf-8")
        wb = load_workbook(io.BytesIO(render(risk_plan, "xlsx")))
    lines = text.splitlines()
    heads = [line for line in lines if line.startswith("#")]
    table_heads = [
        lines[i - 1]
        for i, line in enumerate(lines)
        if line.startswith("|-") or line.startswith("|--") or re.match(r"^\|(-+:?\|)+$", line)
    ]
    cells = [c.strip() for head in table_heads for c in head.strip("|").split("|")]
    assert [h for h in heads if "⟦" not in h] == []
    assert cells and [c for c in cells if not c.startswith("⟦")] == []
    assert lines[2].startswith("⟦Computed for")
    assert [n for n in wb.sheetnames if not n.startswith("⟦")] == []
    for ws in wb.worksheets:
        first = next(r for r in ws.iter_rows(max_row=3) if any(c.font.bold for c in r if c.value))
        assert all(str(c.value).startswith("⟦") for c in first if c.value is not None)


def test_ics_texts_in_the_language(local_plans: dict[str, Plan]) -> None:
    p = local_plans["de"]
    with i18n.use("de"):
        text = render(p, "ics").decode("utf-8")
    english = render(p, "ics").decode("utf-8")
    assert "SUMMARY:Prüfung: " in text and "Zielrolle: " in text and "Exam: " not in text
    assert "SUMMARY:Exam: " in english and "X-WR-CALNAME:Team plan: " in english


# ---------------------------------------------------------------- the plan's sentences
def plan_texts(value: object) -> list[object]:
    """Every :class:`Text` a plan holds (its sentences), depth first."""
    from pydantic import BaseModel

    from gputeam.planning.text import Text

    if isinstance(value, Text):
        return [value]
    if isinstance(value, BaseModel):
        return [t for name in type(value).model_fields for t in plan_texts(getattr(value, name))]
    if isinstance(value, dict):
        return [t for v in value.values() for t in plan_texts(v)]
    if isinstance(value, tuple | list):
        return [t for v in value for t in plan_texts(v)]
    return []


@pytest.fixture(scope="module")
def troubled() -> Plan:
    """A plan with many warnings: a deadline too early, a tiny budget, euros without a rate."""
    scenario = load_example("startup")
    constraints = scenario.constraints.model_copy(update={"deadline_month": 2, "budget": 1000.0})
    scenario = scenario.model_copy(update={"constraints": constraints, "currency": "EUR"})
    return plan(scenario, load_catalog(), TODAY)


def test_warnings_and_notes_keep_their_english_and_template(troubled: Plan) -> None:
    """The JSON keeps the English ``message`` and, beside it, the template and parameters
    it was written from."""
    assert len(troubled.warnings) >= 4 and troubled.notes
    for item in (*troubled.warnings, *troubled.notes):
        assert item.text is not None and item.message == item.text.english()
    data = troubled.to_json()
    uncovered = next(w for w in data["warnings"] if w["code"] == "uncovered")
    assert uncovered["message"].startswith("36 slot-months stay uncovered in months 1-18")
    assert uncovered["text"]["template"].startswith("{count} slot-month stays uncovered in {months}")
    assert uncovered["text"]["params"]["count"] == 36
    assert not differences(Plan.model_validate(data), troubled)


def test_warnings_in_german(troubled: Plan) -> None:
    with i18n.use("de"):
        text = render(troubled, "md").decode("utf-8")
    assert "36 Stellenmonate bleiben in Monaten 1-18 unbesetzt" in text
    assert "das Personal deckt im Stichtagsmonat 2 0\xa0% des Ziels ab" in text
    assert "die Währung ist EUR, aber usd_rate fehlt" in text
    assert "Die Vorlagen besetzen weit dichter als die Fallstudien: bei 400 GPUs" in text
    assert "slot-months" not in text and "Templates staff" not in text


@pytest.mark.parametrize("name", ["finance", "healthcare", "startup", "midsize", "troubled"])
def test_pseudo_locale_translates_every_sentence_of_the_plan(
    name: str, troubled: Plan, plans: dict[str, Plan]
) -> None:
    """Every sentence the plan keeps as a Text comes out translated (the pseudo-locale marks
    each), and the warnings and notes of every report format show them."""
    from gputeam.report.words import localise

    p = troubled if name == "troubled" else plans[name]
    texts = plan_texts(p)
    assert texts
    with i18n.use(i18n.PSEUDO):
        shown = [localise(t) for t in texts]  # type: ignore[arg-type]
        md = render(p, "md").decode("utf-8")
    assert [s for s in shown if not s.startswith("⟦")] == []
    for item in (*p.warnings, *p.notes):
        assert f"| {item.code} | ⟦" in md
    # every sentence the plan shows has its Text: none is English only
    assert english_only(p) == []
    # the sections' notes (the sourcing explanation, the ROI's notes) are all translated
    notes = [line for line in md.splitlines() if line.startswith("- ")]
    assert notes and [n for n in notes if not n.startswith("- ⟦")] == []


def english_only(value: object, path: str = "plan") -> list[str]:
    """The plan's English sentences that have no Text beside them."""
    from pydantic import BaseModel

    from gputeam.planning.result import RoadmapItem

    found: list[str] = []
    if isinstance(value, BaseModel):
        for english, text in getattr(type(value), "_sentences", ()):
            if isinstance(value, RoadmapItem) and (
                (english == "name" and value.kind in ("course", "exam"))  # product names
                or (english == "note" and value.kind == "bootcamp")  # its courses' ids
            ):
                continue
            words, kept = getattr(value, english), getattr(value, text)
            if isinstance(words, tuple) and len(kept) != len(words):
                found.append(f"{path}.{english}")
            elif isinstance(words, str) and words and kept is None:
                found.append(f"{path}.{english}: {words}")
        for name in type(value).model_fields:
            if name != "scenario":
                found += english_only(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, tuple | list):
        for i, v in enumerate(value):
            found += english_only(v, f"{path}[{i}]")
    return found


def test_roi_lines_and_assumptions_are_marked_for_translation(plans: dict[str, Plan]) -> None:
    """The ROI's line names and the sensitivity's assumptions (English keys in the JSON) are
    all in the list the translations are extracted from."""
    from gputeam.planning.roi import LINE_NAMES, article_roi, sensitivity

    names = {k for p in plans.values() for k in (*p.roi.investment_lines, *p.roi.return_lines)}
    example = article_roi(load_catalog())
    names |= {*example.investment_lines, *example.return_lines}
    p, catalog = plans["finance"], load_catalog()
    bars = sensitivity(p.scenario, catalog, p.target, p.sourcing, p.roadmaps, top=99)
    assert bars
    names |= {bar["assumption"] for bar in bars}
    assert sorted(names - set(LINE_NAMES)) == []


def test_the_plans_sentences_in_german(plans: dict[str, Plan]) -> None:
    """The sourcing decisions, rules, roadmap items and ROI notes in German, with German
    numbers and money."""
    p = plans["healthcare"]
    with i18n.use("de"):
        text = render(p, "md").decode("utf-8")
    for words in (
        "optimaler Plan (HiGHS, Lücke 0,00 %): ",
        "weiterbilden (Level 2), bereit im Monat",
        "Infrastructure Lead auf Level 4 im Monat 2 einstellen",
        "externe Fachkräfte überbrücken",
        "Führungsspanne: 4 Ingenieure / 8 pro Leitung, aufgerundet, mindestens eine = 1",
        "Prüfungsvorbereitung: ",
        "Vergleichsfall: ",
        "Investition: Weiterbildung",
    ):
        assert words in text, words
    assert "optimal plan" not in text and "upskill " not in text and "Counterfactual" not in text


@pytest.mark.parametrize("language", sorted(CURRENCIES))
def test_plotly_date_axes_follow_the_language(language: str, local_plans: dict[str, Plan]) -> None:
    """The charts' date axes (the roadmaps' Gantt) are labelled in the language's date form:
    the axis's tickformat writes a day as the reports write it (de 2.12.2026, ko 2026. 12. 2.);
    English keeps Plotly's own."""
    with i18n.use(language):
        page = render(local_plans[language], "html").decode("utf-8")
    specs = [json.loads(s) for s in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', page)]
    dated = [s["layout"]["xaxis"] for s in specs if s["layout"].get("xaxis", {}).get("type") == "date"]
    assert dated and all(date(2026, 12, 2).strftime(x["tickformat"]) == DATES[language] for x in dated)
    english = render(local_plans[language], "html").decode("utf-8")
    assert '"tickformat":"%-d' not in english and '"tickformat":"%Y.' not in english
