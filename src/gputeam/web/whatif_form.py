"""The plan page's what-if form read field by field: the values to plan with, or a message
per field (shown beside it, the typed values kept, and no result from earlier inputs left
under the new ones). Numbers are read as the roster import reads them (one parser,
:func:`gputeam.store.tables.number`), so ``1.500.000`` and ``1,500,000`` are both a budget."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gputeam.store import BadCell
from gputeam.store import parse_number as number

#: The form's fields, in the order the form shows them.
FIELDS = ("gpus", "gpu_model", "deadline_month", "horizon_months", "budget", "mode")
MODES = ("template", "lean")
MAX_BUDGET = 1e12


def _whole(text: str, label: str, low: int, high: int) -> tuple[int | None, str | None]:
    try:
        value = number(text, None)
    except BadCell:
        value = -1.0
    if not value.is_integer() or not low <= value <= high:
        return None, f"{label} must be a whole number from {low} to {high}."
    return int(value), None


def parse_whatif(
    form: Mapping[str, str], max_gpus: int, max_horizon: int
) -> tuple[dict[str, Any], dict[str, str]]:
    """``({gpus, gpu_model, deadline_month, horizon_months, budget, mode}, errors)``; a
    blank deadline or budget is None (none), a blank horizon 12."""
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    text = {k: str(form.get(k, "")).strip() for k in FIELDS}
    values["gpus"], fault = _whole(text["gpus"], "GPUs", 0, max_gpus)
    if fault:
        errors["gpus"] = fault
    model = text["gpu_model"] or "H100"
    if len(model) > 40:
        errors["gpu_model"] = "GPU model is at most 40 characters."
    values["gpu_model"] = model
    values["deadline_month"] = None
    if text["deadline_month"]:
        values["deadline_month"], fault = _whole(text["deadline_month"], "Deadline month", 1, max_horizon)
        if fault:
            errors["deadline_month"] = fault
    values["horizon_months"], fault = _whole(
        text["horizon_months"] or "12", "Horizon (months)", 1, max_horizon
    )
    if fault:
        errors["horizon_months"] = fault
    values["budget"] = None
    if text["budget"]:
        try:
            budget = number(text["budget"], None)
        except BadCell as exc:
            errors["budget"] = f"Budget: {exc.reason} (expected {exc.expected})."
        else:
            if not 0 <= budget <= MAX_BUDGET:
                errors["budget"] = "Budget must be an amount of 0 or more."
            values["budget"] = budget
    if text["mode"] and text["mode"] not in MODES:
        errors["mode"] = "Mode is template or lean."
    values["mode"] = text["mode"] or "template"
    return values, errors
