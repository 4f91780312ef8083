"""Where two large values differ, cheaply.

pytest explains a failed ``a == b`` by diffing the two reprs with difflib; for a whole plan
that takes minutes per failure (and hypothesis repeats it while shrinking), so a CI run with
one such failure ran for over an hour. Tests comparing large models assert
``not differences(a, b)`` instead: the message names the paths that differ.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def differences(a: Any, b: Any, limit: int = 5) -> list[str]:
    """Paths where ``a`` and ``b`` differ (at most ``limit``); empty when ``a == b``."""
    if a == b:
        return []
    found: list[str] = []
    _walk(a, b, "", found, limit)
    return found or [f"{type(a).__name__}: every field equal, yet unequal (private or extra state)"]


def _walk(a: Any, b: Any, path: str, found: list[str], limit: int) -> None:
    if len(found) >= limit or a == b:
        return
    if isinstance(a, BaseModel) and type(a) is type(b):
        for name in type(a).model_fields:
            _walk(getattr(a, name), getattr(b, name), f"{path}.{name}", found, limit)
        if not found:
            found.append(f"{path or type(a).__name__}: fields equal, private or extra state differs")
    elif isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=repr):
            _walk(a.get(key, "<missing>"), b.get(key, "<missing>"), f"{path}[{key!r}]", found, limit)
    elif isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _walk(x, y, f"{path}[{i}]", found, limit)
    else:
        found.append(f"{path or '<top>'}: {repr(a)[:120]} != {repr(b)[:120]}")
