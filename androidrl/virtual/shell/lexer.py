"""The shell's lexer (mksh's ``lex.c``): program text into tokens, and each word into its parts.

A word is read whole here — quotes, backslashes, ``$name``, ``${...}``, ``$((...))``, and the
commands of ``$(...)`` and backquotes, which the parser reads through :attr:`Lexer.subparse`.
Here-document bodies are read after the newline that ends the line naming them. Errors are
mksh's: ``no closing quote``, ``here document 'EOF' unclosed``.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass

from androidrl.virtual.shell.tree import ArithSub, BadSubst, CommandSub, HereDoc, Lit, Param, Part, Tilde, Word


class ShellSyntaxError(Exception):
    """A program the shell cannot parse: mksh's message, the line it is on, and whether more text could fix it."""

    def __init__(self, message: str, line: int = 1, at_end: bool = False) -> None:
        super().__init__(message)
        self.message, self.line, self.at_end = message, line, at_end


_META = frozenset(" \t\n;&|<>()")
_PLAIN_RUN = re.compile(r"[^ \t\n;&|<>()'\"\\$`]+")
_DQ_RUN = re.compile(r'[^"\\$`]+')
_TEXT_RUN = re.compile(r"[^\\$`]+")
_BLANKS = re.compile(r"(?:[ \t]+|\\\n)+")
_REDIR = re.compile(r"([0-9]?)(<<<|<<-|<<|>>|<&|>&|<>|>\||&>|<|>)")
_OPS = ("&&", "||", ";;", ";&", ";|", "|&", "|", "&", ";", "(", ")", "\n")
_OP_STARTS = frozenset(op[0] for op in _OPS)
# A word of plain runs and quoted strings with nothing to expand (``'...'``, ``"..."`` without ``$ ` \``: what
# shlex.quote writes); one starting with these may be something else (a comment, a redirection, an operator).
# It must end at a blank, ``;`` or a newline (``2>x``, ``a|b`` take the long way).
_QUICK_WORD = re.compile(r"(?:[^ \t\n;&|<>()'\"\\$`]+|'[^']*'|\"[^\"\\$`]*\")+")
_QUICK_PARTS = re.compile(r"'([^']*)'|\"([^\"\\$`]*)\"|[^'\"]+")
_NOT_QUICK = frozenset("#<>&|;()\n")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPECIAL = frozenset("@*#?-$!0123456789")
_BRACE_OPS = (":-", ":=", ":+", ":?", "##", "%%", "//", "-", "=", "+", "?", "#", "%", "/", ":")
_PATTERN = re.compile(r"[*?]|\[.*\]")


def has_pattern(text: str) -> bool:
    """Whether unquoted ``text`` holds a pattern character (``*``, ``?`` or a closed ``[...]``)."""
    return _PATTERN.search(text) is not None


@dataclass(slots=True)
class Token:
    r"""One token: ``kind`` is ``word``, ``op``, ``redir``, ``arith`` or ``eof``.

    ``op``: ``value`` is the operator (``"\n"`` a newline); ``redir``: ``value`` is the operator
    and ``fd`` its number or -1; ``arith``: ``word`` is the expression of ``(( ))``.
    """

    kind: str
    value: str
    word: Word | None
    fd: int
    line: int


def make_word(parts: list[Part], text: str) -> Word:
    """A :class:`Word` of ``parts`` (adjacent literals of one quoting merged), with its plain value if any."""
    merged: list[Part] = []
    for part in parts:
        if type(part) is Lit and merged and type(merged[-1]) is Lit and merged[-1].quoted == part.quoted:
            merged[-1] = Lit(merged[-1].text + part.text, part.quoted)
        else:
            merged.append(part)
    plain = None
    if len(merged) == 1 and type(merged[0]) is Lit and not merged[0].quoted and not has_pattern(merged[0].text):
        plain = merged[0].text
    return Word(tuple(merged), text, plain)


class Lexer:
    """Tokens of ``src`` from ``pos`` on.

    Args:
        src: The program text.
        subparse: ``subparse(lexer, i)`` parses the commands of a ``$(`` whose body starts at
            ``src[i]`` and returns them with the index after the closing ``)`` (set by the parser).
        line: The line number of ``src``'s first line.
    """

    def __init__(self, src: str, subparse: Callable[[Lexer, int], tuple[tuple, int]], line: int = 1) -> None:
        self.src, self.pos, self.subparse, self.first_line = src, 0, subparse, line
        self.pending: list[HereDoc] = []
        self._newlines = [i for i, c in enumerate(src) if c == "\n"] if "\n" in src else []

    def line_at(self, i: int) -> int:
        """The line number of ``src[i]``."""
        return self.first_line + bisect.bisect_left(self._newlines, i) if self._newlines else self.first_line

    # ------------------------------------------------------------------ tokens

    def next_token(self) -> Token:
        """The next token (blanks, line continuations and comments skipped)."""
        src, i, n = self.src, self.pos, len(self.src)
        while i < n:
            blanks = _BLANKS.match(src, i)
            if blanks:
                i = blanks.end()
            elif src[i] == "#":
                end = src.find("\n", i)
                i = n if end < 0 else end
            else:
                break
        line = self.line_at(i)
        if i >= n:
            self.pos = n
            if self.pending:
                raise ShellSyntaxError(f"here document '{self.pending[0].delimiter}' unclosed", line, at_end=True)
            return Token("eof", "", None, -1, line)
        c = src[i]
        if c not in _NOT_QUICK:  # most words are plain or single-quoted text: read at once, with the same parts
            quick = _QUICK_WORD.match(src, i)
            end = quick.end() if quick else i
            if end > i and (end == n or src[end] in " \t\n;"):
                self.pos, text = end, src[i:end]
                if "'" in text or '"' in text:
                    parts: list[Part] = [
                        Lit(m[0], False) if m.lastindex is None else Lit(m[m.lastindex], True)
                        for m in _QUICK_PARTS.finditer(text)
                    ]
                else:
                    parts = [Lit(text, False)]
                return Token("word", text, make_word(_tilde(parts), text), -1, line)
        if c == "\n":
            self.pos = i + 1
            if self.pending:
                self._read_heredocs()
            return Token("op", "\n", None, -1, line)
        if c in "<>&0123456789":
            redirect = _REDIR.match(src, i)
            if redirect and (c != "&" or redirect.group(2) == "&>") and not (redirect.group(1) and c == "&"):
                self.pos = redirect.end()
                fd = int(redirect.group(1)) if redirect.group(1) else -1
                return Token("redir", redirect.group(2), None, fd, line)
        if c in _OP_STARTS:  # (most tokens are words: they skip the operators' tests)
            if src.startswith("((", i):
                end = self._arith_end(i + 2)
                if end is not None:
                    self.pos = end + 2
                    return Token("arith", "((", self.text_word(src[i + 2 : end], line, arith=True), -1, line)
            for op in _OPS:
                if src.startswith(op, i):
                    self.pos = i + len(op)
                    return Token("op", op, None, -1, line)
        parts, end = self.read_word(i)
        self.pos = end
        return Token("word", src[i:end], make_word(_tilde(parts), src[i:end]), -1, line)

    def _read_heredocs(self) -> None:
        """Read the bodies of the here-documents named on the line that just ended."""
        src, i, n = self.src, self.pos, len(self.src)
        for doc in self.pending:
            lines: list[str] = []
            start_line = self.line_at(i)
            while True:
                if i >= n:
                    raise ShellSyntaxError(f"here document '{doc.delimiter}' unclosed", start_line, at_end=True)
                end = src.find("\n", i)
                line = src[i : n if end < 0 else end]
                i = n if end < 0 else end + 1
                if doc.strip_tabs:
                    line = line.lstrip("\t")
                if line == doc.delimiter:
                    break
                lines.append(line + "\n")
            body = "".join(lines)
            doc.body = self.text_word(body, start_line) if doc.expand else Word((Lit(body, True),), body)
        self.pending = []
        self.pos = i

    def _arith_end(self, i: int) -> int | None:
        """Where the ``))`` closing an arithmetic expression starting at ``src[i]`` is, or None if it is not one."""
        src, depth, n = self.src, 0, len(self.src)
        while i < n:
            c = src[i]
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    return i if src.startswith("))", i) else None
                depth -= 1
            elif c in "'\"\\`":
                try:
                    i = self._skip_quoted(i)
                except ShellSyntaxError:
                    return None
                continue
            i += 1
        return None

    def _skip_quoted(self, i: int) -> int:
        src = self.src
        c = src[i]
        if c == "\\":
            return i + 2
        if c == "'":
            end = src.find("'", i + 1)
        elif c == "`":
            end = src.find("`", i + 1)
        else:
            end = i + 1
            while end < len(src) and src[end] != '"':
                end += 2 if src[end] == "\\" else 1
            end = end if end < len(src) else -1
        if end < 0:
            raise ShellSyntaxError("no closing quote", self.line_at(i), at_end=True)
        return end + 1

    # ------------------------------------------------------------------ words

    def read_word(self, i: int) -> tuple[list[Part], int]:
        """The parts of the unquoted word starting at ``src[i]``, and the index after it."""
        src, n = self.src, len(self.src)
        parts: list[Part] = []
        while i < n:
            c = src[i]
            if c in _META:
                break
            if c == "'":
                end = src.find("'", i + 1)
                if end < 0:
                    raise ShellSyntaxError("no closing quote", self.line_at(i), at_end=True)
                parts.append(Lit(src[i + 1 : end], True))
                i = end + 1
            elif c == '"':
                i = self._read_dquote(i + 1, parts)
            elif c == "\\":
                if src.startswith("\\\n", i):
                    i += 2
                elif i + 1 < n:
                    parts.append(Lit(src[i + 1], True))
                    i += 2
                else:
                    parts.append(Lit("\\", False))
                    i += 1
            elif c == "$":
                part, i = self._read_dollar(i, False)
                parts.append(part)
            elif c == "`":
                part, i = self._read_backquote(i, False)
                parts.append(part)
            else:
                run = _PLAIN_RUN.match(src, i)
                parts.append(Lit(run.group(), False))
                i = run.end()
        return parts, i

    def _read_dquote(self, i: int, parts: list[Part]) -> int:
        """Parts of a double-quoted string whose text starts at ``src[i]``; the index after its closing quote."""
        src, n = self.src, len(self.src)
        start, count = i, len(parts)
        while i < n:
            c = src[i]
            if c == '"':
                if len(parts) == count:
                    parts.append(Lit("", True))  # "" is an empty field, not none
                return i + 1
            if c == "\\":
                if i + 1 < n and src[i + 1] in '$`"\\\n':
                    if src[i + 1] != "\n":
                        parts.append(Lit(src[i + 1], True))
                    i += 2
                else:
                    parts.append(Lit("\\", True))
                    i += 1
            elif c == "$":
                part, i = self._read_dollar(i, True)
                parts.append(part)
            elif c == "`":
                part, i = self._read_backquote(i, True)
                parts.append(part)
            else:
                run = _DQ_RUN.match(src, i)
                parts.append(Lit(run.group(), True))
                i = run.end()
        raise ShellSyntaxError("no closing quote", self.line_at(start), at_end=True)

    def _read_dollar(self, i: int, quoted: bool) -> tuple[Part, int]:
        """The expansion at ``src[i] == "$"``, and the index after it."""
        src = self.src
        nxt = src[i + 1] if i + 1 < len(src) else ""
        if nxt == "(":
            if src.startswith("((", i + 1):
                end = self._arith_end(i + 3)
                if end is not None:
                    expr = self.text_word(src[i + 3 : end], self.line_at(i), arith=True)
                    return ArithSub(expr, quoted), end + 2
            body, end = self.subparse(self, i + 2)
            return CommandSub(body, quoted), end
        if nxt == "{":
            return self._read_brace(i, quoted)
        if nxt and nxt in _SPECIAL:
            return Param(nxt, "", None, quoted, src[i : i + 2]), i + 2
        name = _NAME.match(src, i + 1)
        if name:
            return Param(name.group(), "", None, quoted, src[i : name.end()]), name.end()
        return Lit("$", quoted), i + 1

    def _read_brace(self, start: int, quoted: bool) -> tuple[Part, int]:
        """``${...}`` at ``src[start]``."""
        src, i = self.src, start + 2
        length = src.startswith("#", i) and not src.startswith("#}", i)
        if length:
            i += 1
        name = _NAME.match(src, i)
        if name:
            i = name.end()
            name_text = name.group()
        elif i < len(src) and src[i].isdigit():
            j = i
            while j < len(src) and src[j].isdigit():
                j += 1
            name_text, i = src[i:j], j
        elif i < len(src) and src[i] in _SPECIAL:
            name_text, i = src[i], i + 1
        else:
            return self._bad_brace(start)
        if length:
            if not src.startswith("}", i):
                return self._bad_brace(start)
            return Param(name_text, "len", None, quoted, src[start : i + 1]), i + 1
        if src.startswith("}", i):
            return Param(name_text, "", None, quoted, src[start : i + 1]), i + 1
        op = next((o for o in _BRACE_OPS if src.startswith(o, i)), None)
        if op is None:
            return self._bad_brace(start)
        i += len(op)
        pattern_op = op in ("#", "##", "%", "%%", "/", "//")
        arg, i = self._read_brace_word(
            i, quoted and not pattern_op, "/}" if op in ("/", "//") else ":}" if op == ":" else "}"
        )
        repl = None
        if op in ("/", "//", ":") and src.startswith("/" if op != ":" else ":", i):
            repl, i = self._read_brace_word(i + 1, quoted and op != ":", "}")
        if not src.startswith("}", i):
            raise ShellSyntaxError("no closing quote", self.line_at(start), at_end=True)
        return Param(name_text, op, arg, quoted, src[start : i + 1], repl), i + 1

    def _bad_brace(self, start: int) -> tuple[Part, int]:
        end = self.src.find("}", start)
        if end < 0:
            raise ShellSyntaxError("no closing quote", self.line_at(start), at_end=True)
        return BadSubst(self.src[start : end + 1]), end + 1

    def _read_brace_word(self, i: int, quoted: bool, stop: str) -> tuple[Word, int]:
        """The word inside ``${name OP word}`` up to an unquoted character of ``stop``."""
        src, n, start = self.src, len(self.src), i
        parts: list[Part] = []
        while i < n and src[i] not in stop:
            c = src[i]
            if c == "'" and not quoted:
                end = src.find("'", i + 1)
                if end < 0:
                    raise ShellSyntaxError("no closing quote", self.line_at(i), at_end=True)
                parts.append(Lit(src[i + 1 : end], True))
                i = end + 1
            elif c == '"':
                i = self._read_dquote(i + 1, parts)
            elif c == "\\" and i + 1 < n:
                if src[i + 1] != "\n":
                    parts.append(Lit(src[i + 1], True))
                i += 2
            elif c == "$":
                part, i = self._read_dollar(i, quoted)
                parts.append(part)
            elif c == "`":
                part, i = self._read_backquote(i, quoted)
                parts.append(part)
            else:
                parts.append(Lit(c, quoted))
                i += 1
        return make_word(parts, src[start:i]), i

    def _read_backquote(self, i: int, quoted: bool) -> tuple[Part, int]:
        """A backquoted command at ``src[i]``: its escapes undone, its text parsed."""
        src, n, j = self.src, len(self.src), i + 1
        body: list[str] = []
        while j < n:
            c = src[j]
            if c == "\\" and j + 1 < n and (src[j + 1] in "`\\$" or (quoted and src[j + 1] == '"')):
                body.append(src[j + 1])
                j += 2
            elif c == "`":
                sub = Lexer("".join(body), self.subparse, self.line_at(i))
                commands, _ = self.subparse(sub, -1)
                return CommandSub(commands, quoted), j + 1
            else:
                body.append(c)
                j += 1
        raise ShellSyntaxError("no closing quote", self.line_at(i), at_end=True)

    def text_word(self, text: str, line: int, arith: bool = False) -> Word:
        """``text`` read as a here-document body (or, ``arith``, an arithmetic expression).

        Only ``$``, backquotes and backslashes are special, and everything is quoted (never split nor globbed).
        """
        return Lexer(text, self.subparse, line).read_text(arith)

    def read_text(self, arith: bool = False) -> Word:
        """All of ``src`` as :meth:`text_word` reads it."""
        text, parts = self.src, []
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c == "\\":
                if i + 1 < n and text[i + 1] in "$`\\\n":
                    if text[i + 1] != "\n":
                        parts.append(Lit(text[i + 1], True))
                    i += 2
                else:
                    parts.append(Lit("\\", True))
                    i += 1
            elif c == "$":
                part, i = self._read_dollar(i, True)
                parts.append(part)
            elif c == "`":
                part, i = self._read_backquote(i, True)
                parts.append(part)
            elif arith and c in "\"'":
                i += 1  # quotes in an arithmetic expression are removed
            else:
                chunk = _TEXT_RUN.match(text, i).group()
                if arith:
                    chunk = chunk.split('"')[0].split("'")[0]
                parts.append(Lit(chunk, True))
                i += len(chunk)
        return make_word(parts, text)


def _tilde(parts: list[Part]) -> list[Part]:
    """A leading unquoted ``~`` or ``~user`` (up to a ``/``) becomes a :class:`Tilde`."""
    if not parts or type(parts[0]) is not Lit or parts[0].quoted or not parts[0].text.startswith("~"):
        return parts
    text = parts[0].text
    user, slash, rest = text[1:].partition("/")
    if not slash and len(parts) > 1:
        return parts
    if user and not _NAME.fullmatch(user):
        return parts
    tail = [Lit(slash + rest, False)] if slash or rest else []
    return [Tilde(user), *tail, *parts[1:]]
