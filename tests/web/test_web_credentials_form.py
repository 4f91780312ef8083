"""The tracker's verifier is not fooled by form (SQLite and PostgreSQL): a credential that hides
its status by writing it otherwise is refused on the API and /verify; a valid signature by a
key that is not the tracker's is said to be so, apart from "valid"; deep JSON is 422; the
status list is served as a VC-JWT to a client that asks for one."""

from __future__ import annotations

import copy
import html as html_lib
import json
import re
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from gputeam.credentials import baking, did_key, sign, verify

from .conftest import World
from .test_web_api import bearer
from .test_web_credentials_issue import _issue

VC = "https://www.w3.org/2018/credentials#"


def _text(html: str) -> str:
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def _foreign_copy(doc: dict[str, Any]) -> dict[str, Any]:
    """The tracker's credential re-signed by someone else's did:key, copying its issuer's
    name and its achievement (URL and all)."""
    other = Ed25519PrivateKey.from_private_bytes(bytes(range(40, 72)))
    did = did_key(other)
    forged = {k: copy.deepcopy(v) for k, v in doc.items() if k not in ("proof", "credentialStatus")}
    forged["issuer"]["id"] = did
    return sign(forged, other, f"{did}#{did[8:]}", "2026-12-01T09:00:00Z")


def test_own_and_foreign_signing_keys_are_told_apart(app: Any, world: World, client: Any) -> None:
    doc = _issue(app, world)["credential"]
    r = client.post("/api/v1/credentials/verify", json={"credential": doc})
    body = r.json()
    assert r.status_code == 200 and body["valid"] is True
    (key,) = body["signing_keys"]
    assert key["own"] is True and key["organisation"] and key["key"] and key["retired"] is False
    assert key["method"] == doc["proof"]["verificationMethod"]
    assert "is this tracker's issuing key" in key["message"] and key["organisation"] in key["message"]

    forged = _foreign_copy(doc)
    assert forged["issuer"]["name"] == doc["issuer"]["name"]
    r = client.post("/api/v1/credentials/verify", json={"credential": forged})
    body = r.json()
    assert body["valid"] is True  # the signature is valid ...
    (key,) = body["signing_keys"]  # ... and the key is said not to be ours
    assert key["own"] is False and key["organisation"] is None and key["key"] is None
    assert "not one of this tracker's keys" in key["message"]
    page = client.post("/verify", data={"pasted": json.dumps(forged)})
    assert page.status_code == 200 and "not one of this tracker's keys" in _text(page.text)
    page = client.post("/verify", data={"pasted": json.dumps(doc)})
    assert "is this tracker's issuing key" in _text(page.text)
    # no valid signature: no key is named at all
    tampered = copy.deepcopy(doc)
    tampered["name"] = "Something else"
    r = client.post("/api/v1/credentials/verify", json={"credential": tampered})
    assert r.json()["valid"] is False and r.json()["signing_keys"] == []


def test_a_hidden_revocation_is_refused_everywhere(app: Any, world: World, client: Any) -> None:
    out = _issue(app, world)
    adm_api = bearer(app, "admin", ["read", "write"])
    r = adm_api.post(f"/api/v1/credentials/{out['uuid']}/revoke", json={"reason": "issued in error"})
    assert r.status_code == 200, r.text
    doc = out["credential"]
    r = client.post("/api/v1/credentials/verify", json={"credential": doc})
    assert {c["name"]: c for c in r.json()["checks"]}["status"]["message"] == "revoked by the issuer"
    hidden = copy.deepcopy(doc)
    hidden[VC + "credentialStatus"] = hidden.pop("credentialStatus")
    r = client.post("/api/v1/credentials/verify", json={"credential": hidden})
    body = r.json()
    assert r.status_code == 200 and body["valid"] is False
    assert body["checks"][0]["name"] == "structure" and "'credentialStatus'" in body["checks"][0]["message"]
    page = client.post("/verify", data={"pasted": json.dumps(hidden)})
    assert "Not valid" in page.text and "credentialStatus" in page.text
    png = baking.bake_png(baking.badge_png(), json.dumps(hidden))
    page = client.post("/verify", files={"file": ("badge.png", png, "image/png")})
    assert "Not valid" in page.text


def test_two_baked_credentials_are_unreadable(client: Any, app: Any, world: World) -> None:
    doc = _issue(app, world)["credential"]
    svg = baking.bake_svg(baking.badge_svg("B"), json.dumps(doc))
    two = svg.replace("</svg>", "<openbadges:credential><![CDATA[{}]]></openbadges:credential></svg>")
    page = client.post("/verify", files={"file": ("badge.svg", two.encode(), "image/svg+xml")})
    assert page.status_code == 422 and "2 openbadges:credential elements" in page.text


def test_deep_json_is_422_not_a_server_error(client: Any) -> None:
    deep = '{"credential": ' + "[" * 10_000 + "]" * 10_000 + "}"
    r = client.post(
        "/api/v1/credentials/verify", content=deep.encode(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 422 and "more than 64 levels deep" in r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    just = '{"credential": ' + "[" * 70 + "]" * 70 + "}"
    r = client.post(
        "/api/v1/credentials/verify", content=just.encode(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 422 and "64" in r.text
    page = client.post("/verify", data={"pasted": "[" * 10_000 + "]" * 10_000})
    assert page.status_code == 422 and "more than 64 levels deep" in page.text


def test_the_status_list_as_a_vc_jwt(app: Any, world: World, client: Any) -> None:
    doc = _issue(app, world)["credential"]
    url = doc["credentialStatus"]["statusListCredential"]
    path = "/credentials/status/" + url.rsplit("/", 1)[1]
    as_json = client.get(path)
    assert as_json.headers["content-type"].startswith("application/json") and "proof" in as_json.json()
    assert "Accept" in [v.strip() for v in as_json.headers["vary"].split(",")]
    now = datetime.now(UTC)
    for accept in ("application/vc+jwt", "application/vc+ld+json+jwt, application/json;q=0.5"):
        r = client.get(path, headers={"Accept": accept})
        assert r.status_code == 200 and r.headers["content-type"].startswith(accept.split(",")[0])
        token = r.text
        assert token.count(".") == 2
        result = verify(doc, now=now, status_list=token)
        assert result.valid, result.as_dict()
        assert {c.name: c for c in result.checks}["status"].message == "not revoked"
    r = client.get(path, headers={"Accept": "application/json, application/vc+jwt"})
    assert r.headers["content-type"].startswith("application/json")
