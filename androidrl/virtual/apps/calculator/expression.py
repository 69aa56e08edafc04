"""ExactCalculator's expression: what a key adds to it, its exact value, and how a result prints.

As packages/apps/ExactCalculator's CalculatorExpr and Evaluator (src/com/android/calculator2/):
keys append tokens — a binary operator after another replaces it, except a minus after × or ÷
(a negative operand); only a minus may start an expression; a second decimal point in a number
is ignored — and evaluation is exact (rationals here, as its BoundedRational when the value is
rational): trailing binary operators are ignored and open parentheses closed, ``%`` divides by
100, and division by zero is an error. A result prints as CalculatorResult formats it: digit
groups in the integer part, as many digits as fit, an exponent when the number is too long, and
``−`` for minus (KeyMaps.translateResult).
"""

from __future__ import annotations

from fractions import Fraction

#: The operators as the formula shows them (res/values/strings.xml op_add, op_sub, op_mul, op_div).
ADD, SUB, MUL, DIV = "+", "\u2212", "\u00d7", "\u00f7"
BINARY = (ADD, SUB, MUL, DIV)
#: What ``input text`` characters stand for (KeyMaps.keyForChar).
CHARACTERS = {"+": ADD, "-": SUB, "\u2212": SUB, "*": MUL, "\u00d7": MUL, "/": DIV, "\u00f7": DIV, "(": "(",
              ")": ")", "%": "%", ".": ".", ",": "."}  # fmt: skip


class CalcError(Exception):
    """An expression with no value: its message key (``error_zero_divide``, ``error_syntax``...)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def append(expr: str, key: str) -> str:
    """``expr`` after the key ``key`` (a digit, ``.``, an operator, ``(``, ``)`` or ``%``): CalculatorExpr.add."""
    last = expr[-1:] if expr else ""
    if key.isdigit():
        return expr + key
    if key == ".":
        number = ""
        for ch in reversed(expr):
            if not (ch.isdigit() or ch == "."):
                break
            number = ch + number
        return expr if "." in number else expr + "."
    if key in BINARY:
        if not expr:
            return SUB if key == SUB else expr  # only a minus may start an expression
        if last in BINARY:
            if key == SUB and last in (MUL, DIV):
                return expr + key  # a negative operand
            trimmed = expr
            while trimmed and trimmed[-1] in BINARY:
                trimmed = trimmed[:-1]
            return trimmed + key if trimmed else (SUB if key == SUB else "")
        if last == "(" and key != SUB:
            return expr
        return expr + key
    if key == "(":
        return expr + ("(" if not (last.isdigit() or last in ").%") else MUL + "(")
    if key == ")":
        if expr.count("(") <= expr.count(")") or last in BINARY or last == "(":
            return expr
        return expr + ")"
    if key == "%":
        return expr + "%" if last.isdigit() or last in ").%" else expr
    raise ValueError(f"not a calculator key: {key!r}")


def delete(expr: str) -> str:
    """The del key: the last token goes."""
    return expr[:-1]


def has_interesting_ops(expr: str) -> bool:
    """Whether the expression is more than a number (CalculatorExpr.hasInterestingOps): worth a result."""
    body = expr[1:] if expr.startswith(SUB) else expr
    return any(ch in body for ch in (*BINARY, "%", "(", ")"))


def evaluate(expr: str) -> Fraction:
    """The exact value: trailing binary operators ignored, open parentheses closed.

    Raises:
        CalcError: Division by zero (``error_zero_divide``) or a malformed expression (``error_syntax``).
    """
    while expr and expr[-1] in BINARY + ("(",):
        expr = expr[:-1]
    expr += ")" * max(0, expr.count("(") - expr.count(")"))
    parser = _Parser(expr)
    value = parser.sum()
    if parser.pos != len(expr):
        raise CalcError("error_syntax")
    return value


class _Parser:
    """A recursive-descent parser of the formula, by precedence.

    sum := product ((+|−) product)*; product := unary ((×|÷) unary)*; unary := −unary | postfix;
    postfix := primary %*; primary := number | ( sum ) — juxtaposition, as ``2(3)``, multiplies.
    """

    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def sum(self) -> Fraction:
        value = self.product()
        while self.peek() in (ADD, SUB) and self.peek():
            op = self.text[self.pos]
            self.pos += 1
            right = self.product()
            value = value + right if op == ADD else value - right
        return value

    def product(self) -> Fraction:
        value = self.unary()
        while self.peek() and (self.peek() in (MUL, DIV) or self.peek() == "("):
            op = self.text[self.pos] if self.peek() != "(" else MUL
            if self.peek() != "(":
                self.pos += 1
            right = self.unary()
            if op == DIV:
                if right == 0:
                    raise CalcError("error_zero_divide")
                value = value / right
            else:
                value = value * right
        return value

    def unary(self) -> Fraction:
        if self.peek() == SUB:
            self.pos += 1
            return -self.unary()
        value = self.primary()
        while self.peek() == "%":
            self.pos += 1
            value = value / 100
        return value

    def primary(self) -> Fraction:
        if self.peek() == "(":
            self.pos += 1
            value = self.sum()
            if self.peek() != ")":
                raise CalcError("error_syntax")
            self.pos += 1
            return value
        start = self.pos
        while self.peek() and (self.peek().isdigit() or self.peek() == "."):
            self.pos += 1
        number = self.text[start : self.pos]
        if not number or number == ".":
            raise CalcError("error_syntax")
        return Fraction(number if not number.endswith(".") else number[:-1] or "0")


def format_result(value: Fraction, max_digits: int = 12, decimal: str = ".", group: str = ",") -> str:
    """How CalculatorResult shows ``value`` in ``max_digits`` characters.

    An integer gets digit groups (``1,234,567``) when they fit, else an exponent (``1.23456789E15``);
    a fraction shows its exact decimals when they fit, else as many as fit (``0.33333333333``);
    tiny numbers get an exponent. A minus is ``−``.
    """
    sign = "\u2212" if value < 0 else ""
    value = abs(value)
    room = max_digits - len(sign)
    whole = value.numerator // value.denominator
    digits = str(whole)
    if value.denominator == 1:
        grouped = f"{whole:,}".replace(",", group)
        if len(grouped) <= room:
            return sign + grouped
        return sign + _scientific(value, room, decimal)
    if len(digits) > room - 2:
        return sign + _scientific(value, room, decimal)
    if whole == 0 and value < Fraction(1, 10**6):
        return sign + _scientific(value, room, decimal)
    places = room - len(digits) - 1
    scaled = value * 10**places
    exact = scaled.denominator == 1 or (scaled.numerator % scaled.denominator == 0)
    frac_digits = str(int(scaled) - whole * 10**places).rjust(places, "0")
    if exact:
        frac_digits = frac_digits.rstrip("0")
    text = f"{whole:,}".replace(",", group) if len(f"{whole:,}") + 1 + len(frac_digits) <= room else digits
    return sign + text + (decimal + frac_digits if frac_digits else "")


def _scientific(value: Fraction, room: int, decimal: str) -> str:
    """``d.dddE±n`` in ``room`` characters (CalculatorResult's type 1 exponent)."""
    exponent = 0
    mantissa = value
    while mantissa >= 10:
        mantissa /= 10
        exponent += 1
    while mantissa < 1:
        mantissa *= 10
        exponent -= 1
    tail = "E" + ("\u2212" if exponent < 0 else "") + str(abs(exponent))
    places = max(1, room - len(tail) - 2)
    scaled = int(mantissa * 10**places)
    text = str(scaled)
    fraction = text[1:].rstrip("0")
    return text[0] + (decimal + fraction if fraction else "") + tail
