"""Alignments to ESCO skills: the bundled table (attributed, CC BY 4.0), the OB 3.0
Alignment each entry becomes, and OB 3.0's rule for ``targetType`` (its enumeration, or an
``ext:`` extension term)."""

from __future__ import annotations

from importlib import resources

import pytest

from gputeam.catalog import load_catalog
from gputeam.credentials import Alignment
from gputeam.credentials.occupations import ESCO_SKILL_URI, esco_skill_alignments

# ESCO skill concepts the table maps (URI and English preferred label as ESCO publishes them)
CLOUD = ("http://data.europa.eu/esco/skill/bd14968e-e409-45af-b362-3495ed7b10e0", "cloud technologies")
MONITOR = (
    "http://data.europa.eu/esco/skill/9190d87f-9792-42e0-bb7f-64294a656bcd",
    "monitor system performance",
)


def _table_text() -> str:
    return resources.files("gputeam.credentials").joinpath("data/esco_skills.yaml").read_text("utf-8")


def test_esco_skill_alignments_follow_ob3_alignment() -> None:
    (cloud,) = esco_skill_alignments(["cloud"])
    assert cloud.as_json() == {
        "type": ["Alignment"],
        "targetName": CLOUD[1],
        "targetUrl": CLOUD[0],
        "targetFramework": "ESCO",
        "targetCode": "bd14968e-e409-45af-b362-3495ed7b10e0",
        "targetType": "ext:ESCOSkill",
    }
    # a concept two domains map to is aligned once; an unmapped domain adds nothing
    both = esco_skill_alignments(["monitoring", "linux", "performance"])
    assert [(a.target_url, a.target_name) for a in both] == [MONITOR]
    assert esco_skill_alignments(["linux", "infiniband", "liquid-cooling"]) == ()


def test_the_bundled_table_is_attributed_and_names_catalog_domains_and_esco_uris() -> None:
    import yaml

    text = _table_text()
    assert "© European Union" in text and "creativecommons.org/licenses/by/4.0" in text
    table = yaml.safe_load(text)
    domains = set(load_catalog().domains)
    assert set(table) <= domains, set(table) - domains
    for domain, entries in table.items():
        for entry in entries:
            assert ESCO_SKILL_URI.fullmatch(entry["uri"]), (domain, entry)
            assert entry["label"] and entry["label"] == entry["label"].strip()


def test_target_type_is_an_ob3_term_or_an_extension() -> None:
    for ok in ("CFItem", "ceasn:Competency", "ext:ESCOSkill", None):
        Alignment("x", "https://example.org/x", "F", target_type=ok)
    for bad in ("ESCOSkill", "ext:", "ext:has space", "cfitem"):
        with pytest.raises(ValueError, match="targetType"):
            Alignment("x", "https://example.org/x", "F", target_type=bad)
