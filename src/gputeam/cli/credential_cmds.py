"""`gputeam credential verify`: check an Open Badges 3.0 credential offline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer


def _read_json(path: Path, what: str, jwt: bool = False) -> Any:
    """The JSON in ``path`` (or, with ``jwt``, a VC-JWT compact string), or exit 2 saying why
    it can't be read (never a traceback)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        typer.echo(f"error: {path}: cannot read the {what}: {exc.strerror or exc}", err=True)
        raise typer.Exit(2) from None
    try:
        text = raw.decode("utf-8-sig")
        if jwt:
            from gputeam.credentials.vcjwt import looks_like_jwt

            if looks_like_jwt(text):
                return text.strip()
        return json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        kind = "JSON or a VC-JWT" if jwt else "JSON"
        typer.echo(f"error: {path}: the {what} is not {kind}: {exc}", err=True)
        raise typer.Exit(2) from None


def register(app: typer.Typer) -> None:
    credential = typer.Typer(help="Open Badges 3.0 credentials: verify (offline).",
                             no_args_is_help=True)
    app.add_typer(credential, name="credential")

    @credential.command("verify")
    def verify_cmd(
        file: Annotated[Path, typer.Argument(
            help="The credential: JSON with an embedded proof, or a VC-JWT.")],
        status_list: Annotated[Path | None, typer.Option(
            "--status-list", help="The issuer's status list credential (JSON), to check "
            "revocation offline.")] = None,
        recipient: Annotated[str | None, typer.Option(
            help="Check that the credential was issued to this identifier (e.g. an e-mail "
            "address as mailto:..., or a DID).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the checks as JSON.")
                           ] = False,
    ) -> None:
        """Verify a credential: structure, proof (eddsa-rdfc-2022), validity window, status,
        recipient. Exit 0 valid, 1 invalid, 2 unreadable. Never uses the network."""
        from datetime import UTC, datetime

        from gputeam.credentials import verify

        cred = _read_json(file, "credential", jwt=True)
        listed = _read_json(status_list, "status list") if status_list else None
        if listed is not None and not isinstance(listed, dict):
            typer.echo(f"error: {status_list}: the status list is not a JSON object", err=True)
            raise typer.Exit(2)
        result = verify(cred, now=datetime.now(UTC), status_list=listed, recipient=recipient)
        if as_json:
            typer.echo(json.dumps(result.as_dict(), indent=2, ensure_ascii=False))
        else:
            for c in result.checks:
                typer.echo(f"{'ok  ' if c.ok else 'FAIL'} {c.name}: {c.message}")
            typer.echo("valid" if result.valid else "INVALID")
        raise typer.Exit(0 if result.valid else 1)
