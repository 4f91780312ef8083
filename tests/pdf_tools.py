"""What the PDF tests need: the system Chromium and poppler-utils (skipped without them
locally, a failure under CI=true), and a way to run poppler's tools."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest

from gputeam.report import pdf

POPPLER = ("pdfinfo", "pdffonts", "pdftotext")


def need_pdf_tools() -> None:
    missing = [t for t in POPPLER if shutil.which(t) is None]
    if not Path(pdf.CHROMIUM).exists():
        missing.append(pdf.CHROMIUM)
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"missing under CI: {missing} (Debian packages chromium, poppler-utils)")
        pytest.skip(f"missing: {missing} (Debian packages chromium, poppler-utils)")


def tool(*args: str | Path) -> str:
    """The standard output of a poppler tool (it must succeed)."""
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, check=True).stdout


def embedded_fonts(path: Path) -> dict[str, set[str]]:
    """Each embedded font of the PDF (by its name) and the characters it can draw: those its
    ToUnicode map or the font program's own cmap (which pdftotext also reads: the bundled font
    draws U+2018 with its U+02BB glyph) give for a glyph that the program holds with an outline.

    A glyph Chromium drew as a placeholder (the font's ``.notdef`` box, or an empty glyph
    for a character the font lacks) does not count, though pdftotext still extracts its
    character; a font without an embedded program (``FontFile2``) draws nothing here."""
    from fontTools.ttLib import TTFont
    from pypdf import PdfReader

    out: dict[str, set[str]] = {}
    seen: set[int] = set()
    for page in PdfReader(path).pages:
        fonts = page["/Resources"].get("/Font", {})
        for ref in fonts.values():
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            font = ref.get_object()
            name = str(font["/BaseFont"]).lstrip("/")
            drawn = out.setdefault(name, set())
            assert font["/Subtype"] == "/Type0", f"{name}: not a CID font ({font['/Subtype']})"
            cid_font = font["/DescendantFonts"][0].get_object()
            assert cid_font.get("/CIDToGIDMap", "/Identity") == "/Identity", f"{name}: CIDToGIDMap"
            program = cid_font["/FontDescriptor"].get_object().get("/FontFile2")
            if program is None:
                continue
            glyphs = TTFont(BytesIO(program.get_object().get_data()))
            order, glyf = glyphs.getGlyphOrder(), glyphs["glyf"]
            ids = {name: gid for gid, name in enumerate(order)}
            mapped = _to_unicode(font["/ToUnicode"].get_object().get_data().decode("latin-1"))
            mapped += [(ids[name], chr(c)) for c, name in (glyphs.getBestCmap() or {}).items()]
            for gid, text in mapped:
                if 0 < gid < len(order) and glyf[order[gid]].numberOfContours != 0:
                    drawn.update(text)
    return out


def _to_unicode(cmap: str) -> list[tuple[int, str]]:
    """The (character id, text) pairs of a ToUnicode CMap (its bfchar and bfrange entries)."""

    def text(hexdigits: str) -> str:
        return bytes.fromhex(hexdigits).decode("utf-16-be")

    hex_ = r"<([0-9A-Fa-f]+)>"
    pairs: list[tuple[int, str]] = []
    for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S):
        pairs += [(int(c, 16), text(d)) for c, d in re.findall(rf"{hex_}\s*{hex_}", block)]
    for block in re.findall(r"beginbfrange(.*?)endbfrange", cmap, re.S):
        for lo, hi, dest in re.findall(rf"{hex_}\s*{hex_}\s*(<[0-9A-Fa-f]+>|\[[^\]]*\])", block):
            codes = range(int(lo, 16), int(hi, 16) + 1)
            if dest.startswith("["):  # one destination per code
                pairs += [(c, text(d)) for c, d in zip(codes, re.findall(hex_, dest), strict=False)]
            else:  # the first code's text, its last character counting up
                first = text(dest[1:-1])
                pairs += [(c, first[:-1] + chr(ord(first[-1]) + i)) for i, c in enumerate(codes)]
    return pairs


def median_text_heights(path: Path) -> list[float | None]:
    """Each page's median glyph height in points (font size x text and graphics scaling),
    read with pypdf: a page Chromium shrank to fit something wide has smaller text than its
    CSS asks for, whatever the language."""
    import statistics

    from pypdf import PdfReader

    out: list[float | None] = []
    for page in PdfReader(path).pages:
        heights: list[float] = []

        def visit(text: str, cm: Any, tm: Any, font: Any, size: float, into: list[float] = heights) -> None:
            chars = len(text.strip())
            if chars:
                scale = (cm[2] ** 2 + cm[3] ** 2) ** 0.5 * (tm[2] ** 2 + tm[3] ** 2) ** 0.5
                into.extend([size * scale] * chars)

        page.extract_text(visitor_text=visit)
        out.append(statistics.median(heights) if heights else None)
    return out
