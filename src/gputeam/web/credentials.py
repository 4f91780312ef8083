"""Public credential verification: ``POST /api/v1/credentials/verify`` and the ``/verify`` page.

No login: anyone holding a credential may check it (it has no side effects, so it needs no
CSRF token). Verification is :func:`gputeam.credentials.verify`, offline; this module only
reads the upload and renders the checks.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Body, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, Response

from gputeam.web.render import render

api = APIRouter(tags=["credentials"])
pages = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

#: The largest credential, status list or baked image accepted (bytes).
MAX_UPLOAD = 2 * 1024 * 1024


class Unreadable(ValueError):
    pass


def _parse(raw: bytes) -> Any:
    """A credential from bytes: JSON, a VC-JWT, or a PNG/SVG with one baked in."""
    from gputeam.credentials.baking import BakingError, unbake
    from gputeam.credentials.vcjwt import looks_like_jwt

    if len(raw) > MAX_UPLOAD:
        raise Unreadable(f"larger than {MAX_UPLOAD:,} bytes")
    if raw[:4] == b"\x89PNG" or b"<svg" in raw[:4096]:
        try:
            raw = unbake(raw).encode()
        except BakingError as exc:
            raise Unreadable(str(exc)) from None
    try:
        text = raw.decode("utf-8-sig").strip()
    except UnicodeDecodeError:
        raise Unreadable("not UTF-8 text, a PNG or an SVG") from None
    if looks_like_jwt(text):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise Unreadable(f"not JSON or a VC-JWT: {exc}") from None


def _verify(cred: Any, status_list: Any = None, recipient: str | None = None) -> dict[str, Any]:
    from gputeam.credentials import verify

    if status_list is not None and not isinstance(status_list, dict):
        raise Unreadable("status_list must be a JSON object (the status list credential)")
    return verify(cred, now=datetime.now(UTC), status_list=status_list,
                  recipient=recipient or None).as_dict()


@api.post("/credentials/verify", summary="Verify an Open Badges 3.0 credential (no login)")
def verify_api(body: Annotated[dict[str, Any], Body(examples=[{
        "credential": {"@context": ["https://www.w3.org/ns/credentials/v2", "..."]},
        "status_list": None, "recipient": "mailto:ada@example.org"}])]) -> Response:
    """Checks, in Open Badges 3.0's order: structure, proof (eddsa-rdfc-2022 or VC-JWT),
    validity window, status (when `status_list` is given), recipient (when `recipient` is
    given). The body is `{"credential": <the credential object, or a VC-JWT string>,
    "status_list": <optional status list credential>, "recipient": <optional identifier>}`.
    Answers 200 with `{"valid": bool, "checks": [{"name", "ok", "message"}]}` whether or not
    the credential is valid; 422 when the body holds no credential."""
    if "credential" not in body:
        return JSONResponse({"type": "urn:gputeam:problem:input", "title": "Invalid input",
                             "status": 422, "detail": "the body needs a 'credential' member"},
                            status_code=422, media_type="application/problem+json")
    recipient = body.get("recipient")
    try:
        result = _verify(body["credential"], body.get("status_list"),
                         recipient if isinstance(recipient, str) else None)
    except Unreadable as exc:
        return JSONResponse({"type": "urn:gputeam:problem:input", "title": "Invalid input",
                             "status": 422, "detail": str(exc)}, status_code=422,
                            media_type="application/problem+json")
    return JSONResponse(result)


@pages.get("/verify")
def verify_page(request: Request) -> Response:
    return render(request, "verify.html", result=None, error=None, pasted="")


@pages.post("/verify")
async def verify_submit(request: Request,
                        pasted: Annotated[str, Form(max_length=MAX_UPLOAD)] = "",
                        recipient: Annotated[str, Form(max_length=500)] = "",
                        file: Annotated[UploadFile | None, File()] = None) -> Response:
    raw = pasted.encode()
    if file is not None and file.filename:
        raw = await file.read(MAX_UPLOAD + 1)
    error, result = None, None
    if not raw.strip():
        error = "Paste a credential or choose a file."
    else:
        try:
            result = _verify(_parse(raw), recipient=recipient.strip() or None)
        except Unreadable as exc:
            error = f"This is not a credential gputeam can read: {exc}."
    return render(request, "verify.html", 422 if error else 200, result=result, error=error,
                  pasted=pasted)
