"""Credentials gputeam issues pass an independent Open Badges 3.0 implementation's verifier
(openbadgeslib, LGPL-3.0, a test-only dependency), in both proof formats, with no network."""

from __future__ import annotations

import pytest
from openbadgeslib.ob3 import ldp
from openbadgeslib.ob3 import verifier as jwt_verifier

from gputeam.credentials import credential, issue
from gputeam.credentials.vcjwt import encode

from .test_verify import ACH, DID, KEY, _issued


def test_openbadgeslib_accepts_our_data_integrity_credentials() -> None:
    plain = issue(
        credential(
            credential_id="urn:uuid:9a0e2f44-1111-4c53-9d2a-8c1fb5c2a002",
            issuer_id=DID,
            issuer_name="ACME Corp",
            subject_id="mailto:ada@acme.example",
            achievement=ACH,
            valid_from="2026-12-01T00:00:00Z",
            results={"infiniband": "91"},
        ),
        KEY,
        "2026-12-01T09:00:00Z",
    )
    for doc in (plain, _issued()):
        badge = ldp.OB3LdpVerifier.for_issuer_did(DID).verify(doc)
        assert badge is not None
    tampered = _issued()
    tampered["credentialSubject"]["result"][0]["value"] = "99"
    with pytest.raises(Exception, match="(?i)signature|proof"):
        ldp.OB3LdpVerifier.for_issuer_did(DID).verify(tampered)


def test_openbadgeslib_accepts_our_vc_jwt() -> None:
    badge = jwt_verifier.OB3Verifier.for_issuer_did(DID).verify(
        encode(_issued(), KEY), expected_recipient="mailto:ada@acme.example"
    )
    assert badge is not None
