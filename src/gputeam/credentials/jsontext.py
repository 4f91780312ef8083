"""JSON read with a bound on nesting: a credential (or a status list, a DID document, a request
body) nested deeper than :data:`MAX_JSON_DEPTH` is refused with a sentence naming the limit,
never a ``RecursionError`` from the parser or from a later step that walks the document.

A real Open Badges 3.0 credential is nested about eight levels deep (credential, subject,
achievement, alignment, ...); a CLR with nested achievements a few more.
"""

from __future__ import annotations

import json
from typing import Any

from gputeam.i18n import N_

#: The deepest nesting accepted (objects and arrays, the outermost counting 1).
MAX_JSON_DEPTH = 64


class TooDeep(ValueError):
    """JSON nested deeper than :data:`MAX_JSON_DEPTH`."""

    def __init__(self, limit: int = MAX_JSON_DEPTH) -> None:
        self.limit = limit
        super().__init__(
            N_("the JSON is nested more than {limit} levels deep, the most gputeam reads").format(limit=limit)
        )


def depth(value: Any, stop: int = MAX_JSON_DEPTH) -> int:
    """How deep ``value`` nests (a scalar 0, ``[]`` and ``{}`` 1), counted without recursion;
    counting stops once past ``stop``."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        deepest = max(deepest, level)
        if level > stop:
            return level  # deep enough to refuse: no need to walk the rest
        stack.extend((child, level + 1) for child in children)
    return deepest


def check_depth(value: Any, limit: int = MAX_JSON_DEPTH) -> None:
    """Raise :class:`TooDeep` when ``value`` nests deeper than ``limit``."""
    if depth(value, limit) > limit:
        raise TooDeep(limit)


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``, refusing nesting deeper than :data:`MAX_JSON_DEPTH` with
    :class:`TooDeep` (a ``ValueError``, as ``json.JSONDecodeError`` is)."""
    try:
        value = json.loads(text)
    except RecursionError:  # the parser's own limit, far above ours
        raise TooDeep() from None
    check_depth(value)
    return value
