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
from gputeam.catalog.validity import add_months, certificate_expiry

__all__ = ["CATALOG_VERSION", "SECTIONS", "Catalog", "add_months", "build", "certificate_expiry",
           "load_catalog", "merge", "parse_catalog_extra"]
