"""The shell's arithmetic (mksh's ``expr.c``): ``$((...))``, ``((...))`` and ``let``, on 32-bit signed integers.

C's operators and precedence (``, = += -= *= /= %= <<= >>= &= ^= |= ?: || && | ^ & == != < <=
> >= << >> + - * / % ! ~ ++ --`` and parentheses); numbers in decimal (leading zeros too, as
mksh outside POSIX mode), ``0x`` hex and ``base#digits``; a variable's value is read as an
expression of its own (unset or empty: 0). Results wrap around at 32 bits, as mksh's
``mksh_ari_t`` does. Errors are mksh's: ``1+: unexpected 'end of expression'``,
``1/0: zero divisor``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from androidrl.virtual.shell.control import ShellError

_TOKEN = re.compile(
    r"\s*(?:(?P<num>[0-9][0-9A-Za-z_#@]*)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op><<=|>>=|\+\+|--|==|!=|<=|>=|&&|\|\||<<|>>|[-+*/%&^|]=|[-+*/%<>=!~&^|?:(),]))"
)
_BINARY = {
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
    "<": 7, "<=": 7, ">": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}  # fmt: skip
_ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="}
MAX_DEPTH = 32


def wrap(value: int) -> int:
    """``value`` as a 32-bit signed integer."""
    value &= 0xFFFFFFFF
    return value - 0x100000000 if value & 0x80000000 else value


def parse_number(text: str) -> int | None:
    """A number as mksh reads it (``12``, ``012`` = 12, ``0x1f``, ``2#101``); None when ``text`` is not one."""
    text = text.strip()
    sign = -1 if text.startswith("-") else 1
    body = text[1:] if text[:1] in "+-" else text
    try:
        if re.fullmatch(r"[0-9]+", body):
            return wrap(sign * int(body, 10))
        if re.fullmatch(r"0[xX][0-9A-Fa-f]+", body):
            return wrap(sign * int(body, 16))
        base, hash_, digits = body.partition("#")
        if hash_ and base.isdigit() and 2 <= int(base) <= 36 and digits:
            return wrap(sign * int(digits, int(base)))
    except ValueError:
        return None
    return None


class Evaluator:
    """Evaluate one expression.

    Args:
        get: A variable's value (None when unset).
        set: Assign a variable (its value as a decimal string).
        depth: How deep in variables whose values are expressions this evaluation is.
    """

    def __init__(self, get: Callable[[str], str | None], set: Callable[[str, str], None], depth: int = 0) -> None:
        self.get, self.set, self.depth = get, set, depth

    def evaluate(self, expression: str) -> int:
        """The value of ``expression`` (empty: 0).

        Raises:
            ShellError: mksh's message for a bad expression, a bad number or a zero divisor.
        """
        self.expression = expression
        self.tokens = self._tokenize(expression)
        self.i = 0
        if not self.tokens:
            return 0
        value = self._comma(True)
        if self.i < len(self.tokens):
            self._unexpected()
        return value

    def _tokenize(self, text: str) -> list[tuple[str, str]]:
        tokens, i = [], 0
        while i < len(text):
            match = _TOKEN.match(text, i)
            if not match or match.end() == i:
                if text[i:].strip() == "":
                    break
                raise ShellError(f"{self.expression}: unexpected '{text[i:].strip()[0]}'")
            kind = match.lastgroup
            tokens.append((kind, match.group(kind)))
            i = match.end()
        return tokens

    # ------------------------------------------------------------------ tokens

    def _peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def _at(self, op: str) -> bool:
        token = self._peek()
        return token is not None and token[0] == "op" and token[1] == op

    def _expect(self, op: str, missing: str) -> None:
        if not self._at(op):
            raise ShellError(f"{self.expression}: {missing}")
        self.i += 1

    def _unexpected(self) -> None:
        token = self._peek()
        raise ShellError(f"{self.expression}: unexpected '{token[1] if token else 'end of expression'}'")

    # ------------------------------------------------------------------ grammar (``live`` False: not evaluated)

    def _comma(self, live: bool) -> int:
        value = self._assignment(live)
        while self._at(","):
            self.i += 1
            value = self._assignment(live)
        return value

    def _assignment(self, live: bool) -> int:
        token = self._peek()
        following = self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else None
        if token and token[0] == "name" and following and following[0] == "op" and following[1] in _ASSIGN:
            self.i += 2
            value = self._assignment(live)
            if not live:
                return 0
            op = following[1]
            if op != "=":
                value = self._apply(op[:-1], self._variable(token[1]), value)
            value = wrap(value)
            self.set(token[1], str(value))
            return value
        return self._conditional(live)

    def _conditional(self, live: bool) -> int:
        cond = self._binary(1, live)
        if not self._at("?"):
            return cond
        self.i += 1
        yes = self._assignment(live and cond != 0)
        self._expect(":", "missing :")
        no = self._assignment(live and cond == 0)
        return yes if cond else no

    def _binary(self, level: int, live: bool) -> int:
        if level > 10:
            return self._unary(live)
        left = self._binary(level + 1, live)
        while True:
            token = self._peek()
            if not token or token[0] != "op" or _BINARY.get(token[1]) != level:
                return left
            op = token[1]
            self.i += 1
            if op in ("&&", "||"):
                right_live = live and (left != 0 if op == "&&" else left == 0)
                right = self._binary(level + 1, right_live)
                left = int(left != 0 and right != 0) if op == "&&" else int(left != 0 or right != 0)
            else:
                right = self._binary(level + 1, live)
                left = self._apply(op, left, right) if live else 0

    def _apply(self, op: str, a: int, b: int) -> int:
        if op in ("/", "%"):
            if b == 0:
                raise ShellError(f"{self.expression}: zero divisor")
            quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)  # C: toward zero
            return wrap(quotient if op == "/" else a - quotient * b)
        result = {
            "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
            "<<": lambda: a << (b & 31), ">>": lambda: a >> (b & 31),
            "&": lambda: a & b, "|": lambda: a | b, "^": lambda: a ^ b,
            "==": lambda: int(a == b), "!=": lambda: int(a != b), "<": lambda: int(a < b),
            "<=": lambda: int(a <= b), ">": lambda: int(a > b), ">=": lambda: int(a >= b),
        }[op]()  # fmt: skip
        return wrap(result)

    def _unary(self, live: bool) -> int:
        token = self._peek()
        if token is None:
            self._unexpected()
        kind, text = token
        if kind == "op" and text in ("++", "--"):
            self.i += 1
            name = self._peek()
            if not name or name[0] != "name":
                raise ShellError(f"{self.expression}: {text} requires lvalue")
            self.i += 1
            value = wrap(self._variable(name[1]) + (1 if text == "++" else -1)) if live else 0
            if live:
                self.set(name[1], str(value))
            return value
        if kind == "op" and text in ("-", "+", "!", "~"):
            self.i += 1
            value = self._unary(live)
            return {"-": lambda: wrap(-value), "+": lambda: value, "!": lambda: int(value == 0), "~": lambda: ~value}[
                text
            ]()
        return self._postfix(live)

    def _postfix(self, live: bool) -> int:
        kind, text = self._peek()
        if kind == "op" and text == "(":
            self.i += 1
            value = self._comma(live)
            self._expect(")", "missing )")
            return value
        if kind == "num":
            self.i += 1
            value = parse_number(text)
            if value is None:
                raise ShellError(f"{self.expression}: bad number '{text}'")
            return value
        if kind == "name":
            self.i += 1
            if self._at("++") or self._at("--"):
                op = self.tokens[self.i][1]
                self.i += 1
                old = self._variable(text) if live else 0
                if live:
                    self.set(text, str(wrap(old + (1 if op == "++" else -1))))
                return old
            return self._variable(text) if live else 0
        self._unexpected()
        return 0

    def _variable(self, name: str) -> int:
        value = self.get(name)
        if value is None or value.strip() == "":
            return 0
        number = parse_number(value)
        if number is not None:
            return number
        if self.depth >= MAX_DEPTH:
            raise ShellError(f"{self.expression}: expression recurses on parameter '{name}'")
        return Evaluator(self.get, self.set, self.depth + 1).evaluate(value)
