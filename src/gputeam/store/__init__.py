"""The store: database schema, migrations, repositories; the live team as a Scenario.

Layer rule: imports ``catalog``, ``scenario`` and ``errors`` only. Plans are stored as the
JSON dicts ``Plan.to_json()`` produces. Nothing touches a database at import time.

Opening a database
------------------
``database_url(url=None, env=None) -> str``
    ``url``, else ``$GPUTEAM_DB``, else SQLite ``gputeam.db`` in the user data directory.
``open_database(url=None, *, env=None, migrate=True) -> Database``
    Creates the database and applies the packaged Alembic migrations on first use.
``Database``: ``.engine``, ``.dialect``, ``.session()`` (context manager: one transaction,
    commit on success, rollback on error), ``.upgrade(rev="head")``, ``.downgrade(rev)``,
    ``.revision()``, ``.dispose()``.

Repositories (all take a ``Session`` first; writes add an audit entry with ``actor``)
-------------------------------------------------------------------------------------
people:
    ``create_organisation(s, name, *, currency="USD", actor=None)``,
    ``get_or_create_organisation(s, name)``, ``get_organisation(s, org_id)``,
    ``first_organisation(s)``, ``tracked_organisation(s, name) -> id`` (the oldest, else a
    new one), ``list_organisations(s)``; ``create_team(s, org_id, name)``,
    ``get_or_create_team(s, org_id, name)``, ``get_team(s, team_id)``,
    ``find_team(s, org_id, team_id) -> Team | None`` (only within the organisation),
    ``list_teams(s, org_id)``;
    ``add_person(s, org_id, *, key, name, catalog=None, **fields)`` (fields:
    ``PERSON_FIELDS``, validated as ``PersonFields``), ``update_person(s, person_id,
    changes, *, catalog=None)``, ``delete_person(s, person_id)``,
    ``get_person(s, person_id)``, ``find_person(s, org_id, person_id) -> Person | None``
    (only within the organisation), ``get_person_by_key(s, org_id, key)``,
    ``list_people(s, org_id, *, team_id=None, team_ids=None, active=True, search=None,
    limit=None, offset=0, where=None, sort="name", descending=False)``,
    ``count_people(s, org_id, *, team_id=None, where=None)``; ``PeopleFilter`` (team,
    visible teams or person, role, level, site, active, search: the one home of these
    filters), ``list_sites(s, org_id)`` (the sites recorded on people),
    ``PEOPLE_SORTS``;
    ``rate_skill(s, person_id, domain, proficiency, *, rated_at=None, rated_by=None)``,
    ``current_skills(s, person_ids=None, *, org_id=None) -> {person_id: {domain: 0-4}}``,
    ``skill_history(s, person_id, domain=None)``;
    ``proficiency_counts(s, org_id, where=None) -> {domain: {proficiency: people}}`` (the
    skills matrix's bus factor, counted in the database).
certifications:
    ``add_certification(s, person_id, cert_id, valid_from, valid_until=None, *, evidence="",
    catalog=None)``, ``get_certification``, ``remove_certification``,
    ``list_certifications(s, *, person_id=None, org_id=None, team_id=None)``,
    ``expiring_certifications(s, today, within_days, *, org_id=None, include_expired=False)``,
    ``cert_status(held, today) -> "valid" | "expiring" | "expired"`` (the coarse form of
    ``gputeam.catalog.expiry_status``), ``list_held(s, org_id, today, *, where=None,
    status=None, cert_id=None, sort="expires", descending=False, limit=None, offset=0)
    -> list[HeldRow]`` and ``count_held(...)`` (the certifications view: current
    certificates with their expiry status), ``HELD_SORTS``;
    ``default_valid_until(catalog, cert_id, valid_from)``.
learning:
    ``enrol(s, person_id, course_id, started_on, *, hours_done=0)``,
    ``record_hours(s, enrolment_id, hours_done, *, completed_on=None)``,
    ``find_enrolment(s, enrolment_id) -> Enrolment | None``,
    ``list_enrolments(s, *, person_id=None, org_id=None, open_only=False)``;
    ``add_roadmap_item(s, person_id, *, kind, ref, title, start, due, hours=0, plan_id=None)``,
    ``update_roadmap_item(s, item_id, changes)``, ``complete_roadmap_item(s, item_id, done_on)``,
    ``get_roadmap_item``, ``list_roadmap_items(s, *, person_id=None, org_id=None, team_id=None,
    open_only=False)``, ``overdue_roadmap_items(s, today, *, org_id=None)``,
    ``adopt_plan_roadmaps(s, org_id, plan_json, *, plan_id=None)`` (idempotent: an item
    the person has is not added again), ``adopt_roadmaps`` (the same, with counts);
    ``record_hours`` with ``completed_on`` marks the person's open items for the course done
    (``close_course_items``).
teams:
    ``rename_team(s, org_id, team_id, name)``, ``set_team_archived(s, org_id, team_id,
    archived)`` (refused while active people are in it), ``assign_to_team(s, org_id,
    team_id, person_ids)``, ``team_in(s, org_id, team_id)``, ``team_members``,
    ``learning_summary(s, org_id, today, *, team_id=None, person_id=None)``,
    ``learning_summaries(s, org_id, today, *, by="person"|"team", team_id=None)`` (each
    person's or team's, in three queries; ``empty_learning()`` for the absent),
    ``team_head_counts(s, org_id)``;
    ``list_teams(s, org_id, archived=None)``, ``check_team_name``.
enrolments:
    ``courses_of(catalog, course_id=None, path_id=None)``, ``enrol_people(s, org_id,
    person_ids, course_ids, started_on)`` (skips open enrolments), ``complete_enrolment(s,
    enrolment_id, done_on)``, ``adopt_saved_plan(s, org_id, plan_id, *, team_id=None) ->
    counts`` (``team_id``: that team's people only).
burnup:
    ``burnup(s, org_id, today, *, person_id=None, team_id=None)``: planned against done
    roadmap items per month.
plans:
    ``save_scenario(s, org_id, name, inputs_json)`` (new version each time),
    ``get_scenario``, ``latest_scenario(s, org_id, name)``, ``list_scenarios(s, org_id)``;
    ``save_plan(s, scenario_id, plan_json, computed_for)``, ``get_plan``,
    ``latest_plan(s, org_id, scenario_name=None)``, ``latest_plan_row(s, org_id)`` (without
    its JSON), ``plan_json(s, plan_id)``, ``find_plan(s, org_id, plan_id)`` (only within the
    organisation), ``list_plans(s, scenario_id)``.
profile (read models for the web's person page and dashboard):
    ``person_records(s, person_id) -> PersonRecords`` (certifications, enrolments, roadmap
    as plain rows), ``person_teams(s, org_id) -> {key: (id, team_id)}``,
    ``record_person(s, "certification" | "enrolment" | "roadmap item", id)`` and
    ``token_user(s, token_id)`` (whose record or token, None if none).
accounts:
    ``hash_password(pw)``, ``verify_password(hash, pw)``,
    ``create_user(s, username, password, role, *, person_id=None, team_ids=())``,
    ``authenticate(s, username, password) -> User | None``, ``get_user``,
    ``get_user_by_username``, ``list_users``, ``count_users(s, role=None)``,
    ``update_user(s, user_id, *, role=None, active=None, person_id=None, password=None,
    keep_session=None)`` (a new password or a deactivation ends the user's sessions),
    ``set_user_teams(s, user_id, team_ids)``, ``user_team_ids(s, user_id)``,
    ``set_user_language(s, user_id, language | None)`` (None: the browser's),
    ``user_languages(s, person_ids) -> {person_id: language}`` (reminder mail);
    ``create_token(s, user_id, name, scopes, *, expires_at=None) -> (ApiToken, secret)``,
    ``verify_token(s, secret, *, now=None) -> ApiToken | None`` (last_used_at updated at
    most every 5 minutes), ``note_token_use(s, token_id, last_used_at, now)`` (the same
    rule, for a caller found by ``find_caller``), ``revoke_token(s, token_id)``,
    ``list_tokens(s, user_id=None)``; ``secret_digest(secret)``;
    ``find_caller(s, *, token=None, sid=None) -> Caller | None`` (``Caller.live(now)``);
    ``start_session(s, user_id, sid, *, expires_at)``, ``end_session(s, sid)`` (logout),
    ``extend_session(s, sid, until, *, now, actor=None, reason='')`` (a running exam),
    ``end_sessions(s, user_id, *, keep=None) -> int`` (log out everywhere),
    ``count_sessions(s, user_id)``.
throttle:
    ``login_wait(s, username, address, limits) -> seconds``, ``record_login(s, username,
    address, user)``, ``LoginLimits``: failed logins throttled per account and address,
    per address and per account (from unknown addresses), with exponential backoff;
    ``password_wait(s, user_id, limits)``, ``record_wrong_password(s, user_id, username)``:
    a signed-in user's wrong current password, throttled the same way.
audit:
    ``record(s, actor, action, entity, entity_id, before, after)``,
    ``list_audit(s, *, entity=None, entity_id=None, actor=None, org_id=None, limit=100,
    offset=0, oldest_first=False)`` (each entry knows its organisation; null for accounts),
    ``count_audit(s, action, *, since=None, entity_id=None, actor=None)`` and
    ``tally_audit(...) -> (count, latest)`` (login rate limiting); ``data_version(s) -> int``
    and ``versions(s) -> (tracked, accounts)`` (cache markers, bumped by each commit of
    tracked data or of accounts).

Live team, import/export, calendars, reminders
----------------------------------------------
``team_scenario(s, org_id, fleet, *, start, team_id=None, constraints=None, retention=None,
horizon_months=12, mode="template", currency=None, overrides=None, catalog=None) -> Scenario``
``import_roster(s, org_id, source, *, filename=None, mapping=None, sheet=None,
dry_run=False, catalog=None, actor=None) -> ImportReport`` and
``import_certifications(...)`` (same arguments): CSV/XLSX (a path, bytes with ``filename``,
or a ``Table``), all-or-nothing in the caller's transaction; bad rows raise
:class:`ImportRejected` (an InputError: one Problem per bad cell, ``line`` = row number,
``path`` = column, ``found`` = value, ``message`` = reason). ``ImportReport``: ``created``,
``updated``, ``unchanged``, ``skill_ratings``, ``teams_created``, ``notes``, ``as_dict()``.
A dry run writes nothing itself, but roll back the session if you created the
organisation in it.
``read_table(path_or_bytes, *, filename=None, sheet=None, limits=None) -> Table`` (CSV any
locale, XLSX). Every import and ``read_table`` take ``limits=TableLimits(...)`` (default:
from the environment, ``GPUTEAM_MAX_UPLOAD_BYTES``, ``GPUTEAM_IMPORT_MAX_ROWS``, ...): a file
over one is refused with :class:`LimitExceeded` (an ``ImportRejected`` naming the limit and
its setting; ``.status`` 413, or 422 for a cell too long) before it is read further;
``parse_number(cell, decimal_comma)`` and ``parse_integer(...)`` read one number as the
importer does, in any locale form, or raise :class:`BadCell` (``reason``, ``expected``).
The guided import (:mod:`gputeam.store.guided_import`): ``PendingUploads(directory=None, *,
max_bytes, max_age=3600, per_user=5)`` keeps an upload between steps (``.save(user_id,
org_id, kind, filename, data) -> token``, ``.get(token, user_id, org_id) -> PendingUpload``
(:class:`NotFound` for anyone else's or an expired one), ``.discard(token)``,
``.purge()``); ``import_layout(upload, catalog, *, sheet=None, header_row=None) ->
ImportLayout`` (sheets, detected header row, candidate rows, each column's detected
field and sample values); ``import_field_choices(kind, catalog)``;
``import_mapping(columns, chosen) -> {column: field}``; ``import_name_columns(columns,
chosen)``: the columns combined into the name, in order.
``export_data(s, org_id, *, include_audit=True) -> dict`` (built once), rendered by
``export_json(s, org_id) -> str``, ``export_csv(s, org_id) -> {"people.csv": text, ...}``,
``export_xlsx(s, org_id) -> bytes``; ``to_csv(data)``, ``to_xlsx(data)``.
``person_calendar(s, person_id, *, catalog=None, today=None) -> bytes``,
``team_calendar(s, org_id, *, team_id=None, catalog=None, today=None) -> bytes`` (ICS; stable UIDs;
alarms 90 and 30 days ahead).
``due_reminders(s, today, within_days=90, *, org_id=None, include_sent=False)
-> list[Reminder]``; ``send_reminders(s, today, within_days=90, *, org_id=None,
mailer=None, fallback_to=None, dry_run=False) -> RemindResult`` (idempotent);
``SmtpSettings.from_env(env) -> SmtpSettings | None``; ``SmtpMailer(settings)``.

Credentials (Open Badges 3.0)
----------------------------
``issue_credential(s, org_id, person_id, cert_id, *, catalog, secret, base_url, now,
actor=None) -> IssuedCredential`` (only for a certification the person holds, valid today;
signed with the organisation's key, created on first use and sealed with ``secret``),
``revoke_credential(s, org_id, uuid, reason, *, now, actor=None)``, ``get_credential(s,
uuid)``, ``list_credentials(s, org_id, *, person_id=None)``, ``status_list(s, key_id, secret,
*, base_url, now) -> dict`` (the signed Bitstring Status List; ``status_list_jwt`` the same
as a VC-JWT), ``own_signing_key(s, org_id, public_key)`` (the organisation's issuing key
that an Ed25519 public key is, or None), ``status_list_key(base_url,
url) -> int | None`` (the key whose list a URL of ours names), ``current_issuer_key(s,
org_id, secret)``, ``issuer_key_in(s, org_id, key_id)`` (only within the organisation),
``rotate_issuer_key(s, org_id, secret)``, ``did_document(s, org_id, did)`` (the did:web
document listing every key), ``expiring_credentials(s, today,
until)``, ``credential_jwt(s, row, secret) -> str`` (the credential as a VC-JWT, signed by
the key that issued it), ``public_achievement(s, org_id, catalog, cert_id, *, base_url,
programme=None, issuer_did=None) -> dict`` (the Achievement its public page serves),
``achievement_url(base_url, cert_id, programme=None)``.

Internal certification programmes (issue 11)
--------------------------------------------
programmes: ``save_programme(s, org_id, code, spec, *, catalog, actor=None)``,
``get_programme(s, org_id, code)``, ``list_programmes(s, org_id)``, ``programme_spec(row)``,
``import_bank(s, programme_id, bank, *, now, actor=None) -> BankImport`` (versions items used by
an attempt, never edits them), ``bank_items(s, programme_id, *, include_retired=True)``,
``export_bank(s, programme_id, *, include_retired=False) -> BankExport`` (newest versions,
with their ids and domain tags, for the GIFT and Moodle XML writers),
``retire_item(s, programme_id, item_id, *, now, actor=None)``,
``set_time_multiplier(s, person_id, multiplier, *, note="", actor=None)``, ``time_multiplier``.
exams: ``start_attempt(s, programme, person_id, *, now, catalog, issuer=None, actor=None)``
(resumes the attempt in progress, or finishes it first when its time ran out),
``save_answer(s, attempt_id, person_id, item_id, value, *, now, sequence=None) -> seconds
left``, ``save_answers(s, attempt_id, person_id, answers, *, now, sequences=None) -> Saved``
(all or none; :class:`TooLate` after the deadline plus the grace, :class:`Stale` from a page
shown with an older state of a question), ``finish_attempt(s, attempt_id, *, now,
catalog, issuer=None, how="submitted", sequences=None)`` (:class:`Stale`: refused, still
open), ``current_attempt(...)`` (finishes an overdue one),
``finalise_overdue(s, *, now, catalog, issuer=None, limit=100, skip=(), programme_id=None,
person_id=None) -> Swept`` (each attempt in its own savepoint: the ones refused are
reported in ``Swept.failed``),
``attempt_view(s, attempt, *, now)`` (no answer keys before the end),
``attempt_person(s, attempt_id)`` (whose),
``person_attempts(s, person_id) -> [(attempt, programme code)]``, ``attempts_of``,
``next_allowed``; :class:`Issuer`.
practical: ``grade_practical(s, programme, person_id, grades, *, assessor, role,
assessor_person_id)``, ``sign_off(...)``, ``may_assess``, ``list_assessments``,
``record_pass(s, programme, person_id, *, now, catalog, issuer=None)``, ``practical_queue(s,
programme, *, role, person_id)`` (who passed the exam and awaits sign-off).
essay marking: ``awaiting_marking(s, programme_id)``, ``marking_queue(s, programme, *, role,
person_id)`` (what this caller may mark), ``attempt_to_mark(s, org_id, attempt_id, *, role,
person_id)`` (NotFound unless they may), ``essays(s, attempt)``,
``mark_essay(s, attempt_id, item_id, mark, comment="", *, marker, role, marker_person_id, now,
catalog, issuer=None, org_id=None)`` (never the candidate; final once every essay is marked).
item statistics: ``item_statistics(s, programme_id) -> dict``, ``item_statistics_csv(stats)``.

Person fields (``person_fields``): :class:`PersonFields`, the one typed model of a person's
fields, ``PersonFields.parse(values, *, roles=None, current_role=None)`` (raises
:class:`StoreError` naming each refused field ``person.<field>``), ``.given()``;
``PERSON_FIELDS``. Its rules (``person_rules``): ``NUMBER_RULES``, ``TEXT_LONGEST``,
``REQUIRED``, ``EMAIL_LONGEST``, ``EMAIL_EXAMPLE``, ``email_fault(value)``,
``role_allowed(value, roles, current=None)``.

Errors: :class:`StoreError` (refused), :class:`NotFound` (404), :class:`ImportRejected`; all
subclass :class:`gputeam.errors.InputError`. :data:`WriteConflict`: a write broke a
uniqueness or reference rule of the database (409); ``lost_connection(exc)``: the
database connection was lost (a read may be retried). ``DbSession``: the session type.
"""

from sqlalchemy.orm import Session as DbSession  # the session type the repositories take

from gputeam.store.accounts import (
    DEFAULT_TOKEN_DAYS,
    MAX_TOKEN_DAYS,
    Caller,
    authenticate,
    count_sessions,
    count_users,
    create_token,
    create_user,
    end_session,
    end_sessions,
    extend_session,
    find_caller,
    get_user,
    get_user_by_username,
    hash_password,
    idle_out,
    list_tokens,
    list_users,
    note_session_use,
    note_token_use,
    revoke_token,
    secret_digest,
    session_last_seen,
    set_user_language,
    set_user_teams,
    start_session,
    token_lifetime,
    update_user,
    user_languages,
    user_team_ids,
    verify_password,
    verify_token,
)
from gputeam.store.approvals import (
    ApprovalJson,
    approval_json,
    decide,
    evidence_link,
    get_approval,
    list_approvals,
    request_certification,
    request_hours,
    request_skill,
)
from gputeam.store.audit import (
    count_audit,
    data_version,
    list_audit,
    record,
    tally_audit,
    versions,
)
from gputeam.store.burnup import burnup
from gputeam.store.certifications import (
    HELD_SORTS,
    HeldRow,
    add_certification,
    cert_status,
    count_held,
    default_valid_until,
    expiring_certifications,
    get_certification,
    list_certifications,
    list_held,
    remove_certification,
)
from gputeam.store.credentials import (
    achievement_url,
    credential_jwt,
    current_issuer_key,
    did_document,
    expiring_credentials,
    get_credential,
    issue_credential,
    issuer_key_in,
    list_credentials,
    own_signing_key,
    public_achievement,
    revoke_credential,
    rotate_issuer_key,
    status_list,
    status_list_jwt,
    status_list_key,
)
from gputeam.store.db import Database, open_database
from gputeam.store.enrolments import (
    adopt_saved_plan,
    complete_enrolment,
    courses_of,
    enrol_people,
)
from gputeam.store.errors import (
    ImportRejected,
    NotFound,
    StoreError,
    WriteConflict,
    lost_connection,
)
from gputeam.store.exams import (
    Issuer,
    Saved,
    Stale,
    Swept,
    TooLate,
    attempt_person,
    attempt_view,
    attempts_of,
    current_attempt,
    finalise_overdue,
    finish_attempt,
    next_allowed,
    person_attempts,
    save_answer,
    save_answers,
    start_attempt,
)
from gputeam.store.exporting import (
    export_csv,
    export_data,
    export_json,
    export_xlsx,
    to_csv,
    to_xlsx,
)
from gputeam.store.guided_import import Column as ImportColumn
from gputeam.store.guided_import import Layout as ImportLayout
from gputeam.store.guided_import import PendingUpload, PendingUploads
from gputeam.store.guided_import import field_choices as import_field_choices
from gputeam.store.guided_import import layout as import_layout
from gputeam.store.guided_import import mapping_from_form as import_mapping
from gputeam.store.guided_import import name_columns as import_name_columns
from gputeam.store.ics import person_calendar, team_calendar
from gputeam.store.import_certs import import_certifications
from gputeam.store.importing import ImportReport, import_roster
from gputeam.store.item_stats import item_statistics, item_statistics_csv
from gputeam.store.learning import (
    COURSE_HOURS_FACTOR,
    add_roadmap_item,
    adopt_plan_roadmaps,
    adopt_roadmaps,
    check_hours,
    close_course_items,
    complete_roadmap_item,
    enrol,
    find_enrolment,
    get_roadmap_item,
    list_enrolments,
    list_roadmap_items,
    overdue_roadmap_items,
    record_hours,
    update_roadmap_item,
)
from gputeam.store.limits import LimitExceeded, TableLimits
from gputeam.store.live import team_scenario
from gputeam.store.marking import attempt_to_mark, awaiting_marking, essays, mark_essay, marking_queue
from gputeam.store.passwords import MIN_PASSWORD_LENGTH, MIN_PASSWORD_SCORE, password_problem
from gputeam.store.people import (
    PEOPLE_SORTS,
    PeopleFilter,
    add_person,
    check_team_name,
    count_people,
    create_organisation,
    create_team,
    current_skills,
    delete_person,
    find_person,
    find_team,
    first_organisation,
    get_or_create_organisation,
    get_or_create_team,
    get_organisation,
    get_person,
    get_person_by_key,
    get_team,
    list_organisations,
    list_people,
    list_sites,
    list_teams,
    rate_skill,
    skill_history,
    tracked_organisation,
    update_person,
)
from gputeam.store.person_fields import PERSON_FIELDS, PersonFields
from gputeam.store.person_rules import (
    EMAIL_EXAMPLE,
    EMAIL_LONGEST,
    NUMBER_RULES,
    REQUIRED,
    TEXT_LONGEST,
    email_fault,
    role_allowed,
)
from gputeam.store.plans import (
    find_plan,
    get_plan,
    get_scenario,
    latest_plan,
    latest_plan_row,
    latest_scenario,
    list_plans,
    list_scenarios,
    plan_json,
    save_plan,
    save_scenario,
)
from gputeam.store.practical import (
    grade_practical,
    list_assessments,
    may_assess,
    practical_queue,
    record_pass,
    sign_off,
)
from gputeam.store.profile import (
    PersonRecords,
    person_records,
    person_teams,
    record_person,
    token_user,
)
from gputeam.store.programmes import (
    BankExport,
    BankImport,
    bank_items,
    export_bank,
    get_programme,
    import_bank,
    list_programmes,
    programme_spec,
    retire_item,
    save_programme,
    set_time_multiplier,
    time_multiplier,
)
from gputeam.store.remind import (
    Mailer,
    Reminder,
    RemindResult,
    SmtpMailer,
    SmtpSettings,
    due_reminders,
    send_reminders,
)
from gputeam.store.schema import (
    ROLES,
    ApiToken,
    Approval,
    AuditEntry,
    CertificationHeld,
    Enrolment,
    IssuedCredential,
    IssuerKey,
    Organisation,
    Person,
    RoadmapItem,
    SavedPlan,
    SavedScenario,
    SkillRating,
    Team,
    User,
    UserSession,
)
from gputeam.store.settings import database_url, default_database_path
from gputeam.store.skills import proficiency_counts
from gputeam.store.tables import BadCell, Table, read_table
from gputeam.store.tables import integer as parse_integer
from gputeam.store.tables import number as parse_number
from gputeam.store.teams import (
    assign_to_team,
    empty_learning,
    learning_summaries,
    learning_summary,
    rename_team,
    set_team_archived,
    team_head_counts,
    team_in,
    team_members,
)
from gputeam.store.throttle import (
    LoginLimits,
    login_wait,
    password_wait,
    record_login,
    record_wrong_password,
)

__all__ = [
    "DEFAULT_TOKEN_DAYS",
    "MAX_TOKEN_DAYS",
    "idle_out",
    "note_session_use",
    "session_last_seen",
    "token_lifetime",
    "ApprovalJson",
    "approval_json",
    "decide",
    "evidence_link",
    "get_approval",
    "list_approvals",
    "request_certification",
    "request_hours",
    "request_skill",
    "COURSE_HOURS_FACTOR",
    "check_hours",
    "MIN_PASSWORD_LENGTH",
    "MIN_PASSWORD_SCORE",
    "password_problem",
    "Approval",
    "PERSON_FIELDS",
    "ROLES",
    "ApiToken",
    "AuditEntry",
    "CertificationHeld",
    "Database",
    "Enrolment",
    "ImportRejected",
    "NotFound",
    "Organisation",
    "Person",
    "PersonFields",
    "RoadmapItem",
    "SavedPlan",
    "SavedScenario",
    "SkillRating",
    "StoreError",
    "Team",
    "User",
    "add_certification",
    "add_person",
    "add_roadmap_item",
    "adopt_plan_roadmaps",
    "authenticate",
    "cert_status",
    "complete_roadmap_item",
    "count_people",
    "count_users",
    "create_organisation",
    "create_team",
    "create_token",
    "create_user",
    "current_skills",
    "database_url",
    "default_database_path",
    "default_valid_until",
    "delete_person",
    "enrol",
    "expiring_certifications",
    "get_certification",
    "get_or_create_organisation",
    "get_or_create_team",
    "get_organisation",
    "get_person",
    "get_person_by_key",
    "get_plan",
    "get_roadmap_item",
    "get_scenario",
    "get_team",
    "get_user",
    "get_user_by_username",
    "hash_password",
    "latest_plan",
    "latest_scenario",
    "list_audit",
    "list_certifications",
    "list_enrolments",
    "list_organisations",
    "list_people",
    "list_plans",
    "list_roadmap_items",
    "list_scenarios",
    "list_teams",
    "list_tokens",
    "list_users",
    "open_database",
    "overdue_roadmap_items",
    "rate_skill",
    "record",
    "record_hours",
    "remove_certification",
    "revoke_token",
    "save_plan",
    "save_scenario",
    "set_user_language",
    "set_user_teams",
    "skill_history",
    "team_scenario",
    "update_person",
    "update_roadmap_item",
    "update_user",
    "user_languages",
    "user_team_ids",
    "verify_password",
    "verify_token",
    "ImportReport",
    "Mailer",
    "RemindResult",
    "Reminder",
    "SmtpMailer",
    "SmtpSettings",
    "Table",
    "due_reminders",
    "export_csv",
    "export_data",
    "export_json",
    "export_xlsx",
    "import_certifications",
    "import_roster",
    "person_calendar",
    "read_table",
    "LimitExceeded",
    "TableLimits",
    "send_reminders",
    "team_calendar",
    "to_csv",
    "to_xlsx",
    "count_audit",
    "data_version",
    "versions",
    "first_organisation",
    "Caller",
    "UserSession",
    "count_sessions",
    "end_session",
    "end_sessions",
    "find_caller",
    "find_person",
    "find_team",
    "secret_digest",
    "start_session",
    "extend_session",
    "IssuedCredential",
    "IssuerKey",
    "achievement_url",
    "credential_jwt",
    "current_issuer_key",
    "expiring_credentials",
    "did_document",
    "get_credential",
    "issue_credential",
    "list_credentials",
    "public_achievement",
    "revoke_credential",
    "rotate_issuer_key",
    "own_signing_key",
    "status_list",
    "status_list_jwt",
    "status_list_key",
    "BankImport",
    "Issuer",
    "Saved",
    "Stale",
    "Swept",
    "TooLate",
    "attempt_view",
    "attempts_of",
    "BankExport",
    "bank_items",
    "export_bank",
    "current_attempt",
    "finalise_overdue",
    "finish_attempt",
    "get_programme",
    "grade_practical",
    "attempt_to_mark",
    "awaiting_marking",
    "essays",
    "mark_essay",
    "marking_queue",
    "practical_queue",
    "import_bank",
    "item_statistics",
    "item_statistics_csv",
    "list_assessments",
    "list_programmes",
    "may_assess",
    "next_allowed",
    "programme_spec",
    "record_pass",
    "retire_item",
    "save_answer",
    "save_answers",
    "save_programme",
    "set_time_multiplier",
    "sign_off",
    "start_attempt",
    "time_multiplier",
    "adopt_roadmaps",
    "adopt_saved_plan",
    "assign_to_team",
    "burnup",
    "check_team_name",
    "close_course_items",
    "complete_enrolment",
    "courses_of",
    "enrol_people",
    "learning_summary",
    "learning_summaries",
    "empty_learning",
    "team_head_counts",
    "rename_team",
    "set_team_archived",
    "team_in",
    "team_members",
    "ImportColumn",
    "ImportLayout",
    "PendingUpload",
    "PendingUploads",
    "import_field_choices",
    "import_layout",
    "import_mapping",
    "import_name_columns",
    "DbSession",
    "LoginLimits",
    "PersonRecords",
    "WriteConflict",
    "latest_plan_row",
    "login_wait",
    "lost_connection",
    "note_token_use",
    "password_wait",
    "person_records",
    "person_teams",
    "plan_json",
    "record_login",
    "record_wrong_password",
    "tally_audit",
    "tracked_organisation",
    "attempt_person",
    "person_attempts",
    "EMAIL_EXAMPLE",
    "EMAIL_LONGEST",
    "NUMBER_RULES",
    "REQUIRED",
    "TEXT_LONGEST",
    "email_fault",
    "role_allowed",
    "HELD_SORTS",
    "PEOPLE_SORTS",
    "HeldRow",
    "PeopleFilter",
    "list_sites",
    "count_held",
    "list_held",
    "proficiency_counts",
    "find_plan",
    "record_person",
    "token_user",
    "issuer_key_in",
    "find_enrolment",
    "BadCell",
    "parse_integer",
    "parse_number",
]
