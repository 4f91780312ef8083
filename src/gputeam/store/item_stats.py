"""Item analysis over a programme's finished attempts (issue 11 §5), by
:func:`gputeam.certify.analyse_items`: per item (by its stable id, across versions) and
per domain; the CSV the web and CLI offer."""

from __future__ import annotations

import csv
import io
import math
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy import select
from sqlalchemy.orm import Session

from gputeam.certify import analyse_items
from gputeam.spreadsheet import csv_cell
from gputeam.store.schema_exams import BankItem, ExamAttempt

CSV_COLUMNS = (
    "item_id",
    "domain",
    "type",
    "attempts",
    "facility",
    "discrimination",
    "flags",
    "distractors",
    "retired",
)


#: Per-attempt item scores are stored as fixed-width digits (read back with one vectorised
#: step for 10,000 attempts): a fraction f in [-1, 1] as round((f + 1) × 1000), 4 digits,
#: "----" when a person has still to mark it; a choice c as c + 1, 2 digits (00: none).
#: The bank item rows (versions) an attempt drew, in order, 9 digits each.
FRACTION_WIDTH, CHOICE_WIDTH, ROW_WIDTH = 4, 2, 9


def encode_rows(bank_rows: list[int]) -> str:
    return "".join(f"{r:09d}" for r in bank_rows)


def encode_scores(fractions: list[float | None], choices: list[int]) -> tuple[str, str]:
    f = "".join(
        "----" if x is None else f"{round((max(-1.0, min(1.0, x)) + 1) * 1000):04d}" for x in fractions
    )
    c = "".join(f"{max(0, min(99, x + 1)):02d}" for x in choices)
    return f, c


def _digits(text: str, width: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8).reshape(-1, width)
    missing = (raw == ord("-")).any(axis=1)
    values = (raw.astype(np.int64) - ord("0")) @ (10 ** np.arange(width - 1, -1, -1))
    return values, missing


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)


def item_statistics(session: Session, programme_id: int) -> dict[str, Any]:
    """``{"attempts", "alpha", "kr20", "items": [...], "domains": {domain: facility}}``; the
    matrix holds the items finished attempts drew (items never drawn are listed after)."""
    # the three compact fields only, extracted by the database (no JSON parsed here)
    result = ExamAttempt.result
    rows = [
        r
        for r in session.execute(
            select(
                result["item_rows"].as_string(),
                result["fractions"].as_string(),
                result["choices"].as_string(),
            ).where(ExamAttempt.programme_id == programme_id, ExamAttempt.state == "finished")
        )
        if r[0]
    ]
    versions = session.execute(
        select(BankItem.id, BankItem.item_id).where(BankItem.programme_id == programme_id)
    ).all()
    meta = _item_meta(session, programme_id)
    all_ids = sorted({item for _, item in versions})
    index = {item: k for k, item in enumerate(all_ids)}
    lookup = np.full(max((v for v, _ in versions), default=0) + 1, -1, dtype=np.int64)
    for version, item in versions:
        lookup[version] = index[item]
    lengths = np.fromiter((len(r[0]) // ROW_WIDTH for r in rows), dtype=np.int64, count=len(rows))
    bank_rows, _ = _digits("".join(r[0] for r in rows), ROW_WIDTH)
    row_of = np.repeat(np.arange(len(rows)), lengths)
    col_of = lookup[bank_rows]
    scores = np.full((len(rows), len(all_ids)), np.nan)
    choices = np.full((len(rows), len(all_ids)), -1, dtype=np.int64)
    fractions, unmarked = _digits("".join(r[1] for r in rows), FRACTION_WIDTH)
    scores[row_of, col_of] = np.where(unmarked, np.nan, fractions / 1000.0 - 1.0)
    chosen, _ = _digits("".join(r[2] for r in rows), CHOICE_WIDTH)
    choices[row_of, col_of] = chosen - 1
    drawn = ~np.isnan(scores).all(axis=0) if len(rows) else np.zeros(len(all_ids), dtype=bool)
    keep = np.flatnonzero(drawn)
    ids = [all_ids[k] for k in keep]
    col = {item: k for k, item in enumerate(ids)}
    scores, choices = scores[:, keep], choices[:, keep]
    analysis = analyse_items(scores, ids, choices)
    domains: dict[str, str] = {i: d for i in ids if i in meta and (d := meta[i][0])}
    out_items = []
    for k, item in enumerate(ids):
        domain, qtype, retired = meta.get(item, (None, None, False))
        out_items.append(
            {
                "item_id": item,
                "domain": domain,
                "type": qtype,
                "attempts": int(analysis.attempts[k]),
                "facility": _num(float(analysis.facility[k])),
                "discrimination": _num(float(analysis.discrimination[k])),
                "flags": list(analysis.flags[k]) if analysis.attempts[k] else [],
                "distractors": []
                if analysis.distractors is None
                else [int(n) for n in analysis.distractors[k]],
                "retired": retired,
            }
        )
    for item in sorted(set(meta) - set(col)):
        domain, qtype, retired = meta[item]
        out_items.append(
            {
                "item_id": item,
                "domain": domain,
                "type": qtype,
                "attempts": 0,
                "facility": None,
                "discrimination": None,
                "flags": [],
                "distractors": [],
                "retired": retired,
            }
        )
    return {
        "attempts": len(rows),
        "alpha": _num(analysis.alpha),
        "kr20": analysis.kr20,
        "items": out_items,
        "domains": {d: round(f, 4) for d, f in analysis.by_domain(domains).items()},
    }


def _item_meta(session: Session, programme_id: int) -> dict[str, tuple[str | None, str, bool]]:
    """item id -> (domain, type, retired) of its newest version (no question texts read)."""
    out: dict[str, tuple[str | None, str, bool]] = {}
    for item, domain, qtype, retired in session.execute(
        select(BankItem.item_id, BankItem.domain, BankItem.qtype, BankItem.retired_at)
        .where(BankItem.programme_id == programme_id)
        .order_by(BankItem.version)
    ):
        out[item] = (domain, qtype, retired is not None)
    return out


def item_statistics_csv(stats: dict[str, Any]) -> str:
    """The item analysis as CSV; the author's texts (item id, domain) neutralised by
    :func:`gputeam.spreadsheet.csv_cell`, so a spreadsheet never runs them as formulas."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for it in stats["items"]:
        w.writerow(
            [
                csv_cell(it["item_id"]),
                csv_cell(it["domain"] or ""),
                it["type"] or "",
                it["attempts"],
                "" if it["facility"] is None else it["facility"],
                "" if it["discrimination"] is None else it["discrimination"],
                "; ".join(it["flags"]),
                " ".join(str(n) for n in it["distractors"]),
                "yes" if it["retired"] else "",
            ]
        )
    return buf.getvalue()
