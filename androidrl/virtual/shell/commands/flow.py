"""The shell's builtins for control and processes, as mksh answers them (mksh's ``funcs.c``).

``exit``, ``return``, ``break``, ``continue``, ``eval``, ``.``/``source``, ``read``,
``getopts``, ``wait``, ``kill``, ``let``, ``test``/``[`` and ``trap``. ``kill`` and ``test``/``[`` are also
toybox's tools in ``/system/bin`` (mksh's builtins answer first, as on a device).
"""

from __future__ import annotations

from androidrl.virtual.shell import conditions
from androidrl.virtual.shell.control import FunctionReturn, LoopControl, ShellError, ShellExit
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.jobs import SIGNAL_NAMES, SIGNALS
from androidrl.virtual.shell.registry import Result, bi_error, command, ok


def _number(sh: Shell, name: str, text: str) -> int | Result:
    try:
        return int(text)
    except ValueError:
        return bi_error(sh, name, f"{text}: bad number")


@command("exit", builtin=True)
def _exit(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    code = _number(sh, "exit", argv[1]) if len(argv) > 1 else sh.status
    if isinstance(code, tuple):
        return code
    raise ShellExit(code & 0xFF)


@command("return", builtin=True)
def _return(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    code = _number(sh, "return", argv[1]) if len(argv) > 1 else sh.status
    if isinstance(code, tuple):
        return code
    raise FunctionReturn(code & 0xFF)


@command("break", "continue", builtin=True)
def _break(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``break [N]``/``continue [N]``; outside a loop mksh warns ``break: can't break`` and goes on."""
    levels = _number(sh, argv[0], argv[1]) if len(argv) > 1 else 1
    if isinstance(levels, tuple):
        return levels
    if levels <= 0:
        return bi_error(sh, argv[0], f"{argv[1]}: bad value")
    if sh.loops == 0:
        return b"", f"{sh.prefix()}{argv[0]}: can't {argv[0]}\n".encode(), 0
    raise LoopControl(min(levels, sh.loops), again=argv[0] == "continue")


@command("eval", builtin=True)
def _eval(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``eval ARGS``: the arguments joined by spaces, run in this shell."""
    return b"", b"", sh.run_program(" ".join(argv[1:]))


@command(".", "source", builtin=True)
def _dot(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``. FILE [ARGS]``: the file's commands run in this shell (``return`` ends it)."""
    if len(argv) < 2:
        return bi_error(sh, argv[0], "missing argument")
    try:
        text = sh.phone.fs.read(sh.path(argv[1])).decode("utf-8", "replace")
    except OSError as exc:
        return bi_error(sh, argv[0], f"{argv[1]}: {exc.strerror}")
    saved = sh.positional
    if len(argv) > 2:
        sh.positional = argv[2:]
    try:
        return b"", b"", sh.run_program(text)
    except FunctionReturn as back:
        return b"", b"", back.status
    finally:
        if len(argv) > 2:
            sh.positional = saved


@command("read", builtin=True)
def _read(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``read [-r] [NAME...]``: one line of input, split on IFS into the names (``REPLY`` without any).

    Exit status 1 at the end of the input (what came before it is still assigned), as mksh.
    """
    args, raw = argv[1:], False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        flag = args.pop(0)
        if flag == "--":
            break
        if set(flag[1:]) - {"r", "s"}:
            return bi_error(sh, "read", f"{flag}: unknown option (this phone's read takes -r)", 2)
        raw = raw or "r" in flag
    names = args or ["REPLY"]
    text, ended = "", False
    while True:
        line = sh.read_line(stdin)
        ended = not line.endswith(b"\n")
        chunk = line.decode("utf-8", "replace").removesuffix("\n")
        if not raw and chunk.endswith("\\") and not ended:
            text += chunk[:-1]
            continue
        text += chunk
        break
    ifs = sh.lookup("IFS")
    ifs = " \t\n" if ifs is None else ifs
    for name, value in zip(names, _fields(text, ifs, len(names), raw)):
        sh.assign(name, value)
    return b"", b"", 1 if ended else 0


def _fields(text: str, ifs: str, count: int, raw: bool) -> list[str]:
    """``text`` cut into ``count`` values as ``read`` does: the last one takes the rest of the line."""
    white = "".join(c for c in ifs if c in " \t\n")
    values: list[str] = []
    i, n = 0, len(text)
    while len(values) < count - 1:
        while i < n and text[i] in white:
            i += 1
        start = i
        while i < n and text[i] not in ifs:
            i += 2 if text[i] == "\\" and not raw else 1
        values.append(text[start:i])
        if i < n and text[i] in ifs and text[i] not in white:
            i += 1
    rest = text[i:].strip(white)
    values.append(rest)
    if not raw:
        values = [_unescape(v) for v in values]
    return values + [""] * (count - len(values))


def _unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            i += 1
        out.append(text[i])
        i += 1
    return "".join(out)


@command("wait", builtin=True)
def _wait(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``wait [PID...]``: until the jobs end; the last one's status (127 for a pid that is not a job)."""
    pids = argv[1:]
    if not pids:
        return b"", b"", sh.jobs.wait(None, lambda: sh.interrupted) or 0
    status = 0
    for text in pids:
        pid = _number(sh, "wait", text.lstrip("%"))
        if isinstance(pid, tuple):
            return pid
        result = sh.jobs.wait(pid, lambda: sh.interrupted)
        status = 127 if result is None else result
    return b"", b"", status


def signal_number(name: str) -> int | None:
    """``INT``, ``SIGINT``, ``int`` or ``2`` as a signal number; None when it names none."""
    if name.isdigit():
        return int(name) if int(name) in SIGNAL_NAMES or int(name) == 0 else None
    name = name.upper()
    return SIGNALS.get(name[3:] if name.startswith("SIG") else name)


@command("kill")
def _kill(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """The ``kill [-s SIG | -SIG] PID...`` and ``kill -l [STATUS]`` of mksh.

    The shell's own jobs get the signal; the phone's other processes belong to other users
    (``Operation not permitted``), and a pid nothing has is ``No such process``.
    """
    args, signal = argv[1:], SIGNALS["TERM"]
    if args and args[0] == "-l":
        if len(args) == 1:
            return ok(" ".join(SIGNAL_NAMES[n] for n in sorted(SIGNAL_NAMES) if n < 32) + "\n")
        out = []
        for text in args[1:]:
            number = int(text) if text.isdigit() else 0
            out.append(SIGNAL_NAMES.get(number - 128 if number > 128 else number, str(number)))
        return ok("\n".join(out) + "\n")
    if args and args[0] == "-s" and len(args) > 1:
        name, args = args[1], args[2:]
    elif args and args[0].startswith("-") and len(args[0]) > 1 and (args[0][1].isdigit() or args[0][1].isupper()):
        name, args = args[0][1:], args[1:]
    else:
        name = None
    if name is not None:
        signal = signal_number(name)
        if signal is None:
            return bi_error(sh, "kill", f"bad signal '{name}'")
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        usage = "usage:\tkill [-s signame | -signum | -signame] { job | pid | pgrp } ...\n\tkill -l [exit_status ...]\n"
        return b"", usage.encode(), 1  # (mksh writes it to its shl_out, stderr)
    errors, code = [], 0
    system = {process.pid for process in sh.phone.processes.table()}
    for text in args:
        pid = int(text) if text.lstrip("-").isdigit() else None
        if pid is None:
            errors.append(f"{sh.prefix()}kill: {text}: arguments must be jobs or process IDs\n")
            code = 1
        elif sh.jobs.kill(pid, signal):
            continue
        elif pid in system:
            errors.append(f"{sh.prefix()}kill: {text}: Operation not permitted\n")
            code = 1
        else:
            errors.append(f"{sh.prefix()}kill: {text}: No such process\n")
            code = 1
    return b"", "".join(errors).encode(), code


@command("let", builtin=True)
def _let(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``let EXPR...``: true (0) when the last expression is not 0."""
    if len(argv) < 2:
        return bi_error(sh, "let", "missing argument")
    value = 0
    for expression in argv[1:]:
        value = sh.arithmetic(expression)
    return b"", b"", int(value == 0)


@command("test", "[")
def _test(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """The ``test``/``[`` of mksh: 0 true, 1 false, 2 (and mksh's message) for a malformed expression."""
    args = argv[1:]
    if argv[0] == "[":
        if not args or args[-1] != "]":
            return bi_error(sh, "[", "missing ]", conditions.ERROR)
        args = args[:-1]
    try:
        return b"", b"", 0 if conditions.test(sh, args) else 1
    except conditions.TestError as error:
        return bi_error(sh, argv[0], str(error), conditions.ERROR)
    except ShellError as error:
        return b"", f"{sh.prefix()}{error.message}\n".encode(), conditions.ERROR


@command("trap", builtin=True)
def _trap(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``trap [ACTION] CONDITION...``: ``EXIT`` (0) runs ACTION when the shell ends.

    A trap on a signal is refused: this phone's shells get signals only as ``kill`` sends them to jobs.
    """
    if len(argv) == 1:
        action = sh.exit_trap
        return ok("trap -- '" + action.replace("'", "'\\''") + "' EXIT\n" if action else "")
    action, names = (None, argv[1:]) if len(argv) == 2 else (argv[1], argv[2:])
    for name in names:
        if name.upper() not in ("EXIT", "0"):
            return bi_error(sh, "trap", f"{name}: traps on signals are not supported on this phone")
    sh.exit_trap = None if action in (None, "-") else action
    return ok()


@command("getopts", builtin=True)
def _getopts(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``getopts OPTSTRING NAME [ARG...]``: the next option of the arguments (the positional ones by default).

    As mksh's ``c_getopts``: ``NAME`` gets the letter (``?`` for an unknown one, and at the
    end), ``OPTARG`` its argument, ``OPTIND`` the next argument's index; a leading ``:`` in
    ``OPTSTRING`` makes errors silent. Status 1 once the options end.
    """
    if len(argv) < 3:
        return bi_error(sh, "getopts", f"{'options' if len(argv) < 2 else 'name'}: missing argument")
    spec, name, args = argv[1], argv[2], argv[3:] or sh.positional
    silent = spec.startswith(":")
    index = int(sh.lookup("OPTIND") or "1") if (sh.lookup("OPTIND") or "1").isdigit() else 1
    position = sh.getopts_at[1] if sh.getopts_at[0] == index else 0
    sh.variables.pop("OPTARG", None)
    if position == 0:
        current = args[index - 1] if index - 1 < len(args) else None
        if current is None or not current.startswith("-") or current == "-":
            sh.assign(name, "?")
            return b"", b"", 1
        if current == "--":
            sh.assign("OPTIND", str(index + 1))
            sh.assign(name, "?")
            return b"", b"", 1
        position = 1
    current = args[index - 1]
    letter = current[position]
    position += 1
    if position >= len(current):
        index, position = index + 1, 0
    error = b""
    where = spec.find(letter) if letter not in ":?" else -1
    if where < 0:
        sh.assign(name, "?")
        if silent:
            sh.assign("OPTARG", letter)
        else:
            error = f"{sh.prefix()}{sh.name}: -{letter}: unknown option\n".encode()
    elif spec[where + 1 : where + 2] == ":":
        if position:
            sh.assign("OPTARG", current[position:])
            index, position = index + 1, 0
        elif index - 1 < len(args):
            sh.assign("OPTARG", args[index - 1])
            index += 1
        elif silent:
            sh.assign(name, ":")
            sh.assign("OPTARG", letter)
            letter = None
        else:
            error = f"{sh.prefix()}{sh.name}: -{letter}: requires an argument\n".encode()
            letter = "?"
        if letter is not None:
            sh.assign(name, letter)
    else:
        sh.assign(name, letter)
    sh.assign("OPTIND", str(index))
    sh.getopts_at = (index, position)
    return b"", error, 0
