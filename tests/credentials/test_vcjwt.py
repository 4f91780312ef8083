"""VC-JWT (OB 3.0's JSON Web Token proof format): claims mapped from the credential, Ed25519
signature checked here independently of joserfc, tampering refused, and the same checks as the
embedded proof."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

from gputeam.cli.main import app
from gputeam.credentials import multibase, verify
from gputeam.credentials.vcjwt import encode, looks_like_jwt

from .test_verify import DID, KEY, NOW, _issued


def _unb64(s: str) -> bytes:
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def _token() -> str:
    return encode(_issued(), KEY)


def test_claims_and_header_follow_ob3() -> None:
    token = _token()
    head, body, sig = token.split(".")
    header, payload = json.loads(_unb64(head)), json.loads(_unb64(body))
    assert header == {"alg": "EdDSA", "typ": "JWT", "kid": f"{DID}#{DID[8:]}"}
    cred = _issued()
    assert payload["iss"] == DID and payload["jti"] == cred["id"]
    assert payload["sub"] == "mailto:ada@acme.example"
    assert payload["nbf"] == int(datetime(2026, 12, 1, tzinfo=UTC).timestamp())
    assert payload["exp"] == int(datetime(2028, 12, 1, tzinfo=UTC).timestamp())
    assert "proof" not in payload and payload["credentialSubject"] == cred["credentialSubject"]
    # independent check of the JWS (RFC 7515 signing input, raw Ed25519), without joserfc
    public = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33))).public_key()
    assert multibase.ed25519_multikey(public.public_bytes_raw()) == DID[8:]
    public.verify(_unb64(sig), f"{head}.{body}".encode())
    with pytest.raises(InvalidSignature):
        public.verify(_unb64(sig), f"{head}.{body}x".encode())


def test_vc_jwt_verifies_with_the_same_checks() -> None:
    result = verify(_token(), now=NOW)
    assert result.valid, result.as_dict()
    assert [c.name for c in result.checks] == ["structure", "proof", "validity", "status", "recipient"]
    assert "VC-JWT signature" in result.checks[1].message
    late = verify(_token(), now=datetime(2029, 1, 1, tzinfo=UTC))
    assert not late.valid and "expired" in late.checks[2].message


def _with_payload(token: str, **changes: object) -> str:
    head, body, sig = token.split(".")
    payload = json.loads(_unb64(body))
    payload.update(changes)
    new = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")
    return f"{head}.{new}.{sig}"


def test_tampered_or_mismatched_tokens_are_refused() -> None:
    token = _token()
    assert not verify(_with_payload(token, name="Something else"), now=NOW).valid
    assert not verify(_with_payload(token, jti="urn:uuid:other"), now=NOW).valid
    other = Ed25519PrivateKey.from_private_bytes(bytes(range(3, 35)))
    cred = _issued()
    with pytest.raises(ValueError, match="not this key's DID"):
        encode(cred, other)
    head, body, sig = token.split(".")
    bad = verify(f"{head}.{body}.{sig[:-4]}AAAA", now=NOW)
    assert not bad.valid and not bad.checks[1].ok
    assert not verify("a.b.c", now=NOW).valid


def test_cli_reads_a_jwt_file(tmp_path: Path) -> None:
    f = tmp_path / "badge.jwt"
    f.write_text(_token() + "\n")
    assert looks_like_jwt(f.read_text())
    r = CliRunner().invoke(app, ["credential", "verify", str(f), "--json"])
    assert r.exit_code == 0, r.stdout
    assert json.loads(r.stdout)["valid"] is True
