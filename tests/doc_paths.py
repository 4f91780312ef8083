"""Shared by the property tests that mutate a parsed YAML document (catalog extras and
scenarios): every path into it, for choosing where to mutate."""

from __future__ import annotations

from typing import Any


def doc_paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key / index path below ``node`` (mappings and lists), depth first."""
    out = [path] if path else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += doc_paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += doc_paths(v, (*path, i))
    return out
