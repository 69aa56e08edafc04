"""The awk language of Android's ``/system/bin/awk`` (one-true-awk's ``awkgram.y``): text into a tree of tuples.

Supported: ``BEGIN``/``END``, pattern-action items (expressions, ``/regex/``, ranges ``a, b``),
statements (``{ }``, ``if``/``else``, ``while``, ``do``, ``for (;;)``, ``for (k in a)``,
``print``/``printf`` with ``>``/``>>`` to a file, ``next``, ``exit``, ``break``,
``continue``, ``delete``) and expressions (C's operators, ``^``, concatenation, ``~``/``!~``,
``in``, fields ``$n``, arrays ``a[k]``, the built-in functions). User-defined functions and
``getline`` are not: they fail with a message that says so.
"""

from __future__ import annotations

import re

from androidrl.virtual.shell.commands.toybox.sed import to_python


class AwkSyntaxError(Exception):
    """A program awk cannot parse (or a feature this awk lacks): the message, and the source line it is on."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


BUILTINS = {"length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "tolower", "toupper", "int",
            "sqrt", "exp", "log", "sin", "cos", "atan2", "rand", "srand", "system", "close", "fflush"}  # fmt: skip
KEYWORDS = {"BEGIN", "END", "if", "else", "while", "for", "do", "in", "print", "printf", "next", "exit", "break",
            "continue", "delete", "function", "func", "getline", "return", "nextfile"}  # fmt: skip
_TOKEN = re.compile(
    r"(?P<space>[ \t]+|\\\n|#[^\n]*)|(?P<newline>\n)|(?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
    r'|(?P<string>"(?:[^"\\\n]|\\.)*")|(?P<name>[A-Za-z_][A-Za-z0-9_]*)'
    r"|(?P<op>\+\+|--|\+=|-=|\*=|/=|%=|\^=|\*\*=|\*\*|==|!=|<=|>=|>>|&&|\|\||!~|[-+*/%^!<>=~?:,;()\[\]{}$|])"
)
_STRING_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "/": "/", "a": "\a", "b": "\b", "f": "\f",
                   "v": "\v"}  # fmt: skip


def _unescape(text: str) -> str:
    def one(match: re.Match) -> str:
        code = match.group(1)
        if code[0] in "01234567":
            return chr(int(code, 8))
        return _STRING_ESCAPES.get(code, "\\" + code)

    return re.sub(r"\\([0-7]{1,3}|.)", one, text, flags=re.S)


def tokenize(text: str) -> list[tuple[str, object, int]]:
    """(kind, value, line) tokens; ``/regex/`` is told from division by what came before it."""
    tokens: list[tuple[str, object, int]] = []
    i, line = 0, 1
    while i < len(text):
        if text[i] == "/" and (not tokens or _regex_may_follow(tokens[-1])):
            j, body = i + 1, []
            while j < len(text) and text[j] != "/":
                if text[j] == "\n":
                    raise AwkSyntaxError("newline in regular expression", line)
                if text[j] == "\\" and j + 1 < len(text):
                    body.append(text[j : j + 2] if text[j + 1] != "/" else "/")
                    j += 2
                    continue
                body.append(text[j])
                j += 1
            if j >= len(text):
                raise AwkSyntaxError("non-terminated regular expression", line)
            tokens.append(("regex", "".join(body), line))
            i = j + 1
            continue
        match = _TOKEN.match(text, i)
        if not match:
            raise AwkSyntaxError(f"unexpected character '{text[i]}'", line)
        kind = match.lastgroup
        value = match.group()
        i = match.end()
        if kind == "space":
            line += value.count("\n")
            continue
        if kind == "newline":
            line += 1
            tokens.append(("newline", "\n", line - 1))
        elif kind == "number":
            tokens.append(("number", float(value), line))
        elif kind == "string":
            tokens.append(("string", _unescape(value[1:-1]), line))
        elif kind == "name":
            tokens.append(("keyword" if value in KEYWORDS else "builtin" if value in BUILTINS else "name", value, line))
        else:
            tokens.append(("op", value, line))
    tokens.append(("eof", None, line))
    return tokens


def _regex_may_follow(token: tuple[str, object, int]) -> bool:
    kind, value, _ = token
    if kind in ("number", "string", "name", "builtin", "regex"):
        return False
    return not (kind == "op" and value in (")", "]", "$", "++", "--"))


def compile_regex(text: str) -> re.Pattern:
    """An awk (extended) regular expression as Python's."""
    return re.compile(to_python(text, extended=True))


class Parser:
    """Recursive descent over :func:`tokenize`'s tokens."""

    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.i = 0

    def peek(self, offset: int = 0) -> tuple[str, object, int]:
        return self.tokens[min(self.i + offset, len(self.tokens) - 1)]

    def at(self, value: object, kind: str | None = None) -> bool:
        token = self.peek()
        return token[1] == value and (kind is None or token[0] == kind) and token[0] != "string"

    def take(self) -> tuple[str, object, int]:
        token = self.peek()
        self.i += 1
        return token

    def expect(self, value: str) -> None:
        if not self.at(value):
            raise self.error()
        self.take()

    def error(self) -> AwkSyntaxError:
        return AwkSyntaxError("syntax error", self.peek()[2])

    def newlines(self) -> None:
        while self.peek()[0] == "newline" or self.at(";"):
            self.take()

    def skip_newlines(self) -> None:
        while self.peek()[0] == "newline":
            self.take()

    # ------------------------------------------------------------------ program

    def program(self) -> list[tuple]:
        items = []
        self.newlines()
        while self.peek()[0] != "eof":
            items.append(self.item())
            self.newlines()
        return items

    def item(self) -> tuple:
        token = self.peek()
        if token[1] in ("function", "func") and token[0] == "keyword":
            raise AwkSyntaxError("user-defined functions are not supported by this phone's awk", token[2])
        if token[1] in ("BEGIN", "END") and token[0] == "keyword":
            self.take()
            self.skip_newlines()
            return (token[1], self.block())
        if self.at("{"):
            return ("pattern", None, None, self.block())
        pattern = self.expr()
        end = None
        if self.at(","):
            self.take()
            self.skip_newlines()
            end = self.expr()
        action = self.block() if self.at("{") else None
        return ("range" if end is not None else "pattern", pattern, end, action)

    def block(self) -> tuple:
        self.expect("{")
        statements = []
        self.newlines()
        while not self.at("}"):
            statements.append(self.statement())
            self.newlines()
        self.take()
        return ("block", statements)

    def simple_end(self) -> None:
        if self.at(";") or self.peek()[0] == "newline":
            self.take()
        elif not (self.at("}") or self.peek()[0] == "eof"):
            raise self.error()

    def statement(self) -> tuple:
        token = self.peek()
        kind, value, line = token
        if self.at("{"):
            return self.block()
        if kind == "keyword":
            if value == "if":
                self.take()
                self.expect("(")
                cond = self.expr()
                self.expect(")")
                self.newlines()
                yes = self.statement()
                save = self.i
                self.newlines()
                if self.at("else", "keyword"):
                    self.take()
                    self.newlines()
                    return ("if", cond, yes, self.statement())
                self.i = save
                return ("if", cond, yes, None)
            if value == "while":
                self.take()
                self.expect("(")
                cond = self.expr()
                self.expect(")")
                if self.at(";"):
                    self.take()
                    return ("while", cond, ("block", []))
                self.newlines()
                return ("while", cond, self.statement())
            if value == "do":
                self.take()
                self.newlines()
                body = self.statement()
                self.newlines()
                if not self.at("while", "keyword"):
                    raise self.error()
                self.take()
                self.expect("(")
                cond = self.expr()
                self.expect(")")
                self.simple_end()
                return ("do", body, cond)
            if value == "for":
                return self.for_statement()
            if value in ("next", "break", "continue", "nextfile"):
                self.take()
                self.simple_end()
                return (value,)
            if value == "exit":
                self.take()
                code = None if self.at(";") or self.at("}") or self.peek()[0] in ("newline", "eof") else self.expr()
                self.simple_end()
                return ("exit", code)
            if value == "delete":
                self.take()
                name = self.take()
                if name[0] != "name":
                    raise self.error()
                keys = None
                if self.at("["):
                    self.take()
                    keys = self.expr_list("]")
                self.simple_end()
                return ("delete", name[1], keys)
            if value in ("print", "printf"):
                return self.print_statement()
            if value in ("getline", "return"):
                raise AwkSyntaxError(f"{value} is not supported by this phone's awk", line)
        if self.at(";"):
            self.take()
            return ("block", [])
        expression = self.expr()
        self.simple_end()
        return ("expr", expression)

    def for_statement(self) -> tuple:
        self.take()
        self.expect("(")
        if (
            self.peek()[0] == "name"
            and self.peek(1)[1] == "in"
            and self.peek(2)[0] == "name"
            and self.peek(3)[1] == ")"
        ):
            var = self.take()[1]
            self.take()
            array = self.take()[1]
            self.take()
            self.newlines()
            return ("forin", var, array, self.statement())
        init = None if self.at(";") else self.expr()
        self.expect(";")
        self.skip_newlines()
        cond = None if self.at(";") else self.expr()
        self.expect(";")
        self.skip_newlines()
        step = None if self.at(")") else self.expr()
        self.expect(")")
        if self.at(";"):
            self.take()
            return ("for", init, cond, step, ("block", []))
        self.newlines()
        return ("for", init, cond, step, self.statement())

    def print_statement(self) -> tuple:
        name = self.take()[1]
        args: list[tuple] = []
        if not (self.at(";") or self.at("}") or self.at(">") or self.at(">>") or self.at("|")
                or self.peek()[0] in ("newline", "eof")):  # fmt: skip
            if self.at("(") and self._grouped_list():
                self.take()
                args = self.expr_list(")")
            else:
                args = [self.expr(no_gt=True)]
                while self.at(","):
                    self.take()
                    self.skip_newlines()
                    args.append(self.expr(no_gt=True))
        redirect = None
        if self.at(">") or self.at(">>"):
            mode = self.take()[1]
            redirect = (mode, self.concat(no_gt=True))
        elif self.at("|"):
            raise AwkSyntaxError("print to a command is not supported by this phone's awk", self.peek()[2])
        self.simple_end()
        return (name, args, redirect)

    def _grouped_list(self) -> bool:
        """Whether ``(`` opens the whole argument list of print (``print (a, b) > f``)."""
        depth, j = 0, self.i
        while j < len(self.tokens):
            kind, value, _ = self.tokens[j]
            if kind == "op" and value in "([":
                depth += 1
            elif kind == "op" and value in ")]":
                depth -= 1
                if depth == 0:
                    nxt = self.tokens[j + 1]
                    return nxt[0] in ("newline", "eof") or nxt[1] in (";", "}", ">", ">>", "|")
            elif kind in ("newline", "eof"):
                return False
            j += 1
        return False

    def expr_list(self, end: str) -> list[tuple]:
        items = []
        self.skip_newlines()
        while not self.at(end):
            items.append(self.expr())
            self.skip_newlines()
            if self.at(","):
                self.take()
                self.skip_newlines()
            elif not self.at(end):
                raise self.error()
        self.take()
        return items

    # ------------------------------------------------------------------ expressions (lowest precedence first)

    def expr(self, no_gt: bool = False) -> tuple:
        left = self.ternary(no_gt)
        if self.peek()[0] == "op" and self.peek()[1] in ("=", "+=", "-=", "*=", "/=", "%=", "^=", "**="):
            if left[0] not in ("var", "field", "index"):
                raise self.error()
            op = self.take()[1]
            self.skip_newlines()
            return ("assign", op.replace("**", "^"), left, self.expr(no_gt))
        return left

    def ternary(self, no_gt: bool) -> tuple:
        cond = self.logical_or(no_gt)
        if self.at("?"):
            self.take()
            self.skip_newlines()
            yes = self.expr(no_gt)
            self.skip_newlines()
            self.expect(":")
            self.skip_newlines()
            return ("cond", cond, yes, self.expr(no_gt))
        return cond

    def logical_or(self, no_gt: bool) -> tuple:
        left = self.logical_and(no_gt)
        while self.at("||"):
            self.take()
            self.skip_newlines()
            left = ("or", left, self.logical_and(no_gt))
        return left

    def logical_and(self, no_gt: bool) -> tuple:
        left = self.membership(no_gt)
        while self.at("&&"):
            self.take()
            self.skip_newlines()
            left = ("and", left, self.membership(no_gt))
        return left

    def membership(self, no_gt: bool) -> tuple:
        left = self.matching(no_gt)
        while self.at("in", "keyword"):
            self.take()
            name = self.take()
            if name[0] != "name":
                raise self.error()
            left = ("in", [left], name[1])
        return left

    def matching(self, no_gt: bool) -> tuple:
        left = self.comparison(no_gt)
        while self.at("~") or self.at("!~"):
            negate = self.take()[1] == "!~"
            left = ("match", negate, left, self.comparison(no_gt))
        return left

    def comparison(self, no_gt: bool) -> tuple:
        left = self.concat(no_gt)
        kind, value, _ = self.peek()
        if kind == "op" and (value in ("<", "<=", "==", "!=", ">=") or (value == ">" and not no_gt)):
            self.take()
            return ("cmp", value, left, self.concat(no_gt))
        return left

    def concat(self, no_gt: bool = False) -> tuple:
        left = self.additive()
        while self._starts_operand():
            left = ("concat", left, self.additive())
        return left

    def _starts_operand(self) -> bool:
        """Whether the next token starts an operand: two operands side by side are concatenated."""
        kind, value, _ = self.peek()
        if kind in ("number", "string", "regex", "name", "builtin"):
            return True
        return kind == "op" and value in ("$", "(", "!")

    def additive(self) -> tuple:
        left = self.multiplicative()
        while self.at("+") or self.at("-"):
            op = self.take()[1]
            left = ("bin", op, left, self.multiplicative())
        return left

    def multiplicative(self) -> tuple:
        left = self.unary()
        while self.at("*") or self.at("/") or self.at("%"):
            op = self.take()[1]
            left = ("bin", op, left, self.unary())
        return left

    def unary(self) -> tuple:
        if self.at("!"):
            self.take()
            return ("not", self.unary())
        if self.at("-") or self.at("+"):
            op = self.take()[1]
            return ("neg", self.unary()) if op == "-" else ("plus", self.unary())
        return self.power()

    def power(self) -> tuple:
        base = self.postfix()
        if self.at("^") or self.at("**"):
            self.take()
            return ("bin", "^", base, self.unary())
        return base

    def postfix(self) -> tuple:
        if self.at("++") or self.at("--"):
            op = self.take()[1]
            target = self.postfix()
            if target[0] not in ("var", "field", "index"):
                raise self.error()
            return ("preinc", op, target)
        primary = self.primary()
        if primary[0] in ("var", "field", "index") and (self.at("++") or self.at("--")):
            return ("postinc", self.take()[1], primary)
        return primary

    def primary(self) -> tuple:
        kind, value, line = self.take()
        if kind == "number":
            return ("num", value)
        if kind == "string":
            return ("str", value)
        if kind == "regex":
            return ("regex", compile_regex(value))
        if kind == "op" and value == "$":
            return ("field", self.postfix_field())
        if kind == "op" and value == "(":
            inner = self.expr()
            if self.at(","):  # (a, b) in array
                self.take()
                keys = [inner, *self.expr_list(")")]
                if not self.at("in", "keyword"):
                    raise self.error()
                self.take()
                return ("in", keys, self.take()[1])
            self.expect(")")
            return ("group", inner)
        if kind == "builtin":
            if value == "length" and not self.at("("):
                return ("call", "length", [])
            self.expect("(")
            return ("call", value, self.expr_list(")"))
        if kind == "name":
            if self.at("["):
                self.take()
                return ("index", value, self.expr_list("]"))
            return ("var", value)
        if kind == "keyword" and value == "getline":
            raise AwkSyntaxError("getline is not supported by this phone's awk", line)
        self.i -= 1
        raise self.error()

    def postfix_field(self) -> tuple:
        if self.at("++") or self.at("--") or self.at("-"):
            return self.unary()
        return self.primary()
