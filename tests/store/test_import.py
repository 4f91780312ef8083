"""Roster and certification imports: happy paths, locales, and all-or-nothing rejection."""

from __future__ import annotations

import io
from datetime import date
from typing import Any

import pytest

from gputeam.store import (
    Database,
    ImportRejected,
    current_skills,
    export_data,
    get_person_by_key,
    import_certifications,
    import_roster,
    list_certifications,
    list_people,
    list_teams,
)

ROSTER = (
    (
        "id,name,email,title,background,level,experience_months,weekly_study_hours,salary,"
        "role,team,linux,networking,cuda-drivers\n"
    )
    + """\
p1,Ana Lima,ana@example.org,SRE,sysadmin,3,24,4.5,120000,operations-engineer,Ops,3,2,
p2,Bo Chen,,Network engineer,network-engineer,2,6,6,,network-specialist,Fabric,2,3,1
p3,Cy Diaz,cy@example.org,,developer,1,0,8,90000.50,,Ops,1,,
"""
)
CERTS = """person,certification,valid_from,valid_until,evidence
p1,nca-aiio,2025-01-10,,https://cred.example/1
p2,CKA,10.02.2025,2027-02-10,
p2,ncp-ain,2025-06-01,,
"""


def snapshot(db: Database, org_id: int) -> dict[str, Any]:
    with db.session() as s:
        return export_data(s, org_id)


def load(db: Database, org_id: int) -> None:
    with db.session() as s:
        import_roster(s, org_id, ROSTER.encode(), filename="roster.csv", actor="t")
        import_certifications(s, org_id, CERTS.encode(), filename="certs.csv", actor="t")


def test_roster_and_certifications_happy_path(db: Database, org_id: int) -> None:
    with db.session() as s:
        r = import_roster(s, org_id, ROSTER.encode(), filename="roster.csv", actor="t")
        assert (r.created, r.updated, r.unchanged, r.teams_created) == (3, 0, 0, ["Fabric", "Ops"])
        c = import_certifications(s, org_id, CERTS.encode(), filename="certs.csv")
        assert c.created == 3
    with db.session() as s:
        people = {p.key: p for p in list_people(s, org_id)}
        assert people["p1"].weekly_study_hours == 4.5 and people["p1"].salary == 120000
        assert people["p2"].email is None and people["p2"].role == "network-specialist"
        assert people["p3"].salary == 90000.5 and people["p3"].level == 1
        assert {t.name for t in list_teams(s, org_id)} == {"Ops", "Fabric"}
        skills = current_skills(s, org_id=org_id)
        assert skills[people["p2"].id] == {"linux": 2, "networking": 3, "cuda-drivers": 1}
        certs = {(c.person.key, c.cert_id): c for c in list_certifications(s, org_id=org_id)}
        assert certs["p2", "cka"].valid_from == date(2025, 2, 10)
        assert certs["p1", "nca-aiio"].valid_until is not None  # from the catalog validity
        assert certs["p1", "nca-aiio"].evidence == "https://cred.example/1"


def test_reimport_is_idempotent_and_updates_changes(db: Database, org_id: int) -> None:
    load(db, org_id)
    with db.session() as s:
        r = import_roster(s, org_id, ROSTER.encode(), filename="roster.csv")
        c = import_certifications(s, org_id, CERTS.encode(), filename="certs.csv")
    assert (r.created, r.updated, r.unchanged, r.skill_ratings) == (0, 0, 3, 0)
    assert (c.created, c.updated, c.unchanged) == (0, 0, 3)
    changed = "id,level,linux,team\np1,4,4,Fabric\n"
    with db.session() as s:
        r = import_roster(s, org_id, changed.encode(), filename="change.csv")
        assert (r.updated, r.skill_ratings) == (1, 1)
    with db.session() as s:
        p1 = get_person_by_key(s, org_id, "p1")
        assert p1 is not None and p1.level == 4 and p1.name == "Ana Lima"
        assert p1.team is not None and p1.team.name == "Fabric"
        assert current_skills(s, [p1.id])[p1.id]["linux"] == 4


def test_dry_run_writes_nothing(db: Database, org_id: int) -> None:
    before = snapshot(db, org_id)
    with db.session() as s:
        r = import_roster(s, org_id, ROSTER.encode(), filename="roster.csv", dry_run=True)
    assert r.dry_run and r.created == 3 and r.teams_created == ["Fabric", "Ops"]
    assert snapshot(db, org_id) == before


def test_column_mapping(db: Database, org_id: int) -> None:
    data = "Personalnummer;Name;Stufe;Notizen;Linux\n007;Eva;2;whatever;3\n"
    with db.session() as s:
        import_roster(
            s,
            org_id,
            data.encode(),
            filename="de.csv",
            mapping={"Personalnummer": "id", "Stufe": "level", "Notizen": "-"},
        )
    with db.session() as s:
        p = get_person_by_key(s, org_id, "007")
        assert p is not None and p.level == 2
        assert current_skills(s, [p.id])[p.id] == {"linux": 3}


@pytest.mark.parametrize("encoding", ["utf-8-sig", "cp1252"])
def test_locale_csv_semicolons_decimal_commas_bom(db: Database, org_id: int, encoding: str) -> None:
    data = (
        "ID;Name;Level;Weekly study hours;Salary;Team;Linux\r\n"
        "p1;José Müller;3;4,5;85.000,50;Équipe Süd;2\r\n"
        "p2;Zoë Ångström;2;2,0;72000;Équipe Süd;proficient\r\n"
    )
    with db.session() as s:
        r = import_roster(s, org_id, data.encode(encoding), filename="excel.csv")
    assert r.created == 2
    with db.session() as s:
        people = {p.key: p for p in list_people(s, org_id)}
        assert people["p1"].name == "José Müller"
        assert people["p1"].weekly_study_hours == 4.5
        assert people["p1"].salary == 85000.5
        assert people["p2"].name == "Zoë Ångström" and people["p2"].salary == 72000
        assert people["p1"].team is not None and people["p1"].team.name == "Équipe Süd"
        assert current_skills(s, [people["p2"].id])[people["p2"].id] == {"linux": 3}
    certs = "person;certification;valid_from\np1;cka;31.01.2025\n"
    with db.session() as s:
        import_certifications(s, org_id, certs.encode(encoding), filename="c.csv")
    with db.session() as s:
        assert list_certifications(s, org_id=org_id)[0].valid_from == date(2025, 1, 31)


def test_xlsx_import(db: Database, org_id: int) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.append(["id", "name", "level", "weekly_study_hours", "linux"])
    ws.append(["p1", "Ana", 3, 4.5, 2])
    ws.append([None, None, None, None, None])
    ws.append([42, "Num", 2, 6, None])
    certs = wb.create_sheet("certs")
    certs.append(["person", "certification", "valid_from"])
    certs.append(["p1", "cka", date(2025, 3, 1)])
    buf = io.BytesIO()
    wb.save(buf)
    with db.session() as s:
        assert import_roster(s, org_id, buf.getvalue(), filename="r.xlsx").created == 2
        assert import_certifications(s, org_id, buf.getvalue(), filename="r.xlsx", sheet="certs").created == 1
    with db.session() as s:
        assert {p.key for p in list_people(s, org_id)} == {"p1", "42"}
        assert list_certifications(s, org_id=org_id)[0].valid_from == date(2025, 3, 1)


BAD_ROSTERS = {
    "unknown column": ("id,name,shoe_size\np9,X,42\n", [(1, "shoe_size", "unknown column")]),
    "missing id column": ("name,level\nX,1\n", [(1, "id", "missing required column 'id'")]),
    "several bad rows": (
        "id,name,level,weekly_study_hours,role,email,linux,active\n"
        "p9,New One,7,4,,,2,yes\n"  # level out of range
        ",Nameless,2,4,,,,\n"  # missing id
        "p10,,2,4,,,,\n"  # new person without a name
        "p11,X,2,four,,,,\n"  # not a number
        "p12,Y,2,4,wizard,,,\n"  # unknown role
        "p13,Z,2,4,,not-an-email,9,maybe\n"  # bad email, proficiency, boolean
        "p11,Dup,2,4,,,,\n"  # duplicate id
        "p14,W,2,4,,,,,extra\n",  # value outside the header
        [
            (2, "level", "out of range"),
            (3, "id", "missing id"),
            (4, "name", "missing name for a new person"),
            (5, "weekly_study_hours", "not a number"),
            (6, "role", "unknown role"),
            (7, "active", "not yes/no"),
            (7, "email", "not an e-mail address"),
            (7, "linux", "proficiency out of range"),
            (8, "id", "duplicate id (first at row 5)"),
            (9, "column 9", "value outside the header's columns"),
        ],
    ),
}


@pytest.mark.parametrize("case", list(BAD_ROSTERS))
def test_malformed_roster_changes_nothing(db: Database, org_id: int, case: str) -> None:
    load(db, org_id)
    before = snapshot(db, org_id)
    data, expected = BAD_ROSTERS[case]
    # the good first row of ROSTER updates p1, so a partial write would show
    data = data.replace("\n", "\np1,Changed Name\n", 1) if case == "several bad rows" else data
    with pytest.raises(ImportRejected) as info, db.session() as s:
        import_roster(s, org_id, data.encode(), filename="bad.csv")
    got = [(p.line, p.path, p.message) for p in info.value.problems]
    if case == "several bad rows":  # rows shifted by the inserted good row
        expected = [
            (line + 1 if line > 1 else line, col, msg.replace("row 5", "row 6"))
            for line, col, msg in expected
        ]
    assert got == expected
    assert all(p.file == "bad.csv" for p in info.value.problems)
    assert snapshot(db, org_id) == before


BAD_CERTS = (
    "person,certification,valid_from,valid_until\n"
    "p1,cka,2025-01-01,\n"  # good
    "nobody,cka,2025-01-01,\n"  # unknown person
    "p1,ckaa,2025-01-01,\n"  # unknown certification
    "p2,cka,2025-13-01,\n"  # no such date
    "p2,cka,03/04/2025,\n"  # ambiguous date
    "p2,ncp-aii,2025-05-01,2024-01-01\n"  # expiry before earned
    "p3,cka,,\n"  # missing date
    "p1,cka,2025-01-01,\n"  # duplicate of row 2
)


def test_malformed_certifications_change_nothing(db: Database, org_id: int) -> None:
    load(db, org_id)
    before = snapshot(db, org_id)
    with pytest.raises(ImportRejected) as info, db.session() as s:
        import_certifications(s, org_id, BAD_CERTS.encode(), filename="c.csv")
    got = [(p.line, p.path, p.message) for p in info.value.problems]
    assert got == [
        (3, "person", "no person with this id"),
        (4, "certification", "unknown certification"),
        (5, "valid_from", "no such date"),
        (6, "valid_from", "ambiguous date (day/month or month/day?)"),
        (7, "valid_until", "before valid_from"),
        (8, "valid_from", "missing date"),
        (9, "certification", "same certificate as row 2"),
    ]
    hint = info.value.problems[1].hint
    assert hint is not None and "cka" in hint
    assert snapshot(db, org_id) == before


def test_unreadable_xlsx_is_rejected(db: Database, org_id: int) -> None:
    with pytest.raises(ImportRejected) as info, db.session() as s:
        import_roster(s, org_id, b"PK\x03\x04 not really a zip", filename="r.xlsx")
    assert "XLSX" in info.value.problems[0].message


def test_mapping_to_an_unknown_field_is_reported(db: Database, org_id: int) -> None:
    with pytest.raises(ImportRejected) as info, db.session() as s:
        import_roster(
            s,
            org_id,
            b"Nr;Name;Kenntnisse Linux\n1;A;2\n",
            filename="m.csv",
            mapping={"Nr": "id", "Kenntnisse Linux": "shoe"},
        )
    assert [(p.line, p.path) for p in info.value.problems] == [(1, "Kenntnisse Linux")]
    with db.session() as s:
        import_roster(
            s,
            org_id,
            b"Nr;Name;Kenntnisse Linux\n1;A;2\n",
            filename="m.csv",
            mapping={"Nr": "id", "Kenntnisse Linux": "Linux"},
        )
        assert current_skills(s, org_id=org_id) != {}


def _statistics(db: Database, table: str) -> int:
    """How many statistics rows the database keeps about ``table`` (0: never analysed)."""
    from sqlalchemy import text

    with db.engine.connect() as conn:
        if db.dialect == "postgresql":
            return int(
                conn.execute(
                    text(
                        "SELECT count(*) FROM pg_stats WHERE schemaname = current_schema() AND tablename = :t"
                    ),
                    {"t": table},
                ).scalar_one()
            )
        has = conn.execute(
            text("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'")
        ).scalar_one()
        if not has:
            return 0
        return int(
            conn.execute(text("SELECT count(*) FROM sqlite_stat1 WHERE tbl = :t"), {"t": table}).scalar_one()
        )


def test_large_import_refreshes_planner_statistics(db: Database, org_id: int) -> None:
    """A large import leaves the planner statistics of what it wrote up to date (else
    PostgreSQL plans queries on the new rows as if the table were empty); a dry run or a
    small import does not analyse."""
    rows = ["id,name,level,linux"] + [f"e{i},Person {i},2,3" for i in range(600)]
    small = b"id,name,level\nx1,Xena,2\n"
    with db.session() as s:
        import_roster(s, org_id, small)
    assert _statistics(db, "people") == 0
    with db.session() as s:
        import_roster(s, org_id, "\n".join(rows).encode(), dry_run=True)
    assert _statistics(db, "people") == 0
    with db.session() as s:
        import_roster(s, org_id, "\n".join(rows).encode())
    assert _statistics(db, "people") > 0
    assert _statistics(db, "skill_ratings") > 0
    certs = ["person,certification,valid_from"] + [f"e{i},nca-aiio,2025-01-0{1 + i % 9}" for i in range(600)]
    with db.session() as s:
        import_certifications(s, org_id, "\n".join(certs).encode())
    assert _statistics(db, "certifications_held") > 0
