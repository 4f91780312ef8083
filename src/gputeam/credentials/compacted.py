"""A credential must be written in compacted form under its own ``@context``.

A Data Integrity proof signs the credential's RDF, not its JSON: writing a property by its
full IRI (``"https://www.w3.org/2018/credentials#credentialStatus"`` for
``credentialStatus``), or a value as a typed ``{"@value": …, "@type": …}`` object, leaves
the RDF, and so the proof, unchanged, while a reader that looks for ``credentialStatus`` or
``validUntil`` by name no longer sees it: a holder could hide a revocation or an expiry. So
the document is expanded and compacted again with its own ``@context`` (the bundled
contexts, offline), and must come back as it was; the first terms that do not are named.

Two liberties compaction leaves are read alike here: a single value written as a
one-element array (or the other way round), and a relative IRI no context defines (a type
such as ``"Organisation"``), which expansion resolves against a base and compaction cannot
make relative again.
"""

from __future__ import annotations

import json
from typing import Any

from gputeam.credentials.loader import document_loader
from gputeam.i18n import N_

#: The base pyld resolves a relative IRI against when it expands one (a type no context
#: defines, such as ``"Organisation"``); compaction cannot make it relative again.
RELATIVE_BASE = "http://example.org/base/"
#: The most differences named in one refusal.
MAX_NAMED = 5
_SHOWN = 80


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def compacted(document: dict[str, Any], loader: Any = document_loader) -> dict[str, Any] | None:
    """``document`` expanded and compacted again under its own ``@context``, or None when
    JSON-LD cannot process it or would drop a property (the proof check says why)."""
    from pyld.jsonld import JsonLdError, JsonLdProcessor

    dropped: list[str] = []
    processor = JsonLdProcessor(on_property_dropped=lambda term: dropped.append(str(term)))
    try:
        out: dict[str, Any] = processor.compact(
            document, {"@context": document.get("@context")}, {"documentLoader": loader}
        )
    except (JsonLdError, ValueError, TypeError):
        return None
    return None if dropped else out


def _differences(found: Any, expected: Any, path: str, out: list[str]) -> None:
    if len(out) >= MAX_NAMED:
        return
    if isinstance(found, list) and len(found) == 1 and not isinstance(expected, list):
        found = found[0]
    if isinstance(expected, list) and len(expected) == 1 and not isinstance(found, list):
        expected = expected[0]
    if isinstance(found, dict) and isinstance(expected, dict):
        extra = [k for k in found if k not in expected]
        missing = [k for k in expected if k not in found]
        for key in extra:
            same = [m for m in missing if len(missing) == len(extra) == 1 or key.endswith(("#" + m, "/" + m))]
            if len(same) == 1:
                renamed = N_(
                    "{path}: property {found} is not in compacted form under the credential's "
                    "@context (compacted, it is {term})"
                )
                out.append(renamed.format(path=path, found=repr(key), term=repr(same[0])))
            else:
                stray = N_(
                    "{path}: property {found} is not in compacted form under the credential's "
                    "@context (compaction does not give it back)"
                )
                out.append(stray.format(path=path, found=repr(key)))
        if not extra:
            for key in missing:
                out.append(
                    N_(
                        "{path}: compaction under the credential's @context adds property {term}, "
                        "which the document writes otherwise"
                    ).format(path=path, term=repr(key))
                )
        for key in found:
            if key in expected:
                _differences(found[key], expected[key], f"{path}.{key}", out)
    elif isinstance(found, list) and isinstance(expected, list) and len(found) == len(expected):
        for i, (a, b) in enumerate(zip(found, expected, strict=True)):
            _differences(a, b, f"{path}[{i}]", out)
    elif isinstance(found, str) and expected == RELATIVE_BASE + found:
        return  # a relative IRI (a type no context defines): compaction cannot give it back
    elif found != expected or type(found) is not type(expected):
        value = N_(
            "{path}: the value {found} is not in compacted form under the credential's @context "
            "(compacted, it is {expected})"
        )
        out.append(value.format(path=path, found=_shown(found), expected=_shown(expected)))


def compaction_problems(document: dict[str, Any], loader: Any = document_loader) -> list[str]:
    """Where ``document`` differs from its compacted form (empty: it is compacted; also
    empty when JSON-LD cannot process it, which the proof check reports)."""
    again = compacted(document, loader)
    if again is None:
        return []
    out: list[str] = []
    _differences(document, again, "credential", out)
    return out
