"""Open Badges 3.0 credentials issued by an organisation: its sealed issuing keys, the
credentials it issued, revocation and the Bitstring Status List of each key.

The pure work (building, signing, sealing, the status list's bits) is
:mod:`gputeam.credentials`; this module keeps the rows and their rules:

- a credential is issued only for a certification the person holds and that is valid on the
  day of issue, and only for a person of the organisation;
- each credential gets a random free index in its key's status list (so the index says
  nothing about when it was issued);
- revocation sets the bit, with a reason, audited; it cannot be undone.
"""

from __future__ import annotations

import secrets
import uuid as uuidlib
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from gputeam.catalog import Catalog
from gputeam.i18n import N_
from gputeam.store import audit
from gputeam.store.errors import NotFound, not_found, refused
from gputeam.store.people import get_organisation, get_person
from gputeam.store.schema import CertificationHeld, IssuedCredential, IssuerKey

#: Status list size per issuing key (the W3C minimum, 131,072 entries).
STATUS_LIST_BITS = 131_072


def _context(org_id: int) -> str:
    return f"organisation:{org_id}"


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def current_issuer_key(
    session: Session, org_id: int, secret: str, *, actor: str | None = None
) -> tuple[IssuerKey, Any]:
    """The organisation's signing key (row and private key), created on first use."""
    from gputeam.credentials import did_key
    from gputeam.credentials.keys import seal, unseal

    get_organisation(session, org_id)
    row = session.scalar(
        select(IssuerKey)
        .where(IssuerKey.org_id == org_id, IssuerKey.retired_at.is_(None))
        .order_by(IssuerKey.id.desc())
        .limit(1)
    )
    if row is not None:
        return row, unseal(row.sealed, secret, _context(org_id))
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    row = IssuerKey(org_id=org_id, did=did_key(key), sealed=seal(key, secret, _context(org_id)))
    session.add(row)
    session.flush()
    audit.record(session, actor, "create", "issuer_key", row.id, None, {"org_id": org_id, "did": row.did})
    return row, key


def rotate_issuer_key(
    session: Session, org_id: int, secret: str, *, actor: str | None = None, now: datetime | None = None
) -> IssuerKey:
    """Retire the current key (it stays, for verifying what it signed) and make a new one."""
    old = session.scalars(
        select(IssuerKey).where(IssuerKey.org_id == org_id, IssuerKey.retired_at.is_(None))
    ).all()
    for row in old:
        row.retired_at = now or datetime.now(UTC)
        audit.record(session, actor, "retire", "issuer_key", row.id, None, {"org_id": org_id, "did": row.did})
    session.flush()
    return current_issuer_key(session, org_id, secret, actor=actor)[0]


def issuer_key_in(session: Session, org_id: int, key_id: int) -> IssuerKey | None:
    """The issuing key with this id if it is this organisation's (current or retired)."""
    return session.scalar(select(IssuerKey).where(IssuerKey.id == key_id, IssuerKey.org_id == org_id))


def _free_index(session: Session, key_id: int) -> int:
    used = set(
        session.scalars(select(IssuedCredential.status_index).where(IssuedCredential.key_id == key_id))
    )
    if len(used) >= STATUS_LIST_BITS:
        raise refused("status list", N_("this issuing key's status list is full; rotate the key"))
    while True:
        index = secrets.randbelow(STATUS_LIST_BITS)
        if index not in used:
            return index


def achievement_url(base_url: str, cert_id: str, programme: str | None = None) -> str:
    """The public page of a catalog certification's achievement (the ``Achievement``'s id), or
    of an internal programme's when ``programme`` (its code) grants it: open without login."""
    from urllib.parse import quote

    url = f"{base_url}/achievements/{quote(cert_id, safe='')}"
    return f"{url}/programmes/{quote(programme, safe='')}" if programme else url


def skill_domain_url(base_url: str, domain: str) -> str:
    """The public page entry of a catalog skill domain (an alignment's ``targetUrl``)."""
    return f"{base_url}/skill-domains#domain-{domain}"


def achievement_for(
    catalog: Catalog,
    cert_id: str,
    base_url: str,
    *,
    criteria: str | None = None,
    results: Mapping[str, str] | None = None,
    programme: str | None = None,
) -> Any:
    """The OB 3.0 Achievement of a catalog certification, aligned to the skill domains it
    grants, the occupations their groups belong to and the ESCO skills mapped to them;
    ``criteria`` replaces the catalog's words (an internal programme's blueprint and rubric,
    ``programme`` its code, which gives the achievement its own page), ``results`` names the
    result descriptions (id -> name)."""
    from gputeam.credentials import AchievementSpec, Alignment
    from gputeam.credentials.occupations import esco_skill_alignments, occupation_alignments

    cert = catalog.certifications[cert_id]
    level = f", competency level {cert.level} of the article's five" if cert.level else ""
    alignments = tuple(
        Alignment(
            target_name=catalog.domains[g.domain].name if g.domain in catalog.domains else g.domain,
            target_url=skill_domain_url(base_url, g.domain),
            target_framework="gputeam skill domains",
            target_code=g.domain,
        )
        for g in cert.grants
    )
    groups = {catalog.domains[g.domain].group for g in cert.grants if g.domain in catalog.domains}
    alignments += occupation_alignments(sorted(groups))
    alignments += esco_skill_alignments(g.domain for g in cert.grants)
    return AchievementSpec(
        id=achievement_url(base_url, cert_id, programme),
        name=cert.name,
        description=f"{cert.name} ({cert.vendor}){level}.",
        criteria=criteria
        or f"Holds the {cert.name} certification, recorded in the organisation's tracker with its validity"
        + (
            f" (exam: {cert.exam.questions_min}"
            + (
                f"-{cert.exam.questions_max}"
                if cert.exam.questions_max and cert.exam.questions_max != cert.exam.questions_min
                else ""
            )
            + " questions)"
            if cert.exam.questions_min
            else ""
        )
        + ".",
        alignments=alignments,
        results=dict(results or {}),
    )


def issue_credential(
    session: Session,
    org_id: int,
    person_id: int,
    cert_id: str,
    *,
    catalog: Catalog,
    secret: str,
    base_url: str,
    now: datetime,
    actor: str | None = None,
    criteria: str | None = None,
    results: Mapping[str, tuple[str, str]] | None = None,
    issuer_did: str | None = None,
    programme: str | None = None,
) -> IssuedCredential:
    """Issue and store a signed credential for a certification ``person_id`` holds.
    ``results`` (e.g. an exam's per-domain scores) maps a result id to (name, value);
    ``issuer_did``: the organisation's did:web (default: the signing key's did:key);
    ``programme``: the code of the internal programme whose pass this attests (with its
    ``criteria``)."""
    from gputeam.credentials import credential, issue, statuslist

    person = get_person(session, person_id)
    if person.org_id != org_id:
        raise not_found("person", person_id)
    if cert_id not in catalog.certifications:
        raise refused(
            "achievement",
            N_("not a certification of the catalog in use"),
            cert_id,
            N_("a catalog certification id"),
        )
    today = now.date()
    held = session.scalars(
        select(CertificationHeld)
        .where(
            CertificationHeld.person_id == person_id,
            CertificationHeld.cert_id == cert_id,
            CertificationHeld.valid_from <= today,
        )
        .order_by(CertificationHeld.valid_from.desc())
    ).first()
    if held is None or (held.valid_until is not None and held.valid_until < today):
        raise refused(
            "achievement",
            N_("{person} holds no valid {certification} on {date}").format(
                person=person.name, certification=cert_id, date=today
            ),
            cert_id,
            N_("a certification the person holds, valid today"),
        )
    key_row, key = current_issuer_key(session, org_id, secret, actor=actor)
    index = _free_index(session, key_row.id)
    cred_uuid = str(uuidlib.uuid4())
    subject = f"mailto:{person.email}" if person.email else f"urn:gputeam:person:{org_id}:{person.key}"
    org = get_organisation(session, org_id)
    unsigned = credential(
        credential_id=f"urn:uuid:{cred_uuid}",
        issuer_id=issuer_did or key_row.did,
        issuer_name=org.name,
        subject_id=subject,
        achievement=achievement_for(
            catalog,
            cert_id,
            base_url,
            criteria=criteria,
            results={k: name for k, (name, _) in (results or {}).items()},
            programme=programme,
        ),
        results={k: value for k, (_, value) in (results or {}).items()} or None,
        # from when the certification is held (the proof's ``created`` is the issue time)
        valid_from=_iso(datetime.combine(held.valid_from, time(), UTC)),
        valid_until=_iso(datetime.combine(held.valid_until, time(), UTC)) if held.valid_until else None,
        status=statuslist.status_entry(status_list_url(base_url, key_row.id), index),
        evidence=[
            {
                # the credential's public page (no login; the person page needs one and
                # would name the tracker's internal id)
                "id": f"{base_url}/credentials/{cred_uuid}",
                "type": ["Evidence"],
                "name": f"{cert_id} held from {held.valid_from}"
                + (f" until {held.valid_until}" if held.valid_until else ""),
            }
        ],
    )
    row = IssuedCredential(
        org_id=org_id,
        person_id=person.id,
        key_id=key_row.id,
        uuid=cred_uuid,
        achievement_id=cert_id,
        status_index=index,
        issued_at=now,
        valid_until=held.valid_until,
        document=issue(unsigned, key, _iso(now)),
        revoked_reason="",
    )
    session.add(row)
    session.flush()
    audit.record(
        session,
        actor,
        "issue",
        "credential",
        row.id,
        None,
        {"org_id": org_id, "person_id": person.id, "achievement": cert_id, "uuid": cred_uuid},
    )
    return row


def status_list_url(base_url: str, key_id: int) -> str:
    return f"{base_url}/credentials/status/{key_id}"


def status_list_key(base_url: str, url: Any) -> int | None:
    """The issuing key whose status list ``url`` is, when it is one this tracker (at
    ``base_url``) serves (:func:`status_list_url`); None for any other URL."""
    prefix = f"{base_url}/credentials/status/"
    if not isinstance(url, str) or not url.startswith(prefix):
        return None
    rest = url[len(prefix) :]
    return int(rest) if rest.isascii() and rest.isdigit() and len(rest) < 19 else None


def get_credential(session: Session, uuid: str) -> IssuedCredential:
    row = session.scalar(select(IssuedCredential).where(IssuedCredential.uuid == uuid))
    if row is None:
        raise not_found("credential", uuid)
    return row


def list_credentials(
    session: Session, org_id: int, *, person_id: int | None = None
) -> Sequence[IssuedCredential]:
    q = select(IssuedCredential).where(IssuedCredential.org_id == org_id)
    if person_id is not None:
        q = q.where(IssuedCredential.person_id == person_id)
    return session.scalars(q.order_by(IssuedCredential.issued_at.desc(), IssuedCredential.id.desc())).all()


def revoke_credential(
    session: Session, org_id: int, uuid: str, reason: str, *, now: datetime, actor: str | None = None
) -> IssuedCredential:
    row = get_credential(session, uuid)
    if row.org_id != org_id:
        raise not_found("credential", uuid)
    reason = reason.strip()
    if not reason:
        raise refused("reason", N_("say why the credential is revoked"), expected=N_("a reason"))
    if row.revoked_at is not None:
        raise refused(
            "credential", N_("already revoked on {date}").format(date=f"{row.revoked_at:%Y-%m-%d}"), uuid
        )
    row.revoked_at, row.revoked_reason = now, reason[:1000]
    session.flush()
    audit.record(
        session,
        actor,
        "revoke",
        "credential",
        row.id,
        None,
        {"org_id": org_id, "uuid": uuid, "reason": row.revoked_reason},
    )
    return row


def status_list(
    session: Session, key_id: int, secret: str, *, base_url: str, now: datetime, issuer_did: str | None = None
) -> dict[str, Any]:
    """The signed Bitstring Status List credential of one issuing key, as of ``now``, issued
    by ``issuer_did`` (the organisation's did:web) or the key's did:key."""
    from gputeam.credentials import sign, verification_method

    unsigned, key = _status_list_unsigned(session, key_id, secret, base_url, now, issuer_did)
    return sign(unsigned, key, verification_method(str(unsigned["issuer"]), key), _iso(now))


def status_list_jwt(
    session: Session, key_id: int, secret: str, *, base_url: str, now: datetime, issuer_did: str | None = None
) -> str:
    """The same status list as :func:`status_list`, secured as a VC-JWT instead of with an
    embedded proof (for a client that asks for ``application/vc+jwt``)."""
    from gputeam.credentials.vcjwt import encode

    unsigned, key = _status_list_unsigned(session, key_id, secret, base_url, now, issuer_did)
    return encode(unsigned, key)


def _status_list_unsigned(
    session: Session, key_id: int, secret: str, base_url: str, now: datetime, issuer_did: str | None
) -> tuple[dict[str, Any], Any]:
    """The unsigned status list credential of one issuing key, and the key to sign it."""
    from gputeam.credentials import statuslist
    from gputeam.credentials.keys import unseal

    key_row = session.get(IssuerKey, key_id)
    if key_row is None:
        raise not_found("status list", key_id)
    bits = statuslist.empty(STATUS_LIST_BITS)
    for index in session.scalars(
        select(IssuedCredential.status_index).where(
            IssuedCredential.key_id == key_id, IssuedCredential.revoked_at.is_not(None)
        )
    ):
        bits = statuslist.with_bit(bits, index)
    key = unseal(key_row.sealed, secret, _context(key_row.org_id))
    issuer = issuer_did or key_row.did
    unsigned = statuslist.list_credential(status_list_url(base_url, key_id), issuer, bits, _iso(now))
    return unsigned, key


def own_signing_key(session: Session, org_id: int, public_key: bytes) -> IssuerKey | None:
    """The organisation's issuing key (current or retired) that ``public_key`` (32 raw Ed25519
    bytes) is, or None: how a tracker tells its own signatures from anyone else's, whatever
    issuer name a credential gives."""
    from gputeam.credentials import multibase

    try:
        did = "did:key:" + multibase.ed25519_multikey(public_key)
    except multibase.MultibaseError:
        return None
    return session.scalar(select(IssuerKey).where(IssuerKey.org_id == org_id, IssuerKey.did == did))


def did_document(session: Session, org_id: int, did: str) -> dict[str, Any]:
    """The organisation's DID document for its did:web: every issuing key it has had (the
    current one first, then the retired ones, newest first), each an assertion method, so
    credentials signed before a rotation still verify. Read from the keys' did:key, no
    secret needed."""
    from gputeam.credentials import did_document as document
    from gputeam.credentials import multibase

    rows = session.scalars(
        select(IssuerKey)
        .where(IssuerKey.org_id == org_id)
        .order_by(IssuerKey.retired_at.is_not(None), IssuerKey.id.desc())
    ).all()
    return document(did, [multibase.ed25519_from_multikey(r.did.removeprefix("did:key:")) for r in rows])


def expiring_credentials(
    session: Session, today: date, until: date, *, org_id: int | None = None, include_expired: bool = False
) -> Sequence[IssuedCredential]:
    """Credentials not revoked whose validity ends between ``today`` and ``until`` (or
    already ended, with ``include_expired``), with their person loaded."""
    from sqlalchemy.orm import joinedload

    q = (
        select(IssuedCredential)
        .options(joinedload(IssuedCredential.person))
        .where(
            IssuedCredential.revoked_at.is_(None),
            IssuedCredential.valid_until.is_not(None),
            IssuedCredential.person_id.is_not(None),
            IssuedCredential.valid_until <= until,
        )
    )
    if not include_expired:
        q = q.where(IssuedCredential.valid_until >= today)
    if org_id is not None:
        q = q.where(IssuedCredential.org_id == org_id)
    return session.scalars(q.order_by(IssuedCredential.valid_until, IssuedCredential.id)).all()


def credential_jwt(session: Session, row: IssuedCredential, secret: str) -> str:
    """The issued credential in OB 3.0's other proof format, a VC-JWT, signed by the key that
    signed its Data Integrity proof (retired or not), so its issuer and status list stay the
    same. Deterministic (Ed25519): the same credential gives the same token."""
    from gputeam.credentials.keys import unseal
    from gputeam.credentials.vcjwt import encode

    key_row = session.get(IssuerKey, row.key_id)
    if key_row is None:
        raise not_found("issuer key", row.key_id)
    return encode(dict(row.document), unseal(key_row.sealed, secret, _context(key_row.org_id)))


def public_achievement(
    session: Session,
    org_id: int,
    catalog: Catalog,
    cert_id: str,
    *,
    base_url: str,
    programme: str | None = None,
    issuer_did: str | None = None,
) -> dict[str, Any]:
    """The OB 3.0 ``Achievement`` a credential for ``cert_id`` names (through ``programme``,
    the code of an internal programme of the organisation that grants it), as JSON-LD, with
    its ``creator``: the organisation, once it has an issuer id (``issuer_did``, or its
    current issuing key's did:key; OB 3.0's Profile needs an id). What its public page
    shows: no person, no credential. Raises NotFound for a certification not in the
    catalog, or a programme that is not the organisation's or does not grant it."""
    from gputeam.credentials import achievement_json
    from gputeam.credentials.loader import CREDENTIALS_V2, OB_V3P0
    from gputeam.store.practical import criteria_text
    from gputeam.store.programmes import get_programme, programme_spec

    if cert_id not in catalog.certifications:
        raise not_found("achievement", cert_id)
    criteria = None
    if programme is not None:
        try:
            spec = programme_spec(get_programme(session, org_id, programme))
        except NotFound:
            raise not_found("achievement", f"{cert_id}/programmes/{programme}") from None
        if spec.certification != cert_id:
            raise not_found("achievement", f"{cert_id}/programmes/{programme}")
        criteria = criteria_text(spec)
    spec_ = achievement_for(catalog, cert_id, base_url, criteria=criteria, programme=programme)
    doc = {"@context": [CREDENTIALS_V2, OB_V3P0], **achievement_json(spec_)}
    key = session.scalar(
        select(IssuerKey)
        .where(IssuerKey.org_id == org_id, IssuerKey.retired_at.is_(None))
        .order_by(IssuerKey.id.desc())
        .limit(1)
    )
    issuer_id = issuer_did or (key.did if key is not None else None)
    if issuer_id:
        name = get_organisation(session, org_id).name
        doc["creator"] = {"id": issuer_id, "type": ["Profile"], "name": name}
    return doc
