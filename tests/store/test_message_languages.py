"""The store's refusals in the user's language (issue 13 §1): exam, credential, programme,
account and team rules are English in the store, marked for translation where they are
written, and shown translated (``Problem.__str__``: what the CLI prints; the web's pages and
problem documents use the same ``Problem.localised``)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from gputeam import i18n, store
from gputeam.catalog import load_catalog
from gputeam.errors import InputError
from gputeam.store import Database

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


def refusal(call: Any) -> InputError:
    with pytest.raises(InputError) as caught:
        call()
    return caught.value


def shown(error: InputError, language: str) -> str:
    with i18n.use(language):
        return str(error)


def test_store_refusals_in_german_and_korean(db: Database, org_id: int) -> None:
    catalog = load_catalog()
    with db.session() as s:
        ada = store.add_person(s, org_id, key="p1", name="Ada", email="ada@example.org").id
        store.add_certification(s, ada, "nca-aiio", date(2024, 1, 15), date(2027, 1, 15))
        store.create_user(s, "ada", "correct horse battery", "engineer", person_id=ada)
        taken = refusal(lambda: store.create_user(s, "ada", "correct horse battery", "viewer"))
        short = refusal(lambda: store.hash_password("short"))
        issue = dict(catalog=catalog, secret="s" * 40, base_url="https://gputeam.example", now=NOW)
        not_held = refusal(lambda: store.issue_credential(s, org_id, ada, "cka", **issue))
        uuid = store.issue_credential(s, org_id, ada, "nca-aiio", **issue).uuid
        no_reason = refusal(lambda: store.revoke_credential(s, org_id, uuid, " ", now=NOW))
        store.revoke_credential(s, org_id, uuid, "left", now=NOW)
        twice = refusal(lambda: store.revoke_credential(s, org_id, uuid, "again", now=NOW))
        code = refusal(lambda: store.save_programme(s, org_id, "Bad Code!", {}, catalog=catalog))
    assert shown(taken, "de") == "username: bereits vergeben; gefunden ada"
    assert shown(short, "de") == "password: zu kurz; erwartet mindestens 8 Zeichen"
    assert shown(not_held, "de") == (
        "achievement: Ada hat am 2026-12-02 keine gültige Zertifizierung cka; gefunden cka; "
        "erwartet eine Zertifizierung, die die Person hat und die heute gültig ist"
    )
    assert shown(no_reason, "de") == (
        "reason: geben Sie an, warum der Nachweis widerrufen wird; erwartet ein Grund"
    )
    assert shown(twice, "ko").startswith("credential: 2026-12-02에 이미 폐기되었습니다; ")
    assert "프로그램 코드는 소문자, 숫자" in shown(code, "ko") and "예: acme-operator-l2" in shown(code, "ko")
    # English stays as the store wrote it
    assert str(twice).startswith("credential: already revoked on 2026-12-02")


def test_store_refusals_in_the_pseudo_locale(db: Database, org_id: int) -> None:
    """In the pseudo-locale each message and expectation in words is marked ⟦…⟧ (values,
    paths and lists of ids stay as they are)."""
    catalog = load_catalog()
    with db.session() as s:
        ada = store.add_person(s, org_id, key="p1", name="Ada").id
        viewer = store.create_user(s, "y", "correct horse battery", "viewer").id
        issue = dict(catalog=catalog, secret="s" * 40, base_url="https://gputeam.example", now=NOW)
        errors = [
            refusal(lambda: store.issue_credential(s, org_id, ada, "no-such-cert", **issue)),
            refusal(lambda: store.set_time_multiplier(s, ada, 9.0)),
            refusal(lambda: store.create_user(s, "", "correct horse battery", "viewer")),
            refusal(lambda: store.set_user_language(s, viewer, "fr")),
        ]
    with i18n.use(i18n.PSEUDO):
        local = [p.localised() for e in errors for p in e.problems]
    assert [p.message[0] + p.message[-1] for p in local] == ["⟦⟧"] * 4
    assert [p.expected for p in local] == [
        "⟦a catalog certification id⟧",
        "⟦1.25 for 25 % extra time⟧",
        None,
        "en, de, nl, es, ko",
    ]


def test_a_programme_specs_field_refusals_in_german(db: Database, org_id: int) -> None:
    """A spec whose fields break their limits (pydantic's checks) is refused field by field
    in the language, worded by the same rule as a scenario's fields; the catalog checks too."""
    catalog = load_catalog()
    spec = {
        "name": "ACME Operator",
        "certification": "nca-aiio",
        "blueprint": {"questions": 0, "minutes": 60, "pass_mark": 1.5},
    }
    with db.session() as s:
        bad = refusal(lambda: store.save_programme(s, org_id, "acme-l2", spec, catalog=catalog))
        unknown = refusal(
            lambda: store.save_programme(
                s,
                org_id,
                "acme-l2",
                {
                    **spec,
                    "blueprint": {"questions": 10, "minutes": 60, "pass_mark": 0.7},
                    "certification": "nope",
                },
                catalog=catalog,
            )
        )
    german = shown(bad, "de")
    assert "blueprint.questions: Eingabe muss größer oder gleich 1 sein" in german, german
    assert "blueprint.pass_mark: Eingabe muss kleiner oder gleich 1 sein" in german, german
    assert "Input should" not in german
    assert "blueprint.questions: Input should be greater than or equal to 1" in str(bad)
    assert "certification: keine Zertifizierung des verwendeten Katalogs" in shown(unknown, "de")
