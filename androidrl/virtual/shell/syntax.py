"""The shell's grammar (mksh's ``syn.c``): tokens into the commands of :mod:`~androidrl.virtual.shell.tree`.

The grammar is the one Android's ``/system/bin/sh`` (MirBSD mksh R59c) parses: lists with
``;``, ``&``, ``&&``, ``||`` and newlines; pipelines, ``!``; simple commands with assignments
and redirections (here-documents too); ``( )`` and ``{ }``; ``if``/``elif``/``else``,
``while``, ``until``, ``for``, ``case`` (``;;``, ``;&``, ``;|``); functions (``name()`` and
``function name``); ``(( ))`` and ``[[ ]]``. Reserved words count only where a command starts.
As mksh, a program is parsed one complete command (one line, or the lines a compound command
spans) at a time: a syntax error stops the program there, after the commands before it ran.
Errors are mksh's: ``syntax error: 'fi' unexpected``, ``syntax error: 'if' unmatched``.
"""

from __future__ import annotations

import functools
import re

from androidrl.virtual.shell.lexer import Lexer, ShellSyntaxError, Token, make_word
from androidrl.virtual.shell.tree import (
    AndOr,
    Arith,
    Case,
    CaseItem,
    DoubleBracket,
    For,
    FunctionDef,
    Group,
    HereDoc,
    If,
    Lit,
    Loop,
    Node,
    Pipeline,
    Redirect,
    Redirected,
    Sequence,
    Simple,
    Subshell,
    Word,
)

__all__ = ["Program", "ShellSyntaxError", "incomplete", "parse"]

#: Words that are reserved where a command starts.
RESERVED = frozenset(
    {"if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "do", "done", "in", "function",
     "{", "}", "!", "[[", "select", "time"}
)  # fmt: skip
_ENDS = frozenset({"then", "else", "elif", "fi", "do", "done", "esac", "}", "in"})
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BAD_FUNCTION_NAME = re.compile(r"[\s\"$&'();<=>\\`|#*?\[\]]")
_EMPTY = Sequence(())
_COLON = Simple((), (make_word([Lit(":", False)], ":"),), (), 1)

#: The longest line whose parse is kept for the next time it runs (an agent's step and a task's checks are shorter;
#: a reset's batch of inserts, different every episode, is longer).
CACHED_LENGTH = 1024

#: A parsed program: its complete commands in order, and the syntax error that ends it (if any).
Program = tuple[tuple[Node, ...], ShellSyntaxError | None]


# A line that is plain commands joined by `;` (no quotes, groups, comments or reserved words): its parts are parsed
# (and cached) one by one, so that a line that differs from the last one in one command is mostly parsed already
# (an agent's step: `input tap X Y >&2 || exit $?; screencap; ...`).
_SPLITTABLE = re.compile(r"[^'\"\\`(){}\n#]*;[^'\"\\`(){}\n#]*")
_KEYWORD = re.compile(r"(?:^|[;&|\s])(?:if|then|else|elif|fi|case|esac|for|while|until|do|done|in|function|select|time"
                      r"|\[\[|\]\]|!)(?=$|[;&|\s])")  # fmt: skip


def parse(src: str) -> Program:
    """Parse ``src`` into complete commands, up to the first syntax error (cached: nodes are immutable)."""
    if len(src) > CACHED_LENGTH:  # (a long line is rarely run again: kept, its nodes would only burden the memory)
        return parse_text.__wrapped__(src)
    if _SPLITTABLE.fullmatch(src) and not _KEYWORD.search(src):
        pieces = src.split(";")
        if all(piece.strip() for piece in pieces[:-1]):
            commands: list[Node] = []
            for piece in pieces:
                parsed, error = parse_text(piece)
                commands += parsed
                if error is not None:
                    return tuple(commands), error
            return tuple(commands), None
    return parse_text(src)


@functools.lru_cache(maxsize=1024)
def parse_text(src: str, first_line: int = 1) -> Program:
    """Parse all of ``src`` (see :func:`parse`)."""
    lexer = Lexer(src, _subparse, first_line)
    parser = Parser(lexer)
    commands: list[Node] = []
    try:
        while True:
            command = parser.complete_command()
            if command is None:
                return tuple(commands), None
            if command.items:
                commands.append(command)
    except ShellSyntaxError as error:
        return tuple(commands), error


def incomplete(src: str) -> bool:
    """Whether ``src`` ends inside a command more lines could finish (an open ``if``, quote or here-document)."""
    error = parse(src)[1]
    return error is not None and error.at_end


def _subparse(lexer: Lexer, start: int) -> tuple[tuple[Node, ...], int]:
    """The commands of ``$(`` (from ``lexer.src[start]`` to its ``)``), or of a whole backquoted text (``start`` -1)."""
    parser = Parser(lexer)
    if start < 0:
        commands = []
        while (command := parser.complete_command()) is not None:
            if command.items:
                commands.append(command)
        return tuple(commands), len(lexer.src)
    lexer.pos = start
    parser.nesting = ("(", lexer.line_at(start))
    body = parser.compound_list()
    parser.must(")")
    return (body,), lexer.pos


class Parser:
    """A recursive-descent parser over a :class:`Lexer`, one token of look-ahead (mksh's ``REJECT``)."""

    def __init__(self, lexer: Lexer) -> None:
        self.lexer = lexer
        self.ahead: Token | None = None
        self.nesting: tuple[str, int] | None = None  # the open construct an end of input leaves unmatched

    # ------------------------------------------------------------------ tokens

    def peek(self) -> Token:
        if self.ahead is None:
            self.ahead = self.lexer.next_token()
        return self.ahead

    def take(self) -> Token:
        token = self.peek()
        self.ahead = None
        return token

    def at_op(self, *ops: str) -> bool:
        token = self.peek()
        return token.kind == "op" and token.value in ops

    def at_word(self, *words: str) -> bool:
        token = self.peek()
        return token.kind == "word" and token.word.bare in words

    def skip_newlines(self) -> None:
        while self.at_op("\n"):
            self.take()

    def must(self, value: str) -> Token:
        """Take the operator or reserved word ``value``, or fail with mksh's syntax error."""
        token = self.take()
        if (token.kind == "op" and token.value == value) or (token.kind == "word" and token.word.bare == value):
            return token
        raise self.error(token)

    def error(self, token: Token) -> ShellSyntaxError:
        """The syntax error for ``token`` (mksh's ``syntaxerr``): unexpected, or at the end of input unmatched."""
        if token.kind == "eof":
            if self.nesting:
                return ShellSyntaxError(f"syntax error: '{self.nesting[0]}' unmatched", self.nesting[1], at_end=True)
            return ShellSyntaxError("syntax error: unexpected EOF", token.line, at_end=True)
        if token.kind == "word":
            what = token.word.text
        elif token.kind == "redir":
            what = (str(token.fd) if token.fd >= 0 else "") + token.value
        elif token.value == "\n":
            what = "newline"
        else:
            what = token.value
        return ShellSyntaxError(f"syntax error: '{what}' unexpected", token.line)

    def nested(self, opener: str, line: int) -> tuple[str, int] | None:
        saved, self.nesting = self.nesting, (opener, line)
        return saved

    # ------------------------------------------------------------------ lists

    def complete_command(self) -> Sequence | None:
        """One line's list (mksh's ``yyparse``); None at the end of input."""
        self.skip_newlines()
        if self.peek().kind == "eof":
            return None
        body = self.list(multi=False)
        token = self.take()
        if token.kind == "eof" or (token.kind == "op" and token.value == "\n"):
            return body or _EMPTY
        raise self.error(token)

    def compound_list(self) -> Sequence:
        """A list that may span lines (inside a compound command)."""
        return self.list(multi=True) or _EMPTY

    def list(self, multi: bool) -> Sequence | None:
        items: list[tuple[AndOr, bool]] = []
        while True:
            item = self.and_or()
            token = self.peek()
            if multi and token.kind == "op" and token.value == "\n":
                self.take()
                if item is not None:
                    items.append((item, False))
                continue
            if item is None:
                break
            if token.kind == "op" and token.value in ("&", ";"):
                self.take()
                items.append((item, token.value == "&"))
                continue
            items.append((item, False))
            break
        return Sequence(tuple(items)) if items else None

    def and_or(self) -> AndOr | None:
        first = self.pipeline()
        if first is None:
            return None
        rest = []
        while self.at_op("&&", "||"):
            op = self.take().value
            self.skip_newlines()
            pipeline = self.pipeline()
            if pipeline is None:
                raise self.error(self.peek())
            rest.append((op, pipeline))
        return AndOr(first, tuple(rest))

    def pipeline(self) -> Pipeline | None:
        negate = False
        while self.at_word("!"):
            self.take()
            negate = not negate
        command = self.command()
        if command is None:
            if negate:
                raise self.error(self.peek())
            return None
        commands = [command]
        while self.at_op("|"):
            self.take()
            self.skip_newlines()
            command = self.command()
            if command is None:
                raise self.error(self.peek())
            commands.append(command)
        if self.at_op("|&"):
            raise ShellSyntaxError("syntax error: '|&' unexpected (co-processes are not supported)", self.peek().line)
        return Pipeline(tuple(commands), negate)

    # ------------------------------------------------------------------ commands

    def command(self) -> Node | None:
        token = self.peek()
        if token.kind == "word":
            keyword = token.word.bare
            if keyword in _ENDS:
                return None
            compound = {
                "if": self.if_command,
                "while": self.loop,
                "until": self.loop,
                "for": self.for_command,
                "case": self.case_command,
                "{": self.group,
                "function": self.function,
                "[[": self.double_bracket,
            }.get(keyword)
            if compound is None:
                return self.simple()
            node = compound()
        elif token.kind == "redir":
            return self.simple()
        elif token.kind == "op" and token.value == "(":
            node = self.subshell()
        elif token.kind == "arith":
            self.take()
            node = Arith(token.word, token.line)
        else:
            return None
        redirects = self.redirects()
        return Redirected(node, redirects) if redirects else node

    def redirects(self) -> tuple[Redirect, ...]:
        found: list[Redirect] = []
        while self.peek().kind == "redir":
            found += self.redirect(self.take())
        return tuple(found)

    def redirect(self, token: Token) -> list[Redirect]:
        op, fd = token.value, token.fd
        target = self.take()
        if target.kind != "word":
            raise self.error(target)
        if op in ("<<", "<<-"):
            word = target.word
            delimiter = "".join(p.text for p in word.parts if type(p) is Lit) if all(
                type(p) is Lit for p in word.parts
            ) else word.text  # fmt: skip
            doc = HereDoc(delimiter, expand=word.bare is not None, strip_tabs=op == "<<-")
            self.lexer.pending.append(doc)
            return [Redirect(0 if fd < 0 else fd, op, None, doc)]
        if op == "&>":
            return [Redirect(1, ">", target.word), Redirect(2, ">&", make_word([Lit("1", False)], "1"))]
        default = 0 if op in ("<", "<&", "<>", "<<<") else 1
        return [Redirect(default if fd < 0 else fd, op, target.word)]

    def simple(self) -> Node:
        line = self.peek().line
        assigns: list[tuple[str, Word, bool]] = []
        words: list[Word] = []
        redirects: list[Redirect] = []
        while True:
            token = self.peek()
            if token.kind == "redir":
                redirects += self.redirect(self.take())
            elif token.kind == "word":
                self.take()
                assignment = _ASSIGNMENT.match(token.word.text) if not words else None
                if assignment and _is_assignment(token.word, assignment.end()):
                    assigns.append(
                        (assignment.group(1), _value_word(token.word, assignment.end()), bool(assignment[2]))
                    )
                else:
                    words.append(token.word)
            elif token.kind == "op" and token.value == "(" and len(words) == 1 and not assigns and not redirects:
                self.take()
                self.must(")")
                return self.function_body(words[0].text, ksh=False)
            else:
                break
        return Simple(tuple(assigns), tuple(words), tuple(redirects), line)

    def function(self) -> Node:
        self.take()
        name = self.take()
        if name.kind != "word":
            raise self.error(name)
        ksh = True
        if self.at_op("("):
            self.take()
            self.must(")")
            ksh = False
        self.skip_newlines()
        if not self.at_word("{"):
            raise self.error(self.peek())
        return self.function_body(name.word.text, ksh)

    def function_body(self, name: str, ksh: bool) -> Node:
        if _BAD_FUNCTION_NAME.search(name):
            raise ShellSyntaxError(f"{name}: invalid function name", self.peek().line)
        self.skip_newlines()
        body = self.command()
        return FunctionDef(name, body if body is not None else _COLON, ksh)

    def subshell(self) -> Node:
        line = self.take().line
        saved = self.nested("(", line)
        body = self.compound_list()
        self.must(")")
        self.nesting = saved
        return Subshell(body)

    def group(self) -> Node:
        line = self.take().line
        saved = self.nested("{", line)
        body = self.compound_list()
        self.must("}")
        self.nesting = saved
        return Group(body)

    def if_command(self) -> Node:
        line = self.take().line
        saved = self.nested("if", line)
        clauses = []
        while True:
            cond = self.compound_list()
            self.must("then")
            body = self.list(multi=True)
            if body is None:
                raise self.error(self.peek())
            clauses.append((cond, body))
            token = self.take()
            if token.kind == "word" and token.word.bare == "elif":
                continue
            orelse = None
            if token.kind == "word" and token.word.bare == "else":
                orelse = self.list(multi=True)
                if orelse is None:
                    raise self.error(self.peek())
                token = self.take()
            if not (token.kind == "word" and token.word.bare == "fi"):
                raise self.error(token)
            self.nesting = saved
            return If(tuple(clauses), orelse)

    def loop(self) -> Node:
        token = self.take()
        saved = self.nested(token.word.bare, token.line)
        cond = self.compound_list()
        body = self.do_group()
        self.nesting = saved
        return Loop(cond, body, until=token.word.bare == "until")

    def do_group(self) -> Sequence:
        self.skip_newlines()
        token = self.take()
        if token.kind == "word" and token.word.bare in ("do", "{"):
            body = self.compound_list()
            self.must("done" if token.word.bare == "do" else "}")
            return body
        raise self.error(token)

    def for_command(self) -> Node:
        line = self.take().line
        name = self.take()
        if name.kind != "word" or not _NAME.fullmatch(name.word.text):
            raise ShellSyntaxError("for: bad identifier", name.line)
        saved = self.nested("for", line)
        self.skip_newlines()
        words = None
        if self.at_word("in"):
            self.take()
            found = []
            while self.peek().kind == "word":
                found.append(self.take().word)
            end = self.take()
            if not (end.kind == "op" and end.value in ("\n", ";")):
                raise self.error(end)
            words = tuple(found)
        elif self.at_op(";"):
            self.take()
        body = self.do_group()
        self.nesting = saved
        return For(name.word.text, words, body)

    def case_command(self) -> Node:
        line = self.take().line
        subject = self.take()
        if subject.kind != "word":
            raise self.error(subject)
        saved = self.nested("case", line)
        self.skip_newlines()
        opener = self.take()
        if not (opener.kind == "word" and opener.word.bare in ("in", "{")):
            raise self.error(opener)
        end = "esac" if opener.word.bare == "in" else "}"
        items = []
        while True:
            self.skip_newlines()
            if self.at_word(end):
                self.take()
                break
            items.append(self.case_item(end))
        self.nesting = saved
        return Case(subject.word, tuple(items))

    def case_item(self, end: str) -> CaseItem:
        if self.at_op("("):
            self.take()
        patterns = []
        while True:
            token = self.take()
            if token.kind != "word":
                raise self.error(token)
            patterns.append(token.word)
            if not self.at_op("|"):
                break
            self.take()
        self.must(")")
        body = self.list(multi=True)
        self.skip_newlines()
        terminator = ";;"
        if not self.at_word(end):
            token = self.take()
            if not (token.kind == "op" and token.value in (";;", ";&", ";|")):
                raise self.error(token)
            terminator = token.value
        return CaseItem(tuple(patterns), body, terminator)

    def double_bracket(self) -> Node:
        line = self.take().line
        items: list[Word | str] = []
        while True:
            token = self.take()
            if token.kind == "word":
                if token.word.bare == "]]":
                    break
                items.append(token.word)
            elif token.kind == "op" and token.value in ("&&", "||", "(", ")"):
                items.append(token.value)
            elif token.kind == "redir" and token.value in ("<", ">") and token.fd < 0:
                items.append(make_word([Lit(token.value, False)], token.value))
            else:
                raise self.error(token)
        return DoubleBracket(tuple(items), line)


def _is_assignment(word: Word, name_end: int) -> bool:
    """Whether ``NAME=`` opens the word unquoted (its first part is plain text holding the ``=``)."""
    first = word.parts[0] if word.parts else None
    return type(first) is Lit and not first.quoted and len(first.text) >= name_end


def _value_word(word: Word, name_end: int) -> Word:
    """The word after ``NAME=``."""
    first = word.parts[0]
    rest = first.text[name_end:]
    parts = ([Lit(rest, False)] if rest else []) + list(word.parts[1:])
    value = make_word(parts, word.text[name_end:])
    if not value.parts:
        return Word((Lit("", True),), "", None)
    return value
