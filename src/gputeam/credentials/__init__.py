"""Open Badges 3.0 credentials: build, sign (``eddsa-rdfc-2022``), verify, revoke (Bitstring
Status List). Pure apart from the bundled JSON-LD contexts it reads: keys, dates and lists
are handed in.

    from gputeam.credentials import credential, issue, verify
"""

from gputeam.credentials.didweb import DidWebError, did_document, did_web
from gputeam.credentials.issue import (
    AchievementSpec,
    Alignment,
    achievement_json,
    credential,
    did_key,
    issue,
    verification_method,
)
from gputeam.credentials.loader import UnknownContext, document_loader
from gputeam.credentials.proof import ProofError, canonical, sign, transform, verify_proof
from gputeam.credentials.verify import Check, Verification, verify

__all__ = [
    "AchievementSpec",
    "Alignment",
    "Check",
    "DidWebError",
    "ProofError",
    "UnknownContext",
    "Verification",
    "achievement_json",
    "canonical",
    "credential",
    "did_document",
    "did_key",
    "did_web",
    "document_loader",
    "issue",
    "sign",
    "transform",
    "verify",
    "verification_method",
    "verify_proof",
]
