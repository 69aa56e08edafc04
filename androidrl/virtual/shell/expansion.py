"""Word expansion (mksh's ``eval.c``): a parsed word into the fields a command gets.

In order: tilde, parameter expansion (``$v``, ``${#v}``, ``${v:-w}``, ``${v:=w}``,
``${v:+w}``, ``${v:?w}``, ``${v#p}``, ``${v##p}``, ``${v%p}``, ``${v%%p}``, ``${v/p/r}``,
``${v:off:len}``, ``$@``, ``$*``...), command substitution, arithmetic; then the unquoted
results are split on ``IFS`` and globbed against the phone's files, and the quotes go. What
the expander needs of the shell is the small :class:`Scope` face.
"""

from __future__ import annotations

import re
from typing import Protocol

from androidrl.virtual.shell import patterns
from androidrl.virtual.shell.control import ShellError
from androidrl.virtual.shell.tree import ArithSub, CommandSub, Lit, Param, Part, Tilde, Word

_DEFAULT_IFS = " \t\n"


class Scope(Protocol):
    """What expansion reads and changes of a shell."""

    positional: list[str]
    options: set[str]

    def lookup(self, name: str) -> str | None: ...
    def assign(self, name: str, value: str) -> None: ...
    def command_output(self, body: tuple) -> str: ...
    def arithmetic(self, expression: str) -> int: ...
    def glob(self, pattern: str) -> list[str]: ...


class _Fields:
    """Fields being built: each a list of (text, active) pieces (active: unquoted, its pattern characters count)."""

    def __init__(self, scope: Scope, split: bool) -> None:
        self.scope, self.split = scope, split
        self.fields: list[list[tuple[str, bool]]] = [[]]
        self.kept: list[bool] = [False]  # the field holds something quoted: kept even when empty

    def literal(self, text: str, active: bool) -> None:
        self.fields[-1].append((text, active))
        if not active:
            self.kept[-1] = True

    def new_field(self) -> None:
        self.fields.append([])
        self.kept.append(False)

    def expanded(self, text: str, quoted: bool) -> None:
        """The result of an expansion: split on IFS unless quoted (or not splitting)."""
        if quoted or not self.split:
            self.literal(text, not quoted)
            if quoted:
                self.kept[-1] = True
            return
        ifs = self.scope.lookup("IFS")
        ifs = _DEFAULT_IFS if ifs is None else ifs
        if not ifs:
            self.literal(text, True)
            return
        for index, piece in enumerate(_split(text, ifs)):
            if index:
                self.new_field()
            if piece:
                self.literal(piece, True)

    def add(self, parts: tuple[Part, ...]) -> None:
        for part in parts:
            kind = type(part)
            if kind is Lit:
                self.literal(part.text, not part.quoted)
            elif kind is Param:
                self.param(part)
            elif kind is CommandSub:
                self.expanded(self.scope.command_output(part.body), part.quoted)
            elif kind is ArithSub:
                self.expanded(str(self.scope.arithmetic(string(self.scope, part.expr))), part.quoted)
            elif kind is Tilde:
                home = self.scope.lookup("HOME") if not part.user else None
                self.literal(home if home is not None else "~" + part.user, False)
            else:
                raise ShellError(f"{part.text}: bad substitution")

    def param(self, part: Param) -> None:
        scope, name, op = self.scope, part.name, part.op
        if name in ("@", "*") and op == "":
            self.all_params(name, part.quoted)
            return
        value = _value(scope, name)
        if op == "":
            if value is None and "u" in scope.options and name not in ("@", "*", "#", "?", "$", "!", "-", "0"):
                raise ShellError(f"{name}: parameter not set")
            self.expanded(value or "", part.quoted)
            return
        if op == "len":
            count = len(scope.positional) if name in ("@", "*") else len(value or "")
            self.expanded(str(count), part.quoted)
            return
        unset = value is None or (op.startswith(":") and value == "" and op != ":")
        if op in ("-", ":-"):
            self.add(part.arg.parts) if unset else self.expanded(value, part.quoted)
        elif op in ("+", ":+"):
            if not unset:
                self.add(part.arg.parts)
            elif part.quoted:
                self.kept[-1] = True
        elif op in ("=", ":="):
            if unset:
                if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                    raise ShellError(f"{part.text}: bad substitution")
                value = string(scope, part.arg)
                scope.assign(name, value)
            self.expanded(value, part.quoted)
        elif op in ("?", ":?"):
            if unset:
                message = string(scope, part.arg)
                raise ShellError(f"{name}: {message or 'parameter null or not set'}")
            self.expanded(value, part.quoted)
        elif op in ("#", "##", "%", "%%"):
            self.expanded(patterns.trim(value or "", pattern(scope, part.arg), op), part.quoted)
        elif op in ("/", "//"):
            replacement = string(scope, part.repl) if part.repl is not None else ""
            self.expanded(patterns.replace(value or "", pattern(scope, part.arg), replacement, op == "//"), part.quoted)
        else:  # ${v:offset[:length]}
            self.expanded(_substring(scope, value or "", part), part.quoted)

    def all_params(self, name: str, quoted: bool) -> None:
        params = self.scope.positional
        if quoted and name == "*":
            ifs = self.scope.lookup("IFS")
            self.expanded((" " if ifs is None else ifs[:1]).join(params), True)
            return
        for index, param in enumerate(params):
            if index:
                self.new_field()
            self.expanded(param, quoted)


def _split(text: str, ifs: str) -> list[str]:
    """``text`` split on ``ifs`` as POSIX says: runs of IFS white space are one separator, and none at the ends."""
    white = "".join(c for c in ifs if c in " \t\n")
    other = "".join(c for c in ifs if c not in " \t\n")
    w, o = re.escape(white), re.escape(other)
    if not other:
        return re.split(f"[{w}]+", text)
    return re.split(f"[{w}]*[{o}][{w}]*|[{w}]+" if white else f"[{o}]", text)


def _value(scope: Scope, name: str) -> str | None:
    if name in ("@", "*"):
        return " ".join(scope.positional) if scope.positional else None
    return scope.lookup(name)


def _substring(scope: Scope, value: str, part: Param) -> str:
    offset = scope.arithmetic(string(scope, part.arg))
    if offset < 0:
        offset = max(0, len(value) + offset)
    if part.repl is None:
        return value[offset:]
    length = scope.arithmetic(string(scope, part.repl))
    end = offset + length if length >= 0 else len(value) + length
    return value[offset:end]


def braces(word: Word) -> list[Word]:
    """Brace expansion, on by default in mksh: ``a{b,c}d`` is ``abd acd``; braces that were quoted do not count."""
    if not any(type(p) is Lit and not p.quoted and "{" in p.text for p in word.parts):
        return [word]
    items: list[str | Part] = []  # an unquoted character, or a part
    for part in word.parts:
        if type(part) is Lit and not part.quoted:
            items.extend(part.text)
        else:
            items.append(part)
    return [Word(tuple(_merge(alternative)), word.text) for alternative in _brace_items(items)]


def _brace_items(items: list) -> list[list]:
    for start, item in enumerate(items):
        if item != "{":
            continue
        depth, commas = 0, []
        for end in range(start, len(items)):
            if items[end] == "{":
                depth += 1
            elif items[end] == "}":
                depth -= 1
                if depth == 0:
                    break
            elif items[end] == "," and depth == 1:
                commas.append(end)
        else:
            return [items]
        if not commas:
            continue
        cuts = [start, *commas, end]
        head, tail = items[:start], items[end + 1 :]
        out = []
        for a, b in zip(cuts, cuts[1:]):
            out.extend(_brace_items(head + items[a + 1 : b] + tail))
        return out
    return [items]


def _merge(items: list) -> list[Part]:
    parts: list[Part] = []
    for item in items:
        if isinstance(item, str):
            if parts and type(parts[-1]) is Lit and not parts[-1].quoted:
                parts[-1] = Lit(parts[-1].text + item, False)
            else:
                parts.append(Lit(item, False))
        else:
            parts.append(item)
    return parts


def fields(scope: Scope, word: Word) -> list[str]:
    """The fields of ``word`` as a command's arguments: brace-expanded, split, globbed, unquoted."""
    if word.plain is not None and "{" not in word.plain:
        return [word.plain]
    words = braces(word)
    if len(words) > 1:
        return [field for alternative in words for field in fields(scope, alternative)]
    builder = _Fields(scope, split=True)
    builder.add(word.parts)
    result: list[str] = []
    noglob = "f" in scope.options
    for field, kept in zip(builder.fields, builder.kept):
        if not field:
            if kept:
                result.append("")
            continue
        text = "".join(t for t, _ in field)
        if not noglob and any(active and patterns.is_pattern(t) for t, active in field):
            matched = scope.glob("".join(t if active else patterns.escape(t) for t, active in field))
            if matched:
                result.extend(matched)
                continue
        result.append(text)
    return result


def string(scope: Scope, word: Word | None) -> str:
    """``word`` as one string: expanded, never split nor globbed (assignments, redirections, ``case``)."""
    if word is None:
        return ""
    if word.plain is not None:
        return word.plain
    builder = _Fields(scope, split=False)
    builder.add(word.parts)
    return "".join(t for field in builder.fields for t, _ in field)


def pattern(scope: Scope, word: Word | None) -> str:
    """``word`` as a pattern (see :mod:`~androidrl.virtual.shell.patterns`): what was quoted matches literally."""
    if word is None:
        return ""
    builder = _Fields(scope, split=False)
    builder.add(word.parts)
    return "".join(t if active else patterns.escape(t) for field in builder.fields for t, active in field)


def all_fields(scope: Scope, words: tuple[Word, ...]) -> list[str]:
    """The fields of several words, in order."""
    out: list[str] = []
    for word in words:
        if word.plain is not None and "{" not in word.plain:
            out.append(word.plain)
        else:
            out.extend(fields(scope, word))
    return out
