"""Issue with did:key, verify in OB 3.0's order, revoke through a Bitstring Status List, and
refuse every tampered copy; all offline."""

from __future__ import annotations

import copy
import json
import random
import socket
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from tests.test_i18n import outside_brackets
from typer.testing import CliRunner

from gputeam.cli.main import app
from gputeam.credentials import (
    AchievementSpec,
    Alignment,
    UnknownContext,
    credential,
    did_key,
    issue,
    multibase,
    sign,
    statuslist,
    verify,
)
from gputeam.credentials.loader import document_loader

NOW = datetime(2026, 12, 2, 12, tzinfo=UTC)
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
DID = did_key(KEY)
LIST_ID = "https://tracker.acme.example/credentials/status/1"
ACH = AchievementSpec(
    id="https://tracker.acme.example/achievements/gpu-operator-l2",
    name="ACME GPU Cluster Operator, Level 2",
    description="Operates ACME's H100 clusters.",
    criteria="Passed the 50-question exam (pass mark 70 %, at least 60 % per domain) and the "
    "practical sign-off.",
    alignments=(
        Alignment(
            "InfiniBand and RoCE fabrics",
            "https://tracker.acme.example/d/infiniband",
            "gputeam skill domains",
            "infiniband",
        ),
    ),
    results={"infiniband": "InfiniBand and RoCE fabrics, exam score"},
)


def _issued(index: int = 7, **kw: Any) -> dict[str, Any]:
    unsigned = credential(
        credential_id="urn:uuid:6f1c0c1e-56d1-4c53-9d2a-8c1fb5c2a001",
        issuer_id=DID,
        issuer_name="ACME Corp",
        subject_id="mailto:ada@acme.example",
        achievement=ACH,
        valid_from=kw.get("valid_from", "2026-12-01T00:00:00Z"),
        valid_until=kw.get("valid_until", "2028-12-01T00:00:00Z"),
        results={"infiniband": "82"},
        status=statuslist.status_entry(LIST_ID, index),
    )
    return issue(unsigned, KEY, "2026-12-01T09:00:00Z")


def _status_list(*revoked: int) -> dict[str, Any]:
    bits = statuslist.empty()
    for i in revoked:
        bits = statuslist.with_bit(bits, i)
    return sign(
        statuslist.list_credential(LIST_ID, DID, bits, "2026-12-01T00:00:00Z"),
        KEY,
        f"{DID}#{DID.removeprefix('did:key:')}",
        "2026-12-01T00:00:00Z",
    )


def _checks(cred: Any, **kw: Any) -> dict[str, Any]:
    return {c.name: c for c in verify(cred, now=kw.pop("now", NOW), **kw).checks}


def test_issued_credential_verifies_and_carries_what_ob3_asks() -> None:
    cred = _issued()
    result = verify(cred, now=NOW)
    assert result.valid, result.as_dict()
    assert cred["issuer"]["id"] == DID and DID.startswith("did:key:z6Mk")
    assert cred["proof"]["verificationMethod"] == f"{DID}#{DID[8:]}"
    subject = cred["credentialSubject"]
    assert subject["achievement"]["alignment"][0]["targetCode"] == "infiniband"
    assert subject["result"][0]["value"] == "82"
    assert subject["result"][0]["resultDescription"] == subject["achievement"]["resultDescription"][0]["id"]
    assert "status not checked" in _checks(cred)["status"].message


def test_validity_window() -> None:
    assert (
        "expired on 2028-12-01"
        in _checks(_issued(), now=datetime(2028, 12, 1, tzinfo=UTC))["validity"].message
    )
    early = _checks(_issued(valid_from="2027-01-01T00:00:00Z"))["validity"]
    assert not early.ok and "not valid before" in early.message


def test_revocation_through_the_status_list() -> None:
    cred = _issued(index=7)
    assert _checks(cred, status_list=_status_list(3, 8))["status"].ok
    revoked = _checks(cred, status_list=_status_list(7))["status"]
    assert not revoked.ok and revoked.message == "revoked by the issuer"
    # a list signed by someone else, or tampered with, is not believed
    other = Ed25519PrivateKey.from_private_bytes(bytes(32))
    forged = sign(
        statuslist.list_credential(LIST_ID, DID, statuslist.empty(), "2026-12-01T00:00:00Z"),
        other,
        f"{DID}#{DID[8:]}",
        "2026-12-01T00:00:00Z",
    )
    assert not _checks(cred, status_list=forged)["status"].ok
    tampered = _status_list(7)
    tampered["credentialSubject"]["encodedList"] = statuslist.encode(statuslist.empty())
    assert "proof is invalid" in _checks(cred, status_list=tampered)["status"].message


def test_status_list_bits() -> None:
    bits = statuslist.with_bit(statuslist.empty(), 0)
    assert bits[0] == 0x80 and statuslist.is_set(bits, 0) and not statuslist.is_set(bits, 1)
    assert len(statuslist.decode(statuslist.encode(bits))) * 8 == statuslist.MIN_BITS == 131_072
    with pytest.raises(statuslist.StatusListError):
        statuslist.is_set(bits, statuslist.MIN_BITS)
    with pytest.raises(statuslist.StatusListError):
        statuslist.encode(bytes(10))


def test_recipient() -> None:
    assert _checks(_issued(), recipient="mailto:ada@acme.example")["recipient"].ok
    assert not _checks(_issued(), recipient="mailto:eve@acme.example")["recipient"].ok


def test_structure_problems_are_named() -> None:
    cred = _issued()
    cred["type"] = ["VerifiableCredential", "OtherCredential"]
    cred["@context"] = cred["@context"] + ["https://evil.example/context.json"]
    only = verify(cred, now=NOW).checks
    assert [c.name for c in only] == ["structure"] and not only[0].ok
    assert "OpenBadgeCredential" in only[0].message and "evil.example" in only[0].message
    for bad in ([], "text", {"@context": "x"}, None):
        assert not verify(bad, now=NOW).valid
    huge = _issued()
    huge["description"] = "x" * 300_000
    assert "more than the 262144 verified" in verify(huge, now=NOW).checks[0].message


def test_a_key_that_is_not_the_issuers_is_refused() -> None:
    mallory = Ed25519PrivateKey.from_private_bytes(bytes(range(2, 34)))
    cred = _issued()
    unsigned = {k: v for k, v in cred.items() if k != "proof"}
    mdid = did_key(mallory)
    forged = sign(unsigned, mallory, f"{mdid}#{mdid[8:]}", "2026-12-01T09:00:00Z")
    check = _checks(forged)["proof"]
    assert not check.ok and "does not belong to the issuer" in check.message


# ------------------------------------------------------------------ hostile input
def _fake_proof() -> dict[str, Any]:
    """A well-formed proof whose value is 64 zero bytes (no real signature)."""
    return {
        "type": "DataIntegrityProof",
        "cryptosuite": "eddsa-rdfc-2022",
        "created": "2026-12-01T00:00:00Z",
        "verificationMethod": f"{DID}#{DID[8:]}",
        "proofPurpose": "assertionMethod",
        "proofValue": multibase.encode(bytes(64)),
    }


def test_a_status_list_with_an_unknown_context_is_a_failed_check() -> None:
    """The list's proof is canonicalised with the offline loader, which refuses the URL: a
    failed status check naming it, not pyld's JsonLdError escaping."""
    listed = _status_list()
    listed["@context"] = [*listed["@context"], "https://evil.example/context.json"]
    listed["proof"] = _fake_proof()
    check = _checks(_issued(), status_list=listed)["status"]
    assert not check.ok and "unknown JSON-LD context" in check.message
    assert "evil.example" in check.message


def test_a_status_list_without_a_proof_is_a_failed_check() -> None:
    for proof in ([], None, "x", [5]):
        listed = _status_list()
        listed["proof"] = proof
        check = _checks(_issued(), status_list=listed)["status"]
        assert not check.ok and "the status list has no proof" in check.message, proof


@pytest.mark.parametrize("index", [None, 1.5, [], "seven", "-1", True])
def test_an_unreadable_status_list_index_is_a_failed_check(index: Any) -> None:
    cred = _issued()
    cred["credentialStatus"]["statusListIndex"] = index
    checks = _checks(cred, status_list=_status_list())
    if index is None:  # JSON-LD drops a null: not the compacted form, refused as structure
        assert not checks["structure"].ok and "'statusListIndex'" in checks["structure"].message
        return
    check = checks["status"]
    assert not check.ok and "statusListIndex" in check.message and repr(index) in check.message


@pytest.mark.parametrize(
    "identifier", [5, "mailto:ada@acme.example", [5], [{"identityHash": 5, "hashed": True, "salt": 3}]]
)
def test_an_unreadable_identifier_is_not_a_match(identifier: Any) -> None:
    cred = _issued()
    cred["credentialSubject"]["id"] = "mailto:someone-else@acme.example"
    cred["credentialSubject"]["identifier"] = identifier
    check = _checks(cred, recipient="mailto:ada@acme.example")["recipient"]
    assert not check.ok and "not issued to mailto:ada@acme.example" in check.message


def test_an_identity_object_not_in_a_list_is_read() -> None:
    cred = _issued()
    cred["credentialSubject"]["id"] = "mailto:someone-else@acme.example"
    cred["credentialSubject"]["identifier"] = {
        "type": "IdentityObject",
        "identityType": "emailAddress",
        "hashed": False,
        "identityHash": "ada@acme.example",
    }
    assert _checks(cred, recipient="ada@acme.example")["recipient"].ok


def test_an_unexpected_error_in_a_check_is_a_failed_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The safety net: whatever a check raises on input nobody foresaw becomes that check's
    failure, naming the error; the other checks still run."""
    import importlib

    verify_module = importlib.import_module("gputeam.credentials.verify")

    def broken(*args: Any) -> Any:
        raise KeyError("surprise")

    monkeypatch.setattr(verify_module, "check_validity", broken)
    checks = _checks(_issued())
    assert not checks["validity"].ok and "KeyError" in checks["validity"].message
    assert checks["proof"].ok and checks["recipient"].ok


def test_the_cli_reports_hostile_input_as_failed_checks(tmp_path: Path) -> None:
    cred = _issued()
    cred["credentialSubject"]["id"] = "mailto:someone-else@acme.example"
    cred["credentialSubject"]["identifier"] = 5
    listed = _status_list()
    listed["proof"] = []
    (tmp_path / "c.json").write_text(json.dumps(cred))
    (tmp_path / "s.json").write_text(json.dumps(listed))
    r = CliRunner().invoke(
        app,
        ["credential", "verify", str(tmp_path / "c.json"), "--status-list", str(tmp_path / "s.json")]
        + ["--recipient", "mailto:ada@acme.example", "--json"],
    )
    assert r.exit_code == 1, r.output
    checks = {c["name"]: c for c in json.loads(r.stdout)["checks"]}
    assert not checks["status"]["ok"] and "no proof" in checks["status"]["message"]
    assert not checks["recipient"]["ok"]


# ------------------------------------------------------------------ tampering
def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


def _mutate(cred: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A copy with one meaningful change (value changed, key removed or added), or None."""
    out = copy.deepcopy(cred)
    path = rng.choice(_paths(out))
    parent: Any = out
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    value = parent[last]
    kind = rng.choice(("change", "remove", "add"))
    if kind == "remove":
        if isinstance(parent, list) and len(parent) == 1:
            return None  # ["X"] and "X" mean the same in JSON-LD
        del parent[last]
    elif kind == "add":
        target = value if isinstance(value, dict) else parent if isinstance(parent, dict) else None
        if target is None:
            return None
        target[rng.choice(("extra", "name", "note", "validUntil", "id")) + "x"] = "added"
    elif isinstance(value, str):
        if not value:
            return None
        i = rng.randrange(len(value))
        repl = rng.choice([c for c in "aZ09xq" if c != value[i]])
        parent[last] = value[:i] + repl + value[i + 1 :]
    elif isinstance(value, (dict, list)):
        parent[last] = "replaced"
    else:
        parent[last] = "changed"
    return out


def test_a_thousand_tampered_copies_are_all_refused() -> None:
    original = _issued()
    rng = random.Random(20261202)
    tried = accepted = 0
    while tried < 1000:
        mutated = _mutate(original, rng)
        if mutated is None:
            continue
        tried += 1
        if verify(mutated, now=NOW).valid:
            accepted += 1
            print("accepted:", json.dumps(mutated)[:400])
    assert tried == 1000 and accepted == 0
    assert verify(original, now=NOW).valid


# ------------------------------------------------------------------ offline
def test_sockets_are_blocked_in_every_credentials_test() -> None:
    """conftest.py's autouse no_network: nothing here can reach the network."""
    for attempt in (
        lambda: socket.create_connection(("192.0.2.1", 443), timeout=0.1),
        lambda: socket.getaddrinfo("example.org", 443),
        lambda: socket.socket().connect(("192.0.2.1", 443)),
    ):
        with pytest.raises(AssertionError, match="the network was used"):
            attempt()


def test_a_bundled_context_whose_bytes_are_not_the_pinned_ones_is_refused() -> None:
    """As if the installed OB 3.0 context file had other bytes (here: the VC 2.0 context's)
    under its pinned SHA-256: it is refused, and nothing verifies against it."""
    from gputeam.credentials import loader

    cred = _issued()
    _name, pinned = loader.CONTEXTS[loader.OB_V3P0]
    other_file = loader.CONTEXTS[loader.CREDENTIALS_V2][0]
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(loader.CONTEXTS, loader.OB_V3P0, (other_file, pinned))
        loader._bundled.cache_clear()
        try:
            with pytest.raises(loader.DamagedContext, match=f"expected {pinned}"):
                document_loader(loader.OB_V3P0)
            proof = _checks(cred)["proof"]
            assert not proof.ok and "the installation is damaged" in proof.message
        finally:
            loader._bundled.cache_clear()
    assert verify(cred, now=NOW).valid


def test_offline_with_sockets_blocked() -> None:
    cred = _issued()
    assert verify(cred, now=NOW, status_list=_status_list()).valid
    with pytest.raises(UnknownContext):
        document_loader("https://www.w3.org/2018/credentials/v1")
    cred["@context"] = [cred["@context"][0], "https://example.org/other-context.jsonld"]
    assert "unknown JSON-LD context" in verify(cred, now=NOW).checks[0].message


# ------------------------------------------------------------------ CLI
def test_cli_exit_codes_and_json(tmp_path: Path) -> None:
    runner = CliRunner()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_issued()))
    r = runner.invoke(app, ["credential", "verify", str(good)])
    assert r.exit_code == 0 and r.stdout.strip().endswith("valid")
    status = tmp_path / "status.json"
    status.write_text(json.dumps(_status_list(7)))
    r = runner.invoke(app, ["credential", "verify", str(good), "--status-list", str(status), "--json"])
    out = json.loads(r.stdout)
    assert r.exit_code == 1 and out["valid"] is False
    assert {"name": "status", "ok": False, "message": "revoked by the issuer"} in out["checks"]
    assert all(set(c) == {"name", "ok", "message"} for c in out["checks"])
    # the report in the chosen language (the JSON above keeps the English identifiers)
    r = runner.invoke(app, ["--lang", "de", "credential", "verify", str(good), "--status-list", str(status)])
    assert r.exit_code == 1 and "FAIL Status: vom Aussteller widerrufen" in r.stdout
    assert "ok   Struktur: ein Open-Badges-3.0-Nachweis (VC-2.0-Datenmodell)" in r.stdout
    for name, content, says in (
        ("bin.json", b"\x89PNG\r\n", "not a PNG file"),
        ("text.json", b"{not json", "not JSON"),
    ):
        (tmp_path / name).write_bytes(content)
        r = runner.invoke(app, ["credential", "verify", str(tmp_path / name)])
        assert r.exit_code == 2 and says in r.stderr and "Traceback" not in r.stderr
    r = runner.invoke(app, ["credential", "verify", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and "cannot read" in r.stderr


def _tampered(tmp_path: Path) -> dict[str, list[str]]:
    """Credentials that fail in each way (a forged field, a broken structure with a date
    Python's own words refuse, an expired one, a revoked one, a status list whose proof is
    damaged), as the command line's arguments."""
    forged = _issued()
    forged["credentialSubject"]["achievement"]["name"] = "Forged"
    broken = _issued()
    del broken["name"]
    broken["issuer"]["type"] = "Organisation"
    broken["validFrom"] = "yesterday"
    damaged = _status_list(7)
    damaged["proof"]["proofValue"] = "z" + "1" * 80
    files = {
        "forged": forged,
        "broken": broken,
        "expired": _issued(valid_from="2020-01-01T00:00:00Z", valid_until="2021-01-01T00:00:00Z"),
        "good": _issued(),
        "revoking": _status_list(7),
        "damaged": damaged,
    }
    for name, doc in files.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(doc))
    good = str(tmp_path / "good.json")
    return {
        "proof": [str(tmp_path / "forged.json")],
        "structure": [str(tmp_path / "broken.json")],
        "validity": [str(tmp_path / "expired.json")],
        "revoked": [good, "--status-list", str(tmp_path / "revoking.json")],
        "status list": [good, "--status-list", str(tmp_path / "damaged.json")],
    }


def test_cli_failure_details_in_the_language(tmp_path: Path) -> None:
    """Why a check failed, in the chosen language: a forged credential's proof, a broken
    structure (each fault a sentence; the date parser's own words stay as they are inside
    it), an expired, a revoked credential, a status list with a damaged proof. --json keeps
    the names as identifiers and gives the messages in the language too."""
    runner = CliRunner()
    cases = _tampered(tmp_path)
    said = {}
    for case, args in cases.items():
        r = runner.invoke(app, ["--lang", "de", "credential", "verify", *args])
        assert r.exit_code == 1, r.output
        said[case] = next(line for line in r.stdout.splitlines() if line.startswith("FAIL"))
    assert said["proof"] == (
        "FAIL Beweis: die Signatur passt nicht zum Nachweis: er wurde nach dem Signieren "
        "geändert oder mit einem anderen Schlüssel signiert"
    )
    assert said["structure"] == (
        "FAIL Struktur: name (der Anzeigename des Nachweises) ist erforderlich; "
        "issuer.type muss 'Profile' enthalten; gefunden ['Organisation']; "
        "validFrom muss ein Zeitpunkt mit Zeitzone sein (Invalid isoformat string: "
        "'yesterday'); gefunden 'yesterday'"
    )
    assert said["validity"] == "FAIL Gültigkeit: ist am 2021-01-01T00:00:00Z abgelaufen"
    assert said["revoked"] == "FAIL Status: vom Aussteller widerrufen"
    assert said["status list"] == (
        "FAIL Status: der Beweis der Statusliste ist ungültig: proofValue enthält 80 Bytes, "
        "eine Ed25519-Signatur 64"
    )
    r = runner.invoke(app, ["--lang", "de", "credential", "verify", *cases["structure"], "--json"])
    (check,) = json.loads(r.stdout)["checks"]
    assert check["name"] == "structure" and check["message"].startswith("name (der Anzeigename")
    r = runner.invoke(app, ["credential", "verify", *cases["structure"], "--json"])
    (check,) = json.loads(r.stdout)["checks"]
    assert check["message"].startswith("name (the credential's display name) is required; issuer.type")
    # the pseudo-locale: every word is a translated message's, but the values and the
    # library's words quoted inside one
    for case, args in cases.items():
        r = runner.invoke(app, ["--lang", "xx", "credential", "verify", *args])
        for line in r.stdout.splitlines():
            rest = outside_brackets(line).removeprefix("FAIL").removeprefix("ok")
            assert set(rest) <= set(" :;"), f"{case}: {line!r}"


def test_unreadable_badge_images_are_explained_in_the_language(tmp_path: Path) -> None:
    """A badge image that holds no readable credential: why, in the chosen language, for
    each way an image fails (exit 2, no traceback); the pseudo-locale leaves no English."""
    from gputeam.credentials.baking import PNG_SIGNATURE

    def png_chunk(kind: bytes, data: bytes) -> bytes:
        import struct
        import zlib

        return struct.pack(">I4s", len(data), kind) + data + struct.pack(">I", zlib.crc32(kind + data))

    images = {
        "no-credential.png": PNG_SIGNATURE + png_chunk(b"IEND", b""),
        "truncated.png": PNG_SIGNATURE + b"\0\0\0\x0dIHDR",
        "bad-crc.png": PNG_SIGNATURE + png_chunk(b"IEND", b"")[:-1] + b"\0",
        "empty.svg": b'<svg xmlns="http://www.w3.org/2000/svg"></svg>',
        "broken.svg": b"<svg><g></svg>",
    }
    expected = {
        "no-credential.png": "das PNG enthält keinen Chunk openbadgecredential",
        "truncated.png": "abgeschnittener PNG-Chunk b'IHDR'",
        "bad-crc.png": "PNG-Chunk b'IEND' besteht die CRC-Prüfung nicht",
        "empty.svg": "das SVG enthält kein Element openbadges:credential",
        "broken.svg": "kein SVG-Dokument: ",
    }
    runner = CliRunner()
    for name, data in images.items():
        path = tmp_path / name
        path.write_bytes(data)
        r = runner.invoke(app, ["--lang", "de", "credential", "verify", str(path)])
        assert r.exit_code == 2 and "Traceback" not in r.output, (name, r.output)
        assert expected[name] in r.stderr, (name, r.stderr)
        english = runner.invoke(app, ["credential", "verify", str(path)])
        assert english.exit_code == 2 and expected[name] not in english.stderr
        pseudo = runner.invoke(app, ["--lang", "xx", "credential", "verify", str(path)])
        reason = pseudo.stderr.split(f"{path}:", 1)[1]
        assert not set(outside_brackets(reason)) - set(" :;\n"), (name, pseudo.stderr)
