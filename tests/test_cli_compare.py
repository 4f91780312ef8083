"""Issue 8 §6: field overrides (--set), `gputeam compare`, `gputeam sweep` and the midsize
example, run for real on files in tmp_path (CliRunner; the installed script for the parallel
sweep). Figures are recomputed from each plan's own JSON by their documented definitions."""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from gputeam.cli.compare_cmds import PARALLEL_FROM, Point, run_points
from gputeam.cli.main import app
from gputeam.scenario import EXAMPLES, example_text
from gputeam.scenario.overrides import apply_sets, parse_set, parse_vary

TODAY = "2026-12-02"


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def ok(*args: str) -> Any:
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def refused(*args: str) -> str:
    """The command exits 2 with a message and no traceback; the message."""
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return " ".join(result.output.split())


def plan_json(*args: str) -> dict[str, Any]:
    result = ok("plan", *args, "--format", "json", "--today", TODAY, "--runs", "0")
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def write(tmp_path: Path, name: str, data: dict[str, Any]) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    return path


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(example_text(name))
    return data


def without_timings(plan: dict[str, Any]) -> dict[str, Any]:
    plan["sourcing"]["solve_seconds"] = 0
    return plan


# --- --set ------------------------------------------------------------------------------


def test_set_gives_the_plan_of_the_edited_file(tmp_path: Path) -> None:
    data = example("finance")
    data["constraints"]["deadline_month"] = 9
    data["constraints"]["budget"] = 2e6
    data["fleet"]["gpus"][1]["count"] = 600
    data["people"][1]["weekly_study_hours"] = 3
    edited = plan_json(str(write(tmp_path, "edited.yaml", data)))
    overridden = plan_json(
        str(write(tmp_path, "finance.yaml", example("finance"))),
        "--set",
        "constraints.deadline_month=9",
        "--set",
        "constraints.budget=2e6",
        "--set",
        "fleet.gpus[-1].count=600",
        "--set",
        "people[fin-02].weekly_study_hours=3",
    )
    assert without_timings(overridden) == without_timings(edited)


def test_set_paths_by_index_id_and_shorthand() -> None:
    sc = plan_json(
        "--example",
        "midsize",
        "--set",
        "fleet.gpus=2000",
        "--set",
        "people.0.level=3",
        "--set",
        "people[mid-06].salary=90000",
        "--set",
        "fleet.compliance=[SOC 2, ISO 27001]",
        "--set",
        "constraints.deadline_month=null",
    )["scenario"]
    assert [s["count"] for s in sc["fleet"]["gpus"]] == [64, 256, 512, 2000]
    assert sc["people"][0]["level"] == 3
    assert sc["people"][5]["salary"] == 90000
    assert sc["fleet"]["compliance"] == ["SOC 2", "ISO 27001"]
    assert sc["constraints"]["deadline_month"] is None


def test_set_creates_a_section_the_file_leaves_out(tmp_path: Path) -> None:
    data = example("startup")
    del data["constraints"]
    path = write(tmp_path, "s.yaml", data)
    sc = plan_json(str(path), "--set", "constraints.contractors.max_share=0.25")["scenario"]
    assert sc["constraints"]["contractors"]["max_share"] == 0.25


def test_set_value_errors_are_the_files_errors(tmp_path: Path) -> None:
    """A bad value given by --set gets the problem the same value gets in the file, pointing
    at the --set instead of a line."""
    from gputeam.errors import ScenarioError
    from gputeam.scenario.load import load_with_catalog

    for path, value in (
        ("fleet.sites", "0"),
        ("people[1].level", "9"),
        ("constraints.deadline_month", "99"),
        ("fleet.interconnect", "copper"),
        ("people[0].skills.nonesuch", "2"),
    ):
        with pytest.raises(ScenarioError) as by_set:
            load_with_catalog(example_text("finance"), "f.yaml", sets=[f"{path}={value}"])
        edited, _ = apply_sets(example("finance"), [parse_set(f"{path}={value}")])
        with pytest.raises(ScenarioError) as by_file:
            load_with_catalog(yaml.safe_dump(edited), "f.yaml")
        (a,), (b,) = by_set.value.problems, by_file.value.problems
        assert (a.path, a.message, a.found, a.expected) == (b.path, b.message, b.found, b.expected)
        assert a.file == f"--set {path}={value}" and a.line is None


@pytest.mark.parametrize(
    ("arg", "words"),
    [
        (
            "constraints.budget_usd=2e6",
            ["constraints.budget_usd", "unknown field", "deadline_month, budget, hiring_lead_time_months"],
        ),
        ("fleet.gpu=5", ["fleet.gpu", "unknown field", "gpu_model, gpus, sites"]),
        ("nonsense=1", ["nonsense", "unknown field", "organisation, start"]),
        ("fleet.gpus[5].count=3", ["fleet.gpus[5]", "no such item", "from 0 to 1"]),
        ("people[nobody].level=2", ["people[nobody]", "no item with that id", "fin-01"]),
        ("fleet.sites.x=1", ["fleet.sites.x", "single value"]),
        ("fleet.sites", ["no '='", "PATH=VALUE"]),
        ("=4", ["no field path"]),
        ("fleet..sites=2", ["not a field path"]),
        ("fleet.sites=0", ["fleet.sites", ">= 1"]),
    ],
)
def test_bad_set_exits_2_naming_the_path(arg: str, words: list[str]) -> None:
    text = refused("plan", "--example", "finance", "--runs", "0", "--format", "json", "--set", arg)
    assert f"--set {arg}" in text
    for word in words:
        assert word in text


def test_apply_sets_leaves_the_input_alone() -> None:
    data = example("finance")
    before = json.dumps(data, default=str)
    apply_sets(data, [parse_set("fleet.gpus[1].count=7"), parse_set("constraints.budget=1")])
    assert json.dumps(data, default=str) == before


# --- midsize ----------------------------------------------------------------------------


def test_midsize_is_a_bundled_example(tmp_path: Path) -> None:
    assert "midsize" in EXAMPLES
    out = tmp_path / "midsize.yaml"
    ok("example", "midsize", "--out", str(out))
    data = yaml.safe_load(out.read_text("utf-8"))
    fleet = data["fleet"]
    assert (fleet["gpus"][0]["count"], fleet["gpus"][-1]["count"]) == (64, 1024)
    assert fleet["gpus"][-1]["month"] <= 18 == data["horizon_months"]
    assert (fleet["interconnect"], fleet["deployment"]) == ("infiniband", "on-prem")
    people = data["people"]
    assert len(people) == 6 and len({p["name"] for p in people}) == 6
    assert all(p.get("salary") and p.get("skills") for p in people)
    assert len({p["level"] for p in people}) >= 3
    plan = plan_json("--example", "midsize")
    assert len(plan["roadmaps"]) >= 6
    assert plan["target"]["months"][-1]["gpus"] == 1024


# --- compare ----------------------------------------------------------------------------


def ready_month(plan: dict[str, Any]) -> int | None:
    """The documented definition: the first month from which staff cover the whole target
    in every later month."""
    shares = plan["sourcing"]["coverage_by_month"]
    for m in range(1, len(shares) + 1):
        if all(s >= 1 - 1e-9 for s in shares[m - 1 :]):
            return m
    return None


def headline(plan: dict[str, Any]) -> dict[str, Any]:
    deadline = plan["scenario"]["constraints"]["deadline_month"] or len(plan["target"]["months"])
    month = plan["target"]["months"][deadline - 1]
    levels: dict[int, int] = {}
    for h in plan["sourcing"]["hires"]:
        levels[h["level"]] = levels.get(h["level"], 0) + h["count"]
    return {
        "headcount_at_deadline": sum(s["count"] for s in month["slots"]),
        "hires": sum(levels.values()),
        "hires_by_level": {str(k): v for k, v in levels.items()},
        "horizon_cost": plan["costs"]["horizon"],
        "first_year_cost": plan["costs"]["first_year"],
        "contractor_hours": sum(c["hours"] for c in plan["sourcing"]["contractors"]),
        "people_upskilled": len(plan["sourcing"]["assignments"]),
        "ready_month": ready_month(plan),
        "deadline_month": deadline,
    }


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("cmp")
    a = example("finance")
    b = example("finance")
    b["constraints"]["deadline_month"] = 10
    b["constraints"]["contractors"]["max_share"] = 0.2
    b["fleet"]["gpus"][1]["count"] = 1200
    return write(d, "a.yaml", a), write(d, "b.yaml", b)


def test_compare_json_figures_are_the_plans(two: tuple[Path, Path]) -> None:
    a, b = two
    data = json.loads(
        ok("compare", str(a), str(b), "--format", "json", "--today", TODAY, "--runs", "0").stdout
    )
    assert [p["name"] for p in data["plans"]] == ["a", "b"]
    for path, got in zip(two, data["plans"], strict=True):
        want = headline(plan_json(str(path)))
        assert {k: got[k] for k in want} == want
        assert got["p_ready"] is None  # --runs 0: no simulation
    assert len(data["differences"]) == 1


def test_compare_explains_the_differences(two: tuple[Path, Path]) -> None:
    a, b = two
    pa, pb = headline(plan_json(str(a))), headline(plan_json(str(b)))
    text = " ".join(
        ok("compare", str(a), str(b), "--format", "md", "--today", TODAY, "--runs", "0").stdout.split()
    )
    sentence = re.search(r"b against a: (.*?)\.(\s|$)", text)
    assert sentence, text
    said = sentence.group(1)
    d_cost = pb["horizon_cost"] - pa["horizon_cost"]
    assert f"costs ${abs(d_cost):,.0f} {'more' if d_cost > 0 else 'less'}" in said
    d_head = pb["headcount_at_deadline"] - pa["headcount_at_deadline"]
    assert d_head and f"targets {abs(d_head)} {'more' if d_head > 0 else 'fewer'}" in said
    for level in set(pa["hires_by_level"]) | set(pb["hires_by_level"]):
        d = pb["hires_by_level"].get(level, 0) - pa["hires_by_level"].get(level, 0)
        if d:
            assert f"{abs(d)} {'more' if d > 0 else 'fewer'} Level-{level} engineer" in said
    if pa["ready_month"] != pb["ready_month"] and None not in (pa["ready_month"], pb["ready_month"]):
        d = pa["ready_month"] - pb["ready_month"]
        assert f"ready {abs(d)} month" in said and ("earlier" if d > 0 else "later") in said


def test_compare_formats(two: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = two
    table = ok("compare", str(a), str(b), "--today", TODAY, "--runs", "20").stdout
    assert "P(ready by deadline)" in table and "b against a" in table
    out = tmp_path / "cmp.html"
    ok("compare", str(a), str(b), "--out", str(out), "--today", TODAY, "--runs", "0")
    html = out.read_text("utf-8")
    assert html.startswith("<!DOCTYPE html>") and 'id="table-compare"' in html
    assert "b against a" in html and "<script src" not in html
    same = json.loads(ok("compare", str(a), str(a), "--format", "json", "--runs", "0").stdout)
    assert [p["name"] for p in same["plans"]] == ["a", "a (2)"]
    assert same["differences"] == ["a (2) against a: the same figures."]


def test_compare_set_applies_to_every_plan(two: tuple[Path, Path]) -> None:
    data = json.loads(
        ok("compare", *map(str, two), "--format", "json", "--runs", "0", "--set", "fleet.gpus=100").stdout
    )
    assert [p["gpus_at_deadline"] for p in data["plans"]] == [100, 100]


def test_compare_refuses_bad_input(two: tuple[Path, Path], tmp_path: Path) -> None:
    a, _ = two
    assert "two or more" in refused("compare", str(a))
    assert "file not found" in refused("compare", str(a), str(tmp_path / "none.yaml"))
    bad = write(tmp_path, "bad.yaml", {**example("finance"), "horizon_months": 0})
    text = refused("compare", str(a), str(bad), "--runs", "0")
    assert str(bad) in text and "horizon_months" in text
    assert "unknown format" in refused("compare", str(a), str(a), "--format", "xlsx")
    assert "unknown field" in refused("compare", str(a), str(a), "--set", "fleet.gpu=3")


# --- sweep ------------------------------------------------------------------------------


def test_vary_values() -> None:
    """a..b:n is n evenly spaced values from a to b; a comma list is taken as written."""
    axis = parse_vary("fleet.gpus=500..4000:8")
    assert axis.values == tuple(500 + 500 * i for i in range(8))
    assert parse_vary("constraints.contractors.max_share=0..1:5").values == (0, 0.25, 0.5, 0.75, 1)
    assert parse_vary("constraints.budget=1e6..2e6:2").values == (1_000_000, 2_000_000)
    assert parse_vary("fleet.interconnect=infiniband, roce").values == ("infiniband", "roce")
    # a whole-number field gets whole numbers (rounded, repeats dropped)
    assert parse_vary("fleet.gpus=100..200:4").values == (100, 133, 167, 200)
    assert parse_vary("fleet.sites=1..2:3").values == (1, 2)
    assert parse_vary("fleet.pue=1.1..1.5:3").values == (1.1, 1.3, 1.5)


def sweep_json(*args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        ok("sweep", *args, "--format", "json", "--today", TODAY, "--runs", "0").stdout
    )
    return data


def test_sweep_grid_is_the_cartesian_product_of_plans(tmp_path: Path) -> None:
    path = write(tmp_path, "f.yaml", example("finance"))
    data = sweep_json(
        str(path),
        "--vary",
        "fleet.gpus=200..600:3",
        "--vary",
        "constraints.deadline_month=6,9",
        "--jobs",
        "1",
    )
    assert data["varied"] == ["fleet.gpus", "constraints.deadline_month"]
    got = [tuple(p["values"].values()) for p in data["points"]]
    assert got == list(itertools.product(["200", "400", "600"], ["6", "9"]))
    for point in data["points"][:2] + data["points"][-1:]:
        gpus, deadline = point["values"].values()
        plan = plan_json(
            str(path), "--set", f"fleet.gpus={gpus}", "--set", f"constraints.deadline_month={deadline}"
        )
        want = headline(plan)
        assert {k: point["figures"][k] for k in want} == want
        assert point["figures"]["gpus_at_deadline"] == int(gpus)


def test_sweep_runs_points_in_parallel_processes() -> None:
    """More than PARALLEL_FROM points with two jobs run in other processes, and give the
    same figures as planning them one after the other."""
    points = [
        Point(example_text("finance"), "f.yaml", None, (f"fleet.gpus={n}",), date(2026, 12, 2), 0, 0, "mip")
        for n in range(100, 100 * (PARALLEL_FROM + 2), 100)
    ]
    assert len(points) > PARALLEL_FROM
    parallel, serial = run_points(points, 2), run_points(points, 1)
    assert {o.pid for o in serial} == {os.getpid()}
    assert os.getpid() not in {o.pid for o in parallel}
    assert [o.figures for o in parallel] == [o.figures for o in serial]
    assert all(o.figures is not None for o in parallel)


def test_sweep_cli_parallel_matches_sequential(tmp_path: Path) -> None:
    path = write(tmp_path, "f.yaml", example("finance"))
    args = (str(path), "--vary", "fleet.gpus=100..600:6")
    assert sweep_json(*args, "--jobs", "2") == sweep_json(*args, "--jobs", "1")


def test_sweep_point_errors_name_the_point(tmp_path: Path) -> None:
    path = write(tmp_path, "f.yaml", example("finance"))
    result = ok(
        "sweep",
        str(path),
        "--vary",
        "constraints.deadline_month=6,40",
        "--format",
        "json",
        "--runs",
        "0",
        "--today",
        TODAY,
    )
    data = json.loads(result.stdout)
    good, bad = data["points"]
    assert good["figures"] and not good["problems"]
    assert bad["figures"] is None and "beyond horizon_months" in bad["problems"][0]
    err = " ".join(result.stderr.split())
    assert "1 of 2 points could not be planned" in err
    assert "constraints.deadline_month=40:" in err and "Traceback" not in err
    # every point bad: exit 2
    assert "could not be planned" in refused(
        "sweep", str(path), "--vary", "constraints.deadline_month=40,50", "--runs", "0"
    )


@pytest.mark.parametrize(
    ("arg", "words"),
    [
        ("fleet.gpuz=1,2", ["--vary fleet.gpuz=1,2", "unknown field", "gpu_model, gpus"]),
        ("fleet.gpus=5..x:3", ["numbers at both ends"]),
        ("fleet.gpus=5..10", ["not a range", "A..B:N"]),
        ("fleet.gpus=5..10:1", ["at least 2"]),
        ("fleet.gpus", ["no values"]),
        ("fleet.gpus=1,,2", ["empty value"]),
        ("fleet.gpus=1..5000:5000", ["too many points", "at most 1,000"]),
    ],
)
def test_bad_vary_exits_2(arg: str, words: list[str], tmp_path: Path) -> None:
    path = write(tmp_path, "f.yaml", example("finance"))
    text = refused("sweep", str(path), "--vary", arg, "--runs", "0")
    for word in words:
        assert word in text


def test_sweep_csv_and_html(tmp_path: Path) -> None:
    path = write(tmp_path, "f.yaml", example("finance"))
    rows = list(
        csv.reader(
            io.StringIO(
                ok(
                    "sweep", str(path), "--vary", "fleet.gpus=200,400", "--format", "csv", "--runs", "0"
                ).stdout
            )
        )
    )
    assert rows[0][:3] == ["fleet.gpus", "status", "gpus_at_deadline"]
    assert [r[0] for r in rows[1:]] == ["200", "400"] and [r[2] for r in rows[1:]] == ["200", "400"]
    out = tmp_path / "sweep.html"
    ok("sweep", str(path), "--vary", "fleet.gpus=200,400", "--out", str(out), "--runs", "10")
    html = out.read_text("utf-8")
    assert 'data-chart="sweep-cost"' in html and 'data-chart="sweep-ready"' in html
    assert "Plotly" in html and "<script src" not in html and 'id="table-sweep"' in html
    table = ok("sweep", str(path), "--vary", "fleet.gpus=200,400", "--runs", "0").stdout
    assert "Horizon" in table and "400" in table and "optimal" in table


@pytest.mark.browser
def test_sweep_chart_is_drawn_offline_in_chromium(tmp_path: Path) -> None:
    """The sweep page draws its charts with the embedded Plotly.js, loading nothing."""
    chromium = "/usr/bin/chromium"
    if not Path(chromium).exists():
        pytest.skip(f"{chromium} is missing")
    from playwright.sync_api import sync_playwright

    path = write(tmp_path, "f.yaml", example("finance"))
    out = tmp_path / "sweep.html"
    ok(
        "sweep",
        str(path),
        "--vary",
        "fleet.gpus=200..600:3",
        "--vary",
        "constraints.deadline_month=6,9",
        "--out",
        str(out),
        "--runs",
        "20",
        "--jobs",
        "1",
    )
    blocked: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()

            def route(r: Any) -> None:
                if r.request.url == out.as_uri():
                    r.continue_()
                else:
                    blocked.append(r.request.url)
                    r.abort()

            page.route("**/*", route)
            page.goto(out.as_uri())
            page.wait_for_selector("body[data-charts-ready]", timeout=30_000)
            assert page.get_attribute("body", "data-charts-failed") is None
            assert page.get_attribute("body", "data-charts-ready") == "3"
            lines = page.eval_on_selector_all("[data-chart='sweep-cost'] .trace", "els => els.length")
            assert lines == 4  # horizon and first year, for each deadline
            assert page.locator("#table-sweep tbody tr").count() == 6
        finally:
            browser.close()
    assert blocked == []
