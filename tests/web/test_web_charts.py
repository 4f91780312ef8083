"""The inline SVG charts' time axes (person and team pages): month labels never overlap and
never run out of the chart, on the definition of :func:`labelled_ticks` (labels at least
MONTH_LABEL_PX apart, the first always, the last where there is room)."""

from __future__ import annotations

import re
from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from gputeam.web.burnup import W, burnup_svg
from gputeam.web.chart_axis import MONTH_LABEL_PX, labelled_ticks
from gputeam.web.gantt import Bar, gantt_svg

TODAY = date(2026, 12, 2)


@given(st.lists(st.floats(min_value=0, max_value=2000), min_size=1, max_size=80), st.floats(10, 80))
def test_labelled_ticks_definition(raw: list[float], room: float) -> None:
    positions = sorted(raw)
    chosen = labelled_ticks(positions, room)
    assert chosen[0] == 0 and chosen == sorted(set(chosen))
    gaps = [positions[b] - positions[a] for a, b in zip(chosen, chosen[1:], strict=False)]
    assert all(g >= room for g in gaps), gaps
    last = len(positions) - 1
    # the last is labelled whenever it can be (it is far enough from the first)
    assert (last in chosen) == (last == 0 or positions[last] - positions[0] >= room)
    # no more gaps than needed: between two labels, no unlabelled tick could have been one
    # (except where labels gave way to the last)
    for a, b in zip(chosen, chosen[1:-1], strict=False):
        assert all(positions[i] - positions[a] < room for i in range(a + 1, b))


def month_labels(svg: str) -> list[tuple[float, str]]:
    return [
        (float(x), text) for x, text in re.findall(r'<text x="([\d.]+)" y="\d+" [^>]*>([^<]+)</text>', svg)
    ]


def test_burnup_month_labels_fit_for_every_length() -> None:
    for n in range(1, 61):
        months = [f"{2026 + (m // 12)}-{m % 12 + 1:02d}" for m in range(n)]
        points = [{"month": m, "planned": i, "done": i // 2} for i, m in enumerate(months)]
        svg = burnup_svg({"points": points, "total": n}, "t")
        # the month labels: centred, on the axis row below the plot
        found = [(x, t) for x, t in month_labels(svg) if re.fullmatch(r"\d{4}-\d\d", t)]
        xs = [x for x, _ in found]
        assert all(b - a >= MONTH_LABEL_PX for a, b in zip(xs, xs[1:], strict=False)), (n, found)
        assert all(MONTH_LABEL_PX / 2 <= x <= W - MONTH_LABEL_PX / 2 for x in xs), (n, found)
        assert found[0][1] == months[0]
        if n >= 3:
            assert found[-1][1] == months[-1], (n, found)
        assert len(found) >= min(n, 6)  # two years: every other month at least


def test_gantt_month_labels_fit_for_every_span() -> None:
    for months in (1, 2, 6, 12, 18, 23, 24, 36, 60):
        end = TODAY + timedelta(days=30 * months)
        svg = gantt_svg([Bar("a", TODAY, end, "course")], TODAY)
        width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))  # type: ignore[union-attr]
        labels = re.findall(r'<text x="([\d.]+)" y="11" [^>]*>([^<]+)</text>', svg)
        labels = [(float(x), t) for x, t in labels]
        xs = [x for x, _ in labels]
        assert xs or months == 1, labels  # a month's chart may have no month start with room
        assert all(b - a >= MONTH_LABEL_PX for a, b in zip(xs, xs[1:], strict=False)), (months, labels)
        assert all(x + MONTH_LABEL_PX <= width for x in xs), (months, labels)
        lines = re.findall(r'<line x1="([\d.]+)" y1="14"', svg)
        firsts = {
            d.replace(day=1) for d in (TODAY + timedelta(days=k) for k in range((end - TODAY).days + 1))
        }
        assert len(lines) - 1 == len(firsts - {TODAY.replace(day=1)})  # each month keeps its line; + today's
