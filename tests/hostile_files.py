"""Hostile import files built at run time, small and fast: a zip-bomb XLSX (a megabyte that
unzips to a gigabyte, made without compressing the gigabyte), one whose central directory
lies about its sizes, CSVs of many rows, many columns or one giant cell.

Used by the tests (tests/store/test_import_limits.py, tests/web/test_web_import_limits.py)
and the measurement script bench/import_bounds.py.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    "</Types>"
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
_WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
)
_SHEET_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
    '<row><c t="inlineStr"><is><t>id</t></is></c><c t="inlineStr"><is><t>name</t></is></c></row>'
)
_SHEET_TAIL = "</sheetData></worksheet>"
#: one row of the bomb: ten numeric cells
_BOMB_ROW = b"<row>" + b"<c><v>1</v></c>" * 10 + b"</row>"


def _deflate_repeated(head: bytes, block: bytes, copies: int, tail: bytes) -> tuple[bytes, int, int]:
    """A raw deflate stream of ``head + block * copies + tail`` made by compressing
    ``block`` once (after a full flush, so each copy stands alone) and repeating it: its
    bytes, CRC-32 and size, without ever holding the whole output."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = c.compress(head) + c.flush(zlib.Z_FULL_FLUSH)
    piece = c.compress(block) + c.flush(zlib.Z_FULL_FLUSH)
    end = c.compress(tail) + c.flush(zlib.Z_FINISH)
    crc = zlib.crc32(head)
    for _ in range(copies):
        crc = zlib.crc32(block, crc)
    crc = zlib.crc32(tail, crc)
    return first + piece * copies + end, crc, len(head) + len(block) * copies + len(tail)


def _zip_entry(
    out: io.BytesIO,
    central: list[bytes],
    name: str,
    raw: bytes,
    crc: int,
    size: int,
    declared: int | None = None,
) -> None:
    """Write one deflated entry (local header and data) to ``out``; its central directory
    record to ``central``, with ``declared`` as its uncompressed size when given (a lie)."""
    offset = out.tell()
    fname = name.encode()
    big = size >= 0xFFFFFFFF or len(raw) >= 0xFFFFFFFF
    assert not big, "keep the fixtures under 4 GB"
    out.write(struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0x21, crc, len(raw), size, len(fname), 0))
    out.write(fname)
    out.write(raw)
    central.append(
        struct.pack(
            "<4s6H3L5H2L",
            b"PK\x01\x02",
            20,
            20,
            0,
            8,
            0,
            0x21,
            crc,
            len(raw),
            size if declared is None else declared,
            len(fname),
            0,
            0,
            0,
            0,
            0,
            offset,
        )
        + fname
    )


def _xlsx(sheet: tuple[bytes, int, int], declared: int | None = None) -> bytes:
    out = io.BytesIO()
    central: list[bytes] = []
    for name, text in (
        ("[Content_Types].xml", _CONTENT_TYPES),
        ("_rels/.rels", _RELS),
        ("xl/workbook.xml", _WORKBOOK),
        ("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS),
    ):
        data = text.encode()
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        _zip_entry(out, central, name, c.compress(data) + c.flush(), zlib.crc32(data), len(data))
    raw, crc, size = sheet
    _zip_entry(out, central, "xl/worksheets/sheet1.xml", raw, crc, size, declared)
    start = out.tell()
    directory = b"".join(central)
    out.write(directory)
    out.write(
        struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(central), len(central), len(directory), start, 0)
    )
    return out.getvalue()


def zip_bomb_xlsx(uncompressed: int = 1024**3) -> bytes:
    """An XLSX workbook of about ``uncompressed`` bytes of sheet XML (rows of ten cells)
    that weighs about a thousandth of it; readable by openpyxl (it is a valid file)."""
    copies = max(1, uncompressed // (len(_BOMB_ROW) * 16384))
    sheet = _deflate_repeated(_SHEET_HEAD.encode(), _BOMB_ROW * 16384, copies, _SHEET_TAIL.encode())
    return _xlsx(sheet)


def lying_xlsx(uncompressed: int = 256 * 1024**2, declared: int = 10_000) -> bytes:
    """A zip bomb whose central directory says its sheet unzips to ``declared`` bytes."""
    copies = max(1, uncompressed // (len(_BOMB_ROW) * 16384))
    sheet = _deflate_repeated(_SHEET_HEAD.encode(), _BOMB_ROW * 16384, copies, _SHEET_TAIL.encode())
    return _xlsx(sheet, declared=declared)


def is_zip(data: bytes) -> bool:
    try:
        zipfile.ZipFile(io.BytesIO(data)).infolist()
    except zipfile.BadZipFile:
        return False
    return True


def many_rows_csv(rows: int = 1_460_000) -> bytes:
    """A roster CSV of ``rows`` people (about 31 bytes a row: 45 MB for 1.46 million)."""
    head = b"id,name,level,team\n"
    body = b"".join(b"e%07d,Person %d,3,Team %d\n" % (i, i, i % 40) for i in range(rows))
    return head + body


def many_columns_csv(columns: int = 100_000) -> bytes:
    """A CSV whose header has ``columns`` unknown columns and two rows under it (about
    889 KB for 100,000)."""
    header = b"id,name," + b",".join(b"c%d" % i for i in range(columns - 2))
    row = b"p1,Ann," + b",".join(b"1" for _ in range(columns - 2))
    return header + b"\n" + row + b"\n" + row.replace(b"p1,Ann", b"p2,Bob") + b"\n"


def giant_cell_csv(chars: int = 200 * 1024) -> bytes:
    """A roster CSV with one cell of ``chars`` characters (over the csv module's 128 KB)."""
    return b"id,name\np1," + b"x" * chars + b"\n"
