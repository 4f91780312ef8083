"""What a person's e-mail and role may be: one implementation shared by every way in (the
roster import, the web app's person form and the JSON API), so none of them lets in what
another refuses. Each front end words its own message around these answers.

* An e-mail address is at most :data:`EMAIL_LONGEST` characters and matches :data:`EMAIL`
  as a whole (something@domain.tld, no spaces). Callers decide about blanks (the form and
  the import treat a blank as no e-mail; the API's "no e-mail" is null).
* A role is a catalog role id; when changing a person, also the role they already have
  (kept unchanged even if the catalog no longer has it).
"""

from __future__ import annotations

import re
from collections.abc import Container

#: what passes for an e-mail address; also public as ``gputeam.store.importing.EMAIL``
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
EMAIL_LONGEST = 320
EMAIL_EXAMPLE = "name@example.org"


def email_fault(value: str) -> str | None:
    """Why ``value`` is not an acceptable e-mail address, or None when it is."""
    if len(value) > EMAIL_LONGEST:
        return f"longer than {EMAIL_LONGEST} characters"
    if not EMAIL.fullmatch(value):
        return "not an e-mail address"
    return None


def role_allowed(value: str, roles: Container[str], current: str | None = None) -> bool:
    """Whether ``value`` may be stored as a person's role: one of the catalog's role ids
    (``roles``), or ``current``, the role the person already has."""
    return value in roles or (current is not None and value == current)
