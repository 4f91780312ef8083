"""Build and sign Open Badges 3.0 credentials (``OpenBadgeCredential``, VC Data Model 2.0).

Pure: the key, the dates and every value are handed in; the store keeps keys and numbers,
the web and CLI call :func:`issue`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from gputeam.credentials import multibase
from gputeam.credentials.loader import CREDENTIALS_V2, OB_V3P0
from gputeam.credentials.proof import sign

#: The terms of OB 3.0's ``AlignmentTargetType`` enumeration; it is extensible, and any
#: other value must be an extension term starting with ``ext:``.
TARGET_TYPES = frozenset(
    {
        "ceasn:Competency",
        "ceterms:Credential",
        "CFItem",
        "CFRubric",
        "CFRubricCriterion",
        "CFRubricCriterionLevel",
        "CTDL",
    }
)


def did_key(private_key: Ed25519PrivateKey) -> str:
    """The ``did:key`` identifier of an Ed25519 key (self-certifying, resolvable offline)."""
    raw = private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return "did:key:" + multibase.ed25519_multikey(raw)


@dataclass(frozen=True)
class Alignment:
    """A link from the achievement to a framework entry (a catalog skill domain, ESCO, O*NET).
    ``target_type``: OB 3.0's ``AlignmentTargetType`` (one of its terms, or an extension
    term, which OB 3.0 requires to start with ``ext:``)."""

    target_name: str
    target_url: str
    target_framework: str
    target_code: str | None = None
    target_type: str | None = None

    def __post_init__(self) -> None:
        kind = self.target_type
        if kind is not None and kind not in TARGET_TYPES and not re.fullmatch(r"ext:[A-Za-z0-9._-]+", kind):
            raise ValueError(
                f"targetType {kind!r} is neither an OB 3.0 AlignmentTargetType "
                "nor an extension term (ext:Name)"
            )

    def as_json(self) -> dict[str, Any]:
        out = {
            "type": ["Alignment"],
            "targetName": self.target_name,
            "targetUrl": self.target_url,
            "targetFramework": self.target_framework,
        }
        if self.target_code:
            out["targetCode"] = self.target_code
        if self.target_type:
            out["targetType"] = self.target_type
        return out


@dataclass(frozen=True)
class AchievementSpec:
    id: str
    name: str
    description: str
    criteria: str
    alignments: Sequence[Alignment] = ()
    #: result description id -> (name, what the value means), e.g. per-domain exam scores
    results: Mapping[str, str] = field(default_factory=dict)


def achievement_json(achievement: AchievementSpec) -> dict[str, Any]:
    """The OB 3.0 ``Achievement`` object of ``achievement`` (as a credential embeds it, and
    as its public page serves it)."""
    ach: dict[str, Any] = {
        "id": achievement.id,
        "type": ["Achievement"],
        "name": achievement.name,
        "description": achievement.description,
        "criteria": {"narrative": achievement.criteria},
    }
    if achievement.alignments:
        ach["alignment"] = [a.as_json() for a in achievement.alignments]
    if achievement.results:
        ach["resultDescription"] = [
            {
                "id": f"{achievement.id}#{rid}",
                "type": ["ResultDescription"],
                "name": name,
                "resultType": "Percent",
            }
            for rid, name in achievement.results.items()
        ]
    return ach


def credential(
    *,
    credential_id: str,
    issuer_id: str,
    issuer_name: str,
    subject_id: str,
    achievement: AchievementSpec,
    valid_from: str,
    valid_until: str | None = None,
    results: Mapping[str, str] | None = None,
    status: Mapping[str, Any] | None = None,
    evidence: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The unsigned credential. ``results`` maps result-description ids of ``achievement`` to
    achieved values (e.g. ``{"domain-networking": "82 %"}``)."""
    ach = achievement_json(achievement)
    subject: dict[str, Any] = {"id": subject_id, "type": ["AchievementSubject"], "achievement": ach}
    if results:
        unknown = set(results) - set(achievement.results)
        if unknown:
            raise ValueError(f"results for undescribed ids: {sorted(unknown)}")
        subject["result"] = [
            {"type": ["Result"], "resultDescription": f"{achievement.id}#{rid}", "value": value}
            for rid, value in results.items()
        ]
    cred: dict[str, Any] = {
        "@context": [CREDENTIALS_V2, OB_V3P0],
        "id": credential_id,
        "type": ["VerifiableCredential", "OpenBadgeCredential"],
        "issuer": {"id": issuer_id, "type": ["Profile"], "name": issuer_name},
        "validFrom": valid_from,
        "name": achievement.name,
        "credentialSubject": subject,
    }
    if valid_until:
        cred["validUntil"] = valid_until
    if status:
        cred["credentialStatus"] = dict(status)
    if evidence:
        cred["evidence"] = [dict(e) for e in evidence]
    return cred


def verification_method(issuer_id: str, private_key: Ed25519PrivateKey) -> str:
    """The verification method a proof by ``private_key`` names for ``issuer_id``: the
    issuer's ``did:key`` (which must be this key's) or its ``did:web`` (whose DID document
    lists the key), with the key's multikey as fragment."""
    did = did_key(private_key)
    multikey = did.removeprefix("did:key:")
    if issuer_id == did or issuer_id.startswith("did:web:"):
        return f"{issuer_id}#{multikey}"
    raise ValueError(f"the issuer id {issuer_id!r} is not this key's DID {did!r} (nor a did:web)")


def issue(unsigned: dict[str, Any], private_key: Ed25519PrivateKey, created: str) -> dict[str, Any]:
    """Sign ``unsigned`` with an ``eddsa-rdfc-2022`` proof whose verification method is
    :func:`verification_method` of its issuer."""
    issuer = unsigned["issuer"]
    issuer_id = issuer["id"] if isinstance(issuer, dict) else issuer
    return sign(unsigned, private_key, verification_method(str(issuer_id), private_key), created)
