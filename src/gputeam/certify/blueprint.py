"""Exam blueprints: how many questions each skill domain gets, and which questions a
candidate's form holds.

- :func:`domain_counts` splits a question count over domain weights by the largest
  remainder (Hamilton) method: 50 questions at 40/38/22 are 20/19/11.
- :func:`select_form` draws a form from a pool with a seed: per domain, the least-drawn
  items first (exposure control, ties broken at random), then the whole form shuffled once.
  The same seed gives the same form (a reload or a resume on another device shows the
  same exam); a new seed (a retake) draws a new form.
- :func:`form_seed` derives a seed from what identifies an attempt.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gputeam.certify.models import Question
from gputeam.i18n import N_


class BlueprintError(ValueError):
    """A blueprint that cannot be met (bad weights, too few questions in a domain): one
    message per fault in ``messages`` (English, marked for translation where shown)."""

    def __init__(self, *messages: str) -> None:
        self.messages = messages
        super().__init__("; ".join(messages))


def domain_counts(total: int, weights: Mapping[str, float]) -> dict[str, int]:
    """``total`` questions split over domains in proportion to ``weights`` (any positive
    scale), by largest remainder; equal remainders go to the larger weight, then to the
    domain id first in alphabetical order. The counts add up to ``total`` exactly."""
    if total < 0:
        raise BlueprintError(N_("the number of questions must not be negative (found {n})").format(n=total))
    if not weights:
        raise BlueprintError(N_("a blueprint needs at least one domain weight"))
    bad = {d: w for d, w in weights.items() if not (math.isfinite(w) and w >= 0)}
    if bad:
        raise BlueprintError(
            N_("domain weights must be zero or positive numbers (found {weights})").format(weights=bad)
        )
    scale = sum(weights.values())
    if scale <= 0:
        raise BlueprintError(N_("at least one domain weight must be positive"))
    quotas = {d: total * w / scale for d, w in weights.items()}
    counts = {d: math.floor(q + 1e-9) for d, q in quotas.items()}
    left = total - sum(counts.values())
    order = sorted(weights, key=lambda d: (-(quotas[d] - counts[d]), -weights[d], d))
    for d in order[:left]:
        counts[d] += 1
    return dict(sorted(counts.items(), key=lambda kv: (-weights[kv[0]], kv[0])))


@dataclass(frozen=True)
class Form:
    """A drawn exam form: its seed, the item ids in the order shown, and the count per domain."""

    seed: int
    items: tuple[str, ...]
    by_domain: tuple[tuple[str, int], ...]


def form_seed(*parts: str | int) -> int:
    """A 63-bit seed from the parts that identify an attempt (for example the exam id, the
    person id and the attempt number): stable across runs and machines."""
    blob = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.sha256(blob).digest()[:8], "big") >> 1


def select_form(
    pool: Sequence[Question], counts: Mapping[str, int], seed: int, exposure: Mapping[str, int] | None = None
) -> Form:
    """Draw ``counts[domain]`` questions of each domain from ``pool`` (questions carry
    ``domain`` and ``item_id``). ``exposure`` maps item ids to how often they were drawn
    before: within a domain the least-drawn items are taken first. Descriptions are never
    drawn; two questions with one item id are refused. The result does not depend on the
    order of ``pool``."""
    exposure = exposure or {}
    rng = random.Random(seed)
    ids = [q.item_id for q in pool if q.qtype != "description"]
    clashes = sorted(i for i, n in Counter(ids).items() if n > 1)
    if clashes:
        message = N_(
            "several questions share an item id ({ids}): give each exam question its own "
            "[id:...] or <idnumber>"
        )
        raise BlueprintError(message.format(ids=", ".join(clashes)))
    by_domain: dict[str, list[str]] = {}
    for q in pool:
        if q.domain is not None and q.qtype != "description":
            by_domain.setdefault(q.domain, []).append(q.item_id)
    chosen: list[str] = []
    short = []
    for domain in sorted(counts):
        need = counts[domain]
        candidates = sorted(set(by_domain.get(domain, [])))
        if need > len(candidates):
            short.append(
                N_("not enough questions in {domain}: {n} needed, the bank has {available}").format(
                    domain=domain, n=need, available=len(candidates)
                )
            )
            continue
        rng.shuffle(candidates)
        candidates.sort(key=lambda item: exposure.get(item, 0))
        chosen += candidates[:need]
    if short:
        raise BlueprintError(*short)
    rng.shuffle(chosen)
    return Form(seed=seed, items=tuple(chosen), by_domain=tuple((d, n) for d, n in sorted(counts.items())))
