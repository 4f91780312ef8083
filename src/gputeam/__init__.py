"""gputeam: plan, build and track the team that runs GPU / AI infrastructure.

The Python API mirrors the command line::

    from datetime import date
    import gputeam

    scenario = gputeam.load_example("finance")
    result = gputeam.plan(scenario, gputeam.load_catalog(), date.today())

Names are imported lazily so that ``import gputeam`` (and ``gputeam --help``) stays fast.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any


def _version() -> str:
    """The installed distribution's version (pyproject.toml is its one home)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gputeam")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


__version__ = _version()

_EXPORTS = {
    "Catalog": "gputeam.catalog",
    "load_catalog": "gputeam.catalog",
    "Scenario": "gputeam.scenario",
    "load_scenario": "gputeam.scenario",
    "load_example": "gputeam.scenario",
    "Plan": "gputeam.planning",
    "plan": "gputeam.planning",
    "article_roi": "gputeam.planning",
    "InputError": "gputeam.errors",
    "ScenarioError": "gputeam.errors",
    "CatalogError": "gputeam.errors",
    "Problem": "gputeam.errors",
}

__all__ = [
    "__version__",
    "Catalog",
    "CatalogError",
    "InputError",
    "Plan",
    "Problem",
    "Scenario",
    "ScenarioError",
    "article_roi",
    "load_catalog",
    "load_example",
    "load_scenario",
    "plan",
]

if TYPE_CHECKING:
    from gputeam.catalog import Catalog, load_catalog
    from gputeam.errors import CatalogError, InputError, Problem, ScenarioError
    from gputeam.planning import Plan, article_roi, plan
    from gputeam.scenario import Scenario, load_example, load_scenario


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'gputeam' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
