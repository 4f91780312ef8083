"""Programme specs and the rules of time and retakes (pure, with a fake clock)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from gputeam.catalog import Catalog
from gputeam.certify.programme import (
    GRACE_SECONDS,
    Blueprint,
    ProgrammeError,
    accepts_save,
    deadline,
    next_attempt,
    read_spec,
    remaining_seconds,
)

T0 = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


def test_deadline_multiplier_remaining_and_grace() -> None:
    end = deadline(T0, 60, 1.25)
    assert end == T0 + timedelta(minutes=75)
    assert remaining_seconds(end, T0 + timedelta(minutes=74, seconds=59.5)) == 0
    assert remaining_seconds(end, T0 + timedelta(minutes=10)) == 65 * 60
    assert remaining_seconds(end, end + timedelta(hours=1)) == 0
    assert accepts_save(end, end + timedelta(seconds=GRACE_SECONDS))
    assert not accepts_save(end, end + timedelta(seconds=GRACE_SECONDS, microseconds=1))


def test_next_attempt_cooldown_and_attempts_since_the_last_pass() -> None:
    bp = Blueprint(questions=10, minutes=30, pass_mark=0.7, attempts=2, cooldown_days=14)
    today = date(2026, 12, 2)
    assert next_attempt([], bp, today) == (today, None)
    assert next_attempt([(T0, False)], bp, today) == (date(2026, 12, 16), None)
    assert next_attempt([(T0, False), (T0 + timedelta(days=15), False)], bp, today) == (
        None,
        "all 2 attempts used",
    )
    # a pass resets the count: a renewal is allowed after the cooldown
    assert next_attempt([(T0, False), (T0 + timedelta(days=15), True)], bp, date(2027, 6, 1)) == (
        date(2027, 6, 1),
        None,
    )


def test_read_spec_fills_catalog_defaults_and_names_bad_fields(catalog: Catalog) -> None:
    spec = read_spec(
        {
            "name": "Ops",
            "certification": "nca-aiio",
            "blueprint": {"questions": 50, "minutes": 60, "pass_mark": 0.7},
        },
        catalog,
    )
    assert spec.blueprint.cooldown_days == 14  # NCA-AIIO's retake wait
    assert sum(spec.blueprint.domain_weights.values()) == pytest.approx(1.0)
    with pytest.raises(ProgrammeError) as err:
        read_spec(
            {
                "name": "Ops",
                "certification": "nope",
                "skills": {"linux": 9, "x": 2},
                "blueprint": {"questions": 0, "minutes": 60, "pass_mark": 1.5},
            },
            catalog,
        )
    paths = {p.path for p in err.value.problems}
    assert {"blueprint.questions", "blueprint.pass_mark"} <= paths
    with pytest.raises(ProgrammeError) as err:
        read_spec(
            {
                "name": "Ops",
                "certification": "nope",
                "skills": {"x": 2},
                "blueprint": {"questions": 5, "minutes": 60, "pass_mark": 0.5},
            },
            catalog,
        )
    assert {p.path for p in err.value.problems} == {"certification", "skills.x"}
