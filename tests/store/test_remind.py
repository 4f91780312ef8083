"""Reminders: expiring and expired certifications, overdue roadmap items; idempotent."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from gputeam.store import (
    Database,
    SmtpSettings,
    add_certification,
    add_person,
    add_roadmap_item,
    due_reminders,
    list_people,
    send_reminders,
)

TODAY = date(2026, 12, 2)


@dataclass
class FakeMailer:
    sent: list[tuple[str, str, str]] = field(default_factory=list)
    fail_for: set[str] = field(default_factory=set)

    def send(self, to: str, subject: str, body: str) -> None:
        if to in self.fail_for:
            raise ConnectionError("mail server said no")
        self.sent.append((to, subject, body))


def seed(db: Database, org_id: int) -> None:
    with db.session() as s:
        ana = add_person(s, org_id, key="p1", name="Ana", email="ana@example.org").id
        bo = add_person(s, org_id, key="p2", name="Bo").id
        add_certification(s, ana, "cka", date(2025, 1, 20), date(2027, 1, 20))  # 49 days
        add_certification(s, ana, "nca-aiio", date(2024, 1, 1), date(2028, 1, 1))  # far
        add_certification(s, bo, "ncp-aii", date(2024, 1, 1), date(2026, 11, 1))  # expired
        add_roadmap_item(
            s,
            bo,
            kind="exam",
            ref="ncp-ain",
            title="NCP-AIN exam",
            start=date(2026, 10, 1),
            due=date(2026, 11, 20),
        )  # overdue
        add_roadmap_item(
            s, bo, kind="course", ref="c", title="Later", start=date(2026, 12, 1), due=date(2027, 1, 20)
        )  # not yet due


def test_remind_lists_then_sends_nothing_new(db: Database, org_id: int) -> None:
    seed(db, org_id)
    with db.session() as s:
        due = due_reminders(s, TODAY, 60, org_id=org_id)
    assert [r.kind for r in due] == ["certification-expired", "roadmap-overdue", "certification-expiring"]
    with db.session() as s:
        dry = send_reminders(s, TODAY, 60, org_id=org_id, dry_run=True)
    assert len(dry.new) == 3
    with db.session() as s:
        first = send_reminders(s, TODAY, 60, org_id=org_id)
    assert len(first.new) == 3 and first.already_sent == 0
    with db.session() as s:
        second = send_reminders(s, TODAY, 60, org_id=org_id)
    assert second.new == [] and second.already_sent == 3
    # at 30 days the expiring certificate reaches a new stage: one new reminder
    with db.session() as s:
        later = send_reminders(s, date(2026, 12, 25), 60, org_id=org_id)
    assert [r.kind for r in later.new] == ["certification-expiring"]


def test_mail_is_grouped_per_recipient_and_failures_retry(db: Database, org_id: int) -> None:
    seed(db, org_id)
    mailer = FakeMailer(fail_for={"team@example.org"})
    with db.session() as s:
        result = send_reminders(s, TODAY, 60, org_id=org_id, mailer=mailer, fallback_to="team@example.org")
    assert [m[0] for m in mailer.sent] == ["ana@example.org"]
    assert "expires on 2027-01-20" in mailer.sent[0][1]
    assert result.mailed == 1 and result.failed[0][0] == "team@example.org"
    mailer.fail_for.clear()
    with db.session() as s:
        retry = send_reminders(s, TODAY, 60, org_id=org_id, mailer=mailer, fallback_to="team@example.org")
    assert retry.mailed == 2 and mailer.sent[-1][0] == "team@example.org"
    assert "2 reminders" in mailer.sent[-1][1]
    with db.session() as s:
        assert send_reminders(s, TODAY, 60, org_id=org_id, mailer=mailer).new == []
    assert len(mailer.sent) == 2


def test_smtp_settings_from_env() -> None:
    assert SmtpSettings.from_env({}) is None
    s = SmtpSettings.from_env(
        {"GPUTEAM_SMTP_HOST": "mail", "GPUTEAM_SMTP_PORT": "25", "GPUTEAM_SMTP_FROM": "gt@example.org"}
    )
    assert s is not None and (s.host, s.port, s.starttls, s.sender) == ("mail", 25, False, "gt@example.org")
    tls = SmtpSettings.from_env({"GPUTEAM_SMTP_HOST": "mail"})
    assert tls is not None and tls.port == 587 and tls.starttls


class _SmtpHandler:
    """Just enough SMTP (RFC 5321) for smtplib to deliver a message."""

    received: list[tuple[list[str], str]] = []


def _smtp_server() -> tuple[object, int]:
    import socketserver
    import threading

    class Handler(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            def say(line: str) -> None:
                self.wfile.write((line + "\r\n").encode())

            say("220 localhost fake SMTP")
            rcpt: list[str] = []
            while raw := self.rfile.readline():
                cmd = raw.decode().strip()
                verb = cmd.split(" ", 1)[0].upper()
                if verb in ("EHLO", "HELO"):
                    say("250 localhost")
                elif verb == "MAIL":
                    rcpt = []
                    say("250 OK")
                elif verb == "RCPT":
                    rcpt.append(cmd.split(":", 1)[1].strip(" <>"))
                    say("250 OK")
                elif verb == "DATA":
                    say("354 end with .")
                    lines = []
                    while (line := self.rfile.readline().decode()) not in (".\r\n", ""):
                        lines.append(line)
                    _SmtpHandler.received.append((rcpt, "".join(lines)))
                    say("250 OK")
                elif verb == "QUIT":
                    say("221 bye")
                    return
                else:
                    say("250 OK")

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def test_smtp_mailer_delivers_to_a_real_smtp_server(db: Database, org_id: int) -> None:
    from gputeam.store import SmtpMailer

    server, port = _smtp_server()
    _SmtpHandler.received.clear()
    try:
        seed(db, org_id)
        settings = SmtpSettings.from_env(
            {
                "GPUTEAM_SMTP_HOST": "127.0.0.1",
                "GPUTEAM_SMTP_PORT": str(port),
                "GPUTEAM_SMTP_STARTTLS": "false",
                "GPUTEAM_REMIND_TO": "team@example.org",
            }
        )
        assert settings is not None
        with db.session() as s:
            result = send_reminders(
                s, TODAY, 60, org_id=org_id, mailer=SmtpMailer(settings), fallback_to=settings.fallback_to
            )
        assert result.mailed == 3 and not result.failed
        assert sorted(r[0][0] for r in _SmtpHandler.received) == ["ana@example.org", "team@example.org"]
        assert any("expires on 2027-01-20" in body for _, body in _SmtpHandler.received)
    finally:
        server.shutdown()  # type: ignore[attr-defined]


def test_reminders_in_the_language(db: Database, org_id: int) -> None:
    """`gputeam remind --lang`: the subjects (and so the mails) in the active language."""
    from gputeam import i18n

    seed(db, org_id)
    with db.session() as s, i18n.use("de"):
        due = due_reminders(s, TODAY, 60, org_id=org_id)
    subjects = [r.subject for r in due]
    assert subjects[0].startswith("Bo: ") and "ist am 1.11.2026 abgelaufen" in subjects[0]
    assert "(12 Tage überfällig)" in subjects[1] and "Prüfung 'NCP-AIN exam'" in subjects[1]
    assert "läuft am 20.1.2027 ab (in 49 Tagen)" in subjects[2]
    with i18n.use("de"):
        assert due[2].line().startswith("20.1.2027  Ana: ")
    with db.session() as s, i18n.use("de"):  # one day left: the singular
        one = due_reminders(s, date(2027, 1, 19), 60, org_id=org_id)
    assert any("läuft am 20.1.2027 ab (in 1 Tag)" in r.subject for r in one)
    with db.session() as s, i18n.use("ko"):
        korean = [r.subject for r in due_reminders(s, TODAY, 60, org_id=org_id)]
    assert "2026. 11. 1." in korean[0] and "2027. 1. 20.에 만료 예정(49일 후)" in korean[2]
    assert "(12일 초과)" in korean[1]
    with db.session() as s:  # English: ISO dates, as before
        english = [r.subject for r in due_reminders(s, TODAY, 60, org_id=org_id)]
    assert "expires on 2027-01-20 (in 49 days)" in english[2]


def test_reminder_mail_in_the_language(db: Database, org_id: int) -> None:
    """`gputeam remind --lang ko`: the mail's subject and its lines, dates in the language."""
    from gputeam import i18n

    seed(db, org_id)
    mailer = FakeMailer()
    with db.session() as s, i18n.use("ko"):
        send_reminders(s, TODAY, 60, org_id=org_id, mailer=mailer, fallback_to="team@example.org")
    (ana,) = [m for m in mailer.sent if m[0] == "ana@example.org"]
    assert ana[1] == "Ana: Certified Kubernetes Administrator (CKA)가 2027. 1. 20.에 만료 예정(49일 후)"
    assert ana[2].startswith("2027. 1. 20.  Ana: ")


def test_reminder_mail_in_the_recipients_own_language(db: Database, org_id: int) -> None:
    """A person whose user account has a language (the account page's setting) gets their
    mail in it whatever the run's language; the others, and the fallback address, in the
    run's; the listing is the run's too."""
    from gputeam import i18n
    from gputeam.store import create_user, set_user_language

    seed(db, org_id)
    with db.session() as s:
        person = {p.key: p.id for p in list_people(s, org_id)}
        user = create_user(s, "ana", "correct horse battery", "engineer", person_id=person["p1"])
        set_user_language(s, user.id, "de_DE", actor="ana")
        assert user.language == "de"
    mailer = FakeMailer()
    with db.session() as s, i18n.use("ko"):
        result = send_reminders(s, TODAY, 60, org_id=org_id, mailer=mailer, fallback_to="team@example.org")
        listed = [r.subject for r in result.new]
    by_to = {to: (subject, body) for to, subject, body in mailer.sent}
    subject, body = by_to["ana@example.org"]
    assert "läuft am 20.1.2027 ab (in 49 Tagen)" in subject and body.startswith("20.1.2027  Ana: ")
    team_subject, team_body = by_to["team@example.org"]
    assert "2026. 12. 2." in team_subject and "2026. 11. 1." in team_body  # the run's Korean
    assert any("2027. 1. 20." in s for s in listed) and i18n.current() == "en"


def test_a_users_language_is_checked_and_can_be_cleared(db: Database, org_id: int) -> None:
    import pytest

    from gputeam.errors import InputError
    from gputeam.store import create_user, find_caller, set_user_language, start_session, user_languages

    with db.session() as s:
        ana = add_person(s, org_id, key="p1", name="Ana").id
        user = create_user(s, "ana", "correct horse battery", "engineer", person_id=ana)
        with pytest.raises(InputError) as bad:
            set_user_language(s, user.id, "fr")
        assert str(bad.value) == "language: unknown language; found 'fr'; expected en, de, nl, es, ko"
        with pytest.raises(InputError):
            set_user_language(s, user.id, "xx")  # the tests' pseudo-locale is not offered
        set_user_language(s, user.id, "KO")
        start_session(s, user.id, "sid-1", expires_at=datetime(2030, 1, 1, tzinfo=UTC))
    with db.session() as s:
        caller = find_caller(s, sid="sid-1")
        assert caller is not None and caller.language == "ko"
        assert user_languages(s, [ana]) == {ana: "ko"}
        set_user_language(s, user.id, None)
    with db.session() as s:
        assert user_languages(s, [ana]) == {}
        caller = find_caller(s, sid="sid-1")
        assert caller is not None and caller.language is None
