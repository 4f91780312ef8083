"""HTML report: self-contained, escaped, and drawn by a real headless Chromium with no network.

The browser tests use the system Chromium (``/usr/bin/chromium``) through Playwright; they never
download a browser. Without it they are skipped locally, but fail under CI=true.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gputeam.planning.result import Plan
from gputeam.report import html

from .conftest import EXAMPLES, renamed, with_risk

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BASE_CHARTS = {"headcount", "skills", "gantt", "cost-category", "cost-month"}
RISK_CHARTS = {"risk-fan", "risk-cost", "risk-tornado"}


def _chart_specs(page: str) -> dict[str, dict[str, Any]]:
    found = re.findall(
        r'<script type="application/json" id="chart-([a-z-]+)-spec">(.*?)</script>', page, re.S
    )
    return {chart_id: json.loads(spec) for chart_id, spec in found}


def _expected_charts(p: Plan) -> set[str]:
    expected = {"headcount", "cost-category", "cost-month"}
    if any(r.items for r in p.roadmaps):
        expected.add("gantt")
    if p.scenario.people:
        expected.add("skills")
    return expected | (RISK_CHARTS if p.risk else set())


# ---------------------------------------------------------------- without a browser
@pytest.mark.parametrize("name", [*EXAMPLES, "finance-risk"])
def test_self_contained_and_complete(plans: dict[str, Plan], name: str) -> None:
    p = plans[name.removesuffix("-risk")]
    if name.endswith("-risk"):
        p = p.model_copy(update={"risk": None})
    page = html.render(p).decode("utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    # nothing external: no src/href to another document, no stylesheet links, no CDN
    assert not re.search(r"""<(script|img|iframe|link)[^>]+(src|href)=""", page)
    assert "cdn.plot.ly" not in page.split("<script>")[0]
    assert "plotly.js v" in page, "Plotly.js is embedded"
    specs = _chart_specs(page)
    # the vendored partial bundle holds every trace type a chart draws, and nothing keeps
    # the page near the 4.9 MB it was with plotly's full bundle
    drawn = {t.get("type", "scatter") for spec in specs.values() for t in spec["data"]}
    assert drawn <= html.PLOTLY_TRACES, drawn - html.PLOTLY_TRACES
    if name.removesuffix("-risk") in ("finance", "healthcare", "startup", "midsize"):
        assert len(page.encode("utf-8")) <= 1_500_000  # a plan of 20,000 GPUs carries more data
    assert set(specs) == _expected_charts(p)
    assert page.count('data-chart="') == len(specs)
    for section in (
        "summary",
        "target",
        "gaps",
        "sourcing",
        "roadmaps",
        "costs",
        "roi",
        "warnings",
        "notes",
        "risk",
    ):
        assert f'<section id="{section}"' in page
    assert ("This plan carries no risk simulation." in page) is (p.risk is None)
    for a in p.sourcing.assignments:
        assert a.reason in page
    for t in p.costs.template_comparison:
        assert "table-cost_templates" in page and t.template in page
    assert "Net ROI ((returns - investment) / investment)" in page
    assert "Benefit-cost ratio (returns / investment)" in page


def test_chart_data_follows_the_plan(plans: dict[str, Plan]) -> None:
    p = plans["healthcare"]
    specs = _chart_specs(html.render(p).decode("utf-8"))
    bars = [t for t in specs["headcount"]["data"] if t["type"] == "bar"]
    totals = [sum(t["y"][i] for t in bars) for i in range(len(p.target.months))]
    assert totals == [m.headcount for m in p.target.months]
    assert specs["cost-month"]["data"][0]["y"] == pytest.approx(list(p.costs.by_month))
    gantt_points = sum(len(t["y"]) for t in specs["gantt"]["data"])
    assert gantt_points == sum(len(r.items) for r in p.roadmaps)
    names, domains, held, needed = html.skill_matrix(p)
    heat = specs["skills"]["data"][0]
    assert heat["x"] == domains and len(heat["y"]) == len(p.scenario.people)
    assert heat["z"] == [
        [h - n for h, n in zip(hr, nr, strict=True)] for hr, nr in zip(held, needed, strict=True)
    ]


def test_risk_sections(risk_plan: Plan) -> None:
    page = html.render(risk_plan).decode("utf-8")
    specs = _chart_specs(page)
    assert set(specs) >= RISK_CHARTS
    assert "This plan carries no risk simulation." not in page
    assert "P(ready by deadline)" in page and "83.0%" in page
    tornado = specs["risk-tornado"]["data"]
    assert tornado[0]["y"][-1] == "downtime cost per hour", "widest swing on top"
    assert specs["risk-cost"]["data"][0]["type"] == "histogram"
    # without samples the cost distribution falls back to the percentiles
    assert risk_plan.risk is not None
    risk = risk_plan.risk.model_copy(update={"cost_samples": ()})
    specs = _chart_specs(html.render(risk_plan.model_copy(update={"risk": risk})).decode("utf-8"))
    assert specs["risk-cost"]["data"][0]["type"] == "bar"


def test_text_is_escaped(plans: dict[str, Plan]) -> None:
    p = plans["finance"]
    hostile = '</script><script>alert("x")</script><b onmouseover=1>&'
    page = html.render(renamed(p, hostile, lambda i, name: hostile if i == 0 else name)).decode("utf-8")
    assert hostile not in page
    assert "&lt;/script&gt;&lt;script&gt;alert(&#34;x&#34;)" in page
    # in the chart JSON the name is escaped for Plotly (which reads some tags), so it shows as written
    specs = _chart_specs(page)
    plotly_text = hostile.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert any(y.startswith(plotly_text) for y in specs["skills"]["data"][0]["y"])


def test_render_is_pure(plans: dict[str, Plan]) -> None:
    """Same plan, same bytes (its speed is measured by bench/whatif.py)."""
    p = plans["finance"]
    first = html.render(p)
    second = html.render(p)
    assert first == second
    assert len(first) < 6_000_000


# ---------------------------------------------------------------- in Chromium
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing under CI: install Debian's chromium package")
        pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium package to run the browser tests)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _open_offline(browser: Any, path: Path) -> tuple[Any, dict[str, list[str]]]:
    """Open ``path`` with every request but the file itself blocked and recorded."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    seen: dict[str, list[str]] = {"blocked": [], "console": [], "errors": []}
    url = path.as_uri()

    def route(r: Any) -> None:
        if r.request.url == url:
            r.continue_()
        else:
            seen["blocked"].append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on(
        "console",
        lambda m: seen["console"].append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None,
    )
    page.on("pageerror", lambda e: seen["errors"].append(str(e)))
    page.goto(url)
    return page, seen


@pytest.mark.browser
def test_network_blocker_catches_requests(browser: Any, tmp_path: Path) -> None:
    """The harness itself: a page that reaches out is caught, so a clean report is really offline."""
    leaky = tmp_path / "leaky.html"
    leaky.write_text(
        '<img src="https://cdn.example.invalid/x.png"><script src="http://example.invalid/p.js"></script>',
        encoding="utf-8",
    )
    page, seen = _open_offline(browser, leaky)
    page.wait_for_load_state("load")
    page.close()
    assert sorted(seen["blocked"]) == ["http://example.invalid/p.js", "https://cdn.example.invalid/x.png"]


@pytest.mark.browser
def _hostile(p: Plan) -> Plan:
    """Scenario text that would run script or load an image if it were not escaped."""
    return renamed(
        p,
        '<img src="x.png" onerror="window.pwned=1">',
        lambda i, _: f"</script><script>window.pwned={i + 2}</script>",
    )


@pytest.mark.parametrize("name", [*EXAMPLES, "finance+risk", "finance-risk", "finance+hostile"])
def test_charts_drawn_offline(browser: Any, plans: dict[str, Plan], name: str, tmp_path: Path) -> None:
    p = plans[name.split("+")[0].split("-")[0]]
    if name.endswith("+risk"):
        p = with_risk(p)
    elif name.endswith("-risk"):
        p = p.model_copy(update={"risk": None})
    elif name.endswith("+hostile"):
        p = _hostile(p)
    path = tmp_path / "plan.html"
    path.write_bytes(html.render(p))
    page, seen = _open_offline(browser, path)
    try:
        page.wait_for_selector("body[data-charts-ready]", timeout=30_000)
        expected = _expected_charts(p)
        assert page.get_attribute("body", "data-charts-failed") is None
        assert page.get_attribute("body", "data-charts-ready") == str(len(expected))
        drawn = page.eval_on_selector_all(
            "[data-chart]",
            "els => els.map(e => [e.dataset.chart, e.dataset.chartReady, "
            "e.querySelectorAll('.main-svg').length, e.querySelectorAll('.trace, .hm').length])",
        )
        assert {d[0] for d in drawn} == expected
        for chart_id, ready, svgs, traces in drawn:
            assert ready == "true", chart_id
            assert svgs >= 1, f"{chart_id}: no SVG drawn"
            assert traces >= 1, f"{chart_id}: no trace drawn"
        assert page.title().startswith("Team plan: ")
        assert page.locator("#table-cost_templates tbody tr").count() == len(p.costs.template_comparison)
        assert page.evaluate("typeof window.pwned") == "undefined", "scenario text ran as script"
        if name.endswith("+hostile"):
            ticks = page.eval_on_selector_all(
                "#chart-skills .ytick text", "els => els.map(e => e.textContent)"
            )
            assert any(t.startswith("</script><script>window.pwned=") for t in ticks), ticks
    finally:
        page.close()
    assert seen["blocked"] == [], "the report tried to reach the network"
    assert seen["errors"] == []
    assert seen["console"] == []


def test_risk_without_data_is_rendered_gracefully(risk_plan: Plan) -> None:
    """A simulation with no data for some month (NaN) or an undefined ROI at one end of an
    assumption (None, infinity) still renders in every format, without empty charts."""
    from gputeam.report import markdown, xlsx

    assert risk_plan.risk is not None
    bands = risk_plan.risk.coverage_bands.model_copy(update={"p50": (0.5, float("nan"))})
    sens = risk_plan.risk.sensitivity[0].model_copy(update={"roi_low": None, "roi_high": float("inf")})
    risk = risk_plan.risk.model_copy(
        update={"coverage_bands": bands, "sensitivity": (sens,), "bus_factors": ()}
    )
    p = risk_plan.model_copy(update={"risk": risk})
    page = html.render(p).decode("utf-8")
    assert '<section id="risk"' in page
    for spec in _chart_specs(page).values():
        assert spec["data"], "no empty charts"
    assert b"## Risk" in markdown.render(p)
    assert xlsx.render(p)[:2] == b"PK"


def test_planned_hires_are_labelled_in_the_gantt(plans: dict[str, Plan]) -> None:
    p = plans["finance"]
    hired = p.roadmaps[0].model_copy(update={"hire": True, "person": "hire-1", "name": "New hire 1"})
    p = p.model_copy(update={"roadmaps": (*p.roadmaps, hired)})
    gantt = _chart_specs(html.render(p).decode("utf-8"))["gantt"]
    rows = {y for trace in gantt["data"] for y in trace["y"]}
    assert "New hire 1 (hire)" in rows
    assert gantt["layout"]["yaxis"]["categoryarray"][0] == "New hire 1 (hire)", (
        "listed last, drawn at the bottom"
    )


def test_people_sharing_a_name_keep_their_own_rows(plans: dict[str, Plan]) -> None:
    p = plans["finance"]
    names, *_ = html.skill_matrix(renamed(p, name=lambda i, _: "Sam Lee"))
    assert len(set(names)) == len(names) == len(p.scenario.people)
