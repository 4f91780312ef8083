"""The OB 3.0 eddsa-rdfc-2022 test vector reproduced byte for byte (facts in vectors.py), and
the multibase/did:key encodings it relies on."""

from __future__ import annotations

import copy
import hashlib
from datetime import UTC, datetime

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from gputeam.credentials import ProofError, multibase, sign, transform, verify, verify_proof

from . import vectors as v

NOW = datetime(2026, 12, 2, tzinfo=UTC)


def _key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(v.PRIVATE_KEY_HEX))


def test_canonical_forms_and_hashes_match_the_vector() -> None:
    t = transform(v.unsigned(), v.PROOF_OPTIONS)
    assert t.proof_canon == v.PROOF_CANON
    assert hashlib.sha256(t.document_canon.encode()).hexdigest() == v.DOCUMENT_HASH_HEX
    assert t.document_hash.hex() == v.DOCUMENT_HASH_HEX
    assert t.proof_hash.hex() == v.PROOF_HASH_HEX
    assert t.hash_data.hex() == v.PROOF_HASH_HEX + v.DOCUMENT_HASH_HEX
    # the canonical document is N-Quads: one statement a line, sorted, newline-terminated
    lines = t.document_canon.splitlines()
    assert lines == sorted(lines) and t.document_canon.endswith(" .\n")


def test_signing_reproduces_the_published_proof_value() -> None:
    signed = sign(v.unsigned(), _key(), v.VERIFICATION_METHOD, v.CREATED)
    assert signed["proof"]["proofValue"] == v.PROOF_VALUE
    assert multibase.decode(v.PROOF_VALUE).hex() == v.SIGNATURE_HEX
    assert {k: val for k, val in signed["proof"].items() if k != "proofValue"} == v.PROOF_OPTIONS


def test_the_published_credential_verifies_offline() -> None:
    signed = {**v.unsigned(), "proof": {**v.PROOF_OPTIONS, "proofValue": v.PROOF_VALUE}}
    verify_proof(signed, signed["proof"], bytes.fromhex(v.PUBLIC_KEY_HEX))
    result = verify(signed, now=NOW)
    assert result.valid, result.as_dict()
    assert [c.name for c in result.checks] == ["structure", "proof", "validity", "status", "recipient"]
    # a key given as a list of proofs works the same way (1EdTech's validator samples)
    listed = {**v.unsigned(), "proof": [signed["proof"]]}
    assert verify(listed, now=NOW).valid


def test_one_changed_character_fails_the_proof() -> None:
    signed = {**v.unsigned(), "proof": {**v.PROOF_OPTIONS, "proofValue": v.PROOF_VALUE}}
    changed = copy.deepcopy(signed)
    changed["credentialSubject"]["achievement"]["name"] = "Teamwork!"
    with pytest.raises(ProofError, match="does not match"):
        verify_proof(changed, changed["proof"], bytes.fromhex(v.PUBLIC_KEY_HEX))
    checks = {c.name: c for c in verify(changed, now=NOW).checks}
    assert not checks["proof"].ok and checks["structure"].ok


def test_multikey_and_base58() -> None:
    assert multibase.ed25519_multikey(bytes.fromhex(v.PUBLIC_KEY_HEX)) == v.PUBLIC_KEY_MULTIBASE
    assert multibase.ed25519_from_multikey(v.PUBLIC_KEY_MULTIBASE).hex() == v.PUBLIC_KEY_HEX
    # leading zero bytes are leading '1's (Bitcoin's rule), and the round trip is exact
    for data in (b"", b"\0", b"\0\0\x01", bytes(range(256))):
        assert multibase.b58decode(multibase.b58encode(data)) == data
    assert multibase.b58encode(b"\0\0\x01") == "112"
    with pytest.raises(multibase.MultibaseError):
        multibase.ed25519_from_multikey("z" + multibase.b58encode(b"\x12\x00" + bytes(32)))
    with pytest.raises(multibase.MultibaseError):
        multibase.decode("u0OI")
