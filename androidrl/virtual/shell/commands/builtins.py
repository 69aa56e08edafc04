"""The shell's builtins for output, directories and variables, as mksh answers them (mksh's ``funcs.c``).

``echo`` (mksh's: ``-e`` on by default), ``print``, ``true``, ``false``, ``:``, ``pwd``,
``cd``, ``export``, ``unset``, ``readonly``, ``local``/``typeset``, ``set``, ``shift``,
``umask``, ``type``/``whence``/``command``. ``echo``, ``true``, ``false`` and ``pwd`` are also
toybox's tools in ``/system/bin``; the rest are the shell's own. Errors are mksh's
``bi_errorf`` lines: ``/system/bin/sh: cd: /nope: No such file or directory``.
"""

from __future__ import annotations

import re

from androidrl.virtual.shell.interpreter import Shell, is_builtin
from androidrl.virtual.shell.registry import Result, bi_error, command, ok
from androidrl.virtual.shell.syntax import RESERVED

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ESCAPE = re.compile(r"\\(0[0-7]{0,3}|x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|.)", re.S)
_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
                   "v": "\v", "\\": "\\"}  # fmt: skip


def unbackslash(text: str) -> tuple[str, bool]:
    r"""Escapes done as mksh's ``unbksl`` does them for ``echo``/``print``; and whether ``\c`` stopped the text."""
    out, i = [], 0
    for match in _ESCAPE.finditer(text):
        out.append(text[i : match.start()])
        code = match.group(1)
        if code == "c":
            return "".join(out), True
        if code[0] == "0":
            out.append(chr(int(code[1:] or "0", 8) & 0xFF))
        elif code[0] in "xu" and len(code) > 1:
            out.append(chr(int(code[1:], 16)))
        else:
            out.append(_SIMPLE_ESCAPES.get(code, "\\" + code))
        i = match.end()
    out.append(text[i:])
    return "".join(out), False


@command("echo")
def _echo(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """The ``echo`` of mksh: ``-n``, ``-e`` (the default), ``-E``; a word of other letters is printed."""
    args, newline, escapes = argv[1:], True, True
    while args and re.fullmatch(r"-[neE]+", args[0]):
        for flag in args[0][1:]:
            newline = newline and flag != "n"
            escapes = flag == "e" if flag in "eE" else escapes
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text, stopped = unbackslash(text)
        newline = newline and not stopped
    return ok(text + ("\n" if newline else ""))


@command("print", builtin=True)
def _print(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """The ``print [-nr] [--] args`` of mksh: escapes done unless ``-r``."""
    args, newline, escapes = argv[1:], True, True
    while args and re.fullmatch(r"-[nrRe]+", args[0]):
        newline = newline and "n" not in args[0]
        escapes = escapes and not ({"r", "R"} & set(args[0]))
        args = args[1:]
    if args[:1] == ["--"]:
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text, stopped = unbackslash(text)
        newline = newline and not stopped
    return ok(text + ("\n" if newline else ""))


@command("true")
def _true(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return ok()


@command(":", builtin=True)
def _colon(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return ok()


@command("false")
def _false(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return b"", b"", 1


@command("pwd")
def _pwd(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return ok(sh.cwd + "\n")


@command("cd", builtin=True)
def _cd(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``cd [DIR|-]``: HOME by default; ``-`` goes back (and prints where); sets ``PWD`` and ``OLDPWD``."""
    args = [a for a in argv[1:] if a not in ("-L", "-P")]
    if len(args) > 1:
        return bi_error(sh, "cd", "too many arguments", 2)
    target = args[0] if args else sh.lookup("HOME") or "/"
    back = target == "-"
    if back:
        target = sh.lookup("OLDPWD")
        if target is None:
            return bi_error(sh, "cd", "no OLDPWD", 2)
    full = sh.path(target)
    fs = sh.phone.fs
    if not fs.is_dir(full):
        reason = "Not a directory" if fs.exists(full) else "No such file or directory"
        return bi_error(sh, "cd", f"{full}: {reason}", 2)
    sh.variables["OLDPWD"], sh.variables["PWD"] = sh.cwd, full
    sh.cwd = full
    return ok(full + "\n" if back else "")


def _assignments(sh: Shell, name: str, args: list[str]) -> tuple[list[str], Result | None]:
    """The names of ``NAME[=value]`` arguments, values assigned; or a failure for a bad name."""
    names = []
    for arg in args:
        key, sep, value = arg.partition("=")
        if not _NAME.fullmatch(key):
            return names, bi_error(sh, name, f"{key}: is not an identifier")
        if sep:
            sh.assign(key, value)
        names.append(key)
    return names, None


@command("export", builtin=True)
def _export(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    args = [a for a in argv[1:] if a != "-p"]
    if not args:
        return ok("".join(f"export {k}={_quote(sh.variables[k])}\n" for k in sorted(sh.exported) if k in sh.variables))
    names, failure = _assignments(sh, "export", args)
    sh.exported.update(names)
    return failure or ok()


@command("readonly", builtin=True)
def _readonly(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    args = [a for a in argv[1:] if a != "-p"]
    if not args:
        return ok("".join(f"readonly {k}={_quote(sh.variables.get(k, ''))}\n" for k in sorted(sh.readonly)))
    names, failure = _assignments(sh, "readonly", args)
    sh.readonly.update(names)
    return failure or ok()


@command("unset", builtin=True)
def _unset(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    functions = "-f" in argv[1:2]
    for name in (a for a in argv[1:] if a not in ("-f", "-v")):
        if functions:
            sh.functions.pop(name, None)
        elif name in sh.readonly:
            return bi_error(sh, "unset", f"{name}: is read only")
        else:
            sh.variables.pop(name, None)
            sh.exported.discard(name)
    return ok()


@command("local", "typeset", builtin=True)
def _local(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``local NAME[=value]...``: inside a function, the old value comes back when it returns (``-x`` exports)."""
    export = any(a.startswith("-") and "x" in a for a in argv[1:])
    for arg in (a for a in argv[1:] if not a.startswith(("-", "+"))):
        name, sep, value = arg.partition("=")
        if not _NAME.fullmatch(name):
            return bi_error(sh, argv[0], f"{name}: is not an identifier")
        if sh.frames:
            sh.make_local(name)
            if not sep:
                sh.variables.pop(name, None)
        if sep:
            sh.assign(name, value)
        if export:
            sh.exported.add(name)
    return ok()


#: ``set -o`` option names and their letters.
OPTIONS = {"errexit": "e", "nounset": "u", "xtrace": "x", "noglob": "f", "noclobber": "C", "verbose": "v",
           "pipefail": "pipefail", "allexport": "a", "noexec": "n"}  # fmt: skip


@command("set", builtin=True)
def _set(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``set [-+euxfCv] [-o|+o option] [--] [args]``; without arguments, the variables."""
    args = argv[1:]
    if not args:
        return ok("".join(f"{k}={_quote(v)}\n" for k, v in sorted(sh.variables.items())))
    while args and args[0][:1] in ("-", "+") and args[0] not in ("-", "--"):
        flag = args.pop(0)
        on = flag[0] == "-"
        letters = flag[1:]
        if letters == "o":
            if not args:
                return ok("".join(f"{name:<16}{'on' if OPTIONS[name] in sh.options else 'off'}\n" for name in OPTIONS))
            name = args.pop(0)
            if name not in OPTIONS:
                return bi_error(sh, "set", f"{name}: bad option")
            letters = [OPTIONS[name]]
        for letter in letters:
            if letter not in OPTIONS.values():
                return bi_error(sh, "set", f"-{letter}: unknown option", 2)
            sh.options.add(letter) if on else sh.options.discard(letter)
    if args and args[0] in ("-", "--"):
        args.pop(0)
        sh.positional = list(args)
    elif args:
        sh.positional = list(args)
    return ok()


@command("shift", builtin=True)
def _shift(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    try:
        count = int(argv[1]) if len(argv) > 1 else 1
    except ValueError:
        return bi_error(sh, "shift", f"{argv[1]}: bad number")
    if count < 0 or count > len(sh.positional):
        return bi_error(sh, "shift", f"{count}: bad number")
    sh.positional = sh.positional[count:]
    return ok()


@command("umask", builtin=True)
def _umask(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``umask``: Android's shell creates files 0666 less 0000 (adbd's shell sets no mask)."""
    if len(argv) > 1 and argv[1] not in ("0", "000", "0000"):
        return bi_error(sh, "umask", "only the mask 0 is supported on this phone")
    return ok("0000\n" if len(argv) == 1 else "")


@command("type", "whence", "command", builtin=True)
def _type(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``command -v|-V NAME``, ``type NAME``, ``whence [-v] NAME``; ``command CMD ARGS`` runs CMD (never a function)."""
    tool, args = argv[0], argv[1:]
    verbose = tool == "type" or "-V" in args or (tool == "whence" and "-v" in args)
    flags = [a for a in args if a.startswith("-") and len(a) > 1]
    names = [a for a in args if a not in flags]
    if tool == "command" and not ({"-v", "-V"} & set(flags)):
        if not names:
            return ok()
        return b"", b"", sh.run_utility(names)
    out, code = [], 0
    for name in names:
        kind = _kind(sh, name)
        if kind is None:
            code = 1
            if verbose:
                out.append(f"{name} not found\n")
        elif not verbose:
            out.append((f"/system/bin/{name}" if kind == "tool" else name) + "\n")
        else:
            out.append(
                {"function": f"{name} is a function\n", "builtin": f"{name} is a shell builtin\n",
                 "keyword": f"{name} is a reserved word\n", "tool": f"{name} is /system/bin/{name}\n"}[kind]
            )  # fmt: skip
    return "".join(out).encode(), b"", code


def _kind(sh: Shell, name: str) -> str | None:
    if name in RESERVED:
        return "keyword"
    if name in sh.functions:
        return "function"
    command_ = sh.commands.get(name)
    if command_ is None:
        return None
    return (
        "builtin" if is_builtin(command_) or name in ("echo", "true", "false", "pwd", "test", "[", "kill") else "tool"
    )


def _quote(value: str) -> str:
    return value if re.fullmatch(r"[A-Za-z0-9_./:@%+,=-]+", value) else "'" + value.replace("'", "'\\''") + "'"
