"""Where the database lives: resolved on demand from arguments and the environment.

Nothing here runs at import time; :func:`database_url` is called by :func:`open_database`
(and by front ends) with an explicit environment so that tests can pass their own.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

ENV_DB = "GPUTEAM_DB"


def default_database_path() -> Path:
    """The embedded default: ``gputeam.db`` in the user's data directory."""
    from platformdirs import user_data_path

    return user_data_path("gputeam", appauthor=False) / "gputeam.db"


def database_url(url: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The database URL to use: ``url`` if given, else ``$GPUTEAM_DB``, else the embedded
    SQLite default. ``postgres://`` and ``postgresql://`` select the psycopg 3 driver."""
    env = os.environ if env is None else env
    chosen = url or env.get(ENV_DB) or f"sqlite:///{default_database_path()}"
    for prefix in ("postgres://", "postgresql://"):
        if chosen.startswith(prefix):
            return "postgresql+psycopg://" + chosen[len(prefix) :]
    return chosen
