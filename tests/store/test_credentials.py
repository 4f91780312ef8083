"""Issued credentials on SQLite and PostgreSQL: keys sealed per organisation and created once,
issue only for a valid certification held, random status indexes, revocation in the signed
status list, rotation keeping old credentials verifiable, organisation scoping."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

import pytest

from gputeam import store
from gputeam.catalog import load_catalog
from gputeam.credentials import verify
from gputeam.store.errors import NotFound, StoreError

SECRET = "test-secret-" + "x7Gq2pLm9" * 4
BASE = "https://tracker.acme.example"
NOW = datetime(2026, 12, 2, 9, 30, tzinfo=UTC)
CATALOG = load_catalog()


def _person(
    db: Any,
    org_id: int,
    key: str = "ada",
    cert: str | None = "nca-aiio",
    until: date | None = date(2028, 12, 1),
    since: date = date(2026, 11, 1),
) -> int:
    with db.session() as s:
        p = store.add_person(s, org_id, key=key, name=f"Person {key}", email=f"{key}@acme.example", level=2)
        if cert:
            store.add_certification(s, p.id, cert, since, until)
        return int(p.id)


def _issue(db: Any, org_id: int, person_id: int, cert: str = "nca-aiio") -> tuple[str, dict[str, Any]]:
    with db.session() as s:
        row = store.issue_credential(
            s, org_id, person_id, cert, catalog=CATALOG, secret=SECRET, base_url=BASE, now=NOW, actor="admin"
        )
        return row.uuid, dict(row.document)


def _status(db: Any, doc: dict[str, Any]) -> dict[str, Any]:
    key_id = int(doc["credentialStatus"]["statusListCredential"].rsplit("/", 1)[1])
    with db.session() as s:
        return store.status_list(s, key_id, SECRET, base_url=BASE, now=NOW)


def test_issue_verify_revoke(db: Any, org_id: int) -> None:
    pid = _person(db, org_id)
    uuid, doc = _issue(db, org_id, pid)
    assert doc["id"] == f"urn:uuid:{uuid}"
    assert doc["credentialSubject"]["id"] == "mailto:ada@acme.example"
    # valid from the day the certification is held (not the day of issue), until it expires
    assert doc["validUntil"] == "2028-12-01T00:00:00Z" and doc["validFrom"] == "2026-11-01T00:00:00Z"
    assert doc["proof"]["created"] == "2026-12-02T09:30:00Z"
    # evidence a verifier can open: the credential's public page, not a page behind login
    assert [e["id"].endswith(f"/credentials/{uuid}") for e in doc["evidence"]] == [True]
    assert doc["credentialSubject"]["achievement"]["name"] == CATALOG.certifications["nca-aiio"].name
    aligned = {
        (a["targetFramework"], a.get("targetCode"))
        for a in doc["credentialSubject"]["achievement"]["alignment"]
    }
    # the skill domains NCA-AIIO grants, and the occupation their group belongs to
    grants = {g.domain for g in CATALOG.certifications["nca-aiio"].grants}
    assert {code for fw, code in aligned if fw == "gputeam skill domains"} == grants
    assert ("O*NET-SOC 2019", "15-1244.00") in aligned and ("ISCO-08 (ESCO)", "2522") in aligned
    result = verify(doc, now=NOW, status_list=_status(db, doc))
    assert result.valid, result.as_dict()
    from openbadgeslib.ob3.ldp import OB3LdpVerifier  # an independent OB 3.0 verifier

    assert OB3LdpVerifier.for_issuer_did(doc["issuer"]["id"]).verify(doc) is not None
    with db.session() as s:
        store.revoke_credential(s, org_id, uuid, "issued in error", now=NOW, actor="admin")
    revoked = verify(doc, now=NOW, status_list=_status(db, doc))
    assert not revoked.valid and "revoked" in revoked.checks[3].message
    with db.session() as s:
        with pytest.raises(StoreError, match="already revoked"):
            store.revoke_credential(s, org_id, uuid, "again", now=NOW)
        actions = [(e.action, e.entity) for e in store.list_audit(s, org_id=org_id)]
    assert ("issue", "credential") in actions and ("revoke", "credential") in actions


def test_esco_skill_alignments_are_signed_and_verify(db: Any, org_id: int) -> None:
    """A certification granting mapped skill domains (CCSP: security, cloud) is aligned to
    their ESCO skills; the credential verifies with ours and an independent verifier (the
    alignment's targetType is a term the OB 3.0 context defines, so it is signed)."""
    pid = _person(db, org_id, cert="ccsp")
    _uuid, doc = _issue(db, org_id, pid, cert="ccsp")
    ach = doc["credentialSubject"]["achievement"]
    esco = [a for a in ach["alignment"] if a["targetFramework"] == "ESCO"]
    assert [(a["targetName"], a["targetType"]) for a in esco] == [
        ("information security strategy", "ext:ESCOSkill"),
        ("cloud technologies", "ext:ESCOSkill"),
    ]
    assert all(a["targetUrl"].startswith("http://data.europa.eu/esco/skill/") for a in esco)
    # the Achievement's id is its public page, not the catalog behind login
    assert ach["id"] == f"{BASE}/achievements/ccsp"
    result = verify(doc, now=NOW, status_list=_status(db, doc))
    assert result.valid, result.as_dict()
    from openbadgeslib.ob3.ldp import OB3LdpVerifier

    assert OB3LdpVerifier.for_issuer_did(doc["issuer"]["id"]).verify(doc) is not None
    # the signature covers the alignment: changing the ESCO entry breaks it
    tampered = json.loads(json.dumps(doc))
    for a in tampered["credentialSubject"]["achievement"]["alignment"]:
        if a["targetFramework"] == "ESCO":
            a["targetType"] = "ext:ESCOOccupation"
    assert not verify(tampered, now=NOW).valid


def test_public_achievement_names_its_issuer_and_no_person(db: Any, org_id: int) -> None:
    with db.session() as s:
        # before any key: no creator (a Profile needs an id)
        before = store.public_achievement(s, org_id, CATALOG, "nca-aiio", base_url=BASE)
    assert "creator" not in before and before["id"] == f"{BASE}/achievements/nca-aiio"
    _uuid, doc = _issue(db, org_id, _person(db, org_id))
    with db.session() as s:
        after = store.public_achievement(s, org_id, CATALOG, "nca-aiio", base_url=BASE)
        with pytest.raises(NotFound):
            store.public_achievement(s, org_id, CATALOG, "no-such-cert", base_url=BASE)
        with pytest.raises(NotFound):
            store.public_achievement(s, org_id, CATALOG, "nca-aiio", base_url=BASE, programme="nope")
    assert after["creator"]["id"] == doc["issuer"]["id"]
    assert {k: v for k, v in after.items() if k not in ("@context", "creator")} == (
        doc["credentialSubject"]["achievement"]
    )
    assert "ada" not in json.dumps(after).lower()


def test_a_blank_revoke_reason_is_refused(db: Any, org_id: int) -> None:
    uuid, _doc = _issue(db, org_id, _person(db, org_id))
    for reason in ("", "   ", "\n\t"):
        with db.session() as s, pytest.raises(StoreError, match="say why the credential is revoked"):
            store.revoke_credential(s, org_id, uuid, reason, now=NOW, actor="admin")
    with db.session() as s:
        assert store.get_credential(s, uuid).revoked_at is None
        assert not [e for e in store.list_audit(s, org_id=org_id) if e.action == "revoke"]


def test_status_list_key_reads_only_this_trackers_urls() -> None:
    assert store.status_list_key(BASE, f"{BASE}/credentials/status/12") == 12
    for url in (
        "https://other.example/credentials/status/12",
        f"{BASE}/credentials/status/",
        f"{BASE}/credentials/status/12/x",
        f"{BASE}/credentials/status/-1",
        f"{BASE}/credentials/status/" + "9" * 30,
        f"{BASE}/credentials/status/\u0663",  # an Arabic-Indic digit
        None,
        12,
    ):
        assert store.status_list_key(BASE, url) is None, url


def test_one_key_per_organisation_sealed_and_reused(db: Any, org_id: int) -> None:
    a, b = _person(db, org_id, "a"), _person(db, org_id, "b")
    _, d1 = _issue(db, org_id, a)
    _, d2 = _issue(db, org_id, b)
    assert d1["issuer"]["id"] == d2["issuer"]["id"]
    assert d1["credentialStatus"]["statusListIndex"] != d2["credentialStatus"]["statusListIndex"]
    with db.session() as s:
        keys = s.query(store.IssuerKey).all()
        assert len(keys) == 1 and keys[0].sealed[:2] == b"v1"
        with pytest.raises(ValueError, match="secret"):
            store.current_issuer_key(s, org_id, SECRET + "-other")


def test_refusals_write_nothing(db: Any, org_id: int) -> None:
    expired = _person(db, org_id, "old", until=date(2026, 1, 1), since=date(2024, 1, 1))
    none = _person(db, org_id, "none", cert=None)
    with db.session() as s:
        other = store.create_organisation(s, "Other").id
    for pid, cert, org, err in (
        (expired, "nca-aiio", org_id, "no valid"),
        (none, "nca-aiio", org_id, "no valid"),
        (none, "no-such-cert", org_id, "not a certification"),
        (none, "nca-aiio", other, "no person"),
    ):
        with db.session() as s, pytest.raises((StoreError, NotFound), match=err):
            store.issue_credential(s, org, pid, cert, catalog=CATALOG, secret=SECRET, base_url=BASE, now=NOW)
    with db.session() as s:
        assert store.list_credentials(s, org_id) == []


def test_rotation_keeps_old_credentials_verifiable(db: Any, org_id: int) -> None:
    pid = _person(db, org_id)
    _, old = _issue(db, org_id, pid)
    with db.session() as s:
        new_key = store.rotate_issuer_key(s, org_id, SECRET, now=NOW)
    _, new = _issue(db, org_id, pid)
    assert new["issuer"]["id"] == new_key.did != old["issuer"]["id"]
    for doc in (old, new):
        assert verify(doc, now=NOW, status_list=_status(db, doc)).valid


def test_credentials_of_another_organisation_are_not_found(db: Any, org_id: int) -> None:
    uuid, _ = _issue(db, org_id, _person(db, org_id))
    with db.session() as s:
        other = store.create_organisation(s, "Other").id
    with db.session() as s, pytest.raises(NotFound):
        store.revoke_credential(s, other, uuid, "not yours", now=NOW)
    with db.session() as s:
        assert store.list_credentials(s, other) == []
        assert len(store.list_credentials(s, org_id)) == 1


def test_cli_issue_status_list_revoke(db_url: str, tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from gputeam.cli.main import app

    db = store.open_database(db_url)
    try:
        with db.session() as s:
            org = store.create_organisation(s, "Acme").id
        _person(db, org, "ada", since=date(2026, 1, 1))
    finally:
        db.dispose()
    runner = CliRunner()
    env = {"GPUTEAM_SECRET_KEY": SECRET, "GPUTEAM_PUBLIC_URL": BASE}
    cred, status = tmp_path / "ada.json", tmp_path / "status.json"
    r = runner.invoke(
        app,
        [
            "credential",
            "issue",
            "--person",
            "ada",
            "--achievement",
            "nca-aiio",
            "--db",
            db_url,
            "--out",
            str(cred),
        ],
        env=env,
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(cred.read_text())
    key = doc["credentialStatus"]["statusListCredential"].rsplit("/", 1)[1]
    r = runner.invoke(app, ["credential", "status-list", key, "--db", db_url, "--out", str(status)], env=env)
    assert r.exit_code == 0, r.output
    ok = runner.invoke(app, ["credential", "verify", str(cred), "--status-list", str(status)])
    assert ok.exit_code == 0, ok.output
    r = runner.invoke(
        app, ["credential", "revoke", doc["id"], "--reason", "left the company", "--db", db_url], env=env
    )
    assert r.exit_code == 0, r.output
    runner.invoke(app, ["credential", "status-list", key, "--db", db_url, "--out", str(status)], env=env)
    bad = runner.invoke(app, ["credential", "verify", str(cred), "--status-list", str(status)])
    assert bad.exit_code == 1 and "revoked by the issuer" in bad.output
    # a JWT too; refusals exit 2 with a message and write nothing
    r = runner.invoke(
        app,
        [
            "credential",
            "issue",
            "--person",
            "ada",
            "--achievement",
            "nca-aiio",
            "--format",
            "jwt",
            "--db",
            db_url,
        ],
        env=env,
    )
    assert r.exit_code == 0 and r.stdout.count(".") == 2
    for args, says in (
        (["--person", "nobody", "--achievement", "nca-aiio"], "no such person"),
        (["--person", "ada", "--achievement", "ncp-aio"], "no valid"),
    ):
        r = runner.invoke(
            app, ["credential", "issue", *args, "--db", db_url, "--out", str(tmp_path / "x.json")], env=env
        )
        assert r.exit_code == 2 and says in r.output and not (tmp_path / "x.json").exists()
    # rotation: a new key signs what is issued next; the first credential still verifies
    r = runner.invoke(app, ["credential", "rotate-key", "--db", db_url], env=env)
    assert r.exit_code == 0 and "did:key:z6Mk" in r.output
    assert doc["issuer"]["id"] not in r.output
    again = tmp_path / "again.json"
    r = runner.invoke(
        app,
        [
            "credential",
            "issue",
            "--person",
            "ada",
            "--achievement",
            "nca-aiio",
            "--db",
            db_url,
            "--out",
            str(again),
        ],
        env=env,
    )
    assert r.exit_code == 0 and json.loads(again.read_text())["issuer"]["id"] != doc["issuer"]["id"]
    r = runner.invoke(
        app,
        ["credential", "issue", "--person", "ada", "--achievement", "nca-aiio", "--db", db_url],
        env={"GPUTEAM_SECRET_KEY": "", "GPUTEAM_PUBLIC_URL": BASE},
    )
    assert r.exit_code == 2 and "GPUTEAM_SECRET_KEY" in r.output


def test_remind_covers_issued_credentials(db: Any, org_id: int) -> None:
    """An issued credential whose validity ends within the window is reminded, once per
    stage, and a revoked one never; reminders name the credential and how to renew."""
    soon = _person(db, org_id, "soon", until=date(2027, 1, 15), since=date(2025, 1, 15))
    gone = _person(db, org_id, "gone", until=date(2027, 1, 20), since=date(2025, 1, 20))
    later = _person(db, org_id, "later", until=date(2029, 1, 1), since=date(2026, 1, 1))
    u_soon, _ = _issue(db, org_id, soon)
    u_gone, _ = _issue(db, org_id, gone)
    _issue(db, org_id, later)
    with db.session() as s:
        store.revoke_credential(s, org_id, u_gone, "left", now=NOW)
    today = date(2026, 12, 2)
    with db.session() as s:
        due = [
            r
            for r in store.due_reminders(s, today, 90, org_id=org_id, catalog=CATALOG)
            if r.kind.startswith("credential")
        ]
    assert [r.key for r in due] == [f"credential:{u_soon}:90d"]
    assert "credential expires on 2027-01-15 (in 44 days)" in due[0].subject
    assert "issue a new credential" in due[0].subject and due[0].email == "soon@acme.example"
    with db.session() as s:
        late = [
            r
            for r in store.due_reminders(s, date(2027, 2, 1), 90, org_id=org_id, catalog=CATALOG)
            if r.kind.startswith("cred")
        ]
    assert [r.kind for r in late] == ["credential-expired"]


def test_did_web_issue_and_cli_verify_from_the_database(
    db: Any, db_url: str, org_id: int, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A credential issued under the tracker's did:web verifies offline with `credential
    verify --db` (the DID document built from the database's keys, the rotated one kept),
    and is refused without it (never fetched)."""
    from typer.testing import CliRunner

    from gputeam.cli.main import app

    pid = _person(db, org_id)
    did = "did:web:tracker.acme.example"
    with db.session() as s:
        doc = dict(
            store.issue_credential(
                s,
                org_id,
                pid,
                "nca-aiio",
                catalog=CATALOG,
                secret=SECRET,
                base_url=BASE,
                now=NOW,
                issuer_did=did,
            ).document
        )
        store.rotate_issuer_key(s, org_id, SECRET)  # the old key stays in the document
    assert doc["issuer"]["id"] == did
    path = tmp_path / "cred.json"
    path.write_text(json.dumps(doc), "utf-8")
    monkeypatch.setenv("GPUTEAM_PUBLIC_URL", BASE)
    runner = CliRunner()
    r = runner.invoke(app, ["credential", "verify", str(path), "--db", db_url, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["valid"] is True
    r = runner.invoke(app, ["credential", "verify", str(path)])
    assert r.exit_code == 1 and "its DID document is needed" in r.stdout
    monkeypatch.setenv("GPUTEAM_PUBLIC_URL", "http://tracker.acme.example")
    r = runner.invoke(app, ["credential", "verify", str(path), "--db", db_url])
    assert r.exit_code == 2 and "GPUTEAM_PUBLIC_URL" in r.stderr
