"""``test``, ``[`` and ``[[ ]]`` (mksh's ``c_test``, ``test_parse``): conditions on strings, numbers and files.

One grammar serves both: ``!``, ``(``/``)``, ``-a``/``-o`` (``&&``/``||`` in ``[[``), unary
file and string tests, binary comparisons. Numbers are compared after arithmetic evaluation,
as mksh does (``[ x -eq 0 ]`` is true for an unset ``x``). In ``[[``, the right side of
``=``/``==``/``!=`` is a pattern and words are neither split nor globbed. A malformed
expression prints mksh's message (``test: foo: unexpected operator/operand``) and gives 2.
"""

from __future__ import annotations

import stat

from androidrl.virtual.shell import expansion, patterns
from androidrl.virtual.shell.control import ShellError
from androidrl.virtual.shell.tree import Word

UNARY = frozenset(
    [
        "-a",
        "-b",
        "-c",
        "-d",
        "-e",
        "-f",
        "-G",
        "-g",
        "-H",
        "-h",
        "-k",
        "-L",
        "-n",
        "-O",
        "-o",
        "-p",
        "-r",
        "-S",
        "-s",
        "-t",
        "-u",
        "-v",
        "-w",
        "-x",
        "-z",
    ]
)
BINARY = frozenset(["=", "==", "!=", "<", ">", "-eq", "-ne", "-gt", "-ge", "-lt", "-le", "-ef", "-nt", "-ot"])
ERROR = 2


class TestError(Exception):
    """A malformed expression: mksh's message (the operand it is about first, if any)."""


class _Parser:
    """mksh's ``test_parse`` over a list of arguments (``dbracket``: ``[[``'s rules)."""

    def __init__(self, sh, args: list, dbracket: bool) -> None:
        self.sh, self.args, self.i, self.dbracket = sh, args, 0, dbracket
        # what each argument says as an operator (a word of [[ only when written plainly)
        self.texts = [a if isinstance(a, str) else a.bare for a in args]

    def at(self, *tokens: str) -> bool:
        if self.i < len(self.args) and self.texts[self.i] in tokens:
            self.i += 1
            return True
        return False

    def fail(self, message: str, offset: int = 0) -> TestError:
        index = self.i + offset
        if not 0 <= index < len(self.args):
            return TestError(message)
        item = self.args[index]
        return TestError(f"{item if isinstance(item, str) else item.text}: {message}")

    def parse(self) -> bool:
        result = self.or_expr(True)
        if self.i < len(self.args):
            raise self.fail("unexpected operator/operand")
        return result

    def or_expr(self, live: bool) -> bool:
        result = self.and_expr(live)
        if self.at("||" if self.dbracket else "-o"):
            other = self.or_expr(live and not result)
            return result or other
        return result

    def and_expr(self, live: bool) -> bool:
        result = self.not_expr(live)
        if self.at("&&" if self.dbracket else "-a"):
            other = self.and_expr(live and result)
            return result and other
        return result

    def not_expr(self, live: bool) -> bool:
        if self.at("!"):
            return not self.not_expr(live)
        return self.primary(live)

    def primary(self, live: bool) -> bool:
        if self.at("("):
            result = self.or_expr(live)
            if not self.at(")"):
                raise self.fail("missing )")
            return result
        args, texts = self.args, self.texts
        # a unary operator, unless what follows is a binary one (``test -f = -f``), as mksh decides
        followed = self.i + 1 < len(args) and texts[self.i + 1] not in BINARY
        if self.i < len(args) and texts[self.i] in UNARY and (self.dbracket or followed):
            op = texts[self.i]
            self.i += 1
            if self.i >= len(args):
                raise self.fail("argument expected", -1)
            operand = self.operand(op)
            return unary(self.sh, op, operand) if live else False
        if self.i >= len(args):
            raise self.fail("expression expected")
        left = self.operand(None)
        if self.i < len(args) and texts[self.i] in BINARY:
            op = texts[self.i]
            self.i += 1
            if self.i >= len(args):
                raise self.fail("missing second argument", -1)
            right = self.operand(op)
            return binary(self.sh, op, left, right) if live else False
        return left != ""

    def operand(self, op: str | None) -> str:
        item = self.args[self.i]
        self.i += 1
        if not self.dbracket:
            return item
        if isinstance(item, str):  # an operator where an operand was expected: the word itself
            return item
        if op in ("=", "==", "!="):
            return _Pattern(expansion.pattern(self.sh, item))
        return expansion.string(self.sh, item)


class _Pattern(str):
    """The right side of ``[[ a == pattern ]]``."""


def unary(sh, op: str, operand: str) -> bool:
    """A unary test: ``-n``, ``-z``, a file test on the phone, ``-v`` (a variable is set), ``-o`` (an option)."""
    if op == "-n":
        return operand != ""
    if op == "-z":
        return operand == ""
    if op == "-v":
        return sh.lookup(operand) is not None
    if op == "-o":
        return operand in sh.options
    if op == "-t":
        return False  # no terminal
    fs = sh.phone.fs
    path = sh.path(operand) if operand else ""
    if not operand or not fs.exists(path):
        return False
    mode = fs.stat(path).mode
    checks = {
        "-e": lambda: True, "-a": lambda: True, "-f": lambda: stat.S_ISREG(mode), "-d": lambda: stat.S_ISDIR(mode),
        "-c": lambda: stat.S_ISCHR(mode), "-b": lambda: stat.S_ISBLK(mode), "-p": lambda: stat.S_ISFIFO(mode),
        "-S": lambda: stat.S_ISSOCK(mode), "-h": lambda: stat.S_ISLNK(mode), "-L": lambda: stat.S_ISLNK(mode),
        "-s": lambda: fs.stat(path).size > 0, "-r": lambda: True, "-w": lambda: fs.writable(path),
        "-x": lambda: bool(mode & 0o111), "-u": lambda: bool(mode & stat.S_ISUID),
        "-g": lambda: bool(mode & stat.S_ISGID), "-k": lambda: bool(mode & stat.S_ISVTX),
        "-O": lambda: True, "-G": lambda: True, "-H": lambda: False,
    }  # fmt: skip
    return checks[op]()


def binary(sh, op: str, left: str, right: str) -> bool:
    """A binary test: strings (``=``, ``!=``, ``<``, ``>``), numbers (``-eq``...), files (``-nt``, ``-ot``, ``-ef``)."""
    if op in ("=", "==", "!="):
        same = patterns.matches(right, left) if isinstance(right, _Pattern) else left == right
        return same != (op == "!=")
    if op == "<":
        return left < right
    if op == ">":
        return left > right
    if op.startswith("-") and op[1:] in ("eq", "ne", "gt", "ge", "lt", "le"):
        a, b = sh.arithmetic(left), sh.arithmetic(right)
        return {"eq": a == b, "ne": a != b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b}[op[1:]]
    fs = sh.phone.fs
    a, b = sh.path(left), sh.path(right)
    if op == "-ef":
        return fs.exists(a) and a == b
    if op == "-nt":
        return fs.exists(a) and (not fs.exists(b) or fs.stat(a).mtime > fs.stat(b).mtime)
    return fs.exists(b) and (not fs.exists(a) or fs.stat(a).mtime < fs.stat(b).mtime)  # -ot


def test(sh, args: list[str]) -> bool:
    """``test ARGS``, with mksh's (POSIX's) special cases for up to four arguments.

    Raises:
        TestError: A malformed expression.
        ShellError: A bad number in an integer comparison.
    """
    n = len(args)
    if n == 0:
        return False
    if n == 1:
        return args[0] != ""
    if n == 2:
        if args[0] == "!":
            return args[1] == ""
        if args[0] in UNARY:
            return unary(sh, args[0], args[1])
    if n == 3:
        if args[1] in BINARY:
            return binary(sh, args[1], args[0], args[2])
        if args[1] in ("-a", "-o"):
            a, b = args[0] != "", args[2] != ""
            return (a and b) if args[1] == "-a" else (a or b)
        if args[0] == "!":
            return not test(sh, args[1:])
        if args[0] == "(" and args[2] == ")":
            return args[1] != ""
    if n == 4 and args[0] == "!":
        return not test(sh, args[1:])
    if n == 4 and args[0] == "(" and args[3] == ")":
        return test(sh, args[1:3])
    return _Parser(sh, args, dbracket=False).parse()


def double_bracket(sh, items: tuple[Word | str, ...]) -> int:
    """The status of ``[[ items ]]``: 0 true, 1 false, 2 (with mksh's message) malformed."""
    try:
        return 0 if _Parser(sh, list(items), dbracket=True).parse() else 1
    except TestError as error:
        sh.error(f"[[: {error}")
        return ERROR
    except ShellError as error:
        sh.error(error.message)
        return ERROR
