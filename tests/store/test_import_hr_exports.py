"""Roster files exported from HR systems (Workday, SAP SuccessFactors, BambooHR, Personio):
their usual headers are recognised, first and last name columns are combined into the
person's name (whichever comes first in the file), HR columns the roster has no field for
(hire date, cost center) are ignored with a note, and a hint for an unknown column only
ever names a field or alias that is close to what the user typed."""

from __future__ import annotations

import difflib
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gputeam.store import Database, ImportRejected, import_roster, list_people, list_teams
from gputeam.store.import_tables import (
    HINT_CUTOFF,
    ROSTER_ALIASES,
    ROSTER_FIELDS,
    column_hint,
    normalise,
)

#: the failing file of the finding: First and Last Name could not both be the name
OLD_FAILING = """\
Employee ID,First Name,Last Name,Work Email,Job Title,Department,Hire Date
E-1001,Ada,Lovelace,ada@example.org,Platform engineer,GPU Ops,2021-03-01
E-1002,Grace,Hopper,grace@example.org,SRE,GPU Ops,2019-11-15
"""

#: each vendor's typical header row, and one person's cells under it
VENDORS = {
    "workday": (
        "Employee_ID,Legal_First_Name,Legal_Last_Name,Preferred_Name,Primary_Work_Email,"
        "Business_Title,Supervisory_Organization,Original_Hire_Date,Cost_Center,Location",
        "21001,Margaret,Hamilton,,margaret@example.org,SRE,GPU Ops,2020-01-06,CC-42,Berlin",
    ),
    "successfactors": (
        "USERID,FIRSTNAME,LASTNAME,EMAIL,TITLE,DEPARTMENT,DIVISION,HIREDATE",
        "sf-7,Margaret,Hamilton,margaret@example.org,SRE,GPU Ops,Infrastructure,2020-01-06",
    ),
    "bamboohr": (
        "Employee #,Last Name,First Name,Work Email,Job Title,Department,Division,Hire Date,Location",
        "17,Hamilton,Margaret,margaret@example.org,SRE,GPU Ops,Infrastructure,01/06/2020,Berlin",
    ),
    "personio": (
        "Personnel number,First name,Last name,Email,Position,Department,Office,Hire date,Supervisor",
        "1042,Margaret,Hamilton,margaret@example.org,SRE,GPU Ops,Berlin,2020-01-06,Grace Hopper",
    ),
}


def test_the_old_failing_file_imports(db: Database, org_id: int) -> None:
    with db.session() as s:
        report = import_roster(s, org_id, OLD_FAILING.encode(), filename="hr.csv")
    assert (report.created, report.teams_created) == (2, ["GPU Ops"])
    assert [a["name"] for a in report.added] == ["Ada Lovelace", "Grace Hopper"]
    assert "column 'Hire Date' ignored: the roster has no field for it" in report.notes
    with db.session() as s:
        people = {p.key: p for p in list_people(s, org_id)}
        teams = {t.id: t.name for t in list_teams(s, org_id)}
    ada = people["E-1001"]
    assert (ada.name, ada.email, ada.title, teams[ada.team_id]) == (
        "Ada Lovelace",
        "ada@example.org",
        "Platform engineer",
        "GPU Ops",
    )


@pytest.mark.parametrize("vendor", sorted(VENDORS))
def test_each_vendors_export_imports_with_the_right_names(db: Database, org_id: int, vendor: str) -> None:
    header, row = VENDORS[vendor]
    with db.session() as s:
        report = import_roster(s, org_id, f"{header}\n{row}\n".encode(), filename=f"{vendor}.csv")
    assert report.created == 1
    with db.session() as s:
        (person,) = list_people(s, org_id)
        teams = {t.id: t.name for t in list_teams(s, org_id)}
    assert (person.name, person.email, person.title, teams[person.team_id]) == (
        "Margaret Hamilton",
        "margaret@example.org",
        "SRE",
        "GPU Ops",
    )


def test_a_preferred_name_stands_in_for_the_first_name(db: Database, org_id: int) -> None:
    data = "Employee ID,First Name,Preferred Name,Last Name\n1,Margaret,Maggie,Hamilton\n2,Ada,,Lovelace\n"
    with db.session() as s:
        report = import_roster(s, org_id, data.encode(), filename="p.csv")
    assert [a["name"] for a in report.added] == ["Maggie Hamilton", "Ada Lovelace"]


def test_name_parts_through_the_column_map(db: Database, org_id: int) -> None:
    data = "Nr;Nachname;Vorname\n1;Lovelace;Ada\n"
    with db.session() as s:
        report = import_roster(
            s,
            org_id,
            data.encode(),
            filename="m.csv",
            mapping={"Nr": "id", "Vorname": "first_name", "Nachname": "name:last"},
        )
    assert [a["name"] for a in report.added] == ["Ada Lovelace"]


def test_a_whole_name_and_its_parts_is_refused(db: Database, org_id: int) -> None:
    data = "id,name,first name,last name\n1,Ada Lovelace,Ada,Lovelace\n"
    with pytest.raises(ImportRejected) as info, db.session() as s:
        import_roster(s, org_id, data.encode(), filename="both.csv")
    assert {p.path for p in info.value.problems} == {"first name", "last name"}
    assert "holds the whole name" in info.value.problems[0].message


def test_a_new_person_with_blank_name_parts_is_refused_at_those_columns(db: Database, org_id: int) -> None:
    data = "id,First Name,Last Name\n1,,\n"
    with pytest.raises(ImportRejected) as info, db.session() as s:
        import_roster(s, org_id, data.encode(), filename="blank.csv")
    (problem,) = info.value.problems
    assert (problem.line, problem.path, problem.message) == (
        2,
        "First Name + Last Name",
        "missing name for a new person",
    )


def test_unknown_columns_are_still_reported(db: Database, org_id: int) -> None:
    data = "Employee ID,First Name,Last Name,Shoe Size\n1,Ada,Lovelace,38\n"
    with pytest.raises(ImportRejected) as info, db.session() as s:
        import_roster(s, org_id, data.encode(), filename="shoe.csv")
    assert [(p.path, p.message) for p in info.value.problems] == [("Shoe Size", "unknown column")]


NAME_WORD = st.text(
    alphabet=st.characters(whitelist_categories=("Lu", "Ll", "Lo"), max_codepoint=0x2FFF),
    min_size=1,
    max_size=12,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=NAME_WORD, last=NAME_WORD, last_first=st.booleans())
def test_property_first_and_last_name_in_either_order_make_first_last(
    db: Database, org_id: int, first: str, last: str, last_first: bool
) -> None:
    """For any split of a name into first and last, with the columns in either order, the
    imported name is "first last" (as every name is stored: Unicode NFC)."""
    header, cells = (
        ("Last Name,First Name", f"{last},{first}")
        if last_first
        else ("First Name,Last Name", f"{first},{last}")
    )
    data = f"Employee ID,{header}\nx1,{cells}\n"
    with db.session() as s:
        report = import_roster(s, org_id, data.encode(), filename="names.csv", dry_run=True)
    assert report.added[0]["name"] == unicodedata.normalize("NFC", f"{first} {last}")


HEADERS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz _-:", min_size=1, max_size=20)


@settings(max_examples=300, deadline=None)
@given(header=HEADERS | st.sampled_from(["First Name", "Last Name", "Hire Dat", "Emial", "nmae"]))
def test_property_a_hint_is_never_a_field_below_the_cutoff(header: str) -> None:
    """The hint for a header names a field or alias at least HINT_CUTOFF alike to it."""
    hint = column_hint(header, ROSTER_FIELDS, ROSTER_ALIASES)
    if hint is None:
        return
    named = hint.split("'")[1]
    assert named in (*ROSTER_FIELDS, *ROSTER_ALIASES)
    assert difflib.SequenceMatcher(None, normalise(header), named).ratio() >= HINT_CUTOFF


def test_first_name_is_no_longer_hinted_as_team_name() -> None:
    assert column_hint("First Nam", ROSTER_FIELDS, ROSTER_ALIASES) == "did you mean 'first_name'?"
    assert column_hint("Shoe Size", ROSTER_FIELDS, ROSTER_ALIASES) is None
    assert column_hint("Emial", ROSTER_FIELDS, ROSTER_ALIASES) == "did you mean 'email'?"
