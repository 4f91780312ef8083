"""Field overrides: change one scenario field from outside the file (``--set PATH=VALUE``).

A path is dotted, with list items by index (``fleet.gpus[1].count``, ``people.0.salary``,
negative indices count from the end) or, in a list of people, by id (``people[fin-02].level``).
The value is read as a YAML scalar (``9``, ``2e6``, ``true``, ``null``, ``2027-03-01``, or a
flow list such as ``[bootcamp, vendor]``). ``fleet.gpus=N`` is shorthand for
``fleet.gpus[-1].count=N``: the fleet's final count, earlier steps kept.

Paths are checked against the scenario models before anything is changed, so an unknown
field is named with the fields valid at that level; the value itself is then validated with
the rest of the scenario, exactly as if it had been written in the file.
"""

from __future__ import annotations

import contextlib
import copy
import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from gputeam.errors import Problem, ScenarioError
from gputeam.i18n import N_
from gputeam.scenario.models import Scenario

Key = str | int

_TOKEN = re.compile(r"\[([^\]]*)\]|([^.\[\]]+)")


@dataclass(frozen=True)
class FieldSet:
    """One override: the field's path and the value to put there (``text`` as given)."""

    path: tuple[Key, ...]
    value: Any
    text: str

    @property
    def dotted(self) -> str:
        return dotted(self.path)


def dotted(path: Sequence[Key]) -> str:
    """``('fleet', 'gpus', 1, 'count')`` as ``fleet.gpus[1].count``."""
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


def _fail(
    text: str,
    path: str,
    message: str,
    found: str | None = None,
    expected: str | None = None,
    option: str = "--set",
) -> ScenarioError:
    return ScenarioError(
        [Problem(path=path, message=message, found=found, expected=expected, file=f"{option} {text}")]
    )


def parse_path(text: str, raw: str | None = None) -> tuple[Key, ...]:
    """A dotted path's keys; list indices as ints, other keys as text."""
    where = raw if raw is not None else text
    keys: list[Key] = []
    pos = 0
    while pos < len(text):
        if text[pos] == "." and keys:
            pos += 1
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise _fail(
                where,
                text,
                N_("not a field path"),
                found=repr(text),
                expected=N_("dotted names with [index] for list items, e.g. fleet.gpus[1].count"),
            )
        token = m.group(1) if m.group(1) is not None else m.group(2)
        token = token.strip()
        if not token:
            raise _fail(where, text, N_("empty name in the field path"), found=repr(text))
        keys.append(int(token) if re.fullmatch(r"-?\d+", token) else token)
        pos = m.end()
    if not keys:
        raise _fail(
            where,
            "",
            N_("no field path before '='"),
            found=repr(where),
            expected=N_("PATH=VALUE, e.g. constraints.deadline_month=9"),
        )
    return tuple(keys)


def parse_value(text: str) -> Any:
    """The value as YAML reads it (dates kept as text, as in scenario files); text that is
    not valid YAML is taken as it is."""
    from gputeam._yaml import _MISS, fast_load

    if not text.strip():
        return None
    value = fast_load(text)
    return text if value is _MISS else value


def parse_set(text: str) -> FieldSet:
    """``PATH=VALUE`` as a :class:`FieldSet` (the path not yet checked against the models)."""
    name, sep, value = text.partition("=")
    if not sep:
        raise _fail(
            text,
            name.strip(),
            N_("no '=' in the override"),
            found=repr(text),
            expected=N_("PATH=VALUE, e.g. constraints.deadline_month=9"),
        )
    path = parse_path(name.strip(), text)
    parsed = parse_value(value)
    if path == ("fleet", "gpus") and isinstance(parsed, int | float) and not isinstance(parsed, bool):
        path = ("fleet", "gpus", -1, "count")
    return FieldSet(path, parsed, text)


# ---------------------------------------------------------------- the models' shape
def _unwrap(annotation: Any) -> Any:
    """``X | None`` as ``X``."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return _unwrap(args[0])
    return annotation


def _child(shape: Any, key: Key) -> tuple[str, Any]:
    """('model'|'list'|'dict'|'value', the child's annotation) for ``key`` under ``shape``."""
    shape = _unwrap(shape)
    if isinstance(shape, type) and issubclass(shape, BaseModel):
        return "model", shape.model_fields[str(key)].annotation
    origin, args = typing.get_origin(shape), typing.get_args(shape)
    if origin in (tuple, list):
        return "list", args[0]
    if origin in (dict, Mapping):
        return "dict", args[1] if len(args) == 2 else Any
    return "value", Any


def _kind(shape: Any) -> str:
    shape = _unwrap(shape)
    if isinstance(shape, type) and issubclass(shape, BaseModel):
        return "model"
    origin = typing.get_origin(shape)
    if origin in (tuple, list):
        return "list"
    if origin in (dict, Mapping):
        return "dict"
    return "value"


# ---------------------------------------------------------------- applying
def apply_sets(
    data: Mapping[str, Any], sets: Sequence[FieldSet]
) -> tuple[dict[str, Any], tuple[FieldSet, ...]]:
    """A copy of the scenario ``data`` with each override applied in order, and the
    overrides with their paths resolved (list items by their index from 0). A path the
    models do not have, an index out of range or an id nobody has is a ScenarioError that
    names the path and what is valid there; the values are validated later, with the
    rest of the scenario."""
    out: dict[str, Any] = copy.deepcopy(dict(data))
    return out, tuple(_apply(out, fs) for fs in sets)


def _apply(root: dict[str, Any], fs: FieldSet) -> FieldSet:
    node: Any = root
    shape: Any = Scenario
    resolved: list[Key] = []
    for depth, key in enumerate(fs.path):
        here = dotted(fs.path[: depth + 1])
        parent = dotted(fs.path[:depth]) or "(top level)"
        kind = _kind(shape)
        last = depth == len(fs.path) - 1
        if kind == "model":
            fields = _unwrap(shape).model_fields
            if not isinstance(key, str) or key not in fields:
                raise _fail(
                    fs.text,
                    here,
                    N_("unknown field"),
                    expected=N_("one of the fields of {parent}: {fields}").format(
                        parent=parent, fields=", ".join(fields)
                    ),
                )
            if not isinstance(node, dict):
                raise _fail(
                    fs.text, parent, N_("is not a mapping in the scenario"), found=type(node).__name__
                )
            shape = fields[key].annotation
        elif kind == "dict":
            if not isinstance(node, dict):
                raise _fail(
                    fs.text, parent, N_("is not a mapping in the scenario"), found=type(node).__name__
                )
            shape = _child(shape, key)[1]
            key = str(key)
        elif kind == "list":
            if not isinstance(node, list):
                raise _fail(
                    fs.text,
                    parent,
                    N_("has no items to index"),
                    found=N_("nothing") if node is None else type(node).__name__,
                )
            key = _index(node, key, fs.text, f"{dotted(fs.path[:depth])}[{key}]", parent)
            shape = _child(shape, 0)[1]
        else:
            raise _fail(
                fs.text,
                here,
                N_("{parent} is a single value, it has no fields").format(parent=parent),
                expected=f"--set {parent}=VALUE",
            )
        resolved.append(key)
        holder: Any = node  # a dict keyed by text or a list indexed by int, as checked above
        if last:
            holder[key] = fs.value
            return FieldSet(tuple(resolved), fs.value, fs.text)
        child = holder.get(key) if isinstance(holder, dict) else holder[key]
        if child is None:
            child = {} if _kind(shape) in ("model", "dict") else child
            holder[key] = child
        node = child
    raise AssertionError("unreachable: a path has at least one key")  # pragma: no cover


def _index(items: list[Any], key: Key, text: str, here: str, parent: str) -> int:
    n = len(items)
    if isinstance(key, int):
        if -n <= key < n:
            return key % n
        raise _fail(
            text,
            here,
            N_("no such item"),
            found=N_("index {index}").format(index=key),
            expected=N_("an index from 0 to {last} (or -1 for the last)").format(last=n - 1)
            if n
            else N_("{parent} is empty").format(parent=parent),
        )
    ids = [str(item.get("id")) for item in items if isinstance(item, dict) and "id" in item]
    for i, item in enumerate(items):
        if isinstance(item, dict) and str(item.get("id")) == key:
            return i
    raise _fail(
        text,
        here,
        N_("no item with that id"),
        found=repr(key),
        expected=N_("an index or one of the ids: {ids}").format(ids=", ".join(ids))
        if ids
        else N_("an index from 0"),
    )


def blame_sets(problems: Sequence[Problem], sets: Sequence[FieldSet]) -> list[Problem]:
    """Problems about an overridden field (or inside it) point at its ``--set``, not at a
    line of the file."""
    if not sets:
        return list(problems)
    out = []
    for p in problems:
        owner = None
        for fs in sets:
            mine = fs.dotted
            if p.path == mine or p.path.startswith((mine + ".", mine + "[")):
                owner = fs
        if owner is None:
            out.append(p)
        else:
            out.append(
                Problem(
                    path=p.path,
                    message=p.message,
                    found=p.found,
                    expected=p.expected,
                    file=f"--set {owner.text}",
                    line=None,
                    hint=p.hint,
                )
            )
    return out


# ---------------------------------------------------------------- sweeps
@dataclass(frozen=True)
class Axis:
    """One varied field of a sweep: its path and the values it takes (``texts`` as they
    are given to ``--set``)."""

    path: str
    values: tuple[Any, ...]
    texts: tuple[str, ...]


_RANGE = re.compile(r"^\s*([^.:]*?(?:\.\d*)?(?:[eE][-+]?\d+)?)\s*\.\.\s*(.+?)\s*:\s*(\S+)\s*$")


def check_path(fs: FieldSet) -> Any:
    """Refuse a path the scenario models do not have, before any scenario is read (as
    :func:`apply_sets` would, without needing the data); the field's type."""
    shape: Any = Scenario
    for depth, key in enumerate(fs.path):
        here, parent = dotted(fs.path[: depth + 1]), dotted(fs.path[:depth]) or N_("(top level)")
        kind = _kind(shape)
        if kind == "model":
            fields = _unwrap(shape).model_fields
            if not isinstance(key, str) or key not in fields:
                raise _fail(
                    fs.text,
                    here,
                    N_("unknown field"),
                    expected=N_("one of the fields of {parent}: {fields}").format(
                        parent=parent, fields=", ".join(fields)
                    ),
                )
            shape = fields[key].annotation
        elif kind in ("dict", "list"):
            shape = _child(shape, key)[1]
        else:
            raise _fail(
                fs.text,
                here,
                N_("{parent} is a single value, it has no fields").format(parent=parent),
                expected=f"{parent}=VALUE",
            )
    return _unwrap(shape)


def _number(text: str, where: str, path: str) -> int | float:
    value = parse_value(text)
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = float(value)  # YAML reads 2e6 as text
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _fail(
            where,
            path,
            N_("a range needs numbers at both ends"),
            found=repr(text),
            expected=N_("A..B:N, e.g. 500..4000:8"),
            option="--vary",
        )
    return value


def parse_vary(text: str) -> Axis:
    """``PATH=A..B:N`` (N evenly spaced values from A to B; rounded to whole numbers, repeats
    dropped, for a whole-number field) or ``PATH=V1,V2,...`` (each read as YAML)."""
    name, sep, spec = text.partition("=")
    if not sep or not spec.strip():
        raise _fail(
            text,
            name.strip(),
            N_("no values to vary over"),
            found=repr(text),
            expected=N_("PATH=A..B:N or PATH=V1,V2,..., e.g. fleet.gpus=500..4000:8"),
            option="--vary",
        )
    path = name.strip()
    if ".." in spec:
        m = _RANGE.match(spec)
        if m is None:
            raise _fail(
                text,
                path,
                N_("not a range"),
                found=repr(spec),
                expected=N_("A..B:N, e.g. 500..4000:8"),
                option="--vary",
            )
        low, high = _number(m.group(1), text, path), _number(m.group(2), text, path)
        n = parse_value(m.group(3))
        if isinstance(n, bool) or not isinstance(n, int) or n < 1 or (n < 2 and low != high):
            raise _fail(
                text,
                path,
                N_("the number of values must be a whole number of at least 2"),
                found=repr(m.group(3)),
                expected=N_("A..B:N, e.g. 500..4000:8"),
                option="--vary",
            )
        raw = [round(low + (high - low) * i / max(n - 1, 1), 10) for i in range(n)]
        whole = _field_type(path, text) is int or all(float(v).is_integer() for v in raw)
        values: list[Any] = list(dict.fromkeys(round(v) for v in raw)) if whole else raw
        texts = [str(v) for v in values]
    else:
        texts = [t.strip() for t in spec.split(",")]
        if any(not t for t in texts):
            raise _fail(
                text,
                path,
                N_("an empty value in the list"),
                found=repr(spec),
                expected=N_("V1,V2,... with no empty items"),
                option="--vary",
            )
        values = [parse_value(t) for t in texts]
    _field_type(path, text, texts[0])
    return Axis(path, tuple(values), tuple(texts))


def _field_type(path: str, text: str, value: str = "0") -> Any:
    """The type of the field ``path`` names (checked as :func:`check_path` does)."""
    try:
        return check_path(parse_set(f"{path}={value}"))
    except ScenarioError as exc:
        raise ScenarioError(
            [
                Problem(
                    path=p.path, message=p.message, found=p.found, expected=p.expected, file=f"--vary {text}"
                )
                for p in exc.problems
            ]
        ) from None


def grid(axes: Sequence[Axis], max_points: int) -> list[tuple[str, ...]]:
    """Every combination of the axes' values (as ``--set`` texts), the first axis slowest."""
    import itertools
    import math

    total = math.prod(len(a.texts) for a in axes)
    if total > max_points:
        sizes = " x ".join(str(len(a.texts)) for a in axes)
        raise _fail(
            " ".join(a.path for a in axes),
            "",
            N_("too many points in the sweep"),
            found=f"{sizes} = {total:,}",
            expected=N_("at most {limit}").format(limit=f"{max_points:,}"),
            option="--vary",
        )
    return list(itertools.product(*(a.texts for a in axes)))
