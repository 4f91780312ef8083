"""Burn-up charts (roadmap items planned against done, month by month) as inline SVG,
like :mod:`gputeam.web.gantt`: readable without JavaScript, printable, no library. The
page also gives the figures as a table, so colour and shape are never the only signal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from gputeam.i18n import _
from gputeam.web.chart_axis import labelled_ticks

W, H = 620, 220
LEFT, RIGHT, TOP, BOTTOM = 40, 24, 14, 34  # RIGHT: half the last month's label
PLANNED, DONE = "#4c78a8", "#54a24b"


def burnup_svg(data: Mapping[str, Any], title: str) -> str:
    """An accessible SVG (``role="img"``, a title, a legend in words) of
    :func:`gputeam.store.burnup` figures; empty when there is nothing to draw."""
    points: Sequence[Mapping[str, Any]] = data.get("points") or ()
    if not points:
        return ""
    top = max(1, int(data.get("total") or 0), *(int(p["planned"]) for p in points))
    n = len(points)
    step = (W - LEFT - RIGHT) / max(n - 1, 1)

    def x(i: int) -> float:
        return LEFT + i * step

    def y(v: float) -> float:
        return TOP + (1 - v / top) * (H - TOP - BOTTOM)

    planned_word, done_word = escape(_("planned")), escape(_("done"))
    planned_key, done_key = escape(_("planned (dashed)")), escape(_("done (solid)"))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="burnup" role="img" '
        f'viewBox="0 0 {W} {H}" width="100%" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title>"
    ]
    for v in sorted({0, top // 2, top}):
        parts.append(
            f'<line x1="{LEFT}" y1="{y(v):.1f}" x2="{W - RIGHT}" y2="{y(v):.1f}" '
            f'stroke="#ddd"/><text x="{LEFT - 4}" y="{y(v) + 3:.1f}" font-size="9" '
            f'text-anchor="end" fill="#666">{v}</text>'
        )
    for i in labelled_ticks([x(i) for i in range(n)]):
        parts.append(
            f'<text x="{x(i):.1f}" y="{H - BOTTOM + 12}" font-size="9" '
            f'text-anchor="middle" fill="#666">{escape(points[i]["month"])}</text>'
        )
    planned = " ".join(f"{x(i):.1f},{y(p['planned']):.1f}" for i, p in enumerate(points))
    parts.append(
        f'<polyline points="{planned}" fill="none" stroke="{PLANNED}" '
        f'stroke-width="2" stroke-dasharray="5,3"><title>{planned_word}</title></polyline>'
    )
    done = " ".join(f"{x(i):.1f},{y(p['done']):.1f}" for i, p in enumerate(points) if p["done"] is not None)
    if done:
        parts.append(
            f'<polyline points="{done}" fill="none" stroke="{DONE}" '
            f'stroke-width="2.5"><title>{done_word}</title></polyline>'
        )
    for i, p in enumerate(points):  # a dot per month with an actual (one month is a dot)
        if p["done"] is not None:
            parts.append(
                f'<circle cx="{x(i):.1f}" cy="{y(p["done"]):.1f}" r="3" '
                f'fill="{DONE}"><title>'
                + escape(
                    _("{month}: {done} done, {planned} planned").format(
                        month=p["month"], done=p["done"], planned=p["planned"]
                    )
                )
                + "</title></circle>"
            )
    ly = H - 8
    parts.append(
        f'<line x1="{LEFT}" y1="{ly - 3}" x2="{LEFT + 24}" y2="{ly - 3}" '
        f'stroke="{PLANNED}" stroke-width="2" stroke-dasharray="5,3"/>'
        f'<text x="{LEFT + 28}" y="{ly}" font-size="10">{planned_key}</text>'
        f'<line x1="{LEFT + 140}" y1="{ly - 3}" x2="{LEFT + 164}" y2="{ly - 3}" '
        f'stroke="{DONE}" stroke-width="2.5"/>'
        f'<text x="{LEFT + 168}" y="{ly}" font-size="10">{done_key}</text>'
        "</svg>"
    )
    return "".join(parts)
