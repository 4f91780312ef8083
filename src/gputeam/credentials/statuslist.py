"""Bitstring Status List v1.0 (W3C): revocation as one bit per issued credential.

The list is a bitstring of at least 131,072 bits (16 KiB, so that a holder's index says
little about who they are), GZIP-compressed and multibase base64url-encoded (``u`` prefix,
no padding) in the status list credential's ``credentialSubject.encodedList``. Bit 0 is
the left-most bit of the first byte; a set bit means the status (``revocation``) applies.
"""

from __future__ import annotations

import base64
import gzip
from typing import Any

from gputeam.i18n import N_

MIN_BITS = 131_072
PURPOSE = "revocation"


class StatusListError(ValueError):
    pass


def encode(bits: bytes | bytearray) -> str:
    """``encodedList`` of a bitstring (bytes, most significant bit first)."""
    if len(bits) * 8 < MIN_BITS:
        raise StatusListError(N_("a status list holds at least {n} bits").format(n=MIN_BITS))
    packed = gzip.compress(bytes(bits), mtime=0)
    return "u" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def decode(encoded: str) -> bytes:
    if not isinstance(encoded, str) or not encoded.startswith("u"):
        raise StatusListError(N_("encodedList must be multibase base64url (starting with 'u')"))
    body = encoded[1:]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        bits = gzip.decompress(raw)
    except (ValueError, OSError, EOFError) as exc:
        not_gzip = N_("encodedList is not a GZIP-compressed bitstring: {reason}")
        raise StatusListError(not_gzip.format(reason=exc)) from None
    if len(bits) * 8 < MIN_BITS:
        short = N_("the list has {n} bits, fewer than {minimum}")
        raise StatusListError(short.format(n=len(bits) * 8, minimum=MIN_BITS))
    return bits


def is_set(bits: bytes | bytearray, index: int) -> bool:
    if not 0 <= index < len(bits) * 8:
        outside = N_("statusListIndex {index} is outside the list (0..{last})")
        raise StatusListError(outside.format(index=index, last=len(bits) * 8 - 1))
    return bool(bits[index // 8] & (0x80 >> (index % 8)))


def with_bit(bits: bytes, index: int, value: bool = True) -> bytes:
    """A copy of ``bits`` with bit ``index`` set (or cleared)."""
    out = bytearray(bits)
    is_set(out, index)  # range check
    if value:
        out[index // 8] |= 0x80 >> (index % 8)
    else:
        out[index // 8] &= 0xFF ^ (0x80 >> (index % 8))
    return bytes(out)


def empty(n_bits: int = MIN_BITS) -> bytes:
    return bytes((max(n_bits, MIN_BITS) + 7) // 8)


def status_entry(list_credential_id: str, index: int) -> dict[str, Any]:
    """The ``credentialStatus`` of a credential at ``index`` in the list ``list_credential_id``."""
    return {
        "id": f"{list_credential_id}#{index}",
        "type": "BitstringStatusListEntry",
        "statusPurpose": PURPOSE,
        "statusListIndex": str(index),
        "statusListCredential": list_credential_id,
    }


def list_credential(list_credential_id: str, issuer: str, bits: bytes, valid_from: str) -> dict[str, Any]:
    """The unsigned status list credential (sign it with :func:`proof.sign`)."""
    return {
        "@context": ["https://www.w3.org/ns/credentials/v2"],
        "id": list_credential_id,
        "type": ["VerifiableCredential", "BitstringStatusListCredential"],
        "issuer": issuer,
        "validFrom": valid_from,
        "credentialSubject": {
            "id": f"{list_credential_id}#list",
            "type": "BitstringStatusList",
            "statusPurpose": PURPOSE,
            "encodedList": encode(bits),
        },
    }
