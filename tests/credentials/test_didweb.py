"""did:web issuers (issue 12 §1): the DID of a public address, its DID document with every
issuing key, credentials and status lists signed under it, verified offline from the
document handed in (never fetched); a tampered or missing document is refused."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from typer.testing import CliRunner

from gputeam.cli.main import app
from gputeam.credentials import (
    AchievementSpec,
    DidWebError,
    credential,
    did_document,
    did_key,
    did_web,
    issue,
    sign,
    statuslist,
    verification_method,
    verify,
)
from gputeam.credentials.didweb import document_path

NOW = datetime(2026, 12, 2, 12, tzinfo=UTC)
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
OLD = Ed25519PrivateKey.from_private_bytes(bytes(range(33, 65)))
OTHER = Ed25519PrivateKey.from_private_bytes(bytes(range(65, 97)))
DID = "did:web:tracker.acme.example"
LIST_ID = "https://tracker.acme.example/credentials/status/1"
ACH = AchievementSpec(
    id="https://tracker.acme.example/catalog#cert-acme-l2",
    name="ACME GPU Cluster Operator, Level 2",
    description="Operates ACME's H100 clusters.",
    criteria="Passed the exam.",
)


def _raw(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def _document(*keys: Ed25519PrivateKey) -> dict[str, Any]:
    return did_document(DID, [_raw(k) for k in keys])


def _issued(key: Ed25519PrivateKey = KEY) -> dict[str, Any]:
    unsigned = credential(
        credential_id="urn:uuid:6f1c0c1e-56d1-4c53-9d2a-8c1fb5c2a002",
        issuer_id=DID,
        issuer_name="ACME Corp",
        subject_id="mailto:ada@acme.example",
        achievement=ACH,
        valid_from="2026-12-01T00:00:00Z",
        status=statuslist.status_entry(LIST_ID, 5),
    )
    return issue(unsigned, key, "2026-12-01T09:00:00Z")


def _proof(cred: Any, **kw: Any) -> Any:
    return next(c for c in verify(cred, now=NOW, **kw).checks if c.name == "proof")


def test_did_web_of_a_public_address_and_where_its_document_lives() -> None:
    assert did_web("https://tracker.acme.example") == "did:web:tracker.acme.example"
    assert did_web("https://tracker.acme.example/") == "did:web:tracker.acme.example"
    assert did_web("https://acme.example:8443/gpu team/ops") == "did:web:acme.example%3A8443:gpu%20team:ops"
    assert document_path("did:web:tracker.acme.example") == "/.well-known/did.json"
    assert document_path("did:web:acme.example%3A8443:gputeam:ops") == "/gputeam/ops/did.json"
    for bad in ("http://tracker.acme.example", "https://t.example/?x=1", "https://t.example/#k", "ftp://x"):
        with pytest.raises(DidWebError):
            did_web(bad)


def test_the_document_lists_every_key_as_an_assertion_method() -> None:
    doc = _document(KEY, OLD)
    assert doc["id"] == DID and doc["@context"][0] == "https://www.w3.org/ns/did/v1"
    keys = [did_key(k).removeprefix("did:key:") for k in (KEY, OLD)]
    assert [m["id"] for m in doc["verificationMethod"]] == [f"{DID}#{k}" for k in keys]
    assert doc["assertionMethod"] == [f"{DID}#{k}" for k in keys]
    assert {m["type"] for m in doc["verificationMethod"]} == {"Multikey"}


def test_issued_under_did_web_verifies_with_its_document_and_an_old_key_still_does() -> None:
    cred = _issued()
    assert cred["proof"]["verificationMethod"] == f"{DID}#{did_key(KEY).removeprefix('did:key:')}"
    assert verify(cred, now=NOW, did_documents={DID: _document(KEY, OLD)}).valid
    assert verify(_issued(OLD), now=NOW, did_documents={DID: _document(KEY, OLD)}).valid  # rotated
    # the status list is signed under the did:web too
    status = sign(
        statuslist.list_credential(
            LIST_ID, DID, statuslist.with_bit(statuslist.empty(), 5), "2026-12-01T00:00:00Z"
        ),
        KEY,
        verification_method(DID, KEY),
        "2026-12-01T00:00:00Z",
    )
    checks = {
        c.name: c
        for c in verify(cred, now=NOW, status_list=status, did_documents={DID: _document(KEY)}).checks
    }
    assert not checks["status"].ok and checks["status"].message == "revoked by the issuer"


def test_without_its_document_a_did_web_is_refused_not_fetched() -> None:
    """(with sockets blocked, as in every test here: conftest.py)"""
    check = _proof(_issued())
    assert not check.ok and "its DID document is needed" in check.message and "never fetches" in check.message


def test_tampered_or_foreign_documents_are_refused() -> None:
    cred = _issued()
    good = _document(KEY)
    swapped = _document(OTHER)  # another key under the same method id
    swapped["verificationMethod"][0]["id"] = good["verificationMethod"][0]["id"]
    swapped["assertionMethod"] = good["assertionMethod"]
    not_asserting = copy.deepcopy(good)
    not_asserting["assertionMethod"] = []
    foreign = copy.deepcopy(good)
    foreign["id"] = "did:web:evil.example"
    other_controller = copy.deepcopy(good)
    other_controller["verificationMethod"][0]["controller"] = "did:web:evil.example"
    broken_key = copy.deepcopy(good)
    broken_key["verificationMethod"][0]["publicKeyMultibase"] = "z6MkNOTAKEY"
    cases = {
        "another key": (swapped, "signature"),
        "not an assertion method": (not_asserting, "not an assertion method"),
        "another DID's document": (foreign, "is the document of"),
        "another controller": (other_controller, "is controlled by"),
        "a broken key": (broken_key, "did:web:tracker.acme.example#"),
    }
    for name, (doc, words) in cases.items():
        check = _proof(cred, did_documents={DID: doc})
        assert not check.ok and words in check.message, (name, check.message)
    assert _proof(cred, did_documents={DID: good}).ok
    # a credential whose issuer is another did:web cannot borrow this document's keys
    forged = copy.deepcopy(cred)
    forged["issuer"]["id"] = "did:web:evil.example"
    assert not verify(forged, now=NOW, did_documents={DID: good}).valid


def test_vc_jwt_under_did_web() -> None:
    from gputeam.credentials.vcjwt import encode

    token = encode({k: v for k, v in _issued().items() if k != "proof"}, KEY)
    assert verify(token, now=NOW, did_documents={DID: _document(KEY)}).valid
    assert not verify(token, now=NOW).valid


def test_cli_verifies_offline_with_a_did_document_file(tmp_path: Path) -> None:
    runner = CliRunner()
    cred, doc = tmp_path / "cred.json", tmp_path / "did.json"
    cred.write_text(json.dumps(_issued()))
    doc.write_text(json.dumps(_document(KEY)))
    r = runner.invoke(app, ["credential", "verify", str(cred), "--did-document", str(doc), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["valid"] is True
    r = runner.invoke(app, ["credential", "verify", str(cred)])
    assert r.exit_code == 1 and "never fetches" in r.output
    tampered = _document(OTHER)
    tampered["id"] = DID
    tampered["verificationMethod"][0]["id"] = _document(KEY)["verificationMethod"][0]["id"]
    tampered["assertionMethod"] = _document(KEY)["assertionMethod"]
    doc.write_text(json.dumps(tampered))
    r = runner.invoke(app, ["credential", "verify", str(cred), "--did-document", str(doc)])
    assert r.exit_code == 1 and "FAIL proof" in r.output
    doc.write_text("[1]")
    r = runner.invoke(app, ["credential", "verify", str(cred), "--did-document", str(doc)])
    assert r.exit_code == 2 and "DID document" in r.output
