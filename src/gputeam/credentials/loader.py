"""The offline JSON-LD document loader: the bundled contexts, pinned by hash, and nothing else.

A credential whose ``@context`` names any other URL is refused (:class:`UnknownContext`),
never fetched: verification never touches the network.
"""

from __future__ import annotations

import copy
import hashlib
import json
from functools import cache
from importlib import resources
from typing import Any

from gputeam.i18n import N_

CREDENTIALS_V2 = "https://www.w3.org/ns/credentials/v2"
OB_V3P0 = "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"

#: URL -> (bundled file, SHA-256 of its bytes). See contexts/NOTICE.md for where they come from.
CONTEXTS: dict[str, tuple[str, str]] = {
    CREDENTIALS_V2: (
        "credentials-v2.jsonld",
        "8a9f494a89ecc51db093e90e84713e07e84d6d9204364a9b3c7868b21751236f",
    ),
    OB_V3P0: (
        "ob-v3p0-context-3.0.3.json",
        "ef2fa9c7846dce233cc166b43639027278be4ee44f00bb1d45c75de2dd0cd761",
    ),
}


class UnknownContext(ValueError):
    """A context URL that is not bundled (gputeam never fetches one)."""

    def __init__(self, url: str) -> None:
        self.url = url
        super().__init__(
            N_(
                "unknown JSON-LD context {url}: only the bundled contexts are used offline ({bundled})"
            ).format(url=repr(url), bundled=", ".join(sorted(CONTEXTS)))
        )


class DamagedContext(RuntimeError):
    """A bundled context whose bytes are not the ones pinned: a damaged installation, refused
    rather than verified against."""


@cache
def _bundled(url: str) -> dict[str, Any]:
    name, digest = CONTEXTS[url]
    data = resources.files("gputeam.credentials").joinpath("contexts").joinpath(name).read_bytes()
    found = hashlib.sha256(data).hexdigest()
    if found != digest:
        raise DamagedContext(
            N_(
                "bundled context {name} has SHA-256 {found}, expected {expected}: the "
                "installation is damaged, so nothing is verified against it"
            ).format(name=name, found=found, expected=digest)
        )
    doc: dict[str, Any] = json.loads(data)
    return doc


def context(url: str) -> dict[str, Any]:
    """A fresh copy of the bundled context document for ``url``."""
    if url not in CONTEXTS:
        raise UnknownContext(url)
    return copy.deepcopy(_bundled(url))


def document_loader(url: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """pyld's loader interface: the bundled document or :class:`UnknownContext`."""
    return {"contextUrl": None, "documentUrl": url, "document": context(url)}
