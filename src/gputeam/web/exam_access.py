"""What the exam pages and the exam API share: the server's clock, the credential issuer,
and who may see which attempt (an engineer only their own; a manager their teams'; an
admin everyone's). The rules of exams live in :mod:`gputeam.store.exams`."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from fastapi import HTTPException, Request

from gputeam import store
from gputeam.certify.programme import GRACE_SECONDS
from gputeam.i18n import _
from gputeam.web import services
from gputeam.web.auth import keep_signed_in, server_now
from gputeam.web.permissions import Perm, Principal


def now(request: Request) -> datetime:
    """The server's time (:func:`gputeam.web.auth.server_now`)."""
    return server_now(request.app)


def keep_session(request: Request, s: Any, who: Principal, attempt: Any) -> None:
    """While the caller's own attempt runs, their session and its CSRF token stay valid
    until its deadline plus the grace, however old the login."""
    if attempt.state == "in_progress" and attempt.person_id == who.person_id:
        until = attempt.deadline + timedelta(seconds=GRACE_SECONDS)
        keep_signed_in(request, s, who, until, f"exam attempt {attempt.id} runs")


def issuer(request: Request) -> store.Issuer | None:
    """Signs credentials on a pass when the server has a configured secret key (without one,
    the pass is recorded and an admin issues the credential later)."""
    settings = request.app.state.settings
    if not settings.secret_key:
        return None
    base = (settings.public_url or str(request.base_url)).rstrip("/")
    return store.Issuer(secret=str(settings.secret_key), base_url=base, did=settings.issuer_did_web())


def programme(request: Request, s: Any, code: str) -> Any:
    try:
        return store.get_programme(s, services.org_id(request.app, s), code)
    except store.NotFound:
        raise HTTPException(404, _("no such programme")) from None


def candidate(who: Principal) -> int:
    """The person the caller sits exams as."""
    if who.person_id is None:
        raise HTTPException(403, _("your account is not linked to a person, so you cannot sit exams"))
    return who.person_id


def attempt(request: Request, s: Any, who: Principal, attempt_id: int, *, own: bool = False) -> Any:
    """The attempt (finished first when its time ran out), if the caller may see it: their
    own, or (``own`` False) a person they may read. 404 otherwise, never 403 (an id says
    nothing about whether it exists)."""
    owner = store.attempt_person(s, attempt_id)
    if owner is None:
        raise HTTPException(404, _("no such attempt"))
    person = services.person_in_org(request.app, s, owner)
    mine = who.person_id is not None and owner == who.person_id
    if person is None or not (mine or (not own and who.may_read_person(person.id, person.team_id))):
        raise HTTPException(404, _("no such attempt"))
    return store.current_attempt(
        s, attempt_id, now=now(request), catalog=services.catalog(request.app), issuer=issuer(request)
    )


def finish_overdue(
    request: Request, s: Any, *, programme_id: int | None = None, person_id: int | None = None
) -> None:
    """Finish the overdue attempts a read is about to report (of one programme, or of one
    person), marking their saved answers: the list, a person's attempts and item analysis
    never show an attempt as running after its time ran out. One the store cannot finish
    stays in progress for the sweep, which reports it."""
    store.finalise_overdue(
        s,
        now=now(request),
        catalog=services.catalog(request.app),
        issuer=issuer(request),
        limit=None,
        programme_id=programme_id,
        person_id=person_id,
    )


def start(request: Request, s: Any, who: Principal, code: str, actor: str) -> Any:
    """Start (or resume) the caller's attempt at the programme ``code``; an attempt of
    theirs whose time ran out is finished first (see :func:`gputeam.store.start_attempt`)."""
    return store.start_attempt(
        s,
        programme(request, s, code),
        candidate(who),
        now=now(request),
        catalog=services.catalog(request.app),
        issuer=issuer(request),
        actor=actor,
    )


def listed(request: Request, s: Any, who: Principal) -> list[dict[str, Any]]:
    """The programmes the caller sees on the exams list: those they may sit (the
    blueprint's teams), those they have attempts in, and, for whoever manages exams or
    assesses a programme, that programme too. The caller's attempts whose time ran out
    are finished first."""
    org = services.org_id(request.app, s)
    person = None if who.person_id is None else services.person_in_org(request.app, s, who.person_id)
    if person is not None:
        finish_overdue(request, s, person_id=person.id)
    out = []
    for row in store.list_programmes(s, org):
        admitted = person is not None and store.programme_spec(row).blueprint.admits(person.team_id)
        if (
            admitted
            or manages(who)
            or store.may_assess(s, row, who.role, who.person_id)
            or (person is not None and store.attempts_of(s, row.id, person.id))
        ):
            out.append(programme_summary(request, s, row, who))
    return out


def assesses(request: Request, s: Any, who: Principal, prog: Any, person: Any) -> bool:
    """May ``who`` assess ``person``'s work in ``prog`` (see them in the marking and
    practical queues, mark their essays, grade and sign off their practical)? An admin
    anyone; a named assessor of the programme anyone; a manager the people of their teams
    (docs/web.md, Roles: the people they may read). Their own work passes here: the store
    refuses it with its reason ("an assessor cannot assess their own practical")."""
    if person is None:
        return False
    if not store.may_assess(s, prog, who.role, who.person_id):
        return False
    if who.role == "admin":
        return True
    me = None if who.person_id is None else services.person_in_org(request.app, s, who.person_id)
    if me is not None and me.key in store.programme_spec(prog).assessors:
        return True
    return who.may_read_person(person.id, person.team_id)


def manages(who: Principal) -> bool:
    return who.can(Perm.EXAMS_MANAGE)


def programme_summary(request: Request, s: Any, row: Any, who: Principal) -> dict[str, Any]:
    """A programme as listed: its blueprint, and for the caller their attempts and when
    they may start (or resume)."""
    spec = store.programme_spec(row)
    bp = spec.blueprint
    out: dict[str, Any] = {
        "code": row.code,
        "name": spec.name,
        "certification": spec.certification,
        "questions": bp.questions,
        "minutes": bp.minutes,
        "pass_mark": bp.pass_mark,
        "domain_weights": bp.domain_weights,
        "attempts_allowed": bp.attempts,
        "cooldown_days": bp.cooldown_days,
        "practical": spec.practical,
        "curriculum": [m.model_dump() for m in spec.curriculum],
    }
    if store.may_assess(s, row, who.role, who.person_id):
        out["to_mark"] = len(store.marking_queue(s, row, role=who.role, person_id=who.person_id))
        out["to_sign"] = len(store.practical_queue(s, row, role=who.role, person_id=who.person_id))
    if who.person_id is not None:
        mine = store.attempts_of(s, row.id, who.person_id)
        when, why = store.next_allowed(s, row, who.person_id, now(request))
        out["my_attempts"] = [
            {"id": a.id, "number": a.number, "state": a.state, "passed": a.passed, "score": a.score}
            for a in mine
        ]
        out["in_progress"] = next((a.id for a in mine if a.state == "in_progress"), None)
        out["next_attempt"] = when.isoformat() if when else None
        out["next_attempt_note"] = why
    return out
