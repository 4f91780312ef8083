"""The web app and JSON API of the tracker (``gputeam serve``).

``create_app(settings)`` builds the app; nothing is created at import time.
``create_app_from_env()`` is the ASGI factory for ``uvicorn --factory`` and workers.
"""

from __future__ import annotations

from typing import Any

from gputeam.web.settings import Settings, SettingsError, load_settings


def create_app(settings: Settings, **kwargs: Any) -> Any:
    from gputeam.web.app import create_app as _create

    return _create(settings, **kwargs)


def create_app_from_env() -> Any:
    """The app configured from ``GPUTEAM_*`` environment variables."""
    return create_app(load_settings())


__all__ = ["Settings", "SettingsError", "create_app", "create_app_from_env", "load_settings"]
