"""Organisations, teams, people and skill ratings (with history)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gputeam.i18n import N_
from gputeam.store import audit
from gputeam.store.errors import not_found, refused
from gputeam.store.person_fields import PersonFields, shown
from gputeam.store.person_rules import TEAM_LONGEST, clean_text, email_key, one_line, text_fault
from gputeam.store.schema import Organisation, Person, SkillRating, Team, utcnow

if TYPE_CHECKING:
    from gputeam.catalog import Catalog

#: Why an archived team refuses a new member, and what is expected instead: one wording
#: for the person form and API, moving people into a team and the roster import. An
#: archived team keeps its people and their history but takes no one new.
ARCHIVED_TEAM = N_("the team is archived")
CURRENT_TEAM = N_("a current team")


# ---------------------------------------------------------------- organisations and teams
def create_organisation(
    session: Session, name: str, *, currency: str = "USD", actor: str | None = None
) -> Organisation:
    if session.scalar(select(Organisation).where(Organisation.name == name)) is not None:
        raise refused("organisation", N_("an organisation with this name exists"), name)
    org = Organisation(name=name, currency=currency)
    session.add(org)
    session.flush()
    audit.record(session, actor, "create", "organisation", org.id, None, audit.snapshot(org))
    return org


def get_or_create_organisation(session: Session, name: str, *, actor: str | None = None) -> Organisation:
    org = session.scalar(select(Organisation).where(Organisation.name == name))
    return org if org is not None else create_organisation(session, name, actor=actor)


def get_organisation(session: Session, org_id: int) -> Organisation:
    org = session.get(Organisation, org_id)
    if org is None:
        raise not_found("organisation", org_id)
    return org


def first_organisation(session: Session) -> Organisation | None:
    """The oldest organisation (a single-organisation server tracks this one)."""
    return session.scalar(select(Organisation).order_by(Organisation.id).limit(1))


def tracked_organisation(session: Session, name: str) -> int:
    """The id of the organisation a single-organisation server tracks: the oldest one, or
    a new one named ``name`` when there is none yet (flushed, not committed)."""
    first = session.scalar(select(Organisation.id).order_by(Organisation.id).limit(1))
    if first is None:
        first = get_or_create_organisation(session, name).id
        session.flush()
    return int(first)


def list_organisations(session: Session) -> Sequence[Organisation]:
    return session.scalars(select(Organisation).order_by(Organisation.name)).all()


def check_team_name(session: Session, org_id: int, name: str, team_id: int | None = None) -> str:
    """``name`` as stored (NFC), or refused: empty, too long, control characters, or the
    name of another team of the organisation (archived ones included)."""
    name = clean_text(name).strip()
    fault = text_fault(name) or (
        N_("longer than {n} characters").format(n=TEAM_LONGEST) if len(name) > TEAM_LONGEST else None
    )
    if fault is not None or not name:
        raise refused("team.name", fault or N_("must not be empty"), shown(name))
    q = select(Team.id).where(Team.org_id == org_id, Team.name == name)
    if team_id is not None:
        q = q.where(Team.id != team_id)
    if session.scalar(q) is not None:
        raise refused("team.name", N_("a team with this name exists"), name)
    return name


def create_team(session: Session, org_id: int, name: str, *, actor: str | None = None) -> Team:
    get_organisation(session, org_id)
    name = check_team_name(session, org_id, name)
    team = Team(org_id=org_id, name=name)
    session.add(team)
    session.flush()
    audit.record(session, actor, "create", "team", team.id, None, audit.snapshot(team))
    return team


def get_or_create_team(session: Session, org_id: int, name: str, *, actor: str | None = None) -> Team:
    team = session.scalar(select(Team).where(Team.org_id == org_id, Team.name == name))
    return team if team is not None else create_team(session, org_id, name, actor=actor)


def get_team(session: Session, team_id: int) -> Team:
    team = session.get(Team, team_id)
    if team is None:
        raise not_found("team", team_id)
    return team


def find_team(session: Session, org_id: int, team_id: int) -> Team | None:
    """The team with this id if it belongs to this organisation, else None."""
    team = session.get(Team, team_id)
    return team if team is not None and team.org_id == org_id else None


def list_teams(session: Session, org_id: int, *, archived: bool | None = None) -> Sequence[Team]:
    """Teams by name; ``archived`` False: the current ones, True: the archived ones."""
    q = select(Team).where(Team.org_id == org_id)
    if archived is not None:
        q = q.where(Team.archived_at.is_not(None) if archived else Team.archived_at.is_(None))
    return session.scalars(q.order_by(Team.name)).all()


# ---------------------------------------------------------------- people
def _roles(catalog: Catalog | None) -> Collection[str]:
    """The role ids a person may be given: the catalog's (the packaged one by default)."""
    if catalog is None:
        from gputeam.catalog import load_catalog

        catalog = load_catalog()
    return catalog.roles


def _check_email_free(session: Session, org_id: int, email: str | None, person_id: int | None = None) -> None:
    """Refuse an e-mail another person of the organisation has (ignoring case). The
    database's unique index (migration 0008) holds the rule against two writers at once:
    :func:`_write_person` answers its violation with this same problem."""
    if email is None:
        return
    q = select(Person.key, Person.email).where(Person.org_id == org_id, Person.email.is_not(None))
    if person_id is not None:
        q = q.where(Person.id != person_id)
    wanted = email_key(email)
    # compared in Python: SQLite's lower() folds ASCII only
    for key, other in session.execute(
        q.where(func.lower(Person.email) == email.lower()) if email.isascii() else q
    ):
        if other is not None and email_key(other) == wanted:
            raise refused(
                "person.email",
                N_("already the e-mail of person {key}").format(key=repr(key)),
                email,
                N_("an e-mail address no one else in the organisation has"),
            )


def _write_person(session: Session, person: Person, changes: Mapping[str, Any] | None = None) -> None:
    """Add ``person`` (``changes`` None) or set ``changes`` on it, and flush, in a savepoint:
    when another transaction took the same e-mail address meanwhile (committed after this
    one checked, so the unique index refuses the write), the savepoint alone is undone and
    the store's e-mail problem is raised, as when the check had seen it."""
    from sqlalchemy.exc import IntegrityError

    from gputeam.store.schema import EMAIL_INDEX

    session.flush()  # what was pending before, outside the savepoint
    email = person.email if changes is None else changes.get("email", person.email)
    try:
        with session.begin_nested():
            if changes is None:
                session.add(person)
            else:
                for k, v in changes.items():
                    setattr(person, k, v)
            session.flush()
    except IntegrityError as exc:
        if EMAIL_INDEX not in str(exc.orig):
            raise
        _check_email_free(session, person.org_id, email, person.id)
        raise refused(  # the other writer's row is not visible here (SQLite): the same words
            "person.email",
            N_("already the e-mail of another person"),
            email,
            N_("an e-mail address no one else in the organisation has"),
        ) from None


def _check_team(session: Session, org_id: int, team_id: int | None, current: int | None = None) -> None:
    """Refuse another organisation's team, and an archived one (it takes no one new; a
    person already in it, ``current``, may stay)."""
    if team_id is None:
        return
    team = get_team(session, team_id)
    if team.org_id != org_id:
        raise refused("person.team_id", N_("team of another organisation"), team_id)
    if team.archived_at is not None and team_id != current:
        raise refused("person.team_id", ARCHIVED_TEAM, team.name, CURRENT_TEAM)


def add_person(
    session: Session,
    org_id: int,
    *,
    key: str,
    name: str,
    actor: str | None = None,
    catalog: Catalog | None = None,
    **fields: Any,
) -> Person:
    """Add a person; ``fields`` are any of :data:`PERSON_FIELDS`, validated as
    :class:`PersonFields` (a role: one of ``catalog``'s, the packaged catalog by default).
    Refused: :class:`StoreError` naming every bad field; a taken id or e-mail; another
    organisation's team or an archived one."""
    values = PersonFields.parse({"key": key, "name": name, **fields}, roles=_roles(catalog)).model_dump()
    get_organisation(session, org_id)
    _check_team(session, org_id, values.get("team_id"))
    _check_email_free(session, org_id, values.get("email"))
    if get_person_by_key(session, org_id, values["key"]) is not None:
        raise refused("person.key", N_("a person with this id exists"), values["key"])
    person = Person(org_id=org_id, **values)
    _write_person(session, person)
    audit.record(session, actor, "create", "person", person.id, None, audit.snapshot(person))
    return person


def update_person(
    session: Session,
    person_id: int,
    changes: Mapping[str, Any],
    *,
    actor: str | None = None,
    catalog: Catalog | None = None,
) -> Person:
    """Change a person's fields (any of :data:`PERSON_FIELDS`), validated as
    :class:`PersonFields`; the role the person already has stays allowed even when
    ``catalog`` no longer has it."""
    person = get_person(session, person_id)
    roles = _roles(catalog) if changes.get("role") is not None else None
    changes = PersonFields.parse(changes, roles=roles, current_role=person.role).given()
    _check_team(session, person.org_id, changes.get("team_id"), person.team_id)
    target = changes.get("team_id", person.team_id)
    if changes.get("active") is True and not person.active and target is not None:
        # an archived team has no active people: back in a current team, or not at all
        team = get_team(session, target)
        if team.archived_at is not None:
            raise refused(
                "person.active",
                ARCHIVED_TEAM,
                team.name,
                N_("restore the team, or move the person to a current team, first"),
            )
    if changes.get("email") is not None and changes["email"] != person.email:
        _check_email_free(session, person.org_id, changes["email"], person.id)
    if (
        "key" in changes
        and changes["key"] != person.key
        and get_person_by_key(session, person.org_id, changes["key"]) is not None
    ):
        raise refused("person.key", N_("a person with this id exists"), changes["key"])
    before = audit.snapshot(person)
    _write_person(session, person, changes)
    audit.record(session, actor, "update", "person", person.id, before, audit.snapshot(person))
    return person


def delete_person(session: Session, person_id: int, *, actor: str | None = None) -> None:
    person = get_person(session, person_id)
    audit.record(session, actor, "delete", "person", person.id, audit.snapshot(person), None)
    session.delete(person)
    session.flush()


def get_person(session: Session, person_id: int) -> Person:
    person = session.get(Person, person_id)
    if person is None:
        raise not_found("person", person_id)
    return person


def find_person(session: Session, org_id: int, person_id: int) -> Person | None:
    """The person with this id if they belong to this organisation, else None (a
    server tracking one organisation never shows another's people)."""
    person = session.get(Person, person_id)
    return person if person is not None and person.org_id == org_id else None


def get_person_by_key(session: Session, org_id: int, key: str) -> Person | None:
    return session.scalar(select(Person).where(Person.org_id == org_id, Person.key == key))


#: The orders a people list may be sorted in (callers pass these names, never columns).
PEOPLE_SORTS = ("name", "key", "level", "role", "team")


@dataclass(frozen=True)
class PeopleFilter:
    """Which people of an organisation a list, a count, the skills matrix or the
    certifications view covers. ``team_ids`` and ``person_id`` are who the caller may see (a
    manager's teams, an engineer's own record); the others are what the user chose.
    Hashable: a cache key for what is counted over the same people.
    ``role`` ``""`` means people without a role, ``site`` ``""`` people without a site;
    ``active`` None means everyone."""

    team_id: int | None = None
    team_ids: tuple[int, ...] | None = None
    person_id: int | None = None
    role: str | None = None
    level: int | None = None
    active: bool | None = True
    search: str | None = None
    #: people not in this team (those without a team included): whom a team may take
    not_team_id: int | None = None
    site: str | None = None

    def clauses(self, org_id: int) -> list[Any]:
        """The WHERE clauses on :class:`Person` (the one home of these filters)."""
        out: list[Any] = [Person.org_id == org_id]
        if self.team_id is not None:
            out.append(Person.team_id == self.team_id)
        if self.team_ids is not None:
            out.append(Person.team_id.in_(list(self.team_ids)))
        if self.person_id is not None:
            out.append(Person.id == self.person_id)
        if self.not_team_id is not None:
            out.append(Person.team_id.is_(None) | (Person.team_id != self.not_team_id))
        if self.role == "":
            out.append(Person.role.is_(None))
        elif self.role is not None:
            out.append(Person.role == self.role)
        if self.level is not None:
            out.append(Person.level == self.level)
        if self.site == "":
            out.append(Person.site.is_(None))
        elif self.site is not None:
            out.append(Person.site == self.site)
        if self.active is not None:
            out.append(Person.active == self.active)
        if self.search:
            if "\x00" in self.search:  # PostgreSQL cannot even compare with NUL: refuse alike
                raise refused(
                    "search", N_("contains a NUL character"), repr(self.search)[1:-1], N_("text without NUL")
                )
            like = "%" + like_literal(self.search.lower()) + "%"
            out.append(
                func.lower(Person.name).like(like, escape="\\")
                | func.lower(Person.key).like(like, escape="\\")
            )
        return out


def people_order(sort: str = "name", descending: bool = False) -> list[Any]:
    """ORDER BY for a people list sorted by one of :data:`PEOPLE_SORTS` (ties by name, then
    id, so pages never overlap); people without a role or team come last either way. The
    ``team`` order needs :class:`Team` outer-joined."""
    if sort not in PEOPLE_SORTS:
        raise refused("sort", N_("unknown sort order"), sort, ", ".join(PEOPLE_SORTS))
    column = {
        "name": Person.name,
        "key": Person.key,
        "level": Person.level,
        "role": Person.role,
        "team": Team.name,
    }[sort]
    first: list[Any] = [column.desc() if descending else column.asc()]
    if sort in ("role", "team"):
        first.insert(0, column.is_(None))
    if sort == "name":
        return [*first, Person.id.desc() if descending else Person.id]
    return [*first, Person.name, Person.id]


def list_people(
    session: Session,
    org_id: int,
    *,
    team_id: int | None = None,
    team_ids: Sequence[int] | None = None,
    active: bool | None = True,
    search: str | None = None,
    limit: int | None = None,
    offset: int = 0,
    columns: bool = False,
    where: PeopleFilter | None = None,
    sort: str = "name",
    descending: bool = False,
) -> Sequence[Any]:
    """People of an organisation ordered by name (or ``sort``, one of
    :data:`PEOPLE_SORTS`); ``team_ids`` restricts to several teams (a manager's),
    ``search`` matches name or key case-insensitively (``%`` and ``_`` are literal
    characters, not wildcards); ``where`` (a :class:`PeopleFilter`) replaces these keyword
    filters. With ``columns``, plain rows of the record's columns (read-only, much cheaper
    than ORM objects for a page of a list) instead of :class:`Person` objects."""
    if where is None:
        where = PeopleFilter(
            team_id=team_id,
            active=active,
            search=search,
            team_ids=None if team_ids is None else tuple(team_ids),
        )
    q = (select(*Person.__table__.columns) if columns else select(Person)).where(*where.clauses(org_id))
    if sort == "team":
        q = q.outerjoin(Team, Team.id == Person.team_id)
    q = q.order_by(*people_order(sort, descending)).offset(offset)
    if limit is not None:
        q = q.limit(limit)
    if columns:
        session.flush()  # Core execution does not autoflush
        return session.connection().execute(q).all()
    return session.scalars(q).all()


def list_sites(session: Session, org_id: int) -> list[str]:
    """The sites the organisation's people are at (recorded on people: free text, not
    checked against a scenario), in order."""
    q = select(Person.site).where(Person.org_id == org_id, Person.site.is_not(None)).distinct()
    return sorted(str(site) for site in session.scalars(q))


def like_literal(text: str) -> str:
    """``text`` for a LIKE pattern with ``escape="\\"``: ``%``, ``_`` and ``\\`` match
    themselves."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def count_people(
    session: Session, org_id: int, *, team_id: int | None = None, where: PeopleFilter | None = None
) -> int:
    """How many people (active ones, or those ``where`` selects)."""
    where = where or PeopleFilter(team_id=team_id)
    return session.scalar(select(func.count(Person.id)).where(*where.clauses(org_id))) or 0


# ---------------------------------------------------------------- skills
def rate_skill(
    session: Session,
    person_id: int,
    domain: str,
    proficiency: int,
    *,
    rated_at: datetime | None = None,
    rated_by: str | None = None,
    note: str = "",
) -> SkillRating:
    """Record a rating; earlier ratings stay as history. The note is one line of text."""
    note = one_line("note", note)
    if not 0 <= proficiency <= 4:
        raise refused(f"skills.{domain}", N_("proficiency out of range"), proficiency, "0-4")
    get_person(session, person_id)
    rating = SkillRating(
        person_id=person_id,
        domain=domain,
        proficiency=proficiency,
        rated_at=rated_at or utcnow(),
        rated_by=rated_by,
        note=note,
    )
    session.add(rating)
    session.flush()
    audit.record(session, rated_by, "rate", "skill", person_id, None, audit.snapshot(rating))
    return rating


def current_skills(
    session: Session, person_ids: Sequence[int] | None = None, *, org_id: int | None = None
) -> dict[int, dict[str, int]]:
    """The latest rating per person and domain, ``{person_id: {domain: proficiency}}``, for
    the given people or for everyone in ``org_id``."""
    out: dict[int, dict[str, int]] = {pid: {} for pid in person_ids or ()}
    q = select(SkillRating.person_id, SkillRating.domain, SkillRating.proficiency)
    if org_id is not None:
        q = q.join(Person, Person.id == SkillRating.person_id).where(Person.org_id == org_id)
    elif person_ids:
        q = q.where(SkillRating.person_id.in_(list(person_ids)))
    else:
        return out
    q = q.order_by(SkillRating.person_id, SkillRating.domain, SkillRating.rated_at, SkillRating.id)
    session.flush()  # Core execution below does not autoflush pending ratings
    for pid, domain, proficiency in session.connection().execute(q):
        out.setdefault(pid, {})[domain] = proficiency  # later rows overwrite earlier ones
    return out


def skill_history(session: Session, person_id: int, domain: str | None = None) -> Sequence[SkillRating]:
    q = select(SkillRating).where(SkillRating.person_id == person_id)
    if domain is not None:
        q = q.where(SkillRating.domain == domain)
    return session.scalars(q.order_by(SkillRating.domain, SkillRating.rated_at, SkillRating.id)).all()
