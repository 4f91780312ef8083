"""The catalog: levels, skill domains, courses, certifications, paths, roles, templates,
strategies and economics, as packaged data with a source for every figure."""

from gputeam.catalog.load import CATALOG_VERSION, SECTIONS, build, load_catalog, merge
from gputeam.catalog.models import Catalog

__all__ = ["CATALOG_VERSION", "SECTIONS", "Catalog", "build", "load_catalog", "merge"]
