"""The organisation this server tracks, and its catalog: both read once per process."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from gputeam import store
from gputeam.catalog import Catalog
from gputeam.store import DbSession
from gputeam.web import cache


def catalog(app: FastAPI) -> Catalog:
    """The packaged catalog, patched by the server's --catalog-extra file if any."""
    return cache.process_wide(app, "catalog", lambda: _load_catalog(app.state.settings))


def _load_catalog(settings: Any) -> Catalog:
    from gputeam.catalog import load_catalog, parse_catalog_extra
    from gputeam.errors import CatalogError, read_text_file

    path = settings.catalog_extra
    if not path:
        return load_catalog()
    return load_catalog(parse_catalog_extra(read_text_file(path, CatalogError), path), file=path)


def org_id(app: FastAPI, s: DbSession) -> int:
    """The organisation this server tracks (the first one; created on first use)."""
    return cache.process_wide(
        app, "org_id", lambda: store.tracked_organisation(s, app.state.settings.organisation)
    )


def person_in_org(app: FastAPI, s: DbSession, person_id: int) -> store.Person | None:
    """The person with this id in this server's organisation, else None."""
    return store.find_person(s, org_id(app, s), person_id)


def team_in_org(app: FastAPI, s: DbSession, team_id: int) -> store.Team | None:
    """The team with this id in this server's organisation, else None."""
    return store.find_team(s, org_id(app, s), team_id)
