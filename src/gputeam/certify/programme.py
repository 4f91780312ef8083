"""An internal certification programme, the pure part: what it grants, what it teaches, its
exam blueprint, its practical rubric and the skill ratings a pass records; and the rules of
time (deadline, remaining seconds, grace) and of retakes (attempts allowed, cooldown).

The store keeps programmes as :class:`ProgrammeSpec` JSON; :func:`read_spec` checks one
against the catalog in use (the certification it grants must be a catalog certification:
user-defined ones live in the catalog extras, with their validity and retake wait).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gputeam.catalog import Catalog
from gputeam.i18n import N_

#: Seconds after the deadline during which a save in flight is still accepted.
GRACE_SECONDS = 15
#: The cooldown between attempts when neither the programme nor the catalog names one.
DEFAULT_COOLDOWN_DAYS = 14


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a programme spec: the field, what is wrong, what was found."""

    path: str
    message: str
    found: str | None = None
    expected: str | None = None


class ProgrammeError(ValueError):
    """A programme spec that cannot be used; ``problems`` names each bad field."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems))
        self.problems = problems


class Module(_Frozen):
    """A piece of the curriculum: a catalog course or path (``ref``), or an internal module."""

    name: str = Field(min_length=1, max_length=200)
    ref: str | None = Field(default=None, max_length=100)
    hours: float = Field(default=0.0, ge=0, le=10_000)


class Blueprint(_Frozen):
    """How the exam is drawn, timed and passed. Fractions: 0.7 is 70 %.

    ``domain_weights`` default to the catalog exam's weights of the certification granted;
    ``cooldown_days`` to its retake wait; ``attempts`` None is unlimited;
    ``teams`` the team ids whose people may sit it (empty: everyone)."""

    questions: int = Field(ge=1, le=500)
    minutes: int = Field(ge=1, le=24 * 60)
    pass_mark: float = Field(ge=0, le=1)
    domain_minimum: float | dict[str, float] | None = None
    domain_weights: dict[str, float] = Field(default_factory=dict)
    attempts: int | None = Field(default=None, ge=1, le=100)
    cooldown_days: int | None = Field(default=None, ge=0, le=3650)
    teams: tuple[int, ...] = ()

    @model_validator(mode="after")
    def _fractions(self) -> Blueprint:
        mins = self.domain_minimum
        values = mins.values() if isinstance(mins, dict) else [] if mins is None else [mins]
        if any(not (0 <= v <= 1) for v in values):
            raise ValueError(N_("domain minimums are fractions between 0 and 1 (0.6 = 60 %)"))
        if any(not (math.isfinite(w) and w >= 0) for w in self.domain_weights.values()):
            raise ValueError(N_("domain weights must be zero or positive"))
        return self

    def admits(self, team_id: int | None) -> bool:
        """Whether a person of this team (None: in no team) may sit the exam."""
        return not self.teams or team_id in self.teams


class Criterion(_Frozen):
    """One criterion of the practical's rubric."""

    id: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.-]+$")
    name: str = Field(min_length=1, max_length=200)
    description: str = ""
    required: bool = True


class ProgrammeSpec(_Frozen):
    """A programme: the certification it grants, the curriculum, the exam blueprint, the
    optional practical rubric, the skill-domain proficiency a pass records, and the people
    (keys) named as assessors besides managers and admins."""

    name: str = Field(min_length=1, max_length=200)
    certification: str = Field(min_length=1, max_length=100)
    curriculum: tuple[Module, ...] = ()
    blueprint: Blueprint
    rubric: tuple[Criterion, ...] = ()
    skills: dict[str, int] = Field(default_factory=dict)
    assessors: tuple[str, ...] = ()
    category_domains: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _checks(self) -> ProgrammeSpec:
        if any(not (1 <= v <= 4) for v in self.skills.values()):
            raise ValueError(N_("skill proficiencies are 1-4"))
        ids = [c.id for c in self.rubric]
        if len(set(ids)) != len(ids):
            raise ValueError(N_("rubric criteria need distinct ids"))
        return self

    @property
    def practical(self) -> bool:
        return bool(self.rubric)


def _validated(data: Mapping[str, Any]) -> ProgrammeSpec:
    try:
        return ProgrammeSpec.model_validate(data)
    except ValidationError as exc:
        raise ProgrammeError(
            [
                Problem(path=".".join(str(p) for p in e["loc"]) or "(top level)", message=e["msg"])
                for e in exc.errors()
            ]
        ) from None


def read_spec(data: Mapping[str, Any] | ProgrammeSpec, catalog: Catalog) -> ProgrammeSpec:
    """A programme spec from JSON/YAML data, checked against ``catalog``; the blueprint's
    weights and cooldown are filled from the catalog certification's exam when not given.
    Raises :class:`ProgrammeError` naming each bad field. ``data`` may be a spec validated
    already (the store validates it itself, to word pydantic's refusals as every other
    door does, for translation)."""
    spec = data if isinstance(data, ProgrammeSpec) else _validated(data)
    problems = []
    cert = catalog.certifications.get(spec.certification)
    if cert is None:
        problems.append(
            Problem(
                path="certification",
                found=repr(spec.certification),
                message=N_("not a certification of the catalog in use"),
                expected=N_("a catalog certification id (add your own in the catalog extras)"),
            )
        )
    for domain in spec.skills:
        if domain not in catalog.domains:
            problems.append(
                Problem(
                    path=f"skills.{domain}",
                    found=repr(domain),
                    message=N_("unknown skill domain"),
                    expected=N_("a catalog domain id"),
                )
            )
    for m in spec.curriculum:
        if m.ref and m.ref not in catalog.courses and m.ref not in catalog.paths:
            problems.append(
                Problem(path="curriculum", found=repr(m.ref), message=N_("not a catalog course or path"))
            )
    if problems:
        raise ProgrammeError(problems)
    assert cert is not None
    bp = spec.blueprint
    weights = (
        bp.domain_weights
        or dict(cert.exam.domain_weights)
        or {g.domain: 1.0 for g in cert.grants}
        or {d: 1.0 for d in spec.skills}
    )
    if not weights:
        raise ProgrammeError(
            [
                Problem(
                    path="blueprint.domain_weights",
                    message=N_("no domain weights: give them, or grant a certification whose exam has them"),
                )
            ]
        )
    cooldown = (
        bp.cooldown_days
        if bp.cooldown_days is not None
        else (cert.exam.retake_wait_days if cert.exam.retake_wait_days is not None else DEFAULT_COOLDOWN_DAYS)
    )
    return spec.model_copy(
        update={"blueprint": bp.model_copy(update={"domain_weights": weights, "cooldown_days": cooldown})}
    )


def deadline(started: datetime, minutes: int, multiplier: float = 1.0) -> datetime:
    """``start + limit × the person's time multiplier`` (an accommodation: 1.25 is 25 % more)."""
    return started + timedelta(seconds=round(minutes * 60 * multiplier))


def remaining_seconds(deadline_at: datetime, now: datetime) -> int:
    """Whole seconds left (0 once the deadline has passed)."""
    return max(0, math.floor((deadline_at - now).total_seconds()))


def accepts_save(deadline_at: datetime, now: datetime, grace: int = GRACE_SECONDS) -> bool:
    """A save is stored until the deadline plus the grace (a save in flight when time ran out)."""
    return now <= deadline_at + timedelta(seconds=grace)


def next_attempt(
    finished: Sequence[tuple[datetime, bool | None]], blueprint: Blueprint, today: date
) -> tuple[date | None, str | None]:
    """When the person may sit the exam again, from their finished attempts
    ``(finished_at, passed)``: ``(date, None)`` or ``(None, why not)``. A pass needs no
    retake; attempts are counted since the last pass (a renewal is a new sitting after
    the cooldown). ``passed`` None is an attempt awaiting the marking of its essays: no new
    attempt starts until it is marked."""
    if any(p is None for _, p in finished):
        return None, N_("an attempt awaits marking")
    finished = sorted(finished)
    passes = [i for i, (_, p) in enumerate(finished) if p]
    since_pass = finished[passes[-1] + 1 :] if passes else finished
    if blueprint.attempts is not None and len(since_pass) >= blueprint.attempts:
        return None, N_("all {n} attempts used").format(n=blueprint.attempts)
    if not finished:
        return today, None
    last = finished[-1][0].date()
    return max(today, last + timedelta(days=blueprint.cooldown_days or 0)), None
