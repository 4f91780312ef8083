"""The plan page's what-if form read field by field: the text converted to values, or a
message per field that is not a number (shown beside it, the typed values kept, and no
result from earlier inputs left under the new ones). Numbers are read as the roster import
reads them (one parser, :func:`gputeam.store.tables.number`), so ``1.500.000`` and
``1,500,000`` are both a budget.

What the values may be (how many GPUs, how long a horizon, which modes ...) is not decided
here: the plan inputs' own model (:class:`gputeam.scenario.PlanInputs`) holds those rules
for scenario files, the API and this form alike; :func:`field_errors` places its problems
beside the form's fields."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gputeam.errors import InputError
from gputeam.i18n import N_, _
from gputeam.store import BadCell
from gputeam.store import parse_number as number

#: The form's fields, in the order the form shows them, with their labels.
LABELS = {
    "gpus": N_("GPUs (peak)"),
    "gpu_model": N_("GPU model"),
    "deadline_month": N_("Deadline (plan month)"),
    "horizon_months": N_("Horizon (months)"),
    "budget": N_("Budget"),
    "mode": N_("Mode"),
}
FIELDS = tuple(LABELS)
#: The plan inputs' fields (dotted paths, see PlanInputs) each form field sets.
PATHS = {
    "fleet.gpus": "gpus",
    "fleet.gpu_model": "gpu_model",
    "constraints.deadline_month": "deadline_month",
    "horizon_months": "horizon_months",
    "constraints.budget": "budget",
    "mode": "mode",
}


def _message(name: str, reason: str, found: str | None, expected: str | None) -> str:
    """A field's message beside it: its label, the reason, the value when short, what is
    expected (the person form's way of writing it), in the page's language."""
    from gputeam.i18n.messages import translate

    text = f"{_(LABELS[name])}: {translate(reason)}"
    if found and len(found) <= 60:
        text += f" ({found})"
    return text + (_("; expected {expected}.").format(expected=translate(expected)) if expected else ".")


def _number(text: str, name: str, errors: dict[str, str], whole: bool) -> float | int | None:
    try:
        value = number(text, None)
    except BadCell as exc:
        errors[name] = _message(name, exc.reason, None, exc.expected)
        return None
    if whole and not value.is_integer():
        errors[name] = _message(name, N_("not a whole number"), None, N_("a whole number"))
        return None
    return int(value) if whole else value


def parse_whatif(form: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    """``({gpus, gpu_model, deadline_month, horizon_months, budget, mode}, errors)``: the
    text as values, and a message for each field that is not a number. A blank deadline
    or budget is None (none), a blank horizon 12, a blank model H100, a blank mode
    template. The values are not checked against any limit here (see :func:`field_errors`)."""
    errors: dict[str, str] = {}
    text = {k: str(form.get(k, "")).strip() for k in FIELDS}
    values: dict[str, Any] = {
        "gpus": _number(text["gpus"], "gpus", errors, whole=True),
        "gpu_model": text["gpu_model"] or "H100",
        "deadline_month": None,
        "horizon_months": _number(text["horizon_months"] or "12", "horizon_months", errors, whole=True),
        "budget": None,
        "mode": text["mode"] or "template",
    }
    if text["deadline_month"]:
        values["deadline_month"] = _number(text["deadline_month"], "deadline_month", errors, whole=True)
    if text["budget"]:
        values["budget"] = _number(text["budget"], "budget", errors, whole=False)
    return values, errors


def field_errors(exc: InputError) -> dict[str, str]:
    """The plan inputs' problems as messages beside the form's fields (the first per
    field); a problem no field of the form sets goes under ``_`` (shown above the form)."""
    errors: dict[str, str] = {}
    for p in exc.problems:
        path = p.path.split("[")[0]
        name = PATHS.get(path) or PATHS.get(".".join(path.split(".")[:2]))
        if name is None:
            errors.setdefault("_", str(p))
        else:
            errors.setdefault(name, _message(name, p.message, p.found, p.expected))
    return errors
