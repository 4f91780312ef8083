"""Shared fixtures: the packaged catalog, the bundled examples, a fixed 'today'."""

from __future__ import annotations

import os
from datetime import date

import pytest

from gputeam.catalog import Catalog, load_catalog

TODAY = date(2026, 12, 2)
# English output whatever the machine's locale (the language tests choose theirs explicitly)
os.environ["GPUTEAM_LANG"] = "en"


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def today() -> date:
    return TODAY
