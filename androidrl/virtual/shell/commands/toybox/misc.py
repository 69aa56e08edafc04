"""Toybox's small tools that scripts lean on: ``nohup``, ``timeout``, ``free``, ``nproc``, ``expr`` and more.

Also ``realpath``/``readlink``, ``rmdir`` and ``mktemp`` (``toys/posix/nohup.c``,
``toys/other/timeout.c``, ``free.c``...).
"""

from __future__ import annotations

import re
import time

from androidrl.virtual.shell.commands.toybox.lib import file_error
from androidrl.virtual.shell.commands.toybox.sed import to_python
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok


@command("nohup")
def _nohup(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``nohup COMMAND...``: the command, deaf to hangups (its output is no terminal here: it goes where it went)."""
    if len(argv) < 2:
        return fail("nohup: Needs 1 argument\n", 127)
    return b"", b"", sh.run_utility(argv[1:])


@command("timeout")
def _timeout(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``timeout [-s SIG] DURATION COMMAND...``: 124 when the command had to be stopped."""
    args = argv[1:]
    if args[:1] == ["-s"] and len(args) > 1:
        args = args[2:]
    if len(args) < 2:
        return fail("timeout: Needs 2 arguments\n", 125)
    match = re.fullmatch(r"(\d+(?:\.\d*)?)([smhd]?)", args[0])
    if not match:
        return fail(f"timeout: bad duration '{args[0]}'\n", 125)
    seconds = float(match.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[match.group(2)]
    saved = sh.deadline
    limit = time.monotonic() + seconds
    sh.deadline = limit if saved is None else min(saved, limit)
    try:
        status = sh.run_utility(args[1:])
    finally:
        sh.deadline = saved
    return b"", b"", 124 if time.monotonic() >= limit and (saved is None or limit < saved) else status


@command("free")
def _free(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """Toybox ``free [-bkmgth]``: memory from ``/proc/meminfo``, in bytes by default."""
    info = {k: int(v) * 1024 for k, v in re.findall(r"(\w+):\s+(\d+) kB", sh.phone.fs.read("/proc/meminfo").decode())}
    shift = next((s for flag, s in (("-k", 10), ("-m", 20), ("-g", 30), ("-t", 40)) if flag in argv), 0)

    def size(value: int) -> str:
        return str(value >> shift)

    total, free, buffers = info["MemTotal"], info["MemFree"], info["Buffers"]
    swap, swap_free = info["SwapTotal"], info["SwapFree"]
    return ok(
        "\t\ttotal        used        free      shared     buffers\n"
        f"Mem:{size(total):>17}{size(total - free):>12}{size(free):>12}{size(info['Shmem']):>12}{size(buffers):>12}\n"
        f"-/+ buffers/cache:{size(total - free - buffers):>15}{size(free + buffers):>12}\n"
        f"Swap:{size(swap):>16}{size(swap - swap_free):>12}{size(swap_free):>12}\n"
    )


@command("nproc")
def _nproc(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``nproc``: the CPUs of ``/proc/cpuinfo``."""
    return ok(f"{sh.phone.fs.read('/proc/cpuinfo').count(b'processor')}\n")


@command("realpath", "readlink")
def _realpath(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``realpath FILE...`` and ``readlink -f FILE``: the absolute path (this phone has no symbolic links)."""
    names = [a for a in argv[1:] if not a.startswith("-")]
    if argv[0] == "readlink" and not {"-f", "-e", "-m"} & set(argv[1:]):
        return b"", b"", 1  # not a link: readlink prints nothing
    out, errors = [], []
    for name in names:
        full = sh.path(name)
        if argv[0] == "realpath" and not sh.phone.fs.exists(sh.phone.fs.normalize(full.rsplit("/", 1)[0] or "/")):
            errors.append(f"realpath: {name}: No such file or directory\n")
            continue
        out.append(full + "\n")
    return "".join(out).encode(), "".join(errors).encode(), 1 if errors else 0


@command("rmdir")
def _rmdir(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``rmdir [-p] DIR...``: empty directories only."""
    fs = sh.phone.fs
    errors = []
    for name in (a for a in argv[1:] if not a.startswith("-")):
        full = sh.path(name)
        try:
            if fs.is_dir(full) and fs.listdir(full):
                errors.append(f"rmdir: {name}: Directory not empty\n")
            elif not fs.is_dir(full):
                errors.append(
                    f"rmdir: {name}: {'Not a directory' if fs.exists(full) else 'No such file or directory'}\n"
                )
            else:
                fs.remove(full, recursive=True)
        except OSError as exc:
            errors.append(file_error("rmdir", name, exc))
    return b"", "".join(errors).encode(), 1 if errors else 0


@command("mktemp")
def _mktemp(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``mktemp [-d] [-p DIR] [TEMPLATE]``: a new file (or directory) in ``$TMPDIR`` (``/data/local/tmp``)."""
    args = argv[1:]
    directory = "-d" in args
    base = args[args.index("-p") + 1] if "-p" in args and args.index("-p") + 1 < len(args) else None
    names = [a for a in args if not a.startswith("-") and a != base]
    template = names[0] if names else "tmp.XXXXXXXXXX"
    if not template.endswith("XXX"):
        return fail("mktemp: need XXX\n")
    if "/" not in template:
        template = f"{base or sh.lookup('TMPDIR') or '/data/local/tmp'}/{template}"
    fs = sh.phone.fs
    stem = template.rstrip("X")
    for _ in range(1000):
        path = sh.path(stem + f"{sh.random.randrange(36**10):010x}"[: len(template) - len(stem)])
        if not fs.exists(path):
            break
    else:
        return fail(f"mktemp: Failed to create file {template}\n")
    try:
        fs.mkdir(path) if directory else fs.write(path, b"")
    except OSError as exc:
        return fail(f"mktemp: Failed to create {'directory' if directory else 'file'} {path}: {exc.strerror}\n")
    return ok(path + "\n")


@command("expr")
def _expr(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """Toybox ``expr``: ``| & = != < <= > >= + - * / % :`` and parentheses; status 1 when the result is 0 or empty."""
    try:
        value, rest = _expr_or(argv[1:])
        if rest:
            return fail("expr: syntax error\n", 2)
    except ZeroDivisionError:
        return fail("expr: division by zero\n", 2)
    except (IndexError, ValueError):
        return fail("expr: syntax error\n", 2)
    text = str(value)
    return (text + "\n").encode(), b"", 1 if text in ("", "0") else 0


def _number(value) -> int:
    if isinstance(value, int):
        return value
    if not re.fullmatch(r"-?\d+", value):
        raise ValueError(value)
    return int(value)


def _expr_or(tokens: list[str]):
    left, tokens = _expr_and(tokens)
    while tokens[:1] == ["|"]:
        right, tokens = _expr_and(tokens[1:])
        left = left if left not in ("", 0) else (right if right not in ("", 0) else 0)
    return left, tokens


def _expr_and(tokens: list[str]):
    left, tokens = _expr_compare(tokens)
    while tokens[:1] == ["&"]:
        right, tokens = _expr_compare(tokens[1:])
        left = left if left not in ("", 0) and right not in ("", 0) else 0
    return left, tokens


def _expr_compare(tokens: list[str]):
    left, tokens = _expr_sum(tokens)
    while tokens[:1] and tokens[0] in ("=", "!=", "<", "<=", ">", ">="):
        op = tokens[0]
        right, tokens = _expr_sum(tokens[1:])
        try:
            a, b = _number(left), _number(right)
        except ValueError:
            a, b = str(left), str(right)
        left = int({"=": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op])
    return left, tokens


def _expr_sum(tokens: list[str]):
    left, tokens = _expr_product(tokens)
    while tokens[:1] and tokens[0] in ("+", "-"):
        op = tokens[0]
        right, tokens = _expr_product(tokens[1:])
        left = _number(left) + _number(right) if op == "+" else _number(left) - _number(right)
    return left, tokens


def _expr_product(tokens: list[str]):
    left, tokens = _expr_match(tokens)
    while tokens[:1] and tokens[0] in ("*", "/", "%"):
        op = tokens[0]
        right, tokens = _expr_match(tokens[1:])
        a, b = _number(left), _number(right)
        if op == "*":
            left = a * b
        else:
            quotient = int(a / b)
            left = quotient if op == "/" else a - b * quotient
    return left, tokens


def _expr_match(tokens: list[str]):
    left, tokens = _expr_primary(tokens)
    while tokens[:1] == [":"]:
        pattern, tokens = _expr_primary(tokens[1:])
        found = re.match(to_python(str(pattern), extended=False), str(left))
        # with a group: what it matched; without: how many characters matched
        left = (found.group(1) or "") if found and found.groups() else (found.end() if found else 0)
    return left, tokens


def _expr_primary(tokens: list[str]):
    if tokens[0] == "(":
        value, rest = _expr_or(tokens[1:])
        if rest[:1] != [")"]:
            raise ValueError("(")
        return value, rest[1:]
    return tokens[0], tokens[1:]
