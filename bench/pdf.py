"""PDF report speed: the finance example's plan printed to PDF by the system Chromium.

Prints the render time of each of three renders on A4 and one on Letter (each launches
Chromium, loads the offline HTML report, waits for the charts, prints twice: once to find
the pages of the table of contents, once with them), with the page count and the file size,
and the load average (wall-clock time: on a shared machine other processes stretch it; the
CPU time is not given, as Chromium's renderer processes escape this process's accounting).
Target: a plan PDF in at most 10 s on this machine. Last, the same for a synthetic team of
200 people (a report of some 90 pages).

    python bench/pdf.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from datetime import date
from io import BytesIO


def main() -> int:
    from pypdf import PdfReader

    from gputeam.catalog import load_catalog
    from gputeam.planning import plan
    from gputeam.report import pdf
    from gputeam.scenario import load_example

    p = plan(load_example("finance"), load_catalog(), date(2026, 12, 2))
    times = []
    for paper in ("a4", "a4", "a4", "letter"):
        t0 = time.perf_counter()
        data = pdf.render(p, paper)
        took = time.perf_counter() - t0
        times.append(took)
        pages = len(PdfReader(BytesIO(data)).pages)
        print(f"finance plan PDF ({paper}): {took:.2f} s, {pages} pages, {len(data):,} bytes")
    print(
        f"median {statistics.median(times):.2f} s, worst {max(times):.2f} s (target <= 10 s); "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    from synthetic import synthetic

    from gputeam.scenario import parse_scenario

    catalog = load_catalog()
    big = plan(
        parse_scenario(synthetic(200, 4000, 12), "<synthetic>", catalog=catalog),
        catalog,
        date(2026, 12, 2),
        runs=200,
    )
    t0 = time.perf_counter()
    data = pdf.render(big, "a4")
    took = time.perf_counter() - t0
    print(
        f"synthetic 200-person plan PDF (a4): {took:.2f} s, "
        f"{len(PdfReader(BytesIO(data)).pages)} pages, {len(data):,} bytes; load average "
        f"{os.getloadavg()[0]:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
