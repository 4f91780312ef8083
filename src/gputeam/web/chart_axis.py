"""Which ticks of a chart's time axis get a label: as many as fit without overlapping,
the first always and the last where there is room (:mod:`gputeam.web.gantt`,
:mod:`gputeam.web.burnup`)."""

from __future__ import annotations

#: The room a month label takes at the charts' font size (9 px), a gap included: the
#: widest forms are about 38 px ("Sep 27", "Dez. 26", "2026-12", "12월 26").
MONTH_LABEL_PX = 44.0


def labelled_ticks(positions: list[float], label_px: float = MONTH_LABEL_PX) -> list[int]:
    """The indices of the ticks at ``positions`` (ascending x, in px) to label, every label
    placed alike on its tick (all centred, or all starting at it): the first, then each
    tick at least ``label_px`` from the last one labelled, and the last tick, for which
    the labels before it give way if they would overlap it (unless only the first is left,
    then the last goes unlabelled)."""
    if not positions:
        return []
    chosen = [0]
    for i in range(1, len(positions)):
        if positions[i] - positions[chosen[-1]] >= label_px:
            chosen.append(i)
    last = len(positions) - 1
    if chosen[-1] != last:
        while len(chosen) > 1 and positions[last] - positions[chosen[-1]] < label_px:
            chosen.pop()
        if positions[last] - positions[chosen[-1]] >= label_px:
            chosen.append(last)
    return chosen
