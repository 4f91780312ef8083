"""VC-JWT, the second proof format Open Badges 3.0 defines (§ "JSON Web Token Proof Format"):
the credential as the payload of a compact JWS, with the registered claims mapped from it
(``iss`` = issuer id, ``jti`` = credential id, ``sub`` = subject id, ``nbf`` = validFrom,
``exp`` = validUntil) and the signing key named by the header's ``kid``.

gputeam signs with Ed25519 (``alg`` ``EdDSA``, the name verifiers widely accept; RFC 9864's
``Ed25519`` is accepted on verification too). The key is the issuer's ``did:key``, resolved
offline like the Data Integrity proof's.
"""

from __future__ import annotations

import base64
import json
import warnings
from collections.abc import Mapping
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from gputeam.credentials import jsontext
from gputeam.credentials.issue import verification_method
from gputeam.credentials.proof import ProofError
from gputeam.i18n import N_

ALGORITHMS = ["EdDSA", "Ed25519"]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _timestamp(value: str) -> int:
    from gputeam.credentials.verify import parse_datetime

    return int(parse_datetime(value).timestamp())


def looks_like_jwt(text: str) -> bool:
    parts = text.strip().split(".")
    return (
        len(parts) == 3
        and all(parts[:2])
        and all(
            set(p) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") for p in parts
        )
    )


def claims_for(credential: dict[str, Any]) -> dict[str, Any]:
    """The registered claims OB 3.0 maps from the credential."""
    issuer = credential["issuer"]
    out: dict[str, Any] = {
        "iss": issuer["id"] if isinstance(issuer, dict) else issuer,
        "jti": credential["id"],
        "nbf": _timestamp(credential["validFrom"]),
    }
    subject = credential.get("credentialSubject") or {}
    if isinstance(subject, dict) and subject.get("id"):
        out["sub"] = subject["id"]
    if credential.get("validUntil"):
        out["exp"] = _timestamp(credential["validUntil"])
    return out


def encode(credential: dict[str, Any], private_key: Ed25519PrivateKey) -> str:
    """The credential (without any embedded proof) as a compact JWS signed by its issuer
    (``kid``: :func:`gputeam.credentials.issue.verification_method`)."""
    from joserfc import jws
    from joserfc.jwk import OKPKey

    unsigned = {k: v for k, v in credential.items() if k != "proof"}
    claims = claims_for(unsigned)
    kid = verification_method(str(claims["iss"]), private_key)
    raw = private_key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    pub = private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    key = OKPKey.import_key({"kty": "OKP", "crv": "Ed25519", "x": _b64(pub), "d": _b64(raw)})
    header = {"alg": "EdDSA", "typ": "JWT", "kid": kid}
    payload = json.dumps({**unsigned, **claims}, ensure_ascii=False, separators=(",", ":"))
    with warnings.catch_warnings():  # joserfc flags the EdDSA name (RFC 9864), not the maths
        warnings.simplefilter("ignore")
        token: str = jws.serialize_compact(header, payload.encode(), key, algorithms=ALGORITHMS)
    return token


def unverified_payload(token: str) -> dict[str, Any]:
    """The payload, read without checking anything (to run the structure check first)."""
    try:
        payload = jsontext.loads(_unb64(token.strip().split(".")[1]))
    except jsontext.TooDeep as exc:
        raise ProofError(str(exc)) from None
    except (ValueError, IndexError) as exc:
        raise ProofError(N_("not a readable JWT: {reason}").format(reason=exc)) from None
    if not isinstance(payload, dict):
        raise ProofError(N_("the JWT payload is not a JSON object"))
    return payload


def verify_jwt(token: str, issuer_id: str, did_documents: Mapping[str, Any] | None = None) -> str:
    """Check the JWS signature (key from ``kid``, which must be the issuer's) and that the
    registered claims agree with the credential; the verification method on success,
    :class:`ProofError` otherwise."""
    from joserfc import jws
    from joserfc.errors import JoseError
    from joserfc.jwk import OKPKey

    from gputeam.credentials.verify import resolve_key

    token = token.strip()
    try:
        header = json.loads(_unb64(token.split(".")[0]))
    except ValueError as exc:
        raise ProofError(N_("the JWT header is not readable: {reason}").format(reason=exc)) from None
    if not isinstance(header, dict) or header.get("alg") not in ALGORITHMS:
        alg = header.get("alg") if isinstance(header, dict) else None
        unknown = N_("JWT alg {alg} is not one of {algorithms}")
        raise ProofError(unknown.format(alg=repr(alg), algorithms=", ".join(ALGORITHMS)))
    kid = header.get("kid")
    public = resolve_key(kid, issuer_id, did_documents)
    key = OKPKey.import_key({"kty": "OKP", "crv": "Ed25519", "x": _b64(public)})
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            obj = jws.deserialize_compact(token, key, algorithms=ALGORITHMS)
    except (JoseError, ValueError) as exc:
        bad = N_("the JWT signature does not verify: {error}")
        raise ProofError(bad.format(error=type(exc).__name__)) from None
    payload = json.loads(obj.payload)
    expected = claims_for({k: v for k, v in payload.items() if k not in ("iss", "jti", "sub", "nbf", "exp")})
    for claim, value in expected.items():
        if payload.get(claim) != value:
            raise ProofError(
                N_("JWT claim {claim} is {found}, but the credential says {expected}").format(
                    claim=claim, found=repr(payload.get(claim)), expected=repr(value)
                )
            )
    for claim in ("exp", "sub"):
        if claim in payload and claim not in expected:
            unmatched = N_("JWT claim {claim} has no counterpart in the credential")
            raise ProofError(unmatched.format(claim=claim))
    return str(kid)
