"""What the PDF tests need: the system Chromium and poppler-utils (skipped without them
locally, a failure under CI=true), and a way to run poppler's tools."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

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
