"""Stored codes in words: the one label of a code, for every report format and the web.

A plan, a roadmap and the tracker store short English codes (``salaries``, ``course``,
``in-progress``, ``optimal``, ``hire-only``); :func:`label` writes such a code in the active
language. A catalog id (a role ``operations-engineer``, a training strategy ``vendor``, a
team template ``medium``) becomes the catalog entry's translated name: from ``names``
when given (the web passes its own catalog's), else from the packaged catalog. A code that
is neither is shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from gputeam.i18n import N_, gettext

__all__ = ["WORDS", "catalog_names", "label"]

#: Codes shown on the pages and in reports (roadmap item kinds and statuses, user roles, certificate states,
#: cost categories, sizing modes, sort keys) in words; a code not listed is shown as it is.
WORDS = {
    "course": N_("course"),
    "bootcamp": N_("bootcamp"),
    "exam": N_("exam"),
    "renewal": N_("renewal"),
    "practice": N_("practice"),
    "apprenticeship": N_("apprenticeship"),
    "planned": N_("planned"),
    "in-progress": N_("in progress"),
    "done": N_("done"),
    "cancelled": N_("cancelled"),
    "valid": N_("valid"),
    "expiring": N_("expiring"),
    "expired": N_("expired"),
    "salaries": N_("salaries"),
    "hiring": N_("hiring"),
    "training": N_("training"),
    "exams": N_("exams"),
    "contractors": N_("contractors"),
    "mentoring": N_("mentoring"),
    "retention": N_("retention"),
    # a plan's solver status, sizing basis and training strategies
    "optimal": N_("optimal"),
    "time_limit": N_("time limit reached"),
    "infeasible": N_("infeasible"),
    "none": N_("none"),
    "internal": N_("internal"),
    # the ROI's counterfactuals
    "managed-service": N_("managed service"),
    "hire-only": N_("hire only"),
    "outsourced": N_("outsourced"),
    "template": N_("template"),
    "lean": N_("lean"),
    "name": N_("name"),
    "key": N_("id"),
    "level": N_("level"),
    "role": N_("role"),
    "team": N_("team"),
    "expires": N_("expiry"),
    "person": N_("person"),
    "certification": N_("certification"),
    "earned": N_("earned"),
    # a practical assessment's outcome
    "pass": N_("pass"),
    "fail": N_("fail"),
    # the skills matrix: a cell's status and where the targets come from
    "meets": N_("meets"),
    "below": N_("below"),
    "no-target": N_("no target"),
    "unrated": N_("unrated"),
    "plan": N_("plan"),
    "catalog roles": N_("catalog roles"),
    # the catalog's skill-domain groups and its sections
    "cloud": N_("cloud"),
    "fabric": N_("fabric"),
    "facilities": N_("facilities"),
    "foundation": N_("foundation"),
    "gpu": N_("GPU"),
    "operations": N_("operations"),
    "performance": N_("performance"),
    "platform": N_("platform"),
    "security": N_("security"),
    "storage": N_("storage"),
    "certifications": N_("certifications"),
    "courses": N_("courses"),
    "paths": N_("learning paths"),
    "roles": N_("roles"),
    "domains": N_("skill domains"),
    "templates": N_("team templates"),
    "strategies": N_("training strategies"),
    "levels": N_("levels"),
    "admin": N_("admin"),
    "manager": N_("manager"),
    "engineer": N_("engineer"),
    "viewer": N_("viewer"),
}


@cache
def catalog_names() -> Mapping[str, str]:
    """The packaged catalog's ids of roles, training strategies and team templates and their
    (English) names."""
    from gputeam.catalog.load import packaged_data

    raw = packaged_data()
    names: dict[str, str] = {}
    for section in ("templates", "strategies", "roles"):
        for entry in raw.get(section) or ():
            if isinstance(entry, dict) and "id" in entry and "name" in entry:
                names[str(entry["id"])] = str(entry["name"])
    return names


def label(code: object, names: Mapping[str, str] | None = None) -> str:
    """``code`` in the active language: a code word, or a catalog id as its entry's name."""
    text = str(code)
    if text.startswith("expiring-"):
        return gettext("expiring within {days} days").format(days=text.rsplit("-", 1)[1])
    if text in WORDS:
        return gettext(WORDS[text])
    name = (catalog_names() if names is None else names).get(text)
    return gettext(name) if name else text
