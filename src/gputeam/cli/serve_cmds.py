"""`gputeam serve`, `gputeam admin create` and `gputeam admin token`.

Module-level imports stay cheap (``gputeam --help`` must be fast): FastAPI, Uvicorn and
the store are imported inside the commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gputeam.cli.main import friendly
from gputeam.i18n import gettext as _


def exposed_dev_warning(host: str, dev: bool) -> str | None:
    """The warning for development mode on an address other machines reach, or None."""
    import ipaddress

    if not dev or host.lower() in ("localhost", "localhost."):
        return None
    try:
        if ipaddress.ip_address(host.strip("[]")).is_loopback:
            return None
    except ValueError:
        pass  # a host name: assume it is reachable
    return _(
        "WARNING: development mode (--dev / GPUTEAM_DEV) on {host}, an address other "
        "machines can reach. Development mode accepts a missing or weak secret key: "
        "anyone who can guess it can forge a login. Use --host 127.0.0.1, or set "
        "GPUTEAM_SECRET_KEY and drop --dev."
    ).format(host=host)


def register(app: typer.Typer) -> None:
    @app.command(
        "serve",
        help=_(
            "Start the web app and JSON API (the tracker). Needs GPUTEAM_SECRET_KEY (32+ random "
            "characters) unless --dev. Migrations are applied on start-up."
        ),
    )
    @friendly
    def serve(
        host: Annotated[str, typer.Option(help=_("Address to listen on."))] = "127.0.0.1",
        port: Annotated[int, typer.Option(help=_("Port to listen on."))] = 8000,
        db: Annotated[
            str | None,
            typer.Option(
                help=_(
                    "Database URL (sqlite:///file.db or postgresql://...); default "
                    "$GPUTEAM_DB, else the embedded SQLite file."
                )
            ),
        ] = None,
        workers: Annotated[
            int, typer.Option(min=1, help=_("Worker processes (they share nothing but the database)."))
        ] = 1,
        dev: Annotated[
            bool,
            typer.Option("--dev", help=_("Development mode: allows running without GPUTEAM_SECRET_KEY.")),
        ] = False,
        catalog_extra: Annotated[
            Path | None, typer.Option(help=_("Extra catalog file applied to the catalog."))
        ] = None,
        forwarded_allow_ips: Annotated[
            str, typer.Option(help=_("Proxies trusted for X-Forwarded-Proto/For (comma-separated)."))
        ] = "127.0.0.1",
    ) -> None:
        """Start the web app and JSON API (the tracker).

        Needs GPUTEAM_SECRET_KEY (32+ random characters) unless --dev. Migrations are
        applied on start-up.
        """
        import os

        import uvicorn

        from gputeam.web.settings import load_settings

        settings = load_settings(
            db=db, dev=dev or None, catalog_extra=str(catalog_extra) if catalog_extra else None
        )
        if (warning := exposed_dev_warning(host, settings.dev)) is not None:
            typer.secho(warning, err=True, fg=typer.colors.RED, bold=True)
        from gputeam.store import open_database

        database = open_database(settings.db)  # create and migrate before serving
        typer.echo(
            "gputeam: "
            + _("database {url}; listening on {address}").format(
                url=database.url, address=f"http://{host}:{port}/"
            ),
            err=True,
        )
        database.dispose()
        common = {
            "host": host,
            "port": port,
            "proxy_headers": True,
            "forwarded_allow_ips": forwarded_allow_ips,
            "log_level": "info",
        }
        if workers == 1:
            from gputeam.web import create_app

            uvicorn.run(create_app(settings), **common)  # type: ignore[arg-type]
            return
        # each worker builds its own app from the same (validated) settings; in development
        # mode without a key, one random key shared by the workers keeps sessions valid
        import secrets

        values = settings.model_dump()
        values["secret_key"] = values["secret_key"] or secrets.token_urlsafe(48)
        for name, value in values.items():
            if value is not None:
                os.environ[f"GPUTEAM_{name.upper()}"] = str(value)
        uvicorn.run("gputeam.web:create_app_from_env", factory=True, workers=workers, **common)  # type: ignore[arg-type]

    admin = typer.Typer(help=_("Administer users of the tracker."), no_args_is_help=True)
    app.add_typer(admin, name="admin")

    @admin.command("create", help=_("Create a user; the first admin is made this way."))
    @friendly
    def create(
        username: Annotated[str, typer.Argument(help=_("Login name."))],
        password: Annotated[
            str | None,
            typer.Option(
                help=_(
                    "Password (8+ characters); prompted for when omitted. "
                    "$GPUTEAM_ADMIN_PASSWORD is used if set."
                ),
                envvar="GPUTEAM_ADMIN_PASSWORD",
            ),
        ] = None,
        role: Annotated[str, typer.Option(help=_("admin, manager, engineer or viewer."))] = "admin",
        db: Annotated[str | None, typer.Option(help=_("Database URL (default as for serve)."))] = None,
    ) -> None:
        """Create a user; the first admin is made this way."""
        from gputeam.store import create_user, open_database

        if password is None:
            password = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
        database = open_database(db)
        try:
            with database.session() as s:
                user = create_user(s, username, password, role, actor="cli")
                uid = user.id
        finally:
            database.dispose()
        typer.echo(
            _("created {role} {username} (id {id}) in {url}").format(
                role=role, username=repr(username), id=uid, url=database.url
            )
        )

    @admin.command(
        "token",
        help=_(
            "Print a new API token for USER once (for scripts and calendar URLs); it is stored only as a "
            "digest, so it cannot be shown again. Revoke it on the account page."
        ),
    )
    @friendly
    def token(
        username: Annotated[str, typer.Argument(help=_("The user the token acts for."))],
        scope: Annotated[
            str,
            typer.Option(
                help=_("read (GET only), write (read and write) or admin (everything; admins only).")
            ),
        ] = "read",
        name: Annotated[str, typer.Option(help=_("A label shown on the account page."))] = "cli",
        expires: Annotated[
            str,
            typer.Option(
                help=_(
                    "How long the token lives: days or weeks (30d, 90d, 12w) or never "
                    "(not advised: a leaked token then works until revoked)."
                )
            ),
        ] = "90d",  # store.DEFAULT_TOKEN_DAYS (a test holds them equal; the store is not imported here)
        db: Annotated[str | None, typer.Option(help=_("Database URL (default as for serve)."))] = None,
    ) -> None:
        """Print a new API token for USER once (for scripts and calendar URLs); it is stored
        only as a digest, so it cannot be shown again. Revoke it on the account page."""
        from datetime import UTC, datetime

        from gputeam.store import create_token, get_user_by_username, open_database, token_lifetime
        from gputeam.web.permissions import SCOPES, allowed_scopes

        if scope not in SCOPES:
            raise typer.BadParameter(
                _("{scope} is not a scope; expected one of {scopes}").format(
                    scope=repr(scope), scopes=", ".join(SCOPES)
                ),
                param_hint="--scope",
            )
        scopes = SCOPES[: SCOPES.index(scope) + 1]  # each scope includes the ones before it
        if not name.strip():
            raise typer.BadParameter(_("a token needs a non-empty name"), param_hint="--name")
        lifetime = token_lifetime(expires)
        now = datetime.now(UTC)
        expires_at = None if lifetime is None else now + lifetime
        database = open_database(db)
        try:
            with database.session() as s:
                user = get_user_by_username(s, username)
                if user is None or not user.active:
                    raise typer.BadParameter(
                        _("no active user {username} in {url}").format(
                            username=repr(username), url=database.url
                        ),
                        param_hint="USERNAME",
                    )
                if scope not in allowed_scopes(user.role):
                    raise typer.BadParameter(
                        _("a {role} may not hold {scope} tokens; allowed: {scopes}").format(
                            role=user.role, scope=repr(scope), scopes=", ".join(allowed_scopes(user.role))
                        ),
                        param_hint="--scope",
                    )
                _unused, secret = create_token(
                    s, user.id, name.strip(), scopes, expires_at=expires_at, actor="cli", now=now
                )
        finally:
            database.dispose()
        typer.echo(secret)
        typer.echo(
            _("token {name} for {username} with scopes {scopes}; shown once, keep it safe").format(
                name=repr(name.strip()), username=username, scopes=", ".join(scopes)
            )
            + " "
            + (
                _("It expires on {date}.").format(date=expires_at.date().isoformat())
                if expires_at is not None
                else _("warning: it never expires; revoke it on the account page when no longer needed.")
            ),
            err=True,
        )
