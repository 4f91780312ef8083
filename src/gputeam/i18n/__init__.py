"""Languages: gettext catalogs, the active language, and locale formats.

The user-visible texts of the internationalised parts (see ``babel.cfg`` at the repository's
root for the list) are written as ``_("...")`` / ``ngettext(...)``; the active language is a
context variable, so one process can serve several languages at once (the web sets it per
request, the CLI once from ``--lang``, ``GPUTEAM_LANG``, ``LANGUAGE`` or ``LANG``).

The catalogs are ``.po`` files in ``locale/<lang>/LC_MESSAGES/gputeam.po`` inside the
package; they are compiled to ``.mo`` on first use (in memory, cached per process), so an
editable install and a wheel behave the same. English is the source language: with ``en``
active, ``_()`` returns its argument unchanged.

``xx`` is a pseudo-locale for tests: every translated message comes back as ``⟦message⟧``,
so a page rendered in ``xx`` shows at a glance (and to a test) which texts bypass ``_()``.
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources

from gputeam.i18n import korean

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "PSEUDO",
    "N_",
    "Nn_",
    "_",
    "activate",
    "current",
    "from_accept_language",
    "from_environment",
    "gettext",
    "language_names",
    "ngettext",
    "normalise",
    "translations",
    "use",
]

DOMAIN = "gputeam"
LANGUAGES = ("en", "de", "nl", "es", "ko")
"""The languages gputeam speaks, English (the source) first."""
PSEUDO = "xx"
"""The pseudo-locale of the completeness tests (not offered to users)."""

_NAMES = {"en": "English", "de": "Deutsch", "nl": "Nederlands", "es": "Español", "ko": "한국어"}
_active: ContextVar[str] = ContextVar("gputeam_language", default="en")


def language_names() -> Mapping[str, str]:
    """Each language's own name, for a language switcher."""
    return _NAMES


def normalise(value: str | None) -> str | None:
    """``value`` ("de", "de_DE.UTF-8", "ko-KR", "NL") as one of :data:`LANGUAGES` (or the
    pseudo-locale), else None."""
    if not value:
        return None
    code = value.strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    if code in LANGUAGES or code == PSEUDO:
        return code
    return None


#: The locale categories that choose the language of messages, strongest first (POSIX).
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def from_environment(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The CLI's language: ``option`` (``--lang``), else ``GPUTEAM_LANG``, else the locale as
    gettext finds it: the first supported entry of ``LANGUAGE`` (a colon-separated priority
    list, ignored when the locale is C/POSIX), else the first set of ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` (only the first set one counts, so ``LC_ALL=C`` wins over
    ``LANG=de_DE``); default English.

    An unsupported ``option`` raises ValueError (the CLI reports it); unsupported environment
    values are skipped."""
    env = os.environ if environ is None else environ
    if option is not None:
        code = normalise(option)
        if code is None:
            raise ValueError(option)
        return code
    own = normalise(env.get("GPUTEAM_LANG", ""))
    if own is not None and own != PSEUDO:
        return own
    locale = next((env[v] for v in LOCALE_VARIABLES if env.get(v)), "")
    if locale.split(".")[0] in ("C", "POSIX"):
        return "en"
    for value in (*env.get("LANGUAGE", "").split(":"), locale):
        code = normalise(value)
        if code is not None and code != PSEUDO:
            return code
    return "en"


def from_accept_language(header: str | None) -> str | None:
    """The best supported language of an HTTP ``Accept-Language`` header, or None."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        code = normalise(tag)
        if code is not None and code != PSEUDO and quality > 0:
            ranked.append((-quality, index, code))
    return min(ranked)[2] if ranked else None


def current() -> str:
    """The active language."""
    return _active.get()


def activate(language: str) -> None:
    """Make ``language`` the active one in the current context (the CLI's whole run)."""
    _active.set(normalise(language) or "en")


@contextmanager
def use(language: str) -> Iterator[None]:
    """``with use("de"): ...`` renders in German, then restores the language before."""
    token = _active.set(normalise(language) or "en")
    try:
        yield
    finally:
        _active.reset(token)


class _Pseudo(_gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"


def _po_path(language: str) -> resources.abc.Traversable:
    return resources.files("gputeam.i18n") / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``language`` (compiled from its ``.po`` on first use)."""
    if language == PSEUDO:
        return _Pseudo()
    if language == "en":
        return _gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with _po_path(language).open("rb") as f:
        catalog = read_po(f, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def gettext(message: str) -> str:
    """``message`` in the active language."""
    language = _active.get()
    if language == "en":
        return message
    if language == "ko":  # its particles agree with the values filled in
        return korean.agreeing(translations(language).gettext(message))
    return translations(language).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the active language (its plural
    rules: Korean has one form, Spanish three in CLDR but two in gettext)."""
    language = _active.get()
    if language == "en":
        return singular if n == 1 else plural
    if language == "ko":
        return korean.agreeing(translations(language).ngettext(singular, plural, n))
    return translations(language).ngettext(singular, plural, n)


_ = gettext


def N_(message: str) -> str:
    """Marks ``message`` for extraction; translated later, where it is shown."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a singular/plural pair for extraction (``ngettext`` where it is shown)."""
    return singular, plural
