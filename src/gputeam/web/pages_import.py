"""The guided import (admin): upload a roster or certifications file, pick the sheet,
check the detected header row, map each column to a field with a dropdown, preview every
change (the importer's dry run), then import; the result as a page. Works without
JavaScript: each step is a form.

The upload is kept between the steps by :class:`gputeam.store.PendingUploads` (a private
file keyed by a random token, owned by the user and organisation; deleted after the
import, on *Discard*, or after an hour). Reading, detecting and importing are the store's
(:mod:`gputeam.store.guided_import`, :mod:`gputeam.store.importing`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Path, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from gputeam import store
from gputeam.errors import InputError
from gputeam.i18n import N_, _
from gputeam.web import services
from gputeam.web.auth import require
from gputeam.web.permissions import Perm, Principal
from gputeam.web.render import render

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

Importer = Annotated[Principal, Depends(require(Perm.IMPORT))]
Token = Annotated[str, Path(min_length=1, max_length=64)]
KIND_LABELS = {"roster": N_("Roster (people)"), "certifications": N_("Certifications")}


def field_choices(kind: str, catalog: Any) -> list[tuple[str, str, str | None]]:
    """The mapping dropdown's ``(value, label, lang)``: the store's fields in the request's
    language where they are words (a skill domain, "ignore"); the other labels are the file's
    field names, kept in English (``lang`` "en"), as the roster's column names are."""
    names = {d.id: d.name for d in catalog.domains.values()}
    out: list[tuple[str, str, str | None]] = []
    for value, label in store.import_field_choices(kind, catalog):
        if value.startswith("skill:") and value[6:] in names:
            out.append((value, _("skill: {name}").format(name=_(names[value[6:]])), None))
        elif label.startswith("("):
            out.append((value, _("(ignore this column)"), None))
        else:
            out.append((value, label, "en"))
    return out


def uploads(request: Request) -> store.PendingUploads:
    return request.app.state.uploads  # type: ignore[no-any-return]


def _org(request: Request) -> int:
    with request.app.state.db.read_session() as s:
        return services.org_id(request.app, s)


def _pending(request: Request, who: Principal, token: str) -> store.PendingUpload:
    return uploads(request).get(token, who.user_id, _org(request))


# ---------------------------------------------------------------- 1. upload
@router.get("/import")
def upload_form(request: Request, who: Importer, discarded: bool = False) -> Response:
    return render(
        request,
        "import.html",
        who=who,
        kinds=KIND_LABELS,
        kind="roster",
        errors={},
        flash=_("Upload discarded.") if discarded else None,
    )


async def _upload_form_again(
    request: Request, who: Principal, kind: str, errors: dict[str, str], status: int = 422
) -> Response:
    """The upload form once more (422, or 413 for a file over a limit), its message beside
    the refused field."""
    return await run_in_threadpool(
        render, request, "import.html", status, who=who, kinds=KIND_LABELS, kind=kind, errors=errors
    )


@router.post("/import")
async def upload(
    request: Request,
    who: Importer,
    file: UploadFile,
    kind: Annotated[str, Form(max_length=100)] = "",
) -> Response:
    from gputeam.web.api.data import read_upload

    if kind not in KIND_LABELS:  # the form again, the message beside the choice
        return await _upload_form_again(
            request, who, "roster", {"kind": _("Choose a roster or certifications.")}
        )

    content = await read_upload(file, request)
    name = file.filename or "upload.csv"

    def keep() -> str:
        upload = store.PendingUpload("", kind, name, content, 0.0)
        # refuse a non-table, or a file over the import limits, now
        store.import_layout(upload, services.catalog(request.app), limits=request.app.state.limits)
        return uploads(request).save(who.user_id, _org(request), kind, name, content)

    try:
        token = await run_in_threadpool(keep)
    except InputError as exc:
        text = "; ".join(_problem_text(p.localised().as_dict()) for p in exc.problems)
        status = exc.status if isinstance(exc, store.LimitExceeded) else 422
        return await _upload_form_again(request, who, kind, {"file": text}, status)
    return RedirectResponse(f"/import/{token}", status_code=303)


def too_large(request: Request, detail: str) -> Response:
    """The answer to a page request over the size limits (:mod:`gputeam.web.limits`,
    before the body is read, or :func:`gputeam.web.api.data.read_upload`): a person sent
    it from a form, so a page, never JSON. An upload to ``/import`` by someone who may
    import gets the upload form again with the limit beside the file field; anything
    else the error page with ``detail``."""
    from fastapi import HTTPException

    from gputeam.web import limits
    from gputeam.web.auth import load_principal
    from gputeam.web.render import error_page

    if request.url.path == "/import" and request.method == "POST":
        try:
            who = load_principal(request)
        except HTTPException:
            who = None
        if who is not None and who.can(Perm.IMPORT, write=True):
            limit = limits.size_text(limits.max_upload(request))
            return render(
                request,
                "import.html",
                413,
                who=who,
                kinds=KIND_LABELS,
                kind="roster",
                errors={
                    "file": _(
                        "the file is larger than {limit}, the most one upload may hold; "
                        "split it into smaller files (each import adds to or changes what is there)"
                    ).format(limit=limit)
                },
            )
    return error_page(request, 413, detail)


def _problem_text(p: dict[str, Any]) -> str:
    text = str(p.get("message", ""))
    if p.get("expected"):
        text += "; " + _("expected {value}").format(value=p["expected"])
    return text


# ---------------------------------------------------------------- 2. sheet, header, mapping
#: how many of a file's columns the mapping page shows at once, and changed rows the preview
COLUMNS_PER_PAGE = 50
ROWS_PER_PAGE = 200


def _layout(request: Request, upload: store.PendingUpload, sheet: str | None, header_row: int | None) -> Any:
    return store.import_layout(
        upload,
        services.catalog(request.app),
        sheet=sheet or None,
        header_row=header_row,
        limits=request.app.state.limits,
    )


def page_of(total: int, start: int, size: int) -> dict[str, int | None]:
    """One page of ``total`` items from ``start`` (moved back onto a page): ``start``,
    ``end``, the ``previous`` and ``next`` page's start (None at either end)."""
    start = max(0, min(start, max(total - 1, 0))) // size * size
    end = min(total, start + size)
    return {
        "start": start,
        "end": end,
        "total": total,
        "previous": start - size if start else None,
        "next": end if end < total else None,
    }


def _mapping_page(
    request: Request,
    who: Principal,
    upload: store.PendingUpload,
    layout: Any,
    chosen: dict[int, str] | None = None,
    status: int = 200,
    start: int = 0,
    **extra: Any,
) -> Response:
    """The mapping page, showing ``COLUMNS_PER_PAGE`` columns from ``start`` (the page of
    the first column with an error, when there is one); the choices for the others are
    carried in the form."""
    chosen = chosen if chosen is not None else {c.index: c.field or "" for c in layout.columns}
    named = [c for c in layout.columns if c.header]
    errors = extra.get("errors")
    if errors:
        start = next((i for i, c in enumerate(named) if c.index in errors), start)
    page = page_of(len(named), start, COLUMNS_PER_PAGE)
    shown = named[page["start"] : page["end"]]
    visible = {c.index for c in shown}
    return render(
        request,
        "import_map.html",
        status,
        who=who,
        token=upload.token,
        layout=layout,
        chosen=chosen,
        kinds=KIND_LABELS,
        choices=field_choices(upload.kind, services.catalog(request.app)),
        shown=shown,
        hidden={i: v for i, v in chosen.items() if i not in visible},
        page=page,
        name_columns=store.import_name_columns(layout.columns, chosen),
        **extra,
    )


@router.get("/import/{token}")
def mapping_form(
    request: Request,
    token: Token,
    who: Importer,
    sheet: Annotated[str | None, Query(max_length=200)] = None,
    header_row: Annotated[int | None, Query(ge=1, le=1_000_000)] = None,
    columns: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> Response:
    upload = _pending(request, who, token)
    try:
        layout = _layout(request, upload, sheet, header_row)
    except InputError as exc:
        layout = _layout(request, upload, sheet, None)
        return _mapping_page(
            request,
            who,
            upload,
            layout,
            status=422,
            header_error=_problem_text(exc.problems[0].localised().as_dict()),
        )
    # "Back to the columns" from the preview brings the choices made
    chosen = {c.index: c.field or "" for c in layout.columns} | _picked(request.query_params.multi_items())
    return _mapping_page(request, who, upload, layout, chosen, start=columns)


def _picked(items: Any) -> dict[int, str]:
    """The mapping form's choices (``col-N=field``) among form or query items."""
    return {
        int(k[4:]): v[:100]
        for k, v in items
        if k.startswith("col-") and k[4:].isdigit() and len(k) < 12 and isinstance(v, str)
    }


def back_query(layout: Any, chosen: dict[int, str]) -> str:
    from urllib.parse import urlencode

    items = [("header_row", str(layout.header_row))]
    if layout.sheet:
        items.append(("sheet", layout.sheet))
    return urlencode(items + [(f"col-{i}", v) for i, v in sorted(chosen.items())])


def _offset(value: Any) -> int | None:
    """A page's start from a form's button (``columns=50``), or None."""
    return int(value) if isinstance(value, str) and value.isdigit() and len(value) < 8 else None


async def _choices(
    request: Request,
) -> tuple[str | None, int | None, dict[int, str], int | None, int]:
    """The form's sheet, header row and choices; the columns page a button asked for
    (None: none), the changed rows' page (0: the first)."""
    form = await request.form()
    sheet = form.get("sheet")
    row = form.get("header_row")
    chosen = _picked(form.multi_items())
    header_row = int(row) if isinstance(row, str) and row.isdigit() and 0 < int(row) <= 1_000_000 else None
    sheet_ = sheet[:200] if isinstance(sheet, str) and sheet else None
    return sheet_, header_row, chosen, _offset(form.get("columns")), _offset(form.get("rows")) or 0


def _unchosen(layout: Any, chosen: dict[int, str], allowed: set[str]) -> dict[int, str]:
    """Errors beside the mapping's dropdowns: a column with no field chosen."""
    errors = {}
    for c in layout.columns:
        value = chosen.get(c.index, "")
        if c.header and value not in allowed:
            errors[c.index] = (
                _("choose the field this column holds, or ignore it")
                if not value
                else _("{value} is not a field").format(value=repr(value))
            )
    return errors


def _run(
    request: Request,
    who: Principal,
    upload: store.PendingUpload,
    layout: Any,
    chosen: dict[int, str],
    dry_run: bool,
) -> dict[str, Any]:
    from gputeam.web.api.data import run_import

    mapping = store.import_mapping(layout.columns, chosen)
    return run_import(
        request,
        upload.kind,
        upload.data,
        upload.filename,
        mapping,
        dry_run,
        who,
        layout.header_row,
        sheet=layout.sheet,
    )


async def _step(request: Request, token: str, who: Principal, dry_run: bool) -> Response:
    upload = await run_in_threadpool(_pending, request, who, token)
    sheet, header_row, chosen, columns, rows = await _choices(request)

    def work() -> Response:
        layout = _layout(request, upload, sheet, header_row)
        if columns is not None:  # another page of the columns, the choices kept
            return _mapping_page(request, who, upload, layout, chosen, start=columns)
        labels = {v: label for v, label, _lang in field_choices(upload.kind, services.catalog(request.app))}
        allowed = set(labels)
        errors = _unchosen(layout, chosen, allowed)
        if errors:
            return _mapping_page(request, who, upload, layout, chosen, 422, errors=errors)
        try:
            report = _run(request, who, upload, layout, chosen, dry_run)
        except InputError as exc:
            return _mapping_page(
                request,
                who,
                upload,
                layout,
                chosen,
                422,
                problems=[p.localised().as_dict() for p in exc.problems],
            )
        if not dry_run:
            uploads(request).discard(upload.token)
        by_row = _by_row(report.get("changes", []), labels)
        page = page_of(len(by_row), rows, ROWS_PER_PAGE)
        return render(
            request,
            "import_preview.html",
            who=who,
            token=upload.token,
            layout=layout,
            chosen=chosen,
            report=report,
            by_row=by_row[page["start"] : page["end"]],
            page=page,
            kinds=KIND_LABELS,
            back=back_query(layout, chosen),
            name_columns=store.import_name_columns(layout.columns, chosen),
        )

    return await run_in_threadpool(work)


def _by_row(changes: list[dict[str, Any]], labels: dict[str, str]) -> list[dict[str, Any]]:
    """The dry run's changes, one entry per row: ``{"row", "id", "fields": [...]}``, each
    field named as the mapping's dropdown names it (``skill: Linux administration``)."""
    rows: dict[int, dict[str, Any]] = {}
    for c in changes:
        entry = rows.setdefault(c["row"], {"row": c["row"], "id": c["id"], "fields": []})
        entry["fields"].append(c | {"label": labels.get(c["field"], c["field"])})
    return [rows[k] for k in sorted(rows)]


# ---------------------------------------------------------------- 3. preview, 4. import
@router.post("/import/{token}/preview")
async def preview(request: Request, token: Token, who: Importer) -> Response:
    return await _step(request, token, who, dry_run=True)


@router.post("/import/{token}/import")
async def commit(request: Request, token: Token, who: Importer) -> Response:
    return await _step(request, token, who, dry_run=False)


@router.post("/import/{token}/discard")
def discard(request: Request, token: Token, who: Importer) -> Response:
    _pending(request, who, token)  # only the owner's
    uploads(request).discard(token)
    return RedirectResponse("/import?discarded=true", status_code=303)
