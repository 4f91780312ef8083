"""Sourcing optimiser against the greedy rule on synthetic organisations.

For organisations of 100, 1,000 and 5,000 people over 36 months (a GPU fleet growing with
them, template staffing), prints the optimiser's cost, the greedy rule's cost under the same
cost model, their ratio, the MIP gap and the solve time. Targets (issue 3): 1,000 people
optimal (gap <= 0.1%) in <= 2 s; 5,000 people in <= 15 s; the optimiser >= 10% cheaper than
greedy over the set.

    python bench/sourcing.py [--sizes 100,1000,5000] [--months 36] [--seed 11]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

GPUS_PER_PERSON = 20


def synthetic(people: int, months: int, seed: int) -> dict[str, Any]:
    """A scenario: GPUs ramp in steps to ``people x 20``; people with random skills."""
    from synthetic import synthetic as make

    return make(
        people,
        people * GPUS_PER_PERSON,
        months,
        seed,
        sites=2,
        salaries=True,
        max_hires=max(3, people // 50),
        contractors={"available": True, "max_share": 0.5},
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="100,1000,5000")
    ap.add_argument("--months", type=int, default=36)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--examples",
        default="finance,midsize,hyperscale",
        help="bundled examples whose optimiser run is timed (empty: none)",
    )
    ap.add_argument(
        "--readiness",
        default="finance,midsize",
        help="bundled examples whose readiness-optimised plan (target P(ready) 0.9) is timed (empty: none)",
    )
    args = ap.parse_args(argv)

    import highspy  # noqa: F401  (imported before timing: the import is not solve time)

    from gputeam.catalog import load_catalog
    from gputeam.planning.explain import greedy_evaluation
    from gputeam.planning.optimiser import optimise, solve
    from gputeam.planning.optimiser_model import build_instance, peak_slots
    from gputeam.planning.sizing import size
    from gputeam.planning.sourcing import candidates, source
    from gputeam.scenario import parse_scenario

    catalog = load_catalog()
    rows = []
    print(
        "decision cost = horizon cost the sourcing decides (upskilling, raises, hires, contractors, "
        "group discounts),\n  i.e. the total less current staff's own salaries, which no decision changes"
    )
    print(
        f"{'people':>7} {'slots':>6} {'options':>8} {'optimiser':>13} {'greedy':>13} {'greedy/opt':>10} "
        f"{'saving':>7} {'gap':>8} {'solve s':>8} {'sourcing s':>10} {'prep s':>7}  "
        "total cost opt / greedy"
    )
    for n in [int(s) for s in args.sizes.split(",")]:
        sc = parse_scenario(synthetic(n, args.months, args.seed + n), f"<synthetic {n}>")
        t0 = time.perf_counter()
        target = size(sc, catalog)
        cands = candidates(sc, catalog, target)
        inst = build_instance(sc, catalog, target, cands, peak_slots(target))
        prep = time.perf_counter() - t0
        sol = solve(inst, gap=1e-4, time_limit=60)
        greedy = source(sc, catalog, target, cands, method="rule")
        greedy_cost, greedy_open = greedy_evaluation(inst, greedy)
        t1 = time.perf_counter()
        full = optimise(sc, catalog, target, cands, greedy=greedy)
        sourcing_s = time.perf_counter() - t1
        assert sol.objective is not None, sol.status
        total = sol.objective
        opened = sum(sol.decisions.uncovered.values()) if sol.decisions else 0.0
        cost, g_cost = total - inst.fixed_cost, greedy_cost - inst.fixed_cost
        ratio = g_cost / cost
        rows.append((cost, g_cost, total, greedy_cost))
        peak = max(tm.headcount for tm in target.months)
        print(
            f"{n:>7,} {peak:>6,} {len(inst.options):>8,} {cost:>13,.0f} {g_cost:>13,.0f} "
            f"{ratio:>10.3f} {1 - cost / g_cost:>7.1%} {100 * (sol.gap or 0):>7.3f}% "
            f"{sol.seconds:>8.2f} {sourcing_s:>10.2f} {prep:>7.2f}  {total:,.0f} / {greedy_cost:,.0f}"
            + f"  open slot-months before the deadline: optimiser {opened:g}, greedy {greedy_open:g}"
        )
        assert full.status in ("optimal", "time_limit")
    opt = sum(r[0] for r in rows)
    greedy_total = sum(r[1] for r in rows)
    print(
        f"set (decision cost): optimiser {opt:,.0f}, greedy {greedy_total:,.0f}, greedy/optimiser "
        f"{greedy_total / opt:.3f}, optimiser {1 - opt / greedy_total:.1%} cheaper"
    )
    t_opt, t_greedy = sum(r[2] for r in rows), sum(r[3] for r in rows)
    print(
        f"set (total incl. current salaries): optimiser {t_opt:,.0f}, greedy {t_greedy:,.0f}, "
        f"optimiser {1 - t_opt / t_greedy:.1%} cheaper"
    )
    print(
        "USD over the horizon, undiscounted; 'solve s' is the MIP alone (HiGHS), 'sourcing s' the "
        "whole optimise() with the greedy pricing and explanations; 'prep s' sizing, roadmaps, instance"
    )
    examples(catalog, [n for n in args.examples.split(",") if n])
    readiness(catalog, [n for n in args.readiness.split(",") if n])
    return 0


def examples(catalog: Any, names: list[str]) -> None:
    """The optimiser on bundled examples: its prep (sizing, roadmaps, instance with the
    moves between seats), MIP and whole sourcing times, and what it buys from outside."""
    from gputeam.planning.optimiser import optimise
    from gputeam.planning.optimiser_model import build_instance, peak_slots
    from gputeam.planning.sizing import size
    from gputeam.planning.sourcing import candidates, source
    from gputeam.scenario import load_example

    for name in names:
        sc = load_example(name)
        t0 = time.perf_counter()
        target = size(sc, catalog)
        cands = candidates(sc, catalog, target)
        inst = build_instance(sc, catalog, target, cands, peak_slots(target))
        prep = time.perf_counter() - t0
        greedy = source(sc, catalog, target, cands, method="rule")
        t1 = time.perf_counter()
        s = optimise(sc, catalog, target, cands, greedy=greedy)
        whole = time.perf_counter() - t1
        moves = sum(1 for a in s.assignments if getattr(a, "then_role", None))
        print(
            f"example {name}: prep {prep:.2f} s ({len(inst.options)} options), MIP "
            f"{s.solve_seconds or 0:.2f} s, sourcing {whole:.2f} s; cost {s.total_cost or 0:,.0f}, "
            f"contractors {sum(n.hours for n in s.contractors):,.0f} h, hires "
            f"{sum(h.count for h in s.hires)}, moves {moves}"
        )


def readiness(catalog: Any, names: list[str], goal: float = 0.9) -> None:
    """The readiness-optimised plan of bundled examples (issue 19 item 5: finance <= 5 s,
    midsize <= 30 s on 2 cores): its solve time (candidates' MIPs and SAA simulations) and
    its validated P(ready) beside the cheapest plan's."""
    from datetime import date

    from gputeam.planning import plan
    from gputeam.scenario import load_example

    for name in names:
        sc = load_example(name)
        sc = sc.model_copy(update={"constraints": sc.constraints.model_copy(update={"target_p_ready": goal})})
        rp = plan(sc, catalog, date(2026, 12, 2), runs=0).readiness_plan
        assert rp is not None
        won = (
            "none reaches the target"
            if rp.p_ready is None
            else f"{rp.p_ready:.1%} ± {rp.p_ready_se or 0:.1%}"
        )
        print(
            f"readiness-optimised {name} (target {goal:.0%}): {rp.solve_seconds:.2f} s for "
            f"{len(rp.candidates)} candidates; P(ready) validated {rp.baseline_p_ready:.1%} ± "
            f"{rp.baseline_p_ready_se:.1%} cheapest ({rp.baseline_cost:,.0f}) -> {won} "
            f"({(rp.cost or 0):,.0f}); {rp.gap}"
        )


if __name__ == "__main__":
    raise SystemExit(main())
