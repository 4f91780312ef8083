"""1EdTech's OB 3.0 validator samples get the validator's verdict, and the structure step
checks what OB 3.0's data model requires.

Source of the samples' facts: 1EdTech, digital-credentials-public-validator @ 38254719,
``inspector-vc/src/test/resources/ob30/`` (Apache-2.0, © 1EdTech Consortium): ``simple.json``
must verify and each ``simple-err-*.json`` must be rejected. They are restated here, not
copied: ``SIMPLE`` is the valid sample's credential and proof value, and each error sample
is written as what it changes in it (with its own proof values), so the tests need nothing
outside the repository.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from gputeam.credentials import verify
from gputeam.credentials.verify import structure_problems

from .test_verify import _issued

NOW = datetime(2026, 12, 2, tzinfo=UTC)
ISSUER = "https://example.com/issuers/876543"
#: The OB 3.0 test vector's key (see vectors.py), which signed simple.json.
VECTOR_KEY = "z6MkjZRZv3aez3r18pB1RBFJR1kwUVJ5jHt92JmQwXbd5hwi"
#: Another key, which signed the proof-value and unknown-DID-method samples.
OTHER_KEY = "z6MkrvfzkMnvCroEUP2DVc9SHPE48CRsvHiVSusHioxTYu1x"
#: That key's signature of simple.json's credential (created 2024-03-20T14:53:19Z), as the
#: unknown-DID-method sample carries it; the proof-value sample swaps two of its characters.
OTHER_SIGNATURE = "z76jrNcyxHg5fV17h96yCRwqUaTQZD2QQivyNqHyLSvqu3aWGC3nLShzZEGbH3LnVFodwov9rPQxi3QRP7adCrzV"

SIMPLE: dict[str, Any] = {
    "@context": [
        "https://www.w3.org/ns/credentials/v2",
        "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json",
    ],
    "id": "http://example.com/credentials/3527",
    "type": ["VerifiableCredential", "OpenBadgeCredential"],
    "issuer": {"id": ISSUER, "type": ["Profile"], "name": "Example Corp"},
    "validFrom": "2010-01-01T00:00:00Z",
    "name": "Teamwork Badge",
    "credentialSubject": {
        "id": "did:example:ebfeb1f712ebc6f1c276e12ec21",
        "type": ["AchievementSubject"],
        "achievement": {
            "id": "https://example.com/achievements/21st-century-skills/teamwork",
            "type": ["Achievement"],
            "criteria": {
                "narrative": "Team members are nominated for this badge by their peers and "
                "recognized upon review by Example Corp management."
            },
            "description": "This badge recognizes the development of the capacity to collaborate "
            "within a group environment.",
            "name": "Teamwork",
        },
    },
    "proof": [
        {
            "type": "DataIntegrityProof",
            "created": "2010-01-01T19:23:24Z",
            "verificationMethod": f"{ISSUER}#{VECTOR_KEY}",
            "cryptosuite": "eddsa-rdfc-2022",
            "proofPurpose": "assertionMethod",
            "proofValue": "z41ZsNkz78FHSGkAD5J4b8EN49DkywMMJSL3UdUNffbsCAWmTLPvtnJpd3JGGooYX7TNrz"
            "gsTLkXUWiGsRRZ788ML",
        }
    ],
}


def _other_key_proof(value: str, method: str) -> Callable[[dict[str, Any]], None]:
    def change(c: dict[str, Any]) -> None:
        c["proof"][0].update(created="2024-03-20T14:53:19Z", verificationMethod=method, proofValue=value)

    return change


def _expired(c: dict[str, Any]) -> None:
    c["validUntil"] = "2010-01-01T00:00:00Z"
    c["proof"][0]["proofValue"] = (
        "z2mAP6ezimojRWSHDhS1VfJgDdMCqa4oPbmJT1tCs43t5bRiwsrrhHxrmTEeAF2EBjErrzxoJj3HCKsdkyVkno11f"
    )


def _without_achievement(c: dict[str, Any]) -> None:
    """What simple-err-context, -issued and -type share: another issuer and credential id,
    and a subject without an achievement."""
    c["id"] = "http://example.edu/credentials/3732"
    c["issuer"] = {
        "id": "https://example.edu/issuers/565049",
        "type": ["Profile"],
        "name": "Example University",
    }
    c["name"] = "Example University Degree"
    del c["credentialSubject"]["achievement"]


def _err_context(c: dict[str, Any]) -> None:
    _without_achievement(c)
    c["@context"] = c["@context"][1:]  # no VC 2.0 context
    c["issuanceDate"] = c.pop("validFrom")  # the VC 1.1 property


def _err_issued(c: dict[str, Any]) -> None:
    _without_achievement(c)
    c.update(validFrom="2040-01-01T00:00:00Z", validUntil="2050-01-20T00:00:00Z")


def _err_type(c: dict[str, Any]) -> None:
    _without_achievement(c)
    c["type"] = ["VerifiableCredential", "OtherCredential"]


#: sample -> (its change to simple.json, the check that fails, words of our message)
ERR_SAMPLES: dict[str, tuple[Callable[[dict[str, Any]], None], str, str]] = {
    "simple-err-expired": (_expired, "validity", "expired on 2010-01-01"),
    "simple-err-proof-value": (
        _other_key_proof(OTHER_SIGNATURE.replace("LnVF", "LvNF"), f"{ISSUER}#{OTHER_KEY}"),
        "proof",
        "signature does not match",
    ),
    "simple-err-proof-method-unknown-did-method": (
        _other_key_proof(OTHER_SIGNATURE, f"did:example:{OTHER_KEY}"),
        "proof",
        "DID method 'example' cannot be resolved",
    ),
    "simple-err-context": (_err_context, "structure", "@context must be a list starting with"),
    "simple-err-issued": (_err_issued, "structure", "achievement must be an Achievement"),
    "simple-err-type": (_err_type, "structure", "type must include 'VerifiableCredential'"),
}


def test_the_valid_sample_verifies() -> None:
    result = verify(copy.deepcopy(SIMPLE), now=NOW)
    assert result.valid, result.as_dict()


@pytest.mark.parametrize("sample", sorted(ERR_SAMPLES))
def test_each_error_sample_is_rejected(sample: str) -> None:
    change, failed, says = ERR_SAMPLES[sample]
    cred = copy.deepcopy(SIMPLE)
    change(cred)
    result = verify(cred, now=NOW)
    checks = {c.name: c for c in result.checks}
    assert not result.valid and not checks[failed].ok and says in checks[failed].message, result.as_dict()


def test_the_proof_value_sample_differs_from_a_valid_signature_only_by_its_value() -> None:
    """With the other key's signature restored, the proof-value sample verifies: it is
    rejected for the swapped characters, not for anything we canonicalise differently."""
    cred = copy.deepcopy(SIMPLE)
    _other_key_proof(OTHER_SIGNATURE, f"{ISSUER}#{OTHER_KEY}")(cred)
    assert verify(cred, now=NOW).valid


# ------------------------------------------------------------------ OB 3.0 data model
def _drop(*path: str) -> Callable[[dict[str, Any]], None]:
    def change(c: dict[str, Any]) -> None:
        node = c
        for step in path[:-1]:
            node = node[step]
        del node[path[-1]]

    return change


def _set(value: Any, *path: str) -> Callable[[dict[str, Any]], None]:
    def change(c: dict[str, Any]) -> None:
        node = c
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value

    return change


ACH = ("credentialSubject", "achievement")
#: What OB 3.0 (§ B.1: AchievementCredential, Profile, AchievementSubject, Achievement,
#: Criteria) requires, each removed or broken in turn: (change, words of the message).
REQUIRED: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "credential id": (_drop("id"), "id must be the credential's URI"),
    "credential id not a URI": (_set("3527", "id"), "id must be the credential's URI"),
    "credential name": (_drop("name"), "name (the credential's display name) is required"),
    "badge type": (_set(["VerifiableCredential"], "type"), "type must include"),
    "issuer a bare URI": (_set("https://example.com/i", "issuer"), "issuer must be a Profile object"),
    "issuer id": (_drop("issuer", "id"), "issuer.id must be the issuer's URI"),
    "issuer type": (_drop("issuer", "type"), "issuer.type must include 'Profile'"),
    "validFrom": (_drop("validFrom"), "validFrom"),
    "subject type": (_set(["Subject"], "credentialSubject", "type"), "must include 'AchievementSubject'"),
    "subject id and identifier": (_drop("credentialSubject", "id"), "needs an id"),
    "achievement": (_drop(*ACH), "achievement must be an Achievement object"),
    "achievement id": (_drop(*ACH, "id"), "achievement.id must be the achievement's URI"),
    "achievement type": (_set(["Badge"], *ACH, "type"), "achievement.type must include 'Achievement'"),
    "achievement name": (_drop(*ACH, "name"), "achievement.name is required"),
    "achievement blank name": (_set("  ", *ACH, "name"), "achievement.name is required"),
    "achievement description": (_drop(*ACH, "description"), "achievement.description is required"),
    "achievement criteria": (_drop(*ACH, "criteria"), "achievement.criteria must be an object"),
    "criteria without id or narrative": (_set({}, *ACH, "criteria"), "with an id (a URI) or a narrative"),
}


@pytest.mark.parametrize("what", sorted(REQUIRED))
def test_a_credential_without_what_ob3_requires_is_refused(what: str) -> None:
    change, says = REQUIRED[what]
    for cred in (copy.deepcopy(SIMPLE), _issued()):
        change(cred)
        only = verify(cred, now=NOW).checks
        assert [c.name for c in only] == ["structure"] and not only[0].ok
        assert says in only[0].message, only[0].message


def test_the_alternatives_ob3_allows_are_accepted() -> None:
    """AchievementCredential for OpenBadgeCredential, criteria by id, an identifier instead
    of a subject id, a language map for a name: structurally fine."""
    cred = copy.deepcopy(SIMPLE)
    cred["type"] = ["VerifiableCredential", "AchievementCredential"]
    cred["credentialSubject"]["achievement"]["criteria"] = {"id": "https://example.com/criteria/1"}
    del cred["credentialSubject"]["id"]
    cred["credentialSubject"]["identifier"] = [
        {"type": "IdentityObject", "identityType": "emailAddress", "hashed": False, "identityHash": "a@b.c"}
    ]
    cred["credentialSubject"]["achievement"]["name"] = {"en": "Teamwork", "de": "Teamarbeit"}
    assert structure_problems(cred) == []
    assert structure_problems(_issued()) == []
