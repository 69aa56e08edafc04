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


def read_yaml(path: str | Path, error: type[Exception], what: str) -> Any:
    """The data in a YAML file.

    Raises:
        error: The file cannot be read (naming ``what`` it is), or is not YAML (with the line).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise error(f"{path}: cannot read the {what}: {err.strerror}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise error(f"{path}: not valid YAML{where}: {getattr(err, 'problem', err)}") from None
