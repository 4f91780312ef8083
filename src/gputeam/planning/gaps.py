"""Gaps: the current people against the target at the deadline.

Fit score of a person for a role (0 to 1): 60% skill coverage (the share of the role's
proficiency points they already have), 25% level (one quarter lost per level short), 15%
certifications (the share of required certification groups they hold).
"""

from __future__ import annotations

from datetime import date

from gputeam.catalog import Catalog
from gputeam.planning.result import Fit, Gaps, RoleGap, TargetMonth, TargetSlot
from gputeam.planning.roadmap import held_valid
from gputeam.scenario import Person, Scenario


def fit(person: Person, slot: TargetSlot, held: set[str]) -> Fit:
    missing = {d: p - person.skills.get(d, 0) for d, p in slot.domains.items() if person.skills.get(d, 0) < p}
    total = sum(slot.domains.values()) or 1
    have = sum(min(person.skills.get(d, 0), p) for d, p in slot.domains.items())
    missing_certs = tuple(g[0] for g in slot.certifications if not held.intersection(g))
    cert_share = 1 - len(missing_certs) / len(slot.certifications) if slot.certifications else 1.0
    level_gap = max(0, slot.level_min - person.level)
    score = 0.6 * have / total + 0.25 * max(0.0, 1 - level_gap / 4) + 0.15 * cert_share
    return Fit(
        person=person.id,
        role=slot.role,
        score=round(score, 4),
        missing_domains=missing,
        missing_certifications=missing_certs,
        level_gap=level_gap,
    )


def find_gaps(scenario: Scenario, catalog: Catalog, target: TargetMonth, on: date) -> Gaps:
    held = {p.id: set(held_valid(p, catalog, on)) for p in scenario.people}
    fits = tuple(fit(p, s, held[p.id]) for p in scenario.people for s in target.slots)
    ready_people: set[str] = set()
    roles = []
    for slot in sorted(target.slots, key=lambda s: -s.level_min):
        ready = [
            f.person
            for f in fits
            if f.role == slot.role and f.score >= 0.9999 and f.person not in ready_people
        ][: slot.count]
        ready_people.update(ready)
        roles.append(
            RoleGap(role=slot.role, needed=slot.count, ready_now=len(ready), missing=slot.count - len(ready))
        )
    need: dict[str, int] = {}
    for slot in target.slots:
        for d, p in slot.domains.items():
            need[d] = max(need.get(d, 0), p)
    for cover in target.coverage:
        need[cover.domain] = max(need.get(cover.domain, 0), cover.proficiency)
    best = {d: max((p.skills.get(d, 0) for p in scenario.people), default=0) for d in need}
    domains = {d: max(0, need[d] - best[d]) for d in sorted(need)}
    cert_need: dict[str, int] = {}
    for slot in target.slots:
        for group in slot.certifications:
            cert_need[group[0]] = cert_need.get(group[0], 0) + slot.count
    holders = {c: sum(1 for h in held.values() if c in h) for c in cert_need}
    certs = {c: max(0, n - holders[c]) for c, n in sorted(cert_need.items())}
    return Gaps(month=target.month, roles=tuple(roles), domains=domains, certifications=certs, fits=fits)
