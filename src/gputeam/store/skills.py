"""The skills matrix's counts: how many of the selected people hold each proficiency in each
skill domain (their latest rating), counted in the database so a column's bus factor covers
every page of a 5,000-person matrix without reading it all."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gputeam.store.people import PeopleFilter
from gputeam.store.schema import Person, SkillRating


def proficiency_counts(
    session: Session, org_id: int, where: PeopleFilter | None = None
) -> dict[str, dict[int, int]]:
    """``{domain: {proficiency: people}}`` over the current (latest) rating of each person
    ``where`` selects (active people by default) in each domain; unrated people are not
    counted."""
    where = where or PeopleFilter()
    rank = (
        func.row_number()
        .over(
            partition_by=(SkillRating.person_id, SkillRating.domain),
            order_by=(SkillRating.rated_at.desc(), SkillRating.id.desc()),
        )
        .label("rank")
    )
    latest = (
        select(SkillRating.domain, SkillRating.proficiency, rank)
        .join(Person, Person.id == SkillRating.person_id)
        .where(*where.clauses(org_id))
    ).subquery()
    q = (
        select(latest.c.domain, latest.c.proficiency, func.count())
        .where(latest.c.rank == 1)
        .group_by(latest.c.domain, latest.c.proficiency)
    )
    session.flush()
    out: dict[str, dict[int, int]] = {}
    for domain, proficiency, n in session.connection().execute(q):
        out.setdefault(domain, {})[proficiency] = n
    return out
