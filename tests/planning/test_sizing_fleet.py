"""Sizing follows the fleet (issue 8 §3): continuous in GPUs, needs from the fleet's features,
key-person risk only for domains the fleet uses."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gputeam.catalog import load_catalog
from gputeam.errors import CatalogError
from gputeam.planning import plan
from gputeam.planning.sizing import size_for
from gputeam.scenario import MAX_GPUS, load_example

from .helpers import scenario

CATALOG = load_catalog()
FLEETS = (
    {"interconnect": "infiniband", "storage": "parallel-fs", "cooling": "liquid"},
    {"interconnect": "roce", "storage": "nfs", "deployment": "hybrid", "on_call_24x7": True},
    {"interconnect": "ethernet", "storage": "object", "deployment": "cloud"},
)
CLOUD = {"interconnect": "ethernet", "storage": "object", "cooling": "air", "deployment": "cloud"}
ON_PREM_ONLY = {"infiniband", "storage-gds", "liquid-cooling", "roce-ethernet"}


def team(gpus: int, mode: str = "template", **fleet: object) -> dict[str, int]:
    sc = scenario(mode=mode, fleet={"gpus": [{"month": 1, "count": gpus}], **fleet})
    return {s.role: s.count for s in size_for(sc, CATALOG, gpus, 1).slots}


@settings(max_examples=150, deadline=None)
@given(
    gpus=st.integers(min_value=1, max_value=MAX_GPUS - 1),  # gpus + 1 is sized too
    fleet=st.sampled_from(FLEETS),
    mode=st.sampled_from(("template", "lean")),
)
def test_headcount_grows_with_gpus_one_rounding_at_a_time(
    gpus: int, fleet: dict[str, object], mode: str
) -> None:
    """Rule (docs/planning.md, Sizing): headcount is non-decreasing in GPUs, and from one GPU
    count to the next each role changes by at most one person (its rounding), so the team never
    jumps by more than one person per role."""
    here, there = team(gpus, mode, **fleet), team(gpus + 1, mode, **fleet)
    assert sum(there.values()) >= sum(here.values())
    for role in set(here) | set(there):
        assert abs(there.get(role, 0) - here.get(role, 0)) <= 1, role
    assert sum(there.values()) - sum(here.values()) <= len(CATALOG.roles)


def test_no_cliff_at_the_1000_gpu_boundary() -> None:
    """Before: 1,000 GPUs -> 10 people, 1,001 -> 29 (above the article's large roster of 22)."""
    a, b = sum(team(1000).values()), sum(team(1001).values())
    assert a == 10 and b - a <= 1
    large = sum(s.count for s in CATALOG.templates["large"].slots)
    assert sum(team(CATALOG.templates["large"].anchor.__int__()).values()) == large == 22
    assert all(sum(team(g).values()) <= large for g in range(1000, 3001, 50))


@pytest.mark.parametrize("mode", ["template", "lean"])
@pytest.mark.parametrize("gpus", [64, 500, 2000])
def test_all_cloud_fleet_needs_no_on_prem_specialists(mode: str, gpus: int) -> None:
    sc = scenario(mode=mode, fleet={"gpus": [{"month": 1, "count": gpus}], **CLOUD})
    tm = size_for(sc, CATALOG, gpus, 1)
    roles = {s.role for s in tm.slots}
    assert not roles & {"network-specialist", "storage-specialist"}
    needed = {d for s in tm.slots for d in s.domains} | {c.domain for c in tm.coverage}
    assert not needed & ON_PREM_ONLY
    assert "cloud" in needed
    assert any("cloud" in s.domains for s in tm.slots)


def test_on_prem_infiniband_liquid_fleet_keeps_its_specialists() -> None:
    sc = scenario(
        fleet={
            "gpus": [{"month": 1, "count": 500}],
            "interconnect": "infiniband",
            "storage": "gpudirect-storage",
            "cooling": "liquid",
        }
    )
    tm = size_for(sc, CATALOG, 500, 1)
    by_role = {s.role: s for s in tm.slots}
    assert "infiniband" in by_role["network-specialist"].domains
    assert "storage-gds" in by_role["storage-specialist"].domains
    assert "liquid-cooling" in {c.domain for c in tm.coverage}


def test_ethernet_fleet_needs_roce_not_infiniband_in_every_role() -> None:
    """The lead's InfiniBand need follows the fabric too, not only the network specialist's."""
    sc = scenario(fleet={"gpus": [{"month": 1, "count": 64}], "interconnect": "roce"})
    tm = size_for(sc, CATALOG, 64, 1)
    assert all("infiniband" not in s.domains for s in tm.slots)
    lead = next(s for s in tm.slots if s.role == "infrastructure-lead")
    assert lead.domains["roce-ethernet"] == 2


def test_key_person_risk_only_for_domains_the_fleet_uses() -> None:
    today = date(2026, 12, 2)
    healthcare = plan(load_example("healthcare"), CATALOG, today, runs=300)  # RoCE, NFS, air
    assert healthcare.risk is not None
    domains = {b.domain for b in healthcare.risk.bus_factors}
    assert "infiniband" not in domains and "storage-gds" not in domains
    cloud = scenario(fleet={"gpus": [{"month": 1, "count": 500}], **CLOUD})
    p = plan(cloud, CATALOG, today, runs=300)
    assert p.risk is not None
    used = {d for m in p.target.months for s in m.slots for d in s.domains}
    domains = {b.domain for b in p.risk.bus_factors}
    assert domains <= used and not domains & ON_PREM_ONLY


def test_a_circular_otherwise_chain_is_refused() -> None:
    with pytest.raises(CatalogError) as err:
        load_catalog(
            {
                "domains": [
                    {"id": "cloud", "otherwise": "infiniband", "needed_when": {"deployment": ["on-prem"]}}
                ]
            }
        )
    assert "otherwise" in str(err.value)
