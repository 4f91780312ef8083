"""Item analysis speed: ``gputeam.certify.analyse_items`` on 10,000 attempts × 100 items
(target <= 1 s), with partial credit, forms that leave items out, and distractor counts.

Scores are simulated from a one-parameter logistic model (ability minus difficulty), so the
statistics printed are plausible, not only fast.

    python bench/item_analysis.py [--attempts 10000] [--items 100] [--repeat 5]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=10_000)
    parser.add_argument("--items", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from gputeam.certify import analyse_items

    rng = np.random.default_rng(11)
    ability = rng.normal(size=(args.attempts, 1))
    difficulty = rng.normal(size=args.items)
    right = rng.random((args.attempts, args.items)) < 1 / (1 + np.exp(-(ability - difficulty)))
    scores = right.astype(float)
    scores[:, ::10] *= rng.choice([0.5, 1.0], size=(args.attempts, len(range(0, args.items, 10))))
    scores[rng.random(scores.shape) < 0.05] = np.nan  # items not on every form
    choices = np.where(right, 0, rng.integers(1, 4, size=right.shape))

    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        result = analyse_items(scores, choices=choices)
        times.append(time.perf_counter() - start)
    best = min(times)
    complete = int((~np.isnan(scores).any(axis=1)).sum())
    print(
        f"item analysis of {args.attempts:,} attempts x {args.items} items: best {best:.3f} s, "
        f"median {sorted(times)[len(times) // 2]:.3f} s over {args.repeat} runs (target <= 1 s)"
    )
    print(
        f"  facility {np.nanmin(result.facility):.2f}-{np.nanmax(result.facility):.2f}, "
        f"discrimination median {np.nanmedian(result.discrimination):.2f}, "
        f"alpha {result.alpha:.3f} over {complete} complete attempts, "
        f"flagged items {sum(1 for f in result.flags if f)}"
    )
    return 0 if best <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
