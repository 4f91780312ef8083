"""Cell parsing and file reading, whatever the locale (no database needed)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gputeam.store as store
from gputeam.store import read_table
from gputeam.store.settings import database_url
from gputeam.store.tables import BadCell, boolean, day, integer, number


def _group(digits: str, sep: str) -> str:
    head = len(digits) % 3 or 3
    parts = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return sep.join(parts)


@given(
    st.integers(min_value=0, max_value=10**9),
    st.integers(min_value=0, max_value=99),
    st.sampled_from([(".", ","), (",", "."), (" ", ","), ("\u00a0", ","), ("", ",")]),
)
def test_numbers_parse_in_every_locale(whole: int, cents: int, seps: tuple[str, str]) -> None:
    """A number written with any common thousands separator and decimal mark, with two
    decimals, parses to the same value (in a ';'-separated, decimal-comma file too)."""
    thousands, decimal = seps
    written = f"{_group(str(whole), thousands)}{decimal}{cents:02d}"
    expected = whole + cents / 100
    assert number(written, decimal_comma=decimal == ",") == pytest.approx(expected)
    if thousands != ",":
        assert number(written, decimal_comma=False) == pytest.approx(expected)


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2200, 12, 31)))
def test_dates_parse_in_iso_and_dotted_form(d: date) -> None:
    """ISO and day-first dotted dates always parse to the date written."""
    assert day(d.isoformat()) == d
    assert day(f"{d.day:02d}.{d.month:02d}.{d.year}") == d
    assert day(f"{d.day}.{d.month}.{d.year}") == d


def test_cell_parsers_refuse_garbage() -> None:
    for bad in ("abc", "1,2,3,4.5.6", "", "nan", "inf"):
        with pytest.raises(BadCell):
            number(bad)
    with pytest.raises(BadCell):
        integer("2.5")
    with pytest.raises(BadCell, match="ambiguous"):
        day("03/04/2025")
    assert day("13/04/2025") == date(2025, 4, 13) and day("04/13/2025") == date(2025, 4, 13)
    assert boolean("Ja") is True and boolean("no") is False
    with pytest.raises(BadCell):
        boolean("maybe")


def test_read_table_detects_separator_bom_and_encoding() -> None:
    t = read_table("\ufeffid;name\r\n1;Zoë\r\n\r\n2;Bo\r\n".encode(), filename="x.csv")
    assert (t.header, t.delimiter, t.encoding, t.decimal_comma) == (["id", "name"], ";", "utf-8-sig", True)
    assert t.rows == [(2, ["1", "Zoë"]), (4, ["2", "Bo"])]  # blank row 3 skipped, numbering kept
    t = read_table("id\tname\n1\tJosé\n".encode("cp1252"), filename="x.csv")
    assert t.delimiter == "\t" and t.encoding == "cp1252" and t.rows[0][1] == ["1", "José"]
    t = read_table(b'id,name\n1,"Smith, Jo"\n', filename="x.csv")
    assert t.rows[0][1] == ["1", "Smith, Jo"]


def test_database_url_resolution() -> None:
    assert database_url("sqlite:///x.db", {"GPUTEAM_DB": "sqlite:///y.db"}) == "sqlite:///x.db"
    assert database_url(None, {"GPUTEAM_DB": "postgresql://u@h/db"}) == "postgresql+psycopg://u@h/db"
    default = database_url(None, {})
    assert default.startswith("sqlite:///") and default.endswith("gputeam.db")


def test_public_api_matches_all() -> None:
    """Everything in ``__all__`` exists, and every public name is listed."""
    import types

    exported = set(store.__all__)
    assert all(hasattr(store, n) for n in exported)
    public = {
        n for n, v in vars(store).items() if not n.startswith("_") and not isinstance(v, types.ModuleType)
    }
    assert public == exported
