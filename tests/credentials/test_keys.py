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
