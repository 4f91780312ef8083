"""What-if speed: re-planning as a user moves the GPU, deadline and budget controls.

The web app's plan page re-plans the live team on every change with a short risk run
(200 runs). This prints, for the finance example and a synthetic team of 200 people, the
median and worst re-plan time over a sweep of GPU counts, and the HTML report's render time
(target: well under a second for a what-if; the report renders once per export).

    python bench/whatif.py
"""

from __future__ import annotations

import statistics
import sys
import time
from datetime import date


def main() -> int:
    from synthetic import synthetic

    from gputeam.catalog import load_catalog
    from gputeam.planning import plan
    from gputeam.report import html
    from gputeam.scenario import Fleet, GpuStep, load_example, parse_scenario

    catalog = load_catalog()
    today = date(2026, 12, 2)
    teams = {
        "finance": load_example("finance"),
        "synthetic 200": parse_scenario(synthetic(200, 4000, 12), "<synthetic>", catalog=catalog),
    }
    for name, sc in teams.items():
        plan(sc, catalog, today, runs=200)  # warm up imports and the solver
        times = []
        for gpus in (32, 64, 128, 256, 512, 1024, 2048, 4096):
            fleet = Fleet.model_validate({**sc.fleet.model_dump(), "gpus": [GpuStep(month=1, count=gpus)]})
            what = sc.model_copy(update={"fleet": fleet})
            t0 = time.perf_counter()
            plan(what, catalog, today, runs=200)
            times.append(time.perf_counter() - t0)
        print(
            f"{name:>14}: what-if re-plan median {statistics.median(times) * 1000:.0f} ms, "
            f"worst {max(times) * 1000:.0f} ms over {len(times)} GPU counts"
        )
    p = plan(teams["finance"], catalog, today)
    html.render(p)
    t0 = time.perf_counter()
    html.render(p)
    print(f"HTML report render (finance, warm): {(time.perf_counter() - t0) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
