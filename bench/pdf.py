"""PDF report speed: the finance example's plan printed to PDF by the system Chromium.

Prints the render time of each of three renders on A4 and one on Letter (each launches
Chromium, loads the offline HTML report, waits for the charts, prints twice: once to find
the pages of the table of contents, once with them), with the page count and the file size,
the CPU time it took (this process, the Playwright driver and Chromium together: a figure the
other processes on a shared machine do not inflate), and the load average. Target: a plan
PDF in at most 10 s on this machine.

    python bench/pdf.py
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time
from datetime import date
from io import BytesIO


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the driver, Chromium)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    from pypdf import PdfReader

    from gputeam.catalog import load_catalog
    from gputeam.planning import plan
    from gputeam.report import pdf
    from gputeam.scenario import load_example

    p = plan(load_example("finance"), load_catalog(), date(2026, 12, 2))
    times = []
    for paper in ("a4", "a4", "a4", "letter"):
        t0, cpu0 = time.perf_counter(), _cpu()
        data = pdf.render(p, paper)
        took, cpu = time.perf_counter() - t0, _cpu() - cpu0
        times.append(took)
        pages = len(PdfReader(BytesIO(data)).pages)
        print(f"finance plan PDF ({paper}): {took:.2f} s ({cpu:.2f} s CPU), {pages} pages, "
              f"{len(data):,} bytes")
    print(f"median {statistics.median(times):.2f} s, worst {max(times):.2f} s (target <= 10 s); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
