"""``PersonFields``: the one typed model of what a person's fields may hold.

Every way a person comes in builds one (or hands its values to the store, which does):
:func:`gputeam.store.people.add_person` and ``update_person`` validate whatever reaches them
with :meth:`PersonFields.parse`, the roster import validates each row with it, the web
app's person form and the JSON API pass it the values they read. A refused value is
refused with the same words whichever door it came in by; each door only says where
(the API names the field, the form shows the message beside it, the import names row and
column).

One rule for every door:

* Text is Unicode NFC and trimmed (surrounding spaces and line breaks dropped); inside, no
  control characters (NUL, tab, CR/LF, ...) and no bidirectional overrides
  (:func:`gputeam.store.person_rules.text_fault`); at most :data:`TEXT_LONGEST` characters.
  ``key`` and ``name`` may not be blank.
* ``email``, ``role`` and ``site`` are optional: blank means none (stored as NULL). An e-mail
  is something@domain.tld (:func:`gputeam.store.person_rules.email_fault`); a role is a
  catalog role id, or the role the person already has (kept when the catalog no longer
  has it). A site is free text (the tracker has no scenario to check site names against).
* Numbers: :data:`NUMBER_RULES` (range, whole number). Numbers written as text (a form, a
  spreadsheet cell) are read by the door with the locale-aware parser of
  :mod:`gputeam.store.tables` first; the model takes numbers.

The model's defaults are those of a new person (background ``sysadmin``, level 1, ...).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    StrictBool,
    StrictInt,
    ValidationError,
    ValidationInfo,
)
from pydantic_core import PydanticCustomError

from gputeam.errors import Problem
from gputeam.i18n import N_
from gputeam.store.errors import StoreError
from gputeam.store.person_rules import (
    EMAIL_EXAMPLE,
    NUMBER_RULES,
    REQUIRED,
    TEXT_LONGEST,
    clean_text,
    email_fault,
    role_allowed,
    text_fault,
)

#: the optional text fields: blank means none
OPTIONAL_TEXT = ("email", "role", "site")


class FieldFault(ValueError):
    """Why one value may not be stored in a person field, and what would be."""

    def __init__(self, reason: str, expected: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.expected = expected


def check_field(
    name: str, value: Any, *, roles: Collection[str] | None = None, current_role: str | None = None
) -> Any:
    """``value`` as the person field ``name`` stores it, or :class:`FieldFault`. ``roles``:
    the catalog's role ids (None: a role is checked as text only); ``current_role``: the
    role the person already has."""
    if name in NUMBER_RULES:
        return _number(name, value)
    if name not in TEXT_LONGEST:
        return value
    if value is None:
        if name in OPTIONAL_TEXT:
            return None
        raise FieldFault(N_("must not be empty"), N_("text"))
    if not isinstance(value, str):
        raise FieldFault(N_("not text"), N_("text"))
    text = clean_text(value).strip()
    if (fault := text_fault(text)) is not None:
        raise FieldFault(fault, N_("one line of text without control characters"))
    longest = TEXT_LONGEST[name]
    if len(text) > longest:
        raise FieldFault(
            N_("longer than {n} characters").format(n=longest), N_("at most {n} characters").format(n=longest)
        )
    if not text:
        if name in REQUIRED:
            raise FieldFault(N_("must not be empty"), N_("at least one character"))
        return None if name in OPTIONAL_TEXT else ""
    if name == "email" and (fault := email_fault(text)) is not None:
        raise FieldFault(fault, N_("an e-mail address like {example}, or none").format(example=EMAIL_EXAMPLE))
    if name == "role" and roles is not None and not role_allowed(text, roles, current_role):
        allowed = ", ".join([*roles, *([current_role] if current_role else [])])
        raise FieldFault(
            N_("unknown role"), N_("a catalog role id ({allowed}), or none").format(allowed=allowed)
        )
    return text


def _number(name: str, value: Any) -> int | float | None:
    rule = NUMBER_RULES[name]
    if value is None and name == "salary":
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FieldFault(N_("not a number"), rule.expected)
    if (fault := rule.fault(value)) is not None:
        raise FieldFault(fault, rule.expected)
    return int(value) if rule.whole else float(value)


def _rule(name: str) -> BeforeValidator:
    def check(value: Any, info: ValidationInfo) -> Any:
        context = info.context or {}
        try:
            return check_field(
                name, value, roles=context.get("roles"), current_role=context.get("current_role")
            )
        except FieldFault as fault:
            raise PydanticCustomError(
                "person_field", "{reason}", {"reason": fault.reason, "expected": fault.expected}
            ) from None

    return BeforeValidator(check)


class PersonFields(BaseModel):
    """A person's fields, validated (see the module's rules). Build it with :meth:`parse`;
    :meth:`given` is what the caller set (a change), ``model_dump()`` everything (a new
    person, the defaults filled in)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: Annotated[str, _rule("key")] = ""
    name: Annotated[str, _rule("name")] = ""
    email: Annotated[str | None, _rule("email")] = None
    title: Annotated[str, _rule("title")] = ""
    background: Annotated[str, _rule("background")] = "sysadmin"
    level: Annotated[int, _rule("level")] = 1
    experience_months: Annotated[int, _rule("experience_months")] = 0
    weekly_study_hours: Annotated[float, _rule("weekly_study_hours")] = 4.0
    salary: Annotated[float | None, _rule("salary")] = None
    role: Annotated[str | None, _rule("role")] = None
    site: Annotated[str | None, _rule("site")] = None
    team_id: StrictInt | None = None
    active: StrictBool = True

    @classmethod
    def parse(
        cls,
        values: Mapping[str, Any],
        *,
        roles: Collection[str] | None = None,
        current_role: str | None = None,
    ) -> PersonFields:
        """``values`` validated, or :class:`StoreError` listing every refused field at once
        (``path`` ``person.<field>``, ``message`` the rule's reason, ``found``, ``expected``)."""
        unknown = sorted(set(values) - set(PERSON_FIELDS))
        if unknown:
            raise StoreError(
                [
                    Problem(
                        path=f"person.{name}",
                        message=N_("unknown field"),
                        found=name,
                        expected=", ".join(PERSON_FIELDS),
                    )
                    for name in unknown
                ]
            )
        try:
            return cls.model_validate(values, context={"roles": roles, "current_role": current_role})
        except ValidationError as exc:
            raise StoreError([_problem(e, values) for e in exc.errors()]) from None

    def given(self) -> dict[str, Any]:
        """The fields the caller set, as stored."""
        return {name: getattr(self, name) for name in PERSON_FIELDS if name in self.model_fields_set}


#: the fields a person has, in order (what ``add_person`` / ``update_person`` take)
PERSON_FIELDS: tuple[str, ...] = tuple(PersonFields.model_fields)


def _problem(error: Any, values: Mapping[str, Any]) -> Problem:
    name = str(error["loc"][0]) if error["loc"] else ""
    ctx = error.get("ctx") or {}
    return Problem(
        path=f"person.{name}",
        message=str(ctx.get("reason", error["msg"])),
        found=shown(values.get(name)),
        expected=ctx.get("expected"),
    )


def shown(value: Any) -> str:
    """A refused value as an error shows it: control characters escaped."""
    return repr(value)[1:-1] if isinstance(value, str) else str(value)
