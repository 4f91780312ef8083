"""The store's one-line text rule (person_rules.text_fault: no control characters, no line
breaks, no bidirectional overrides; stored in NFC) holds for every one-line text the store
keeps, not only a person's fields and team names: a token's name, a skill rating's note, a
certificate's evidence, a roadmap item's title. Refused with the field named, at the store,
so every door (API, forms, imports) gets it; on both engines."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from sqlalchemy.orm import Session

from gputeam import store
from gputeam.store import Database, StoreError

DAY = date(2026, 12, 1)
BAD = [
    ("line\nbreak", "contains a line break (U+000A)"),
    ("carriage\rreturn", "contains a line break (U+000D)"),
    ("evil\u202eexe.txt", "contains a bidirectional text control (U+202E)"),
    ("bell\x07", "contains a control character (U+0007)"),
]


def _person(s: Session, org_id: int) -> int:
    return store.add_person(s, org_id, key="p1", name="Ada").id


def _token(s: Session, org_id: int, text: str) -> Any:
    user = store.create_user(s, "ada", "correct horse battery", "engineer")
    return store.create_token(s, user.id, text, ["read"])[0].name


def _note(s: Session, org_id: int, text: str) -> Any:
    return store.rate_skill(s, _person(s, org_id), "linux", 3, note=text).note


def _evidence(s: Session, org_id: int, text: str) -> Any:
    return store.add_certification(s, _person(s, org_id), "nca-aiio", DAY, evidence=text).evidence


def _title(s: Session, org_id: int, text: str) -> Any:
    return store.add_roadmap_item(
        s, _person(s, org_id), kind="course", ref="x", title=text, start=DAY, due=DAY
    ).title


def _retitle(s: Session, org_id: int, text: str) -> Any:
    item = store.add_roadmap_item(
        s, _person(s, org_id), kind="course", ref="x", title="T", start=DAY, due=DAY
    )
    return store.update_roadmap_item(s, item.id, {"title": text}).title


WRITES: dict[str, tuple[Callable[[Session, int, str], Any], str]] = {
    "token name": (_token, "token.name"),
    "skill note": (_note, "note"),
    "certificate evidence": (_evidence, "evidence"),
    "roadmap item title": (_title, "title"),
    "roadmap item title changed": (_retitle, "title"),
}


@pytest.mark.parametrize("what", sorted(WRITES))
@pytest.mark.parametrize(("text", "message"), BAD)
def test_control_characters_are_refused_naming_the_field(
    db: Database, org_id: int, what: str, text: str, message: str
) -> None:
    write, path = WRITES[what]
    with pytest.raises(StoreError) as err, db.session() as s:
        write(s, org_id, text)
    (problem,) = err.value.problems
    assert (problem.path, problem.message) == (path, message)
    assert problem.found == repr(text)[1:-1]  # escaped, as shown to the user


@pytest.mark.parametrize("what", sorted(WRITES))
def test_text_is_stored_in_nfc(db: Database, org_id: int, what: str) -> None:
    write, _path = WRITES[what]
    with db.session() as s:
        assert write(s, org_id, "Mu\u0308ller") == "M\u00fcller"


def test_a_certificate_import_refuses_evidence_over_two_lines(db: Database, org_id: int) -> None:
    with db.session() as s:
        _person(s, org_id)
    rows = 'person,certification,valid_from,evidence\np1,nca-aiio,2026-01-01,"first\nsecond"\n'
    with pytest.raises(store.ImportRejected) as err, db.session() as s:
        store.import_certifications(s, org_id, rows.encode(), filename="certs.csv")
    (problem,) = err.value.problems
    assert (problem.line, problem.path, problem.message) == (2, "evidence", "contains a line break (U+000A)")
