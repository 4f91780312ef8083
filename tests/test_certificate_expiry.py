"""One home for a certificate's expiry (issue 8 §7): the planner, the store and the web
dashboard give the same day, also for a certificate earned on 31 January."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from gputeam.catalog import certificate_expiry, load_catalog
from gputeam.planning.roadmap import held_valid
from gputeam.scenario.models import HeldCertification, Person
from gputeam.store.certifications import default_valid_until
from gputeam.web.dashboard import cert_expiry


@pytest.mark.parametrize(
    ("earned", "months", "expected"),
    [
        (date(2027, 1, 31), 1, date(2027, 2, 28)),
        (date(2027, 1, 31), 13, date(2028, 2, 29)),
        (date(2027, 1, 31), 24, date(2029, 1, 31)),
        (date(2027, 1, 31), 3, date(2027, 4, 30)),
        (date(2027, 3, 15), 24, date(2029, 3, 15)),
    ],
)
def test_every_home_gives_the_same_expiry(earned: date, months: int, expected: date) -> None:
    """Rule: earned + validity_months calendar months, the same day or the month's last day."""
    catalog = load_catalog({"certifications": [{"id": "nca-aiio", "validity_months": months}]})
    assert certificate_expiry(catalog, "nca-aiio", earned) == expected
    assert default_valid_until(catalog, "nca-aiio", earned) == expected
    assert cert_expiry(HeldCertification(id="nca-aiio", earned=earned), catalog) == expected
    person = Person(id="p", name="P", certifications=(HeldCertification(id="nca-aiio", earned=earned),))
    assert "nca-aiio" in held_valid(person, catalog, expected - timedelta(days=1))
    assert "nca-aiio" not in held_valid(person, catalog, expected)


def test_given_expiry_wins_and_unknown_validity_never_expires() -> None:
    catalog = load_catalog()
    given = date(2027, 6, 1)
    assert certificate_expiry(catalog, "nca-aiio", date(2027, 1, 31), given) == given
    assert certificate_expiry(catalog, "no-such-cert", date(2027, 1, 31)) is None
    assert certificate_expiry(None, "nca-aiio", date(2027, 1, 31)) is None
