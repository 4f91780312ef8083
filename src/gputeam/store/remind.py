"""Reminders: certifications and issued credentials expiring soon (or expired), and overdue
roadmap items.

Each reminder has a ``key`` naming what it is about and the stage reached (a certificate
gets one reminder on entering the ``within_days`` window, one at 30 days, one at 7 days
and one when it has expired; an overdue roadmap item one per due date). Sent keys are
recorded in ``reminders_sent``, so running ``gputeam remind`` again sends nothing new.

Mail goes out when SMTP is configured (:meth:`SmtpSettings.from_env`); otherwise reminders
are listed. Without ``dry_run`` both count as delivered. A person whose user account has a
language of its own gets their mail in it; other mail is in the run's language.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from gputeam.catalog import Catalog, expiry_status, load_catalog
from gputeam.i18n import _, current, ngettext, use
from gputeam.i18n.formats import date_text
from gputeam.store.accounts import user_languages
from gputeam.store.certifications import expiring_certifications
from gputeam.store.learning import overdue_roadmap_items
from gputeam.store.schema import ReminderSent, utcnow

STAGES = (30, 7)


@dataclass(frozen=True)
class Reminder:
    key: str
    kind: str  # "certification-expiring", "certification-expired", "credential-expiring",
    # "credential-expired", "roadmap-overdue"
    person: str
    name: str
    email: str | None
    due: date
    subject: str
    person_id: int | None = None

    def line(self) -> str:
        return f"{date_text(self.due)}  {self.subject}"


@dataclass
class RemindResult:
    new: list[Reminder] = field(default_factory=list)
    already_sent: int = 0
    mailed: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (recipient, error)


def _stage(days_left: int, within_days: int) -> str:
    if days_left < 0:
        return "expired"
    stage = within_days
    for s in STAGES:
        if s < within_days and days_left <= s:
            stage = s
    return f"{stage}d"


def due_reminders(
    session: Session,
    today: date,
    within_days: int = 90,
    *,
    org_id: int | None = None,
    include_sent: bool = False,
    catalog: Catalog | None = None,
) -> list[Reminder]:
    """What should be reminded today, oldest due date first (already sent ones left out
    unless ``include_sent``)."""
    catalog = catalog or load_catalog()
    out: list[Reminder] = []
    for c in expiring_certifications(session, today, within_days, org_id=org_id, include_expired=True):
        assert c.valid_until is not None
        days_left = (c.valid_until - today).days
        stage = _stage(days_left, within_days)
        cert = catalog.certifications.get(c.cert_id)
        label = cert.name if cert else c.cert_id
        expired = expiry_status(c.valid_until, today) == "expired"
        if expired:
            subject = _("{person}: {certification} expired on {date}").format(
                person=c.person.name, certification=label, date=date_text(c.valid_until)
            )
        else:
            subject = ngettext(
                "{person}: {certification} expires on {date} (in {days} day)",
                "{person}: {certification} expires on {date} (in {days} days)",
                days_left,
            ).format(person=c.person.name, certification=label, date=date_text(c.valid_until), days=days_left)
        out.append(
            Reminder(
                key=f"cert:{c.id}:{c.valid_until.isoformat()}:{stage}",
                kind="certification-expired" if expired else "certification-expiring",
                person=c.person.key,
                name=c.person.name,
                email=c.person.email,
                person_id=c.person.id,
                due=c.valid_until,
                subject=subject,
            )
        )
    from datetime import timedelta

    from gputeam.store.credentials import expiring_credentials

    for cr in expiring_credentials(
        session, today, today + timedelta(days=within_days), org_id=org_id, include_expired=True
    ):
        assert cr.valid_until is not None and cr.person is not None
        days_left = (cr.valid_until - today).days
        stage = _stage(days_left, within_days)
        cert = catalog.certifications.get(cr.achievement_id)
        label = cert.name if cert else cr.achievement_id
        when = (
            _("expired on {date}").format(date=date_text(cr.valid_until))
            if days_left < 0
            else ngettext(
                "expires on {date} (in {days} day)", "expires on {date} (in {days} days)", days_left
            ).format(date=date_text(cr.valid_until), days=days_left)
        )
        out.append(
            Reminder(
                key=f"credential:{cr.uuid}:{stage}",
                kind="credential-expired" if days_left < 0 else "credential-expiring",
                person=cr.person.key,
                name=cr.person.name,
                email=cr.person.email,
                person_id=cr.person.id,
                due=cr.valid_until,
                subject=_(
                    "{person}: the {certification} credential {when}; renewing the "
                    "certification (a re-exam for an internal one) lets the organisation "
                    "issue a new credential"
                ).format(person=cr.person.name, certification=label, when=when),
            )
        )
    for it in overdue_roadmap_items(session, today, org_id=org_id):
        out.append(
            Reminder(
                key=f"roadmap:{it.id}:{it.due.isoformat()}",
                kind="roadmap-overdue",
                person=it.person.key,
                name=it.person.name,
                email=it.person.email,
                person_id=it.person.id,
                due=it.due,
                subject=ngettext(
                    "{person}: {kind} '{title}' was due on {date} ({days} day overdue)",
                    "{person}: {kind} '{title}' was due on {date} ({days} days overdue)",
                    (today - it.due).days,
                ).format(
                    person=it.person.name,
                    kind=_(it.kind),
                    title=it.title,
                    date=date_text(it.due),
                    days=(today - it.due).days,
                ),
            )
        )
    out.sort(key=lambda r: (r.due, r.key))
    if include_sent or not out:
        return out
    sent = _sent_keys(session, [r.key for r in out])
    return [r for r in out if r.key not in sent]


def _sent_keys(session: Session, keys: Sequence[str]) -> set[str]:
    sent: set[str] = set()
    for i in range(0, len(keys), 500):
        sent.update(session.scalars(select(ReminderSent.key).where(ReminderSent.key.in_(keys[i : i + 500]))))
    return sent


class Mailer(Protocol):
    def send(self, to: str, subject: str, body: str) -> None: ...


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int = 587
    username: str | None = None
    password: str | None = None
    sender: str = "gputeam@localhost"
    starttls: bool = True
    ssl: bool = False
    fallback_to: str | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> SmtpSettings | None:
        """From ``GPUTEAM_SMTP_HOST`` (required), ``_PORT``, ``_USER``, ``_PASSWORD``,
        ``_FROM``, ``_STARTTLS`` (true/false), ``_SSL`` and ``GPUTEAM_REMIND_TO`` (for
        people without an e-mail address); ``None`` when no host is set."""
        env = os.environ if env is None else env
        host = env.get("GPUTEAM_SMTP_HOST")
        if not host:
            return None

        def flag(name: str, default: bool) -> bool:
            v = env.get(name)
            return default if v is None else v.strip().lower() in ("1", "true", "yes", "on")

        ssl = flag("GPUTEAM_SMTP_SSL", False)
        port = int(env.get("GPUTEAM_SMTP_PORT") or (465 if ssl else 587))
        return cls(
            host=host,
            port=port,
            username=env.get("GPUTEAM_SMTP_USER") or None,
            password=env.get("GPUTEAM_SMTP_PASSWORD") or None,
            sender=env.get("GPUTEAM_SMTP_FROM") or "gputeam@localhost",
            starttls=flag("GPUTEAM_SMTP_STARTTLS", port == 587 and not ssl),
            ssl=ssl,
            fallback_to=env.get("GPUTEAM_REMIND_TO") or None,
        )


class SmtpMailer:
    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings

    def send(self, to: str, subject: str, body: str) -> None:
        import smtplib
        from email.message import EmailMessage

        s = self.settings
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = s.sender, to, subject
        msg.set_content(body)
        smtp_cls = smtplib.SMTP_SSL if s.ssl else smtplib.SMTP
        with smtp_cls(s.host, s.port, timeout=30) as smtp:
            if s.starttls and not s.ssl:
                smtp.starttls()
            if s.username:
                smtp.login(s.username, s.password or "")
            smtp.send_message(msg)


def send_reminders(
    session: Session,
    today: date,
    within_days: int = 90,
    *,
    org_id: int | None = None,
    mailer: Mailer | None = None,
    fallback_to: str | None = None,
    dry_run: bool = False,
    now: datetime | None = None,
    catalog: Catalog | None = None,
) -> RemindResult:
    """Deliver the reminders not yet sent: mailed (one message per recipient) when a
    ``mailer`` is given, else just returned for listing. Delivered keys are recorded in
    the session's transaction unless ``dry_run``; a recipient whose mail fails is left
    unrecorded, so the next run tries again."""
    everything = due_reminders(session, today, within_days, org_id=org_id, include_sent=True, catalog=catalog)
    sent = _sent_keys(session, [r.key for r in everything])
    result = RemindResult(new=[r for r in everything if r.key not in sent], already_sent=len(sent))
    if dry_run or not result.new:
        return result
    now = now or utcnow()
    if mailer is None:
        session.add_all(
            ReminderSent(key=r.key, recipient=r.email, channel="list", sent_at=now) for r in result.new
        )
        session.flush()
        return result
    # each person's mail in their user account's language, if they set one (else the run's)
    languages = user_languages(session, [r.person_id for r in result.new if r.email and r.person_id])
    written: dict[str, dict[str, Reminder]] = {}

    def in_language(language: str, items: list[Reminder]) -> list[Reminder]:
        if language not in written:
            with use(language):
                again = due_reminders(
                    session, today, within_days, org_id=org_id, include_sent=True, catalog=catalog
                )
            written[language] = {r.key: r for r in again}
        return [written[language].get(r.key, r) for r in items]

    by_recipient: dict[str, list[Reminder]] = {}
    for r in result.new:
        to = r.email or fallback_to
        if to is None:
            result.failed.append((r.person, "no e-mail address (set GPUTEAM_REMIND_TO)"))
            continue
        by_recipient.setdefault(to, []).append(r)
    for to, items in sorted(by_recipient.items()):
        language = languages.get(items[0].person_id or 0) if items[0].email else None
        if language is not None and language != current():
            items = in_language(language, items)
        with use(language or current()):
            subject = (
                items[0].subject
                if len(items) == 1
                else _("gputeam: {n} reminders for {date}").format(n=len(items), date=date_text(today))
            )
            body = "\n".join(r.line() for r in items) + "\n\n-- gputeam remind\n"
        try:
            mailer.send(to, subject, body)
        except Exception as exc:  # an SMTP failure for one recipient must not stop others
            result.failed.append((to, f"{type(exc).__name__}: {exc}"))
            continue
        session.add_all(ReminderSent(key=r.key, recipient=to, channel="mail", sent_at=now) for r in items)
        result.mailed += len(items)
    session.flush()
    return result
