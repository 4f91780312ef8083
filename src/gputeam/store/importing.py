"""Importing the roster and certifications from CSV or XLSX: all or nothing.

Each import validates every row first. If any cell is bad, :class:`ImportRejected` lists
every problem (row number as the spreadsheet shows it, column, value, reason) and nothing
is written. Otherwise all rows are written in the caller's transaction, so a crash or a
killed process leaves the database as it was before the import. ``dry_run=True`` reports
what would change without writing.

Roster columns (case and spacing ignored; see ``ROSTER_ALIASES``): ``id`` (required),
``name`` (required for new people), ``email``, ``title``, ``background``, ``level``,
``experience_months``, ``weekly_study_hours``, ``salary``, ``role``, ``team``, ``site``
(``location``, ``office``), ``active``; the name may come in parts (``First Name``,
``Last Name``, ``Preferred Name``: :data:`~gputeam.store.import_tables.NAME_PARTS`),
combined into ``name``; the usual headers of HR-system exports are aliases, and their
columns the roster has no field for (``Hire Date``) are ignored with a note;
and one column per skill domain: its catalog id (``linux``), ``skill:<id>`` or its catalog
name, holding a proficiency 0-4 or its name (none, aware, working, proficient, expert).

Certifications are imported by :mod:`gputeam.store.import_certs`; both read their tables
with :mod:`gputeam.store.import_tables` (columns, header row, cells, problems).

``mapping`` renames the file's columns (``{"Personalnummer": "id"}``); map a column to
``"-"`` to ignore it. Unknown columns are an error rather than silently dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from gputeam.catalog import Catalog, load_catalog
from gputeam.i18n import N_
from gputeam.store import audit
from gputeam.store.bulk import bulk_insert
from gputeam.store.errors import StoreError
from gputeam.store.import_tables import (
    ROSTER_ALIASES,
    ROSTER_FIELDS,
    Problems,
    combine_name,
    did_you_mean,
    find_header,
    normalise,
    open_table,
    resolve_header,
    row_cells,
)
from gputeam.store.limits import TableLimits, from_environment
from gputeam.store.people import ARCHIVED_TEAM, CURRENT_TEAM, current_skills, get_organisation
from gputeam.store.person_fields import PersonFields
from gputeam.store.person_rules import EMAIL as EMAIL  # public here too, as before
from gputeam.store.person_rules import TEAM_LONGEST, email_key
from gputeam.store.schema import Person, SkillRating, Team, utcnow
from gputeam.store.tables import (
    BadCell,
    Cell,
    Table,
    boolean,
    integer,
    is_blank,
    number,
    text,
)

PROFICIENCY_NAMES = {"none": 0, "aware": 1, "working": 2, "proficient": 3, "expert": 4}


@dataclass
class ImportReport:
    """What an import did (or, for a dry run, would do)."""

    kind: str
    source: str
    rows: int
    dry_run: bool
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    skill_ratings: int = 0
    teams_created: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: what the import changes (or would) in people already stored, one entry per field:
    #: ``{"row", "id", "field", "old", "new"}`` (``field`` ``skill:<domain>`` for a rating)
    changes: list[dict[str, Any]] = field(default_factory=list)
    #: the first :data:`ADDED_SHOWN` people the import adds (or would): ``{"row", "id",
    #: "name"}``, the name as stored (a file's first and last name columns combined)
    added: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# ---------------------------------------------------------------- roster
def skill_columns(catalog: Catalog) -> Callable[[str], str | None]:
    """The roster's skill columns: a normalised header (``linux``, ``skill:linux``,
    ``skill_linux``, a domain's catalog name) to ``skill:<domain id>``, else None."""
    domain_by_name = {normalise(d.name): d.id for d in catalog.domains.values()} | {
        normalise(d): d for d in catalog.domains
    }

    def skill_column(n: str) -> str | None:
        key = n[6:] if n.startswith("skill:") else n[6:] if n.startswith("skill_") else n
        if key in catalog.domains:
            return f"skill:{key}"
        if normalise(key) in domain_by_name:
            return f"skill:{domain_by_name[normalise(key)]}"
        return None

    return skill_column


def import_roster(
    session: Session,
    org_id: int,
    source: Table | bytes | str | Path,
    *,
    filename: str | None = None,
    mapping: Mapping[str, str] | None = None,
    sheet: str | None = None,
    dry_run: bool = False,
    catalog: Catalog | None = None,
    actor: str | None = None,
    header_row: int | None = None,
    limits: TableLimits | None = None,
) -> ImportReport:
    """Create or update people (matched by ``id`` within the organisation) and record
    changed skill ratings. Unknown teams are created. People not in the file are left
    alone. ``header_row``: the header's row number (default: found, see
    :func:`find_header`). Raises :class:`ImportRejected` with every bad cell; then nothing
    is written. The report lists every change to a person already stored."""
    catalog = catalog or load_catalog()
    limits = limits or from_environment()
    get_organisation(session, org_id)
    table = open_table(source, filename, sheet, header_row, limits)
    problems = Problems(table.name, limits.import_max_problems)
    role_by_name = {normalise(r.name): r.id for r in catalog.roles.values()}
    skill_column = skill_columns(catalog)
    table = find_header(table, header_row, mapping, ROSTER_FIELDS, ROSTER_ALIASES, skill_column)
    columns = resolve_header(table, mapping, ROSTER_FIELDS, ROSTER_ALIASES, problems, skill_column)
    if "id" not in columns and not any(
        p.line == table.header_line and p.path == "id" for p in problems.items
    ):
        problems.add(
            table.header_line,
            "id",
            None,
            N_("missing required column 'id'"),
            expected=N_("a column of stable person ids"),
            hint=N_("or map one with --map 'COLUMN=id'"),
        )
    problems.raise_if_any()
    dc = table.decimal_comma

    def team_name(v: Cell) -> str:
        s = text(v)
        if len(s) > TEAM_LONGEST:
            raise BadCell(
                N_("longer than {n} characters").format(n=TEAM_LONGEST),
                N_("at most {n} characters").format(n=TEAM_LONGEST),
            )
        return s

    def role(v: Cell) -> str:
        s = text(v)  # a role's catalog name is read as its id
        return s if s in catalog.roles else role_by_name.get(normalise(s), s)

    def proficiency(v: Cell) -> int:
        if isinstance(v, str) and len(v) == 1 and v in "01234":
            return int(v)  # fast path
        if isinstance(v, str) and normalise(v) in PROFICIENCY_NAMES:
            return PROFICIENCY_NAMES[normalise(v)]
        try:
            n = integer(v, dc)
        except BadCell as exc:
            raise BadCell(exc.reason, "0-4 or none/aware/working/proficient/expert") from None
        if not 0 <= n <= 4:
            raise BadCell(N_("proficiency out of range"), "0-4 or none/aware/working/proficient/expert")
        return n

    def decimal(v: Cell) -> float:
        return number(v, dc)

    # cells to values; what the values may be is PersonFields' rule, as for every door
    parsers: dict[str, Callable[[Cell], Any]] = {
        "id": text,
        "name": text,
        "email": text,
        "title": text,
        "background": text,
        "level": decimal,
        "experience_months": decimal,
        "weekly_study_hours": decimal,
        "salary": decimal,
        "role": role,
        "team": team_name,
        "site": text,
        "active": boolean,
    }
    existing = {
        row.key: row
        for row in session.execute(
            select(
                Person.id,
                Person.key,
                Person.name,
                Person.email,
                Person.title,
                Person.background,
                Person.level,
                Person.experience_months,
                Person.weekly_study_hours,
                Person.salary,
                Person.role,
                Person.site,
                Person.team_id,
                Person.active,
            ).where(Person.org_id == org_id)
        )
    }
    team_rows = session.scalars(select(Team).where(Team.org_id == org_id)).all()
    teams = {t.name: t.id for t in team_rows}
    team_names = {v: k for k, v in teams.items()}
    archived = {t.name for t in team_rows if t.archived_at is not None}

    records: list[tuple[int, dict[str, Any], dict[str, int]]] = []
    first_row: dict[str, int] = {}
    for line, row in row_cells(table, columns, problems):
        combine_name(row)
        rec: dict[str, Any] = {}
        skills: dict[str, int] = {}
        for fld, (column, value) in row.items():
            if is_blank(value):
                continue
            try:
                if fld.startswith("skill:"):
                    skills[fld[6:]] = proficiency(value)
                else:
                    rec[fld] = parsers[fld](value)
            except BadCell as exc:
                hint = None
                if fld == "role":
                    hint = did_you_mean(text(value), catalog.roles)
                problems.add(line, column, value, exc.reason, exc.expected, hint)
        _check_fields(line, row, rec, problems, catalog)
        key = rec.get("id")
        id_column = row.get("id", ("id", None))[0]
        if not key:
            if "id" not in {p.path for p in problems.items if p.line == line}:
                problems.add(
                    line, id_column, row.get("id", ("", None))[1], N_("missing id"), N_("a stable person id")
                )
            continue
        if key in first_row:
            problems.add(
                line,
                id_column,
                key,
                N_("duplicate id (first at row {row})").format(row=first_row[key]),
                N_("each id once"),
            )
            continue
        first_row[key] = line
        if key not in existing and not rec.get("name"):
            problems.add(
                line,
                row.get("name", ("name", None))[0],
                None,
                N_("missing name for a new person"),
                N_("the person's full name"),
            )
        records.append((line, rec, skills))
    _check_emails(records, existing, row_columns=table.header, columns=columns, problems=problems)
    if archived:
        _check_archived_teams(
            records,
            {key: (team_names.get(old.team_id), old.active) for key, old in existing.items()},
            archived,
            column_of={f: table.header[columns.index(f)] if f in columns else f for f in ("team", "active")},
            problems=problems,
        )
    problems.raise_if_any()

    report = ImportReport("roster", table.name, len(table.rows), dry_run, notes=table.notes)
    new_teams = sorted({r["team"] for _, r, _ in records if r.get("team")} - set(teams))
    report.teams_created = new_teams
    ratings_now = current_skills(session, org_id=org_id)
    inserts: list[dict[str, Any]] = []
    updates: list[tuple[int, dict[str, Any]]] = []
    ratings: list[tuple[str, str, int]] = []
    changed_people = 0
    for line, rec, skills in records:
        key = rec.pop("id")
        old = existing.get(key)
        if old is None:
            if len(report.added) < ADDED_SHOWN:
                report.added.append({"row": line, "id": key, "name": rec.get("name")})
            inserts.append(rec | {"key": key})
            ratings.extend((key, d, p) for d, p in skills.items())
            continue
        changes = {f: v for f, v in rec.items() if f != "team" and getattr(old, f) != v}
        before = {f: getattr(old, f) for f in changes}
        if "team" in rec and team_names.get(old.team_id) != rec["team"]:
            changes["team"] = rec["team"]
            before["team"] = team_names.get(old.team_id)
        current = ratings_now.get(old.id, {})
        changed_skills = [(key, d, p) for d, p in skills.items() if current.get(d) != p]
        ratings.extend(changed_skills)
        report.changes.extend(
            {"row": line, "id": key, "field": f, "old": before[f], "new": v} for f, v in changes.items()
        )
        report.changes.extend(
            {"row": line, "id": key, "field": f"skill:{d}", "old": current.get(d), "new": p}
            for _k, d, p in changed_skills
        )
        if changes:
            updates.append((old.id, changes))
        if changes or changed_skills:
            changed_people += 1
        else:
            report.unchanged += 1
    report.created, report.updated = len(inserts), changed_people
    report.skill_ratings = len(ratings)
    if dry_run:
        return report

    now = utcnow()
    for name in new_teams:
        team = Team(org_id=org_id, name=name, created_at=now)
        session.add(team)
        session.flush()
        teams[name] = team.id
    defaults = PersonFields().model_dump(exclude={"key", "name", "team_id"})
    # e-mail addresses are unique in the database at every moment (an index): the people
    # whose address changes give theirs up first, so addresses may move between people of
    # the file, new or not (the final addresses were checked unique above)
    moving = [pid for pid, changes in updates if "email" in changes]
    for chunk in range(0, len(moving), 1000):
        session.execute(update(Person).where(Person.id.in_(moving[chunk : chunk + 1000])).values(email=None))
    if inserts:
        rows = []
        for rec in inserts:
            team = rec.pop("team", None)
            rows.append(
                defaults
                | rec
                | {"org_id": org_id, "team_id": teams.get(team or ""), "created_at": now, "updated_at": now}
            )
        bulk_insert(session, Person, rows)
    if updates:
        rows = []
        for pid, changes in updates:
            if "team" in changes:
                changes["team_id"] = teams.get(changes.pop("team") or "")
            rows.append({"id": pid, "updated_at": now, **changes})
        for group in _same_keys(rows):
            session.execute(update(Person), group)
    if ratings:
        ids = {k: v for k, v in session.execute(select(Person.key, Person.id).where(Person.org_id == org_id))}
        bulk_insert(
            session,
            SkillRating,
            [
                {
                    "person_id": ids[k],
                    "domain": d,
                    "proficiency": p,
                    "rated_at": now,
                    "rated_by": actor,
                    "note": f"import {table.name}",
                }
                for k, d, p in ratings
            ],
        )
    audit.record(
        session,
        actor,
        "import",
        "roster",
        org_id,
        None,
        {k: v for k, v in report.as_dict().items() if k not in ("notes", "changes", "added")},
        at=now,
    )
    session.flush()
    if len(table.rows) >= ANALYZE_AFTER_ROWS:
        analyze_after_commit(session, "people", "skill_ratings", "teams")
    return report


def _check_fields(
    line: int,
    row: Mapping[str, tuple[str, Cell]],
    rec: dict[str, Any],
    problems: Problems,
    catalog: Catalog,
) -> None:
    """Validate a row's person fields as :class:`PersonFields` (the rule every door
    applies): ``rec`` becomes the values as stored; each refused one is reported at its row
    and column and left out."""
    person = {("key" if f == "id" else f): v for f, v in rec.items() if f != "team"}
    try:
        clean = PersonFields.parse(person, roles=catalog.roles).given()
    except StoreError as exc:
        for p in exc.problems:
            name = p.path.removeprefix("person.")
            fld = "id" if name == "key" else name
            column, value = row[fld]
            hint = did_you_mean(text(value), catalog.roles) if fld == "role" else None
            problems.add(line, column, value, p.message, p.expected, hint)
            person.pop(name, None)
            rec.pop(fld, None)
        clean = PersonFields.parse(person, roles=catalog.roles).given()
    rec.update({("id" if f == "key" else f): v for f, v in clean.items()})


def _check_emails(
    records: list[tuple[int, dict[str, Any], dict[str, int]]],
    existing: Mapping[str, Any],
    *,
    row_columns: list[str],
    columns: list[str | None],
    problems: Problems,
) -> None:
    """E-mail addresses are unique within the organisation, ignoring case: after the
    import, no two people (in the file, or one in the file and one already stored) share
    one. Each clash is reported at the file's row."""
    column = row_columns[columns.index("email")] if "email" in columns else "email"
    final = {key: old.email for key, old in existing.items() if old.email}
    lines: dict[str, int] = {}
    for line, rec, _skills in records:
        if "email" in rec:
            final[rec["id"]] = rec["email"]
            lines[rec["id"]] = line
    owners: dict[str, list[str]] = {}
    for key, mail in final.items():
        owners.setdefault(email_key(mail), []).append(key)
    for keys in owners.values():
        if len(keys) < 2:
            continue
        for key in keys:
            if key not in lines:
                continue
            others = [
                k if k not in lines else N_("{key} (row {row})").format(key=k, row=lines[k])
                for k in keys
                if k != key
            ]
            problems.add(
                lines[key],
                column,
                final[key],
                N_("e-mail also used by person {people}").format(people=", ".join(others)),
                N_("each e-mail once in the organisation (case does not matter)"),
            )


def _check_archived_teams(
    records: list[tuple[int, dict[str, Any], dict[str, int]]],
    stored: Mapping[str, tuple[str | None, bool]],
    archived: set[str],
    *,
    column_of: Mapping[str, str],
    problems: Problems,
) -> None:
    """An archived team takes no one new and has no active people, from a file as from
    the forms: a row putting a new person, or one from another team, into an archived
    team is refused at its team cell; one reactivating someone who stayed in an archived
    team, at its active cell. People already in the team may stay in it, inactive."""
    hint = N_("restore the team on its page first, or name another team")
    for line, rec, _skills in records:
        current, was_active = stored.get(rec["id"], (None, True))
        team = rec.get("team", current)
        if team not in archived:
            continue
        if team != current or rec["id"] not in stored:
            problems.add(line, column_of["team"], team, ARCHIVED_TEAM, CURRENT_TEAM, hint)
        elif rec.get("active") is True and not was_active:
            problems.add(
                line, column_of["active"], "true", ARCHIVED_TEAM, N_("the person to stay inactive"), hint
            )


#: How many of the people an import adds its report lists by name (the others counted).
ADDED_SHOWN = 200

#: Imports of at least this many rows refresh the planner statistics of what they wrote.
ANALYZE_AFTER_ROWS = 500


def analyze_after_commit(session: Session, *tables: str) -> None:
    """Once this transaction commits, refresh the database's statistics of ``tables``
    (see :func:`gputeam.store.db.analyze_pending`). Without it PostgreSQL plans queries
    on a freshly imported table as if it were empty until autovacuum gets to it: a page of
    the people list took 6.8 ms (sorting everyone) instead of 0.9 ms (the index)."""
    session.info.setdefault("gputeam_analyze", set()).update(tables)


def _same_keys(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(tuple(sorted(r)), []).append(r)
    return list(groups.values())
