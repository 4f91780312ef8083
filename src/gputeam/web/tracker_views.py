"""The tracker's lists as JSON-ready dicts, built once for the page, the downloads and the
API: the skills matrix and the certifications view (issue 10 §1). Queries are the store's;
who sees which rows is :func:`gputeam.web.lists.visible`."""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import FastAPI

from gputeam import store
from gputeam.catalog import EXPIRY_STATUSES
from gputeam.errors import InputError, Problem
from gputeam.i18n import N_
from gputeam.store import DbSession
from gputeam.web import cache, services, skills_matrix
from gputeam.web.lists import Chosen, visible
from gputeam.web.permissions import Principal

MATRIX_PAGE = 50
CERTIFICATIONS_PAGE = 100


def _page(total: int, limit: int | None, offset: int) -> dict[str, Any]:
    return {
        "total": total,
        "limit": limit,
        "offset": offset,
        "next_offset": offset + limit if limit is not None and offset + limit < total else None,
    }


def matrix_data(
    app: FastAPI,
    s: DbSession,
    who: Principal,
    chosen: Chosen,
    group: str,
    *,
    limit: int | None,
    offset: int = 0,
) -> dict[str, Any]:
    """One page of the skills matrix (``limit`` None: every row, for the downloads)."""
    cat = services.catalog(app)
    if group and group not in skills_matrix.groups(cat):
        raise InputError(
            [
                Problem(
                    path="group",
                    message=N_("not a skill domain group"),
                    found=group,
                    expected=", ".join(skills_matrix.groups(cat)),
                )
            ]
        )
    sort = chosen.sort_by(store.PEOPLE_SORTS)
    where = visible(who, chosen.filter())
    org = services.org_id(app, s)
    latest = services.latest_plan(app, s)
    tg = skills_matrix.targets(cat, latest[0] if latest else None)
    if where is None:
        people: list[Any] = []
        total, counts = 0, {}
    else:
        people = list(
            store.list_people(
                s,
                org,
                where=where,
                limit=limit,
                offset=offset,
                sort=sort,
                descending=chosen.descending,
                columns=True,
            )
        )
        total = len(people) + offset if limit is None else store.count_people(s, org, where=where)
        # every page of one filter counts the same people: once per data version
        counts = cache.aggregate(
            app,
            ("proficiency counts", store.data_version(s), org, where),
            lambda: store.proficiency_counts(s, org, where),
        )
    skills = store.current_skills(s, [p.id for p in people]) if people else {}
    teams = {t.id: t.name for t in store.list_teams(s, org)}
    out = skills_matrix.build(cat, tg, people, skills, teams, counts, group=group or None)
    out["plan"] = {"id": latest[1].id, "version": latest[1].version} if latest else None
    return {**out, **_page(total, limit, offset)}


def certifications_data(
    app: FastAPI,
    s: DbSession,
    who: Principal,
    chosen: Chosen,
    expiry: str,
    cert: str,
    today: date,
    *,
    limit: int | None,
    offset: int = 0,
) -> dict[str, Any]:
    """One page of the certifications view: current certificates with their expiry status."""
    if expiry and expiry not in EXPIRY_STATUSES:
        raise InputError(
            [
                Problem(
                    path="expiry",
                    message=N_("not a certificate status"),
                    found=expiry,
                    expected=N_("{choices}, or empty").format(choices=", ".join(EXPIRY_STATUSES)),
                )
            ]
        )
    sort = chosen.sort_by(store.HELD_SORTS)
    where = visible(who, chosen.filter())
    cat = services.catalog(app)
    org = services.org_id(app, s)
    rows: list[store.HeldRow] = []
    total = 0
    if where is not None:
        kw: dict[str, Any] = {"where": where, "status": expiry or None, "cert_id": cert or None}
        rows = store.list_held(
            s, org, today, sort=sort, descending=chosen.descending, limit=limit, offset=offset, **kw
        )
        total = store.count_held(s, org, today, **kw)
    items = []
    for r in rows:
        known = cat.certifications.get(r.cert_id)
        items.append(
            {
                "id": r.id,
                "person": {"id": r.person_id, "key": r.person_key, "name": r.person_name},
                "team_id": r.team_id,
                "team": r.team,
                "cert_id": r.cert_id,
                "name": known.name if known else r.cert_id,
                "valid_from": r.valid_from.isoformat(),
                "valid_until": r.valid_until.isoformat() if r.valid_until else None,
                "days_left": (r.valid_until - today).days if r.valid_until else None,
                "status": r.status,
            }
        )
    return {"today": today.isoformat(), "items": items, **_page(total, limit, offset)}
