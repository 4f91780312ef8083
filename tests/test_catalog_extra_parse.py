"""A --catalog-extra file is parsed by the catalog (issue 9 §4): a pure function of the
text; the command line and the web server read the file (the I/O stays at the edge)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gputeam.catalog import load_catalog, parse_catalog_extra
from gputeam.errors import CatalogError, read_text_file


def test_sections_are_parsed_from_text() -> None:
    extra = parse_catalog_extra("roles:\n  - id: fabric-lead\n    name: Fabric lead\n", "extra.yaml")
    assert extra == {"roles": [{"id": "fabric-lead", "name": "Fabric lead"}]}
    assert parse_catalog_extra("", "empty.yaml") == {}


def test_not_a_mapping_names_the_file() -> None:
    with pytest.raises(CatalogError) as err:
        parse_catalog_extra("- a\n- b\n", "list.yaml")
    [problem] = err.value.problems
    assert problem.file == "list.yaml" and problem.found == "list"
    assert "mapping of catalog sections" in problem.message


def test_an_unreadable_file_is_an_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(CatalogError) as err:
        read_text_file(str(missing), CatalogError)
    assert err.value.problems[0].file == str(missing)
    assert "cannot read" in err.value.problems[0].message
    assert load_catalog(parse_catalog_extra("", None)) is load_catalog()
