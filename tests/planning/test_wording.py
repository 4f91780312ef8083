"""Every sentence of a plan is true, named and useful (issue 8 §5): explanations name the
constraint that binds, months read as words, slots and money never come out fractional or
negative where that means nothing, people appear by name, and no line is printed twice."""

from __future__ import annotations

import io
import re
from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.planning.calendar import month_list, month_spans
from gputeam.planning.gaps import fit
from gputeam.planning.result import Plan
from gputeam.planning.roadmap import held_valid
from gputeam.report.table import print_plan
from gputeam.scenario import Scenario, load_example

from .helpers import person, scenario
from .test_optimiser_properties import scenarios

CATALOG = load_catalog()
TODAY = date(2026, 12, 2)
LEAD_SKILLS = {
    "gpu-architecture": 3,
    "cluster-ops": 3,
    "cuda-drivers": 3,
    "infiniband": 2,
    "automation": 2,
    "linux": 3,
}


def terminal(p: Plan) -> str:
    out = io.StringIO()
    print_plan(p, Console(file=out, width=5000, color_system=None))
    return out.getvalue()


def lead_case(experience: int) -> Scenario:
    """Lee holds every skill of the Infrastructure Lead slot but not its level; the others
    lack GPU architecture, so 'the skill most of the staff lack' is one Lee has."""
    return scenario(
        mode="lean",
        horizon_months=18,
        fleet={"gpus": [{"month": 1, "count": 400}], "interconnect": "infiniband"},
        people=[
            person("lee", name="Lee Chen", level=3, experience_months=experience, skills=LEAD_SKILLS),
            person("ann", name="Ann Ode", skills={"linux": 2}),
            person("bob", name="Bob Roy", skills={"linux": 2}),
        ],
        constraints={"deadline_month": 5, "hiring_lead_time_months": 3},
    )


@pytest.mark.parametrize("experience", [0, 12])
def test_a_hire_reason_names_what_the_person_it_names_lacks(experience: int) -> None:
    """'nobody on staff can reach proficient GPU architecture (earliest: Lee ...)' was said
    of a person who holds it: the reason now names what that person still needs."""
    sc = lead_case(experience)
    p = plan(sc, CATALOG, TODAY, runs=0)
    lead = [h for h in p.sourcing.hires if h.role == "infrastructure-lead"]
    assert lead
    reason = lead[0].reason
    assert "GPU architecture" not in reason
    assert "Lee Chen" in reason
    lee = sc.people[0]
    slot = next(s for s in p.target.at(sc.deadline).slots if s.role == "infrastructure-lead")
    f = fit(lee, slot, set(held_valid(lee, CATALOG, sc.start)))
    assert f.level_gap and f"Level {slot.level_min}" in reason
    for cid in f.missing_certifications:
        assert CATALOG.certifications[cid].name in reason
    if experience:  # Lee gets there, but only after the hire arrives
        months = [int(x) for x in re.findall(r"earliest: Lee Chen, month (\d+)", reason)]
        assert months and months[0] > lead[0].arrival_month


def test_contractors_stop_when_staff_cover_each_run_of_months() -> None:
    """Contractors in months 1-5 and again in 16-18 (the fleet grows, no hires allowed):
    each run says how it ends, never 'until staff cover it in month 6' for months 16-18."""
    sc = scenario(
        mode="lean",
        horizon_months=18,
        # issue 18: 80 GPUs take 3 operations engineers and 800 take 4 (the service work of
        # a site is fixed; it was 1 and 2 at 80 GPUs a person)
        fleet={"gpus": [{"month": 1, "count": 80}, {"month": 16, "count": 800}], "interconnect": "ethernet"},
        people=[
            person(pid, name=name, skills={"linux": 3, "networking": 2, "monitoring": 2})
            for pid, name in (("ann", "Ann Lee"), ("bea", "Bea Ruiz"), ("cam", "Cam Osei"))
        ],
        constraints={
            "deadline_month": 6,
            "hiring_lead_time_months": 3,
            "max_hires_per_month": 0,
            "contractors": {"available": True, "max_share": 1.0},
        },
    )
    p = plan(sc, CATALOG, TODAY, runs=0)
    lines = [e for e in p.sourcing.explanation if "Operations Engineer" in e and "bridge" in e]
    assert len(lines) == 1
    line = lines[0]
    bridged = sorted(n.month for n in p.sourcing.contractors if n.role == "operations-engineer")
    spans = month_spans(bridged)
    assert len(spans) == 2
    for part in line.split(", and "):
        until = re.search(r"until staff cover it in month (\d+)", part)
        last = max(int(x) for x in re.findall(r"\d+", part.split(" until ")[0].split(" in ")[-1]))
        if until:
            assert int(until.group(1)) > last
    assert "to the end of the horizon" in line


def test_month_lists_read_as_words() -> None:
    assert month_list([5]) == "month 5"
    assert month_list([1, 2, 3]) == "months 1-3"
    assert month_list([16, 1, 2, 3, 17, 18]) == "months 1-3 and 16-18"
    assert month_list([1, 3, 5]) == "months 1, 3 and 5"


def test_finance_says_month_5_not_months_5_5() -> None:
    p = plan(load_example("finance"), CATALOG, TODAY, runs=0)
    text = "\n".join(p.sourcing.explanation)
    assert "in month 5 " in text
    assert not re.search(r"months (\d+)-\1\b", text)


def fractional_case() -> Scenario:
    return scenario(
        mode="lean",
        horizon_months=18,
        fleet={
            "gpus": [{"month": 1, "count": 400}, {"month": 16, "count": 1200}],
            "interconnect": "infiniband",
            # issue 18: a storage specialist keeps the lean team odd (7, was 5 at 80 GPUs a
            # person), so half the slots as the contractor cap is still a fraction
            "storage": "parallel-fs",
        },
        people=[
            person("lee", name="Lee Chen", level=3, experience_months=20, skills=LEAD_SKILLS),
            person("ann", name="Ann Ode", skills={"linux": 2}),
            person("bob", name="Bob Roy", skills={"linux": 2}, weekly_study_hours=0),
        ],
        constraints={"deadline_month": 5, "hiring_lead_time_months": 3},
    )


def test_fractional_open_slots_say_what_they_are() -> None:
    """'0.5 Operations Engineer slot(s) open' is not a headcount: say full-time equivalents."""
    p = plan(fractional_case(), CATALOG, TODAY, runs=0)
    fractional = [u for u in p.sourcing.uncovered if re.search(r"\d\.\d", u.split(":")[1])]
    assert fractional
    for u in fractional:
        assert "full-time equivalents" in u
    assert not any("slot(s)" in u for u in p.sourcing.uncovered)
    assert not any("slot(s)" in c.reason for c in p.sourcing.contractors)


def diff_sign_is_more(total: float, greedy: float) -> bool:
    return total > greedy


def test_a_dearer_plan_is_never_called_negative_less() -> None:
    """The plan costs more than the greedy rule here (the rule leaves slots open): say
    'more', with the difference recomputed from the two costs."""
    p = plan(fractional_case(), CATALOG, TODAY, runs=0)
    s = p.sourcing
    assert s.total_cost is not None and s.greedy_cost is not None
    head = s.explanation[0]
    assert not re.search(r"-\d", head)
    assert diff_sign_is_more(s.total_cost, s.greedy_cost)
    diff = s.greedy_cost - s.total_cost
    word = "less" if diff > 0 else "more"
    assert f"{abs(diff):,.0f} ({abs(diff) / s.greedy_cost:.1%}) {word} than the greedy rule" in head
    if diff < 0:
        open_months = s.details.greedy_open_slot_months
        assert f"leaves {open_months:g} slot-month{'' if open_months == 1 else 's'} uncovered" in head


def test_equal_costs_are_called_equal() -> None:
    p = plan(load_example("finance"), CATALOG, TODAY, runs=0)
    assert p.sourcing.total_cost == p.sourcing.greedy_cost
    assert "the same cost as the greedy rule" in p.sourcing.explanation[0]
    assert "USD 0 (0.0%)" not in p.sourcing.explanation[0]


def test_people_appear_by_name_in_the_terminal_and_once() -> None:
    """Bob (id 'bob', no study time) is left out: named once as Bob Roy, with the reason."""
    p = plan(fractional_case(), CATALOG, TODAY, runs=0)
    assert "bob" in p.sourcing.unassigned
    text = terminal(p)
    assert "bob:" not in text
    sourcing = text.split("Roadmaps")[0]
    assert sourcing.count("Bob Roy") == 1
    assert "Bob Roy keeps their current duties: with no weekly study hours" in sourcing


def test_greedy_rule_names_roles_not_ids() -> None:
    p = plan(load_example("healthcare"), CATALOG, TODAY, method="rule", runs=0)
    text = "\n".join(p.sourcing.explanation + p.sourcing.uncovered)
    assert "operations-engineer" not in text and "Operations Engineer" in text


def test_no_explanation_line_is_printed_twice() -> None:
    for name in ("finance", "healthcare", "startup"):
        p = plan(load_example(name), CATALOG, TODAY, runs=0)
        sourcing = terminal(p).split("Roadmaps")[0]
        for line in (*p.sourcing.explanation, *p.sourcing.uncovered):
            assert sourcing.count(line) == 1, (name, line)


def test_an_infeasible_statement_is_printed_once() -> None:
    sc = scenario(
        people=[person("ann", weekly_study_hours=0)],
        constraints={"deadline_month": 3, "hiring_lead_time_months": 4, "contractors": {"available": False}},
    )
    p = plan(sc, CATALOG, TODAY, runs=0)
    assert p.sourcing.status == "infeasible"
    assert terminal(p).count(p.sourcing.explanation[0]) == 1


# ---------------------------------------------------------------- property
RAW_RANGE = re.compile(r"months (\d+)-\1\b")
NEGATIVE_LESS = re.compile(r"-[\d,.]+%?\)? less than")


def renamed(sc: Scenario) -> Scenario:
    """People named unlike their ids ('p0' -> 'Person Zero ...')."""
    words = ("Zero", "One", "Two", "Three", "Four", "Five")
    people = tuple(q.model_copy(update={"name": f"Person {words[i]}"}) for i, q in enumerate(sc.people))
    return sc.model_copy(update={"people": people})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.sampled_from(["mip", "rule"]))
def test_explanations_on_generated_scenarios(sc: Any, method: str) -> None:
    """No explanation says 'months N-N', a negative 'less than', names a person by id when
    they have a name, or repeats a line; the terminal prints no line of it twice."""
    sc = renamed(sc)
    p = plan(sc, CATALOG, TODAY, method=method, runs=0)
    s = p.sourcing
    lines = [
        *s.explanation,
        *s.uncovered,
        *(h.reason for h in s.hires),
        *(a.reason for a in s.assignments),
        *(c.reason for c in s.contractors),
    ]
    ids = [q.id for q in sc.people]
    for line in lines:
        assert not RAW_RANGE.search(line), line
        assert not NEGATIVE_LESS.search(line), line
        assert "slot(s)" not in line, line
        for pid in ids:
            assert not re.search(rf"\b{pid}\b", line), (pid, line)
    assert len(s.explanation) == len(set(s.explanation))
    sourcing = terminal(p).split("Roadmaps")[0]
    for line in s.explanation[1:] if s.status == "infeasible" else s.explanation:
        assert sourcing.count(line) == 1, line


# ---------------------------------------------------------------- warnings and notes
ARTICLE_NOTES = {"team-totals", "power-saving", "roi-measures", "titles"}


@pytest.mark.parametrize("name", ["finance", "healthcare", "startup"])
def test_article_notes_are_apart_from_the_plans_warnings(name: str) -> None:
    """Warnings are about the plan (act on them); the article's own contradictions are
    notes: their own key in the JSON, their own report section, one line in the terminal."""
    p = plan(load_example(name), CATALOG, TODAY, runs=0)
    data = p.to_json()
    assert {w["code"] for w in data["warnings"]}.isdisjoint(ARTICLE_NOTES)
    assert {"power-saving", "roi-measures"} <= {n["code"] for n in data["notes"]}
    for n in data["notes"]:
        assert n["source"].startswith("article §")
    text = terminal(p)
    for n in p.notes:
        assert n.message not in text
    assert f"{len(p.notes)} notes on the article's figures" in text
    from gputeam.report.sections import sections

    by_id = {s.id: s for s in sections(p)}
    assert [r[0] for r in by_id["notes"].tables[0].rows] == [n.code for n in p.notes]
    assert [r[0] for r in by_id["warnings"].tables[0].rows] == [w.code for w in p.warnings]


def test_template_totals_and_titles_are_notes() -> None:
    sc = scenario(people=[person("ann", name="Ann Ode", title="GPU Architect", level=4)])
    p = plan(sc, CATALOG, TODAY, runs=0)
    assert {"team-totals", "titles"} <= {n.code for n in p.notes}
    assert not {"team-totals", "titles"} & {w.code for w in p.warnings}


def test_staffing_density_stays_a_warning() -> None:
    p = plan(load_example("finance"), CATALOG, TODAY, runs=0)
    assert "staffing-density" in {w.code for w in p.warnings}


# ---------------------------------------------------------------- item 7
def test_an_infeasible_plan_gives_the_earliest_deadline_as_a_date() -> None:
    sc = scenario(
        people=[person("ann", weekly_study_hours=0)],
        constraints={"deadline_month": 3, "hiring_lead_time_months": 4, "contractors": {"available": False}},
    )
    p = plan(sc, CATALOG, TODAY, runs=0)
    assert p.sourcing.details.conflict is not None
    fixes = p.sourcing.details.conflict.fixes
    month = fixes.deadline
    assert month is not None
    y, m = divmod(sc.start.month - 1 + month - 1, 12)
    first = date(sc.start.year + y, m + 1, sc.start.day)
    assert fixes.deadline_date == first
    assert (
        f"a deadline of month {month} (from {first.day} {first.strftime('%B')} {first.year}) or later"
    ) in p.sourcing.explanation[0]


def test_people_without_study_time_are_named_in_a_warning() -> None:
    sc = scenario(
        people=[
            person("ann", name="Ann Ode", weekly_study_hours=0),
            person("bob", name="Bob Roy", weekly_study_hours=6),
            person("cy", name="Cy Diaz", weekly_study_hours=0),
        ]
    )
    p = plan(sc, CATALOG, TODAY, runs=0)
    w = [x for x in p.warnings if x.code == "no-study-time"]
    assert len(w) == 1
    assert "Ann Ode and Cy Diaz have no weekly study hours" in w[0].message
    assert "Bob Roy" not in w[0].message and "weekly_study_hours" in w[0].message


# ---------------------------------------------------------------- item 4
def test_the_power_saving_note_names_an_option_that_exists() -> None:
    """The note promised a way to 'take the article's figure': fleet.power_saving: article
    exists, and it gives the article's saving per GPU (§9) in the ROI's efficiency line."""
    finance = load_example("finance")
    # without contractors hire-only leaves slots open the plan runs: a power saving to count
    no_contractors = finance.constraints.contractors.model_copy(update={"available": False})
    physical = finance.model_copy(
        update={"constraints": finance.constraints.model_copy(update={"contractors": no_contractors})}
    )
    note = next(n for n in plan(physical, CATALOG, TODAY, runs=0).notes if n.code == "power-saving")
    assert "fleet.power_saving: article" in note.message
    fleet = physical.fleet.model_copy(update={"power_saving": "article"})
    article = physical.model_copy(update={"fleet": fleet})
    a = plan(article, CATALOG, TODAY, runs=0).roi
    p = plan(physical, CATALOG, TODAY, runs=0).roi
    ex, e = CATALOG.roi_example, CATALOG.economics
    paid = physical.roi.paid_share(physical.fleet.deployment)
    per_gpu_year = {
        "article": ex.returns["efficiency (15% power)"] / ex.gpus,
        "physical": e.kw_per_gpu * e.pue * 8760 * e.usd_per_kwh * e.efficiency_power_share,
    }
    for roi, basis in ((a, "article"), (p, "physical")):
        # the documented definition, month by month from the JSON
        for m in roi.months:
            expected = m.gpus * paid * per_gpu_year[basis] / 12 * (m.filled - m.alternative_filled)
            assert m.returns["efficiency (power)"] == pytest.approx(expected, abs=0.01)
    assert abs(a.return_lines["efficiency (power)"]) > abs(p.return_lines["efficiency (power)"]) > 0
    assert {k: v for k, v in a.return_lines.items() if k != "efficiency (power)"} == {
        k: v for k, v in p.return_lines.items() if k != "efficiency (power)"
    }


def test_power_saving_is_validated_like_the_rest_of_the_scenario() -> None:
    from gputeam.errors import ScenarioError
    from gputeam.scenario import example_text, load_scenario_text

    text = example_text("finance").replace("fleet:\n", "fleet:\n  power_saving: guess\n", 1)
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, "team.yaml")
    assert [p.path for p in info.value.problems] == ["fleet.power_saving"]
