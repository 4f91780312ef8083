"""The tracker's views (issue 10 §1): the skills matrix (page, CSV and XLSX downloads) and
the certifications view. Each renders the dict :mod:`gputeam.web.tracker_views` builds, as
``GET /api/v1/skills/matrix`` and ``GET /api/v1/certifications`` return it. Works without
JavaScript: the filters are a GET form, the pages plain links."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from gputeam import store
from gputeam.catalog import EXPIRY_STATUSES
from gputeam.i18n import current
from gputeam.store import DbSession
from gputeam.web import services, skills_matrix
from gputeam.web.auth import require
from gputeam.web.lists import NO_ROLE, NO_SITE, PERSON_STATUSES, Chosen, chosen
from gputeam.web.permissions import Perm, Principal
from gputeam.web.render import render, today
from gputeam.web.tracker_views import (
    CERTIFICATIONS_PAGE,
    MATRIX_PAGE,
    certifications_data,
    matrix_data,
)

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

Reader = Annotated[Principal, Depends(require(Perm.PEOPLE_READ))]
Choices = Annotated[Chosen, Depends(chosen)]
Page = Annotated[int, Query(ge=1, le=100_000)]
Group = Annotated[str, Query(max_length=30)]


def _choices(request: Request, s: DbSession) -> dict[str, Any]:
    """What the filter forms offer: teams, catalog roles, levels, sites, statuses."""
    cat = services.catalog(request.app)
    org = services.org_id(request.app, s)
    return {
        "teams": {t.id: t.name for t in store.list_teams(s, org)},
        "roles": {r.id: r.name for r in cat.roles.values()},
        "no_role": NO_ROLE,
        "levels": sorted(cat.levels),
        "sites": store.list_sites(s, org),
        "no_site": NO_SITE,
        "person_statuses": PERSON_STATUSES,
    }


@router.get("/skills")
def skills_page(request: Request, who: Reader, ch: Choices, group: Group = "", page: Page = 1) -> Response:
    """The matrix's content is rendered once per data version, language, people the caller
    may read and query (the same for every admin); only the page around it per request."""
    app = request.app
    with app.state.db.read_session() as s:

        def build() -> str:
            m = matrix_data(app, s, who, ch, group, limit=MATRIX_PAGE, offset=(page - 1) * MATRIX_PAGE)
            return str(
                app.state.templates.get_template("skills_body.html").render(
                    app=app,
                    m=m,
                    ch=ch,
                    group=group,
                    page=page,
                    groups=skills_matrix.groups(services.catalog(app)),
                    sorts=store.PEOPLE_SORTS,
                    symbols=skills_matrix.SYMBOLS,
                    names=skills_matrix.PROFICIENCY_NAMES,
                    **_choices(request, s),
                )
            )

        key = ("skills body", store.data_version(s), current(), who.readable_people(), ch, group, page)
        body = services.cached_text(app, key, build)
    return render(request, "skills.html", who=who, body=Markup(body))


def _download(request: Request, who: Principal, ch: Chosen, group: str) -> dict[str, object]:
    with request.app.state.db.read_session() as s:
        return matrix_data(request.app, s, who, ch, group, limit=None)


@router.get("/skills.csv")
def skills_csv(request: Request, who: Reader, ch: Choices, group: Group = "") -> Response:
    body = skills_matrix.to_csv(_download(request, who, ch, group))
    return Response(
        body.encode(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="skills-matrix.csv"'},
    )


@router.get("/skills.xlsx")
def skills_xlsx(request: Request, who: Reader, ch: Choices, group: Group = "") -> Response:
    body = skills_matrix.to_xlsx(_download(request, who, ch, group))
    return Response(
        body,
        media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        headers={"Content-Disposition": 'attachment; filename="skills-matrix.xlsx"'},
    )


@router.get("/certifications")
def certifications_page(
    request: Request,
    who: Reader,
    ch: Choices,
    expiry: Annotated[str, Query(max_length=20)] = "",
    cert: Annotated[str, Query(max_length=100)] = "",
    page: Page = 1,
) -> Response:
    with request.app.state.db.read_session() as s:
        c = certifications_data(
            request.app,
            s,
            who,
            ch,
            expiry,
            cert,
            today(request),
            limit=CERTIFICATIONS_PAGE,
            offset=(page - 1) * CERTIFICATIONS_PAGE,
        )
        choices = _choices(request, s)
    cat = services.catalog(request.app)
    return render(
        request,
        "certifications.html",
        who=who,
        c=c,
        ch=ch,
        expiry=expiry,
        cert=cert,
        page=page,
        statuses=EXPIRY_STATUSES,
        sorts=store.HELD_SORTS,
        certs={k: v.name for k, v in cat.certifications.items()},
        **choices,
    )
