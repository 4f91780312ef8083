"""Issue 19 item 2: every money field in the plan's currency, salary bands per country, hires
priced against the scenario's own staff, and plans in different currencies never mixed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gputeam.catalog.currency import in_currency
from gputeam.errors import InputError
from gputeam.planning import plan
from gputeam.planning.costs import contractor_rate, plan_country, salary_bands
from gputeam.report.compare import MixedCurrencies, compare_sections, figures, one_currency, render_md
from gputeam.report.sweep import SweepRow, render_csv, sweep_charts, sweep_section
from gputeam.report.tables import format_value
from gputeam.scenario import load_scenario_text

from .helpers import person, scenario

#: Level-2 staff of a Korean plan earn 70-72 M won (the issue's finding).
KRW_STAFF = [
    person("kim", level=2, salary=70_000_000, skills={"linux": 3}),
    person("lee", level=2, salary=72_000_000, skills={"linux": 3, "networking": 2}),
]


def korean(**kw: Any) -> Any:
    return scenario(currency="KRW", usd_rate=1380, people=KRW_STAFF, **kw)


def test_a_korean_level_2_hire_is_priced_at_the_staffs_own_pay(catalog: Any, today: Any) -> None:
    """No Korean bands are published: a Level-2 hire costs what the Level-2 staff earn (70-72 M
    won), not the US band x 1,380 (151.8 M), and the plan says which levels are priced how."""
    sc = korean()
    converted = in_currency(catalog, 1380)
    bands = salary_bands(sc, converted)
    assert plan_country(sc, catalog) == "KR"
    assert bands.origin[2] == "staff" and bands.bands[2] == (70_000_000, 72_000_000)
    # levels nobody holds: the US band times the staff's pay against it, never unconverted US
    ratio = bands.ratio
    assert ratio is not None and ratio == pytest.approx(71_000_000 / (110_000 * 1380), rel=0.02)
    assert bands.bands[4][0] == pytest.approx(175_000 * 1380 * ratio)
    p = plan(sc, catalog, today, runs=0)
    texts = [w.text.english() for w in p.warnings if w.code == "salary-bands" and w.text]
    assert any("level 2" in t and "your own staff" in t for t in texts), texts
    assert any("x 0." in t and "US band" in t for t in texts), texts
    assert p.sourcing.hires
    # hiring = recruiting (a share of the salary) + ramp-up (half pay for the first months),
    # each at the middle of the hire's level band as chosen above
    e = catalog.economics
    expected = 0.0
    for h in p.sourcing.hires:
        low, high = bands.bands[h.level]
        mid = (low + high) / 2
        months = min(e.ramp_up_months, sc.horizon_months - h.arrival_month + 1)
        expected += h.count * mid * (e.hiring_cost_share + 0.5 * months / 12)
    (hiring,) = [c for c in p.costs.lines if c.category == "hiring"]
    assert hiring.horizon == pytest.approx(expected, rel=1e-6)


def test_german_bands_come_from_the_catalog_with_their_source(catalog: Any) -> None:
    """DE is a catalog country with sourced bands for levels 2-4; EUR alone names no country."""
    de = catalog.salary_bands["DE"]
    assert de.currency == "EUR" and "careercheck.io" in de.source
    assert set(de.levels) == {2, 3, 4}
    for code in ("NL", "ES", "FR", "KR", "GB", "IN"):
        assert catalog.salary_bands[code].source  # listed, with why there are no bands
    eur = scenario(currency="EUR", usd_rate=0.92)
    assert plan_country(eur, catalog) is None
    german = scenario(currency="EUR", usd_rate=0.92, country="DE")
    bands = salary_bands(german, in_currency(catalog, 0.92))
    assert bands.origin[3] == "country" and bands.bands[3] == (95_000, 130_000)
    assert bands.origin[1] == "us" and 1 not in bands.bands  # no figure: converted US, warned


def test_eur_without_country_or_salaries_warns_that_us_pay_is_assumed(catalog: Any, today: Any) -> None:
    p = plan(scenario(currency="EUR", usd_rate=0.92), catalog, today, runs=0)
    texts = " ".join(w.text.english() for w in p.warnings if w.code == "salary-bands" and w.text)
    assert "DE, ES, FR and NL" in texts and "set country" in texts
    assert "assumes pay there matches US pay" in texts and "0.92" in texts


def test_usd_plans_keep_the_article_bands_and_say_nothing(catalog: Any, today: Any) -> None:
    p = plan(scenario(people=[person("a", level=2, salary=50_000)]), catalog, today, runs=0)
    assert not [w for w in p.warnings if w.code == "salary-bands"]
    assert salary_bands(p.scenario, catalog).bands == {}


def test_the_deprecated_usd_rate_field_is_converted_and_warned(catalog: Any, today: Any) -> None:
    """`contractors.rate_usd_h: 130` in a EUR plan is $130, charged as EUR 119.60 (0.92 per
    dollar), not as EUR 130; `rate_h` is in the plan's currency and needs no warning."""
    old = scenario(currency="EUR", usd_rate=0.92, constraints={"contractors": {"rate_usd_h": 130}})
    new = scenario(currency="EUR", usd_rate=0.92, constraints={"contractors": {"rate_h": 130}})
    assert contractor_rate(old, catalog) == pytest.approx(119.6)
    assert contractor_rate(new, catalog) == 130
    p = plan(old, catalog, today, runs=0)
    (w,) = [w for w in p.warnings if w.code == "deprecated-field"]
    assert w.text is not None
    assert "rate_usd_h is deprecated" in w.text.english() and "EUR 120" in w.text.english()
    assert not [w for w in plan(new, catalog, today, runs=0).warnings if w.code == "deprecated-field"]


def test_the_deprecated_kwh_price_is_converted(catalog: Any) -> None:
    old = scenario(currency="EUR", usd_rate=0.9, fleet={"usd_per_kwh": 0.2})
    new = scenario(currency="EUR", usd_rate=0.9, fleet={"price_per_kwh": 0.2})
    assert old.kwh_price == pytest.approx(0.18) and new.kwh_price == 0.2


def test_old_and_new_name_together_is_an_error() -> None:
    text = (
        "organisation: X\nstart: 2027-01-01\nfleet: {gpus: [{month: 1, count: 8}]}\n"
        "constraints: {contractors: {rate_h: 100, rate_usd_h: 120}}\n"
    )
    with pytest.raises(InputError) as info:
        load_scenario_text(text, "team.yaml")
    assert [p.path for p in info.value.problems] == ["constraints.contractors.rate_usd_h"]


def test_unknown_prices_are_counted_as_zero_in_the_plans_currency(catalog: Any, today: Any) -> None:
    from gputeam.i18n import use
    from gputeam.report.words import localise

    sc = scenario(currency="EUR", usd_rate=0.92)  # its plan takes NCP-AIN, whose price is unknown
    p = plan(sc, catalog, today, runs=0)
    unknown = [w for w in p.warnings if w.code == "unknown-price"]
    assert unknown and unknown[0].text is not None
    assert "$" not in unknown[0].text.english() and "EUR 0" in unknown[0].text.english()
    with use("de"):
        german = localise(unknown[0].text, "")
        assert "€" in german and "$" not in german


def _two_currencies(catalog: Any, today: Any) -> list[Any]:
    return [
        figures(plan(korean(), catalog, today, runs=0)),
        figures(plan(scenario(currency="EUR", usd_rate=0.92), catalog, today, runs=0)),
    ]


def test_compare_labels_each_plan_with_its_own_currency(catalog: Any, today: Any) -> None:
    """The Korean plan's cost is in won, the German one's in euros: never '€6,992,641,868'."""
    figs = _two_currencies(catalog, today)
    (section,) = compare_sections(["seoul", "berlin"], figs)
    rows = {r[0]: r[1:] for r in section.tables[0].rows}
    seoul, berlin = (format_value(v, "money") for v in rows["Horizon cost"])
    assert seoul.endswith(" KRW") and "€" not in seoul
    assert berlin.startswith("€")
    md = render_md(["seoul", "berlin"], figs).decode()
    assert "KRW |" in md and "€" in md
    with pytest.raises(MixedCurrencies):
        one_currency(figs)
    assert any("is priced in EUR, not KRW" in n for n in section.notes)


def test_a_sweep_over_currency_never_charts_costs_together(catalog: Any, today: Any) -> None:
    figs = _two_currencies(catalog, today)
    rows = [SweepRow(("KRW",), figs[0]), SweepRow(("EUR",), figs[1])]
    charts = {c.id for c in sweep_charts(["currency"], rows)}
    assert "sweep-cost" not in charts and "sweep-team" in charts
    section = sweep_section(["currency"], rows)
    assert any("not charted or added together" in n for n in section.notes)
    cells = [format_value(v, "money") for v in section.tables[0].rows[0] if getattr(v, "kind", "") == "money"]
    assert cells and all(c.endswith(" KRW") for c in cells)
    header = render_csv(["currency"], rows).decode().splitlines()[0]
    assert header.split(",")[-2] == "currency"
    assert json.loads(json.dumps({"ok": True}))


def test_the_compare_command_prints_each_plan_in_its_own_currency(tmp_path: Any) -> None:
    """The terminal table of `gputeam compare`: the Korean plan's cost in won, never with the
    first plan's euro sign."""
    from typer.testing import CliRunner

    from gputeam.cli.main import app

    base = (
        "organisation: {org}\nstart: 2027-01-01\ncurrency: {cur}\nusd_rate: {rate}\n"
        "fleet: {{gpus: [{{month: 1, count: 64}}]}}\n"
    )
    eur, krw = tmp_path / "berlin.yaml", tmp_path / "seoul.yaml"
    eur.write_text(base.format(org="Berlin", cur="EUR", rate=0.92), "utf-8")
    krw.write_text(base.format(org="Seoul", cur="KRW", rate=1380), "utf-8")
    result = CliRunner().invoke(app, ["compare", str(eur), str(krw), "--runs", "0", "--today", "2026-12-02"])
    assert result.exit_code == 0, result.output
    cost = next(line for line in result.output.splitlines() if "Horizon cost" in line)
    berlin, seoul = [c.strip() for c in cost.split("│")[2:4]]
    assert berlin.startswith("€") and seoul.endswith("KRW") and "€" not in seoul


def test_service_rates_by_level_are_validated_and_uk_means_gb(catalog: Any) -> None:
    text = (
        "organisation: X\nstart: 2027-01-01\nfleet: {gpus: [{month: 1, count: 8}]}\n"
        "roi: {service_rate_h: {7: 100}}\n"
    )
    with pytest.raises(InputError) as info:
        load_scenario_text(text, "team.yaml")
    assert [p.path for p in info.value.problems] == ["roi.service_rate_h[7]"]
    assert plan_country(scenario(currency="GBP", usd_rate=0.79, country="uk"), catalog) == "GB"
    assert plan_country(scenario(currency="GBP", usd_rate=0.79), catalog) == "GB"


def test_the_over_budget_warning_names_the_plans_currency(catalog: Any, today: Any) -> None:
    sc = scenario(currency="EUR", usd_rate=0.92, constraints={"budget": 1000})
    p = plan(sc, catalog, today, method="rule", runs=0)  # the rule does not keep to a budget
    (w,) = [w for w in p.warnings if w.code == "over-budget"]
    assert w.text is not None and "EUR" in w.text.english() and "$" not in w.text.english()
