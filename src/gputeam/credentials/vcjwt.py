"""VC-JWT, the second proof format Open Badges 3.0 defines (§ "JSON Web Token Proof Format"):
the credential as the payload of a compact JWS, with the registered claims mapped from it
(``iss`` = issuer id, ``jti`` = credential id, ``sub`` = subject id, ``nbf`` = validFrom,
``exp`` = validUntil) and the signing key named by the header's ``kid`` or carried in its
``jwk``.

gputeam signs with Ed25519 (``alg`` ``EdDSA``, the name verifiers widely accept; RFC 9864's
``Ed25519`` is accepted on verification too). It verifies RS256 (which OB 3.0 §8.2 names
as the minimum), ES256 and EdDSA, and refuses ``none`` and the HMAC algorithms. The key is
the issuer's ``did:key`` (or did:web), resolved offline like the Data Integrity proof's, or
the header's ``jwk``.
"""

from __future__ import annotations

import base64
import json
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from gputeam.credentials import jsontext
from gputeam.credentials.issue import verification_method
from gputeam.credentials.proof import ProofError
from gputeam.i18n import N_

#: The algorithms gputeam signs with (EdDSA; RFC 9864's name Ed25519 too). What it verifies:
#: :data:`KEY_TYPES`.
ALGORITHMS = ["EdDSA", "Ed25519"]
#: The JWT claims OB 3.0 maps from the credential (not part of the credential itself).
REGISTERED_CLAIMS = ("iss", "jti", "sub", "nbf", "exp")


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


#: What each accepted ``alg`` needs of its key (RFC 7518 §3.1, RFC 8037): the JWK ``kty``
#: and, for EC and OKP, its curve. OB 3.0 §8.2 asks for RS256 at least; ES256 and EdDSA
#: are the other algorithms issuers use. ``none`` and the HMAC algorithms (``HS256``…), a
#: secret shared with the verifier, prove nothing about who issued the credential.
KEY_TYPES: dict[str, tuple[str, str | None]] = {
    "RS256": ("RSA", None),
    "ES256": ("EC", "P-256"),
    "EdDSA": ("OKP", "Ed25519"),
    "Ed25519": ("OKP", "Ed25519"),
}
VERIFIED_ALGORITHMS = list(KEY_TYPES)
#: The smallest RSA modulus accepted (RFC 7518 §3.3: 2048 bits or larger).
MIN_RSA_BITS = 2048
#: The largest payload read (bytes, before base64url): the verifier refuses larger credentials.
MAX_TOKEN_PAYLOAD = 512 * 1024
_PRIVATE_MEMBERS = ("d", "p", "q", "dp", "dq", "qi", "oth", "k")


def _header(token: str) -> dict[str, Any]:
    try:
        header = jsontext.loads(_unb64(token.split(".")[0]))
    except ValueError as exc:
        raise ProofError(N_("the JWT header is not readable: {reason}").format(reason=exc)) from None
    if not isinstance(header, dict):
        raise ProofError(N_("the JWT header is not a JSON object"))
    alg = header.get("alg")
    if alg not in KEY_TYPES:
        if isinstance(alg, str) and (alg.lower() == "none" or alg.upper().startswith("HS")):
            refused = N_(
                "JWT alg {alg} is refused: an unsigned token, or one keyed with a shared secret, "
                "proves nothing about its issuer"
            )
            raise ProofError(refused.format(alg=repr(alg)))
        unknown = N_("JWT alg {alg} is not one of {algorithms}")
        raise ProofError(unknown.format(alg=repr(alg), algorithms=", ".join(KEY_TYPES)))
    return header


def _header_key(jwk: Any, alg: str) -> Any:
    """The public key a token's ``jwk`` header carries, checked against ``alg``."""
    from joserfc.errors import JoseError
    from joserfc.jwk import JWKRegistry

    kty, crv = KEY_TYPES[alg]
    if not isinstance(jwk, dict):
        raise ProofError(N_("the JWT's jwk header is not a JSON object"))
    if any(member in jwk for member in _PRIVATE_MEMBERS):
        raise ProofError(
            N_("the JWT's jwk header holds a private or secret key; only a public key belongs there")
        )
    if jwk.get("kty") != kty or (crv is not None and jwk.get("crv") != crv):
        mismatch = N_("JWT alg {alg} needs a {kind} key; the jwk header holds kty {kty}, crv {crv}")
        raise ProofError(
            mismatch.format(
                alg=alg,
                kind=f"{kty} {crv}" if crv else kty,
                kty=repr(jwk.get("kty")),
                crv=repr(jwk.get("crv")),
            )
        )
    try:
        key = JWKRegistry.import_key(jwk)
    except (JoseError, ValueError, TypeError) as exc:
        raise ProofError(N_("the JWT's jwk header is not a usable key: {error}").format(error=exc)) from None
    raw = key.raw_value
    if isinstance(raw, RSAPublicKey):
        bits = raw.key_size
        if bits < MIN_RSA_BITS:
            small = N_("the JWT's RSA key has {bits} bits; at least {minimum} are required")
            raise ProofError(small.format(bits=bits, minimum=MIN_RSA_BITS))
    return key


def _registry(alg: str) -> Any:
    """joserfc's JWS rules for one algorithm, with room for a credential (the verifier's own
    size limit, about 256 KiB, applies to it) and for an RSA key in the header (joserfc's
    default header limit, 512 bytes, is less than a 2048-bit key's JWK)."""
    from joserfc.jws import JWSRegistry

    registry = JWSRegistry(algorithms=[alg], strict_check_header=False)
    registry.max_header_length = 8192
    registry.max_payload_length = 4 * MAX_TOKEN_PAYLOAD // 3 + 4
    return registry


def _okp(public: bytes) -> Any:
    from joserfc.jwk import OKPKey

    return OKPKey.import_key({"kty": "OKP", "crv": "Ed25519", "x": _b64(public)})


@dataclass(frozen=True)
class JwtSigner:
    """Who a verified VC-JWT's signature is by: the header's ``kid`` (or the key's
    description when the token carries its key in ``jwk``), its algorithm, and the raw
    Ed25519 public key when it is one (to tell a tracker's own keys)."""

    method: str
    alg: str
    ed25519: bytes | None
    bound: bool


def credential_of(token: str) -> dict[str, Any]:
    """The credential a VC-JWT carries (its payload without the registered claims), read
    without checking the signature (the caller verifies it)."""
    return {k: v for k, v in unverified_payload(token).items() if k not in REGISTERED_CLAIMS}


def verify_jwt_signer(
    token: str, issuer_id: str, did_documents: Mapping[str, Any] | None = None
) -> JwtSigner:
    """Check the JWS signature and that the registered claims agree with the credential.

    The key: the header's ``jwk`` (RS256, ES256 or EdDSA), which must be the issuer's own
    key when the issuer is a ``did:key`` or a ``did:web``; otherwise the ``kid``, resolved
    offline like a Data Integrity proof's verification method (it must be the issuer's).
    A ``jwk`` with an issuer named by URL is taken as the token says (``bound`` False):
    offline, nothing ties that key to the URL. :class:`ProofError` when anything fails."""
    from joserfc import jws
    from joserfc.errors import JoseError

    from gputeam.credentials.verify import resolve_key

    token = token.strip()
    header = _header(token)
    alg = str(header["alg"])
    kid, jwk = header.get("kid"), header.get("jwk")
    ed25519: bytes | None = None
    bound = True
    if jwk is not None:
        key = _header_key(jwk, alg)
        if KEY_TYPES[alg][0] == "OKP":
            ed25519 = _unb64(str(jwk.get("x", "")))
        if issuer_id.startswith("did:"):  # the DID says what its keys are: the jwk must be one
            not_issuers = N_("the JWT's jwk header is not the issuer {issuer}'s key").format(
                issuer=repr(issuer_id)
            )
            if ed25519 is None:
                raise ProofError(not_issuers)
            own = issuer_id[len("did:key:") :] if issuer_id.startswith("did:key:") else _okp_multikey(ed25519)
            method = kid if isinstance(kid, str) and kid else f"{issuer_id}#{own}"
            if resolve_key(method, issuer_id, did_documents) != ed25519:
                raise ProofError(not_issuers)
        else:
            bound = False
            method = kid if isinstance(kid, str) and kid else N_("the key in the token's jwk header")
    else:
        if KEY_TYPES[alg][0] != "OKP":
            needs = N_(
                "JWT alg {alg} needs the key in the token's jwk header (a kid resolves Ed25519 keys only)"
            )
            raise ProofError(needs.format(alg=alg))
        ed25519 = resolve_key(kid, issuer_id, did_documents)
        key = _okp(ed25519)
        method = str(kid)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            obj = jws.deserialize_compact(token, key, registry=_registry(alg))
    except (JoseError, ValueError) as exc:
        bad = N_("the JWT signature does not verify: {error}")
        raise ProofError(bad.format(error=type(exc).__name__)) from None
    try:
        payload = jsontext.loads(obj.payload)
    except ValueError as exc:
        raise ProofError(N_("not a readable JWT: {reason}").format(reason=exc)) from None
    if not isinstance(payload, dict):
        raise ProofError(N_("the JWT payload is not a JSON object"))
    expected = claims_for({k: v for k, v in payload.items() if k not in REGISTERED_CLAIMS})
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
    return JwtSigner(method, alg, ed25519, bound)


def _okp_multikey(public: bytes | None) -> str:
    from gputeam.credentials import multibase

    try:
        return multibase.ed25519_multikey(public or b"")
    except multibase.MultibaseError:
        return ""


def verify_jwt(token: str, issuer_id: str, did_documents: Mapping[str, Any] | None = None) -> str:
    """:func:`verify_jwt_signer`, giving the verification method (the ``kid``)."""
    return verify_jwt_signer(token, issuer_id, did_documents).method
