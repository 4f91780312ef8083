"""Issuing and revoking credentials in the web app (SQLite and PostgreSQL): only admins issue
and revoke; readers of a person see their credentials; the share page, downloads and status
list are public and verify; another organisation's credentials are not found."""

from __future__ import annotations

import json
import re
from typing import Any

from gputeam import store
from gputeam.credentials import baking, verify

from .conftest import TODAY, World, logged_in
from .test_web_api import bearer


def _issue(app: Any, world: World) -> dict[str, Any]:
    c = bearer(app, "admin", ["read", "write"])
    r = c.post(f"/api/v1/people/{world.people['p1']}/credentials", json={"achievement": "nca-aiio"})
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_admin_issues_anyone_verifies_admin_revokes(app: Any, world: World, client: Any) -> None:
    out = _issue(app, world)
    doc = out["credential"]
    from datetime import UTC, datetime

    now = datetime.now(UTC)
    key = doc["credentialStatus"]["statusListCredential"].rsplit("/", 1)[1]
    status = client.get(f"/credentials/status/{key}")
    assert status.status_code == 200
    assert verify(doc, now=now, status_list=status.json()).valid
    page = client.get(f"/credentials/{out['uuid']}")  # anonymous
    assert page.status_code == 200 and "Valid" in page.text and "Not valid" not in page.text
    png = client.get(f"/credentials/{out['uuid']}/badge.png")
    assert png.headers["content-type"] == "image/png"
    assert json.loads(baking.unbake(png.content)) == doc
    assert client.get(f"/credentials/{out['uuid']}/credential.json").json() == doc
    svg = client.get(f"/credentials/{out['uuid']}/badge.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert f'filename="badge-{out["uuid"]}.svg"' in svg.headers["content-disposition"]
    assert json.loads(baking.unbake(svg.content)) == doc
    assert f'href="/credentials/{out["uuid"]}/badge.svg"' in page.text
    checked = client.post("/verify", files={"file": ("badge.svg", svg.content, "image/svg+xml")})
    assert (
        checked.status_code == 200 and "Not valid" not in checked.text and "eddsa-rdfc-2022" in checked.text
    )
    # a manager may not revoke; the admin may, with a reason
    mgr = logged_in(app, "manager")
    r = mgr.post(f"/credentials/{out['uuid']}/revoke", data={"reason": "x", "csrf_token": mgr.csrf})
    assert r.status_code == 403
    adm = logged_in(app, "admin")
    # a blank reason is refused, on the page and in the API, and revokes nothing
    r = adm.post(f"/credentials/{out['uuid']}/revoke", data={"reason": "  ", "csrf_token": adm.csrf})
    assert r.status_code == 422 and "say why the credential is revoked" in r.text
    r = bearer(app, "admin", ["read", "write"]).post(
        f"/api/v1/credentials/{out['uuid']}/revoke", json={"reason": " "}
    )
    assert r.status_code == 422 and "say why the credential is revoked" in r.text
    assert verify(doc, now=now, status_list=client.get(f"/credentials/status/{key}").json()).valid
    r = adm.post(
        f"/credentials/{out['uuid']}/revoke",
        data={"reason": "issued in error", "csrf_token": adm.csrf},
        follow_redirects=False,
    )
    assert r.status_code == 303
    status = client.get(f"/credentials/status/{key}").json()
    assert not verify(doc, now=now, status_list=status).valid
    page = client.get(f"/credentials/{out['uuid']}")
    assert "Not valid" in page.text and "revoked by the issuer" in page.text


def test_only_admins_issue_and_people_see_their_own(app: Any, world: World) -> None:
    for role in ("manager", "engineer"):
        r = bearer(app, role, ["read", "write"]).post(
            f"/api/v1/people/{world.people['p1']}/credentials", json={"achievement": "nca-aiio"}
        )
        assert r.status_code == 403, role
    read_only = bearer(app, "admin", ["read"]).post(
        f"/api/v1/people/{world.people['p1']}/credentials", json={"achievement": "nca-aiio"}
    )
    assert read_only.status_code == 403
    out = _issue(app, world)
    eng = bearer(app, "engineer", ["read"])  # the engineer is p1
    assert [c["uuid"] for c in eng.get(f"/api/v1/people/{world.people['p1']}/credentials").json()] == [
        out["uuid"]
    ]
    assert eng.get(f"/api/v1/people/{world.people['p2']}/credentials").status_code == 404
    page = logged_in(app, "engineer").get(f"/people/{world.people['p1']}/credentials").text
    assert out["uuid"] in page and "Revoke" not in page and "Issue an Open Badges" not in page
    for role in ("manager", "engineer"):  # only admins revoke, even their own credential
        r = bearer(app, role, ["read", "write"]).post(
            f"/api/v1/credentials/{out['uuid']}/revoke", json={"reason": "mine to revoke?"}
        )
        assert r.status_code == 403, role
    with app.state.db.session() as s:
        assert store.get_credential(s, out["uuid"]).revoked_at is None


def test_issue_form_refuses_with_a_message(app: Any, world: World) -> None:
    adm = logged_in(app, "admin")
    page = adm.get(f"/people/{world.people['p3']}/credentials")
    assert page.status_code == 200 and 'name="achievement"' in page.text
    # p3's nca-aiio expired in 2025: refused on the page, nothing issued
    r = adm.post(
        f"/people/{world.people['p3']}/credentials", data={"achievement": "nca-aiio", "csrf_token": adm.csrf}
    )
    assert r.status_code == 422 and "holds no valid nca-aiio" in r.text
    with app.state.db.session() as s:
        assert store.list_credentials(s, world.org_id) == []


def test_another_organisations_credential_is_not_found(app: Any, world: World, client: Any, db: Any) -> None:
    out = _issue(app, world)
    with db.session() as s:
        row = store.get_credential(s, out["uuid"])
        other = store.create_organisation(s, "Other Corp").id
        row.org_id = other  # as if issued by the other organisation
    assert client.get(f"/credentials/{out['uuid']}").status_code == 404
    assert client.get("/credentials/not-a-uuid").status_code == 404
    adm = bearer(app, "admin", ["read", "write"])
    assert adm.post(f"/api/v1/credentials/{out['uuid']}/revoke", json={"reason": "x"}).status_code == 404
    assert re.match(r"^[0-9a-f-]{36}$", out["uuid"]) and TODAY


def test_did_web_issuer_and_its_served_document(db: Any, world: World, client: Any) -> None:
    """A public server names its issuer by did:web (GPUTEAM_ISSUER_DID=web): the credential
    verifies offline with the DID document it serves, and through its own verify endpoint
    (resolved from its database); a rotation keeps the old key in the document."""
    from datetime import UTC, datetime

    import pytest

    from gputeam.web import SettingsError, create_app, load_settings

    from .conftest import SECRET, make_settings

    assert client.get("/.well-known/did.json").status_code == 404  # did:key: no document
    with pytest.raises(SettingsError, match="https"):
        load_settings(secret_key=SECRET, issuer_did="web", public_url="http://tracker.acme.example")
    app = create_app(
        make_settings(public_url="https://tracker.acme.example", issuer_did="web"), database=db, today=TODAY
    )
    out = _issue(app, world)
    doc = out["credential"]
    assert doc["issuer"]["id"] == "did:web:tracker.acme.example"
    from fastapi.testclient import TestClient

    anon = TestClient(app)
    served = anon.get("/.well-known/did.json")
    assert served.status_code == 200 and served.headers["content-type"].startswith("application/did+json")
    did_doc = served.json()
    assert anon.get("/did.json").json() == did_doc
    now = datetime.now(UTC)
    assert verify(doc, now=now, did_documents={did_doc["id"]: did_doc}).valid
    assert not verify(doc, now=now).valid  # offline without the document: refused, not fetched
    key = doc["credentialStatus"]["statusListCredential"].rsplit("/", 1)[1]
    status = anon.get(f"/credentials/status/{key}").json()
    assert status["issuer"] == "did:web:tracker.acme.example"
    assert verify(doc, now=now, status_list=status, did_documents={did_doc["id"]: did_doc}).valid
    r = anon.post("/api/v1/credentials/verify", json={"credential": doc, "status_list": status})
    assert r.status_code == 200 and r.json()["valid"] is True, r.text
    page = anon.get(f"/credentials/{out['uuid']}")
    assert "Valid" in page.text and "Not valid" not in page.text
    # a tampered document (another key under the same id) is refused
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from gputeam.credentials import did_key

    tampered = json.loads(json.dumps(did_doc))
    tampered["verificationMethod"][0]["publicKeyMultibase"] = did_key(Ed25519PrivateKey.generate())[8:]
    assert not verify(doc, now=now, did_documents={did_doc["id"]: tampered}).valid
    # rotation: the new key first, the old one kept, and the old credential still verifies
    with db.session() as s:
        store.rotate_issuer_key(s, world.org_id, SECRET)
    rotated = anon.get("/.well-known/did.json").json()
    assert (
        len(rotated["assertionMethod"]) == 2
        and rotated["assertionMethod"][1] == did_doc["assertionMethod"][0]
    )
    assert verify(doc, now=now, did_documents={did_doc["id"]: rotated}).valid


def test_our_own_revoked_credential_is_reported_revoked_where_it_is_verified(
    app: Any, world: World, client: Any
) -> None:
    """/verify and the API read the status list of a credential this server issued from its
    database (as /credentials/status/<key> serves it): no status list need be passed."""
    from gputeam.credentials.vcjwt import encode

    out = _issue(app, world)
    doc = out["credential"]

    def status_check(body: dict[str, Any]) -> dict[str, Any]:
        r = client.post("/api/v1/credentials/verify", json=body)
        assert r.status_code == 200, r.text
        return next(c for c in r.json()["checks"] if c["name"] == "status")

    assert status_check({"credential": doc}) == {"name": "status", "ok": True, "message": "not revoked"}
    adm = bearer(app, "admin", ["read", "write"])
    r = adm.post(f"/api/v1/credentials/{out['uuid']}/revoke", json={"reason": "issued in error"})
    assert r.status_code == 200, r.text
    revoked = {"name": "status", "ok": False, "message": "revoked by the issuer"}
    assert status_check({"credential": doc}) == revoked
    page = client.post("/verify", data={"pasted": json.dumps(doc)})
    assert "Not valid" in page.text and "revoked by the issuer" in page.text
    png = client.get(f"/credentials/{out['uuid']}/badge.png").content
    page = client.post("/verify", files={"file": ("badge.png", png, "image/png")})
    assert "revoked by the issuer" in page.text
    # the VC-JWT form of the same credential names the same list
    from .conftest import SECRET

    with app.state.db.session() as s:
        _row, key = store.current_issuer_key(s, world.org_id, SECRET)
    assert status_check({"credential": encode(doc, key)}) == revoked
    # someone else's credential naming a list at another address is not looked up
    elsewhere = json.loads(json.dumps(doc))
    elsewhere["credentialStatus"]["statusListCredential"] = "https://other.example/credentials/status/1"
    assert "status not checked" in status_check({"credential": elsewhere})["message"]
