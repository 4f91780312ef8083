"""Credentials in the web app: public verification (``POST /api/v1/credentials/verify``, the
``/verify`` page), share pages and downloads of issued credentials (JSON, VC-JWT, baked
badges), the status lists, the public pages of achievements and skill domains (what an
issued credential's ids and alignments point at), and issuing and revoking (admins).

Verification needs no login: anyone holding a credential may check it (it has no side
effects, so it needs no CSRF token); it is :func:`gputeam.credentials.verify`, offline. The
rules of issuing live in :mod:`gputeam.store.credentials`; this module reads requests and
renders.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Body, Depends, File, Form, HTTPException, Path, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from gputeam import store
from gputeam.errors import InputError, Problem
from gputeam.i18n import N_, _
from gputeam.i18n.messages import translate
from gputeam.web import notices, services
from gputeam.web.api.common import API_PREFIX, PathId
from gputeam.web.auth import require
from gputeam.web.permissions import Perm, Principal
from gputeam.web.render import render

if TYPE_CHECKING:
    from gputeam.credentials import Verification

api = APIRouter(prefix=API_PREFIX, tags=["credentials"])
pages = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

#: The largest credential, status list or baked image accepted (bytes).
MAX_UPLOAD = 2 * 1024 * 1024


class Unreadable(ValueError):
    pass


def _parse(raw: bytes) -> Any:
    """A credential from bytes: JSON, a VC-JWT, or a PNG/SVG with one baked in."""
    from gputeam.credentials import jsontext
    from gputeam.credentials.baking import BakingError, unbake
    from gputeam.credentials.vcjwt import looks_like_jwt

    if len(raw) > MAX_UPLOAD:
        raise Unreadable(N_("larger than {size} bytes").format(size=MAX_UPLOAD))
    if raw[:4] == b"\x89PNG" or b"<svg" in raw[:4096]:
        try:
            raw = unbake(raw).encode()
        except BakingError as exc:
            raise Unreadable(str(exc)) from None
    try:
        text = raw.decode("utf-8-sig").strip()
    except UnicodeDecodeError:
        raise Unreadable(N_("not UTF-8 text, a PNG or an SVG")) from None
    if looks_like_jwt(text):
        return text
    try:
        return jsontext.loads(text)
    except jsontext.TooDeep as exc:
        raise Unreadable(str(exc)) from None
    except json.JSONDecodeError as exc:
        raise Unreadable(N_("not JSON or a VC-JWT: {reason}").format(reason=exc)) from None


def _did_documents(request: Request) -> dict[str, Any]:
    """The DID documents this server resolves did:web with: its own organisation's, from its
    database, when it names its issuer by did:web. Nothing is ever fetched."""
    did = request.app.state.settings.issuer_did_web()
    if did is None:
        return {}
    with request.app.state.db.session() as s:
        return {did: store.did_document(s, services.org_id(request.app, s), did)}


def _verify(
    request: Request, cred: Any, status_list: Any = None, recipient: str | None = None
) -> Verification:
    """The verification of ``cred`` (English; a page or the API shows it in the request's
    language)."""
    from gputeam.credentials import verify

    if not isinstance(cred, (dict, str)):
        not_a_credential = N_("the credential must be a JSON object or a VC-JWT string; found {type}")
        raise Unreadable(not_a_credential.format(type=type(cred).__name__))
    if status_list is not None and not isinstance(status_list, dict):
        raise Unreadable(N_("status_list must be a JSON object (the status list credential)"))
    if status_list is None:
        status_list = _own_status_list(request, cred)
    return verify(
        cred,
        now=datetime.now(UTC),
        status_list=status_list,
        recipient=recipient or None,
        did_documents=_did_documents(request),
    )


def signing_keys(request: Request, result: Verification) -> list[dict[str, Any]]:
    """For each key whose signature of the credential verified: whether it is one of this
    tracker's own issuing keys (current or retired) and whose, with a sentence saying so in
    the request's language. A valid signature says the credential is unchanged since that
    key signed it; this says whether that key is this tracker's, whatever issuer name the
    credential copies."""
    if not result.signers:
        return []
    out = []
    with request.app.state.db.session() as s:
        org_id = services.org_id(request.app, s)
        organisation = store.get_organisation(s, org_id).name
        for signer in result.signers:
            row = store.own_signing_key(s, org_id, signer.ed25519) if signer.ed25519 else None
            if row is None:
                message = _(
                    "The signing key is not one of this tracker's keys: the signature is valid, but "
                    "this tracker did not issue the credential, whatever issuer name it gives."
                )
            elif row.retired_at is not None:
                message = _(
                    "The signing key is this tracker's issuing key {key} of {organisation} (retired, "
                    "kept so that what it signed still verifies)."
                ).format(key=row.id, organisation=organisation)
            else:
                message = _("The signing key is this tracker's issuing key {key} of {organisation}.").format(
                    key=row.id, organisation=organisation
                )
            out.append(
                {
                    "method": signer.method,
                    "own": row is not None,
                    "organisation": organisation if row is not None else None,
                    "key": row.id if row is not None else None,
                    "retired": row is not None and row.retired_at is not None,
                    "message": message,
                }
            )
    return out


@api.post("/credentials/verify", summary="Verify an Open Badges 3.0 credential (no login)")
def verify_api(
    request: Request,
    body: Annotated[
        dict[str, Any],
        Body(
            examples=[
                {
                    "credential": {"@context": ["https://www.w3.org/ns/credentials/v2", "..."]},
                    "status_list": None,
                    "recipient": "mailto:ada@example.org",
                }
            ]
        ),
    ],
) -> Response:
    """Checks, in Open Badges 3.0's order: structure, proof (eddsa-rdfc-2022 or VC-JWT),
    validity window, status (when `status_list` is given), recipient (when `recipient` is
    given). The body is `{"credential": <the credential object, or a VC-JWT string>,
    "status_list": <optional status list credential>, "recipient": <optional identifier>}`.
    Answers 200 with `{"valid": bool, "checks": [{"name", "ok", "message"}], "signing_keys":
    [{"method", "own", "organisation", "key", "retired", "message"}]}` whether or not the
    credential is valid (`name` is the check's identifier; `message` is in the request's
    language, `Accept-Language`). `signing_keys` has one entry per key whose signature
    verified: `own` says whether it is one of this tracker's issuing keys (`organisation`
    and `key` say whose), apart from `valid`: a credential signed by anyone else's key can
    be valid and still not issued here. 422 when the body holds no credential or is nested
    more than 64 levels deep."""

    recipient = body.get("recipient")
    try:
        if "credential" not in body:
            raise Unreadable(N_("the body needs a 'credential' member"))
        if recipient is not None and not isinstance(recipient, str):
            raise Unreadable(N_("recipient must be a string (an identifier such as mailto:...)"))
        result = _verify(request, body["credential"], body.get("status_list"), recipient)
    except Unreadable as exc:
        from gputeam.web.app import problem

        return problem(422, N_("Invalid input"), translate(str(exc)), type_="urn:gputeam:problem:input")
    return JSONResponse({**result.as_dict(translate), "signing_keys": signing_keys(request, result)})


@pages.get("/verify")
def verify_page(request: Request) -> Response:
    return render(request, "verify.html", result=None, error=None, pasted="", signing_keys=[])


@pages.post("/verify")
async def verify_submit(
    request: Request,
    pasted: Annotated[str, Form(max_length=MAX_UPLOAD)] = "",
    recipient: Annotated[str, Form(max_length=500)] = "",
    file: Annotated[UploadFile | None, File()] = None,
) -> Response:
    raw = pasted.encode()
    if file is not None and file.filename:
        raw = await file.read(MAX_UPLOAD + 1)
    error, result, keys = None, None, []
    if not raw.strip():
        error = _("Paste a credential or choose a file.")
    else:
        try:
            result = _verify(request, _parse(raw), recipient=recipient.strip() or None)
            keys = signing_keys(request, result)
        except Unreadable as exc:
            error = _("This is not a credential gputeam can read: {reason}.").format(
                reason=translate(str(exc))
            )
    return render(
        request,
        "verify.html",
        422 if error else 200,
        result=result,
        error=error,
        pasted=pasted,
        signing_keys=keys,
    )


# ---------------------------------------------------------------- issued credentials
# Public: the status lists, and a credential's share page and downloads (its UUID is the
# capability: random, never listed publicly). Admins issue and revoke.
Issuer = Annotated[Principal, Depends(require(Perm.CREDENTIALS))]
Reader = Annotated[Principal, Depends(require(Perm.PEOPLE_READ))]
UUID_PATTERN = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"


def _base_url(request: Request) -> str:
    configured = request.app.state.settings.public_url
    return (configured or str(request.base_url)).rstrip("/")


def _secret(request: Request) -> str:
    settings = request.app.state.settings
    if not settings.secret_key:
        raise HTTPException(
            409,
            _(
                "credentials need GPUTEAM_SECRET_KEY: issuing keys are sealed "
                "with it (development mode's random per-process key would lose them)"
            ),
        )
    return str(settings.secret_key)


def _now() -> datetime:
    return datetime.now(UTC)


def _shared(request: Request, uuid: str) -> Any:
    """The credential row for a share link, or 404 (never another organisation's)."""
    if not re.match(UUID_PATTERN, uuid):
        raise HTTPException(404, _("no such credential"))
    with request.app.state.db.session() as s:
        try:
            row = store.get_credential(s, uuid)
        except store.NotFound:
            raise HTTPException(404, _("no such credential")) from None
        if row.org_id != services.org_id(request.app, s):
            raise HTTPException(404, _("no such credential"))
        s.expunge(row)
        return row


def _own_status_list(request: Request, cred: Any) -> dict[str, Any] | None:
    """The status list a credential names when it is one this server serves (its
    ``statusListCredential`` is ``<our base URL>/credentials/status/<key id>`` of this
    organisation): built from the database as that URL serves it, so our own revocations
    are seen without fetching anything. None for anyone else's credential."""
    from gputeam.credentials.proof import ProofError
    from gputeam.credentials.vcjwt import unverified_payload

    if isinstance(cred, str):
        try:
            cred = unverified_payload(cred)
        except ProofError:
            return None
    entries = cred.get("credentialStatus") if isinstance(cred, dict) else None
    for entry in entries if isinstance(entries, list) else [entries]:
        url = entry.get("statusListCredential") if isinstance(entry, dict) else None
        key_id = store.status_list_key(_base_url(request), url)
        if key_id is not None:
            with request.app.state.db.session() as s:
                if store.issuer_key_in(s, services.org_id(request.app, s), key_id) is None:
                    return None
            return _live_status(request, key_id)
    return None


def _live_status(request: Request, key_id: int) -> dict[str, Any] | None:
    """The signed status list of one of our issuing keys, or None when it can't be signed
    (no server secret, or a key it cannot unseal)."""
    try:
        with request.app.state.db.session() as s:
            return store.status_list(
                s,
                key_id,
                _secret(request),
                base_url=_base_url(request),
                now=_now(),
                issuer_did=request.app.state.settings.issuer_did_web(),
            )
    except (HTTPException, ValueError):
        return None


#: Media types for a credential secured as a VC-JWT: VC-JOSE-COSE's ``application/vc+jwt``,
#: the older VC-JWT name ``application/vc+ld+json+jwt`` and plain ``application/jwt``.
JWT_TYPES = ("application/vc+jwt", "application/vc+ld+json+jwt", "application/jwt")


def _wants_jwt(request: Request) -> str | None:
    """The VC-JWT media type the client asks for (Accept), when it names one before any JSON
    type; None for the Data Integrity JSON."""
    for part in request.headers.get("accept", "").split(","):
        kind = part.split(";")[0].strip().lower()
        if kind in JWT_TYPES:
            return kind
        if kind in ("application/json", "application/ld+json", "application/vc+ld+json", "application/vc"):
            return None
    return None


@pages.get("/credentials/status/{key_id}", response_class=JSONResponse)
def status_list_json(request: Request, key_id: PathId) -> Response:
    """The signed Bitstring Status List of one issuing key (public, as verifiers fetch it):
    JSON with a Data Integrity proof, or a VC-JWT for a client that asks for one
    (``Accept: application/vc+jwt``)."""
    jwt_type = _wants_jwt(request)
    build = store.status_list if jwt_type is None else store.status_list_jwt
    with request.app.state.db.session() as s:
        if store.issuer_key_in(s, services.org_id(request.app, s), key_id) is None:
            raise HTTPException(404, _("no such status list"))
        doc = build(
            s,
            key_id,
            _secret(request),
            base_url=_base_url(request),
            now=_now(),
            issuer_did=request.app.state.settings.issuer_did_web(),
        )
    headers = {"Cache-Control": "public, max-age=300", "Vary": "Accept"}
    if isinstance(doc, str):
        return Response(doc, media_type=jwt_type, headers=headers)
    return JSONResponse(doc, headers=headers)


@pages.get("/.well-known/did.json", response_class=JSONResponse)
@pages.get("/did.json", response_class=JSONResponse)
def did_json(request: Request) -> Response:
    """The organisation's DID document (public), when credentials name their issuer by
    did:web: every issuing key it has had, the current one first. ``/.well-known/did.json``
    serves a public URL without a path, ``/did.json`` one with a path (behind a proxy that
    strips it). 404 when the issuer is a did:key."""
    did = request.app.state.settings.issuer_did_web()
    if did is None:
        raise HTTPException(404, "this server names its issuer by did:key; it has no did:web document")
    with request.app.state.db.session() as s:
        doc = store.did_document(s, services.org_id(request.app, s), did)
    return JSONResponse(
        doc, media_type="application/did+json", headers={"Cache-Control": "public, max-age=300"}
    )


@pages.get("/credentials/{uuid}")
def share_page(request: Request, uuid: str) -> Response:
    row = _shared(request, uuid)
    result = _verify(request, row.document, _live_status(request, row.key_id))
    return render(request, "credential.html", who=None, cred=row.document, row=row, result=result)


@pages.get("/credentials/{uuid}/credential.json")
def credential_json(request: Request, uuid: str) -> Response:
    row = _shared(request, uuid)
    return JSONResponse(
        row.document, headers={"Content-Disposition": f'attachment; filename="credential-{uuid}.json"'}
    )


@pages.get("/credentials/{uuid}/credential.jwt")
def credential_jwt(request: Request, uuid: str) -> Response:
    """The credential as a VC-JWT (OB 3.0's other proof format), signed by the key that
    issued it: the same credential, so the same share link's capability."""
    from gputeam.credentials.keys import SealError

    row = _shared(request, uuid)
    secret = _secret(request)
    try:
        with request.app.state.db.session() as s:
            token = store.credential_jwt(s, row, secret)
    except SealError as exc:
        raise HTTPException(
            409,
            _("the issuing key does not open with the server's secret key ({reason})").format(
                reason=translate(str(exc))
            ),
        ) from None
    return Response(
        token + "\n",
        media_type="application/jwt",
        headers={"Content-Disposition": f'attachment; filename="credential-{uuid}.jwt"'},
    )


@pages.get("/credentials/{uuid}/badge.png")
def credential_png(request: Request, uuid: str) -> Response:
    from gputeam.credentials.baking import badge_png, bake_png

    row = _shared(request, uuid)
    data = bake_png(badge_png(), json.dumps(row.document, ensure_ascii=False))
    return Response(
        data,
        media_type="image/png",
        headers={"Content-Disposition": f'attachment; filename="badge-{uuid}.png"'},
    )


@pages.get("/credentials/{uuid}/badge.svg")
def credential_svg(request: Request, uuid: str) -> Response:
    """The badge as SVG with the credential baked in (an ``openbadges:credential`` element),
    as OB 3.0 specifies next to PNG."""
    from gputeam.credentials.baking import badge_svg, bake_svg

    row = _shared(request, uuid)
    text = json.dumps(row.document, ensure_ascii=False)
    data = bake_svg(badge_svg(str(row.document.get("name") or row.achievement_id)), text)
    return Response(
        data.encode("utf-8"),
        media_type="image/svg+xml",
        headers={"Content-Disposition": f'attachment; filename="badge-{uuid}.svg"'},
    )


@pages.get("/people/{person_id}/credentials")
def person_credentials(request: Request, person_id: PathId, who: Reader) -> Response:
    return _person_credentials(request, who, person_id)


def _person_credentials(
    request: Request,
    who: Principal,
    person_id: int,
    status: int = 200,
    flash: str | None = None,
    error: str | None = None,
) -> Response:
    with request.app.state.db.session() as s:
        p = services.person_in_org(request.app, s, person_id)
        if p is None or not who.may_read_person(p.id, p.team_id):
            raise HTTPException(404, _("no such person, or not one you may see"))
        rows = store.list_credentials(s, p.org_id, person_id=p.id)
        held = sorted({c.cert_id for c in store.list_certifications(s, person_id=p.id)})
        person = {"id": p.id, "name": p.name}
        creds = [
            {
                "uuid": r.uuid,
                "achievement": r.achievement_id,
                "issued_at": r.issued_at,
                "valid_until": r.valid_until,
                "revoked_at": r.revoked_at,
                "revoked_reason": r.revoked_reason,
            }
            for r in rows
        ]
    return render(
        request,
        "person_credentials.html",
        status,
        person=person,
        creds=creds,
        held=held,
        may_issue=who.can(Perm.CREDENTIALS),
        flash=flash,
        error=error,
    )


def _issue_for(
    request: Request, who: Principal, person_id: int, achievement: str
) -> tuple[str, dict[str, Any]]:
    """Issue a credential to a person of this server's organisation: (uuid, document)."""
    with request.app.state.db.session() as s:
        p = services.person_in_org(request.app, s, person_id)
        if p is None:
            raise HTTPException(404, _("no such person"))
        row = store.issue_credential(
            s,
            p.org_id,
            p.id,
            achievement,
            catalog=services.catalog(request.app),
            secret=_secret(request),
            base_url=_base_url(request),
            now=_now(),
            actor=who.username,
            issuer_did=request.app.state.settings.issuer_did_web(),
        )
        return row.uuid, dict(row.document)


@pages.post("/people/{person_id}/credentials")
def issue_submit(
    request: Request, person_id: PathId, who: Issuer, achievement: Annotated[str, Form(max_length=100)]
) -> Response:
    try:
        uuid, _credential = _issue_for(request, who, person_id, achievement)
    except InputError as exc:
        return _person_credentials(
            request, who, person_id, 422, error="; ".join(p.localised().message for p in exc.problems)
        )
    return notices.redirect(
        request, f"/people/{person_id}/credentials", _("Credential issued: {id}").format(id=uuid)
    )


@pages.post("/credentials/{uuid}/revoke")
def revoke_submit(
    request: Request, uuid: str, who: Issuer, reason: Annotated[str, Form(max_length=1000)] = ""
) -> Response:
    row = _shared(request, uuid)
    try:
        with request.app.state.db.session() as s:
            store.revoke_credential(s, row.org_id, uuid, reason, now=_now(), actor=who.username)
    except InputError as exc:
        return _person_credentials(
            request,
            who,
            row.person_id or 0,
            422,
            error="; ".join(p.localised().message for p in exc.problems),
        )
    return RedirectResponse(f"/people/{row.person_id}/credentials", status_code=303)


@api.get("/people/{person_id}/credentials", summary="Credentials issued to a person")
def api_list(request: Request, person_id: PathId, who: Reader) -> list[dict[str, Any]]:
    with request.app.state.db.session() as s:
        p = services.person_in_org(request.app, s, person_id)
        if p is None or not who.may_read_person(p.id, p.team_id):
            raise HTTPException(404, _("no such person, or not one you may see"))
        return [
            {
                "uuid": r.uuid,
                "achievement": r.achievement_id,
                "issued_at": r.issued_at.isoformat(),
                "valid_until": r.valid_until.isoformat() if r.valid_until else None,
                "revoked_at": r.revoked_at.isoformat() if r.revoked_at else None,
                "revoked_reason": r.revoked_reason,
                "share_url": f"{_base_url(request)}/credentials/{r.uuid}",
            }
            for r in store.list_credentials(s, p.org_id, person_id=p.id)
        ]


@api.post(
    "/people/{person_id}/credentials",
    status_code=201,
    summary="Issue a credential for a certification the person holds (admin)",
)
def api_issue(
    request: Request,
    person_id: PathId,
    who: Issuer,
    body: Annotated[dict[str, Any], Body(examples=[{"achievement": "nca-aiio"}])],
) -> dict[str, Any]:
    achievement = body.get("achievement")
    if not isinstance(achievement, str):
        raise InputError(
            [Problem(path="achievement", message=N_("required"), expected=N_("a catalog certification id"))]
        )
    uuid, document = _issue_for(request, who, person_id, achievement)
    return {"uuid": uuid, "credential": document, "share_url": f"{_base_url(request)}/credentials/{uuid}"}


@api.post("/credentials/{uuid}/revoke", summary="Revoke a credential (admin)")
def api_revoke(
    request: Request,
    uuid: str,
    who: Issuer,
    body: Annotated[dict[str, Any], Body(examples=[{"reason": "issued in error"}])],
) -> dict[str, Any]:
    row = _shared(request, uuid)
    with request.app.state.db.session() as s:
        done = store.revoke_credential(
            s, row.org_id, uuid, str(body.get("reason") or ""), now=_now(), actor=who.username
        )
        return {
            "uuid": uuid,
            "revoked_at": done.revoked_at.isoformat() if done.revoked_at else None,
            "reason": done.revoked_reason,
        }


# ---------------------------------------------------------------- public achievements
# What an issued credential's Achievement id and skill-domain alignments point at: open
# without login, naming no person. An Achievement is served as HTML (with its JSON-LD
# embedded) or, to a client that asks for JSON, as JSON-LD.
CatalogId = Annotated[str, Path(min_length=1, max_length=100)]
JSON_TYPES = ("application/ld+json", "application/json")


def _wants_json(request: Request) -> str | None:
    """The JSON media type the client asks for (Accept), unless it asks for HTML as well or
    first; None for HTML."""
    accept = request.headers.get("accept", "")
    kinds = [part.split(";")[0].strip().lower() for part in accept.split(",")]
    for kind in kinds:
        if kind in ("text/html", "application/xhtml+xml"):
            return None
        if kind in JSON_TYPES:
            return kind
    return None


def _achievement(request: Request, cert_id: str, programme: str | None) -> Response:
    with request.app.state.db.session() as s:
        org_id = services.org_id(request.app, s)
        try:
            doc = store.public_achievement(
                s,
                org_id,
                services.catalog(request.app),
                cert_id,
                base_url=_base_url(request),
                programme=programme,
                issuer_did=request.app.state.settings.issuer_did_web(),
            )
        except store.NotFound:
            raise HTTPException(404, _("no such achievement")) from None
        issuer = store.get_organisation(s, org_id).name
    kind = _wants_json(request)
    if kind is not None:  # the same for everyone: shared caches may keep it
        return JSONResponse(
            doc, media_type=kind, headers={"Cache-Control": "public, max-age=300", "Vary": "Accept"}
        )
    # inside <script>, "<" is written as its JSON escape so no text can close the element
    embedded = json.dumps(doc, ensure_ascii=False, indent=1).replace("<", "\\u003c")
    frameworks = {a.get("targetFramework") for a in doc.get("alignment", [])}
    response = render(
        request,
        "achievement.html",
        ach=doc,
        issuer=issuer,
        embedded=embedded,
        esco=any(f and "ESCO" in f for f in frameworks),
        onet="O*NET-SOC 2019" in frameworks,
    )
    # the page shows the caller's own navigation when logged in: never a shared cache's
    # (the app's no-store stands)
    response.headers["Vary"] = "Accept"
    return response


@pages.get("/achievements/{cert_id}")
def achievement_page(request: Request, cert_id: CatalogId) -> Response:
    """A catalog certification's achievement, as credentials for it name it (public)."""
    return _achievement(request, cert_id, None)


@pages.get("/achievements/{cert_id}/programmes/{code}")
def programme_achievement_page(request: Request, cert_id: CatalogId, code: CatalogId) -> Response:
    """The achievement an internal programme's pass attests: its criteria are the programme's
    blueprint and rubric (public)."""
    return _achievement(request, cert_id, code)


@pages.get("/skill-domains")
def skill_domains_page(request: Request) -> Response:
    """The catalog's skill domains (public): what credentials' skill-domain alignments
    point at (``#domain-<id>``)."""
    catalog = services.catalog(request.app)
    return render(request, "skill_domains.html", domains=list(catalog.domains.values()))
