"""Data Integrity proofs with the ``eddsa-rdfc-2022`` cryptosuite (W3C VC Data Integrity EdDSA
Cryptosuites v1.0, §3.3): RDFC-1.0 canonical N-Quads, SHA-256, Ed25519.

    hash data = SHA-256(canonical proof configuration) || SHA-256(canonical document)
    proofValue = multibase base58btc(Ed25519 signature over the hash data)

The proof configuration is the proof without ``proofValue``, given the document's
``@context``. Canonicalisation is pyld's URDNA2015, which RDFC-1.0 standardised without
change to its output, with the offline loader (:mod:`gputeam.credentials.loader`).
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from gputeam.credentials import multibase
from gputeam.credentials.loader import DamagedContext, UnknownContext, document_loader
from gputeam.i18n import N_

#: A pyld document loader: (url, options) -> {"document": ...}; the default serves only the
#: bundled contexts. Tests of other vectors pass one that adds their (restated) contexts.
Loader = Callable[[str, Any], dict[str, Any]]

CRYPTOSUITE = "eddsa-rdfc-2022"
PROOF_TYPE = "DataIntegrityProof"


class DroppedTerms(ValueError):
    """Properties JSON-LD would silently drop (no definition in the contexts): refused, as the
    Data Integrity specification's "safe mode" requires, because a signature does not cover
    them and a verifier would show them unsigned."""

    def __init__(self, terms: list[str]) -> None:
        self.terms = terms
        super().__init__(
            N_(
                "properties not defined by the credential's contexts (not covered by a "
                "signature, so refused): {terms}"
            ).format(terms=", ".join(sorted(set(terms))))
        )


def canonical(doc: dict[str, Any], loader: Loader = document_loader) -> str:
    """RDFC-1.0 canonical N-Quads of a JSON-LD document (offline, safe mode: a property that
    expansion would drop raises :class:`DroppedTerms`)."""
    from pyld.jsonld import JsonLdProcessor

    dropped: list[str] = []
    processor = JsonLdProcessor(on_property_dropped=lambda term: dropped.append(str(term)))
    out: str = processor.normalize(
        doc, {"algorithm": "URDNA2015", "format": "application/n-quads", "documentLoader": loader}
    )
    if dropped:
        raise DroppedTerms(dropped)
    return out


@dataclass(frozen=True)
class Transformed:
    """The intermediate values of a proof, for tests and for explaining a failure."""

    document_canon: str
    proof_canon: str
    document_hash: bytes
    proof_hash: bytes

    @property
    def hash_data(self) -> bytes:
        return self.proof_hash + self.document_hash


def transform(
    document: dict[str, Any], proof_options: dict[str, Any], loader: Loader = document_loader
) -> Transformed:
    """Canonicalise and hash ``document`` (without any ``proof``) and the proof options
    (without ``proofValue``, with the document's ``@context``)."""
    doc = {k: v for k, v in document.items() if k != "proof"}
    config = {k: v for k, v in proof_options.items() if k != "proofValue"}
    config["@context"] = copy.deepcopy(document.get("@context"))
    doc_c, proof_c = canonical(doc, loader), canonical(config, loader)
    return Transformed(
        doc_c, proof_c, hashlib.sha256(doc_c.encode()).digest(), hashlib.sha256(proof_c.encode()).digest()
    )


def sign(
    document: dict[str, Any],
    private_key: Ed25519PrivateKey,
    verification_method: str,
    created: str,
    proof_purpose: str = "assertionMethod",
    loader: Loader = document_loader,
) -> dict[str, Any]:
    """A copy of ``document`` with an ``eddsa-rdfc-2022`` proof added (``created`` is an XML
    Schema dateTime string, passed in: this module never reads the clock)."""
    options = {
        "type": PROOF_TYPE,
        "created": created,
        "verificationMethod": verification_method,
        "cryptosuite": CRYPTOSUITE,
        "proofPurpose": proof_purpose,
    }
    signature = private_key.sign(transform(document, options, loader).hash_data)
    signed = copy.deepcopy(document)
    signed["proof"] = {**options, "proofValue": multibase.encode(signature)}
    return signed


class ProofError(ValueError):
    """Why a proof does not verify, in words."""


def _jsonld_reason(exc: BaseException) -> str:
    """Why pyld could not canonicalise a document: what the offline loader refused (an
    unknown or a damaged context), or pyld's innermost message."""
    innermost = str(exc.args[0]) if exc.args else type(exc).__name__
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, (UnknownContext, DamagedContext)):
            return str(seen)
        if type(seen).__name__ == "JsonLdError" and seen.args:
            innermost = str(seen.args[0])
        seen = getattr(seen, "cause", None) or seen.__cause__
    return N_("the document is not valid JSON-LD: {reason}").format(reason=innermost)


def verify_proof(
    document: dict[str, Any], proof: dict[str, Any], public_key: bytes, loader: Loader = document_loader
) -> None:
    """Raise :class:`ProofError` unless ``proof`` is a valid ``eddsa-rdfc-2022`` proof of
    ``document`` by ``public_key`` (32 bytes)."""
    if proof.get("type") != PROOF_TYPE:
        found = N_("proof type is {found}, expected {expected}")
        raise ProofError(found.format(found=repr(proof.get("type")), expected=repr(PROOF_TYPE)))
    if proof.get("cryptosuite") != CRYPTOSUITE:
        found = N_("cryptosuite is {found}, expected {expected}")
        raise ProofError(found.format(found=repr(proof.get("cryptosuite")), expected=repr(CRYPTOSUITE)))
    value = proof.get("proofValue")
    if not isinstance(value, str):
        raise ProofError(N_("the proof has no proofValue"))
    try:
        signature = multibase.decode(value)
    except multibase.MultibaseError as exc:
        raise ProofError(N_("proofValue: {reason}").format(reason=exc)) from None
    if len(signature) != 64:
        length = N_("proofValue holds {size} bytes, an Ed25519 signature 64")
        raise ProofError(length.format(size=len(signature)))
    from pyld.jsonld import JsonLdError

    try:
        data = transform(document, proof, loader).hash_data
    except DroppedTerms as exc:
        raise ProofError(str(exc)) from None
    except JsonLdError as exc:
        raise ProofError(_jsonld_reason(exc)) from None
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, data)
    except InvalidSignature:
        raise ProofError(
            N_(
                "the signature does not match the credential: it was changed after "
                "signing, or signed with another key"
            )
        ) from None
