"""The dashboard's salary cost says what it is made of (issue 10 §1): recorded salaries, plus
level-band mid-points (converted for another currency) for people without one."""

from __future__ import annotations

from gputeam.catalog import load_catalog
from gputeam.scenario.models import Person
from gputeam.web.dashboard import annual_cost

CATALOG = load_catalog()


def _people() -> tuple[Person, ...]:
    return (
        Person(id="a", name="A", level=2, salary=100_000),
        Person(id="b", name="B", level=3),
        Person(id="c", name="C", level=1),
    )


def test_recorded_and_estimated_parts_add_up_by_definition() -> None:
    cost = annual_cost(_people(), CATALOG)
    mids = [CATALOG.levels[n].salary_usd.mid for n in (3, 1)]
    assert cost["recorded"] == 100_000 and cost["recorded_people"] == 1
    assert cost["estimated"] == round(sum(mids), 2) and cost["estimated_people"] == 2
    assert cost["total"] == round(100_000 + sum(mids), 2)
    assert "mid-point of their level's salary band" in cost["basis"]
    assert cost["sources"] and all("article" in s for s in cost["sources"])


def test_other_currency_converts_bands_and_keeps_local_salaries() -> None:
    cost = annual_cost(_people(), CATALOG, usd_rate=0.9, currency="EUR")
    mids = [CATALOG.levels[n].salary_usd.mid for n in (3, 1)]
    assert cost["recorded"] == 100_000  # a local salary is never converted or replaced
    assert cost["estimated"] == round(sum(mids) * 0.9, 2)
    assert "0.9 EUR per USD" in cost["basis"]
    # without a rate, USD bands are not added to EUR salaries: those people are left out
    cost = annual_cost(_people(), CATALOG, usd_rate=None, currency="EUR")
    assert cost["total"] == 100_000 and cost["unestimated_people"] == 2


def test_all_recorded_is_not_called_an_estimate() -> None:
    people = (Person(id="a", name="A", level=2, salary=90_000),)
    cost = annual_cost(people, CATALOG)
    assert cost["estimated_people"] == 0 and cost["basis"] == "salaries recorded on people"
