"""Export to JSON, CSV and XLSX; what is exported imports back unchanged."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from gputeam.store import (
    Database,
    add_roadmap_item,
    create_organisation,
    create_user,
    enrol,
    export_csv,
    export_data,
    export_json,
    export_xlsx,
    get_person_by_key,
    import_certifications,
    import_roster,
    save_plan,
    save_scenario,
)

from .test_import import load


def _comparable(data: dict[str, Any]) -> dict[str, Any]:
    return {k: data["tables"][k] for k in ("teams", "people", "certifications")}


def _fill(db: Database, org_id: int) -> None:
    load(db, org_id)
    with db.session() as s:
        p1 = get_person_by_key(s, org_id, "p1")
        assert p1 is not None
        enrol(s, p1.id, "intro-ai-infrastructure", date(2026, 1, 1), hours_done=3)
        add_roadmap_item(
            s,
            p1.id,
            kind="exam",
            ref="ncp-aii",
            title="NCP-AII exam",
            start=date(2026, 3, 1),
            due=date(2026, 3, 15),
        )
        sc = save_scenario(s, org_id, "main", {"organisation": "Acme"})
        save_plan(s, sc.id, {"roadmaps": []}, date(2026, 12, 2))
        create_user(s, "ana", "a sturdy pass 12", "engineer", person_id=p1.id)


def test_json_export_has_every_table_and_no_secrets(db: Database, org_id: int) -> None:
    _fill(db, org_id)
    with db.session() as s:
        data = json.loads(export_json(s, org_id))
    tables = data["tables"]
    assert set(tables) == {
        "teams",
        "people",
        "certifications",
        "skill_ratings",
        "enrolments",
        "roadmap_items",
        "scenarios",
        "plans",
        "users",
        "audit_log",
    }
    assert len(tables["people"]) == 3 and len(tables["certifications"]) == 3
    assert tables["users"] == [
        {"username": "ana", "role": "engineer", "person": "p1", "teams": "", "active": True}
    ]
    assert "password" not in json.dumps(data).replace("password_changed", "")
    assert tables["plans"][0]["plan"] == {"roadmaps": []}


def test_csv_round_trip(db: Database, org_id: int) -> None:
    _fill(db, org_id)
    with db.session() as s:
        first = export_data(s, org_id)
        files = export_csv(s, org_id)
        other = create_organisation(s, "Copy").id
    assert files["people.csv"].splitlines()[0].startswith("id,name,email,")
    with db.session() as s:
        import_roster(s, other, files["people.csv"].encode(), filename="people.csv")
        import_certifications(s, other, files["certifications.csv"].encode(), filename="certifications.csv")
    with db.session() as s:
        assert _comparable(export_data(s, other)) == _comparable(first)


def test_xlsx_round_trip(db: Database, org_id: int) -> None:
    _fill(db, org_id)
    with db.session() as s:
        first = export_data(s, org_id)
        book = export_xlsx(s, org_id)
        other = create_organisation(s, "Copy").id
    with db.session() as s:
        import_roster(s, other, book, filename="export.xlsx", sheet="people")
        import_certifications(s, other, book, filename="export.xlsx", sheet="certifications")
    with db.session() as s:
        assert _comparable(export_data(s, other)) == _comparable(first)


def test_empty_organisation_exports_headers(db: Database, org_id: int) -> None:
    with db.session() as s:
        files = export_csv(s, org_id, include_audit=False)
    assert files["people.csv"].startswith("id,name,")
    assert files["certifications.csv"].startswith("person,certification,valid_from")


def test_control_characters_do_not_break_any_format(db: Database, org_id: int) -> None:
    from openpyxl import load_workbook

    from gputeam.store import Person

    with db.session() as s:
        # stored before the store refused control characters (issue 9): still exported
        s.add(Person(org_id=org_id, key="ctl", name="Bell\x07Name", title="Tab\tand"))
        s.flush()
        assert "Bell\\u0007Name" in export_json(s, org_id)
        assert "Bell\x07Name" in export_csv(s, org_id)["people.csv"]
        book = export_xlsx(s, org_id)
    import io

    ws = load_workbook(io.BytesIO(book))["people"]
    assert ws["B2"].value == "Bell\ufffdName"
