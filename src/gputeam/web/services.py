"""What pages and API share, by its old name: each function builds one JSON-ready dict from
the store and the planner; the page renders it as HTML, the API returns it as JSON.

The functions live in small view modules; import them from there in new code:

- :mod:`gputeam.web.org`: ``catalog``, ``org_id``, ``person_in_org``, ``team_in_org``;
- :mod:`gputeam.web.plan_view`: plan inputs, what-ifs, ``run_plan``, ``save_plan``,
  ``latest_plan``, ``plan_for`` (a plan shaped to the caller's reach);
- :mod:`gputeam.web.dashboard_view`: the dashboard per caller, as a dict or JSON;
- :mod:`gputeam.web.person_view`: ``person_summary``, ``person_detail``;
- :mod:`gputeam.web.cache`: the per-process caches (``cached_text``).
"""

from __future__ import annotations

from gputeam.store import data_version
from gputeam.web.cache import TEXT_CACHE_ENTRIES, cached_text
from gputeam.web.dashboard_view import dashboard_data, dashboard_for, dashboard_json, person_teams
from gputeam.web.org import catalog, org_id, person_in_org, team_in_org
from gputeam.web.person_view import people_json, person_detail, person_summary
from gputeam.web.plan_view import (
    DEFAULT_INPUTS,
    LIVE_SCENARIO,
    PREVIEW_RISK_RUNS,
    WhatIf,
    apply_what_if,
    data_problems,
    gpus_peak,
    latest_plan,
    live_scenario,
    plan_for,
    plan_inputs,
    run_plan,
    save_plan,
)

__all__ = [
    "DEFAULT_INPUTS",
    "LIVE_SCENARIO",
    "PREVIEW_RISK_RUNS",
    "TEXT_CACHE_ENTRIES",
    "WhatIf",
    "apply_what_if",
    "cached_text",
    "catalog",
    "dashboard_data",
    "dashboard_for",
    "dashboard_json",
    "data_problems",
    "data_version",
    "gpus_peak",
    "latest_plan",
    "live_scenario",
    "org_id",
    "people_json",
    "person_detail",
    "person_in_org",
    "person_summary",
    "person_teams",
    "plan_for",
    "plan_inputs",
    "run_plan",
    "save_plan",
    "team_in_org",
]
