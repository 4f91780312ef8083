"""The public surface is explicit (STYLE.md item 6, after httpx's
tests/test_exported_members.py): each package's ``__all__`` lists exactly the names it
means to export, and every one of them really exists."""

from __future__ import annotations

import importlib
import pkgutil
import types
from importlib import resources

import pytest

import gputeam

#: Packages that are entry points rather than APIs and need no ``__all__``.
NO_ALL = {"gputeam.cli"}

PACKAGES = sorted(
    m.name
    for m in pkgutil.walk_packages(gputeam.__path__, "gputeam.")
    if m.ispkg and not m.name.rsplit(".", 1)[-1].startswith("_")
)


def test_top_level_all_is_sorted_and_unique() -> None:
    assert gputeam.__all__[0] == "__version__"
    names = gputeam.__all__[1:]
    assert names == sorted(names)
    assert len(set(gputeam.__all__)) == len(gputeam.__all__)


@pytest.mark.parametrize("name", gputeam.__all__)
def test_top_level_names_resolve(name: str) -> None:
    assert getattr(gputeam, name) is not None


def test_top_level_dir_is_all() -> None:
    assert dir(gputeam) == sorted(gputeam.__all__)


def test_top_level_unknown_name_raises_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_thing"):
        _ = gputeam.no_such_thing  # type: ignore[attr-defined]


def test_top_level_reexports_are_the_subpackage_objects() -> None:
    from gputeam import catalog, errors, planning, scenario

    assert gputeam.plan is planning.plan
    assert gputeam.Plan is planning.Plan
    assert gputeam.article_roi is planning.article_roi
    assert gputeam.load_catalog is catalog.load_catalog
    assert gputeam.Catalog is catalog.Catalog
    assert gputeam.Scenario is scenario.Scenario
    assert gputeam.load_scenario is scenario.load_scenario
    assert gputeam.load_example is scenario.load_example
    for name in ("InputError", "ScenarioError", "CatalogError", "Problem"):
        assert getattr(gputeam, name) is getattr(errors, name)


def test_top_level_exports_every_own_public_name() -> None:
    """After every lazy name is resolved, each public gputeam object in the package's
    namespace is listed in ``__all__``."""
    for name in gputeam.__all__:
        getattr(gputeam, name)
    own = [
        k
        for k, v in vars(gputeam).items()
        if not k.startswith("_")
        and not isinstance(v, types.ModuleType)
        and str(getattr(v, "__module__", "")).startswith("gputeam")
    ]
    assert sorted(set(own) - set(gputeam.__all__)) == []


def test_python_api_quickstart_from_the_docstring() -> None:
    from datetime import date

    scenario = gputeam.load_example("finance")
    result = gputeam.plan(scenario, gputeam.load_catalog(), date(2026, 12, 2))
    assert isinstance(result, gputeam.Plan)
    assert issubclass(gputeam.ScenarioError, gputeam.InputError)
    assert issubclass(gputeam.CatalogError, gputeam.InputError)
    assert issubclass(gputeam.InputError, ValueError)


def test_subpackages_found() -> None:
    assert {
        "gputeam.catalog",
        "gputeam.scenario",
        "gputeam.planning",
        "gputeam.report",
        "gputeam.cli",
    } <= set(PACKAGES)


@pytest.mark.parametrize("package", [p for p in PACKAGES if p not in NO_ALL])
def test_subpackage_all_matches_real_attributes(package: str) -> None:
    module = importlib.import_module(package)
    exported = getattr(module, "__all__", None)
    assert exported is not None, f"{package} has no __all__"
    assert len(set(exported)) == len(exported), f"{package}.__all__ has duplicates"
    missing = [n for n in exported if not hasattr(module, n)]
    assert missing == [], f"{package}.__all__ names missing attributes: {missing}"
    own = [
        k
        for k, v in vars(module).items()
        if not k.startswith("_")
        and not isinstance(v, types.ModuleType)
        and str(getattr(v, "__module__", "")).startswith("gputeam")
    ]
    unlisted = sorted(set(own) - set(exported))
    assert unlisted == [], f"{package} exposes {unlisted} without listing them in __all__"


def test_py_typed_is_shipped() -> None:
    assert resources.files("gputeam").joinpath("py.typed").is_file()
