"""How long a certification stays valid: the one home of the expiry rule.

A certificate earned on a day expires ``validity_months`` calendar months later, on the same
day of the month, or on that month's last day when it is shorter (31 January + 1 month is
28 or 29 February; + 24 months is 31 January). A date given explicitly (the certificate's
own expiry) wins; a certification without a known validity does not expire. The planner,
the tracker's store and the web dashboard all call :func:`certificate_expiry`.

Where a certificate stands on a day is :func:`expiry_status`: ``expired`` after its expiry
day, ``expiring-30`` / ``-60`` / ``-90`` within that many days of it (the day itself
included), else ``valid`` (also when it does not expire). The dashboard, the certifications
view and the reminders all ask it; :func:`expiry_bounds` gives the expiry days a status
covers, for a database query.
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta
from typing import Literal

from gputeam.catalog.models import Catalog

__all__ = [
    "EXPIRY_STATUSES",
    "EXPIRY_WINDOWS",
    "ExpiryStatus",
    "add_months",
    "certificate_expiry",
    "expiry_bounds",
    "expiry_status",
]

#: The warning windows, in days before expiry.
EXPIRY_WINDOWS = (30, 60, 90)
ExpiryStatus = Literal["expired", "expiring-30", "expiring-60", "expiring-90", "valid"]
#: Every status, most urgent first.
EXPIRY_STATUSES: tuple[ExpiryStatus, ...] = ("expired", "expiring-30", "expiring-60", "expiring-90", "valid")


def add_months(day: date, months: int) -> date:
    """``day`` plus ``months`` calendar months, clamped to the target month's last day."""
    y, m = divmod(day.month - 1 + months, 12)
    year, month = day.year + y, m + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def certificate_expiry(
    catalog: Catalog | None, cert_id: str, earned: date, given: date | None = None
) -> date | None:
    """The day a certification earned on ``earned`` expires (None: it does not, or unknown)."""
    if given is not None:
        return given
    cert = catalog.certifications.get(cert_id) if catalog is not None else None
    if cert is None or not cert.validity_months:
        return None
    return add_months(earned, cert.validity_months)


def expiry_status(expires: date | None, today: date) -> ExpiryStatus:
    """Where a certificate expiring on ``expires`` (None: never) stands on ``today``."""
    if expires is None:
        return "valid"
    days = (expires - today).days
    if days < 0:
        return "expired"
    for window, status in zip(EXPIRY_WINDOWS, EXPIRY_STATUSES[1:4], strict=True):
        if days <= window:
            return status
    return "valid"


def expiry_bounds(status: ExpiryStatus, today: date) -> tuple[date | None, date | None]:
    """The expiry days (first, last; None: open) of certificates in ``status`` on ``today``;
    a certificate that never expires is ``valid`` too, which the caller adds."""
    if status == "expired":
        return None, today - timedelta(days=1)
    if status == "valid":
        return today + timedelta(days=EXPIRY_WINDOWS[-1] + 1), None
    window = int(status.rsplit("-", 1)[1])
    i = EXPIRY_WINDOWS.index(window)
    low = today if i == 0 else today + timedelta(days=EXPIRY_WINDOWS[i - 1] + 1)
    return low, today + timedelta(days=window)
