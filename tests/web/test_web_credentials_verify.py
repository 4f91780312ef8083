"""Public verification (no login): POST /api/v1/credentials/verify and the /verify page, on
credentials, VC-JWTs and baked images; nothing stored."""

from __future__ import annotations

import json
import re
from typing import Any

from gputeam.credentials import baking
from gputeam.credentials.vcjwt import encode

from ..credentials.test_verify import KEY, _issued, _status_list


def test_api_verifies_without_login(client: Any) -> None:
    r = client.post("/api/v1/credentials/verify", json={"credential": _issued()})
    assert r.status_code == 200 and r.json()["valid"] is True
    names = [c["name"] for c in r.json()["checks"]]
    assert names == ["structure", "proof", "validity", "status", "recipient"]
    # VC-JWT, status list and recipient
    r = client.post(
        "/api/v1/credentials/verify",
        json={
            "credential": encode(_issued(), KEY),
            "status_list": _status_list(7),
            "recipient": "mailto:ada@acme.example",
        },
    )
    body = r.json()
    assert r.status_code == 200 and body["valid"] is False
    assert {"name": "status", "ok": False, "message": "revoked by the issuer"} in body["checks"]
    tampered = _issued()
    tampered["credentialSubject"]["result"][0]["value"] = "100"
    r = client.post("/api/v1/credentials/verify", json={"credential": tampered})
    assert r.status_code == 200 and r.json()["valid"] is False
    r = client.post("/api/v1/credentials/verify", json={"nothing": 1})
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json")


def test_page_verifies_pasted_and_uploaded_credentials(client: Any) -> None:
    page = client.get("/verify")
    assert page.status_code == 200 and 'enctype="multipart/form-data"' in page.text
    r = client.post("/verify", data={"pasted": json.dumps(_issued())})
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.text))
    assert r.status_code == 200 and "Valid" in text and "FAILED" not in text
    png = baking.bake_png(baking.badge_png(), json.dumps(_issued()))
    r = client.post("/verify", files={"file": ("badge.png", png, "image/png")})
    assert r.status_code == 200 and "Not valid" not in r.text and "eddsa-rdfc-2022" in r.text
    r = client.post("/verify", data={"pasted": "hello"})
    assert r.status_code == 422 and "not JSON or a VC-JWT" in r.text
    r = client.post("/verify", data={"pasted": json.dumps(_issued()), "recipient": "mailto:eve@acme.example"})
    assert "Not valid" in r.text and "not issued to mailto:eve@acme.example" in r.text


def _hostile() -> list[tuple[str, dict[str, Any], str]]:
    """(what, request body, the failed check's name): input that once raised in a check."""
    from gputeam.credentials import multibase

    from ..credentials.test_verify import DID

    unknown_context = _status_list()
    unknown_context["@context"] = [*unknown_context["@context"], "https://evil.example/context.json"]
    unknown_context["proof"] = {**unknown_context["proof"], "proofValue": multibase.encode(bytes(64))}
    no_proof = _status_list()
    no_proof["proof"] = []
    bad_index = _issued()
    bad_index["credentialStatus"]["statusListIndex"] = None
    bad_identifier = _issued()
    bad_identifier["credentialSubject"]["id"] = "mailto:someone-else@acme.example"
    bad_identifier["credentialSubject"]["identifier"] = 5
    assert DID in unknown_context["proof"]["verificationMethod"]
    return [
        ("unknown context", {"credential": _issued(), "status_list": unknown_context}, "status"),
        ("no proof", {"credential": _issued(), "status_list": no_proof}, "status"),
        # JSON-LD drops a null, so the document is not in compacted form: refused as structure
        ("null index", {"credential": bad_index, "status_list": _status_list()}, "structure"),
        (
            "identifier 5",
            {"credential": bad_identifier, "recipient": "mailto:ada@acme.example"},
            "recipient",
        ),
    ]


def test_hostile_input_is_a_failed_check_not_a_server_error(client: Any) -> None:
    for what, body, failed in _hostile():
        r = client.post("/api/v1/credentials/verify", json=body)
        assert r.status_code == 200, (what, r.text)
        checks = {c["name"]: c for c in r.json()["checks"]}
        assert r.json()["valid"] is False and not checks[failed]["ok"], what


def test_unreadable_input_is_422(client: Any) -> None:
    for body in (
        {"credential": [1, 2]},
        {"credential": 5},
        {"credential": None},
        {"credential": _issued(), "status_list": []},
        {"credential": _issued(), "recipient": 5},
    ):
        r = client.post("/api/v1/credentials/verify", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
    r = client.post("/verify", data={"pasted": "[1, 2]"})
    assert r.status_code == 422 and "JSON object or a VC-JWT" in r.text
