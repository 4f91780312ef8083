"""The plan page: the planner run on the live team against a fleet scenario, with what-if
controls (GPU count, deadline, budget). With HTMX the controls re-plan as they change and
only the result is redrawn; without JavaScript the form posts and the page reloads."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, Response

from gputeam.errors import InputError
from gputeam.i18n import _
from gputeam.report.sections import roi_text
from gputeam.scenario import MAX_GPUS, MAX_HORIZON_MONTHS, PlanInputs
from gputeam.scenario.models import GPU_MODEL_LONGEST
from gputeam.web import notices, services
from gputeam.web.auth import require
from gputeam.web.gantt import Bar, gantt_svg
from gputeam.web.permissions import Perm, Principal
from gputeam.web.render import error_page, render, today

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)

PlanReader = Annotated[Principal, Depends(require(Perm.PLANS_READ))]
Planner = Annotated[Principal, Depends(require(Perm.PLANS_RUN))]
GANTT_PEOPLE = 15


def plan_view(plan: Any, today_: date) -> dict[str, Any]:
    """What the page shows of a Plan (a Plan model)."""
    from gputeam.report.words import item_name, localise, roadmap_name

    deadline = plan.target.at(plan.gaps.month)
    bars = []
    for rm in plan.roadmaps[:GANTT_PEOPLE]:
        for it in rm.items:
            bars.append(Bar(f"{roadmap_name(rm)}: {item_name(it)}", it.start, it.end, it.kind))
    return {
        "deadline": deadline,
        "now": plan.target.at(1),
        "gaps": plan.gaps,
        "sourcing": plan.sourcing,
        "costs": plan.costs,
        "roi": plan.roi,
        "roi_net": roi_text(plan.roi, "net_roi"),
        "roi_payback": roi_text(plan.roi, "payback_months"),
        "roi_npv": roi_text(plan.roi, "npv", plan.costs.currency),
        # the planner's sentences in the request's language (as the reports write them)
        "warnings": [{"message": localise(w.text, w.message)} for w in plan.warnings],
        "currency": plan.costs.currency,
        "gantt": gantt_svg(bars, today_, _("Roadmaps (first people)")) if bars else "",
        "roadmaps": len(plan.roadmaps),
    }


def _controls(inputs: dict[str, Any]) -> dict[str, Any]:
    c = inputs.get("constraints") or {}
    return {
        "gpus": services.gpus_peak(inputs),
        "deadline_month": c.get("deadline_month") or "",
        "budget": c.get("budget") or "",
        "horizon_months": inputs.get("horizon_months", 12),
        "gpu_model": inputs["fleet"].get("gpu_model", "H100"),
        "mode": inputs.get("mode", "template"),
        # the plan inputs' limits, for the browser's number controls (the server checks them)
        "max_gpus": MAX_GPUS,
        "max_horizon": MAX_HORIZON_MONTHS,
        "gpu_model_longest": GPU_MODEL_LONGEST,
    }


@router.get("/plan")
def plan_page(request: Request, who: PlanReader) -> Response:
    with request.app.state.db.session() as s:
        inputs = services.plan_inputs(s, services.org_id(request.app, s))
        latest = services.latest_plan(request.app, s)
        plan, saved, error = None, None, None
        if who.can(Perm.PLANS_RUN):
            try:
                plan = services.run_plan(request.app, s, inputs, today(request), preview=True)
            except (InputError, ValueError) as exc:
                error = str(exc)
        elif latest is not None:
            plan, saved = latest[0], latest[1]
        if plan is not None:
            plan = services.plan_for(request.app, s, plan, who, saved.id if saved is not None else None)
    return render(
        request,
        "plan.html",
        who=who,
        controls=_controls(inputs),
        error=error,
        view=plan_view(plan, today(request)) if plan is not None else None,
        saved=saved,
        latest=latest[1] if latest else None,
        flash=None,
    )


@router.get("/plan/report.pdf")
def plan_pdf(
    request: Request, who: PlanReader, paper: Annotated[str | None, Query(pattern="^(a4|letter)$")] = None
) -> Response:
    """The plan's report as a PDF download: the latest saved plan, else (for those who may
    plan) the live team planned now; printed by the server's Chromium. The paper defaults
    to the browser's first language's region (Letter for en-US), else A4."""
    from gputeam.report import pdf

    if paper is None:
        first = (request.headers.get("accept-language") or "").split(",")[0].split(";")[0]
        paper = pdf.paper_for_locale(first) or "a4"
    try:
        pdf.chromium_path()  # before any planning
    except pdf.RendererMissing as exc:
        return _pdf_unavailable(request, exc)
    with request.app.state.db.session() as s:
        latest = services.latest_plan(request.app, s)
        saved = None
        if latest is not None:
            plan, name, saved = latest[0], f"gputeam-plan-v{latest[1].version}", latest[1].id
        elif who.can(Perm.PLANS_RUN):
            inputs = services.plan_inputs(s, services.org_id(request.app, s))
            try:
                plan = services.run_plan(request.app, s, inputs, today(request))
            except (InputError, ValueError) as exc:
                return error_page(request, 422, str(exc))
            name = f"gputeam-plan-{today(request).isoformat()}"
        else:
            return error_page(request, 404, "No plan has been saved yet.")
        plan = services.plan_for(request.app, s, plan, who, saved)
    try:
        data = pdf.render(plan, paper)
    except (pdf.RendererMissing, pdf.PrintFailed) as exc:
        return _pdf_unavailable(request, exc)
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{name}-{paper}.pdf"'},
    )


def _pdf_unavailable(request: Request, exc: InputError) -> Response:
    """503: the server cannot print PDFs (no Chromium, or it failed); the message says why."""
    return render(
        request, "error.html", 503, code=503, title=_("PDF unavailable"), detail=str(exc.problems[0])
    )


@router.post("/plan")
async def plan_submit(request: Request, who: Planner) -> Response:
    from starlette.concurrency import run_in_threadpool

    data = await request.form()
    form = {k: v for k, v in data.items() if isinstance(v, str) and len(v) <= 100}
    return await run_in_threadpool(_plan_submit, request, who, form)


def _plan_submit(request: Request, who: Principal, form: dict[str, str]) -> Response:
    """Re-plan with the what-if inputs (or save). Invalid inputs (text that is not a
    number, or values the plan inputs' rules refuse: :class:`PlanInputs`, as for the API and
    scenario files): the form again with the message beside each field and the typed
    values, and no result (nothing from earlier inputs shown under the new ones); 422 for a
    page. htmx swaps only successful answers,
    so the fragment answering htmx carries the messages (also into the form's message
    slots, out of band) with status 200."""
    from gputeam.web.api.common import actor
    from gputeam.web.whatif_form import field_errors, parse_whatif

    action = form.get("action", "preview")
    if action not in ("preview", "save") or request.headers.get("HX-Request"):
        # htmx sends the last-clicked submit button along with later requests from the form
        # (a 'change' as focus moves to "Save"): only the native form submission saves.
        action = "preview"
    partial = bool(request.headers.get("HX-Request"))
    values, errors = parse_whatif(form)
    error, plan = None, None
    with request.app.state.db.session() as s:
        base = services.plan_inputs(s, services.org_id(request.app, s))
        controls = {**_controls(base), **{k: form.get(k, "") for k in values}}
        # the model checks what did convert (a field that did not keeps the saved value),
        # so every refused field is named at once
        converted = {k: v for k, v in values.items() if k not in errors}
        base = {
            **base,
            "horizon_months": converted.get("horizon_months", base.get("horizon_months", 12)),
            "mode": converted.get("mode", base.get("mode", "template")),
            "fleet": {**base["fleet"], "gpu_model": converted["gpu_model"]},
            "constraints": {
                k: v
                for k, v in (base.get("constraints") or {}).items()
                if k not in ("deadline_month", "budget")
            },
        }
        what = services.WhatIf(
            gpus=converted.get("gpus"),
            deadline_month=converted.get("deadline_month"),
            budget=converted.get("budget"),
        )
        inputs = services.apply_what_if(base, what)
        try:
            PlanInputs.parse(inputs)
        except InputError as exc:
            errors = field_errors(exc) | errors
            error = errors.pop("_", None)
        if not errors and error is None:
            try:
                plan = services.run_plan(request.app, s, inputs, today(request), preview=action == "preview")
            except (InputError, ValueError) as exc:
                error = str(exc)
        if plan is not None and action == "save":
            services.save_plan(request.app, s, inputs, plan, today(request), actor(who))
        if plan is not None:
            plan = services.plan_for(request.app, s, plan, who)
    if plan is not None and action == "save":
        return notices.redirect(request, "/plan", _("Plan saved: the dashboard now measures against it."))
    context = {
        "who": who,
        "controls": controls,
        "error": error,
        "errors": errors,
        "view": plan_view(plan, today(request)) if plan is not None else None,
        "saved": None,
        "latest": None,
        "flash": None,
        "oob": partial,
    }
    if partial:
        return render(request, "plan_result.html", 200, **context)
    return render(request, "plan.html", 422 if error or errors else 200, **context)
