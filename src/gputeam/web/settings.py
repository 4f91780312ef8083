"""The web app's one typed settings object (environment prefix ``GPUTEAM_``).

Built explicitly by whoever starts the app (``gputeam serve``, a test, an ASGI factory);
nothing reads the environment at import time. Outside development mode it refuses an
empty, short or well-known secret key, because the key signs session cookies and CSRF
tokens: anybody who knows it can log in as anybody.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from gputeam.errors import InputError, Problem
from gputeam.i18n import N_
from gputeam.store import TableLimits

#: Secrets seen in examples and templates; never acceptable outside development.
KNOWN_SECRETS = frozenset(
    {"", "changethis", "change-me", "changeme", "secret", "dev", "development", "gputeam", "insecure"}
)
MIN_SECRET_LENGTH = 32
#: the least entropy a key may show, in bits, estimated from how often each character
#: occurs (32 random hexadecimal digits show about 120; 32 times 'a' shows none)
MIN_SECRET_BITS = 64
#: the command that makes a good key (also in docs/web.md)
MAKE_KEY = "python -c 'import secrets; print(secrets.token_urlsafe(48))'"


def secret_bits(key: str) -> float:
    """An estimate of the key's entropy: its length times the Shannon entropy of its
    characters; 0 for a key that repeats a shorter pattern (``abcabc...``)."""
    if not key or key in (key + key)[1:-1]:
        return 0.0
    counts = Counter(key)
    n = len(key)
    return -n * sum(c / n * math.log2(c / n) for c in counts.values())


class SettingsError(InputError):
    kind = "settings"


class CatalogSettings(BaseSettings):
    """Where the catalog extra comes from, for the server and for the commands that work on
    the server's data without starting it (``gputeam exams sweep``): the explicit value
    (a ``--catalog-extra`` flag), else ``GPUTEAM_CATALOG_EXTRA``."""

    model_config = SettingsConfigDict(env_prefix="GPUTEAM_", extra="ignore", frozen=True)

    catalog_extra: str | None = Field(
        default=None, description="Path of a --catalog-extra YAML file applied to the catalog."
    )


def catalog_extra_path(given: str | None = None) -> str | None:
    """The catalog extra file the server would use: ``given``, else ``GPUTEAM_CATALOG_EXTRA``
    (the rule of :attr:`Settings.catalog_extra`, read by the same settings class)."""
    return (CatalogSettings(catalog_extra=given) if given else CatalogSettings()).catalog_extra


class Settings(CatalogSettings, TableLimits):
    """Everything the web app needs to start. Each field is read from ``GPUTEAM_<NAME>``;
    the import limits (``max_upload_bytes``, ``import_max_rows``, ...) are the store's
    :class:`~gputeam.store.limits.TableLimits`, the same for every door."""

    model_config = SettingsConfigDict(env_prefix="GPUTEAM_", extra="ignore", frozen=True)

    db: str | None = Field(
        default=None,
        description="SQLAlchemy database URL (sqlite:///... or postgresql://...); "
        "default: the embedded SQLite file in the user's data directory.",
    )
    secret_key: str = Field(
        default="", description="Signs session cookies and CSRF tokens; 32+ random characters."
    )
    dev: bool = Field(
        default=False, description="Development mode: allows an empty secret (a random one per process)."
    )
    secure_cookies: bool | None = Field(
        default=None,
        description="Mark cookies Secure. Default: when the request came over HTTPS "
        "(directly or via X-Forwarded-Proto from a trusted proxy).",
    )
    session_max_age: int = Field(
        default=14 * 24 * 3600,
        ge=60,
        description="Session lifetime in seconds (the absolute limit, however active the user).",
    )
    session_idle_seconds: int = Field(
        default=1800,
        ge=300,
        le=14 * 24 * 3600,
        description="A signed-in session ends after this many seconds without a request "
        "(the idle timeout), within its lifetime; a running exam keeps its candidate signed "
        "in until its deadline.",
    )
    login_max_failures: int = Field(
        default=5,
        ge=1,
        description="Failed logins allowed for one account from one address per window before backoff.",
    )
    login_max_failures_per_address: int = Field(
        default=50,
        ge=1,
        description="Failed logins allowed from one address (any account) "
        "per window before backoff; high, so an office behind one proxy is not locked out.",
    )
    login_max_failures_per_account: int = Field(
        default=20,
        ge=1,
        description="Failed logins allowed for one account (any address) "
        "per window before backoff; not applied from addresses the account signed in from "
        "within 30 days, so an attacker cannot lock its owner out.",
    )
    login_window_seconds: int = Field(
        default=900,
        ge=1,
        description="Window over which failed logins count, in seconds; also the longest backoff.",
    )
    login_backoff_seconds: int = Field(
        default=30,
        ge=1,
        description="First wait once a limit is reached, in seconds; doubled by each further failure.",
    )
    threads: int = Field(
        default=8,
        ge=1,
        le=200,
        description="Threads per process running request handlers (database work). Few "
        "threads queue requests fairly; many threads fight over the GIL.",
    )
    freeze_heap: bool = Field(
        default=True,
        description="After start-up and after each cache build, move the long-lived "
        "objects out of Python's full garbage collections (gc.freeze), which otherwise "
        "pause requests for 150-700 ms on a large organisation. Off only where many apps "
        "share one short-lived process (the test suite), where each freeze costs a "
        "collection of everything the other apps left.",
    )
    organisation: str = Field(
        default="My organisation", description="Name of the organisation created on first use."
    )
    public_url: str | None = Field(
        default=None,
        pattern=r"^https?://[^\s/]+(/[^\s]*)?$",
        description="The address users reach the tracker at (e.g. https://gputeam.example.org), "
        "written into credentials (status list, evidence and achievement links); default: the "
        "address of the request that issues them.",
    )

    issuer_did: Literal["key", "web"] = Field(
        default="key",
        description="How credentials name their issuer: key (did:key, the default: verifiable "
        "offline from the credential alone) or web (did:web of GPUTEAM_PUBLIC_URL, which must be "
        "https; the DID document with every issuing key is served at /.well-known/did.json and "
        "/did.json). Choose once: status lists are signed under the current choice.",
    )

    @model_validator(mode="after")
    def _did_web_needs_public_https(self) -> Settings:
        if self.issuer_did == "web" and not (self.public_url or "").startswith("https://"):
            raise SettingsError(
                [
                    Problem(
                        path="GPUTEAM_ISSUER_DID",
                        message=N_("did:web needs the server's public https:// address"),
                        found=repr(self.public_url),
                        expected="GPUTEAM_PUBLIC_URL=https://...",
                    )
                ]
            )
        return self

    def table_limits(self) -> TableLimits:
        """The import limits of these settings, as the store takes them."""
        return TableLimits(**{name: getattr(self, name) for name in TableLimits.model_fields})

    def issuer_did_web(self) -> str | None:
        """The organisation's did:web when credentials name their issuer by it, else None."""
        if self.issuer_did != "web" or not self.public_url:
            return None
        from gputeam.credentials import did_web

        return did_web(self.public_url.rstrip("/"))

    @model_validator(mode="after")
    def _safe_secret(self) -> Settings:
        if self.dev:
            return self
        check_secret_key(self.secret_key)
        return self


def distinct_words(key: str) -> str:
    """The key with each word (a run of letters and digits) kept at its first occurrence
    only and the separators between words dropped: what a key of repeated words
    (``secret-secret-secret-...``) is worth. A random key's words (``token_urlsafe``
    splits at its ``-`` and ``_``) are all different, so it keeps all its characters
    but the separators."""
    seen: set[str] = set()
    kept: list[str] = []
    for word in re.findall(r"[^\W_]+", key):
        if word.lower() not in seen:
            seen.add(word.lower())
            kept.append(word)
    return "".join(kept)


def secret_key_problem(key: str) -> str | None:
    """Why ``key`` may not sign sessions, CSRF tokens and seal issuing keys (the one rule,
    asked by every door: ``gputeam serve``, the ASGI factory, ``gputeam credential`` and
    ``gputeam exams`` commands), or None: refused when empty or a well-known default,
    shorter than :data:`MIN_SECRET_LENGTH`, or showing less than :data:`MIN_SECRET_BITS`
    (:func:`secret_bits`) as it is or, when a word occurs more than once, with its
    repeated words counted once (:func:`distinct_words`)."""
    if key.strip().lower() in KNOWN_SECRETS:
        return N_(
            "the secret key is empty or a well-known default; refusing to start outside development mode"
        )
    if len(key) < MIN_SECRET_LENGTH:
        return N_(
            "the secret key is shorter than {n} characters; refusing to start outside development mode"
        ).format(n=MIN_SECRET_LENGTH)
    words = re.findall(r"[^\W_]+", key.lower())
    repeats = len(set(words)) < len(words)
    if secret_bits(key) < MIN_SECRET_BITS or (repeats and secret_bits(distinct_words(key)) < MIN_SECRET_BITS):
        return N_(
            "the secret key is too easy to guess (a repeated character, word or pattern, or too "
            "few different characters); refusing to start outside development mode"
        )
    return None


def check_secret_key(key: str) -> None:
    """Raise :class:`SettingsError` on ``GPUTEAM_SECRET_KEY`` when :func:`secret_key_problem`
    finds one, saying how to make a good key."""
    problem = secret_key_problem(key)
    if problem:
        raise SettingsError(
            [
                Problem(
                    path="GPUTEAM_SECRET_KEY",
                    message=problem,
                    expected=N_("{n}+ random characters").format(n=MIN_SECRET_LENGTH),
                    hint=N_(
                        "make one with: {command} and set it: export GPUTEAM_SECRET_KEY=... "
                        "(the same key for every process of the app); on a development "
                        "machine use --dev instead"
                    ).format(command=MAKE_KEY),
                )
            ]
        )


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment, with explicit values (e.g. CLI flags) on top.

    Raises :class:`SettingsError` (an :class:`~gputeam.errors.InputError`) with a clear
    message instead of pydantic's ValidationError.
    """
    from pydantic import ValidationError

    values = {k: v for k, v in overrides.items() if v is not None}
    try:
        return Settings(**values)  # type: ignore[arg-type]
    except SettingsError:
        raise
    except ValidationError as exc:
        inner = [e.get("ctx", {}).get("error") for e in exc.errors()]
        first = inner[0] if inner else None
        if isinstance(first, SettingsError) and all(isinstance(e, SettingsError) for e in inner):
            raise first from None
        raise SettingsError(
            [
                Problem(
                    path="GPUTEAM_" + "_".join(str(p) for p in e["loc"]).upper(),
                    message=e["msg"],
                    found=repr(e.get("input")),
                )
                for e in exc.errors()
            ]
        ) from None
