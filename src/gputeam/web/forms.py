"""Form fields checked by the API's own body models (one rule for a form and the API): a
refused form is shown again with each message beside its field, the typed values kept,
status 422, as the person form does (:mod:`gputeam.web.pages_people`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from pydantic import BaseModel, ValidationError
from starlette.datastructures import FormData

from gputeam.errors import InputError

M = TypeVar("M", bound=BaseModel)


async def posted_form(request: Request) -> FormData:
    """The request's form, read on the event loop, so that the endpoint taking it can be a
    plain function: FastAPI runs those in its thread pool, where their database work (a
    SQLite writer waiting for the lock, a PostgreSQL round trip) does not hold up every
    other request of the process, as it would inside an ``async`` endpoint."""
    return await request.form()


#: An endpoint's parameter: the posted form (see :func:`posted_form`).
PostedForm = Annotated[FormData, Depends(posted_form)]


def checked(model: type[M], data: Mapping[str, Any]) -> tuple[M | None, dict[str, str]]:
    """``data`` validated as ``model`` (an API body), or None and a message per field
    (the first of each; the model's words, as the API's 422 gives them)."""
    from gputeam._yaml import one_per_fault, pydantic_message
    from gputeam.i18n.messages import translate

    try:
        return model.model_validate(dict(data)), {}
    except ValidationError as exc:
        errors: dict[str, str] = {}
        for e in one_per_fault(exc.errors(include_url=False)):
            field = str(e["loc"][0]) if e["loc"] else "_"
            errors.setdefault(field, translate(pydantic_message(e)) + ".")
        return None, errors


def problem_errors(exc: InputError, fields: Mapping[str, str]) -> dict[str, str]:
    """The store's problems beside the form's fields: ``fields`` maps a problem's path
    (e.g. ``token.name``) to the form field; any other problem goes under ``_``."""
    from gputeam.i18n import _
    from gputeam.i18n.messages import translate

    errors: dict[str, str] = {}
    for p in exc.problems:
        text = translate(p.message)
        if p.expected:
            text += _("; expected {expected}.").format(expected=translate(p.expected))
        else:
            text += "."
        errors.setdefault(fields.get(p.path, "_"), text)
    return errors
