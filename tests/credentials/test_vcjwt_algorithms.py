"""VC-JWT with the algorithms OB 3.0 names ("The algorithm MUST be RS256 as a minimum", §8.2)
and the ones issuers use beside it (ES256, EdDSA), signed by independent implementations
(openbadgeslib's OB3Signer, which carries its public key in the ``jwk`` header, and PyJWT),
and refused when unsigned (``none``) or keyed with a shared secret (HMAC)."""

from __future__ import annotations

import base64
import json
from typing import Any

import jwt as pyjwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat
from hypothesis import given, settings
from hypothesis import strategies as st
from openbadgeslib.ob3.signer import OB3Signer

from gputeam.credentials import credential, verify
from gputeam.credentials.vcjwt import claims_for, encode

from .test_verify import ACH, KEY, NOW, _issued

ISSUER = "https://badges.example.org/issuers/1"


def _pem(key: Any) -> bytes:
    return key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())  # type: ignore[no-any-return]


def _payload(issuer: str = ISSUER) -> dict[str, Any]:
    unsigned = credential(
        credential_id="urn:uuid:0d2c9f7e-3b1a-4c53-9d2a-8c1fb5c2a0aa",
        issuer_id=issuer,
        issuer_name="Example Badges",
        subject_id="mailto:ada@acme.example",
        achievement=ACH,
        valid_from="2026-12-01T00:00:00Z",
        valid_until="2028-12-01T00:00:00Z",
    )
    return {**unsigned, **claims_for(unsigned)}


RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
EC_KEY = ec.generate_private_key(ec.SECP256R1())
ED_KEY = ed25519.Ed25519PrivateKey.generate()
SIGNERS = {"RS256": RSA_KEY, "ES256": EC_KEY, "EdDSA": ED_KEY}


@pytest.mark.parametrize("alg", ["RS256", "ES256", "EdDSA"])
def test_tokens_signed_by_openbadgeslib_verify(alg: str) -> None:
    token = OB3Signer(_pem(SIGNERS[alg]), algorithm=alg).sign_payload(_payload())
    header = json.loads(base64.urlsafe_b64decode(token.split(".")[0] + "=="))
    assert header["alg"] == alg and "jwk" in header and "d" not in header["jwk"]
    result = verify(token, now=NOW)
    assert result.valid, result.as_dict()
    proof = result.checks[1].message
    assert alg in proof and "jwk header" in proof and "nothing ties that key to the issuer" in proof


@pytest.mark.parametrize("alg", ["RS256", "ES256", "EdDSA"])
def test_a_changed_payload_or_another_key_fails(alg: str) -> None:
    token = OB3Signer(_pem(SIGNERS[alg]), algorithm=alg).sign_payload(_payload())
    head, body, sig = token.split(".")
    payload = json.loads(base64.urlsafe_b64decode(body + "=="))
    payload["name"] = "Something else"
    forged = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")
    assert not verify(f"{head}.{forged}.{sig}", now=NOW).checks[1].ok
    # a header naming another key of the same kind than the one that signed
    other = {"RS256": rsa.generate_private_key(65537, 2048), "ES256": ec.generate_private_key(ec.SECP256R1())}
    if alg in other:
        swapped = OB3Signer(_pem(other[alg]), algorithm=alg).sign_payload(_payload()).split(".")[0]
        assert not verify(f"{swapped}.{body}.{sig}", now=NOW).checks[1].ok


def test_none_and_hmac_are_refused() -> None:
    payload = _payload()
    unsigned = pyjwt.encode(payload, None, algorithm="none")
    check = verify(unsigned, now=NOW).checks[1]
    assert not check.ok and "'none' is refused" in check.message
    for alg in ("HS256", "HS512"):
        token = pyjwt.encode(payload, "s" * 64, algorithm=alg)
        check = verify(token, now=NOW).checks[1]
        assert not check.ok and f"'{alg}' is refused" in check.message and "shared secret" in check.message


def test_header_keys_must_fit_the_algorithm_and_be_public() -> None:
    payload = _payload()
    rsa_jwk = json.loads(pyjwt.algorithms.RSAAlgorithm.to_jwk(RSA_KEY.public_key()))
    # an RS256 token whose header claims an EC key
    ec_jwk = json.loads(pyjwt.algorithms.ECAlgorithm.to_jwk(EC_KEY.public_key()))
    token = pyjwt.encode(payload, RSA_KEY, algorithm="RS256", headers={"jwk": ec_jwk})
    assert "needs a RSA key" in verify(token, now=NOW).checks[1].message
    # a private key in the header
    private = json.loads(pyjwt.algorithms.RSAAlgorithm.to_jwk(RSA_KEY))
    token = pyjwt.encode(payload, RSA_KEY, algorithm="RS256", headers={"jwk": private})
    assert "private or secret key" in verify(token, now=NOW).checks[1].message
    # an RSA key below 2048 bits (RFC 7518 §3.3)
    small = rsa.generate_private_key(65537, 1024)
    small_jwk = json.loads(pyjwt.algorithms.RSAAlgorithm.to_jwk(small.public_key()))
    token = pyjwt.encode(payload, small, algorithm="RS256", headers={"jwk": small_jwk})
    assert "1024 bits" in verify(token, now=NOW).checks[1].message
    # RS256 without a jwk: nothing to resolve an RSA key from offline
    token = pyjwt.encode(payload, RSA_KEY, algorithm="RS256", headers={"kid": f"{ISSUER}#key-1"})
    assert "needs the key in the token's jwk header" in verify(token, now=NOW).checks[1].message
    assert rsa_jwk["kty"] == "RSA"


def test_a_did_key_issuer_binds_the_header_key() -> None:
    """With a did:key issuer the jwk must be that DID's key: a token signed by another
    Ed25519 key that carries its own jwk and copies the issuer is refused."""
    ours = verify(encode(_issued(), KEY), now=NOW)
    assert ours.valid and ours.signers[0].ed25519 == KEY.public_key().public_bytes_raw()
    cred = {k: v for k, v in _issued().items() if k != "proof"}
    payload = {**cred, **claims_for(cred)}
    token = OB3Signer(_pem(ED_KEY), algorithm="EdDSA").sign_payload(payload)
    check = verify(token, now=NOW).checks[1]
    assert not check.ok and "is not the issuer" in check.message
    # the issuer's own key in the jwk header is fine
    mine = OB3Signer(_pem(KEY), algorithm="EdDSA").sign_payload(payload)
    assert verify(mine, now=NOW).valid


@settings(max_examples=25, deadline=None)
@given(alg=st.text(min_size=1, max_size=8))
def test_no_other_alg_is_accepted(alg: str) -> None:
    """Property: a token verifies only under RS256, ES256, EdDSA (or Ed25519): whatever else
    its header names, the proof check fails, with a reason and no exception."""
    head = base64.urlsafe_b64encode(json.dumps({"alg": alg}).encode()).decode().rstrip("=")
    body = base64.urlsafe_b64encode(json.dumps(_payload()).encode()).decode().rstrip("=")
    result = verify(f"{head}.{body}.c2ln", now=NOW)
    assert not result.valid
    if alg not in ("RS256", "ES256", "EdDSA", "Ed25519"):
        assert "JWT alg" in result.checks[1].message
