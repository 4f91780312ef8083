"""The app's icon: /favicon.ico answers (browsers ask for it on every site) and every page
links it; an SVG read by a real XML parser."""

from __future__ import annotations

from typing import Any

from defusedxml import ElementTree

from .conftest import logged_in


def test_favicon_answers_and_pages_link_it(app: Any, client: Any) -> None:
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    root = ElementTree.fromstring(r.content)
    assert root.tag.endswith("svg") and root.get("viewBox") == "0 0 32 32"
    assert client.get("/static/favicon.svg").content == r.content
    for page in (client.get("/login"), logged_in(app, "viewer").get("/")):
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page.text
