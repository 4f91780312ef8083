"""How long a certification stays valid: the one home of the expiry rule.

A certificate earned on a day expires ``validity_months`` calendar months later, on the same
day of the month, or on that month's last day when it is shorter (31 January + 1 month is
28 or 29 February; + 24 months is 31 January). A date given explicitly (the certificate's
own expiry) wins; a certification without a known validity does not expire. The planner,
the tracker's store and the web dashboard all call :func:`certificate_expiry`.
"""

from __future__ import annotations

import calendar
from datetime import date

from gputeam.catalog.models import Catalog

__all__ = ["add_months", "certificate_expiry"]


def add_months(day: date, months: int) -> date:
    """``day`` plus ``months`` calendar months, clamped to the target month's last day."""
    y, m = divmod(day.month - 1 + months, 12)
    year, month = day.year + y, m + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def certificate_expiry(catalog: Catalog | None, cert_id: str, earned: date,
                       given: date | None = None) -> date | None:
    """The day a certification earned on ``earned`` expires (None: it does not, or unknown)."""
    if given is not None:
        return given
    cert = catalog.certifications.get(cert_id) if catalog is not None else None
    if cert is None or not cert.validity_months:
        return None
    return add_months(earned, cert.validity_months)
