"""The export page (admin): download everything of the organisation, as ``gputeam export``
gives it (JSON; CSV, one file per table, in a ZIP; XLSX). The download is the API's
(:func:`gputeam.web.api.data.export`), so the page and ``GET /api/v1/export`` give the
same bytes."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from gputeam.i18n import N_
from gputeam.web.api.data import export
from gputeam.web.auth import require
from gputeam.web.permissions import Perm, Principal
from gputeam.web.render import render

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

Exporter = Annotated[Principal, Depends(require(Perm.EXPORT))]

FORMATS = (
    ("json", N_("JSON"), N_("everything in one document, as gputeam export --format json")),
    ("xlsx", N_("Excel workbook (XLSX)"), N_("one sheet per table")),
    ("csv", N_("CSV files in a ZIP"), N_("one file per table")),
)


@router.get("/export")
def export_page(request: Request, who: Exporter) -> Response:
    return render(request, "export.html", who=who, formats=FORMATS)


@router.get("/export/download")
def export_download(
    request: Request, who: Exporter, format: Literal["json", "csv", "xlsx"] = "json", audit: bool = True
) -> Response:
    """The download; ``audit=false`` (the page's "leave out the audit log") as
    ``gputeam export --no-audit``."""
    return export(request, who, format, audit)
