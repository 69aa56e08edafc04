"""Shared by the YAML formats (tasks, training configs): reading YAML, and errors that name the key path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError


class NestedErrors(ValueError):
    """Errors of a part validated by hand inside a validator, kept with their own key paths."""

    def __init__(self, items: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(f"{path}: {message}" for path, message in items))
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
            message += f", got {got!r}"
        items.append((path, message))
    return items


def format_errors(err: ValidationError) -> str:
    """Pydantic errors as ``key.path[2].name: message`` lines."""
    return "\n".join(f"{path or '(top level)'}: {message}" for path, message in error_items(err))


#: How deep a YAML document may nest (conditions inside conditions...): deeper is a mistake or an attack.
MAX_DEPTH = 32


class _TooDeep(Exception):
    """Raised while composing a YAML document that nests deeper than :data:`MAX_DEPTH`."""

    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


class _StrictLoader(yaml.SafeLoader):
    """YAML's safe loader, except for keys written twice and documents nested too deep.

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
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} is written twice in one mapping", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def read_yaml(path: str | Path, error: type[Exception], what: str) -> Any:
    """The data in a YAML file (a key written twice, or nesting deeper than :data:`MAX_DEPTH`, is an error).

    Raises:
        error: The file cannot be read (naming ``what`` it is), is not UTF-8 text, or is not
            YAML (with the line).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise error(f"{path}: cannot read the {what}: {err.strerror}") from None
    except UnicodeDecodeError as err:
        raise error(f"{path}: the {what} is not a UTF-8 text file (a binary file?): {err.reason}") from None
    return parse_yaml(text, error, str(path))


def parse_yaml(text: str, error: type[Exception], source: str) -> Any:
    """The data in YAML ``text`` (from ``source``, for messages), read as :func:`read_yaml` reads a file.

    Raises:
        error: The text is not YAML (with the line), writes a key twice, or nests deeper than
            :data:`MAX_DEPTH`.
    """
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 (a SafeLoader)
    except _TooDeep as err:
        raise error(f"{source}: nests more than {MAX_DEPTH} levels deep (at line {err.line})") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise error(f"{source}: not valid YAML{where}: {getattr(err, 'problem', err)}") from None
    check_depth(data, error, source)
    return data


def check_depth(data: Any, error: type[Exception], source: str, limit: int = MAX_DEPTH) -> None:
    """Raise ``error`` if mappings and lists in ``data`` nest more than ``limit`` levels deep."""
    level = [data]
    for _ in range(limit):
        # each container once per level: YAML aliases may repeat one many times (a "billion laughs")
        level = list({id(child): child for item in level for child in _children(item)}.values())
        if not level:
            return
    if any(_children(item) for item in level):
        raise error(f"{source}: nests more than {limit} levels deep")


def _children(item: Any) -> list[Any]:
    """The mappings and lists directly inside ``item``."""
    values = item.values() if isinstance(item, dict) else item if isinstance(item, (list, tuple)) else ()
    return [v for v in values if isinstance(v, (dict, list, tuple))]
