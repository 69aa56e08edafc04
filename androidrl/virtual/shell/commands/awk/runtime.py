"""Running an awk program (one-true-awk's ``run.c``, ``lib.c``, ``tran.c``) over records.

Values are numbers (floats), strings, or "strnums" (fields, ``split`` pieces, ``-v`` values:
compared as numbers when they look like numbers, as POSIX says). Output is kept in order and
handed to the shell; ``print > FILE`` writes the phone's files.
"""

from __future__ import annotations

import math
import random
import re

from androidrl.virtual.shell.commands.awk.parser import compile_regex


class StrNum(str):
    """A string from the input: a number in comparisons when it looks like one."""


UNINIT = StrNum("")
_NUMBER = re.compile(r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_WHOLE_NUMBER = re.compile(r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*")
_FORMAT = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?([diouxXcseEfFgG%])")


class AwkError(Exception):
    """A run-time error (one-true-awk's ``FATAL``): its message."""


class Next(Exception):
    pass


class Exit(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class LoopBreak(Exception):
    pass


class LoopContinue(Exception):
    pass


def to_number(value) -> float:
    """A value as a number (awk's ``getfval``): the leading number of a string, 0 when none."""
    if isinstance(value, float):
        return value
    match = _NUMBER.match(value)
    return float(match.group()) if match else 0.0


def to_string(value, form: str = "%.6g") -> str:
    """A value as a string (awk's ``getsval``): whole numbers as integers, others with CONVFMT."""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e16:
            return str(int(value))
        return form % value
    return value


def is_numeric(value) -> bool:
    """Whether a value compares as a number: a number, an unset variable, or input that looks like a number."""
    return (
        isinstance(value, float)
        or value is UNINIT
        or (isinstance(value, StrNum) and bool(_WHOLE_NUMBER.fullmatch(value)))
    )


def truth(value) -> bool:
    """A value as a condition: a number not 0, or a string not empty."""
    return to_number(value) != 0 if is_numeric(value) else value != ""


def sprintf(form: str, args: list) -> str:
    """Format as awk's ``printf`` does: C's conversions, each value converted as its conversion needs."""
    out, position, index = [], 0, 0

    def next_arg():
        nonlocal index
        index += 1
        return args[index - 1] if index <= len(args) else UNINIT

    for match in _FORMAT.finditer(form):
        out.append(form[position : match.start()])
        position = match.end()
        flags, width, precision, kind = match.groups()
        if kind == "%":
            out.append("%")
            continue
        width = str(int(to_number(next_arg()))) if width == "*" else width or ""
        precision = str(int(to_number(next_arg()))) if precision == "*" else precision
        spec = "%" + flags + width + (f".{precision}" if precision is not None else "")
        value = next_arg()
        if kind == "c":
            text = chr(int(to_number(value))) if isinstance(value, float) else to_string(value)[:1]
            out.append((spec + "s") % text)
        elif kind == "s":
            out.append((spec + "s") % to_string(value))
        elif kind in "diouxX":
            number = int(to_number(value))
            out.append((spec + ("d" if kind in "iu" else kind)) % number)
        else:
            out.append((spec + kind) % to_number(value))
    out.append(form[position:])
    return "".join(out)


class Interpreter:
    """One run of a parsed program.

    Args:
        items: The program (from :class:`~androidrl.virtual.shell.commands.awk.parser.Parser`).
        write_file: ``write_file(path, data, append)`` for ``print > FILE``.
        system: Run a command line (``system(cmd)``); its exit status.
        environ: ``ENVIRON``.
    """

    def __init__(self, items: list[tuple], write_file, system, environ: dict[str, str]) -> None:
        self.items = items
        self.write_file, self.system = write_file, system
        self.out: list[str] = []
        self.vars: dict[str, object] = {"FS": " ", "OFS": " ", "ORS": "\n", "NR": 0.0, "FNR": 0.0, "SUBSEP": "\x1c",
                                        "RSTART": 0.0, "RLENGTH": -1.0, "FILENAME": "", "CONVFMT": "%.6g",
                                        "OFMT": "%.6g", "RS": "\n"}  # fmt: skip
        self.arrays: dict[str, dict[str, object]] = {"ENVIRON": {k: StrNum(v) for k, v in environ.items()}}
        self.record = ""
        self.fields: list[str] | None = []
        self.opened: set[str] = set()
        self.ranges: dict[int, bool] = {}
        self.random = random.Random(0)

    # ------------------------------------------------------------------ records and fields

    def set_record(self, text: str) -> None:
        self.record, self.fields = StrNum(text), None

    def split_fields(self, text: str, separator: str | None = None) -> list[str]:
        fs = to_string(self.vars["FS"]) if separator is None else separator
        if fs == " ":
            return text.split()
        if not text:
            return []
        if len(fs) == 1 and fs != "\\":
            return text.split(fs)
        return re.split(compile_regex(fs), text)

    def field_list(self) -> list[str]:
        if self.fields is None:
            self.fields = self.split_fields(self.record)
        return self.fields

    def get_field(self, index: int):
        if index < 0:
            raise AwkError(f"trying to access out of range field {index}")
        if index == 0:
            return self.record
        fields = self.field_list()
        return StrNum(fields[index - 1]) if index <= len(fields) else UNINIT

    def set_field(self, index: int, value) -> None:
        if index == 0:
            self.set_record(to_string(value))
            return
        fields = self.field_list()
        while len(fields) < index:
            fields.append("")
        fields[index - 1] = to_string(value)
        self.record = StrNum(to_string(self.vars["OFS"]).join(fields))

    # ------------------------------------------------------------------ variables

    def get_var(self, name: str):
        if name == "NF":
            return float(len(self.field_list()))
        return self.vars.get(name, UNINIT)

    def set_var(self, name: str, value) -> None:
        if name == "NF":
            count = int(to_number(value))
            fields = self.field_list()
            self.fields = (fields + [""] * count)[:count]
            self.record = StrNum(to_string(self.vars["OFS"]).join(self.fields))
            return
        if name in self.arrays:
            raise AwkError(f"can't assign to {name}; it's an array name.")
        self.vars[name] = value

    def key(self, keys: list[tuple]) -> str:
        return to_string(self.vars["SUBSEP"]).join(self.string(k) for k in keys)

    def array(self, name: str) -> dict[str, object]:
        if name in self.vars and self.vars[name] is not UNINIT:
            raise AwkError(f"can't use scalar {name} as array")
        return self.arrays.setdefault(name, {})

    def store(self, target: tuple, value) -> object:
        kind = target[0]
        if kind == "var":
            self.set_var(target[1], value)
        elif kind == "field":
            self.set_field(int(to_number(self.eval(target[1]))), value)
        else:
            self.array(target[1])[self.key(target[2])] = value
        return value

    # ------------------------------------------------------------------ expressions

    def string(self, node: tuple) -> str:
        return to_string(self.eval(node), to_string(self.vars["CONVFMT"]))

    def eval(self, node: tuple):
        kind = node[0]
        if kind == "num":
            return node[1]
        if kind == "str":
            return node[1]
        if kind == "group":
            return self.eval(node[1])
        if kind == "var":
            return self.get_var(node[1])
        if kind == "field":
            return self.get_field(int(to_number(self.eval(node[1]))))
        if kind == "index":
            return self.array(node[1]).setdefault(self.key(node[2]), UNINIT)
        if kind == "regex":
            return float(node[1].search(self.record) is not None)
        if kind == "assign":
            op, target, value = node[1], node[2], self.eval(node[3])
            if op != "=":
                value = self.arith(op[0], self.eval(target), value)
            return self.store(target, value)
        if kind == "cond":
            return self.eval(node[2]) if truth(self.eval(node[1])) else self.eval(node[3])
        if kind == "or":
            return float(truth(self.eval(node[1])) or truth(self.eval(node[2])))
        if kind == "and":
            return float(truth(self.eval(node[1])) and truth(self.eval(node[2])))
        if kind == "not":
            return float(not truth(self.eval(node[1])))
        if kind == "in":
            return float(self.key(node[1]) in self.array(node[2]))
        if kind == "match":
            pattern = node[3][1] if node[3][0] == "regex" else compile_regex(self.string(node[3]))
            found = pattern.search(self.string(node[2])) is not None
            return float(found != node[1])
        if kind == "cmp":
            return float(self.compare(node[1], self.eval(node[2]), self.eval(node[3])))
        if kind == "concat":
            return self.string(node[1]) + self.string(node[2])
        if kind == "bin":
            return self.arith(node[1], self.eval(node[2]), self.eval(node[3]))
        if kind == "neg":
            return -to_number(self.eval(node[1]))
        if kind == "plus":
            return to_number(self.eval(node[1]))
        if kind in ("preinc", "postinc"):
            old = to_number(self.eval(node[2]))
            new = old + (1 if node[1] == "++" else -1)
            self.store(node[2], new)
            return new if kind == "preinc" else old
        if kind == "call":
            return self.call(node[1], node[2])
        raise AwkError(f"unknown expression {kind}")

    def arith(self, op: str, a, b) -> float:
        x, y = to_number(a), to_number(b)
        if op in "/%" and y == 0:
            raise AwkError("division by zero" if op == "/" else "division by zero in %")
        if op == "+":
            return x + y
        if op == "-":
            return x - y
        if op == "*":
            return x * y
        if op == "/":
            return x / y
        if op == "%":
            return math.fmod(x, y)
        return x**y

    def compare(self, op: str, a, b) -> bool:
        if is_numeric(a) and is_numeric(b):
            x, y = to_number(a), to_number(b)
        else:
            form = to_string(self.vars["CONVFMT"])
            x, y = to_string(a, form), to_string(b, form)
        return {"<": x < y, "<=": x <= y, "==": x == y, "!=": x != y, ">": x > y, ">=": x >= y}[op]

    def call(self, name: str, args: list[tuple]):
        if name == "length":
            if not args:
                return float(len(self.record))
            if args[0][0] == "var" and args[0][1] in self.arrays:
                return float(len(self.arrays[args[0][1]]))
            return float(len(self.string(args[0])))
        if name in ("sub", "gsub"):
            return self.substitute(args, name == "gsub")
        if name == "split":
            pieces = self.split_fields(self.string(args[0]), self.string(args[2]) if len(args) > 2 else None)
            target = self.array(args[1][1])
            target.clear()
            target.update({str(i): StrNum(p) for i, p in enumerate(pieces, 1)})
            return float(len(pieces))
        values = [self.eval(a) for a in args]
        if name == "substr":
            text = to_string(values[0])
            start = round(to_number(values[1])) if len(values) > 1 else 1
            end = start + round(to_number(values[2])) if len(values) > 2 else len(text) + 1
            return text[max(start, 1) - 1 : max(end, 1) - 1]
        if name == "index":
            return float(to_string(values[0]).find(to_string(values[1])) + 1)
        if name == "match":
            pattern = args[1][1] if args[1][0] == "regex" else compile_regex(to_string(values[1]))
            found = pattern.search(to_string(values[0]))
            self.vars["RSTART"] = float(found.start() + 1) if found else 0.0
            self.vars["RLENGTH"] = float(found.end() - found.start()) if found else -1.0
            return self.vars["RSTART"]
        if name == "sprintf":
            return sprintf(to_string(values[0]), values[1:]) if values else ""
        if name in ("tolower", "toupper"):
            text = to_string(values[0]) if values else ""
            return text.lower() if name == "tolower" else text.upper()
        if name == "int":
            return float(math.trunc(to_number(values[0])))
        if name in ("sqrt", "exp", "log", "sin", "cos"):
            return float(getattr(math, name)(to_number(values[0])))
        if name == "atan2":
            return math.atan2(to_number(values[0]), to_number(values[1]))
        if name == "rand":
            return self.random.random()
        if name == "srand":
            self.random.seed(to_number(values[0]) if values else 0)
            return 0.0
        if name == "system":
            return float(self.system(to_string(values[0]), "".join(self.out)))
        return 0.0  # close, fflush

    def substitute(self, args: list[tuple], every: bool) -> float:
        pattern = args[0][1] if args[0][0] == "regex" else compile_regex(self.string(args[0]))
        replacement = self.string(args[1])
        target = args[2] if len(args) > 2 else ("field", ("num", 0.0))
        text = self.string(target)
        count = 0

        def replace(match: re.Match) -> str:
            nonlocal count
            count += 1
            return re.sub(r"\\(.)|&", lambda m: m.group(1) if m.group(1) else match.group(), replacement)

        result = pattern.sub(replace, text, count=0 if every else 1)
        if count:
            self.store(target, result)
        return float(count)

    # ------------------------------------------------------------------ statements

    def execute(self, node: tuple) -> None:
        kind = node[0]
        if kind == "block":
            for statement in node[1]:
                self.execute(statement)
        elif kind == "expr":
            self.eval(node[1])
        elif kind in ("print", "printf"):
            self.print(node)
        elif kind == "if":
            if truth(self.eval(node[1])):
                self.execute(node[2])
            elif node[3] is not None:
                self.execute(node[3])
        elif kind in ("while", "do", "for", "forin"):
            self.loop(node)
        elif kind == "next" or kind == "nextfile":
            raise Next
        elif kind == "exit":
            raise Exit(int(to_number(self.eval(node[1]))) if node[1] is not None else 0)
        elif kind == "break":
            raise LoopBreak
        elif kind == "continue":
            raise LoopContinue
        elif kind == "delete":
            if node[2] is None:
                self.array(node[1]).clear()
            else:
                self.array(node[1]).pop(self.key(node[2]), None)

    def loop(self, node: tuple) -> None:
        kind = node[0]
        if kind == "forin":
            items, body = list(self.array(node[2])), node[3]
        elif kind == "for" and node[1] is not None:
            self.eval(node[1])
        first = True
        while True:
            if kind == "forin":
                if not items:
                    return
                self.store(("var", node[1]), StrNum(items.pop(0)))
            elif (kind == "while" and not truth(self.eval(node[1]))) or (
                kind == "do" and not first and not truth(self.eval(node[2]))  # a do loop tests after its body
            ):
                return
            elif kind == "for":
                if not first and node[3] is not None:
                    self.eval(node[3])
                if node[2] is not None and not truth(self.eval(node[2])):
                    return
            first = False
            body = {"while": 2, "do": 1, "for": 4, "forin": 3}[kind]
            try:
                self.execute(node[body])
            except LoopBreak:
                return
            except LoopContinue:
                continue

    def print(self, node: tuple) -> None:
        name, args, redirect = node
        if name == "printf":
            if not args:
                raise AwkError("printf: no format")
            values = [self.eval(a) for a in args]
            text = sprintf(to_string(values[0]), values[1:])
        else:
            form = to_string(self.vars["OFMT"])
            parts = [to_string(self.eval(a), form) for a in args] if args else [self.record]
            text = to_string(self.vars["OFS"]).join(parts) + to_string(self.vars["ORS"])
        if redirect is None:
            self.out.append(text)
            return
        mode, target = redirect
        path = self.string(target)
        self.write_file(path, text.encode(), append=mode == ">>" or path in self.opened)
        self.opened.add(path)

    # ------------------------------------------------------------------ the main loop

    def run_items(self, phase: str) -> None:
        for item in self.items:
            if item[0] == phase:
                self.execute(item[1])

    def run_record(self) -> None:
        for index, item in enumerate(self.items):
            kind = item[0]
            if kind in ("BEGIN", "END"):
                continue
            if kind == "pattern":
                selected = item[1] is None or truth(self.eval(item[1]))
            else:
                active = self.ranges.get(index, False)
                if not active and truth(self.eval(item[1])):
                    active = True
                selected = active
                if active and truth(self.eval(item[2])):
                    active = False
                self.ranges[index] = active
            if selected:
                if item[3] is None:
                    self.out.append(self.record + to_string(self.vars["ORS"]))
                else:
                    self.execute(item[3])
