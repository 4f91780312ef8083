"""The web layer is a thin front door (issue 9 §4): it calls the store's public API (the
``gputeam.store`` package, none of its modules) and never builds SQL of its own, reads the
store's schema or imports the command line."""

from __future__ import annotations

import ast
from pathlib import Path

import gputeam.web

WEB = Path(gputeam.web.__file__).parent
FORBIDDEN = ("gputeam.store.schema", "sqlalchemy", "gputeam.cli")
#: the store's schema modules (``schema``, ``schema_exams`` ...) are private to it
SCHEMA_PREFIX = "gputeam.store.schema"


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports (at any depth, lazily or not), with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
            # ``from gputeam.store import schema`` names the module too
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level:
            found.append((node.lineno, "(relative) " + (node.module or "")))
    return found


def _is_module(name: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _forbidden(name: str) -> bool:
    """A forbidden import: the schema, SQLAlchemy, the command line, or any module of the
    store but its package (``from gputeam.store import find_person`` is its public API;
    ``gputeam.store.person_rules`` is not)."""
    if name.startswith(("(relative)", SCHEMA_PREFIX)) or any(
        name == f or name.startswith(f + ".") for f in FORBIDDEN
    ):
        return True
    return name.startswith("gputeam.store.") and _is_module(name)


def test_the_web_package_imports_neither_schema_nor_sql_nor_the_cli() -> None:
    files = sorted(WEB.rglob("*.py"))
    assert len(files) > 10
    bad = [
        f"{p.relative_to(WEB.parent)}:{line}: {name}"
        for p in files
        for line, name in _imports(p)
        if _forbidden(name)
    ]
    assert bad == []


def test_the_walk_finds_each_kind_of_forbidden_import(tmp_path: Path) -> None:
    """The check itself can fail: lazy, aliased and from-imports are all found."""
    src = tmp_path / "x.py"
    src.write_text(
        "import sqlalchemy as sa\n"
        "def f():\n    from gputeam.store import schema\n"
        "    from gputeam.cli.common import read_catalog_extra\n"
        "from sqlalchemy.orm import Session\n"
        "from gputeam.store.schema_exams import ExamAttempt\n"
        "from gputeam.store.person_rules import NUMBER_RULES\n"
        "from gputeam.store import audit\n"
        "from gputeam.store import find_person\n"
    )
    assert sorted(name for _, name in _imports(src) if _forbidden(name)) == [
        "gputeam.cli.common",
        "gputeam.cli.common.read_catalog_extra",
        "gputeam.store.audit",
        "gputeam.store.person_rules",
        "gputeam.store.schema",
        "gputeam.store.schema_exams",
        "gputeam.store.schema_exams.ExamAttempt",
        "sqlalchemy",
        "sqlalchemy.orm",
        "sqlalchemy.orm.Session",
    ]


def test_the_web_package_looks_nothing_up_in_a_session_itself() -> None:
    """Lookups by id (``s.get(Model, id)``), queries and statements are the store's: the
    web calls a repository (``store.find_plan``, ``store.record_person`` ...) instead."""
    bad = []
    for path in sorted(WEB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("get", "query", "execute", "scalar", "scalars")
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in ("s", "session", "db_session")
            ):
                bad.append(
                    f"{path.relative_to(WEB.parent)}:{node.lineno}: "
                    f"{node.func.value.id}.{node.func.attr}(...)"
                )
    assert bad == []


def test_no_async_endpoint_does_database_work_on_the_event_loop() -> None:
    """An ``async def`` in the web layer that opens a database session would run it on
    the event loop: a SQLite writer waiting for the lock (or any slow query) would hold up
    every other request of the process. Such work goes in plain functions (FastAPI runs
    them in its thread pool; a form is read by the ``PostedForm`` dependency) or through
    ``run_in_threadpool``."""
    import ast
    from pathlib import Path

    import gputeam.web

    root = Path(gputeam.web.__file__).parent
    offenders = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.AsyncFunctionDef):
                body = ast.get_source_segment(text, node) or ""
                if (".session(" in body or "read_session(" in body) and "run_in_threadpool" not in body:
                    offenders.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    assert offenders == []
