"""Product text cites the article by section, never the team's own working files
(issue 8 §5): users have the article, not SEED_FACTS.md or a seeds/ or shared/ folder."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import gputeam
from gputeam.catalog import load_catalog
from gputeam.planning import plan
from gputeam.scenario import EXAMPLES, load_example

from .conftest import TODAY

PACKAGE = Path(gputeam.__file__).parent
DOCS = Path(__file__).parent.parent / "docs"
WORKING_FILES = re.compile(r"SEED_FACTS|\bseeds/|\bshared/", re.IGNORECASE)


def product_files() -> list[Path]:
    files = [p for p in PACKAGE.rglob("*") if p.is_file() and p.suffix not in (".pyc", ".mo")]
    return files + sorted(DOCS.rglob("*.md"))


def test_no_product_file_names_the_teams_working_files() -> None:
    found = [
        f"{p}: {m.group(0)}"
        for p in product_files()
        for m in [WORKING_FILES.search(p.read_text("utf-8", errors="replace"))]
        if m
    ]
    assert not found


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_plan_output_names_them(name: str) -> None:
    text = json.dumps(plan(load_example(name), load_catalog(), TODAY, runs=0).to_json())
    assert not WORKING_FILES.search(text)


# ---------------------------------------------------------------- absurd input
def test_terminal_clips_absurd_names_and_files_keep_them(tmp_path: Path) -> None:
    """A 100 KB organisation name and a 50 KB person name: the terminal summary shows a
    clipped name (its size bounded, so it stays fast), the JSON keeps both whole; markup-like
    text in a name is shown as typed, never read as rich markup."""
    import io

    import yaml
    from rich.console import Console

    from gputeam.report.table import NAME_LIMIT, print_plan
    from gputeam.scenario import example_text, parse_scenario

    data = yaml.safe_load(example_text("finance"))
    data["organisation"] = "[/bold]" + "A" * 100_000
    data["people"][0]["name"] = "B" * 50_000
    p = plan(parse_scenario(data), load_catalog(), TODAY, runs=0)
    out = io.StringIO()
    print_plan(p, Console(file=out, width=100, color_system=None))
    text = out.getvalue()
    assert len(text) < 40_000
    assert "[/bold]" + "A" * (NAME_LIMIT - 8) + "…" in text.replace("\n", "")
    assert "B" * 50_000 not in text.replace("\n", "")
    whole = p.to_json()
    assert whole["scenario"]["organisation"] == data["organisation"]
    assert any(r["name"] == "B" * 50_000 for r in whole["roadmaps"])
