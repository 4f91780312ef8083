"""Issuing keys at rest: an organisation's Ed25519 private key sealed with a key derived from
the server's secret, so a copy of the database alone cannot sign credentials.

    sealed = "v1" || salt (16) || nonce (12) || AES-256-GCM(private key (32 bytes))
    AES key = HKDF-SHA256(server secret, salt, info = "gputeam issuer key v1|" + context)

``context`` (e.g. the organisation's id) is bound in, so a sealed key copied to another
organisation's row does not open. Rotation keeps old keys (sealed the same way) so that
credentials they signed still verify; only the newest signs.
"""

from __future__ import annotations

import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from gputeam.i18n import N_

VERSION = b"v1"


class SealError(ValueError):
    """A sealed key that does not open: another server secret, another context, or damage."""


def _aes_key(secret: str, salt: bytes, context: str) -> bytes:
    if not secret:
        raise SealError(N_("no server secret to seal issuing keys with"))
    return HKDF(
        algorithm=hashes.SHA256(), length=32, salt=salt, info=b"gputeam issuer key v1|" + context.encode()
    ).derive(secret.encode())


def seal(private_key: Ed25519PrivateKey, secret: str, context: str) -> bytes:
    raw = private_key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    salt, nonce = os.urandom(16), os.urandom(12)
    sealed = AESGCM(_aes_key(secret, salt, context)).encrypt(nonce, raw, VERSION)
    return VERSION + salt + nonce + sealed


def unseal(blob: bytes, secret: str, context: str) -> Ed25519PrivateKey:
    if not blob.startswith(VERSION) or len(blob) != 2 + 16 + 12 + 32 + 16:
        raise SealError(N_("not a sealed gputeam issuing key"))
    salt, nonce, sealed = blob[2:18], blob[18:30], blob[30:]
    try:
        raw = AESGCM(_aes_key(secret, salt, context)).decrypt(nonce, sealed, VERSION)
    except InvalidTag:
        raise SealError(
            N_("the issuing key does not open with this server's secret (GPUTEAM_SECRET_KEY changed?)")
        ) from None
    return Ed25519PrivateKey.from_private_bytes(raw)
