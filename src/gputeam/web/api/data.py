"""Import (dry-run and commit), export, and iCalendar feeds."""

from __future__ import annotations

import dataclasses
import json
from datetime import date, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, File, Form, HTTPException, Query, Request, UploadFile
from fastapi.responses import Response

from gputeam.errors import InputError, Problem
from gputeam.i18n import N_
from gputeam.web import limits, services
from gputeam.web.api.common import API_PREFIX, ERRORS, PathId, actor, db, not_found, today
from gputeam.web.auth import require
from gputeam.web.permissions import Perm, Principal

router = APIRouter(prefix=API_PREFIX, responses=ERRORS)

Importer = Annotated[Principal, Depends(require(Perm.IMPORT))]
Exporter = Annotated[Principal, Depends(require(Perm.EXPORT))]
CalendarReader = Annotated[Principal, Depends(require(Perm.CALENDAR))]

ICS = "text/calendar; charset=utf-8"


def jsonable(value: Any) -> Any:
    """A store result (dataclass, pydantic model, mapping ...) as plain JSON data."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if hasattr(value, "as_dict"):
        return jsonable(value.as_dict())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if isinstance(value, date | datetime):
        return value.isoformat()
    return value


def parse_mapping(mapping: str | None) -> dict[str, str] | None:
    if not mapping:
        return None
    try:
        data = json.loads(mapping)
    except json.JSONDecodeError as exc:
        raise InputError(
            [
                Problem(
                    path="mapping",
                    message=N_("not JSON"),
                    detail=exc.msg,
                    expected='{"your column": "gputeam field", ...}',
                )
            ]
        ) from None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise InputError(
            [
                Problem(
                    path="mapping",
                    message=N_("must map column names to field names"),
                    expected='{"your column": "gputeam field"}',
                )
            ]
        )
    return data


def run_import(
    request: Request,
    kind: str,
    content: bytes,
    filename: str | None,
    mapping: dict[str, str] | None,
    dry_run: bool,
    who: Principal,
    header_row: int | None = None,
    sheet: str | None = None,
) -> dict[str, Any]:
    from gputeam import store as st

    func = st.import_roster if kind == "roster" else st.import_certifications
    with db(request).session() as s:
        org = services.org_id(request.app, s)
        report = func(
            s,
            org,
            content,
            filename=filename,
            mapping=mapping,
            dry_run=dry_run,
            catalog=services.catalog(request.app),
            actor=actor(who),
            header_row=header_row,
            sheet=sheet,
            limits=request.app.state.limits,
        )
        out = jsonable(report)
        if not isinstance(out, dict):
            out = {"result": out}
        out["dry_run"] = dry_run
        return out


async def read_upload(file: UploadFile, request: Request) -> bytes:
    """The uploaded file, refused (413) past ``GPUTEAM_MAX_UPLOAD_BYTES`` without reading
    more of it."""
    most = limits.max_upload(request)
    content = await file.read(most + 1)
    if len(content) > most:
        raise HTTPException(413, f"file larger than {limits.size_text(most)} (GPUTEAM_MAX_UPLOAD_BYTES)")
    return content


@router.post(
    "/import/{kind}",
    tags=["import"],
    summary="Import a roster or certifications from CSV / XLSX (all or nothing)",
)
async def import_file(
    request: Request,
    kind: Literal["roster", "certifications"],
    who: Importer,
    file: Annotated[UploadFile, File()],
    dry_run: Annotated[bool, Form()] = True,
    mapping: Annotated[str | None, Form(description='JSON {"your column": "gputeam field"}')] = None,
    header_row: Annotated[
        int | None,
        Form(ge=1, le=1_000_000, description="Row number of the header (default: found below a title)"),
    ] = None,
    sheet: Annotated[
        str | None, Form(max_length=200, description="The XLSX worksheet to read (default: the first)")
    ] = None,
) -> dict[str, Any]:
    """With ``dry_run`` (the default) nothing is written: the answer says what would be
    imported, and ``changes`` lists each change to a person already stored (``row``,
    ``id``, ``field``, ``old``, ``new``). A file with bad rows answers 422 with one problem
    per bad cell (``line`` = row, ``path`` = column, ``found`` = value) and writes
    nothing. A file that is neither CSV nor XLSX answers 422 saying so."""
    from starlette.concurrency import run_in_threadpool

    content = await read_upload(file, request)
    return await run_in_threadpool(
        run_import,
        request,
        kind,
        content,
        file.filename,
        parse_mapping(mapping),
        dry_run,
        who,
        header_row,
        sheet or None,
    )


@router.get("/export", tags=["export"], summary="Export everything (JSON, CSV in a ZIP, XLSX)")
def export(
    request: Request,
    who: Exporter,
    format: Literal["json", "csv", "xlsx"] = "json",
    audit: Annotated[
        bool, Query(description="false: leave out the audit log (as `gputeam export --no-audit`)")
    ] = True,
) -> Response:
    from gputeam import store as st

    with db(request).session() as s:
        org = services.org_id(request.app, s)
        stamp = request.app.state.clock.today().isoformat()
        if format == "json":
            data = st.export_data(s, org, include_audit=audit)
            body = json.dumps(jsonable(data), indent=1).encode()
            return Response(body, media_type="application/json", headers=_attach(f"gputeam-{stamp}.json"))
        if format == "xlsx":
            return Response(
                st.export_xlsx(s, org, include_audit=audit),
                headers=_attach(f"gputeam-{stamp}.xlsx"),
                media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            )
        import io
        import zipfile

        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, text in st.export_csv(s, org, include_audit=audit).items():
                zf.writestr(name if name.endswith(".csv") else f"{name}.csv", text)
        return Response(
            buf.getvalue(), media_type="application/zip", headers=_attach(f"gputeam-{stamp}-csv.zip")
        )


def _attach(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"'}


@router.head("/calendar/people/{person_id}.ics", include_in_schema=False)  # calendar programs ask
@router.get(
    "/calendar/people/{person_id}.ics",
    tags=["calendar"],
    summary="iCalendar feed of one person (exams, renewals, expiries)",
    response_class=Response,
    responses={200: {"content": {"text/calendar": {}}}},
)
def person_feed(request: Request, person_id: PathId, who: CalendarReader) -> Response:
    from gputeam import store as st

    with db(request).session() as s:
        p = services.person_in_org(request.app, s, person_id)
        if p is None or not who.may_read_person(p.id, p.team_id):
            raise not_found("person")
        return Response(st.person_calendar(s, p.id, today=today(request)), media_type=ICS)


@router.head("/calendar/teams/{team_id}.ics", include_in_schema=False)  # calendar programs ask
@router.get(
    "/calendar/teams/{team_id}.ics",
    tags=["calendar"],
    summary="iCalendar feed of one team",
    response_class=Response,
    responses={200: {"content": {"text/calendar": {}}}},
)
def team_feed(request: Request, team_id: PathId, who: CalendarReader) -> Response:
    from gputeam import store as st

    if not who.may_team(team_id):
        raise HTTPException(403, "only admins and the team's managers read a team calendar")
    with db(request).session() as s:
        team = services.team_in_org(request.app, s, team_id)
        if team is None:
            raise not_found("team")
        return Response(
            st.team_calendar(s, team.org_id, team_id=team.id, today=today(request)), media_type=ICS
        )
