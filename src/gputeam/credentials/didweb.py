"""``did:web`` issuer identifiers (W3C CCG did:web method), resolved offline.

A public tracker at ``https://tracker.example`` is ``did:web:tracker.example``; its DID
document is served at ``https://tracker.example/.well-known/did.json``. With a path,
``https://example.org/gputeam`` is ``did:web:example.org:gputeam`` and its document is at
``https://example.org/gputeam/did.json``; a port is written ``%3A`` (``did:web:host%3A8443``).

The document lists the organisation's issuing keys as ``Multikey`` verification methods
(``{did}#{multikey}``, the newest first; older keys stay listed so the credentials they
signed still verify), each an ``assertionMethod``.

Nothing here fetches: a verifier is handed the documents it may use (a file, or the
tracker's own keys); a did:web without one is refused, never looked up on the network.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from gputeam.credentials import multibase
from gputeam.credentials.proof import ProofError
from gputeam.i18n import N_

DID_V1 = "https://www.w3.org/ns/did/v1"
MULTIKEY_V1 = "https://w3id.org/security/multikey/v1"


class DidWebError(ValueError):
    """A URL that cannot be a did:web (not https, a query, a fragment, no host)."""


def did_web(public_url: str) -> str:
    """The did:web of a tracker's public HTTPS address."""
    parts = urlsplit(public_url.strip())
    if parts.scheme != "https" or not parts.hostname:
        not_https = N_("a did:web needs the server's public https:// address, not {url}")
        raise DidWebError(not_https.format(url=repr(public_url)))
    if parts.query or parts.fragment or parts.username or parts.password:
        extra = N_("a did:web address has no query, fragment or user: {url}")
        raise DidWebError(extra.format(url=repr(public_url)))
    host = parts.hostname + (f"%3A{parts.port}" if parts.port else "")
    path = [quote(unquote(p), safe="") for p in parts.path.split("/") if p]
    return ":".join(["did:web", host, *path])


def document_path(did: str) -> str:
    """Where a did:web's document is served on its host: ``/.well-known/did.json`` or
    ``/<path>/did.json``."""
    segments = did.removeprefix("did:web:").split(":")[1:]
    if not segments:
        return "/.well-known/did.json"
    return "/" + "/".join(unquote(s) for s in segments) + "/did.json"


def did_document(did: str, public_keys: Sequence[bytes]) -> dict[str, Any]:
    """The DID document listing ``public_keys`` (raw Ed25519, the signing key first)."""
    methods = []
    for raw in public_keys:
        key = multibase.ed25519_multikey(raw)
        methods.append(
            {"id": f"{did}#{key}", "type": "Multikey", "controller": did, "publicKeyMultibase": key}
        )
    return {
        "@context": [DID_V1, MULTIKEY_V1],
        "id": did,
        "verificationMethod": methods,
        "assertionMethod": [m["id"] for m in methods],
    }


def resolve(verification_method: str, documents: Mapping[str, Any] | None) -> bytes:
    """The Ed25519 key of a did:web verification method, from the documents handed in (by
    DID). Refused: no document for the DID (nothing is fetched), a document for another
    DID, a method the document does not list as an assertion method, a key that is not an
    Ed25519 multikey."""
    did, _, fragment = verification_method.partition("#")
    if not fragment:
        no_key = N_("verificationMethod {method} names no key (#fragment)")
        raise ProofError(no_key.format(method=repr(verification_method)))
    doc = (documents or {}).get(did)
    if doc is None:
        raise ProofError(
            N_(
                "{did} is a did:web: its DID document is needed to verify offline "
                "(pass it as a file; gputeam never fetches it)"
            ).format(did=did)
        )
    if not isinstance(doc, Mapping) or doc.get("id") != did:
        other = N_("the DID document given for {did} is the document of {other}")
        raise ProofError(other.format(did=did, other=repr(_id_of(doc))))
    full = f"{did}#{fragment}"
    assertion = doc.get("assertionMethod")
    assertion = assertion if isinstance(assertion, list) else []
    listed = {_absolute(did, m if isinstance(m, str) else _id_of(m)) for m in assertion}
    if full not in listed:
        unlisted = N_("{method} is not an assertion method of {did}'s DID document")
        raise ProofError(unlisted.format(method=full, did=did))
    candidates = [m for m in assertion if isinstance(m, Mapping)]
    methods = doc.get("verificationMethod")
    candidates += [m for m in (methods if isinstance(methods, list) else []) if isinstance(m, Mapping)]
    method = next((m for m in candidates if _absolute(did, _id_of(m)) == full), None)
    if method is None:
        raise ProofError(N_("{did}'s DID document does not describe {method}").format(did=did, method=full))
    if method.get("controller") not in (None, did):
        controlled = N_("{method} is controlled by {controller}, not {did}")
        raise ProofError(controlled.format(method=full, controller=repr(method.get("controller")), did=did))
    key = method.get("publicKeyMultibase")
    if not isinstance(key, str):
        raise ProofError(N_("{method} has no publicKeyMultibase").format(method=full))
    try:
        return multibase.ed25519_from_multikey(key)
    except multibase.MultibaseError as exc:
        unusable = N_("the key of {method} cannot be used: {reason}")
        raise ProofError(unusable.format(method=full, reason=exc)) from None


def _id_of(node: Any) -> str:
    return str(node.get("id")) if isinstance(node, Mapping) else str(node)


def _absolute(did: str, ref: str) -> str:
    return did + ref if ref.startswith("#") else ref
