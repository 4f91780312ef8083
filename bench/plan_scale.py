"""Planning at scale: a synthetic 100,000-GPU fleet with 5,000 people over 36 months.

Prints wall time and peak memory of one plan (targets: <= 10 s, <= 1.5 GiB on 2 cores),
and the in-process re-plan time of the finance case (target <= 20 ms), with the ratio of
the large plan's time per person to the finance plan's.

    python bench/plan_scale.py [--people 5000] [--gpus 100000] [--months 36]
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
import tracemalloc
from datetime import date
from typing import Any

BACKGROUNDS = ("sysadmin", "network-engineer", "storage-admin", "developer", "gpu-engineer")


def synthetic(people: int, gpus: int, months: int, seed: int = 7) -> dict[str, Any]:
    """A scenario dict: GPUs ramp to ``gpus`` in steps; ``people`` with random skills."""
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
        persons.append({
            "id": f"p{i:05d}", "name": f"Person {i}", "background": rng.choice(BACKGROUNDS),
            "level": level, "experience_months": rng.randint(0, 12 * level),
            "skills": skills, "weekly_study_hours": rng.choice([2, 4, 6, 8]),
            "certifications": ([{"id": "nca-aiio", "earned": "2026-06-01"}]
                               if level >= 2 and rng.random() < 0.5 else []),
        })
    return {
        "organisation": "Synthetic Hyperscaler", "start": "2027-01-01",
        "horizon_months": months, "mode": "template",
        "fleet": {"gpus": steps, "sites": 4, "interconnect": "infiniband",
                  "storage": "gpudirect-storage", "cooling": "liquid", "on_call_24x7": True,
                  "compliance": ["SOC 2"], "orchestration": "both", "deployment": "hybrid"},
        "people": persons,
        "constraints": {"deadline_month": 12, "hiring_lead_time_months": 3,
                        "max_hires_per_month": 20},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--people", type=int, default=5000)
    ap.add_argument("--gpus", type=int, default=100_000)
    ap.add_argument("--months", type=int, default=36)
    args = ap.parse_args(argv)

    from gputeam.catalog import load_catalog
    from gputeam.planning import plan
    from gputeam.scenario import load_example, parse_scenario

    catalog = load_catalog()
    today = date(2026, 12, 2)
    finance = load_example("finance")
    plan(finance, catalog, today)  # warm up imports and caches
    runs = 50
    t0 = time.perf_counter()
    for _ in range(runs):
        plan(finance, catalog, today)
    finance_s = (time.perf_counter() - t0) / runs

    data = synthetic(args.people, args.gpus, args.months)
    tracemalloc.start()
    t0 = time.perf_counter()
    scenario = parse_scenario(data, "<synthetic>", catalog=catalog)
    t_parse = time.perf_counter() - t0
    result = plan(scenario, catalog, today)
    wall = time.perf_counter() - t0
    _, peak_traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB on Linux

    heads = result.target.at(args.months).headcount
    print(f"finance re-plan (in process, mean of {runs}): {finance_s * 1000:.2f} ms "
          f"(target <= 20 ms)")
    print(f"large plan: {args.people:,} people, {args.gpus:,} GPUs, {args.months} months: "
          f"{wall:.2f} s wall (parse {t_parse:.2f} s) (target <= 10 s)")
    print(f"  peak Python allocations {peak_traced / 2**20:.0f} MiB; process max RSS {rss:.0f} MiB "
          f"(target <= 1536 MiB)")
    print(f"  target headcount at month {args.months}: {heads:,}; assignments "
          f"{len(result.sourcing.assignments):,}; hires {sum(h.count for h in result.sourcing.hires):,}")
    per_person_large = wall / max(args.people, 1)
    per_person_fin = finance_s / max(len(finance.people), 1)
    print(f"  time per person: large {per_person_large * 1e3:.3f} ms vs finance "
          f"{per_person_fin * 1e3:.3f} ms (ratio {per_person_large / per_person_fin:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
