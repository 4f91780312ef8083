"""YAML loading that remembers where each value came from (line numbers for errors)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from gputeam.errors import InputError, Problem
from gputeam.i18n import N_, Nn_

Path = tuple[str | int, ...]


def load_with_lines(text: str, file: str | None = None) -> tuple[Any, dict[Path, int]]:
    """Parse YAML text; return plain data and a map from field path to 1-based line."""
    import yaml

    try:
        loader = _careful_loader()(text)  # the reader refuses non-printable characters
        try:
            node = loader.get_single_node()
            lines: dict[Path, int] = {}
            walker = _Nodes(loader, lines)
            data = walker.convert(node, ()) if node is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        raise InputError([syntax_problem(exc, file)]) from None
    except Exception as exc:  # the reader's unmarked errors (a non-printable character ...)
        raise InputError(
            [Problem(path="", message=N_("not valid YAML"), file=file, detail=str(exc))]
        ) from None
    if walker.expanded > MAX_VALUES:
        raise InputError(
            [
                Problem(
                    path="",
                    file=file,
                    message=N_("too large once its aliases are expanded"),
                    found=f"more than {MAX_VALUES:,} values",
                    expected="a document without alias bombs",
                )
            ]
        )
    return data, lines


#: YAML 1.2's core schema (YAML 1.2.2 §10.3.2) as PyYAML implicit resolvers: only
#: true/false are booleans (``country: NO`` is Norway, not false), ``010`` is ten, ``1:30``
#: is text, and timestamps stay text (the models parse dates, so a bad date is reported
#: with its field path and line). Underscores in numbers (``1_000``) are allowed as YAML
#: 1.1 allowed them. Merge keys (``<<``) work.
_CORE_RESOLVERS = (
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9][0-9_]*|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+0123456789.",
    ),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:merge", r"^(?:<<)$", "<"),
)


def _core_int(loader: Any, node: Any) -> int:
    """An integer of the core schema: decimal (``010`` is ten), ``0o`` octal, ``0x`` hex."""
    text = str(loader.construct_scalar(node)).replace("_", "")
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    if digits.startswith("0o"):
        return sign * int(digits[2:], 8)
    if digits.startswith("0x"):
        return sign * int(digits[2:], 16)
    return sign * int(digits, 10)


def _core(base: Any) -> Any:
    """``base`` (a PyYAML safe loader class) with the core schema's resolvers, timestamps
    as text and duplicate keys refused."""
    import re as _re

    import yaml

    class Loader(base):  # type: ignore[misc]
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            keys = [k.value for k, _ in node.value if k.tag != "tag:yaml.org,2002:merge"]
            if len(keys) != len(set(keys)):
                raise yaml.YAMLError("duplicate key")
            return super().construct_mapping(node, deep=deep)

    Loader.yaml_implicit_resolvers = {}
    for tag, regexp, first in _CORE_RESOLVERS:
        Loader.add_implicit_resolver(tag, _re.compile(regexp), list(first))
    Loader.add_constructor("tag:yaml.org,2002:int", _core_int)
    Loader.add_constructor("tag:yaml.org,2002:timestamp", lambda loader, node: loader.construct_scalar(node))
    return Loader


_LOADERS: dict[str, Any] = {}


def _careful_loader() -> Any:
    """The loader whose nodes keep their marks: PyYAML's own parser, whose messages say
    what it expected and found (libyaml's do not)."""
    if "careful" not in _LOADERS:
        import yaml

        _LOADERS["careful"] = _core(yaml.SafeLoader)
    return _LOADERS["careful"]


class _Nodes:
    """Convert a composed YAML node graph to builtins, recording each key's and item's line.

    An alias is the same node as its anchor and converts to the same object (no copy);
    ``expanded`` counts the values the document would hold with every alias expanded, so a
    tiny file that expands to millions of values is refused before anything walks it. A
    key given twice in a mapping is a syntax error at the second one.
    """

    def __init__(self, loader: Any, lines: dict[Path, int]) -> None:
        self.loader = loader
        self.lines = lines
        self.seen: dict[int, tuple[Any, int]] = {}
        self.expanded = 0

    def convert(self, node: Any, path: Path) -> Any:
        import yaml

        collection = isinstance(node, yaml.MappingNode | yaml.SequenceNode)
        if collection and id(node) in self.seen:
            value, size = self.seen[id(node)]
            self.expanded += size
            return value
        before = self.expanded
        if self.expanded > MAX_VALUES:
            return None
        out = self._convert(node, path)
        if collection:
            self.seen[id(node)] = (out, self.expanded - before)
        return out

    def _convert(self, node: Any, path: Path) -> Any:
        import yaml

        self.expanded += 1
        if isinstance(node, yaml.MappingNode):
            self.loader.flatten_mapping(node)
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                key = self.loader.construct_object(key_node, deep=True)
                if isinstance(key, list | dict):
                    raise yaml.constructor.ConstructorError(
                        "while constructing a mapping",
                        node.start_mark,
                        "found an unhashable key",
                        key_node.start_mark,
                    )
                name = str(key) if not isinstance(key, int) else key
                if name in out:
                    raise yaml.constructor.ConstructorError(
                        "while constructing a mapping",
                        node.start_mark,
                        f'found duplicate key "{key}"',
                        key_node.start_mark,
                    )
                child = (*path, str(key))
                self.lines[child] = key_node.start_mark.line + 1
                out[name] = self.convert(value_node, child)
            return out
        if isinstance(node, yaml.SequenceNode):
            items = []
            for i, value_node in enumerate(node.value):
                child = (*path, i)
                self.lines[child] = value_node.start_mark.line + 1
                items.append(self.convert(value_node, child))
            return items
        return self.loader.construct_object(node, deep=True)


#: What a YAML parser's own (English) sentence means, in gputeam's translated words: the
#: sentence's start, and the advice shown with "not valid YAML".
_SYNTAX_ADVICE = (
    (
        "mapping values are not allowed",
        N_("indent each key as the others of its mapping, or quote a value with ': '"),
    ),
    ("found character '\\t'", N_("indent with spaces, not tabs")),
    ("found a tab character", N_("indent with spaces, not tabs")),
    ("found unexpected end of stream", N_("close every quote and bracket")),
    ("found undefined alias", N_("define an anchor (&name) before its alias (*name)")),
    ("found duplicate key", N_("give each key once in its mapping")),
    ("could not find expected ':'", N_("write each key as 'key: value'")),
)
_EXPECTED = re.compile(r"expected (?P<expected>.+?), but (?:found|got) (?P<found>.+)", re.DOTALL)


def syntax_problem(exc: Any, file: str | None) -> Problem:
    """A YAML syntax error as a problem in gputeam's words (translated where shown): the
    file, line and column; what the parser expected and found, when it says so; advice
    for the common mistakes; and the parser's own sentence, which stays in English, as
    the problem's ``detail``."""
    mark = exc.problem_mark or exc.context_mark
    said = "; ".join(str(part) for part in (exc.context, exc.problem) if part)
    problem = str(exc.problem or exc.context or "")
    expected = found = hint = None
    if m := _EXPECTED.search(problem):
        expected, found = m["expected"], m["found"]
    for start, advice in _SYNTAX_ADVICE:
        if problem.startswith(start):
            hint = advice
    return Problem(
        path="",
        message=N_("not valid YAML"),
        file=file,
        line=mark.line + 1 if mark else None,
        column=mark.column + 1 if mark else None,
        found=found,
        expected=expected,
        hint=hint,
        detail=said or None,
    )


#: Values a document may hold once YAML aliases are expanded ('billion laughs' guard).
MAX_VALUES = 2_000_000


class _Plain:
    """Count the values of parsed builtins with every alias expanded (an alias is the same
    object as its anchor), the fast path's 'billion laughs' guard."""

    def __init__(self) -> None:
        self.seen: set[int] = set()
        self.sizes: dict[int, int] = {}
        self.expanded = 0

    def count(self, value: Any) -> int:
        if isinstance(value, dict | list) and id(value) in self.sizes:
            self.expanded += self.sizes[id(value)]
            return self.sizes[id(value)]
        before = self.expanded
        self.expanded += 1
        if self.expanded <= MAX_VALUES:
            if isinstance(value, dict):
                for item in value.values():
                    self.count(item)
            elif isinstance(value, list):
                for item in value:
                    self.count(item)
        if isinstance(value, dict | list):
            self.sizes[id(value)] = self.expanded - before
        return self.expanded - before


_MISS = object()


def _fast_loader() -> Any:
    """libyaml's C loader with the core schema (see :data:`_CORE_RESOLVERS`), or None where
    libyaml is not available."""
    if "fast" not in _LOADERS:
        import yaml

        base = getattr(yaml, "CSafeLoader", None)
        _LOADERS["fast"] = _core(base) if base is not None else None
    return _LOADERS["fast"]


def fast_load(text: str) -> Any:
    """Parse with libyaml (no line numbers); ``_MISS`` when the text needs the careful
    parser: a syntax error, a duplicate key, an alias bomb, or no libyaml."""
    import yaml

    loader = _fast_loader()
    if loader is None:
        return _MISS
    try:
        data = yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader
    except Exception:
        return _MISS
    walker = _Plain()
    walker.count(data)
    return _MISS if walker.expanded > MAX_VALUES else data


T = TypeVar("T")


def parse_yaml(text: str, file: str | None, build: Callable[[Any, Mapping[Path, int]], T]) -> T:
    """``build(data, lines)`` on the parsed text. The fast C parser goes first; if it fails,
    or ``build`` finds a problem, the text is parsed again with line numbers so that every
    error says where it is."""
    data = fast_load(text)
    if data is not _MISS:
        try:
            return build(data, {})
        except InputError:
            pass
    data, lines = load_with_lines(text, file)
    return build(data, lines)


def line_for(path: Sequence[str | int], lines: Mapping[Path, int]) -> int | None:
    """The line of the longest prefix of ``path`` that has one."""
    p = tuple(path)
    while p:
        if p in lines:
            return lines[p]
        p = p[:-1]
    return None


def one_per_fault(errors: Sequence[Any]) -> list[Any]:
    """pydantic's errors, one per fault: a list whose every item failed also reports itself
    as too short ("at least 1 item after validation, not 0"); its items' errors say it
    already (for scenario files and the API's request bodies alike)."""
    locs = [tuple(map(str, e["loc"])) for e in errors]
    out = []
    for err in errors:
        here = tuple(map(str, err["loc"]))
        if err["type"] == "too_short" and any(len(o) > len(here) and o[: len(here)] == here for o in locs):
            continue
        out.append(err)
    return out


def problems_from_validation(
    exc: Any, lines: Mapping[Path, int], file: str | None, known_fields: Sequence[str] = ()
) -> list[Problem]:
    """Turn a pydantic ValidationError into Problems with lines and hints."""
    import difflib

    from gputeam.errors import FieldConflicts

    problems = []
    for err in one_per_fault(exc.errors(include_url=False)):
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, FieldConflicts):
            base = tuple(err["loc"])
            for sub, message, found in cause.conflicts:
                full = (*base, *sub)
                problems.append(
                    Problem(
                        path=_dotted(full),
                        message=message,
                        found=found,
                        file=file,
                        line=line_for(full, lines),
                    )
                )
            continue
        loc = tuple(x for x in err["loc"] if not (isinstance(x, str) and x.startswith("function-")))
        loc = tuple(x for x in loc if x not in {"tagged-union", "lax-or-strict", "json-or-python"})
        path = _dotted(loc)
        found = None if err["type"] == "missing" else _short(err.get("input"))
        hint = None
        message = pydantic_message(err)
        expected = None
        if err["type"] == "extra_forbidden":
            found = None
            close = difflib.get_close_matches(str(loc[-1]), known_fields, n=1, cutoff=0.6)
            if close:
                hint = N_("did you mean {name}?").format(name=repr(close[0]))
        elif err["type"] != "missing":
            expected = _expected(err)
        problems.append(
            Problem(
                path=path,
                message=message,
                found=found,
                expected=expected,
                file=file,
                line=line_for(loc, lines),
                hint=hint,
            )
        )
    return problems


def _dotted(loc: Sequence[str | int]) -> str:
    return ".".join(f"[{x}]" if isinstance(x, int) else str(x) for x in loc).replace(".[", "[")


#: pydantic's messages by error type, as English templates of the error's context values
#: (a singular/plural pair when a number is in it); other types keep pydantic's message.
PYDANTIC_MESSAGES: dict[str, str | tuple[str, str]] = {
    "missing": N_("required field is missing"),
    "extra_forbidden": N_("unknown field"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_type": N_("Input should be a valid integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "float_type": N_("Input should be a valid number"),
    "greater_than_equal": N_("Input should be greater than or equal to {limit}"),
    "greater_than": N_("Input should be greater than {limit}"),
    "less_than_equal": N_("Input should be less than or equal to {limit}"),
    "less_than": N_("Input should be less than {limit}"),
    "string_too_long": Nn_(
        "String should have at most {n} character", "String should have at most {n} characters"
    ),
    "string_too_short": Nn_(
        "String should have at least {n} character", "String should have at least {n} characters"
    ),
    "too_long": Nn_("should have at most {n} item", "should have at most {n} items"),
    "too_short": Nn_("should have at least {n} item", "should have at least {n} items"),
    "literal_error": N_("Input should be {expected}"),
    "enum": N_("Input should be {expected}"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "bool_type": N_("Input should be a valid boolean"),
    "date_parsing": N_("Input should be a valid date in the format YYYY-MM-DD"),
    "date_type": N_("Input should be a valid date"),
    "date_from_datetime_parsing": N_("Input should be a valid date or datetime"),
    "date_from_datetime_inexact": N_("Datetimes provided to dates should have zero time"),
    "list_type": N_("Input should be a valid list"),
    "tuple_type": N_("Input should be a valid list"),
    "set_type": N_("Input should be a valid list"),
    "dict_type": N_("Input should be a valid mapping"),
    "model_type": N_("Input should be a valid mapping"),
    "model_attributes_type": N_("Input should be a valid mapping"),
    "string_type": N_("Input should be a valid string"),
    "string_pattern_mismatch": N_("String should match pattern {pattern}"),
}
_LIMITS = ("ge", "gt", "le", "lt")
_LENGTHS = ("max_length", "min_length")


def pydantic_message(err: Any) -> str:
    """A pydantic error's message in English, written from :data:`PYDANTIC_MESSAGES` (so
    it is translated where it is shown); a validator's own ValueError says its message."""
    ctx = err.get("ctx") or {}
    kind = err["type"]
    if kind in ("value_error", "assertion_error") and "error" in ctx:
        return str(ctx["error"])
    form = PYDANTIC_MESSAGES.get(kind)
    if form is None:
        return str(err["msg"])
    values = {k: _ctx_text(v) for k, v in ctx.items()}
    for key in _LIMITS:
        if key in ctx:
            values["limit"] = _ctx_text(ctx[key])
    if isinstance(form, tuple):
        n = next((ctx[k] for k in _LENGTHS if k in ctx), 0)
        values["n"] = str(n)
        form = form[0] if n == 1 else form[1]
    try:
        return form.format(**values)
    except (KeyError, IndexError):  # a context pydantic no longer gives
        return str(err["msg"])


def _ctx_text(value: Any) -> str:
    """A context value as pydantic writes it in its messages (1e12 as 1000000000000)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return str(value)


def _expected(err: Any) -> str | None:
    ctx = err.get("ctx") or {}
    if "expected" in ctx:
        return str(ctx["expected"])
    for key, word in (("ge", N_("a number >= {limit}")), ("gt", N_("a number > {limit}"))):
        if key in ctx:
            return word.format(limit=ctx[key])
    for key, word in (("le", N_("a number <= {limit}")), ("lt", N_("a number < {limit}"))):
        if key in ctx:
            return word.format(limit=ctx[key])
    kind = err["type"]
    if "min_length" in ctx or "max_length" in ctx:
        at_least = "min_length" in ctx
        n = ctx["min_length" if at_least else "max_length"]
        if kind.startswith("string"):
            forms = (
                Nn_("at least {n} character", "at least {n} characters")
                if at_least
                else Nn_("at most {n} character", "at most {n} characters")
            )
        else:
            forms = (
                Nn_("at least {n} item", "at least {n} items")
                if at_least
                else Nn_("at most {n} item", "at most {n} items")
            )
        return (forms[0] if n == 1 else forms[1]).format(n=n)
    names = {
        "int_parsing": N_("a whole number"),
        "int_type": N_("a whole number"),
        "int_from_float": N_("a whole number"),
        "date_from_datetime_inexact": N_("a date YYYY-MM-DD"),
        "float_parsing": N_("a number"),
        "float_type": N_("a number"),
        "bool_parsing": N_("true or false"),
        "bool_type": N_("true or false"),
        "date_from_datetime_parsing": N_("a date YYYY-MM-DD"),
        "date_parsing": N_("a date YYYY-MM-DD"),
        "date_type": N_("a date YYYY-MM-DD"),
        "string_type": N_("text"),
        "dict_type": N_("a mapping"),
        "list_type": N_("a list"),
        "model_type": N_("a mapping"),
        "tuple_type": N_("a list"),
    }
    return names.get(kind)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
