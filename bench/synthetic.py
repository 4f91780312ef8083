"""Synthetic organisations for the benchmarks: a GPU fleet ramping in steps and people with
random levels, skills, study time and certifications (seeded, so runs compare)."""

from __future__ import annotations

import random
from typing import Any

BACKGROUNDS = ("sysadmin", "network-engineer", "storage-admin", "developer", "gpu-engineer")


def synthetic(
    people: int,
    gpus: int,
    months: int,
    seed: int = 7,
    *,
    sites: int = 4,
    salaries: bool = False,
    max_hires: int = 20,
    contractors: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A scenario dict: GPUs ramp from a tenth to ``gpus`` over ``months``; ``people`` with
    random skills; salaries drawn around their band's middle when ``salaries``."""
    from gputeam.catalog import load_catalog

    cat = load_catalog()
    rng = random.Random(seed)
    domains = sorted(cat.domains)
    steps = [{"month": 1, "count": gpus // 10}]
    for m in range(4, months + 1, 4):
        steps.append({"month": m, "count": min(gpus, gpus // 10 + gpus * m // months)})
    persons = []
    for i in range(people):
        level = rng.choices([1, 2, 3, 4, 5], weights=[30, 30, 25, 10, 5])[0]
        skills = {d: rng.randint(0, 4) for d in rng.sample(domains, rng.randint(2, 8))}
        person: dict[str, Any] = {
            "id": f"p{i:05d}",
            "name": f"Person {i}",
            "background": rng.choice(BACKGROUNDS),
            "level": level,
            "experience_months": rng.randint(0, 12 * level),
            "skills": skills,
            "weekly_study_hours": rng.choice([2, 4, 6, 8]),
        }
        if salaries:
            person["salary"] = round(rng.uniform(0.85, 1.15) * cat.levels[level].salary_usd.mid, -3)
        person["certifications"] = (
            [{"id": "nca-aiio", "earned": "2026-06-01"}] if level >= 2 and rng.random() < 0.5 else []
        )
        persons.append(person)
    constraints: dict[str, Any] = {
        "deadline_month": 12,
        "hiring_lead_time_months": 3,
        "max_hires_per_month": max_hires,
    }
    if contractors is not None:
        constraints["contractors"] = contractors
    return {
        "organisation": f"Synthetic {people}",
        "start": "2027-01-01",
        "horizon_months": months,
        "mode": "template",
        "fleet": {
            "gpus": steps,
            "sites": sites,
            "interconnect": "infiniband",
            "storage": "gpudirect-storage",
            "cooling": "liquid",
            "on_call_24x7": True,
            "compliance": ["SOC 2"],
            "orchestration": "both",
            "deployment": "hybrid",
        },
        "people": persons,
        "constraints": constraints,
    }
