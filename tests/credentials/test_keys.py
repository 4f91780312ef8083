"""Issuing keys sealed at rest with the server's secret, bound to their organisation."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from gputeam.credentials import did_key
from gputeam.credentials.keys import SealError, seal, unseal

SECRET = "k" * 20 + "0123456789abcdefghijklmnop"


def test_seal_round_trip_and_binding() -> None:
    key = Ed25519PrivateKey.generate()
    blob = seal(key, SECRET, "org:1")
    assert did_key(unseal(blob, SECRET, "org:1")) == did_key(key)
    raw_private = key.private_bytes_raw()
    assert raw_private not in blob  # never stored in the clear
    assert seal(key, SECRET, "org:1") != blob  # fresh salt and nonce each time
    with pytest.raises(SealError, match="secret"):
        unseal(blob, SECRET + "x", "org:1")
    with pytest.raises(SealError):
        unseal(blob, SECRET, "org:2")  # copied to another organisation's row
    damaged = bytearray(blob)
    damaged[-1] ^= 1
    with pytest.raises(SealError):
        unseal(bytes(damaged), SECRET, "org:1")
    with pytest.raises(SealError):
        unseal(b"v0" + blob[2:], SECRET, "org:1")


def test_occupation_alignments_by_domain_group() -> None:
    from gputeam.credentials.occupations import occupation_alignments

    fabric = occupation_alignments(["fabric"])
    assert [(a.target_framework, a.target_code) for a in fabric] == [
        ("O*NET-SOC 2019", "15-1241.00"),
        ("ISCO-08 (ESCO)", "2523"),
    ]
    assert fabric[1].target_url == "http://data.europa.eu/esco/isco/C2523"
    both = occupation_alignments(["fabric", "gpu"])
    assert {a.target_code for a in both} == {"15-1241.00", "2523", "15-1244.00", "2522"}
    assert occupation_alignments([]) == ()


def test_why_a_key_does_not_open_in_the_language() -> None:
    """The reasons are English where written (the package is pure) and translated where
    shown (the share page's 409 puts them in its sentence)."""
    from gputeam import i18n
    from gputeam.i18n.messages import translate

    blob = seal(Ed25519PrivateKey.generate(), SECRET, "org:1")
    reasons = []
    for call in (lambda: unseal(blob, SECRET + "x", "org:1"), lambda: unseal(b"v0", SECRET, "org:1")):
        with pytest.raises(SealError) as caught:
            call()
        reasons.append(str(caught.value))
    with pytest.raises(SealError) as caught:
        seal(Ed25519PrivateKey.generate(), "", "org:1")
    reasons.append(str(caught.value))
    with i18n.use("de"):
        german = [translate(r) for r in reasons]
    assert german == [
        "der Ausstellungsschlüssel lässt sich mit dem Geheimnis dieses Servers nicht öffnen "
        "(GPUTEAM_SECRET_KEY geändert?)",
        "kein versiegelter Ausstellungsschlüssel von gputeam",
        "kein geheimer Serverschlüssel, mit dem sich Ausstellungsschlüssel versiegeln lassen",
    ]
