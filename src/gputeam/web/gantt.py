"""Roadmap Gantt charts as inline SVG: readable without JavaScript, printable, no library.

:func:`gantt_svg` takes plain bars (label, start, end, kind) so it draws a planned roadmap
(``gputeam.planning`` result items) and a tracked one (roadmap rows from the store) alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from html import escape

from gputeam.i18n import _
from gputeam.i18n import formats as _locale
from gputeam.web.chart_axis import MONTH_LABEL_PX, labelled_ticks

COLOURS = {
    "course": "#4c78a8",
    "bootcamp": "#72b7b2",
    "exam": "#e45756",
    "renewal": "#f58518",
    "practice": "#54a24b",
    "apprenticeship": "#b279a2",
}
ROW = 22
LABEL_W = 220
CHART_W = 560


@dataclass(frozen=True)
class Bar:
    label: str
    start: date
    end: date
    kind: str = "course"
    done: float = 0.0  # share completed, 0-1


def _month_starts(first: date, last: date) -> list[date]:
    out, d = [], first.replace(day=1)
    while d <= last:
        out.append(d)
        d = (d + timedelta(days=32)).replace(day=1)
    return out


def _month(first: date) -> str:
    """A month's tick label: ``Jan 27`` in English, the language's short month otherwise."""
    if _locale.is_english():
        return f"{first:%b %y}"
    from babel.dates import format_date

    return format_date(first, "MMM yy", locale=_locale.babel_locale())


def gantt_svg(bars: Iterable[Bar], today: date, title: str = "Roadmap") -> str:
    """An accessible SVG (``role="img"`` with a title and one <title> per bar)."""
    bars = sorted(bars, key=lambda b: (b.start, b.end, b.label))
    if not bars:
        return ""
    first = min(min(b.start for b in bars), today)
    last = max(max(b.end for b in bars), today)
    span = max((last - first).days, 1)

    def x(d: date) -> float:
        return LABEL_W + (d - first).days / span * CHART_W

    height = 24 + ROW * len(bars)
    width = LABEL_W + CHART_W + 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="gantt" role="img" '
        f'viewBox="0 0 {width} {height}" width="100%" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>'
    ]
    months = [m for m in _month_starts(first, last) if m >= first]
    # a label starts at its month's line: one that would run past the chart is left out
    fits = [m for m in months if x(m) + 2 + MONTH_LABEL_PX <= width]
    labelled = {fits[i] for i in labelled_ticks([x(m) for m in fits])}
    for m in months:
        mx = x(m)
        parts.append(f'<line x1="{mx:.1f}" y1="14" x2="{mx:.1f}" y2="{height}" stroke="#ddd"/>')
        if m in labelled:
            parts.append(
                f'<text x="{mx + 2:.1f}" y="11" font-size="9" fill="#666">{escape(_month(m))}</text>'
            )
    for i, b in enumerate(bars):
        y = 20 + i * ROW
        x0, x1 = x(b.start), x(max(b.end, b.start))
        w = max(x1 - x0, 3)
        colour = COLOURS.get(b.kind, "#888")
        tip = _("{label} ({kind}) {start} to {end}").format(
            label=b.label, kind=_(b.kind), start=b.start.isoformat(), end=b.end.isoformat()
        )
        parts.append(
            f"<g><title>{escape(tip)}</title>"
            f'<text x="4" y="{y + 13}" font-size="11">{escape(b.label[:34])}</text>'
            f'<rect x="{x0:.1f}" y="{y + 2}" width="{w:.1f}" height="{ROW - 6}" '
            f'rx="3" fill="{colour}" fill-opacity="0.35" stroke="{colour}"/>'
        )
        if b.done > 0:
            parts.append(
                f'<rect x="{x0:.1f}" y="{y + 2}" width="{w * min(b.done, 1):.1f}" '
                f'height="{ROW - 6}" rx="3" fill="{colour}"/>'
            )
        parts.append("</g>")
    tx = x(today)
    today_label = escape(_("today"))
    parts.append(
        f'<line x1="{tx:.1f}" y1="14" x2="{tx:.1f}" y2="{height}" stroke="#d62728" '
        f'stroke-dasharray="3,2"/><text x="{tx + 2:.1f}" y="{height - 2}" '
        f'font-size="9" fill="#d62728">{today_label}</text></svg>'
    )
    return "".join(parts)
