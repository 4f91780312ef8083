"""The API explorer at ``/api/v1/docs``: Swagger UI, vendored from npm
(``gputeam/web/static/swagger-ui/``, Apache-2.0, with its licence files) and served by
this server, so it works offline and loads nothing from elsewhere.

Its "Authorize" button takes an API token: every operation that needs a caller declares
the ``bearer`` security scheme (see :func:`gputeam.web.auth.require`), so Swagger UI sends
``Authorization: Bearer <token>`` with "Try it out". The page keeps the app's strict
Content-Security-Policy (scripts and styles from this server only)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from gputeam.web.api.common import API_PREFIX

router = APIRouter(prefix=API_PREFIX, include_in_schema=False)

ASSETS = "/static/swagger-ui"

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API explorer · gputeam</title>
<link rel="stylesheet" href="{assets}/swagger-ui.css">
<link rel="stylesheet" href="{assets}/contrast.css">
</head>
<body>
<div>
<noscript><p>The API explorer needs JavaScript. The API is described by
<a href="{openapi}">{openapi}</a> (OpenAPI 3.1) and in the tracker's documentation
(docs/web.md).</p></noscript>
<div id="swagger-ui" data-openapi="{openapi}"></div>
</div>
<script src="{assets}/swagger-ui-bundle.js"></script>
<script src="{assets}/init.js"></script>
</body>
</html>
"""


@router.get("/docs", response_class=HTMLResponse)
def api_explorer(request: Request) -> HTMLResponse:
    openapi = request.app.openapi_url or "/api/v1/openapi.json"
    return HTMLResponse(PAGE.format(assets=ASSETS, openapi=openapi))
