"""Facts of the Open Badges 3.0 ``eddsa-rdfc-2022`` test vector, restated.

Source: 1EdTech, Open Badges Specification v3.0, implementation guide "Linked Data proof
(OB 3.0)" (repository 1EdTech/openbadges-specification, ob_v3p0/impl/linked-data-proof-ob.html
and ob_v3p0/impl/test-vectors/obv3p0/), © 1EdTech Consortium, published as test data for
implementers. Key pair, unsigned credential, proof options, hashes and the proof value are
the vector's; the credential is written out here as a Python literal.
"""

from __future__ import annotations

from typing import Any

PUBLIC_KEY_HEX = "4bdeafde2ea8beefadd8c699b5c7e0704cf51154d52e17b20b71337ca04cc5a5"
PRIVATE_KEY_HEX = "6241a409e6707bb640a0140a8a32bc3d193c33a661747284d6adfa4ed4180be4"
PUBLIC_KEY_MULTIBASE = "z6MkjZRZv3aez3r18pB1RBFJR1kwUVJ5jHt92JmQwXbd5hwi"
DOCUMENT_HASH_HEX = "87f65a76d40146205e3b3e06cb0fbd153f97f9ce70372390f52566bb7f9e0773"
PROOF_HASH_HEX = "d34009cea0dbc1ca941e09dc01c8c9d3e3ce3c5b853f67ee44698dcea10f5d19"
SIGNATURE_HEX = (
    "f7a017acf7d27983267ec362657c0fb08e955549f49dac5bf36a03c4f2c3a4f1"
    "e3738a6c5ecd7ffba7135cb9cd754e6196f4b73082ea8df8e703c8ecd4333503"
)
PROOF_VALUE = "z5x9aCBYovW3CQCbKdNyhEm7ffYSw1YpEdPywQJoNbzDD2gkzQDKJ1sYKJaWvqZtkMtSbz35HcbgXVEDYHxCzgkCr"
ISSUER = "https://example.edu/issuers/565049"
VERIFICATION_METHOD = f"{ISSUER}#{PUBLIC_KEY_MULTIBASE}"
CREATED = "2010-01-01T19:23:24Z"

PROOF_OPTIONS: dict[str, Any] = {
    "type": "DataIntegrityProof",
    "created": CREATED,
    "verificationMethod": VERIFICATION_METHOD,
    "cryptosuite": "eddsa-rdfc-2022",
    "proofPurpose": "assertionMethod",
}

PROOF_CANON = (
    '_:c14n0 <http://purl.org/dc/terms/created> "2010-01-01T19:23:24Z"'
    "^^<http://www.w3.org/2001/XMLSchema#dateTime> .\n"
    "_:c14n0 <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
    "<https://w3id.org/security#DataIntegrityProof> .\n"
    '_:c14n0 <https://w3id.org/security#cryptosuite> "eddsa-rdfc-2022"'
    "^^<https://w3id.org/security#cryptosuiteString> .\n"
    "_:c14n0 <https://w3id.org/security#proofPurpose> <https://w3id.org/security#assertionMethod> .\n"
    "_:c14n0 <https://w3id.org/security#verificationMethod> "
    f"<{VERIFICATION_METHOD}> .\n"
)


def unsigned() -> dict[str, Any]:
    return {
        "@context": [
            "https://www.w3.org/ns/credentials/v2",
            "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json",
        ],
        "id": "http://example.com/credentials/3527",
        "type": ["VerifiableCredential", "OpenBadgeCredential"],
        "issuer": {
            "id": ISSUER,
            "type": ["Profile"],
            "url": "https://www.imsglobal.org",
            "name": "Example Corp",
        },
        "validFrom": "2010-01-01T00:00:00Z",
        "name": "Teamwork Badge",
        "credentialSubject": {
            "id": "did:example:ebfeb1f712ebc6f1c276e12ec21",
            "type": ["AchievementSubject"],
            "achievement": {
                "id": "https://example.com/achievements/21st-century-skills/teamwork",
                "type": ["Achievement"],
                "criteria": {
                    "narrative": "Team members are nominated for this badge by their "
                    "peers and recognized upon review by Example Corp management."
                },
                "description": "This badge recognizes the development of the capacity to "
                "collaborate within a group environment.",
                "name": "Teamwork",
            },
        },
    }
