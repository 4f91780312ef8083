"""Renderers: one Plan, many formats. Each format module has ``render(plan) -> bytes``."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gputeam.planning.result import Plan

FORMATS = {"json": "json_out", "md": "markdown", "html": "html", "xlsx": "xlsx", "ics": "ics"}
EXTENSIONS = {"json": "json", "md": "md", "markdown": "md", "html": "html", "htm": "html",
              "xlsx": "xlsx", "ics": "ics"}


def render(plan: Plan, fmt: str) -> bytes:
    """The plan rendered as ``fmt`` (json, md, html, xlsx or ics)."""
    module = import_module(f"gputeam.report.{FORMATS[fmt]}")
    out: bytes = module.render(plan)
    return out


__all__ = ["EXTENSIONS", "FORMATS", "render"]
