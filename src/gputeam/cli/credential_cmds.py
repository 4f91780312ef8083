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
    if jwt and (raw.startswith(b"\x89PNG") or b"<svg" in raw[:4096]):
        from gputeam.credentials.baking import BakingError, unbake

        try:
            raw = unbake(raw).encode()
        except BakingError as exc:
            typer.echo(f"error: {path}: {exc}", err=True)
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
    credential = typer.Typer(help="Open Badges 3.0 credentials: verify (offline), bake.",
                             no_args_is_help=True)
    app.add_typer(credential, name="credential")

    @credential.command("verify")
    def verify_cmd(
        file: Annotated[Path, typer.Argument(
            help="The credential: JSON with an embedded proof, a VC-JWT, or a badge image "
            "(PNG or SVG) with either baked in.")],
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

    @credential.command("bake")
    def bake_cmd(
        file: Annotated[Path, typer.Argument(help="The credential: JSON or a VC-JWT.")],
        out: Annotated[Path, typer.Option("--out", "-o", help="The badge image to write: "
                                          "a .png or .svg file.")],
        image: Annotated[Path | None, typer.Option(
            help="Artwork to bake into (PNG or SVG, as --out); default: a plain round badge.")
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
            typer.echo(f"error: --out {out}: expected a .png or .svg file name", err=True)
            raise typer.Exit(2)
        try:
            if kind == ".png":
                art = image.read_bytes() if image else baking.badge_png()
                data = baking.bake_png(art, text)
            else:
                title = "" if is_jwt else str(cred.get("name", ""))
                svg = image.read_text(encoding="utf-8-sig") if image else baking.badge_svg(title)
                data = baking.bake_svg(svg, text, jwt=is_jwt).encode("utf-8")
        except (OSError, UnicodeDecodeError, baking.BakingError) as exc:
            typer.echo(f"error: {image or out}: {exc}", err=True)
            raise typer.Exit(2) from None
        tmp = out.with_name(out.name + ".part")
        tmp.write_bytes(data)
        tmp.replace(out)  # never a half-written badge
        typer.echo(f"wrote {out} ({len(data):,} bytes)")
