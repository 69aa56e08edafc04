"""Shell patterns (mksh's ``gmatch``): ``*``, ``?`` and ``[...]`` for ``case``, ``${v#p}``, ``[[ == ]]`` and globbing.

A pattern here is text in which a backslash makes the next character literal: the expander
escapes what was quoted, so ``"*"`` matches a star only. Globbing walks the phone's file
system one path component at a time; names starting with ``.`` match only a pattern that
starts with one, and a trailing ``/`` matches directories only (``/sdcard/*/``).
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable

_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": r" \t\n\r\f\v", "blank": r" \t", "punct": r"!-/:-@\[-`{-~", "xdigit": "0-9A-Fa-f",
    "print": r" -~", "graph": r"!-~", "cntrl": r"\x00-\x1f\x7f",
}  # fmt: skip


def escape(text: str) -> str:
    """``text`` as a pattern that matches it literally."""
    return re.sub(r"([\\*?\[\]])", r"\\\1", text)


def is_pattern(pattern: str) -> bool:
    """Whether ``pattern`` has an unescaped ``*``, ``?`` or ``[...]``."""
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c in "*?" or (c == "[" and _bracket_end(pattern, i) > 0):
            return True
        i += 1
    return False


def unescape(pattern: str) -> str:
    """The literal text of a pattern without pattern characters (its backslashes removed)."""
    return re.sub(r"\\(.)", r"\1", pattern, flags=re.S)


def _bracket_end(pattern: str, i: int) -> int:
    """Index of the ``]`` closing the bracket expression at ``pattern[i] == "["``, or -1."""
    j = i + 1
    if j < len(pattern) and pattern[j] in "!^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1
    while j < len(pattern):
        if pattern[j] == "\\":
            j += 2
            continue
        if pattern.startswith("[:", j):
            end = pattern.find(":]", j + 2)
            if end > 0:
                j = end + 2
                continue
        if pattern[j] == "]":
            return j
        j += 1
    return -1


@functools.lru_cache(maxsize=1024)
def to_regex(pattern: str) -> str:
    """The regular expression (not anchored) that matches what ``pattern`` matches."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            out.append(re.escape(pattern[i + 1]))
            i += 2
        elif c == "*":
            out.append(".*")
            i += 1
        elif c == "?":
            out.append(".")
            i += 1
        elif c == "[" and (end := _bracket_end(pattern, i)) > 0:
            body, j = pattern[i + 1 : end], 0
            negate = body[:1] in ("!", "^")
            items = []
            j = 1 if negate else 0
            while j < len(body):
                if body.startswith("[:", j) and (close := body.find(":]", j + 2)) > 0:
                    items.append(_CLASSES.get(body[j + 2 : close], ""))
                    j = close + 2
                    continue
                ch = body[j + 1] if body[j] == "\\" and j + 1 < len(body) else body[j]
                j += 2 if body[j] == "\\" else 1
                if body.startswith("-", j) and j + 1 < len(body):
                    last = body[j + 1]
                    items.append(f"{re.escape(ch)}-{re.escape(last)}")
                    j += 2
                else:
                    items.append(re.escape(ch))
            out.append(f"[{'^' if negate else ''}{''.join(items)}]" if items else ("[^\\s\\S]" if not negate else "."))
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


@functools.lru_cache(maxsize=1024)
def compiled(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled to match a whole string."""
    return re.compile(to_regex(pattern), re.S)


def matches(pattern: str, text: str) -> bool:
    """Whether all of ``text`` matches ``pattern``."""
    return compiled(pattern).fullmatch(text) is not None


def trim(value: str, pattern: str, op: str) -> str:
    """``${v#p}`` (shortest prefix), ``##`` (longest), ``%`` (shortest suffix), ``%%`` (longest) removed."""
    regex = compiled(pattern)
    n = len(value)
    if op in ("#", "##"):
        cuts = range(n + 1) if op == "#" else range(n, -1, -1)
        return next((value[i:] for i in cuts if regex.fullmatch(value, 0, i)), value)
    cuts = range(n, -1, -1) if op == "%" else range(n + 1)
    return next((value[:i] for i in cuts if regex.fullmatch(value, i)), value)


def replace(value: str, pattern: str, replacement: str, every: bool) -> str:
    """``${v/p/r}`` (first longest match) or ``${v//p/r}`` (each); ``p`` led by ``#``/``%`` anchors it."""
    anchor = pattern[:1] if pattern[:1] in ("#", "%") else ""
    body = compiled(pattern[len(anchor) :])
    if anchor == "#":
        return next((replacement + value[i:] for i in range(len(value), -1, -1) if body.fullmatch(value, 0, i)), value)
    if anchor == "%":
        return next((value[:i] + replacement for i in range(len(value) + 1) if body.fullmatch(value, i)), value)
    out, i, done = [], 0, False
    while i < len(value) and not done:
        end = next((j for j in range(len(value), i, -1) if body.fullmatch(value, i, j)), None)
        if end is None:
            out.append(value[i])
            i += 1
        else:
            out.append(replacement)
            i, done = end, not every
    return "".join(out) + value[i:]


def glob(
    pattern: str,
    cwd: str,
    exists: Callable[[str], bool],
    is_dir: Callable[[str], bool],
    listdir: Callable[[str], list[str]],
) -> list[str]:
    """The paths matching ``pattern`` (relative ones against ``cwd``), sorted; empty when none does."""
    absolute = pattern.startswith("/")
    trailing = pattern.endswith("/")
    components = [c for c in pattern.split("/") if c]
    found = ["/" if absolute else ""]
    for index, component in enumerate(components):
        last = index == len(components) - 1
        step = []
        for prefix in found:
            directory = posixpath.join(cwd, prefix) if prefix else cwd
            if not is_pattern(component):
                path = prefix + unescape(component)
                if last and not trailing:
                    if exists(posixpath.join(cwd, path)):
                        step.append(path)
                elif is_dir(posixpath.join(cwd, path)):
                    step.append(path + "/")
                continue
            if not is_dir(directory):
                continue
            regex = compiled(component)
            hidden = component.startswith(".")
            for name in listdir(directory):
                if (hidden or not name.startswith(".")) and regex.fullmatch(name):
                    path = prefix + name
                    if last and not trailing:
                        step.append(path)
                    elif is_dir(posixpath.join(cwd, path)):
                        step.append(path + "/")
        found = step
    if not trailing:
        found = [path for path in found if path]
    return sorted(found)
