"""Catalog amounts in another currency.

The catalog's money figures are US dollars (the article's and the vendors'). A scenario in
another currency gives ``usd_rate`` (units of its currency per dollar); the planner then
works on a copy of the catalog with every money figure multiplied by that rate. The
article's ROI example stays in dollars: it is the article's own arithmetic.
"""

from __future__ import annotations

from collections.abc import Mapping

from gputeam.catalog.models import Catalog, Range

ECONOMICS_MONEY = (
    "contractor_rate_usd_h",
    "employee_rate_usd_h",
    "course_cost_per_hour_usd",
    "downtime_cost_per_gpu_year",
    "deployment_speedup_value_per_gpu",
    "usd_per_kwh",
)


def _r(r: Range, rate: float) -> Range:
    return Range(low=r.low * rate, high=r.high * rate)


def _x(v: float | None, rate: float) -> float | None:
    return None if v is None else v * rate


def in_currency(catalog: Catalog, rate: float) -> Catalog:
    """A copy of ``catalog`` with its money figures times ``rate``."""
    if rate == 1:
        return catalog
    levels = {
        n: lv.model_copy(update={"salary_usd": _r(lv.salary_usd, rate)}) for n, lv in catalog.levels.items()
    }
    courses = {
        k: c.model_copy(update={"price_usd": _x(c.price_usd, rate)}) for k, c in catalog.courses.items()
    }
    certs = {
        k: c.model_copy(update={"exam": c.exam.model_copy(update={"price_usd": _x(c.exam.price_usd, rate)})})
        for k, c in catalog.certifications.items()
    }
    templates = {
        k: t.model_copy(update={"article_cost_usd": _r(t.article_cost_usd, rate)})
        for k, t in catalog.templates.items()
    }
    strategies = {
        k: s.model_copy(
            update={
                "cost_per_participant_usd": _r(s.cost_per_participant_usd, rate)
                if s.cost_per_participant_usd
                else None
            }
        )
        for k, s in catalog.strategies.items()
    }
    money = {f: getattr(catalog.economics, f) * rate for f in ECONOMICS_MONEY}
    ms = catalog.economics.managed_service
    if ms is not None:
        money["managed_service"] = ms.model_copy(update={"per_gpu_month_usd": _x(ms.per_gpu_month_usd, rate)})
    economics = catalog.economics.model_copy(update=money)
    return catalog.model_copy(
        update={
            "levels": levels,
            "courses": courses,
            "certifications": certs,
            "templates": templates,
            "strategies": strategies,
            "economics": economics,
        }
    )


def with_salary_bands(catalog: Catalog, bands: Mapping[int, tuple[float, float]]) -> Catalog:
    """A copy of ``catalog`` whose levels in ``bands`` (level -> (low, high), already in the
    plan's currency: regional bands) replace the article's US bands (kept in ``us_salary``)."""
    if not bands:
        return catalog
    levels = {
        n: lv.model_copy(
            update={
                "salary_usd": Range(low=bands[n][0], high=bands[n][1]),
                "us_salary": lv.us_salary or lv.salary_usd,  # the US band, kept for reference
            }
        )
        if n in bands
        else lv
        for n, lv in catalog.levels.items()
    }
    return catalog.model_copy(update={"levels": levels})
