"""Item analysis over a programme's finished attempts (issue 11 §5), by
:func:`gputeam.certify.analyse_items`: per item (by its stable id, across versions) and
per domain; the CSV the web and CLI offer."""

from __future__ import annotations

import csv
import io
import math
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from gputeam.certify import analyse_items
from gputeam.store.programmes import bank_items
from gputeam.store.schema_exams import ExamAttempt

CSV_COLUMNS = ("item_id", "domain", "type", "attempts", "facility", "discrimination", "flags",
               "distractors", "retired")


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)


def item_statistics(session: Session, programme_id: int) -> dict[str, Any]:
    """``{"attempts", "alpha", "kr20", "items": [...], "domains": {domain: facility}}``."""
    rows = session.execute(select(ExamAttempt.result).where(
        ExamAttempt.programme_id == programme_id, ExamAttempt.state == "finished")).scalars().all()
    items = {r.item_id: r for r in bank_items(session, programme_id)}
    ids = sorted({i for res in rows for i in (res or {}).get("items", {})} | set(items))
    col = {i: k for k, i in enumerate(ids)}
    scores = np.full((len(rows), len(ids)), np.nan)
    choices = np.full((len(rows), len(ids)), -1, dtype=np.int64)
    for r, res in enumerate(rows):
        for item, (fraction, choice) in (res or {}).get("items", {}).items():
            if fraction is not None:
                scores[r, col[item]] = fraction
            choices[r, col[item]] = choice
    analysis = analyse_items(scores, ids, choices)
    domains: dict[str, str] = {i: d for i in ids if i in items and (d := items[i].domain)}
    out_items = []
    for k, item in enumerate(ids):
        row = items.get(item)
        out_items.append({
            "item_id": item, "domain": row.domain if row else None,
            "type": row.qtype if row else None, "attempts": int(analysis.attempts[k]),
            "facility": _num(float(analysis.facility[k])),
            "discrimination": _num(float(analysis.discrimination[k])),
            "flags": list(analysis.flags[k]) if analysis.attempts[k] else [],
            "distractors": [] if analysis.distractors is None
            else [int(n) for n in analysis.distractors[k]],
            "retired": bool(row and row.retired_at)})
    return {"attempts": len(rows), "alpha": _num(analysis.alpha), "kr20": analysis.kr20,
            "items": out_items,
            "domains": {d: round(f, 4) for d, f in analysis.by_domain(domains).items()}}


def item_statistics_csv(stats: dict[str, Any]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for it in stats["items"]:
        w.writerow([it["item_id"], it["domain"] or "", it["type"] or "", it["attempts"],
                    "" if it["facility"] is None else it["facility"],
                    "" if it["discrimination"] is None else it["discrimination"],
                    "; ".join(it["flags"]), " ".join(str(n) for n in it["distractors"]),
                    "yes" if it["retired"] else ""])
    return buf.getvalue()
