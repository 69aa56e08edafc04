"""The shell's builtins, as mksh answers them.

``echo``, ``true``, ``false``, ``exit``, ``test``/``[``, ``pwd``, ``cd``, ``export`` and
``unset`` (``exec`` is the interpreter's own).
"""

from __future__ import annotations

import re

from androidrl.virtual.shell.interpreter import Shell, ShellExit
from androidrl.virtual.shell.registry import Result, command, fail, ok


@command("echo")
def _echo(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    args, newline, escapes = argv[1:], True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        newline = newline and "n" not in args[0]
        escapes = "e" in args[0] or (escapes and "E" not in args[0])
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text = text.encode("latin-1", "backslashreplace").decode("unicode_escape")
    return ok(text + ("\n" if newline else ""))


@command("true")
def _true(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return ok()


@command("false")
def _false(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return b"", b"", 1


@command("exit")
def _exit(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    raise ShellExit(int(argv[1]) & 0xFF if len(argv) > 1 and argv[1].lstrip("-").isdigit() else sh.status)


@command("test", "[")
def _test(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    args = argv[1:]
    if argv[0] == "[":
        if not args or args[-1] != "]":
            return fail("[: missing ]\n", 2)
        args = args[:-1]
    negate = bool(args) and args[0] == "!"
    args = args[1:] if negate else args
    fs = sh.phone.fs
    if not args:
        result = False
    elif len(args) == 1:
        result = args[0] != ""
    elif len(args) == 2 and args[0] in ("-e", "-f", "-d", "-z", "-n", "-s"):
        flag, value = args
        path = sh.path(value)
        result = {
            "-e": lambda: fs.exists(path),
            "-f": lambda: fs.exists(path) and not fs.is_dir(path),
            "-d": lambda: fs.is_dir(path),
            "-z": lambda: value == "",
            "-n": lambda: value != "",
            "-s": lambda: fs.exists(path) and fs.stat(path).size > 0,
        }[flag]()
    elif len(args) == 3 and args[1] in ("=", "==", "!="):
        result = (args[0] == args[2]) != (args[1] == "!=")
    elif len(args) == 3 and args[1] in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge"):
        try:
            a, b = int(args[0]), int(args[2])
        except ValueError:
            return fail(f"{argv[0]}: integer expected\n", 2)
        result = {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b, "-ge": a >= b}[args[1]]
    else:
        return fail(f"{argv[0]}: unknown condition: {' '.join(args)}\n", 2)
    return b"", b"", 0 if result != negate else 1


@command("pwd")
def _pwd(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return ok(sh.cwd + "\n")


@command("cd")
def _cd(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    target = sh.path(argv[1] if len(argv) > 1 else "/")
    if not sh.phone.fs.is_dir(target):
        return fail(f"/system/bin/sh: cd: {target}: No such file or directory\n", 2)
    sh.cwd = target
    return ok()


@command("export")
def _export(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    for arg in argv[1:]:
        name, sep, value = arg.partition("=")
        if sep:
            sh.variables[name] = value
    return ok()


@command("unset")
def _unset(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    for name in argv[1:]:
        sh.variables.pop(name, None)
    return ok()
