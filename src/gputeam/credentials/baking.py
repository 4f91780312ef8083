"""Baking: a credential carried inside its badge image (Open Badges 3.0, § "Baking").

- PNG: one ``iTXt`` chunk with keyword ``openbadgecredential``, uncompressed, whose text is the
  credential's JSON (embedded proof) or its VC-JWT, placed before ``IEND``.
- SVG: an ``<openbadges:credential>`` element directly under the root ``<svg>`` (namespace
  ``https://purl.imsglobal.org/ob/v3p0``), holding the JSON in a CDATA section or the VC-JWT in
  its ``verify`` attribute.

Re-baking replaces an earlier credential instead of adding a second one; reading refuses
an image that carries more than one.
"""

from __future__ import annotations

import html
import struct
import zlib

from gputeam.i18n import N_

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
KEYWORD = b"openbadgecredential"
OB_NS = "https://purl.imsglobal.org/ob/v3p0"


class BakingError(ValueError):
    """The image is not a PNG/SVG, or carries no (or a malformed) credential."""


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    if not png.startswith(PNG_SIGNATURE):
        raise BakingError(N_("not a PNG file (its signature is missing)"))
    out, pos = [], len(PNG_SIGNATURE)
    while pos < len(png):
        if pos + 8 > len(png):
            raise BakingError(N_("truncated PNG chunk header"))
        length, kind = struct.unpack(">I4s", png[pos : pos + 8])
        data = png[pos + 8 : pos + 8 + length]
        if len(data) != length or pos + 12 + length > len(png):
            raise BakingError(N_("truncated PNG chunk {kind}").format(kind=repr(kind)))
        (crc,) = struct.unpack(">I", png[pos + 8 + length : pos + 12 + length])
        if crc != zlib.crc32(kind + data):
            raise BakingError(N_("PNG chunk {kind} fails its CRC").format(kind=repr(kind)))
        out.append((kind, data))
        pos += 12 + length
        if kind == b"IEND":
            break
    if not out or out[-1][0] != b"IEND":
        raise BakingError(N_("the PNG has no IEND chunk"))
    return out


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I4s", len(data), kind) + data + struct.pack(">I", zlib.crc32(kind + data))


def _is_credential_chunk(kind: bytes, data: bytes) -> bool:
    return kind == b"iTXt" and data.split(b"\0", 1)[0] == KEYWORD


def bake_png(png: bytes, credential_text: str) -> bytes:
    """``png`` with ``credential_text`` (JSON or a VC-JWT) baked in."""
    chunks = [(k, d) for k, d in _chunks(png) if not _is_credential_chunk(k, d)]
    # keyword, NUL, compression flag 0, method 0, empty language tag, NUL, empty translated
    # keyword, NUL, then the UTF-8 text
    itxt = KEYWORD + b"\0\0\0" + b"\0" + b"\0" + credential_text.encode("utf-8")
    body = b"".join(_chunk(k, d) for k, d in chunks[:-1])
    return PNG_SIGNATURE + body + _chunk(b"iTXt", itxt) + _chunk(b"IEND", b"")


def _names_credential(kind: bytes, data: bytes) -> bool:
    """A text chunk of any kind (``iTXt``, ``tEXt``, ``zTXt``) with the credential's keyword:
    what some reader could take for a baked credential."""
    return kind in (b"iTXt", b"tEXt", b"zTXt") and data.split(b"\0", 1)[0] == KEYWORD


def unbake_png(png: bytes) -> str:
    """The one credential baked into ``png``. An image carrying several (or one outside an
    ``iTXt`` chunk, or after ``IEND``) is refused: a verifier would check one while a reader
    shows another."""
    chunks = _chunks(png)
    named = [kind for kind, data in chunks if _names_credential(kind, data)]
    end = len(PNG_SIGNATURE) + sum(12 + len(data) for _kind, data in chunks)
    if len(named) > 1:
        several = N_("the PNG carries {count} openbadgecredential chunks; a badge carries one credential")
        raise BakingError(several.format(count=len(named)))
    if named and named[0] != b"iTXt":
        wrong = N_("the openbadgecredential chunk is a {kind} chunk; Open Badges 3.0 bakes into iTXt")
        raise BakingError(wrong.format(kind=named[0].decode("ascii", "replace")))
    if KEYWORD in png[end:]:
        raise BakingError(N_("the PNG carries a credential after its IEND chunk"))
    for kind, data in chunks:
        if not _is_credential_chunk(kind, data):
            continue
        # keyword NUL, compression flag, compression method, language NUL, translated NUL, text
        rest = data[len(KEYWORD) + 1 :]
        if len(rest) < 4:
            raise BakingError(N_("malformed openbadgecredential iTXt chunk"))
        compressed, rest = rest[0], rest[2:]
        _language, sep1, rest = rest.partition(b"\0")
        _translated, sep2, text = rest.partition(b"\0")
        if not (sep1 and sep2):
            raise BakingError(N_("malformed openbadgecredential iTXt chunk"))
        if compressed:
            try:
                text = zlib.decompress(text)
            except zlib.error as exc:
                raise BakingError(
                    N_("compressed credential chunk is unreadable: {reason}").format(reason=exc)
                ) from None
        try:
            return text.decode("utf-8")
        except UnicodeDecodeError:
            raise BakingError(N_("the baked credential is not UTF-8 text")) from None
    raise BakingError(N_("the PNG carries no openbadgecredential chunk"))


def bake_svg(svg: str, credential_text: str, jwt: bool = False) -> str:
    """``svg`` with the credential element added (replacing an earlier one):
    ``credential_text`` is the credential's JSON, or with ``jwt`` its VC-JWT."""
    from defusedxml import ElementTree as SafeET

    try:
        root = SafeET.fromstring(svg)
    except Exception as exc:
        raise BakingError(N_("not an SVG document: {reason}").format(reason=exc)) from None
    if not root.tag.endswith("svg"):
        raise BakingError(N_("not an SVG document (the root element is not <svg>)"))
    start = svg.find("<svg")
    end_open = svg.find(">", start)
    close = svg.rfind("</svg>")
    if start < 0 or end_open < 0 or close < 0 or svg[end_open - 1] == "/":
        raise BakingError(N_("the SVG root must have an opening and a closing tag"))
    head, body, tail = svg[: end_open + 1], svg[end_open + 1 : close], svg[close:]
    body = _strip_credential(body)
    if "xmlns:openbadges" not in head:
        head = head[:-1] + f' xmlns:openbadges="{OB_NS}">'
    if jwt:
        element = (
            f'<openbadges:credential verify="{html.escape(credential_text, quote=True)}">'
            "</openbadges:credential>"
        )
    else:
        # "]]>" would end the CDATA section; in JSON it can only occur inside a string,
        # where "\u003e" is the same ">"
        credential_text = credential_text.replace("]]>", "]]\\u003e")
        element = f"<openbadges:credential><![CDATA[{credential_text}]]></openbadges:credential>"
    return head + element + body + tail


def _strip_credential(body: str) -> str:
    start = body.find("<openbadges:credential")
    if start < 0:
        return body
    end = body.find("</openbadges:credential>", start)
    if end < 0:
        end_self = body.find("/>", start)
        return body[:start] + body[end_self + 2 :] if end_self >= 0 else body
    return body[:start] + body[end + len("</openbadges:credential>") :]


def unbake_svg(svg: str) -> str:
    from defusedxml import ElementTree as SafeET

    try:
        root = SafeET.fromstring(svg)
    except Exception as exc:
        raise BakingError(N_("not an SVG document: {reason}").format(reason=exc)) from None
    found = [e for e in root.iter() if e.tag == f"{{{OB_NS}}}credential"]
    if len(found) > 1:
        several = N_("the SVG carries {count} openbadges:credential elements; a badge carries one credential")
        raise BakingError(several.format(count=len(found)))
    for child in found:
        if child not in list(root):
            raise BakingError(
                N_(
                    "the SVG's credential element must be an openbadges:credential directly "
                    "under the root <svg>"
                )
            )
        verify_attr, text = child.get("verify"), (child.text or "").strip()
        if verify_attr and text:
            raise BakingError(
                N_("the openbadges:credential element holds both a VC-JWT and JSON; a badge carries one")
            )
        if verify_attr:
            return str(verify_attr)
        if text:
            return text
        raise BakingError(N_("the openbadges:credential element is empty"))
    raise BakingError(N_("the SVG carries no openbadges:credential element"))


def unbake(data: bytes) -> str:
    """The credential text baked into a PNG or SVG file's bytes."""
    if data[:4] == PNG_SIGNATURE[:4]:
        return unbake_png(data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BakingError(N_("neither a PNG nor an SVG (UTF-8) file")) from None
    return unbake_svg(text)


def badge_png(size: int = 128, rgb: tuple[int, int, int] = (0x1F, 0x6F, 0x5C)) -> bytes:
    """A plain round badge image (a filled disc on transparency), for baking when the
    organisation has no artwork of its own."""
    rows = []
    r = size / 2
    for y in range(size):
        row = bytearray(b"\0")  # filter: none
        for x in range(size):
            inside = (x + 0.5 - r) ** 2 + (y + 0.5 - r) ** 2 <= (r - 1) ** 2
            row += bytes((*rgb, 255)) if inside else b"\0\0\0\0"
        rows.append(bytes(row))
    ihdr = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + _chunk(b"IHDR", ihdr)
        + _chunk(b"IDAT", zlib.compress(b"".join(rows)))
        + _chunk(b"IEND", b"")
    )


def badge_svg(title: str) -> str:
    """A plain round SVG badge with ``title`` written on it."""
    label = html.escape(title[:40])
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" '
        'viewBox="0 0 256 256" role="img" aria-label="' + label + '">'
        '<circle cx="128" cy="128" r="120" fill="#1f6f5c"/>'
        '<text x="128" y="136" text-anchor="middle" font-family="sans-serif" '
        'font-size="16" fill="#fff">' + label + "</text></svg>"
    )
