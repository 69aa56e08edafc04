"""The shell's grammar: a command line split into pipelines and their stages, quotes and substitutions respected.

What the interpreter (:mod:`androidrl.virtual.shell.interpreter`) runs is found here: the
``;``, ``&&``, ``||``, ``&`` and newlines between pipelines, the ``|`` between their
stages, and where a quoted string, a backslash escape or a ``$(...)``/backtick
substitution ends.
"""

from __future__ import annotations

import functools
import re


class ShellSyntaxError(Exception):
    """A command line the shell cannot parse."""


REDIRECT = re.compile(r"([0-9]?)(>>|>&|<&|&>|>|<)")


def read_plain(text: str, i: int) -> tuple[str, int]:
    """The unquoted word after ``text[i]`` (blanks skipped), and the index after it: a redirection's ``&1``."""
    while i < len(text) and text[i] in " \t":
        i += 1
    j = i
    while j < len(text) and text[j] not in " \t\n;&|<>":
        j += 1
    return text[i:j], j


def skip_quoted(text: str, i: int) -> int:
    """Index just past the quoted string, substitution or escape starting at ``text[i]``."""
    c = text[i]
    if c == "\\":
        return i + 2
    if c == "'":
        end = text.find("'", i + 1)
        if end < 0:
            raise ShellSyntaxError("unterminated quoted string")
        return end + 1
    if c == '"':
        j = i + 1
        while j < len(text) and text[j] != '"':
            if text[j] == "\\":
                j += 2
            elif text.startswith("$(", j):
                j = paren_body(text, j + 1)[1]
            elif text[j] == "`":
                j = backtick_body(text, j)[1]
            else:
                j += 1
        if j >= len(text):
            raise ShellSyntaxError("unterminated quoted string")
        return j + 1
    if c == "`":
        return backtick_body(text, i)[1]
    if text.startswith("$(", i):
        return paren_body(text, i + 1)[1]
    return i + 1


def paren_body(text: str, i: int) -> tuple[str, int]:
    """Body of the parenthesised group opening at ``text[i] == '('``, and the index after it."""
    depth, j = 0, i
    while j < len(text):
        c = text[j]
        if c == "(":
            depth += 1
            j += 1
        elif c == ")":
            depth -= 1
            j += 1
            if depth == 0:
                return text[i + 1 : j - 1], j
        elif c in "'\"\\`":
            j = skip_quoted(text, j)
        else:
            j += 1
    raise ShellSyntaxError("missing ')'")


def backtick_body(text: str, i: int) -> tuple[str, int]:
    """Body of the backtick substitution opening at ``text[i]``, its escapes undone, and the index after it."""
    j = i + 1
    body: list[str] = []
    while j < len(text):
        if text[j] == "\\" and j + 1 < len(text) and text[j + 1] in "`\\$":
            body.append(text[j + 1])
            j += 2
        elif text[j] == "`":
            return "".join(body), j + 1
        else:
            body.append(text[j])
            j += 1
    raise ShellSyntaxError("unterminated `")


@functools.lru_cache(maxsize=1024)
def split_lists(line: str) -> tuple[tuple[str, str | None], ...]:
    """Split a line into pipelines and the connector (``;``, ``&&``, ``||``) before each."""
    result: list[tuple[str, str | None]] = []
    start, i, connector = 0, 0, None
    while i < len(line):
        c = line[i]
        if c in "'\"\\`" or line.startswith("$(", i):
            i = skip_quoted(line, i)
            continue
        if c == "#" and (i == 0 or line[i - 1] in " \t\n;&|"):
            end = line.find("\n", i)
            line = line[:i] + (line[end:] if end >= 0 else "")
            continue
        op = None
        if line.startswith("&&", i) or line.startswith("||", i):
            op = line[i : i + 2]
        elif c in ";\n" or (c == "&" and not line.startswith("&>", i) and (i == 0 or line[i - 1] not in "<>")):
            op = c
        if op is None:
            i += 1
            continue
        part = line[start:i].strip()
        if part:
            result.append((part, connector))
        elif op in ("&&", "||") or (op in ";&" and result == [] and line[:i].strip() == ""):
            raise ShellSyntaxError(f"unexpected '{op}'")
        connector = op if op in ("&&", "||") else None
        i += len(op)
        start = i
    tail = line[start:].strip()
    if tail:
        result.append((tail, connector))
    elif connector in ("&&", "||"):
        raise ShellSyntaxError(f"unexpected end of line after '{connector}'")
    return tuple(result)


@functools.lru_cache(maxsize=1024)
def split_pipes(pipeline: str) -> tuple[str, ...]:
    """The stages of a pipeline (the text between its unquoted ``|``)."""
    stages, start, i = [], 0, 0
    while i < len(pipeline):
        c = pipeline[i]
        if c in "'\"\\`" or pipeline.startswith("$(", i):
            i = skip_quoted(pipeline, i)
            continue
        if c == "|":
            stages.append(pipeline[start:i])
            start = i + 1
        i += 1
    stages.append(pipeline[start:])
    if any(not s.strip() for s in stages):
        raise ShellSyntaxError("unexpected '|'")
    return tuple(stages)
