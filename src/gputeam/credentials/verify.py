"""Verify an Open Badges 3.0 credential offline, in the order OB 3.0 gives (§ "Verification"):
structure, proof, validity window, status, recipient.

Each step is a :class:`Check` (name, ok, message). The credential is valid when every check
is ok; a check that could not be made (no status list at hand, no expected recipient) is
ok with a message that says it was not checked. ``now`` is passed in: nothing here reads the
clock, the disk or the network.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gputeam.credentials import didweb, jsontext, multibase, statuslist
from gputeam.credentials.compacted import compaction_problems
from gputeam.credentials.loader import CONTEXTS, CREDENTIALS_V2, OB_V3P0, UnknownContext
from gputeam.credentials.proof import ProofError, verify_proof
from gputeam.i18n import N_

#: The checks' names, in their order: identifiers in the JSON result, words where a page or
#: the terminal shows them (translated there, as the checks' messages are: every message here
#: is an English sentence marked with ``N_``; a library's own words quoted in one stay as
#: they are).
CHECK_NAMES = (N_("structure"), N_("proof"), N_("validity"), N_("status"), N_("recipient"))

BADGE_TYPES = ("OpenBadgeCredential", "AchievementCredential")
#: The largest credential verified (its compact JSON, bytes): canonicalisation costs time in
#: proportion, and a real OB 3.0 credential (even a CLR) fits well within it.
MAX_CREDENTIAL_BYTES = 262_144
_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")


@dataclass(frozen=True)
class Check:
    """One step's outcome. ``message`` is English; when a step found several faults it is
    their sentences joined by "; ", and ``parts`` holds them one by one (each a message of
    its own, translated one by one where it is shown)."""

    name: str
    ok: bool
    message: str
    parts: tuple[str, ...] = ()

    @classmethod
    def of(cls, name: str, ok: bool, sentences: Sequence[str]) -> Check:
        """A check whose message is several sentences."""
        return cls(name, ok, "; ".join(sentences), tuple(sentences))

    @property
    def sentences(self) -> tuple[str, ...]:
        """The message's sentences (one, unless the step found several faults)."""
        return self.parts or (self.message,)

    def text(self, translate: Callable[[str], str] | None = None) -> str:
        """The message: English, or each sentence passed through ``translate`` (the caller's
        language; this package knows none)."""
        return self.message if translate is None else "; ".join(map(translate, self.sentences))

    def as_dict(self, translate: Callable[[str], str] | None = None) -> dict[str, Any]:
        """``name`` and ``ok`` are identifiers; ``message`` is for people (:meth:`text`)."""
        return {"name": self.name, "ok": self.ok, "message": self.text(translate)}


@dataclass(frozen=True)
class Signer:
    """A key whose signature of the credential verified: the verification method (or the
    VC-JWT's ``kid``) and, when it is an Ed25519 key, its 32 raw bytes (so that a tracker
    can tell whether it is one of its own keys; this package knows no one's keys)."""

    method: str
    ed25519: bytes | None = None


@dataclass(frozen=True)
class Verification:
    checks: tuple[Check, ...]
    #: The keys whose signatures verified (empty when the proof check failed).
    signers: tuple[Signer, ...] = ()

    @property
    def valid(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    def as_dict(self, translate: Callable[[str], str] | None = None) -> dict[str, Any]:
        return {"valid": self.valid, "checks": [c.as_dict(translate) for c in self.checks]}


def parse_datetime(value: Any) -> datetime:
    """An XML Schema dateTime with a time zone (``Z`` or an offset), as VC 2.0 requires."""
    if not isinstance(value, str):
        raise ValueError(N_("expected a date-time string"))
    found = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if found.tzinfo is None:
        raise ValueError(N_("a date-time needs a time zone (e.g. 'Z')"))
    return found


def _types(node: Any) -> list[str]:
    t = node.get("type") if isinstance(node, dict) else None
    return [t] if isinstance(t, str) else [x for x in t if isinstance(x, str)] if isinstance(t, list) else []


def _id(node: Any) -> str | None:
    if isinstance(node, str):
        return node
    if isinstance(node, dict) and isinstance(node.get("id"), str):
        return str(node["id"])
    return None


def structure_problems(cred: Any, embedded_proof: bool = True) -> list[str]:
    """What makes ``cred`` not an OB 3.0 credential in the VC 2.0 data model (empty: fine).
    ``embedded_proof``: a Data Integrity credential must carry a ``proof`` (a VC-JWT's proof
    is the JWS around it)."""
    if not isinstance(cred, dict):
        return [N_("the credential is not a JSON object")]
    import json

    try:
        jsontext.check_depth(cred)
    except jsontext.TooDeep as exc:
        return [str(exc)]

    try:
        size = len(json.dumps(cred, separators=(",", ":")).encode())
    except (TypeError, ValueError):
        return [N_("the credential is not plain JSON")]
    if size > MAX_CREDENTIAL_BYTES:
        too_large = N_("the credential has {size} bytes, more than the {limit} verified")
        return [too_large.format(size=size, limit=MAX_CREDENTIAL_BYTES)]
    problems: list[str] = []
    ctx = cred.get("@context")
    if not isinstance(ctx, list) or not ctx or ctx[0] != CREDENTIALS_V2:
        problems.append(N_("@context must be a list starting with {url}").format(url=repr(CREDENTIALS_V2)))
    if isinstance(ctx, list):
        if OB_V3P0 not in ctx:
            ob = N_("@context must include the Open Badges 3.0 context {url}")
            problems.append(ob.format(url=repr(OB_V3P0)))
        for c in ctx:
            if isinstance(c, str) and c not in CONTEXTS:
                problems.append(str(UnknownContext(c)))
            elif not isinstance(c, str):
                problems.append(N_("@context: embedded contexts are not accepted, only the bundled URLs"))
    contexts_known = not problems
    problems += _data_model_problems(cred)
    for field in ("validFrom", "validUntil"):
        if field in cred or field == "validFrom":
            try:
                parse_datetime(cred.get(field))
            except ValueError as exc:  # ours (marked) or datetime's own words
                problems.append(
                    N_("{field} must be a date-time with a time zone ({reason}); found {value}").format(
                        field=field, reason=exc, value=repr(cred.get(field))
                    )
                )
    if embedded_proof and "proof" not in cred:
        problems.append(N_("the credential has no proof"))
    if contexts_known:  # what compaction says explains the other problems (a renamed issuer)
        problems += compaction_problems(cred)
    return problems


def _is_uri(value: Any) -> bool:
    """An absolute URI: a scheme, a colon and something after it (``https://…``,
    ``urn:uuid:…``, ``did:key:…``)."""
    return isinstance(value, str) and bool(_URI.match(value))


def _text(value: Any) -> bool:
    """A non-empty string, or a JSON-LD language map / value object (``{"en": "…"}``)."""
    return (isinstance(value, str) and bool(value.strip())) or (isinstance(value, dict) and bool(value))


def _data_model_problems(cred: dict[str, Any]) -> list[str]:
    """The properties Open Badges 3.0's data model requires (§ B.1 AchievementCredential,
    Profile, AchievementSubject, Achievement, Criteria) that ``cred`` lacks, each named by
    its path. (@context, validFrom/validUntil and proof are checked by the caller.)"""
    problems: list[str] = []
    if not _is_uri(cred.get("id")):
        problems.append(
            N_("id must be the credential's URI; found {value}").format(value=repr(cred.get("id")))
        )
    types = _types(cred)
    if "VerifiableCredential" not in types or not set(BADGE_TYPES) & set(types):
        problems.append(
            N_("type must include 'VerifiableCredential' and one of {types}; found {value}").format(
                types=", ".join(BADGE_TYPES), value=types
            )
        )
    if not _text(cred.get("name")):
        problems.append(N_("name (the credential's display name) is required"))
    issuer = cred.get("issuer")
    if not isinstance(issuer, dict):
        problems.append(
            N_("issuer must be a Profile object (with id and type 'Profile'); found {value}").format(
                value=repr(issuer)
            )
        )
    else:
        if not _is_uri(issuer.get("id")):
            problems.append(
                N_("issuer.id must be the issuer's URI; found {value}").format(value=repr(issuer.get("id")))
            )
        if "Profile" not in _types(issuer):
            problems.append(
                N_("issuer.type must include 'Profile'; found {value}").format(value=_types(issuer))
            )
    subject = cred.get("credentialSubject")
    if not isinstance(subject, dict):
        return [*problems, N_("credentialSubject must be an AchievementSubject object")]
    if "AchievementSubject" not in _types(subject):
        problems.append(
            N_("credentialSubject.type must include 'AchievementSubject'; found {value}").format(
                value=_types(subject)
            )
        )
    identifier = subject.get("identifier")
    if not _is_uri(subject.get("id")) and not (
        isinstance(identifier, dict) or (isinstance(identifier, list) and identifier)
    ):
        problems.append(N_("credentialSubject needs an id (the recipient's URI) or an identifier"))
    ach = subject.get("achievement")
    if not isinstance(ach, dict):
        return [*problems, N_("credentialSubject.achievement must be an Achievement object")]
    if not _is_uri(ach.get("id")):
        problems.append(
            N_("credentialSubject.achievement.id must be the achievement's URI; found {value}").format(
                value=repr(ach.get("id"))
            )
        )
    if "Achievement" not in _types(ach):
        problems.append(
            N_("credentialSubject.achievement.type must include 'Achievement'; found {value}").format(
                value=_types(ach)
            )
        )
    if not _text(ach.get("name")):
        problems.append(N_("credentialSubject.achievement.name is required"))
    if not _text(ach.get("description")):
        problems.append(N_("credentialSubject.achievement.description is required"))
    criteria = ach.get("criteria")
    if not isinstance(criteria, dict) or not (
        _is_uri(criteria.get("id")) or _text(criteria.get("narrative"))
    ):
        problems.append(
            N_("credentialSubject.achievement.criteria must be an object with an id (a URI) or a narrative")
        )
    return problems


def resolve_key(
    verification_method: Any, issuer_id: str, did_documents: Mapping[str, Any] | None = None
) -> bytes:
    """The Ed25519 public key a proof's verification method names, resolved offline.

    ``did:key:z6Mk…`` (optionally ``#z6Mk…``) carries the key itself; an issuer URL with the
    key as fragment (``https://issuer.example/1#z6Mk…``, as the OB 3.0 test vector and
    1EdTech's validator use) is read the same way; a ``did:web`` is looked up in
    ``did_documents`` (DID → DID document, handed in: never fetched). The method must
    belong to the issuer (its part before ``#`` is the issuer's id), or anyone could sign
    in the issuer's name.
    """
    if not isinstance(verification_method, str) or not verification_method:
        raise ProofError(N_("the proof has no verificationMethod"))
    base, _, fragment = verification_method.partition("#")
    if base.startswith("did:"):
        method = base.split(":")[1] if base.count(":") >= 2 else ""
        if method not in ("key", "web"):
            unresolvable = N_("DID method {method} cannot be resolved offline (did:key and did:web can)")
            raise ProofError(unresolvable.format(method=repr(method)))
    if base != issuer_id:
        raise ProofError(
            N_("verificationMethod {method} does not belong to the issuer {issuer}").format(
                method=repr(verification_method), issuer=repr(issuer_id)
            )
        )
    if base.startswith("did:web:"):
        return didweb.resolve(verification_method, did_documents)
    if base.startswith("did:"):
        key_text = base[len("did:key:") :]
        if fragment and fragment != key_text:
            raise ProofError(N_("the did:key fragment must repeat the key"))
    elif base.startswith("https://") or base.startswith("http://"):
        if not fragment.startswith("z6Mk"):
            raise ProofError(
                N_(
                    "verificationMethod {method} cannot be resolved offline (expected the "
                    "issuer's URL with a multikey fragment)"
                ).format(method=repr(verification_method))
            )
        key_text = fragment
    else:
        neither = N_("verificationMethod {method} is neither a DID nor a URL")
        raise ProofError(neither.format(method=repr(verification_method)))
    try:
        return multibase.ed25519_from_multikey(key_text)
    except multibase.MultibaseError as exc:
        raise ProofError(N_("verificationMethod: {reason}").format(reason=exc)) from None


def check_proof(cred: dict[str, Any], did_documents: Mapping[str, Any] | None = None) -> Check:
    """Every proof of the credential (a proof set, VC Data Integrity §2.1.2, is a list):
    all must verify; one that does not makes the credential not valid, whatever the others."""
    return _data_integrity(cred, did_documents)[0]


def _data_integrity(
    cred: dict[str, Any], did_documents: Mapping[str, Any] | None = None
) -> tuple[Check, tuple[Signer, ...]]:
    proofs = cred["proof"] if isinstance(cred["proof"], list) else [cred["proof"]]
    issuer = _id(cred.get("issuer")) or ""
    if not proofs or not all(isinstance(p, dict) for p in proofs):
        return Check("proof", False, N_("proof must be an object or a list of objects")), ()
    failures, methods, signers = [], [], []
    for number, p in enumerate(proofs, 1):
        try:
            if p.get("proofPurpose") != "assertionMethod":
                purpose = N_("proofPurpose is {found}, expected 'assertionMethod'")
                raise ProofError(purpose.format(found=repr(p.get("proofPurpose"))))
            key = resolve_key(p.get("verificationMethod"), issuer, did_documents)
            verify_proof(cred, p, key)
            methods.append(str(p["verificationMethod"]))
            signers.append(Signer(methods[-1], key))
            continue
        except ProofError as exc:
            reason = str(exc)
        except Exception as exc:  # canonicalisation of a malformed document
            reason = N_("the credential cannot be canonicalised: {error}").format(error=type(exc).__name__)
        if len(proofs) == 1:
            failures.append(reason)
        else:
            of = N_("proof {number} of {count}: {reason}")
            failures.append(of.format(number=number, count=len(proofs), reason=reason))
    if failures:
        return Check.of("proof", False, failures), ()
    if len(methods) == 1:
        valid = N_("eddsa-rdfc-2022 signature by {method} is valid")
        return Check("proof", True, valid.format(method=methods[0])), tuple(signers)
    every = N_("all {count} eddsa-rdfc-2022 signatures are valid (by {methods})")
    found = every.format(count=len(methods), methods=", ".join(methods))
    return Check("proof", True, found), tuple(signers)


def check_validity(cred: dict[str, Any], now: datetime) -> Check:
    start = parse_datetime(cred["validFrom"])
    if now < start:
        return Check("validity", False, N_("not valid before {date}").format(date=cred["validFrom"]))
    if "validUntil" in cred:
        end = parse_datetime(cred["validUntil"])
        if now >= end:
            return Check("validity", False, N_("expired on {date}").format(date=cred["validUntil"]))
        until = N_("valid from {start} until {end}")
        return Check("validity", True, until.format(start=cred["validFrom"], end=cred["validUntil"]))
    return Check("validity", True, N_("valid from {start}, no end date").format(start=cred["validFrom"]))


def check_status(
    cred: dict[str, Any],
    status_list: dict[str, Any] | str | None,
    now: datetime,
    did_documents: Mapping[str, Any] | None = None,
) -> Check:
    entries = cred.get("credentialStatus")
    if entries is None:
        return Check("status", True, N_("no credentialStatus: the issuer cannot revoke it"))
    entries = entries if isinstance(entries, list) else [entries]
    revocation = [
        e
        for e in entries
        if isinstance(e, dict)
        and e.get("type") == "BitstringStatusListEntry"
        and e.get("statusPurpose") == statuslist.PURPOSE
    ]
    if not revocation:
        return Check("status", True, N_("status not checked: no revocation entry it understands"))
    entry = revocation[0]
    if status_list is None:
        return Check(
            "status",
            True,
            N_("status not checked: the status list {url} was not given (offline)").format(
                url=entry.get("statusListCredential")
            ),
        )
    token: str | None = None
    if isinstance(status_list, str):  # the status list as a VC-JWT
        from gputeam.credentials import vcjwt

        token = status_list
        try:
            status_list = vcjwt.credential_of(token)
        except ProofError as exc:
            return Check(
                "status", False, N_("the status list's proof is invalid: {reason}").format(reason=exc)
            )
    if status_list.get("id") != entry.get("statusListCredential"):
        return Check(
            "status",
            False,
            N_("the status list given is {given}, the credential names {named}").format(
                given=repr(status_list.get("id")), named=repr(entry.get("statusListCredential"))
            ),
        )
    index = _list_index(entry.get("statusListIndex"))
    if index is None:
        return Check(
            "status",
            False,
            N_("statusListIndex must be a non-negative integer written as a string; found {value}").format(
                value=repr(entry.get("statusListIndex"))
            ),
        )
    listed = verify_status_list(status_list, _id(cred.get("issuer")) or "", now, did_documents, token)
    if isinstance(listed, Check):
        return listed
    try:
        revoked = statuslist.is_set(listed, index)
    except statuslist.StatusListError as exc:
        return Check("status", False, N_("statusListIndex: {reason}").format(reason=exc))
    if revoked:
        return Check("status", False, N_("revoked by the issuer"))
    return Check("status", True, N_("not revoked"))


def _list_index(value: Any) -> int | None:
    """A ``statusListIndex`` (Bitstring Status List: an integer as a string; a JSON integer
    is read too), or None when it is neither."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value >= 0 else None
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    return None


def verify_status_list(
    status_list: dict[str, Any],
    issuer: str,
    now: datetime,
    did_documents: Mapping[str, Any] | None = None,
    token: str | None = None,
) -> bytes | Check:
    """The bits of a status list credential (with an embedded proof, or ``token``, the VC-JWT
    it is the payload of), or a failed check saying why it can't be used."""
    if "BitstringStatusListCredential" not in _types(status_list):
        return Check("status", False, N_("the status list is not a BitstringStatusListCredential"))
    if _id(status_list.get("issuer")) != issuer:
        return Check("status", False, N_("the status list was not issued by the credential's issuer"))
    proofs = status_list.get("proof")
    proofs = proofs if isinstance(proofs, list) else [proofs]
    try:
        if token is not None:
            from gputeam.credentials import vcjwt

            vcjwt.verify_jwt_signer(token, issuer, did_documents)
        elif not proofs or not all(isinstance(p, dict) for p in proofs):
            raise ProofError(N_("the status list has no proof"))
        else:
            for p in proofs:  # a proof set: every proof must verify
                verify_proof(status_list, p, resolve_key(p.get("verificationMethod"), issuer, did_documents))
    except ProofError as exc:
        return Check("status", False, N_("the status list's proof is invalid: {reason}").format(reason=exc))
    unlike = compaction_problems(status_list)
    if unlike:
        return Check.of(
            "status", False, [N_("the status list is refused: {reason}").format(reason=r) for r in unlike]
        )
    subject = status_list.get("credentialSubject")
    try:
        if not isinstance(subject, dict):
            raise statuslist.StatusListError(N_("the status list has no credentialSubject"))
        return statuslist.decode(subject.get("encodedList", ""))
    except statuslist.StatusListError as exc:
        return Check("status", False, str(exc))


def check_recipient(cred: dict[str, Any], recipient: str | None) -> Check:
    if recipient is None:
        return Check("recipient", True, N_("recipient not checked: none was given"))
    subject = cred["credentialSubject"]
    if subject.get("id") == recipient:
        return Check("recipient", True, N_("issued to {recipient}").format(recipient=recipient))
    identifiers = subject.get("identifier") or []
    for ident in identifiers if isinstance(identifiers, list) else [identifiers]:
        if not isinstance(ident, dict):
            continue  # not an IdentityObject: it names nobody
        value, salt = ident.get("identityHash"), ident.get("salt") or ""
        if not isinstance(salt, str):
            continue
        if ident.get("hashed") and isinstance(value, str) and value.startswith("sha256$"):
            if hashlib.sha256((recipient + salt).encode()).hexdigest() == value[7:].lower():
                hashed = N_("issued to {recipient} (hashed identifier)")
                return Check("recipient", True, hashed.format(recipient=recipient))
        elif value == recipient:
            return Check("recipient", True, N_("issued to {recipient}").format(recipient=recipient))
    return Check("recipient", False, N_("not issued to {recipient}").format(recipient=recipient))


def check_jwt(token: str, cred: dict[str, Any], did_documents: Mapping[str, Any] | None = None) -> Check:
    return _jwt(token, cred, did_documents)[0]


def _jwt(
    token: str, cred: dict[str, Any], did_documents: Mapping[str, Any] | None = None
) -> tuple[Check, tuple[Signer, ...]]:
    from gputeam.credentials import vcjwt

    try:
        signer = vcjwt.verify_jwt_signer(token, _id(cred.get("issuer")) or "", did_documents)
    except ProofError as exc:
        return Check("proof", False, str(exc)), ()
    if not signer.bound:
        unbound = N_(
            "VC-JWT signature ({alg}) by the key in the token's jwk header is valid; offline, "
            "nothing ties that key to the issuer {issuer}"
        )
        message = unbound.format(alg=signer.alg, issuer=_id(cred.get("issuer")))
    else:
        message = N_("VC-JWT signature by {kid} is valid").format(kid=signer.method)
    return Check("proof", True, message), (Signer(signer.method, signer.ed25519),)


def verify(
    cred: Any,
    *,
    now: datetime,
    status_list: dict[str, Any] | str | None = None,
    recipient: str | None = None,
    did_documents: Mapping[str, Any] | None = None,
) -> Verification:
    """Every check of ``cred`` (a credential with an embedded Data Integrity proof, or a
    VC-JWT compact string); stops after the structure check when that fails.
    ``did_documents``: DID → DID document, for issuers identified by did:web (nothing is
    fetched)."""
    token = None
    if isinstance(cred, str):
        from gputeam.credentials import vcjwt

        token = cred
        try:
            cred = vcjwt.unverified_payload(token)
        except ProofError as exc:
            return Verification((Check("structure", False, str(exc)),))
        cred = {k: v for k, v in cred.items() if k not in vcjwt.REGISTERED_CLAIMS}
    try:
        problems = structure_problems(cred, embedded_proof=token is None)
    except Exception as exc:  # the safety net of _guarded, for the first step
        unread = N_("the structure check could not read the credential ({error})")
        problems = [unread.format(error=f"{type(exc).__name__}: {exc}")]
    if problems:
        return Verification((Check.of("structure", False, problems),))

    signers: list[Signer] = []

    def proof() -> Check:
        found, keys = (
            _data_integrity(cred, did_documents) if token is None else _jwt(token, cred, did_documents)
        )
        signers.extend(keys)
        return found

    steps: list[tuple[str, Callable[[], Check]]] = [
        ("proof", proof),
        ("validity", lambda: check_validity(cred, now)),
        ("status", lambda: check_status(cred, status_list, now, did_documents)),
        ("recipient", lambda: check_recipient(cred, recipient)),
    ]
    checks = [Check("structure", True, N_("an Open Badges 3.0 credential (VC 2.0 data model)"))]
    checks += [_guarded(name, step) for name, step in steps]
    return Verification(tuple(checks), tuple(signers))


def _guarded(name: str, step: Callable[[], Check]) -> Check:
    """``step()``, or a failed check when it raises: input no check foresaw makes the
    credential not valid, never a traceback (the CLI's exit 1, the API's 200)."""
    try:
        return step()
    except Exception as exc:
        reason = f"{type(exc).__name__}: {exc}"
        unread = N_("the {name} check could not read the credential ({reason})")
        return Check(name, False, unread.format(name=name, reason=reason))
