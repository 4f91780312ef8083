"""The W3C eddsa-rdfc-2022 test vector (VC Data Integrity EdDSA Cryptosuites v1.0, repository
w3c/vc-di-eddsa, TestVectors/keyPair.json and TestVectors/eddsa-rdfc-2022/), restated: its key
pair, signed credential, combined hash (TestVectors/eddsa-rdfc-2022/combinedHashDataInt.txt)
proof configuration's canonical form (proofCanonDataInt.txt) and proof value. (The
repository's proofHashDataInt.txt, 2be46f84..., is of an earlier version of the vector: the
published combined hash starts with the hash of the canonical form restated here.)
W3C Software and Document License.

The credential uses the VC examples context (https://www.w3.org/ns/credentials/examples/v2),
which gputeam does not bundle (the product refuses it); this test serves its published content,
``{"@context": {"@vocab": "https://www.w3.org/ns/credentials/examples#"}}``, through a loader of
its own on top of the product's offline loader.
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from gputeam.credentials import ProofError, UnknownContext, multibase, sign, transform, verify_proof
from gputeam.credentials.loader import document_loader

EXAMPLES = "https://www.w3.org/ns/credentials/examples/v2"
PUBLIC_KEY_MULTIBASE = "z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2"
PRIVATE_KEY_MULTIBASE = "z3u2en7t5LR2WtQH5PfFqMqwVHBeXouLzo6haApm8XHqvjxq"
COMBINED_HASH_HEX = (
    "4c4d3890a157f8d611b13c265c2c22f39aa0a567c7c7dd9ba3e45cd579784eeb"
    "517744132ae165a5349155bef0bb0cf2258fff99dfe1dbd914b938d775a36017"
)
#: The proof configuration in RDFC-1.0 canonical N-Quads, as the vector publishes it.
PROOF_CANON = (
    '_:c14n0 <http://purl.org/dc/terms/created> "2023-02-24T23:36:38Z"'
    "^^<http://www.w3.org/2001/XMLSchema#dateTime> .\n"
    "_:c14n0 <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
    "<https://w3id.org/security#DataIntegrityProof> .\n"
    '_:c14n0 <https://w3id.org/security#cryptosuite> "eddsa-rdfc-2022"'
    "^^<https://w3id.org/security#cryptosuiteString> .\n"
    "_:c14n0 <https://w3id.org/security#proofPurpose> <https://w3id.org/security#assertionMethod> .\n"
    "_:c14n0 <https://w3id.org/security#verificationMethod> "
    "<https://vc.example/issuers/5678#z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2> .\n"
)
PROOF_VALUE = "z21EVs3eXERqTn4acNHT9viboqgzUaQ3kTmhPT3eA8qrVPE7CrQq78WkzctnMX5W4CrzcKnHw8V6dvy5pgWYCU5e9"
VM = f"https://vc.example/issuers/5678#{PUBLIC_KEY_MULTIBASE}"


def loader(url: str, options: Any = None) -> dict[str, Any]:
    if url == EXAMPLES:
        return {
            "contextUrl": None,
            "documentUrl": url,
            "document": {"@context": {"@vocab": "https://www.w3.org/ns/credentials/examples#"}},
        }
    return document_loader(url, options)


def unsigned() -> dict[str, Any]:
    return {
        "@context": ["https://www.w3.org/ns/credentials/v2", EXAMPLES],
        "id": "urn:uuid:58172aac-d8ba-11ed-83dd-0b3aef56cc33",
        "type": ["VerifiableCredential", "AlumniCredential"],
        "name": "Alumni Credential",
        "description": "A minimum viable example of an Alumni Credential.",
        "issuer": "https://vc.example/issuers/5678",
        "validFrom": "2023-01-01T00:00:00Z",
        "credentialSubject": {"id": "did:example:abcdefgh", "alumniOf": "The School of Examples"},
    }


OPTIONS = {
    "type": "DataIntegrityProof",
    "cryptosuite": "eddsa-rdfc-2022",
    "created": "2023-02-24T23:36:38Z",
    "verificationMethod": VM,
    "proofPurpose": "assertionMethod",
}


def _key() -> Ed25519PrivateKey:
    raw = multibase.decode(PRIVATE_KEY_MULTIBASE)
    assert raw[:2] == b"\x80\x26"  # multicodec ed25519-priv
    return Ed25519PrivateKey.from_private_bytes(raw[2:])


def test_hashes_and_proof_value_match() -> None:
    t = transform(unsigned(), OPTIONS, loader)
    assert t.proof_canon == PROOF_CANON  # byte for byte
    assert hashlib.sha256(PROOF_CANON.encode()).hexdigest() == COMBINED_HASH_HEX[:64] == t.proof_hash.hex()
    assert t.hash_data.hex() == COMBINED_HASH_HEX  # proof hash (32 bytes), then document hash
    # the document's canonical form hashes to the combined hash's second half
    assert hashlib.sha256(t.document_canon.encode()).hexdigest() == COMBINED_HASH_HEX[64:]
    assert t.document_canon.count(" .\n") == 8 and t.document_canon.endswith(" .\n")
    signed = sign(unsigned(), _key(), VM, OPTIONS["created"], loader=loader)
    assert signed["proof"]["proofValue"] == PROOF_VALUE
    key = multibase.ed25519_from_multikey(PUBLIC_KEY_MULTIBASE)
    verify_proof(
        {**unsigned(), "proof": {**OPTIONS, "proofValue": PROOF_VALUE}},
        {**OPTIONS, "proofValue": PROOF_VALUE},
        key,
        loader,
    )
    changed = copy.deepcopy(unsigned())
    changed["credentialSubject"]["alumniOf"] = "The School of Counterexamples"
    with pytest.raises(ProofError):
        verify_proof(changed, {**OPTIONS, "proofValue": PROOF_VALUE}, key, loader)


def test_the_product_loader_refuses_the_examples_context() -> None:
    with pytest.raises(UnknownContext):
        document_loader(EXAMPLES)
