"""Renderers: one Plan, many formats. Each format module has ``render(plan) -> bytes``."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gputeam.planning.result import Plan

FORMATS = {"json": "json_out", "md": "markdown", "html": "html", "xlsx": "xlsx", "ics": "ics", "pdf": "pdf"}
EXTENSIONS = {
    "json": "json",
    "md": "md",
    "markdown": "md",
    "html": "html",
    "htm": "html",
    "xlsx": "xlsx",
    "ics": "ics",
    "pdf": "pdf",
}


def render(plan: Plan, fmt: str, paper: str = "a4") -> bytes:
    """The plan rendered as ``fmt`` (json, md, html, xlsx, ics or pdf; a PDF on ``paper``,
    a4 or letter)."""
    module = import_module(f"gputeam.report.{FORMATS[fmt]}")
    out: bytes = module.render(plan, paper) if fmt == "pdf" else module.render(plan)
    return out


__all__ = ["EXTENSIONS", "FORMATS", "render"]
