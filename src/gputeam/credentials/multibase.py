"""Multibase base58btc (the ``z`` prefix) and multicodec-tagged Ed25519 public keys, as Data
Integrity proofs and ``did:key`` use them.

base58btc is Bitcoin's alphabet; leading zero bytes become leading ``1`` characters.
An Ed25519 public key in multikey form is the multicodec prefix ``0xed 0x01`` followed by the
32-byte key, base58btc-encoded with ``z`` in front (so it starts ``z6Mk``).
"""

from __future__ import annotations

from gputeam.i18n import N_

ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_INDEX = {c: i for i, c in enumerate(ALPHABET)}
ED25519_PUB = b"\xed\x01"


class MultibaseError(ValueError):
    """A string that is not what it should be (bad prefix, alphabet or length)."""


def b58encode(data: bytes) -> str:
    zeros = len(data) - len(data.lstrip(b"\0"))
    n = int.from_bytes(data, "big")
    out = []
    while n:
        n, r = divmod(n, 58)
        out.append(ALPHABET[r])
    return "1" * zeros + "".join(reversed(out))


def b58decode(text: str) -> bytes:
    n = 0
    for c in text:
        if c not in _INDEX:
            raise MultibaseError(N_("{char} is not a base58btc character").format(char=repr(c)))
        n = n * 58 + _INDEX[c]
    zeros = len(text) - len(text.lstrip("1"))
    body = n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b""
    return b"\0" * zeros + body


def encode(data: bytes) -> str:
    """Multibase base58btc: ``z`` + base58btc(data)."""
    return "z" + b58encode(data)


def decode(text: str) -> bytes:
    if not text.startswith("z"):
        raise MultibaseError(N_("expected multibase base58btc (a value starting with 'z')"))
    return b58decode(text[1:])


def ed25519_multikey(public_key: bytes) -> str:
    """The multikey string (``z6Mk…``) of a 32-byte Ed25519 public key."""
    if len(public_key) != 32:
        raise MultibaseError(N_("an Ed25519 public key has 32 bytes"))
    return encode(ED25519_PUB + public_key)


def ed25519_from_multikey(text: str) -> bytes:
    """The 32-byte Ed25519 public key in a multikey string; refuses any other key type."""
    raw = decode(text)
    if raw[:2] != ED25519_PUB or len(raw) != 34:
        raise MultibaseError(N_("not an Ed25519 multikey (expected multicodec 0xed01 and 32 bytes)"))
    return raw[2:]
