"""Shared fixtures: the packaged catalog, the bundled examples, a fixed 'today'."""

from __future__ import annotations

import os
from datetime import date

import pytest
from hypothesis import Phase, settings

from gputeam.catalog import Catalog, load_catalog

TODAY = date(2026, 12, 2)
# English output whatever the machine's locale (the language tests choose theirs explicitly)
os.environ["GPUTEAM_LANG"] = "en"
# Hundreds of apps share each test process: freezing the heap after every cache build would
# cost a full collection of what all of them left (tests/web/test_web_cache.py turns it on).
os.environ["GPUTEAM_FREEZE_HEAP"] = "false"
# No "explain" phase: it traces every line of a failing example's re-runs, which made one
# failing property test run for most of an hour. Failures still shrink and are reported.
settings.register_profile("gputeam", phases=[p for p in Phase if p is not Phase.explain])
settings.load_profile("gputeam")


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def today() -> date:
    return TODAY
