"""The dashboard: one dict built from the live team (and the latest plan), rendered as HTML
by the page and as JSON by ``GET /api/v1/dashboard``.

Pure functions over scenario and plan models; the caller fetches the data.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta
from typing import Any

from gputeam.catalog import EXPIRY_WINDOWS, Catalog, certificate_expiry, expiry_status
from gputeam.scenario.models import HeldCertification, Person, Scenario

#: Proficiency that counts a person towards a domain's bus factor (3 = proficient).
BUS_FACTOR_PROFICIENCY = 3


def cert_expiry(held: HeldCertification, catalog: Catalog) -> date | None:
    return certificate_expiry(catalog, held.id, held.earned, held.expires)


def valid_cert_ids(person: Person, catalog: Catalog, today: date) -> set[str]:
    return {h.id for h in person.certifications if expiry_status(cert_expiry(h, catalog), today) != "expired"}


def expiring(people: tuple[Person, ...], catalog: Catalog, today: date) -> list[dict[str, Any]]:
    """Certifications expiring within the longest window (90 days), soonest first; each
    row has ``days`` left, so the 30- and 60-day lists are its prefixes."""
    rows: list[dict[str, Any]] = []
    horizon = today + timedelta(days=max(EXPIRY_WINDOWS))
    for p in people:
        for h in p.certifications:
            exp = cert_expiry(h, catalog)
            if exp is None or exp < today or exp > horizon:
                continue
            rows.append(
                {
                    "person": p.id,
                    "name": p.name,
                    "certification": h.id,
                    "expires": exp.isoformat(),
                    "days": (exp - today).days,
                }
            )
    rows.sort(key=lambda r: (r["days"], r["name"]))
    return rows


def expired(people: tuple[Person, ...], catalog: Catalog, today: date) -> list[dict[str, Any]]:
    """Current certificates that have expired (:func:`gputeam.catalog.expiry_status`), the
    most recently expired first; ``days`` is negative (days since)."""
    rows: list[dict[str, Any]] = []
    for p in people:
        for h in p.certifications:
            exp = cert_expiry(h, catalog)
            if exp is not None and expiry_status(exp, today) == "expired":
                rows.append(
                    {
                        "person": p.id,
                        "name": p.name,
                        "certification": h.id,
                        "expires": exp.isoformat(),
                        "days": (exp - today).days,
                    }
                )
    rows.sort(key=lambda r: (-r["days"], r["name"]))
    return rows


def bus_factor(people: tuple[Person, ...], catalog: Catalog) -> list[dict[str, Any]]:
    """Per skill domain: how many people are at least proficient (1 = key-person risk)."""
    counts: Counter[str] = Counter()
    for p in people:
        for domain, prof in p.skills.items():
            if prof >= BUS_FACTOR_PROFICIENCY:
                counts[domain] += 1
    rows = [{"domain": d.id, "name": d.name, "people": counts.get(d.id, 0)} for d in catalog.domains.values()]
    rows.sort(key=lambda r: (r["people"], r["domain"]))
    return rows


def coverage_at(plan: Any, people: tuple[Person, ...], month: int) -> dict[str, Any]:
    """Share of the plan's target slots at ``month`` filled by current people who hold that
    role at a level within the slot's range."""
    target = plan.target.at(month)
    have = Counter((p.role, p.level) for p in people if p.role)
    needed = filled = 0
    roles = []
    for slot in target.slots:
        n = sum(
            c
            for (role, level), c in have.items()
            if role == slot.role and slot.level_min <= level <= slot.level_max
        )
        got = min(n, slot.count)
        needed += slot.count
        filled += got
        roles.append({"role": slot.role, "needed": slot.count, "filled": got})
    return {
        "month": target.month,
        "date": target.date.isoformat(),
        "gpus": target.gpus,
        "needed": needed,
        "filled": filled,
        "share": round(filled / needed, 3) if needed else 1.0,
        "roles": roles,
    }


def compliance(plan: Any, people: tuple[Person, ...], catalog: Catalog, today: date) -> list[dict[str, Any]]:
    """Per role in the deadline target: share of people in that role who hold a valid
    certification from every required group."""
    target = plan.target.at(plan.gaps.month)
    rows = []
    for slot in target.slots:
        if not slot.certifications:
            continue
        members = [p for p in people if p.role == slot.role]
        ok = sum(
            1
            for p in members
            if all(set(group) & valid_cert_ids(p, catalog, today) for group in slot.certifications)
        )
        rows.append(
            {
                "role": slot.role,
                "people": len(members),
                "compliant": ok,
                "share": round(ok / len(members), 3) if members else None,
                "required": [list(g) for g in slot.certifications],
            }
        )
    return rows


def annual_cost(
    people: tuple[Person, ...], catalog: Catalog, usd_rate: float | None = None, currency: str = "USD"
) -> dict[str, Any]:
    """The team's annual salary cost, saying what it is made of: salaries recorded on people,
    plus, for people without one, the mid-point of their level's salary band (the catalog's
    USD band times ``usd_rate`` for another currency). Without a rate for a non-USD currency
    no estimate is made: those people are counted in ``unestimated``."""
    recorded = estimated = 0.0
    n_recorded = n_estimated = n_unestimated = 0
    sources: set[str] = set()
    rate = 1.0 if currency == "USD" else usd_rate
    for p in people:
        level = catalog.levels.get(p.level)
        if p.salary is not None:
            recorded += p.salary
            n_recorded += 1
        elif level is not None and rate is not None:
            estimated += level.salary_usd.mid * rate
            n_estimated += 1
            sources.add(level.source)
        else:
            n_unestimated += 1
    return {
        "total": round(recorded + estimated, 2),
        "recorded": round(recorded, 2),
        "recorded_people": n_recorded,
        "estimated": round(estimated, 2),
        "estimated_people": n_estimated,
        "unestimated_people": n_unestimated,
        "basis": "salaries recorded on people"
        if not n_estimated
        else "recorded salaries plus, for people without one, the mid-point of their "
        "level's salary band" + ("" if currency == "USD" else f" converted at {rate:g} {currency} per USD"),
        "sources": sorted(sources),
    }


def build(scenario: Scenario, catalog: Catalog, today: date, plan: Any = None) -> dict[str, Any]:
    """The dashboard as one JSON-ready dict."""
    people = scenario.people
    soon = expiring(people, catalog, today)
    out: dict[str, Any] = {
        "organisation": scenario.organisation,
        "today": today.isoformat(),
        "currency": scenario.currency,
        "headcount": len(people),
        "annual_salary_cost": annual_cost(people, catalog, scenario.usd_rate, scenario.currency),
        "by_role": dict(sorted(Counter(p.role or "(none)" for p in people).items())),
        "expiring": soon,
        "expiring_counts": {str(d): sum(1 for r in soon if r["days"] <= d) for d in EXPIRY_WINDOWS},
        "expired": expired(people, catalog, today),
        "bus_factor": bus_factor(people, catalog),
        "plan": None,
    }
    if plan is not None:
        out["plan"] = {
            "coverage_now": coverage_at(plan, people, 1),
            "coverage_deadline": coverage_at(plan, people, plan.gaps.month),
            "planned_coverage_deadline": _planned(plan),
            "compliance": compliance(plan, people, catalog, today),
            "first_year_cost": plan.costs.first_year,
            "hires": sum(h.count for h in plan.sourcing.hires),
            "warnings": [w.message for w in plan.warnings],
        }
    return out


def _planned(plan: Any) -> float | None:
    cov = plan.sourcing.coverage_by_month
    if not cov:
        return None
    return round(float(cov[min(plan.gaps.month, len(cov)) - 1]), 3)
