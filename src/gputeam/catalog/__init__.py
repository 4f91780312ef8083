"""The catalog: levels, skill domains, courses, certifications, paths, roles, templates,
strategies and economics, as packaged data with a source for every figure."""

from gputeam.catalog.load import (
    CATALOG_VERSION,
    SECTIONS,
    build,
    load_catalog,
    merge,
    parse_catalog_extra,
)
from gputeam.catalog.models import Catalog
from gputeam.catalog.validity import (
    EXPIRY_STATUSES,
    EXPIRY_WINDOWS,
    ExpiryStatus,
    add_months,
    certificate_expiry,
    expiry_bounds,
    expiry_status,
)

__all__ = [
    "CATALOG_VERSION",
    "EXPIRY_STATUSES",
    "EXPIRY_WINDOWS",
    "SECTIONS",
    "Catalog",
    "ExpiryStatus",
    "add_months",
    "build",
    "certificate_expiry",
    "expiry_bounds",
    "expiry_status",
    "load_catalog",
    "merge",
    "parse_catalog_extra",
]
