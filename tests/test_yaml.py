"""One YAML library (PyYAML) and one schema for every scenario file: YAML 1.2's core schema
(YAML 1.2.2 §10.3.2), whichever of the two parsers reads the file (libyaml's fast one, or
PyYAML's own when line numbers are needed for an error)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gputeam._yaml import _MISS, fast_load, load_with_lines

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("NO", "NO"),  # Norway's country code, not false (YAML 1.1's 'Norway problem')
        ("yes", "yes"),
        ("on", "on"),
        ("off", "off"),
        ("y", "y"),
        ("true", True),
        ("False", False),
        ("010", 10),  # decimal, not octal 8
        ("0o17", 15),
        ("0x1F", 31),
        ("-12", -12),
        ("1_000", 1000),
        ("1:30", "1:30"),  # text, not sexagesimal 90
        ("1e3", 1000.0),
        ("4.5", 4.5),
        (".inf", float("inf")),
        ("~", None),
        ("null", None),
        ("2027-01-01", "2027-01-01"),  # dates stay text: the models parse them
        ("2027-13-01", "2027-13-01"),
    ],
)
def test_core_schema_scalars(text: str, value: Any) -> None:
    """The rule: 'only true and false are booleans; integers are decimal, 0o or 0x; a
    timestamp is text' (core schema), the same from both parsers."""
    doc = f"v: {text}\n"
    assert load_with_lines(doc)[0] == {"v": value}
    assert fast_load(doc) == {"v": value}


_KEYS = st.text(alphabet="abcdefghij-_", min_size=1, max_size=6)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**9), 10**9)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.text(max_size=10)
)
_DOCS = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(_KEYS, _DOCS, min_size=1, max_size=5), st.booleans())
def test_both_parsers_read_any_document_alike(doc: dict[str, Any], flow: bool) -> None:
    """Property: 'the fast path and the careful path give the same data for any document',
    so an error's reparse never reads a file differently from the plan that used it."""
    text = yaml.safe_dump(doc, default_flow_style=flow, allow_unicode=True)
    careful = load_with_lines(text)[0]
    fast = fast_load(text)
    assert fast is not _MISS
    assert fast == careful


def test_every_key_and_item_has_its_line() -> None:
    data, lines = load_with_lines("a: 1\nb:\n  - x\n  - {c: 2}\n")
    assert data == {"a": 1, "b": ["x", {"c": 2}]}
    assert lines[("a",)] == 1 and lines[("b", 0)] == 3 and lines[("b", 1, "c")] == 4


def test_one_yaml_library_among_the_dependencies() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["dependencies"]
    yaml_libs = [d for d in deps if "yaml" in d.lower()]
    assert yaml_libs == ["PyYAML>=6"]
