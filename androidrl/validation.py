"""Shared by the YAML formats (tasks, training configs): reading YAML, and errors that name the key path.

Whatever a YAML file holds, reading it is bounded: its size (:data:`MAX_FILE_BYTES`), how deep it
nests (:data:`MAX_DEPTH`), how much its aliases repeat (:data:`MAX_ALIASED`), how long a number is
(:data:`MAX_NUMBER_CHARS`); and an error, however many keys are wrong, prints at most
:data:`MAX_ERRORS` lines of readable length.
"""

from __future__ import annotations

import collections.abc
import math
import types
import typing
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ValidationError, model_validator

#: A host name or an IP address, as an adb server's or a cluster's host is written (no scheme, port or spaces).
HOST = r"[A-Za-z0-9_.:%\[\]-]{1,255}"
#: How many errors a message lists (200,000 unknown keys print 20 lines, and how many more there are).
MAX_ERRORS = 20
#: How long one line of an error may be.
MAX_LINE = 500


def shorten(value: Any, limit: int = 80) -> str:
    """``repr(value)``, cut to about ``limit`` characters (saying how long it was); never raises.

    A value quoted in an error can be a megabyte of text or an int of 5,000 digits (whose
    ``repr`` raises ``ValueError``); the message stays readable.
    """
    try:
        text = repr(value)
    except ValueError:  # an int longer than Python prints (4,300 digits)
        return f"a number of about {int(value.bit_length() * math.log10(2)):,} digits"
    if len(text) <= limit:
        return text
    return f"{text[: limit - 20]}...{text[-8:]} ({len(text):,} characters)"


def _cap(line: str) -> str:
    return line if len(line) <= MAX_LINE else f"{line[: MAX_LINE - 40]}... ({len(line):,} characters)"


def join_lines(lines: list[str], separator: str = "\n") -> str:
    """At most :data:`MAX_ERRORS` lines of at most :data:`MAX_LINE` characters, then how many more there are."""
    shown = [_cap(line) for line in lines[:MAX_ERRORS]]
    if len(lines) > MAX_ERRORS:
        shown.append(f"... and {len(lines) - MAX_ERRORS:,} more")
    return separator.join(shown)


class NestedErrors(ValueError):
    """Errors of a part validated by hand inside a validator, kept with their own key paths."""

    def __init__(self, items: list[tuple[str, str]]) -> None:
        super().__init__(join_lines([f"{path}: {message}" for path, message in items], "; "))
        self.items = items


def join_path(path: str, part: str) -> str:
    """``a.b`` + ``c`` is ``a.b.c``; ``a`` + ``[2]`` is ``a[2]``."""
    if not part:
        return path
    if not path or part.startswith("["):
        return path + part
    return f"{path}.{part}"


def error_items(err: ValidationError) -> list[tuple[str, str]]:
    """(key path, message) of every error, e.g. ``("reset[2].wait.timeout", "...")``."""
    items = []
    for item in err.errors():
        path = ""
        for part in item["loc"]:
            path = join_path(path, f"[{part}]" if isinstance(part, int) else str(part))
        nested = item.get("ctx", {}).get("error")
        if isinstance(nested, NestedErrors):
            items += [(join_path(path, sub), message) for sub, message in nested.items]
            continue
        message = item["msg"].removeprefix("Value error, ")
        got = item.get("input")
        if item["type"] == "extra_forbidden":
            message = "unknown key"
        elif item["type"] not in ("value_error", "missing") and not isinstance(got, (dict, list)):
            message += f", got {shorten(got)}"
        items.append((path, message))
    return items


def format_errors(err: ValidationError) -> str:
    """Pydantic errors as ``key.path[2].name: message`` lines (at most :data:`MAX_ERRORS`)."""
    return join_lines([f"{path or '(top level)'}: {message}" for path, message in error_items(err)])


# ---------------------------------------------------------------------------- strict scalars


#: A model class -> its fields as (name, alias, annotation).
_FIELDS: dict[type, list[tuple[str, str | None, Any]]] = {}


class StrictScalars(BaseModel):
    """A model whose numbers are never booleans, and whose booleans are only ``true`` or ``false``.

    Pydantic's lax mode reads ``true`` as 1 where an int is wanted (``seed: true`` became seed 1),
    and ``"yes"``, ``"off"`` or 1 as booleans: typos taken silently. Models of the YAML formats
    extend this, so such a value is an error naming its key (lists and mappings of numbers included).
    """

    @model_validator(mode="before")
    @classmethod
    def _strict_scalars(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        errors = []
        fields = _FIELDS.get(cls)
        if fields is None:  # (model_fields is a slow property, and every episode's spec is checked)
            fields = _FIELDS[cls] = [(name, f.alias, f.annotation) for name, f in cls.model_fields.items()]
        for name, alias, annotation in fields:
            key = alias if alias is not None and alias in data else name
            if key in data:
                problems = scalar_problems(annotation, data[key]) or []
                errors += [(join_path(key, sub), message) for sub, message in problems]
        if errors:
            raise NestedErrors(errors)
        return data


#: id(annotation) -> (annotation, its origin, its args): typing's lookups are slow, and the annotations few.
_ANNOTATIONS: dict[int, tuple[Any, Any, tuple]] = {}


def _origin_and_args(annotation: Any) -> tuple[Any, tuple]:
    known = _ANNOTATIONS.get(id(annotation))
    if known is None or known[0] is not annotation:
        known = _ANNOTATIONS[id(annotation)] = (annotation, typing.get_origin(annotation), typing.get_args(annotation))
    return known[1], known[2]


def scalar_problems(annotation: Any, value: Any) -> list[tuple[str, str]] | None:
    """Where ``value`` is a boolean for a number or a non-boolean for a boolean of ``annotation``: (sub-path, message).

    None when ``value`` is not of the annotation's kind at all (pydantic says what is wrong), [] when it is fine.
    """
    if annotation is str and type(value) is str:  # (the commonest case, first: an episode's spec checks many)
        return []
    origin, args = _origin_and_args(annotation)
    if origin is typing.Annotated:
        return scalar_problems(args[0], value)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return []
        results = [scalar_problems(option, value) for option in args if option is not type(None)]
        if any(result == [] for result in results):
            return []
        literals = [a for option in args if typing.get_origin(option) is Literal for a in typing.get_args(option)]
        if bool in args and literals:  # (a flag that also takes words: dump_xml: true, false or "auto")
            words = ", ".join(repr(a) for a in literals)
            return [("", f"expected true, false or {words}, got {shorten(value)}")]
        return next((result for result in results if result), None)
    if annotation is bool:
        return [] if isinstance(value, bool) else [("", f"expected true or false, got {shorten(value)}")]
    if annotation in (int, float):
        if isinstance(value, bool):
            return [("", f"expected a number, got {value}")]
        return [] if isinstance(value, (int, float)) else None
    if annotation is str:
        if isinstance(value, (bytes, bytearray)):
            return [("", "expected text, got bytes (a !!binary value?)")]
        return [] if isinstance(value, str) else None
    if origin is Literal:
        if any(value == a and type(value) is type(a) for a in args):
            return []
        if isinstance(value, bool) and not any(isinstance(a, bool) for a in args):
            return [("", f"expected one of {list(args)}, got {value}")]
        return None
    if origin in (list, tuple, collections.abc.Sequence) and isinstance(value, (list, tuple)):
        if origin is tuple and args and args[-1] is not Ellipsis:
            kinds = list(args)[: len(value)]
        else:
            kinds = [args[0] if args else Any] * len(value)
        return [
            (join_path(f"[{i}]", sub), message)
            for i, (kind, item) in enumerate(zip(kinds, value))
            for sub, message in scalar_problems(kind, item) or []
        ]
    if origin in (dict, collections.abc.Mapping) and isinstance(value, dict) and len(args) == 2:
        return [
            (join_path(str(key), sub), message)
            for key, item in value.items()
            for sub, message in scalar_problems(args[1], item) or []
        ]
    return None


# ---------------------------------------------------------------------------- YAML

#: How deep a YAML document may nest (conditions inside conditions...): deeper is a mistake or an attack.
MAX_DEPTH = 32
#: The largest YAML file read (a config or a task is a few kilobytes).
MAX_FILE_BYTES = 4 * 2**20
#: How many values aliases (``*name``) may add to a document once expanded (a "billion laughs" adds 10^9).
MAX_ALIASED = 100_000
#: The longest number read (Python refuses to read ints of more than 4,300 digits, with a traceback).
MAX_NUMBER_CHARS = 100
#: YAML tags of types no androidrl format holds (their values would reach a setting as bytes or sets).
_REFUSED_TAGS = ("binary", "set", "omap", "pairs")


class _TooDeep(Exception):
    """Raised while composing a YAML document that nests deeper than :data:`MAX_DEPTH`."""

    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


class _StrictLoader(yaml.SafeLoader):
    """YAML's safe loader, except for keys written twice, documents nested too deep and numbers too long.

    A key written twice in one mapping is an error (not "the last wins"). A document nesting
    far deeper than :data:`MAX_DEPTH` stops as soon as it does: PyYAML composes recursively,
    so a few hundred levels would exhaust Python's stack before :func:`check_depth` runs.
    """

    _depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH + 2:  # (a backstop: check_depth draws the exact line on the data)
                raise _TooDeep(self.peek_event().start_mark.line + 1)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":  # (<<: *base, merged by the safe loader)
                continue
            key = self.construct_object(key_node, deep=deep)
            try:
                hash(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, f"a key is text or a number, not a {type(key).__name__}", key_node.start_mark
                ) from None
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} is written twice in one mapping", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        if len(node.value) > MAX_NUMBER_CHARS:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"a number of {len(node.value):,} characters; numbers here have at most {MAX_NUMBER_CHARS}",
                node.start_mark,
            )
        return super().construct_yaml_int(node)

    def construct_refused(self, node: yaml.Node) -> None:
        raise yaml.constructor.ConstructorError(
            None, None, f"{node.tag} values are not read here: write text, numbers, lists and mappings", node.start_mark
        )


_StrictLoader.add_constructor("tag:yaml.org,2002:int", _StrictLoader.construct_yaml_int)
for _tag in _REFUSED_TAGS:
    _StrictLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _StrictLoader.construct_refused)


def read_yaml(path: str | Path, error: type[Exception], what: str) -> Any:
    """The data in a YAML file (a key written twice, or nesting deeper than :data:`MAX_DEPTH`, is an error).

    Raises:
        error: The file cannot be read (naming ``what`` it is), is larger than
            :data:`MAX_FILE_BYTES`, is not UTF-8 text, or is not YAML (with the line).
    """
    path = Path(path)
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)  # (bounded: /dev/zero is a file too)
    except OSError as err:
        raise error(f"{path}: cannot read the {what}: {err.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise error(f"{path}: the {what} is larger than {MAX_FILE_BYTES // 2**20} MB; is it the right file?")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise error(f"{path}: the {what} is not a UTF-8 text file (a binary file?): {err.reason}") from None
    return parse_yaml(text, error, str(path))


def parse_yaml(text: str, error: type[Exception], source: str) -> Any:
    """The data in YAML ``text`` (from ``source``, for messages), read as :func:`read_yaml` reads a file.

    Raises:
        error: The text is not YAML (with the line), writes a key twice, nests deeper than
            :data:`MAX_DEPTH`, has a number longer than :data:`MAX_NUMBER_CHARS`, or aliases
            that expand it by more than :data:`MAX_ALIASED` values.
    """
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 (a SafeLoader)
    except _TooDeep as err:
        raise error(f"{source}: nests more than {MAX_DEPTH} levels deep (at line {err.line})") from None
    except yaml.reader.ReaderError as err:
        line = text[: err.position].count("\n") + 1
        raise error(
            f"{source}: not valid YAML at line {line}: the character U+{err.character:04X} cannot appear in YAML text"
        ) from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise error(f"{source}: not valid YAML{where}: {getattr(err, 'problem', err)}") from None
    check_depth(data, error, source)
    check_expansion(data, error, source)
    return data


def check_depth(data: Any, error: type[Exception], source: str, limit: int = MAX_DEPTH) -> None:
    """Raise ``error`` if mappings and lists in ``data`` nest more than ``limit`` levels deep."""
    level = [(data, "")]
    for _ in range(limit):
        # each container once per level: YAML aliases may repeat one many times (a "billion laughs")
        children = {
            id(child): (child, join_path(path, part)) for item, path in level for part, child in _children(item)
        }
        level = list(children.values())
        if not level:
            return
    deeper = next(((item, path) for item, path in level if _children(item)), None)
    if deeper is not None:
        where = deeper[1] if len(deeper[1]) <= 60 else deeper[1][:60] + "..."
        raise error(f"{source}: nests more than {limit} levels deep (at {where})")


def check_expansion(data: Any, error: type[Exception], source: str, limit: int = MAX_ALIASED) -> None:
    """Raise ``error`` if ``data`` repeats containers (YAML aliases) so much that, expanded, it holds ``limit`` more.

    A "billion laughs" is 400 bytes of YAML that ten aliases of ten aliases... expand to 10^9
    strings: reading it is cheap (each alias is the same object), but validating or writing it out
    expands it. Call after :func:`check_depth` (the count recurses).
    """
    sizes: dict[int, int] = {}

    def size(item: Any) -> int:
        key = id(item)
        if key in sizes:
            return sizes[key]
        sizes[key] = 1  # (an item inside itself counts once: check_depth refuses it)
        sizes[key] = 1 + sum(size(child) for _, child in _children(item)) + _leaves(item)
        return sizes[key]

    expanded = size(data)
    written = sum(1 + _leaves(item) for item in _containers(data))
    if expanded - written > limit:
        raise error(
            f"{source}: its aliases (*name) repeat its values {expanded:,} times once expanded, where it writes "
            f"{written:,}; at most {limit:,} more are read (a 'billion laughs'?)"
        )


def _children(item: Any) -> list[tuple[str, Any]]:
    """(key path part, child) of the mappings and lists directly inside ``item``."""
    if isinstance(item, dict):
        return [(str(k), v) for k, v in item.items() if isinstance(v, (dict, list, tuple))]
    if isinstance(item, (list, tuple)):
        return [(f"[{i}]", v) for i, v in enumerate(item) if isinstance(v, (dict, list, tuple))]
    return []


def _leaves(item: Any) -> int:
    """How many values directly inside ``item`` are not mappings or lists."""
    values = item.values() if isinstance(item, dict) else item if isinstance(item, (list, tuple)) else ()
    return sum(not isinstance(v, (dict, list, tuple)) for v in values)


def _containers(data: Any) -> list[Any]:
    """Every distinct mapping and list in ``data`` (each once, however often it is referred to)."""
    found: dict[int, Any] = {}
    stack = [data] if isinstance(data, (dict, list, tuple)) else []
    while stack:
        item = stack.pop()
        if id(item) not in found:
            found[id(item)] = item
            stack.extend(child for _, child in _children(item))
    return list(found.values())
