"""Occupation alignments for achievements: O*NET-SOC and ISCO-08 (as ESCO publishes it), by the
skill-domain groups a certification grants. The few entries used are bundled with their
attribution in ``data/occupations.yaml`` (both frameworks are CC BY 4.0)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from gputeam.credentials.issue import Alignment

ONET_URL = "https://www.onetonline.org/link/summary/{code}"
ESCO_ISCO_URI = "http://data.europa.eu/esco/isco/C{code}"


@cache
def _table() -> dict[str, Any]:
    import yaml

    text = (
        resources.files("gputeam.credentials")
        .joinpath("data")
        .joinpath("occupations.yaml")
        .read_text(encoding="utf-8")
    )
    data: dict[str, Any] = yaml.safe_load(text)
    return data


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
