"""Item analysis over a programme's finished attempts (issue 11 §5), by
:func:`gputeam.certify.analyse_items`: per item (by its stable id, across versions), per
domain and for the form; the CSV the web and CLI offer."""

from __future__ import annotations

import csv
import io
import math
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy import Text, column, func, select, true
from sqlalchemy.orm import Session

from gputeam.certify import Question, analyse_items
from gputeam.certify.delivery import ItemOption, item_options
from gputeam.spreadsheet import csv_cell
from gputeam.store.schema_exams import BankItem, ExamAttempt

#: One row per item, then one per domain and one for the whole form (``scope``); the
#: domain and form rows fill alpha and KR-20, the item rows flags, distractors and retired.
CSV_COLUMNS = (
    "scope",
    "item_id",
    "domain",
    "type",
    "attempts",
    "facility",
    "discrimination",
    "alpha",
    "kr20",
    "flags",
    "distractors",
    "retired",
)


#: Per-attempt item scores are stored as fixed-width digits (read back with one vectorised
#: step for 10,000 attempts): a fraction f in [-1, 1] as round((f + 1) × 1000), 4 digits,
#: "----" when a person has still to mark it; a choice c as c + 1, 2 digits (00: none).
#: The bank item rows (versions) an attempt drew, in order, 9 digits each. The options an
#: attempt chose where it may choose several (multiple response, matching: numbered by
#: :func:`gputeam.certify.delivery.item_options`) as "picks": the question's position on
#: the form (3 digits) and the option (4 digits), one such pair per option chosen.
FRACTION_WIDTH, CHOICE_WIDTH, ROW_WIDTH = 4, 2, 9
POSITION_WIDTH, OPTION_WIDTH = 3, 4
PICK_WIDTH = POSITION_WIDTH + OPTION_WIDTH


def encode_rows(bank_rows: list[int]) -> str:
    return "".join(f"{r:09d}" for r in bank_rows)


def encode_scores(fractions: list[float | None], choices: list[int]) -> tuple[str, str]:
    f = "".join(
        "----" if x is None else f"{round((max(-1.0, min(1.0, x)) + 1) * 1000):04d}" for x in fractions
    )
    c = "".join(f"{max(0, min(99, x + 1)):02d}" for x in choices)
    return f, c


def encode_picks(picks: list[list[int]]) -> str:
    """``picks[position]``: the options chosen on the form's question at that position
    (options past 4 digits are not counted)."""
    return "".join(
        f"{position:03d}{option:04d}"
        for position, options in enumerate(picks)
        for option in options
        if option < 10**OPTION_WIDTH
    )


def _digits(text: str, width: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """The numbers of fixed-width digit fields, and which fields are blank ("-" first):
    one pass per digit column (an integer matrix product, or a reduction over the short
    rows, took several times as long)."""
    raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8).reshape(-1, width)
    values = raw[:, 0].astype(np.int64)
    for k in range(1, width):
        values *= 10
        values += raw[:, k]
    values -= ord("0") * sum(10**k for k in range(width))
    return values, raw[:, 0] == ord("-")


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)


def _analysis_rows(session: Session, programme_id: int) -> list[tuple[str, str, str, str]]:
    """(item rows, fractions, choices, picks) of the finished attempts, extracted by the
    database (no JSON parsed here); attempts finished before picks were kept have none.
    PostgreSQL reads each result once (``json_to_record``; each ``->>`` parses the JSON
    text again)."""
    result = ExamAttempt.result
    finished = (ExamAttempt.programme_id == programme_id, ExamAttempt.state == "finished")
    if session.get_bind().dialect.name == "postgresql":
        record = (
            func.json_to_record(result)
            .table_valued(*(column(name, Text) for name in ("item_rows", "fractions", "choices", "picks")))
            .render_derived(name="r", with_types=True)
        )
        query = select(record.c.item_rows, record.c.fractions, record.c.choices, record.c.picks)
        query = query.select_from(ExamAttempt).join(record, true()).where(*finished)
    else:
        query = select(
            result["item_rows"].as_string(),
            result["fractions"].as_string(),
            result["choices"].as_string(),
            result["picks"].as_string(),
        ).where(*finished)
    return [(r[0], r[1], r[2], r[3] or "") for r in session.execute(query) if r[0]]


def item_statistics(session: Session, programme_id: int) -> dict[str, Any]:
    """``{"attempts", "alpha", "kr20", "facility", "items": [...], "domains": [...]}``; the
    matrix holds the items finished attempts drew (items never drawn are listed after)."""
    rows = _analysis_rows(session, programme_id)
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
    # picks: (attempt, position on its form, option) -> (attempt, item column, option)
    pick_counts = np.fromiter((len(r[3]) // PICK_WIDTH for r in rows), dtype=np.int64, count=len(rows))
    packed, _ = _digits("".join(r[3] for r in rows), PICK_WIDTH)
    pick_row = np.repeat(np.arange(len(rows)), pick_counts)
    position, pick_option = packed // 10**OPTION_WIDTH, packed % 10**OPTION_WIDTH
    on_form = position < lengths[pick_row]
    pick_row, position, pick_option = pick_row[on_form], position[on_form], pick_option[on_form]
    pick_col = col_of[(np.cumsum(lengths) - lengths)[pick_row] + position]
    drawn = ~np.isnan(scores).all(axis=0) if len(rows) else np.zeros(len(all_ids), dtype=bool)
    keep = np.flatnonzero(drawn)
    ids = [all_ids[k] for k in keep]
    col = {item: k for k, item in enumerate(ids)}
    new_col = np.full(len(all_ids), -1, dtype=np.int64)
    new_col[keep] = np.arange(len(keep))
    pick_col = new_col[pick_col]
    scores, choices = scores[:, keep], choices[:, keep]
    options = {item: item_options(q) if q else [] for item, (_, _, _, q) in meta.items()}
    analysis = analyse_items(
        scores,
        ids,
        choices,
        picks=(pick_row, pick_col, pick_option),
        domains={i: d for i in ids if i in meta and (d := meta[i][0])},
        keys=[[(o.group, o.right) for o in options.get(i, [])] or None for i in ids],
    )
    out_items = []
    for k, item in enumerate(ids):
        domain, qtype, retired, _q = meta.get(item, (None, None, False, None))
        counts = [] if analysis.distractors is None else analysis.distractors[k].tolist()
        out_items.append(
            {
                "item_id": item,
                "domain": domain,
                "type": qtype,
                "attempts": int(analysis.attempts[k]),
                "facility": _num(float(analysis.facility[k])),
                "discrimination": _num(float(analysis.discrimination[k])),
                "flags": list(analysis.flags[k]) if analysis.attempts[k] else [],
                "distractors": _distractors(options.get(item, []), counts),
                "retired": retired,
            }
        )
    for item in sorted(set(meta) - set(col)):
        domain, qtype, retired, _q = meta[item]
        out_items.append(
            {
                "item_id": item,
                "domain": domain,
                "type": qtype,
                "attempts": 0,
                "facility": None,
                "discrimination": None,
                "flags": [],
                "distractors": _distractors(options.get(item, []), []),
                "retired": retired,
            }
        )
    seen = ~np.isnan(scores)
    return {
        "attempts": len(rows),
        "facility": _num(float(np.nansum(scores) / seen.sum())) if seen.any() else None,
        "alpha": _num(analysis.alpha),
        "kr20": _num(analysis.kr20) if analysis.kr20 is not None else None,
        "items": out_items,
        "domains": [
            {
                "domain": d.domain,
                "items": d.items,
                "attempts": d.attempts,
                "facility": _num(d.facility),
                "discrimination": _num(d.discrimination),
                "alpha": _num(d.alpha),
                "kr20": _num(d.kr20) if d.kr20 is not None else None,
            }
            for d in analysis.domains
        ],
    }


def _distractors(options: list[ItemOption], counts: list[int]) -> list[dict[str, Any]]:
    """Each option of an item (each pairing of a matching question) and how many attempts
    chose it."""
    return [
        {
            "stem": o.stem,
            "option": o.text,
            "right": o.right,
            "chosen": counts[k] if k < len(counts) else 0,
        }
        for k, o in enumerate(options)
    ]


_WITH_OPTIONS = ("multichoice", "truefalse", "match")


def _item_meta(
    session: Session, programme_id: int
) -> dict[str, tuple[str | None, str, bool, Question | None]]:
    """item id -> (domain, type, retired, question) of its newest version (the question of
    the types with options only: no other texts read)."""
    out: dict[str, tuple[str | None, str, bool, Question | None]] = {}
    newest: dict[str, int] = {}
    for row, item, domain, qtype, retired in session.execute(
        select(BankItem.id, BankItem.item_id, BankItem.domain, BankItem.qtype, BankItem.retired_at)
        .where(BankItem.programme_id == programme_id)
        .order_by(BankItem.version)
    ):
        out[item] = (domain, qtype, retired is not None, None)
        newest[item] = row
    wanted = [newest[i] for i, m in out.items() if m[1] in _WITH_OPTIONS]
    if wanted:
        for item, question in session.execute(
            select(BankItem.item_id, BankItem.question).where(BankItem.id.in_(wanted))
        ):
            domain, qtype, is_retired, _ = out[item]
            out[item] = (domain, qtype, is_retired, Question.model_validate(question))
    return out


def _number_cell(value: float | None) -> str | float:
    return "" if value is None else value


def _counts_cell(item: dict[str, Any]) -> str:
    """The option counts in the options' order; a matching question's stems apart (|)."""
    groups: list[list[str]] = []
    stem: object = object()
    for d in item["distractors"]:
        if not groups or d["stem"] != stem:
            groups.append([])
            stem = d["stem"]
        groups[-1].append(str(d["chosen"]))
    return " | ".join(" ".join(g) for g in groups)


def item_statistics_csv(stats: dict[str, Any]) -> str:
    """The item analysis as CSV; the author's texts (item id, domain) neutralised by
    :func:`gputeam.spreadsheet.csv_cell`, so a spreadsheet never runs them as formulas."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for it in stats["items"]:
        w.writerow(
            [
                "item",
                csv_cell(it["item_id"]),
                csv_cell(it["domain"] or ""),
                it["type"] or "",
                it["attempts"],
                _number_cell(it["facility"]),
                _number_cell(it["discrimination"]),
                "",
                "",
                "; ".join(it["flags"]),
                _counts_cell(it),
                "yes" if it["retired"] else "",
            ]
        )
    for d in stats["domains"]:
        w.writerow(
            [
                "domain",
                "",
                csv_cell(d["domain"]),
                "",
                d["attempts"],
                _number_cell(d["facility"]),
                _number_cell(d["discrimination"]),
                _number_cell(d["alpha"]),
                _number_cell(d["kr20"]),
                "",
                "",
                "",
            ]
        )
    w.writerow(
        [
            "form",
            "",
            "",
            "",
            stats["attempts"],
            _number_cell(stats["facility"]),
            "",
            _number_cell(stats["alpha"]),
            _number_cell(stats["kr20"]),
            "",
            "",
            "",
        ]
    )
    return buf.getvalue()
