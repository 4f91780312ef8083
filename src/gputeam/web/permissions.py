"""Who may do what: roles, permissions, token scopes and record-level rules.

One table (:data:`GRANTS`) decides every page and API endpoint; the authorisation-matrix
test walks it. Record-level rules narrow it further: a manager acts only on people in the
teams they belong to, an engineer only on their own record.

- admin: everything, including users, tokens, import and export;
- manager: the people of their teams (read and change), their teams themselves (rename,
  archive, assign people, enrol), plans, their teams' calendars;
- engineer: their own record, roadmap, certifications, enrolments and calendar;
- viewer: read-only dashboards, saved plans and the catalog.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from gputeam.tracker import reach

ROLES = ("admin", "manager", "engineer", "viewer")


class Perm(StrEnum):
    DASHBOARD = "dashboard:read"
    CATALOG = "catalog:read"
    PEOPLE_READ = "people:read"
    PEOPLE_WRITE = "people:write"
    RECORDS_WRITE = "records:write"  # certifications, enrolments, roadmap progress
    PLANS_READ = "plans:read"
    PLANS_RUN = "plans:run"
    IMPORT = "import"
    EXPORT = "export"
    CALENDAR = "calendar:read"
    TOKENS = "tokens:manage"  # create and revoke API tokens (own; admins: anyone's)
    USERS = "users:admin"
    CREDENTIALS = "credentials:issue"  # issue and revoke Open Badges credentials
    TEAMS = "teams:manage"  # rename, archive, assign people (managers: their own teams)
    EXAMS_SIT = "exams:sit"  # sit internal exams (own attempts; managers see their teams')
    EXAMS_MANAGE = "exams:manage"  # item analysis, retire items, time accommodations, practicals


GRANTS: dict[Perm, frozenset[str]] = {
    Perm.DASHBOARD: frozenset(ROLES),
    Perm.CATALOG: frozenset(ROLES),
    Perm.PEOPLE_READ: frozenset({"admin", "manager", "engineer"}),
    Perm.PEOPLE_WRITE: frozenset({"admin", "manager"}),
    Perm.RECORDS_WRITE: frozenset({"admin", "manager", "engineer"}),
    Perm.PLANS_READ: frozenset(ROLES),
    Perm.PLANS_RUN: frozenset({"admin", "manager"}),
    Perm.IMPORT: frozenset({"admin"}),
    Perm.EXPORT: frozenset({"admin"}),
    Perm.CALENDAR: frozenset({"admin", "manager", "engineer"}),
    Perm.TOKENS: frozenset(ROLES),
    Perm.USERS: frozenset({"admin"}),
    Perm.CREDENTIALS: frozenset({"admin"}),
    Perm.TEAMS: frozenset({"admin", "manager"}),
    Perm.EXAMS_SIT: frozenset({"admin", "manager", "engineer"}),
    Perm.EXAMS_MANAGE: frozenset({"admin", "manager"}),
}

#: The token scope each permission needs (a token acts for its user, narrowed by scopes).
SCOPE_OF: dict[Perm, str] = {
    Perm.DASHBOARD: "read",
    Perm.CATALOG: "read",
    Perm.PEOPLE_READ: "read",
    Perm.PLANS_READ: "read",
    Perm.CALENDAR: "read",
    Perm.EXPORT: "read",
    Perm.PEOPLE_WRITE: "write",
    Perm.RECORDS_WRITE: "write",
    Perm.PLANS_RUN: "write",
    Perm.IMPORT: "write",
    Perm.USERS: "admin",
    Perm.CREDENTIALS: "write",
    Perm.TEAMS: "write",
    Perm.EXAMS_SIT: "read",
    Perm.EXAMS_MANAGE: "read",  # saving, starting: write
    # a token manages tokens only with the admin scope (which only admins' tokens hold):
    # a leaked read or write token cannot mint or revoke credentials
    Perm.TOKENS: "admin",
}
SCOPES = ("read", "write", "admin")


@dataclass(frozen=True)
class Principal:
    """The authenticated caller: a user, through a session or through a scoped token."""

    user_id: int
    username: str
    role: str
    person_id: int | None = None
    team_ids: frozenset[int] = field(default_factory=frozenset)
    scopes: frozenset[str] | None = None  # None: a browser session, all of the role
    via: str = "session"
    language: str | None = None  # the user's own language for pages (None: the browser's)

    def can(self, perm: Perm, *, write: bool = False) -> bool:
        """The role grants ``perm``, and a token holds its scope; ``write`` (an unsafe
        method) needs at least the ``write`` scope whatever the permission."""
        if self.role not in GRANTS[perm]:
            return False
        if self.scopes is None:
            return True
        needed = self.scope_needed(perm, write)
        return needed in self.scopes or (needed == "read" and bool(self.scopes))

    @staticmethod
    def scope_needed(perm: Perm, write: bool = False) -> str:
        needed = SCOPE_OF[perm]
        return "write" if write and needed == "read" else needed

    def sees_everyone(self) -> bool:
        return self.role == "admin"

    def may_read_person(self, person_id: int, team_id: int | None) -> bool:
        return reach.reads(self.readable_people(), person_id, team_id)

    def may_change_person(self, person_id: int, team_id: int | None) -> bool:
        """Change the person record itself (name, role, level, team ...)."""
        return self.can(Perm.PEOPLE_WRITE) and self._owns(person_id, team_id, own=False)

    def may_change_records(self, person_id: int, team_id: int | None) -> bool:
        """Add certifications, enrolments and roadmap progress for this person."""
        return self.can(Perm.RECORDS_WRITE) and self._owns(person_id, team_id)

    def needs_approval(self, person_id: int) -> bool:
        """Whether a record this caller makes for the person waits for approval (the rule:
        :func:`gputeam.tracker.reach.needs_approval`)."""
        return reach.needs_approval(self.role, self.person_id, person_id)

    def may_approve(self, person_id: int, team_id: int | None) -> bool:
        """Approve or reject the person's waiting records (:func:`gputeam.tracker.reach.may_approve`)."""
        return self.can(Perm.PEOPLE_WRITE) and reach.may_approve(
            self.role, self.person_id, self.team_ids, person_id, team_id
        )

    def may_team(self, team_id: int) -> bool:
        return self.role == "admin" or (self.role == "manager" and team_id in self.team_ids)

    def may_manage_team(self, team_id: int) -> bool:
        """Rename or archive the team, move people into it, enrol it (admin: any team;
        manager: the teams they belong to)."""
        return self.can(Perm.TEAMS) and self.may_team(team_id)

    def readable_people(self) -> tuple[frozenset[int] | None, int | None] | None:
        """The people this caller may read, for a list: ``(team_ids, person_id)`` (None:
        not narrowed that way), or None for nobody. The set form of
        :meth:`may_read_person`: admin everyone, a manager the people of their teams, an
        engineer their own record (the rule: :func:`gputeam.tracker.reach.readable`)."""
        if not self.can(Perm.PEOPLE_READ):
            return None
        return reach.readable(self.role, self.person_id, self.team_ids)

    def _owns(self, person_id: int, team_id: int | None, own: bool = True) -> bool:
        if self.role == "admin":
            return True
        if self.role == "manager":
            return team_id is not None and team_id in self.team_ids
        if self.role == "engineer":
            return own and self.person_id == person_id
        return False


def allowed_scopes(role: str) -> tuple[str, ...]:
    """Scopes a user of ``role`` may put on their tokens."""
    return SCOPES if role == "admin" else ("read", "write")
