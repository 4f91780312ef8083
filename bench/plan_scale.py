"""Planning at scale: a synthetic 100,000-GPU fleet with 5,000 people over 36 months.

Prints wall time and peak memory of one plan (targets: <= 10 s, <= 1.5 GiB on 2 cores),
and the in-process re-plan time of the finance case (target <= 20 ms), with the ratio of
the large plan's time per person to the finance plan's.

    python bench/plan_scale.py [--people 5000] [--gpus 100000] [--months 36]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from datetime import date


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

    from synthetic import synthetic

    data = synthetic(args.people, args.gpus, args.months)
    t0 = time.perf_counter()
    scenario = parse_scenario(data, "<synthetic>", catalog=catalog)
    t_parse = time.perf_counter() - t0
    result = plan(scenario, catalog, today)
    wall = time.perf_counter() - t0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB on Linux

    heads = result.target.at(args.months).headcount
    print(f"finance re-plan (in process, mean of {runs}): {finance_s * 1000:.2f} ms (target <= 20 ms)")
    print(
        f"large plan: {args.people:,} people, {args.gpus:,} GPUs, {args.months} months: "
        f"{wall:.2f} s wall (parse {t_parse:.2f} s) (target <= 10 s)"
    )
    print(f"  process peak RSS {rss:.0f} MiB (target <= 1536 MiB)")
    print(
        f"  target headcount at month {args.months}: {heads:,}; assignments "
        f"{len(result.sourcing.assignments):,}; hires {sum(h.count for h in result.sourcing.hires):,}"
    )
    per_person_large = wall / max(args.people, 1)
    per_person_fin = finance_s / max(len(finance.people), 1)
    print(
        f"  time per person: large {per_person_large * 1e3:.3f} ms vs finance "
        f"{per_person_fin * 1e3:.3f} ms (ratio {per_person_large / per_person_fin:.2f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
