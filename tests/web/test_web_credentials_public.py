"""What an issued credential points at and offers, open to anyone (SQLite and PostgreSQL):
its Achievement's id is a public page (HTML with the Achievement as JSON-LD, or JSON-LD when
asked for) naming no person; its skill-domain alignments point at the public skill-domain
page; an internal programme's achievement has its own page with the programme's criteria;
the share link also offers the credential as a VC-JWT, which verifies."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from gputeam import store
from gputeam.credentials import verify
from gputeam.credentials.vcjwt import unverified_payload

from .conftest import TODAY, World, logged_in
from .test_web_api import bearer

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
PERSON_DATA = ("Ada Lovelace", "ada@example.org", "Lovelace", "mailto:")


def _issue(app: Any, world: World, cert: str = "nca-aiio") -> dict[str, Any]:
    r = bearer(app, "admin", ["read", "write"]).post(
        f"/api/v1/people/{world.people['p1']}/credentials", json={"achievement": cert}
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def _embedded_json_ld(html: str) -> Any:
    m = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert m, "no JSON-LD on the page"
    return json.loads(m.group(1))


def test_the_achievement_id_is_a_public_page_without_person_data(app: Any, world: World, client: Any) -> None:
    out = _issue(app, world)
    ach = out["credential"]["credentialSubject"]["achievement"]
    url = urlsplit(ach["id"])
    assert url.path == "/achievements/nca-aiio" and not url.fragment
    page = client.get(url.path, follow_redirects=False)  # anonymous: no login redirect
    assert page.status_code == 200, page.text
    assert page.headers["content-type"].startswith("text/html")
    assert ach["name"] in page.text and ach["criteria"]["narrative"] in page.text
    for alignment in ach["alignment"]:
        assert alignment["targetName"] in page.text
    # the organisation that issues it, no holder, no credential
    assert "Acme" in page.text
    for private in (*PERSON_DATA, out["uuid"], "/people/"):
        assert private not in page.text, private
    # the page's JSON-LD is the credential's Achievement, with its creator (the issuer)
    embedded = _embedded_json_ld(page.text)
    creator = embedded.pop("creator")
    assert creator["id"] == out["credential"]["issuer"]["id"] and creator["name"] == "Acme"
    assert embedded.pop("@context") == out["credential"]["@context"]
    assert embedded == ach
    # JSON-LD for a client that asks for it, the same document
    for accept in ("application/ld+json", "application/json"):
        r = client.get(url.path, headers={"Accept": accept})
        assert r.status_code == 200 and r.headers["content-type"].startswith(accept)
        assert r.json() == {**embedded, "@context": out["credential"]["@context"], "creator": creator}
        assert "Accept" in r.headers["vary"]
    # the HTML page carries a logged-in caller's navigation: no shared cache keeps it
    assert page.headers["cache-control"] == "no-store"
    assert logged_in(app, "admin").get(url.path).headers["cache-control"] == "no-store"
    # a browser's Accept (HTML first, */* after) gets the page
    r = client.get(url.path, headers={"Accept": "text/html,application/json;q=0.9,*/*;q=0.8"})
    assert r.headers["content-type"].startswith("text/html")
    assert client.get("/achievements/no-such-cert").status_code == 404
    assert client.get("/achievements/no-such-cert", headers={"Accept": "application/json"}).status_code == 404


def test_skill_domain_alignments_point_at_the_public_skill_domain_page(
    app: Any, world: World, client: Any
) -> None:
    ach = _issue(app, world)["credential"]["credentialSubject"]["achievement"]
    domains = [a for a in ach["alignment"] if a["targetFramework"] == "gputeam skill domains"]
    assert domains
    page = client.get("/skill-domains", follow_redirects=False)
    assert page.status_code == 200
    for a in domains:
        url = urlsplit(a["targetUrl"])
        assert url.path == "/skill-domains" and url.fragment == f"domain-{a['targetCode']}"
        assert f'id="{url.fragment}"' in page.text


def test_a_programmes_achievement_has_its_own_public_page(db: Any, world: World, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient
    from tests.store.exam_helpers import CERT, EXTRA, exam_catalog, setup_programme

    from gputeam.store.practical import criteria_text
    from gputeam.web import create_app

    from .conftest import make_settings

    extra = tmp_path / "extra.yaml"
    extra.write_text(yaml.safe_dump(EXTRA), "utf-8")
    with db.session() as s:
        prog = setup_programme(s, world.org_id, exam_catalog())
        words = criteria_text(store.programme_spec(prog))
    app = create_app(make_settings(catalog_extra=str(extra)), database=db, today=TODAY)
    with TestClient(app) as client:
        page = client.get(f"/achievements/{CERT}/programmes/acme-l2", follow_redirects=False)
        assert page.status_code == 200, page.text
        doc = _embedded_json_ld(page.text)
        assert doc["id"] == f"http://testserver/achievements/{CERT}/programmes/acme-l2"
        assert doc["criteria"]["narrative"] == words and words in page.text
        # no issuing key yet: no creator (OB 3.0's Profile needs an id), the name still shown
        assert "creator" not in doc and "Acme" in page.text
        # another certification's programme, or one that does not exist: not found
        assert client.get("/achievements/nca-aiio/programmes/acme-l2").status_code == 404
        assert client.get(f"/achievements/{CERT}/programmes/nope").status_code == 404
        # another organisation's programme for the same certification: not this server's
        with db.session() as s:
            other = store.create_organisation(s, "Other Corp")
            setup_programme(s, other.id, exam_catalog(), code="other-l2")
        assert client.get(f"/achievements/{CERT}/programmes/other-l2").status_code == 404
        # the catalog certification's own page keeps the catalog's criteria
        plain = _embedded_json_ld(client.get(f"/achievements/{CERT}").text)
        assert plain["criteria"]["narrative"] != words


def test_the_share_link_offers_a_vc_jwt_that_verifies(app: Any, world: World, client: Any) -> None:
    out = _issue(app, world)
    uuid, doc = out["uuid"], out["credential"]
    page = client.get(f"/credentials/{uuid}")
    assert f'href="/credentials/{uuid}/credential.jwt"' in page.text
    r = client.get(f"/credentials/{uuid}/credential.jwt")  # anonymous, as the other downloads
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/jwt")
    assert f'filename="credential-{uuid}.jwt"' in r.headers["content-disposition"]
    token = r.text.strip()
    # the same credential, in the other proof format (with the JWT claims mapped from it)
    payload = unverified_payload(token)
    claims = {k: payload.pop(k) for k in ("iss", "jti", "sub", "nbf", "exp")}
    assert payload == {k: v for k, v in doc.items() if k != "proof"}
    assert claims["iss"] == doc["issuer"]["id"] and claims["jti"] == doc["id"]
    key = doc["credentialStatus"]["statusListCredential"].rsplit("/", 1)[1]
    status = client.get(f"/credentials/status/{key}").json()
    result = verify(token, now=NOW, status_list=status)
    assert result.valid, result.as_dict()
    assert "VC-JWT" in result.checks[1].message or "JWS" in result.checks[1].message
    # the site's own verifier accepts the downloaded file
    checked = client.post("/verify", files={"file": (f"credential-{uuid}.jwt", r.content, "application/jwt")})
    assert checked.status_code == 200 and "Not valid" not in checked.text
    # after a key rotation the download is still signed by the key that issued it
    with app.state.db.session() as s:
        from .conftest import SECRET

        store.rotate_issuer_key(s, world.org_id, SECRET, actor="admin")
    again = client.get(f"/credentials/{uuid}/credential.jwt").text.strip()
    assert again == token and verify(again, now=NOW).valid
    # revoked: the token verifies as revoked against the served list
    adm = logged_in(app, "admin")
    adm.post(f"/credentials/{uuid}/revoke", data={"reason": "issued in error", "csrf_token": adm.csrf})
    status = client.get(f"/credentials/status/{key}").json()
    revoked = verify(token, now=NOW, status_list=status)
    assert not revoked.valid and "revoked" in revoked.checks[3].message
    assert client.get("/credentials/0000/credential.jwt").status_code == 404
