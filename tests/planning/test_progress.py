"""The pipeline reports its progress through a callback and is unchanged by it."""

from __future__ import annotations

from gputeam.planning import plan
from gputeam.planning.pipeline import STAGES

from .helpers import person, scenario


def test_progress_reports_every_stage_in_order(catalog, today):
    sc = scenario(people=[person(f"p{i}") for i in range(250)], fleet={"gpus": [{"month": 1, "count": 3000}]})
    seen: list[tuple[str, int, int]] = []
    with_bar = plan(sc, catalog, today, method="rule", runs=50, progress=lambda *a: seen.append(a))
    stages = [s for s, _, _ in seen]
    assert [s for i, s in enumerate(stages) if i == 0 or stages[i - 1] != s] == list(STAGES)
    roadmaps = [(d, t) for s, d, t in seen if s == "roadmaps"]
    assert roadmaps == [(100, 250), (200, 250), (250, 250)]
    assert with_bar == plan(sc, catalog, today, method="rule", runs=50)


def test_fast_and_careful_yaml_parsers_agree():
    """The C parser (no line numbers) and the round-trip parser read the same data."""
    from gputeam._yaml import _MISS, fast_load, load_with_lines
    from gputeam.scenario import EXAMPLES, example_text

    for name in EXAMPLES:
        text = example_text(name)
        assert fast_load(text) == load_with_lines(text)[0]
    assert fast_load("a: 1\na: 2\n") is _MISS  # duplicate keys go to the careful parser
    assert fast_load("a: [\n") is _MISS
    assert fast_load("d: 2027-13-01\n") == {"d": "2027-13-01"}  # dates stay text for the models
