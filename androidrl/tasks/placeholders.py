"""Placeholders in task files: ``{name}``, ``{name.key}``, ``{name.0.key}``, ``{name:02d}``, ``{name!sql}``.

A placeholder names a parameter and, for a mapping or list value, a path into it. A format
spec (Python's format mini-language) formats a number: ``{time.minute:02d}``. The ``!sql``
conversion doubles single quotes, making the value safe inside an SQL string literal
``'...'``; strings under a ``where`` or ``except`` key (the SQL of content conditions and side
effects) are always filled that way. A string that is one placeholder and nothing else keeps
the value's type: ``rows: "{others}"`` is a list, ``grid: "{n}"`` an int.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from androidrl.errors import TaskError

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+)*)(?:!(sql))?(?::([^{}]*))?\}")
#: Keys whose strings are SQL: placeholders filled into them are always SQL-quoted.
SQL_KEYS = frozenset({"where", "except"})


@dataclass(frozen=True)
class Placeholder:
    """One ``{...}`` of a template."""

    name: str
    path: tuple[str, ...]  # keys (or list indices) into the value
    conversion: str | None  # "sql" or None
    spec: str | None  # a format spec, or None

    @classmethod
    def from_match(cls, match: re.Match) -> Placeholder:
        """The placeholder a :data:`PLACEHOLDER` match found."""
        name, path, conversion, spec = match.groups()
        return cls(name, tuple(path.split(".")[1:]) if path else (), conversion, spec)

    def __str__(self) -> str:
        text = ".".join((self.name, *self.path))
        return (
            "{"
            + text
            + (f"!{self.conversion}" if self.conversion else "")
            + (f":{self.spec}" if self.spec else "")
            + "}"
        )


def find(text: str) -> list[Placeholder]:
    """The placeholders of ``text``, in order."""
    return [Placeholder.from_match(m) for m in PLACEHOLDER.finditer(text)]


def lookup(values: dict[str, Any], name: str, path: tuple[str, ...] = ()) -> Any:
    """The value at ``name`` and ``path`` (mapping keys, or list indices).

    Raises:
        TaskError: No such parameter, key or index.
    """
    if name not in values:
        raise TaskError(f"placeholder {{{name}}}: no parameter {name!r}; there are {sorted(values)}")
    value = values[name]
    for i, key in enumerate(path):
        where = ".".join((name, *path[: i + 1]))
        if isinstance(value, dict) and key in value:
            value = value[key]
        elif isinstance(value, (list, tuple)) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            raise TaskError(
                f"placeholder {{{where}}}: {'.'.join((name, *path[:i]))} is {value!r}, which has no {key!r}"
            )
    return value


def render(value: Any, placeholder: Placeholder, sql: bool = False) -> str:
    """The text a placeholder puts into a string.

    Raises:
        TaskError: A format spec on something that is not a number, or one Python refuses.
    """
    if placeholder.spec:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TaskError(f"placeholder {placeholder}: a format spec formats numbers, got {value!r}")
        try:
            text = format(value, placeholder.spec)
        except ValueError as err:
            raise TaskError(f"placeholder {placeholder}: {err}") from None
    else:
        text = str(value)
    return text.replace("'", "''") if sql or placeholder.conversion == "sql" else text


def fill_text(text: str, values: dict[str, Any], sql: bool = False) -> Any:
    """``text`` with its placeholders filled; a lone placeholder (no spec or conversion) keeps its value's type."""
    whole = PLACEHOLDER.fullmatch(text)
    if whole:
        placeholder = Placeholder.from_match(whole)
        value = lookup(values, placeholder.name, placeholder.path)
        if not (placeholder.spec or placeholder.conversion or sql):
            return value
        return render(value, placeholder, sql)
    if "{" not in text:
        return text
    return PLACEHOLDER.sub(lambda m: _render_match(m, values, sql), text)


def _render_match(match: re.Match, values: dict[str, Any], sql: bool) -> str:
    placeholder = Placeholder.from_match(match)
    return render(lookup(values, placeholder.name, placeholder.path), placeholder, sql)


def fill(data: Any, values: dict[str, Any], sql: bool = False) -> Any:
    """Every string of nested mappings and lists with its placeholders filled (see :func:`fill_text`)."""
    if isinstance(data, str):
        return fill_text(data, values, sql)
    if isinstance(data, dict):
        return {k: fill(v, values, sql or k in SQL_KEYS) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [fill(v, values, sql) for v in data]
    return data


def strings(data: Any, path: str = "") -> list[tuple[str, str]]:
    """Every string in nested mappings and lists, with its key path (``reset[2].shell``)."""
    if isinstance(data, str):
        return [(path, data)]
    if isinstance(data, dict):
        return [item for k, v in data.items() for item in strings(v, f"{path}.{k}" if path else str(k))]
    if isinstance(data, (list, tuple)):
        return [item for i, v in enumerate(data) for item in strings(v, f"{path}[{i}]")]
    return []


def has_placeholders(data: Any) -> bool:
    """Whether any string of ``data`` holds a placeholder."""
    return any(PLACEHOLDER.search(text) for _, text in strings(data))
