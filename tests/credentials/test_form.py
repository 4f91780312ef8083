"""A verifier that cannot be fooled by form: what a holder can change without breaking the
proof (the way a property is written, a second proof, a second baked credential, nesting)
never makes an invalid credential verify, and each refusal names what it refused."""

from __future__ import annotations

import copy
import json
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyld import jsonld
from typer.testing import CliRunner

from gputeam.cli.main import app
from gputeam.credentials import baking, canonical, jsontext, multibase, sign, verify, verify_proof
from gputeam.credentials.compacted import compaction_problems
from gputeam.credentials.loader import document_loader
from gputeam.credentials.vcjwt import encode

from . import vectors
from .test_validator_samples import SIMPLE
from .test_verify import DID, KEY, NOW, _issued, _status_list

VC = "https://www.w3.org/2018/credentials#"
XSD_DATETIME = "http://www.w3.org/2001/XMLSchema#dateTime"


def _unproved(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != "proof"}


def _expanded(context: Any, parent: dict[str, Any], term: str) -> tuple[str, Any]:
    """The IRI ``term`` expands to in ``parent`` (an object with a ``type``, whose type-scoped
    context applies) under ``context``, and its value expanded: how a holder would write it
    instead, meaning the same."""
    probe = {"@context": context, "type": parent["type"], term: parent[term]}
    expanded = jsonld.expand(probe, {"documentLoader": document_loader})
    ((iri, value),) = [(k, v) for k, v in expanded[0].items() if not k.startswith("@")]
    return str(iri), value


# ---------------------------------------------------------------- compacted form


def test_hiding_the_status_by_its_full_iri_keeps_the_proof_but_is_refused() -> None:
    cred = _issued()
    hidden = copy.deepcopy(cred)
    hidden[VC + "credentialStatus"] = hidden.pop("credentialStatus")
    # the attack: the RDF, and so the signature, are the same ...
    assert canonical(_unproved(hidden)) == canonical(_unproved(cred))
    verify_proof(hidden, hidden["proof"], multibase.ed25519_from_multikey(DID[8:]))
    # ... so only the form tells: refused, naming the term
    result = verify(hidden, now=NOW, status_list=_status_list(7))
    assert not result.valid and [c.name for c in result.checks] == ["structure"]
    message = result.checks[0].message
    assert f"'{VC}credentialStatus'" in message and "compacted, it is 'credentialStatus'" in message
    assert verify(cred, now=NOW, status_list=_status_list(7)).checks[3].message == "revoked by the issuer"


def test_hiding_the_expiry_as_a_typed_value_is_refused() -> None:
    cred = _issued(valid_until="2026-12-02T00:00:00Z")
    hidden = copy.deepcopy(cred)
    hidden[VC + "validUntil"] = {"@value": hidden.pop("validUntil"), "@type": XSD_DATETIME}
    assert canonical(_unproved(hidden)) == canonical(_unproved(cred))
    assert "expired" in verify(cred, now=NOW).checks[2].message
    result = verify(hidden, now=NOW)
    assert not result.valid and "compacted, it is 'validUntil'" in result.checks[0].message


def test_a_typed_value_under_the_terms_own_name_is_refused_too() -> None:
    cred = _issued()
    cred["credentialSubject"]["achievement"]["name"] = {
        "@value": cred["credentialSubject"]["achievement"]["name"]
    }
    problems = compaction_problems(cred)
    assert problems and problems[0].startswith("credential.credentialSubject.achievement.name: the value")


def test_what_compaction_cannot_give_back_is_not_held_against_a_credential() -> None:
    from pyld.jsonld import DEFAULT_BASE_IRI

    from gputeam.credentials.compacted import RELATIVE_BASE

    assert RELATIVE_BASE == DEFAULT_BASE_IRI
    cred = _issued()
    cred["issuer"]["type"] = ["Profile", "Organisation"]  # a type no context defines
    cred["credentialSubject"]["achievement"]["type"] = "Achievement"  # one value, no array
    assert compaction_problems(cred) == []


def test_published_vectors_are_in_compacted_form() -> None:
    assert compaction_problems(SIMPLE) == []
    assert compaction_problems(vectors.unsigned()) == []
    assert compaction_problems(_issued()) == [] and compaction_problems(_status_list()) == []
    assert verify(SIMPLE, now=NOW).valid


def _paths(node: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every property of an object with a type in the credential (but @context, id, type
    and the proof), by path."""
    out: list[tuple[str, ...]] = []
    if isinstance(node, dict) and "type" in node:
        for key, value in node.items():
            if key in ("@context", "id", "type", "proof"):
                continue
            out.append((*path, key))
            out += _paths(value, (*path, key))
    return out


ISSUED = _issued()


@settings(max_examples=40, deadline=None)
@given(path=st.sampled_from(_paths(ISSUED)))
def test_any_property_written_by_its_iri_is_refused_by_name(path: tuple[str, ...]) -> None:
    """Property ("a credential must be in compacted form under its own @context"): writing
    any one property by the IRI its term expands to leaves the signed RDF as it was, and the
    credential is refused, the refusal naming that term."""
    cred = copy.deepcopy(ISSUED)
    parent = cred
    for key in path[:-1]:
        parent = parent[key]
    term = path[-1]
    iri, value = _expanded(cred["@context"], parent, term)
    del parent[term]
    parent[iri] = value
    assert canonical(_unproved(cred)) == canonical(_unproved(ISSUED)), (path, iri)
    result = verify(cred, now=NOW)
    assert not result.valid and result.checks[0].name == "structure"
    assert f"property '{iri}' is not in compacted form" in result.checks[0].message
    assert f"(compacted, it is '{term}')" in result.checks[0].message


def test_a_status_list_written_otherwise_is_not_believed() -> None:
    listed = _status_list(7)
    listed["credentialSubject"]["https://www.w3.org/ns/credentials/status#encodedList"] = listed[
        "credentialSubject"
    ].pop("encodedList")
    check = verify(_issued(), now=NOW, status_list=listed).checks[3]
    assert not check.ok


# ---------------------------------------------------------------- proof sets


def _second_proof(cred: dict[str, Any], created: str = "2026-12-01T10:00:00Z") -> dict[str, Any]:
    return dict(sign(_unproved(cred), KEY, f"{DID}#{DID[8:]}", created)["proof"])


def test_a_proof_set_with_one_broken_proof_is_not_valid() -> None:
    cred = _issued()
    good, other = cred["proof"], _second_proof(cred)
    both = {**cred, "proof": [good, other]}
    assert verify(both, now=NOW).valid
    assert "all 2 eddsa-rdfc-2022 signatures are valid" in verify(both, now=NOW).checks[1].message
    broken = {**other, "proofValue": multibase.encode(bytes(64))}
    for proofs, number in (([good, broken], 2), ([broken, good], 1)):
        result = verify({**cred, "proof": proofs}, now=NOW)
        assert not result.valid and not result.checks[1].ok
        assert result.checks[1].message.startswith(f"proof {number} of 2: the signature does not match")
        assert result.signers == ()


@settings(max_examples=20, deadline=None)
@given(count=st.integers(1, 4), data=st.data())
def test_every_proof_of_a_set_must_verify(count: int, data: st.DataObject) -> None:
    """Property: a proof set verifies only when each of its proofs does (VC Data Integrity,
    proof sets: each proof is verified on its own); a broken one anywhere is named."""
    cred = _issued()
    proofs = [_second_proof(cred, f"2026-12-01T1{i}:00:00Z") for i in range(count)]
    broken = data.draw(st.sets(st.integers(0, count - 1)))
    for i in broken:
        proofs[i] = {**proofs[i], "proofValue": multibase.encode(bytes(64))}
    result = verify({**cred, "proof": proofs}, now=NOW)
    assert result.valid == (not broken)
    for i in broken:
        assert (f"proof {i + 1} of {count}" if count > 1 else "signature does not match") in result.checks[
            1
        ].message


# ---------------------------------------------------------------- baked images


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I4s", len(data), kind) + data + struct.pack(">I", zlib.crc32(kind + data))


def _itxt(text: str) -> bytes:
    return _chunk(b"iTXt", baking.KEYWORD + b"\0\0\0\0\0" + text.encode())


def test_a_png_with_two_credentials_is_refused() -> None:
    good, revoked = json.dumps(_issued()), json.dumps(_issued(index=9))
    one = baking.bake_png(baking.badge_png(), good)
    assert baking.unbake(one) == good
    two = one[:-12] + _itxt(revoked) + one[-12:]  # a second iTXt chunk before IEND
    with pytest.raises(baking.BakingError, match="2 openbadgecredential chunks"):
        baking.unbake(two)
    text = one[:-12] + _chunk(b"tEXt", baking.KEYWORD + b"\0" + revoked.encode()) + one[-12:]
    with pytest.raises(baking.BakingError, match="2 openbadgecredential chunks"):
        baking.unbake(text)
    with pytest.raises(baking.BakingError, match="after its IEND"):
        baking.unbake(one + _itxt(revoked))


def test_an_svg_with_two_credentials_is_refused() -> None:
    svg = baking.bake_svg(baking.badge_svg("Badge"), json.dumps(_issued()))
    assert json.loads(baking.unbake(svg.encode())) == _issued()
    element = f'<openbadges:credential verify="{encode(_issued(index=9), KEY)}"></openbadges:credential>'
    two = svg.replace("</svg>", element + "</svg>")
    with pytest.raises(baking.BakingError, match="2 openbadges:credential elements"):
        baking.unbake(two.encode())
    nested = svg.replace("</svg>", "<g>" + element + "</g></svg>")
    with pytest.raises(baking.BakingError, match="2 openbadges:credential elements"):
        baking.unbake(nested.encode())
    alone = baking.badge_svg("B").replace(
        "</svg>", f'<g xmlns:openbadges="{baking.OB_NS}">{element}</g></svg>'
    )
    with pytest.raises(baking.BakingError, match="directly under the root"):
        baking.unbake(alone.encode())
    both = svg.replace(
        "<openbadges:credential>", f'<openbadges:credential verify="{encode(_issued(), KEY)}">'
    )
    with pytest.raises(baking.BakingError, match="both a VC-JWT and JSON"):
        baking.unbake(both.encode())


# ---------------------------------------------------------------- nesting


def _nested(levels: int) -> str:
    return "[" * levels + "]" * levels


@settings(max_examples=30, deadline=None)
@given(levels=st.integers(1, 3000))
def test_json_nesting_is_bounded_by_a_named_limit(levels: int) -> None:
    """Property: JSON is read when it nests at most MAX_JSON_DEPTH (64) levels, and refused
    beyond with a sentence naming the limit (never a RecursionError)."""
    if levels <= jsontext.MAX_JSON_DEPTH:
        assert jsontext.depth(jsontext.loads(_nested(levels))) == levels
    else:
        with pytest.raises(jsontext.TooDeep, match="more than 64 levels"):
            jsontext.loads(_nested(levels))


def test_a_deep_credential_is_refused_as_structure() -> None:
    cred = _issued()
    deep: Any = "x"
    for _ in range(jsontext.MAX_JSON_DEPTH):
        deep = {"a": deep}
    cred["credentialSubject"]["note"] = deep
    result = verify(cred, now=NOW)
    assert not result.valid and "more than 64 levels deep" in result.checks[0].message


def test_cli_refuses_ten_thousand_levels_with_exit_2(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"a":' * 10_000 + "1" + "}" * 10_000)
    r = CliRunner().invoke(app, ["credential", "verify", str(deep)])
    assert r.exit_code == 2, r.output
    assert "more than 64 levels deep" in r.output and "Traceback" not in r.output
    assert not isinstance(r.exception, RecursionError)
    listed = tmp_path / "list.json"
    listed.write_text(_nested(10_000))
    good = tmp_path / "cred.json"
    good.write_text(json.dumps(_issued()))
    r = CliRunner().invoke(app, ["credential", "verify", str(good), "--status-list", str(listed)])
    assert r.exit_code == 2 and "more than 64 levels deep" in r.output


def test_cli_verifies_against_a_status_list_given_as_a_vc_jwt(tmp_path: Path) -> None:
    listed = _unproved(_status_list(7))
    token = encode(listed, KEY)
    f = tmp_path / "list.jwt"
    f.write_text(token)
    cred = tmp_path / "cred.json"
    cred.write_text(json.dumps(_issued()))
    r = CliRunner().invoke(app, ["credential", "verify", str(cred), "--status-list", str(f), "--json"])
    assert (
        r.exit_code == 1
        and {"name": "status", "ok": False, "message": "revoked by the issuer"}
        in (json.loads(r.stdout)["checks"])
    )
    assert verify(_issued(index=3), now=NOW, status_list=token).checks[3].message == "not revoked"
    forged = token[:-6] + ("AAAAAA" if not token.endswith("AAAAAA") else "BBBBBB")
    assert not verify(_issued(), now=NOW, status_list=forged).checks[3].ok
