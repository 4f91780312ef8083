"""Baking (OB 3.0): the credential travels inside its PNG or SVG badge and verifies from it."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gputeam.cli.main import app
from gputeam.credentials import baking
from gputeam.credentials.vcjwt import encode

from .test_verify import KEY, _issued

runner = CliRunner()


def _itxt_chunks(png: bytes) -> list[bytes]:
    """The iTXt chunks of a PNG, read here with the PNG layout written out (no gputeam code)."""
    out, pos = [], 8
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos : pos + 8])
        data = png[pos + 8 : pos + 8 + length]
        assert struct.unpack(">I", png[pos + 8 + length : pos + 12 + length])[0] == zlib.crc32(kind + data)
        if kind == b"iTXt":
            out.append(data)
        pos += 12 + length
    return out


def test_png_round_trip_one_uncompressed_chunk() -> None:
    text = json.dumps(_issued())
    baked = baking.bake_png(baking.badge_png(), text)
    chunks = _itxt_chunks(baked)
    assert len(chunks) == 1
    assert chunks[0].startswith(b"openbadgecredential\0\0\0")  # keyword, not compressed
    assert baking.unbake(baked) == text
    rebaked = baking.bake_png(baked, "second")
    assert len(_itxt_chunks(rebaked)) == 1 and baking.unbake(rebaked) == "second"
    assert baked[-12:] == b"\0\0\0\0IEND\xaeB`\x82"


def test_svg_round_trip_json_and_jwt() -> None:
    text = json.dumps(_issued())
    svg = baking.bake_svg(baking.badge_svg("ACME Operator <L2>"), text)
    assert 'xmlns:openbadges="https://purl.imsglobal.org/ob/v3p0"' in svg
    assert baking.unbake(svg.encode()) == text
    token = encode(_issued(), KEY)
    jsvg = baking.bake_svg(svg, token, jwt=True)
    assert jsvg.count("<openbadges:credential") == 1 and baking.unbake(jsvg.encode()) == token


def test_a_credential_holding_the_cdata_end_still_bakes_into_svg() -> None:
    """ "]]>" inside a JSON string would end the CDATA section: it is written "]]\\u003e",
    which JSON reads back as the same text, so the signed credential is unchanged."""
    from datetime import UTC, datetime

    from gputeam.credentials import AchievementSpec, credential, issue, statuslist, verify

    from .test_verify import ACH, DID, LIST_ID

    odd = AchievementSpec(ACH.id, "Arrays [[x]]> and more", ACH.description, ACH.criteria)
    cred = issue(
        credential(
            credential_id="urn:uuid:6f1c0c1e-56d1-4c53-9d2a-8c1fb5c2a0ff",
            issuer_id=DID,
            issuer_name="ACME Corp",
            subject_id="mailto:ada@acme.example",
            achievement=odd,
            valid_from="2026-12-01T00:00:00Z",
            status=statuslist.status_entry(LIST_ID, 3),
        ),
        KEY,
        "2026-12-01T09:00:00Z",
    )
    svg = baking.bake_svg(baking.badge_svg("x"), json.dumps(cred))
    back = json.loads(baking.unbake(svg.encode()))
    assert back == cred and back["name"] == "Arrays [[x]]> and more"
    assert verify(back, now=datetime(2026, 12, 2, tzinfo=UTC)).valid


def test_bad_images_are_named() -> None:
    with pytest.raises(baking.BakingError, match="not a PNG"):
        baking.bake_png(b"GIF89a...", "x")
    with pytest.raises(baking.BakingError, match="no openbadgecredential"):
        baking.unbake(baking.badge_png())
    broken = bytearray(baking.badge_png())
    broken[20] ^= 0xFF
    with pytest.raises(baking.BakingError, match="CRC"):
        baking.unbake(bytes(broken))
    with pytest.raises(baking.BakingError):
        baking.unbake(b"<svg xmlns='http://www.w3.org/2000/svg'></svg>")


def test_cli_bakes_and_verifies_from_the_image(tmp_path: Path) -> None:
    cred = tmp_path / "badge.json"
    cred.write_text(json.dumps(_issued()))
    for name in ("badge.png", "badge.svg"):
        r = runner.invoke(app, ["credential", "bake", str(cred), "--out", str(tmp_path / name)])
        assert r.exit_code == 0, r.output
        r = runner.invoke(app, ["credential", "verify", str(tmp_path / name), "--json"])
        assert r.exit_code == 0 and json.loads(r.stdout)["valid"] is True
    # a baked credential that was changed is refused from the image too
    tampered = _issued()
    tampered["name"] = "Something else"
    (tmp_path / "t.png").write_bytes(baking.bake_png(baking.badge_png(), json.dumps(tampered)))
    r = runner.invoke(app, ["credential", "verify", str(tmp_path / "t.png")])
    assert r.exit_code == 1
    (tmp_path / "plain.png").write_bytes(baking.badge_png())
    r = runner.invoke(app, ["credential", "verify", str(tmp_path / "plain.png")])
    assert r.exit_code == 2 and "no openbadgecredential" in r.stderr
    r = runner.invoke(app, ["credential", "bake", str(cred), "--out", str(tmp_path / "x.gif")])
    assert r.exit_code == 2 and not (tmp_path / "x.gif").exists()
