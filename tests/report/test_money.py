"""Money has one home (issue 8, §7): every door writes an amount the same way."""

from __future__ import annotations

from gputeam.report import tables, xlsx
from gputeam.web import fmt


def test_every_door_writes_money_the_same_way() -> None:
    for value, currency in ((1234.4, "USD"), (-56_789.0, "EUR"), (0.0, "CHF"), (99.6, "SEK")):
        expected = tables.money(value, currency)
        assert fmt.money(value, currency) == expected
    assert tables.money(-5, "USD") == "-$5"
    assert tables.money(1234, "SEK") == "1,234 SEK"
    assert fmt.money(None) == "–"


def test_spreadsheets_use_the_same_symbols() -> None:
    for currency in ("USD", "EUR", "GBP", "JPY", "CHF", "SEK"):
        symbol = tables.currency_symbol(currency)
        code = xlsx._money_format(currency)
        assert (f'"{symbol}"' in code) if symbol else (f'"{currency}"' in code)
