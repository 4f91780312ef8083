"""`gputeam credential verify`: check an Open Badges 3.0 credential offline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from gputeam.cli.tracker_cmds import DbOption, OrgOption
from gputeam.i18n import N_
from gputeam.i18n import gettext as _
from gputeam.i18n.messages import translate

BaseUrl = Annotated[
    str | None,
    typer.Option("--base-url", help=_("The tracker's public address (default $GPUTEAM_PUBLIC_URL).")),
]


def _read_json(path: Path, what: str, jwt: bool = False) -> Any:
    """The JSON in ``path`` (or, with ``jwt``, a VC-JWT compact string), or exit 2 saying why
    it can't be read (never a traceback)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        message = _("cannot read the {what}: {error}").format(what=_(what), error=exc.strerror or exc)
        typer.echo(_("error:") + f" {path}: {message}", err=True)
        raise typer.Exit(2) from None
    if jwt and (raw.startswith(b"\x89PNG") or b"<svg" in raw[:4096]):
        from gputeam.credentials.baking import BakingError, unbake

        try:
            raw = unbake(raw).encode()
        except BakingError as exc:
            typer.echo(_("error:") + f" {path}: {translate(str(exc))}", err=True)
            raise typer.Exit(2) from None
    from gputeam.credentials import jsontext

    try:
        text = raw.decode("utf-8-sig")
        if jwt:
            from gputeam.credentials.vcjwt import looks_like_jwt

            if looks_like_jwt(text):
                return text.strip()
        return jsontext.loads(text)
    except jsontext.TooDeep as exc:
        typer.echo(_("error:") + f" {path}: {translate(str(exc))}", err=True)
        raise typer.Exit(2) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        message = (
            _("the {what} is not JSON or a VC-JWT: {error}") if jwt else _("the {what} is not JSON: {error}")
        ).format(what=_(what), error=exc)
        typer.echo(_("error:") + f" {path}: {message}", err=True)
        raise typer.Exit(2) from None


def register(app: typer.Typer) -> None:
    from gputeam.cli.main import friendly

    credential = typer.Typer(
        help=_("Open Badges 3.0 credentials: issue, verify (offline), bake, revoke."), no_args_is_help=True
    )
    app.add_typer(credential, name="credential")
    register_admin(credential)

    @credential.command(
        "verify",
        help=_(
            "Verify a credential: structure, proof (eddsa-rdfc-2022), validity window, status, "
            "recipient. Exit 0 valid, 1 invalid, 2 unreadable. Never uses the network."
        ),
    )
    @friendly
    def verify_cmd(
        file: Annotated[
            Path,
            typer.Argument(
                help=_(
                    "The credential: JSON with an embedded proof, a VC-JWT, or a badge image "
                    "(PNG or SVG) with either baked in."
                )
            ),
        ],
        status_list: Annotated[
            Path | None,
            typer.Option(
                "--status-list",
                help=_(
                    "The issuer's status list credential (JSON, or a VC-JWT), to check revocation offline."
                ),
            ),
        ] = None,
        recipient: Annotated[
            str | None,
            typer.Option(
                help=_(
                    "Check that the credential was issued to this identifier (e.g. an e-mail "
                    "address as mailto:..., or a DID)."
                )
            ),
        ] = None,
        did_document: Annotated[
            list[Path] | None,
            typer.Option(
                "--did-document",
                help=_(
                    "A did:web issuer's DID document (JSON; its did.json), to verify offline. "
                    "Repeatable. A did:web without one is refused, never fetched."
                ),
            ),
        ] = None,
        db: Annotated[
            str | None,
            typer.Option(
                "--db",
                help=_(
                    "Also resolve this tracker's own did:web (of $GPUTEAM_PUBLIC_URL) from the "
                    "issuing keys in this database."
                ),
            ),
        ] = None,
        org: OrgOption = None,
        as_json: Annotated[bool, typer.Option("--json", help=_("Print the checks as JSON."))] = False,
    ) -> None:
        """Verify a credential: structure, proof (eddsa-rdfc-2022), validity window, status,
        recipient. Exit 0 valid, 1 invalid, 2 unreadable. Never uses the network."""
        from datetime import UTC, datetime

        from gputeam.credentials import verify

        cred = _read_json(file, N_("credential"), jwt=True)
        listed = _read_json(status_list, N_("status list"), jwt=True) if status_list else None
        if listed is not None and not isinstance(listed, (dict, str)):
            typer.echo(
                _("error:") + f" {status_list}: " + _("the status list is not a JSON object"), err=True
            )
            raise typer.Exit(2)
        documents = {}
        for path in did_document or []:
            doc = _read_json(path, N_("DID document"))
            if not isinstance(doc, dict) or not isinstance(doc.get("id"), str):
                typer.echo(
                    _("error:") + f" {path}: " + _("a DID document is a JSON object with an id"), err=True
                )
                raise typer.Exit(2)
            documents[doc["id"]] = doc
        if db is not None:
            documents.update(_own_did_document(db, org))
        result = verify(
            cred, now=datetime.now(UTC), status_list=listed, recipient=recipient, did_documents=documents
        )

        if as_json:  # names and ok are identifiers; messages in the chosen language
            typer.echo(json.dumps(result.as_dict(translate), indent=2, ensure_ascii=False))
        else:
            for c in result.checks:
                typer.echo(f"{'ok  ' if c.ok else 'FAIL'} {translate(c.name)}: {c.text(translate)}")
            typer.echo(_("valid") if result.valid else _("INVALID"))
        raise typer.Exit(0 if result.valid else 1)

    @credential.command(
        "bake",
        help=_(
            "Bake a credential into a badge image (Open Badges 3.0 baking), so the image carries its own "
            "proof: `gputeam credential verify badge.png` reads it back."
        ),
    )
    @friendly
    def bake_cmd(
        file: Annotated[Path, typer.Argument(help=_("The credential: JSON or a VC-JWT."))],
        out: Annotated[
            Path, typer.Option("--out", "-o", help=_("The badge image to write: a .png or .svg file."))
        ],
        image: Annotated[
            Path | None,
            typer.Option(
                help=_("Artwork to bake into (PNG or SVG, as --out); default: a plain round badge.")
            ),
        ] = None,
    ) -> None:
        """Bake a credential into a badge image (Open Badges 3.0 baking), so the image carries
        its own proof: `gputeam credential verify badge.png` reads it back."""
        from gputeam.credentials import baking

        cred = _read_json(file, "credential", jwt=True)
        is_jwt = isinstance(cred, str)
        text = cred if is_jwt else json.dumps(cred, ensure_ascii=False)
        kind = out.suffix.lower()
        if kind not in (".png", ".svg"):
            typer.echo(_("error:") + f" --out {out}: " + _("expected a .png or .svg file name"), err=True)
            raise typer.Exit(2)
        try:
            if kind == ".png":
                art = image.read_bytes() if image else baking.badge_png()
                data = baking.bake_png(art, text)
            else:
                title = "" if is_jwt else str(cred.get("name", ""))
                svg = image.read_text(encoding="utf-8-sig") if image else baking.badge_svg(title)
                data = baking.bake_svg(svg, text, jwt=is_jwt).encode("utf-8")
        except baking.BakingError as exc:
            typer.echo(_("error:") + f" {image or out}: {translate(str(exc))}", err=True)
            raise typer.Exit(2) from None
        except (OSError, UnicodeDecodeError) as exc:
            typer.echo(_("error:") + f" {image or out}: {exc}", err=True)
            raise typer.Exit(2) from None
        tmp = out.with_name(out.name + ".part")
        tmp.write_bytes(data)
        tmp.replace(out)  # never a half-written badge
        typer.echo(_("wrote {file} ({size} bytes)").format(file=out, size=f"{len(data):,}"))


def _secret() -> str:
    """The server's secret (issuing keys are sealed with it): the same GPUTEAM_SECRET_KEY as
    `gputeam serve`, checked the same way, and required even in development mode (a random
    per-process secret would lose the keys)."""
    import os

    from gputeam.web.settings import MIN_SECRET_LENGTH, check_secret_key

    secret = os.environ.get("GPUTEAM_SECRET_KEY", "")
    if not secret:
        typer.echo(
            _("error:")
            + " "
            + _(
                "GPUTEAM_SECRET_KEY is not set: issuing keys are sealed with the server's secret; "
                "set it to the value `gputeam serve` uses ({length}+ random characters)"
            ).format(length=MIN_SECRET_LENGTH),
            err=True,
        )
        raise typer.Exit(2)
    check_secret_key(secret)  # the rule `gputeam serve` applies
    return secret


def _base_url(given: str | None) -> str:
    import os

    url = (given or os.environ.get("GPUTEAM_PUBLIC_URL") or "").rstrip("/")
    if not url.startswith(("https://", "http://")):
        typer.echo(
            _("error:")
            + " --base-url: "
            + _(
                "give the address users reach the tracker at (or set GPUTEAM_PUBLIC_URL), "
                "e.g. https://gputeam.example.org"
            ),
            err=True,
        )
        raise typer.Exit(2)
    return url


def _own_did_document(db: str, org: str | None) -> dict[str, Any]:
    """``{did: document}`` of the tracker's own did:web (``$GPUTEAM_PUBLIC_URL``), from the
    issuing keys in the database ``db``; exit 2 when that address is not set or not https."""
    import os

    from gputeam.cli.tracker_cmds import _org_id
    from gputeam.credentials import DidWebError, did_web
    from gputeam.errors import InputError
    from gputeam.store import did_document, open_database

    try:
        did = did_web((os.environ.get("GPUTEAM_PUBLIC_URL") or "").rstrip("/"))
    except DidWebError as exc:
        typer.echo(
            _("error:")
            + " --db: "
            + _("set GPUTEAM_PUBLIC_URL to the tracker's address: {reason}").format(reason=exc),
            err=True,
        )
        raise typer.Exit(2) from None
    database = open_database(db)
    try:
        with database.session() as s:
            return {did: did_document(s, _org_id(s, org, create=False), did)}
    except InputError as exc:
        typer.echo(_("error:") + " --db: " + "; ".join(p.localised().message for p in exc.problems), err=True)
        raise typer.Exit(2) from None
    finally:
        database.dispose()


def _issuer_did(url: str) -> str | None:
    """The did:web of ``url`` when GPUTEAM_ISSUER_DID=web (as for the server), else None."""
    import os

    if os.environ.get("GPUTEAM_ISSUER_DID", "key") != "web":
        return None
    from gputeam.credentials import DidWebError, did_web

    try:
        return did_web(url)
    except DidWebError as exc:
        typer.echo(_("error:") + f" GPUTEAM_ISSUER_DID=web: {exc}", err=True)
        raise typer.Exit(2) from None


def register_admin(credential: typer.Typer) -> None:
    from gputeam.cli.main import friendly
    from gputeam.cli.tracker_cmds import _actor, _org_id

    @credential.command(
        "issue",
        help=_(
            "Issue an Open Badges 3.0 credential for a certification a person holds (for records kept "
            "before gputeam issued credentials). Signed with the organisation's key (created on first "
            "use, sealed with GPUTEAM_SECRET_KEY); audited."
        ),
    )
    @friendly
    def issue_cmd(
        person: Annotated[str, typer.Option(help=_("The person's id (key) in the roster."))],
        achievement: Annotated[
            str,
            typer.Option(
                help=_(
                    "The catalog certification the credential attests; the person must hold it, valid today."
                )
            ),
        ],
        out: Annotated[
            Path | None, typer.Option(help=_("Write the credential here (default: standard output)."))
        ] = None,
        format: Annotated[
            str, typer.Option(help=_("json (embedded eddsa-rdfc-2022 proof) or jwt (VC-JWT)."))
        ] = "json",
        base_url: BaseUrl = None,
        catalog_extra: Annotated[Path | None, typer.Option(help=_("Extra catalog file."))] = None,
        db: DbOption = None,
        org: OrgOption = None,
    ) -> None:
        """Issue an Open Badges 3.0 credential for a certification a person holds (for
        records kept before gputeam issued credentials). Signed with the organisation's key
        (created on first use, sealed with GPUTEAM_SECRET_KEY); audited."""
        from datetime import UTC, datetime

        from gputeam.cli.common import load_catalog_file
        from gputeam.errors import InputError, Problem
        from gputeam.store import get_person_by_key, issue_credential, open_database

        if format not in ("json", "jwt"):
            raise InputError(
                [
                    Problem(
                        path="--format",
                        message=_("unknown format"),
                        found=repr(format),
                        expected="json or jwt",
                    )
                ]
            )
        secret, url = _secret(), _base_url(base_url)
        catalog = load_catalog_file(catalog_extra)
        database = open_database(db)
        try:
            with database.sessions() as s:
                org_id = _org_id(s, org, create=False)
                p = get_person_by_key(s, org_id, person)
                if p is None:
                    raise InputError(
                        [
                            Problem(
                                path="--person",
                                message=_("no such person"),
                                found=person,
                                expected="a roster id",
                            )
                        ]
                    )
                row = issue_credential(
                    s,
                    org_id,
                    p.id,
                    achievement,
                    catalog=catalog,
                    secret=secret,
                    base_url=url,
                    now=datetime.now(UTC),
                    actor=_actor(),
                    issuer_did=_issuer_did(url),
                )
                document, uuid = dict(row.document), row.uuid
                token = _as_jwt(s, org_id, document, secret) if format == "jwt" else None
                s.commit()
        finally:
            database.dispose()
        text = token if token else json.dumps(document, indent=2, ensure_ascii=False)
        if out is None:
            typer.echo(text)
        else:
            tmp = out.with_name(out.name + ".part")
            tmp.write_text(text + "\n", encoding="utf-8")
            tmp.replace(out)
        typer.echo(
            _("issued credential {id} to {person} ({achievement})").format(
                id=uuid, person=person, achievement=achievement
            ),
            err=True,
        )

    @credential.command(
        "revoke",
        help=_(
            "Revoke a credential: its bit is set in the issuer's status list, which verifiers then see; "
            "audited; cannot be undone."
        ),
    )
    @friendly
    def revoke_cmd(
        uuid: Annotated[str, typer.Argument(help=_("The credential's id (the UUID in urn:uuid:…)."))],
        reason: Annotated[str, typer.Option(help=_("Why (kept in the audit log)."))],
        db: DbOption = None,
        org: OrgOption = None,
    ) -> None:
        """Revoke a credential: its bit is set in the issuer's status list, which verifiers
        then see; audited; cannot be undone."""
        from datetime import UTC, datetime

        from gputeam.store import open_database, revoke_credential

        database = open_database(db)
        try:
            with database.sessions() as s:
                revoke_credential(
                    s,
                    _org_id(s, org, create=False),
                    uuid.removeprefix("urn:uuid:"),
                    reason,
                    now=datetime.now(UTC),
                    actor=_actor(),
                )
                s.commit()
        finally:
            database.dispose()
        typer.echo(_("revoked {id}").format(id=uuid))

    @credential.command(
        "rotate-key",
        help=_(
            "Retire the organisation's issuing key and make a new one (a new did:key). The old key is "
            "kept, sealed, so what it signed still verifies and can still be revoked in its status list; "
            "new credentials are signed with the new key. Audited."
        ),
    )
    @friendly
    def rotate_cmd(db: DbOption = None, org: OrgOption = None) -> None:
        """Retire the organisation's issuing key and make a new one (a new did:key). The old
        key is kept, sealed, so what it signed still verifies and can still be revoked in its
        status list; new credentials are signed with the new key. Audited."""
        from datetime import UTC, datetime

        from gputeam.store import open_database, rotate_issuer_key

        secret = _secret()
        database = open_database(db)
        try:
            with database.sessions() as s:
                key = rotate_issuer_key(
                    s, _org_id(s, org, create=False), secret, actor=_actor(), now=datetime.now(UTC)
                )
                did, key_id = key.did, key.id
                s.commit()
        finally:
            database.dispose()
        typer.echo(_("new issuing key {key}: {did}").format(key=key_id, did=did))

    @credential.command(
        "status-list",
        help=_(
            "Print the signed status list of an issuing key (for `credential verify --status-list`, or "
            "to publish it)."
        ),
    )
    @friendly
    def status_cmd(
        key: Annotated[
            int,
            typer.Argument(
                help=_("The issuing key's number (the last part of a credential's statusListCredential).")
            ),
        ],
        out: Annotated[Path | None, typer.Option(help=_("Write it here (default: stdout)."))] = None,
        format: Annotated[
            str, typer.Option(help=_("json (embedded eddsa-rdfc-2022 proof) or jwt (VC-JWT)."))
        ] = "json",
        base_url: BaseUrl = None,
        db: DbOption = None,
    ) -> None:
        """Print the signed status list of an issuing key (for `credential verify
        --status-list`, or to publish it)."""
        from datetime import UTC, datetime

        from gputeam.errors import InputError, Problem
        from gputeam.store import open_database, status_list, status_list_jwt

        if format not in ("json", "jwt"):
            raise InputError(
                [
                    Problem(
                        path="--format",
                        message=_("unknown format"),
                        found=repr(format),
                        expected="json or jwt",
                    )
                ]
            )
        secret, url = _secret(), _base_url(base_url)
        build = status_list if format == "json" else status_list_jwt
        database = open_database(db)
        try:
            with database.session() as s:
                doc = build(s, key, secret, base_url=url, now=datetime.now(UTC), issuer_did=_issuer_did(url))
        finally:
            database.dispose()
        text = doc if isinstance(doc, str) else json.dumps(doc, indent=2)
        if out is None:
            typer.echo(text)
        else:
            out.write_text(text + "\n", encoding="utf-8")


def _as_jwt(session: Any, org_id: int, document: dict[str, Any], secret: str) -> str:
    from gputeam.credentials.vcjwt import encode
    from gputeam.store import current_issuer_key

    _unused, key = current_issuer_key(session, org_id, secret)
    return encode(document, key)
