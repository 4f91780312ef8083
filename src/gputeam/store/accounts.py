"""Users (argon2 password hashes, roles, team memberships), API tokens (hashed, scoped)
and browser sessions (revocable server-side).

Tokens and session ids are 256-bit / 144-bit random secrets; only their SHA-256
(:func:`secret_digest`) is stored, which is sufficient for high-entropy secrets and lets
them be found by an indexed lookup. Ending sessions (logout, a password change, a
deactivation, "log out everywhere") is audited, which bumps the accounts version that
per-process caches of callers are keyed by.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session

from gputeam.i18n import N_
from gputeam.store import audit
from gputeam.store.errors import not_found, refused
from gputeam.store.passwords import check_password
from gputeam.store.person_rules import one_line
from gputeam.store.schema import ROLES, ApiToken, TeamMembership, User, UserSession, utcnow

if TYPE_CHECKING:
    from argon2 import PasswordHasher

TOKEN_PREFIX = "gpt_"
#: how long a new API token lives unless told otherwise (every door's default)
DEFAULT_TOKEN_DAYS = 90
#: the longest lifetime a token may be given in days (``never`` aside)
MAX_TOKEN_DAYS = 3650
#: the word for a token that never expires (``--expires never``)
NEVER = "never"
TOKEN_USE_RESOLUTION = timedelta(minutes=5)
#: a session's last request is recorded at most this often (the idle timeout is counted
#: from it, so it errs by at most this much, towards keeping the user signed in)
SESSION_SEEN_RESOLUTION = timedelta(minutes=1)
_DUMMY_HASH: list[str] = []


def _hasher() -> PasswordHasher:
    from argon2 import PasswordHasher

    return PasswordHasher()


def hash_password(password: str, *, username: str = "") -> str:
    """The argon2id hash of an acceptable password (the rule:
    :func:`gputeam.store.passwords.password_problem`; ``username`` counts as known to an
    attacker)."""
    check_password(password, known=(username,))
    return str(_hasher().hash(password))


def verify_password(password_hash: str, password: str) -> bool:
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return bool(_hasher().verify(password_hash, password))
    except (VerificationError, InvalidHashError):
        return False


def create_user(
    session: Session,
    username: str,
    password: str,
    role: str,
    *,
    person_id: int | None = None,
    team_ids: Iterable[int] = (),
    actor: str | None = None,
) -> User:
    if role not in ROLES:
        raise refused("role", N_("unknown role"), role, ", ".join(ROLES))
    if not username.strip():
        raise refused("username", N_("must not be empty"), username)
    if get_user_by_username(session, username) is not None:
        raise refused("username", N_("already taken"), username)
    _check_links(session, person_id, team_ids := list(team_ids))
    user = User(
        username=username,
        password_hash=hash_password(password, username=username),
        role=role,
        person_id=person_id,
    )
    session.add(user)
    session.flush()
    for team_id in team_ids:
        session.add(TeamMembership(user_id=user.id, team_id=team_id))
    session.flush()
    audit.record(session, actor, "create", "user", user.id, None, audit.snapshot(user))
    return user


def _check_links(session: Session, person_id: int | None, team_ids: Iterable[int]) -> None:
    from gputeam.store.people import get_person, get_team

    if person_id is not None:
        get_person(session, person_id)
    for team_id in team_ids:
        get_team(session, team_id)


def authenticate(
    session: Session, username: str, password: str, *, now: datetime | None = None
) -> User | None:
    """The active user with these credentials (``last_login_at`` updated), else ``None``.
    Takes about as long for an unknown username as for a wrong password."""
    user = get_user_by_username(session, username)
    if user is None or not user.active:
        if not _DUMMY_HASH:
            _DUMMY_HASH.append(_hasher().hash("not a password"))
        verify_password(_DUMMY_HASH[0], password)
        return None
    if not verify_password(user.password_hash, password):
        return None
    hasher = _hasher()
    if hasher.check_needs_rehash(user.password_hash):
        user.password_hash = hasher.hash(password)
    user.last_login_at = now or utcnow()
    session.flush()
    return user


def get_user(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None:
        raise not_found("user", user_id)
    return user


def get_user_by_username(session: Session, username: str) -> User | None:
    return session.scalar(select(User).where(User.username == username))


def list_users(session: Session) -> Sequence[User]:
    return session.scalars(select(User).order_by(User.username)).all()


def count_users(session: Session, role: str | None = None) -> int:
    q = select(User.id)
    if role is not None:
        q = q.where(User.role == role)
    return len(session.scalars(q).all())


def update_user(
    session: Session,
    user_id: int,
    *,
    role: str | None = None,
    active: bool | None = None,
    person_id: int | None = None,
    password: str | None = None,
    actor: str | None = None,
    keep_session: str | None = None,
) -> User:
    """Change a user. A new password or a deactivation ends the user's sessions (all but
    the one whose id is ``keep_session``: the one changing its own password)."""
    user = get_user(session, user_id)
    _check_links(session, person_id, ())
    before = audit.snapshot(user)
    if role is not None:
        if role not in ROLES:
            raise refused("role", N_("unknown role"), role, ", ".join(ROLES))
        user.role = role
    if active is not None:
        user.active = active
    if person_id is not None:
        user.person_id = person_id
    if password is not None:
        user.password_hash = hash_password(password, username=user.username)
    session.flush()
    after = audit.snapshot(user)
    if after is not None and password is not None:
        after["password_changed"] = True
    audit.record(session, actor, "update", "user", user.id, before, after)
    if password is not None or active is False:
        end_sessions(session, user.id, keep=keep_session, actor=actor)
    return user


def set_user_language(
    session: Session, user_id: int, language: str | None, *, actor: str | None = None
) -> User:
    """Set the user's language (one of :data:`gputeam.i18n.LANGUAGES`, in any case or
    locale form such as ``de_DE``), or clear it with None or ``""`` (the browser's language
    then). Audited, so cached callers are read again."""
    from gputeam.i18n import LANGUAGES, PSEUDO, normalise

    user = get_user(session, user_id)
    chosen = normalise(language) if language else None
    if language and (chosen is None or chosen == PSEUDO):
        raise refused("language", N_("unknown language"), repr(language), ", ".join(LANGUAGES))
    if chosen == user.language:
        return user
    before = audit.snapshot(user)
    user.language = chosen
    session.flush()
    audit.record(session, actor, "update", "user", user.id, before, audit.snapshot(user))
    return user


def user_languages(session: Session, person_ids: Iterable[int]) -> dict[int, str]:
    """The language of the active user linked to each of ``person_ids`` that has one (the
    most recently created such user, when several are linked to the same person)."""
    ids = sorted(set(person_ids))
    found: dict[int, str] = {}
    for i in range(0, len(ids), 500):
        rows = session.execute(
            select(User.person_id, User.language)
            .where(User.person_id.in_(ids[i : i + 500]), User.language.is_not(None), User.active.is_(True))
            .order_by(User.id)
        )
        found.update({pid: language for pid, language in rows if pid is not None and language is not None})
    return found


def set_user_teams(
    session: Session, user_id: int, team_ids: Iterable[int], *, actor: str | None = None
) -> None:
    """Replace the user's team memberships (the teams a manager manages)."""
    get_user(session, user_id)
    _check_links(session, None, team_ids := sorted(set(team_ids)))
    before = user_team_ids(session, user_id)
    session.execute(delete(TeamMembership).where(TeamMembership.user_id == user_id))
    for team_id in team_ids:
        session.add(TeamMembership(user_id=user_id, team_id=team_id))
    session.flush()
    audit.record(session, actor, "update", "user_teams", user_id, {"teams": before}, {"teams": team_ids})


def user_team_ids(session: Session, user_id: int) -> list[int]:
    return list(
        session.scalars(
            select(TeamMembership.team_id)
            .where(TeamMembership.user_id == user_id)
            .order_by(TeamMembership.team_id)
        )
    )


# ---------------------------------------------------------------- sessions
def secret_digest(secret: str) -> str:
    """What is stored of a token or session id: its SHA-256, hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


def start_session(
    session: Session, user_id: int, sid: str, *, expires_at: datetime, now: datetime | None = None
) -> UserSession:
    """Record a new signed-in session (its id is the cookie's secret). Sessions that
    ended or expired are deleted on the way: a cookie naming them finds nothing."""
    now = now or utcnow()
    session.execute(
        delete(UserSession).where(or_(UserSession.expires_at <= now, UserSession.revoked_at.is_not(None)))
    )
    row = UserSession(user_id=user_id, sid_hash=secret_digest(sid), created_at=now, expires_at=expires_at)
    session.add(row)
    session.flush()
    return row


def extend_session(
    session: Session, sid: str, until: datetime, *, now: datetime, actor: str | None = None, reason: str = ""
) -> bool:
    """Keep a live session signed in at least ``until`` (a running exam keeps its
    candidate's session until its deadline plus the grace, idle or not: it counts as seen
    until then); audited, which tells every
    process's cache of callers. False when the session had ended or expired, or already
    lasts that long."""
    live = (
        UserSession.sid_hash == secret_digest(sid),
        UserSession.revoked_at.is_(None),
        UserSession.expires_at > now,
    )
    # counted as seen until then: the idle timeout does not end it before either
    session.execute(
        update(UserSession)
        .where(*live, or_(UserSession.last_seen_at.is_(None), UserSession.last_seen_at < until))
        .values(last_seen_at=until)
    )
    done = session.execute(
        update(UserSession)
        .where(*live, UserSession.expires_at < until)
        .values(expires_at=until)
        .returning(UserSession.id, UserSession.user_id)
    )
    rows = done.all()
    for sid_id, user_id in rows:
        audit.record(
            session,
            actor,
            "extend",
            "session",
            sid_id,
            None,
            {"user_id": user_id, "expires_at": until.isoformat(), "reason": reason},
        )
    return bool(rows)


def end_session(session: Session, sid: str, *, actor: str | None = None, now: datetime | None = None) -> bool:
    """End one session (logout); False when it had already ended."""
    done = session.execute(
        update(UserSession)
        .where(UserSession.sid_hash == secret_digest(sid), UserSession.revoked_at.is_(None))
        .values(revoked_at=now or utcnow())
        .returning(UserSession.id, UserSession.user_id)
    )
    rows = done.all()
    for sid_id, user_id in rows:
        audit.record(session, actor, "logout", "session", sid_id, None, {"user_id": user_id})
    return bool(rows)


def end_sessions(
    session: Session,
    user_id: int,
    *,
    keep: str | None = None,
    actor: str | None = None,
    now: datetime | None = None,
) -> int:
    """End every live session of a user ("log out everywhere"), except the one whose id
    is ``keep``; how many ended."""
    q = update(UserSession).where(UserSession.user_id == user_id, UserSession.revoked_at.is_(None))
    if keep is not None:
        q = q.where(UserSession.sid_hash != secret_digest(keep))
    done = session.execute(q.values(revoked_at=now or utcnow()).returning(UserSession.id))
    ended = len(done.all())
    if ended:
        audit.record(session, actor, "revoke", "session", None, None, {"user_id": user_id, "sessions": ended})
    return ended


def count_sessions(session: Session, user_id: int, *, now: datetime | None = None) -> int:
    """Live (not ended, not expired) sessions of a user."""
    from sqlalchemy import func

    return (
        session.scalar(
            select(func.count(UserSession.id)).where(
                UserSession.user_id == user_id,
                UserSession.revoked_at.is_(None),
                UserSession.expires_at > (now or utcnow()),
            )
        )
        or 0
    )


def idle_out(last_seen_at: datetime | None, now: datetime, idle: timedelta | None) -> bool:
    """Has a session seen last at ``last_seen_at`` idled out at ``now``? (``idle``: the
    idle timeout, None: none.) The session's absolute lifetime is checked apart."""
    return idle is not None and last_seen_at is not None and now - last_seen_at > idle


def session_last_seen(session: Session, credential_id: int) -> datetime | None:
    """When the session (by row id) was last seen (its start if never since)."""
    from sqlalchemy import func

    return session.scalar(
        select(func.coalesce(UserSession.last_seen_at, UserSession.created_at)).where(
            UserSession.id == credential_id
        )
    )


def note_session_use(
    session: Session, credential_id: int, last_seen_at: datetime | None, now: datetime
) -> datetime | None:
    """Record a request on the session (by row id) at ``now``, at most once per
    :data:`SESSION_SEEN_RESOLUTION` and never backwards (an exam's extension marks it
    seen until its deadline); returns its ``last_seen_at`` from now on."""
    if last_seen_at is not None and now - last_seen_at <= SESSION_SEEN_RESOLUTION:
        return last_seen_at
    session.execute(
        update(UserSession)
        .where(
            UserSession.id == credential_id,
            or_(UserSession.last_seen_at.is_(None), UserSession.last_seen_at < now),
        )
        .values(last_seen_at=now)
    )
    return now


# ---------------------------------------------------------------- API tokens


def create_token(
    session: Session,
    user_id: int,
    name: str,
    scopes: Iterable[str],
    *,
    expires_at: datetime | None | Literal["default"] = "default",
    actor: str | None = None,
    now: datetime | None = None,
) -> tuple[ApiToken, str]:
    """A new token; returns the row and the secret (shown once, never stored). The name is
    one line of text (refused: ``token.name``). It expires at ``expires_at``: by default
    :data:`DEFAULT_TOKEN_DAYS` from ``now``; None: never (say so explicitly)."""
    name = one_line("token.name", name)
    if expires_at == "default":
        expires_at = (now or utcnow()) + timedelta(days=DEFAULT_TOKEN_DAYS)
    get_user(session, user_id)
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(
        user_id=user_id,
        name=name,
        token_hash=secret_digest(secret),
        scopes=sorted(set(scopes)),
        expires_at=expires_at,
    )
    session.add(token)
    session.flush()
    audit.record(session, actor, "create", "api_token", token.id, None, audit.snapshot(token))
    return token, secret


def token_lifetime(text: str) -> timedelta | None:
    """A token's lifetime as written on the command line: ``30d``, ``90d`` (days, 1 to
    :data:`MAX_TOKEN_DAYS`), ``12w`` (weeks) or ``never`` (None). Refused otherwise
    (``--expires``)."""
    word = text.strip().lower()
    if word == NEVER:
        return None
    m = re.fullmatch(r"(\d{1,5})\s*([dw])", word)
    days = int(m.group(1)) * (7 if m.group(2) == "w" else 1) if m else 0
    if not 1 <= days <= MAX_TOKEN_DAYS:
        raise refused(
            "--expires",
            N_("not a token lifetime"),
            text,
            N_("a number of days or weeks such as 30d, 90d or 12w (at most {n} days), or never").format(
                n=MAX_TOKEN_DAYS
            ),
        )
    return timedelta(days=days)


def verify_token(session: Session, secret: str, *, now: datetime | None = None) -> ApiToken | None:
    """The live (not revoked, not expired, user active) token with this secret, or None;
    ``last_used_at`` is updated (at most every ``TOKEN_USE_RESOLUTION``).
    ``token.user`` and ``token.scopes`` say what it may do."""
    now = now or utcnow()
    token = session.scalar(select(ApiToken).where(ApiToken.token_hash == secret_digest(secret)))
    if token is None or not token.user.active or not _live(token.revoked_at, token.expires_at, now):
        return None
    if token_use_due(token.last_used_at, now):
        token.last_used_at = now
        session.flush()
    return token


def _live(revoked_at: datetime | None, expires_at: datetime | None, now: datetime) -> bool:
    """A credential is live until revoked and until it expires (``None``: never)."""
    return revoked_at is None and (expires_at is None or expires_at > now)


def token_use_due(last_used_at: datetime | None, now: datetime) -> bool:
    """Whether a use at ``now`` is recorded: not on every request (one write per token per
    ``TOKEN_USE_RESOLUTION`` at most), only when the recorded use is older than that."""
    return last_used_at is None or now - last_used_at > TOKEN_USE_RESOLUTION


def note_token_use(
    session: Session, token_id: int, last_used_at: datetime | None, now: datetime
) -> datetime | None:
    """Record that a token was used at ``now`` when :func:`token_use_due`; returns the
    token's ``last_used_at`` from now on."""
    if not token_use_due(last_used_at, now):
        return last_used_at
    session.execute(update(ApiToken).where(ApiToken.id == token_id).values(last_used_at=now))
    return now


# ---------------------------------------------------------------- who is calling
@dataclass(frozen=True)
class Caller:
    """An active user behind a credential: a token (whatever its state, so that the
    caller can say why it is refused) or a live session (not ended; expiry is checked
    by the caller, against ``expires_at``)."""

    user_id: int
    username: str
    role: str
    person_id: int | None
    team_ids: frozenset[int]
    credential_id: int
    expires_at: datetime | None
    revoked_at: datetime | None = None
    scopes: frozenset[str] | None = None
    last_used_at: datetime | None = None  # a session: when it was last seen
    language: str | None = None  # the user's own choice (None: the browser's)

    def live(self, now: datetime) -> bool:
        """Whether the credential still signs the user in at ``now``: a token until it is
        revoked or expires, a session until it expires (an ended session is not found)."""
        return _live(self.revoked_at, self.expires_at, now)


def find_caller(session: Session, *, token: str | None = None, sid: str | None = None) -> Caller | None:
    """The active user holding this API ``token`` or session id ``sid``: one query,
    joining the user's team memberships."""
    columns: list[Any] = [
        User.id,
        User.username,
        User.role,
        User.person_id,
        User.language,
        TeamMembership.team_id,
    ]
    if token is not None:
        columns += [
            ApiToken.id.label("credential_id"),
            ApiToken.expires_at,
            ApiToken.revoked_at,
            ApiToken.scopes,
            ApiToken.last_used_at,
        ]
        q = (
            select(*columns)
            .select_from(ApiToken)
            .join(User, User.id == ApiToken.user_id)
            .where(ApiToken.token_hash == secret_digest(token))
        )
    elif sid is not None:
        from sqlalchemy import func

        columns += [
            UserSession.id.label("credential_id"),
            UserSession.expires_at,
            func.coalesce(UserSession.last_seen_at, UserSession.created_at).label("last_used_at"),
        ]
        q = (
            select(*columns)
            .select_from(UserSession)
            .join(User, User.id == UserSession.user_id)
            .where(UserSession.sid_hash == secret_digest(sid), UserSession.revoked_at.is_(None))
        )
    else:
        return None
    q = q.outerjoin(TeamMembership, TeamMembership.user_id == User.id).where(User.active.is_(True))
    rows = session.execute(q).all()
    if not rows:
        return None
    row = rows[0]
    teams = frozenset(r.team_id for r in rows if r.team_id is not None)
    common = (row.id, row.username, row.role, row.person_id, teams, row.credential_id, row.expires_at)
    if token is None:
        return Caller(*common, last_used_at=row.last_used_at, language=row.language)
    return Caller(*common, row.revoked_at, frozenset(row.scopes), row.last_used_at, row.language)


def revoke_token(
    session: Session, token_id: int, *, now: datetime | None = None, actor: str | None = None
) -> ApiToken:
    token = session.get(ApiToken, token_id)
    if token is None:
        raise not_found("api token", token_id)
    before = audit.snapshot(token)
    token.revoked_at = token.revoked_at or now or utcnow()
    session.flush()
    audit.record(session, actor, "revoke", "api_token", token.id, before, audit.snapshot(token))
    return token


def list_tokens(session: Session, user_id: int | None = None) -> Sequence[ApiToken]:
    q = select(ApiToken).order_by(ApiToken.created_at, ApiToken.id)
    if user_id is not None:
        q = q.where(ApiToken.user_id == user_id)
    return session.scalars(q).all()
