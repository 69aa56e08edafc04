"""Android state as ``adb shell`` reads it: the commands, and parsers of what they print.

``content query`` prints a row per line, ``Row: N col=value, col=value`` (``NULL`` for null);
``settings list NAMESPACE`` prints ``key=value`` lines; ``ls -l DIR`` a line per file. The
conditions and side-effect checks of a task build their commands here and read them through
the step's :class:`~androidrl.ui.Snapshot`, so each command runs at most once per step.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import Any

_ROW = re.compile(r"^Row: (\d+) ")
_NEXT_COLUMN = re.compile(r", (?=[A-Za-z_][A-Za-z0-9_.]*=)")


def content_query_command(
    uri: str, projection: Sequence[str] | None = None, where: str | None = None, sort: str | None = None
) -> str:
    """``content query --uri URI [--projection a:b] [--where SQL] [--sort ORDER]``, quoted for the device shell."""
    parts = ["content", "query", "--uri", uri]
    if projection:
        parts += ["--projection", ":".join(projection)]
    if where:
        parts += ["--where", where]
    if sort:
        parts += ["--sort", sort]
    return shlex.join(parts)


def parse_rows(output: str, columns: Sequence[str] | None = None) -> list[dict[str, str]]:
    """The rows ``content query`` printed (``[]`` for ``No result found.``), each column to its text.

    A value may hold ``, `` or a line break; with ``columns`` (the projection asked for), a
    ``, name=`` whose name is not one of them is read as part of the value before it.
    """
    texts: list[str] = []
    for line in output.splitlines():
        match = _ROW.match(line)
        if match and int(match[1]) == len(texts):
            texts.append(line[match.end() :])
        elif texts:  # a value with a line break
            texts[-1] += "\n" + line
    return [_split_row(text, columns) for text in texts]


def _split_row(text: str, columns: Sequence[str] | None) -> dict[str, str]:
    pairs: list[list[str]] = []
    for part in _NEXT_COLUMN.split(text):
        key, sep, value = part.partition("=")
        if pairs and (not sep or (columns and key not in columns)):
            pairs[-1][1] += ", " + part
        else:
            pairs.append([key, value])
    return {key: value for key, value in pairs}


def as_text(value: Any) -> str:
    """A value as ``content query`` prints it: ``NULL``, ``1``/``0`` for booleans, else its text."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return str(int(value))
    return str(value)


def settings_list_command(namespace: str) -> str:
    """``settings list NAMESPACE``."""
    return f"settings list {namespace}"


def parse_settings(output: str) -> dict[str, str]:
    """``settings list`` output as key to value."""
    values = {}
    for line in output.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            values[key] = value
    return values


def listing_command(directory: str) -> str:
    """``ls -l DIR``."""
    return f"ls -l {shlex.quote(directory)}"


def parse_listing(output: str) -> dict[str, str]:
    """``ls -l`` output as file name to ``size date time`` (what changes when a file is written)."""
    files = {}
    for line in output.splitlines():
        fields = line.split(maxsplit=7)
        if len(fields) == 8:
            files[fields[7]] = " ".join(fields[4:7])
    return files


def setting_command(namespace: str, key: str) -> str:
    """``settings get NAMESPACE KEY`` (prints ``null`` when unset)."""
    return f"settings get {namespace} {shlex.quote(key)}"


def file_exists_command(path: str) -> str:
    """``test -e PATH`` (exit code 0 when it exists)."""
    return f"test -e {shlex.quote(path)}"


def file_read_command(path: str) -> str:
    """``cat PATH``."""
    return f"cat {shlex.quote(path)}"


def dumpsys_command(service: str, args: Sequence[str] = ()) -> str:
    """``dumpsys SERVICE [ARGS]``."""
    return shlex.join(["dumpsys", service, *args])
