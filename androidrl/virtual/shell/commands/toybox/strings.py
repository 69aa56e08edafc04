"""Toybox's ``printf``, ``basename`` and ``dirname`` (``toys/posix/printf.c``, ``basename.c``, ``dirname.c``)."""

from __future__ import annotations

import posixpath
import re

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok

_SPEC = re.compile(r"%([-+# '0]*)(\*|\d+)?(?:\.(\*|\d*))?(.?)", re.S)
_ESCAPES = {"\\": "\\", "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
            '"': '"', "'": "'"}  # fmt: skip


class _Stop(Exception):
    r"""``\c``: no more output."""


def _escape(text: str, i: int, posix: bool) -> tuple[str, int]:
    r"""Toybox's ``handle_slash`` for the escape after ``text[i - 1] == "\"``: (character, next index)."""
    if i >= len(text):
        return "\\", i
    c = text[i]
    if c == "c":
        raise _Stop
    if c == "x":
        digits = re.match(r"[0-9A-Fa-f]{1,2}", text[i + 1 :])
        return (chr(int(digits.group(), 16)), i + 1 + len(digits.group())) if digits else ("\\", i)
    start = i + 1 if posix and c == "0" else i
    digits = re.match(r"[0-7]{1,3}", text[start:])
    if digits:
        return chr(int(digits.group(), 8) & 0xFF), start + len(digits.group())
    if c in _ESCAPES:
        return _ESCAPES[c], i + 1
    return "\\", i


def _number(text: str) -> tuple[int, bool]:
    """strtoll(text, 0) as printf reads a %d argument ('x gives x's code); (value, whether all of it was a number)."""
    if text[:1] in ("'", '"'):
        return (ord(text[1]) if len(text) > 1 else 0), True
    match = re.match(r"\s*([-+]?)(0[xX][0-9A-Fa-f]+|0[0-7]*|[1-9][0-9]*)", text)
    if not match:
        return 0, text == ""
    sign = -1 if match.group(1) == "-" else 1
    digits = match.group(2)
    base = 16 if digits[:2].lower() == "0x" else 8 if digits.startswith("0") and len(digits) > 1 else 10
    return sign * int(digits, base), match.end() == len(text)


@command("printf")
def _printf(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``printf FORMAT [ARG...]``: the format repeated while arguments are left (and it took some)."""
    if len(argv) < 2:
        return fail("printf: Needs 1 argument\n")
    form, args = argv[1], argv[2:]
    out: list[str] = []
    errors: list[str] = []
    try:
        while True:
            seen, args = _render(form, args, out, errors)
            if not seen or not args:
                break
    except _Stop:
        pass
    except ValueError as bad:
        return "".join(out).encode(), f"printf: {bad}\n".encode(), 1
    return "".join(out).encode("utf-8", "surrogateescape"), "".join(errors).encode(), 1 if errors else 0


def _render(form: str, args: list[str], out: list[str], errors: list[str]) -> tuple[bool, list[str]]:
    """One pass of the format: whether it had a conversion, and the arguments left."""
    seen, i, n = False, 0, len(form)
    while i < n:
        c = form[i]
        if c == "\\":
            text, i = _escape(form, i + 1, posix=False)
            out.append(text)
            continue
        if c != "%" or form.startswith("%%", i):
            out.append(c)
            i += 2 if c == "%" else 1
            continue
        spec = _SPEC.match(form, i)
        flags, width, precision, kind = spec.groups()
        i = spec.end()
        if not kind:
            raise ValueError(f"bad {form}")
        seen = True
        if width == "*":
            width, args = str(_number(args[0])[0]) if args else "0", args[1:]
        if precision == "*":
            precision, args = str(_number(args[0])[0]) if args else "0", args[1:]
        arg, args = (args[0], args[1:]) if args else ("", args)
        pattern = "%" + flags.replace("'", "") + (width or "") + (f".{precision}" if precision is not None else "")
        if kind == "b":
            text, j = [], 0
            while j < len(arg):
                if arg[j] == "\\":
                    piece, j = _escape(arg, j + 1, posix=True)
                    text.append(piece)
                else:
                    text.append(arg[j])
                    j += 1
            out.append("".join(text))
        elif kind == "s":
            out.append((pattern + "s") % arg)
        elif kind == "c":
            out.append((pattern + "s") % arg[:1])
        elif kind in "diouxX":
            value, whole = _number(arg)
            if not whole:
                errors.append(f"printf: bad %{kind} {arg}\n")
            if kind in "ouxX":
                value &= 0xFFFFFFFFFFFFFFFF
            out.append((pattern + ("d" if kind == "u" else kind)) % value)
        elif kind in "feEgGaA":
            try:
                value_f = float(arg) if arg else 0.0
            except ValueError:
                errors.append(f"printf: bad %{kind} {arg}\n")
                value_f = 0.0
            out.append((pattern + kind.replace("a", "e").replace("A", "E")) % value_f)
        else:
            raise ValueError(f"bad %{kind}@{i - 1}")
    return seen, args


@command("basename")
def _basename(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``basename [-a] [-s SUFFIX] NAME [SUFFIX]``."""
    args, suffix, many = argv[1:], None, False
    while args and args[0] in ("-a", "-s"):
        flag = args.pop(0)
        if flag == "-s":
            if not args:
                return fail("basename: Missing argument to -s\n")
            suffix, many = args.pop(0), True
        else:
            many = True
    if not args:
        return fail("basename: Needs 1 argument\n")
    if not many:
        if len(args) > 2:
            return fail("basename: too many args\n")
        suffix = args[1] if len(args) == 2 else None
        args = args[:1]
    out = []
    for name in args:
        base = posixpath.basename(name.rstrip("/")) or ("/" if name.startswith("/") else "")
        if suffix and base != suffix and base.endswith(suffix):
            base = base[: -len(suffix)]
        out.append(base + "\n")
    return ok("".join(out))


@command("dirname")
def _dirname(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``dirname PATH...``."""
    if len(argv) < 2:
        return fail("dirname: Needs 1 argument\n")
    out = []
    for name in argv[1:]:
        trimmed = name.rstrip("/") or "/"
        head = posixpath.dirname(trimmed).rstrip("/") if "/" in trimmed else "."
        out.append((head or "/") + "\n")
    return ok("".join(out))
