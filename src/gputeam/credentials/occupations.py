"""Framework alignments for achievements: occupations (O*NET-SOC and ISCO-08 as ESCO publishes
it) by the skill-domain groups a certification grants, and ESCO skills by its skill domains.
The few entries used are bundled with their attribution in ``data/occupations.yaml`` and
``data/esco_skills.yaml`` (all CC BY 4.0); nothing is fetched."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from gputeam.credentials.issue import Alignment

ONET_URL = "https://www.onetonline.org/link/summary/{code}"
ESCO_ISCO_URI = "http://data.europa.eu/esco/isco/C{code}"


#: OB 3.0's AlignmentTargetType has no ESCO term; this is its extension term for one.
ESCO_SKILL_TYPE = "ext:ESCOSkill"
ESCO_SKILL_URI = re.compile(
    r"http://data\.europa\.eu/esco/skill/([0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})"
)


@cache
def _data(name: str) -> dict[str, Any]:
    import yaml

    text = resources.files("gputeam.credentials").joinpath("data").joinpath(name).read_text(encoding="utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


def _table() -> dict[str, Any]:
    return _data("occupations.yaml")


def esco_skill_alignments(domains: Iterable[str]) -> tuple[Alignment, ...]:
    """The ESCO skill alignments of the catalog skill ``domains`` that are mapped, in the
    order of ``domains``, each concept once (``targetCode`` is the concept's UUID)."""
    out: dict[str, Alignment] = {}
    table = _data("esco_skills.yaml")
    for domain in domains:
        for entry in table.get(domain) or ():
            uri, label = entry["uri"], entry["label"]
            match = ESCO_SKILL_URI.fullmatch(uri)
            if match is None:
                raise ValueError(f"esco_skills.yaml: {uri!r} ({domain}) is not an ESCO skill URI")
            out.setdefault(
                uri,
                Alignment(
                    target_name=label,
                    target_url=uri,
                    target_framework="ESCO",
                    target_code=match.group(1),
                    target_type=ESCO_SKILL_TYPE,
                ),
            )
    return tuple(out.values())


def occupation_alignments(groups: Iterable[str]) -> tuple[Alignment, ...]:
    """The O*NET and ISCO-08 (ESCO) alignments of the occupations whose work covers any of
    the skill-domain ``groups``, in the table's order, each once."""
    wanted = set(groups)
    out: list[Alignment] = []
    for entry in _table().values():
        if not wanted & set(entry["groups"]):
            continue
        onet, isco = entry["onet"], entry["isco"]
        out.append(
            Alignment(
                target_name=onet["name"],
                target_url=ONET_URL.format(code=onet["code"]),
                target_framework="O*NET-SOC 2019",
                target_code=onet["code"],
            )
        )
        out.append(
            Alignment(
                target_name=isco["name"],
                target_url=ESCO_ISCO_URI.format(code=isco["code"]),
                target_framework="ISCO-08 (ESCO)",
                target_code=isco["code"],
            )
        )
    return tuple(out)
