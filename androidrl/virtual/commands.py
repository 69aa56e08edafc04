"""The commands of the virtual phone's shell, with Android's output formats and exit codes.

Android's own tools (``input``, ``screencap``, ``uiautomator``, ``wm``, ``am``, ``pm``,
``cmd``, ``settings``, ``dumpsys``, ``svc``, ``monkey``, ``getprop``...) follow the
Android 14 sources: the ``cmd``-based ones report a thrown exception as a Java stack
trace with exit status 255; ``am start`` reports errors on stderr with status 0.
Toybox's file tools print ``tool: path: strerror`` and exit 1.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
import time
import zlib

from androidrl.keycodes import KEYCODE_ENTER, keycode_from_string
from androidrl.virtual.shell import Command, Shell, ShellExit, Stdin, read_stdin, read_stdin_until, stdin_chunks
from androidrl.virtual.system.apk import apk_package
from androidrl.virtual.system.core import PhoneCore
from androidrl.virtual.system.framework.app import App
from androidrl.virtual.system.framework.intent import Intent, short_component
from androidrl.virtual.system.input.evdev import TOUCH_MAX
from androidrl.virtual.system.settings_provider import NAMESPACES
from androidrl.virtual.system.window.display import DISPLAY_UNIQUE_ID

Result = tuple[bytes, bytes, int]
#: Every command of the phone's shell by name; :class:`~androidrl.virtual.phone.VirtualPhone` gives it to its shells.
COMMANDS: dict[str, Command] = {}


def command(*names: str):
    """Register a shell command under ``names``."""

    def register(fn):
        for name in names:
            COMMANDS[name] = fn
        return fn

    return register


def ok(text: str = "") -> Result:
    """Success with ``text`` on stdout."""
    return text.encode(), b"", 0


def fail(text: str, code: int = 1) -> Result:
    """Failure with ``text`` on stderr."""
    return b"", text.encode(), code


class JavaException(Exception):
    """An exception thrown inside a ``cmd`` service, reported as Android reports it."""

    def __init__(self, java_class: str, message: str, frame: str) -> None:
        super().__init__(message)
        self.java_class, self.message, self.frame = java_class, message, frame


def java_exception_result(subcommand: str, exc: JavaException) -> Result:
    """``BasicShellCommandHandler.exec``: blank line, header, stack trace on stderr; exit 255."""
    trace = (
        f"\nException occurred while executing '{subcommand}':\n{exc.java_class}: {exc.message}\n"
        f"\tat {exc.frame}\n"
        "\tat com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)\n"
        "\tat android.os.ShellCommand.exec(ShellCommand.java:38)\n"
        "\tat android.os.Binder.shellCommand(Binder.java:1075)\n"
        "\tat android.os.Binder.onTransact(Binder.java:903)\n"
    )
    return b"", trace.encode(), 255


def _argument_expected(prev: str, frame: str) -> JavaException:
    return JavaException("java.lang.IllegalArgumentException", f'Argument expected after "{prev}"', frame)


def _java_float(text: str, subcommand: str, frame: str) -> float:
    """``Float.parseFloat``, with InputShellCommand's error message on bad numbers."""
    value = text.strip()
    if value and value[-1] in "fFdD" and not value.lower().endswith("inf"):
        value = value[:-1]
    try:
        return float(value)
    except ValueError:
        raise JavaException(
            "java.lang.IllegalArgumentException", f"Error: Invalid arguments for command: {subcommand}", frame
        ) from None


# ---------------------------------------------------------------------------------- toybox


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


@command("sleep")
def _sleep(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    try:
        seconds = float(argv[1])
    except (IndexError, ValueError):
        return fail("sleep: Needs 1 argument\n" if len(argv) < 2 else f"sleep: invalid number '{argv[1]}'\n")
    if sh.wait(max(0.0, seconds)):
        return b"", b"", 130
    return ok()


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


@command("id")
def _id(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    if sh.phone.root:
        return ok(
            "uid=0(root) gid=0(root) groups=0(root),1004(input),1007(log),1011(adb),1015(sdcard_rw) context=u:r:su:s0\n"
        )
    return ok(
        "uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),"
        "1015(sdcard_rw),1028(sdcard_r),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats)"
        " context=u:r:shell:s0\n"
    )


@command("whoami")
def _whoami(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return ok("root\n" if sh.phone.root else "shell\n")


@command("uname")
def _uname(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    if "-a" in argv:
        return ok("Linux localhost 6.1.23-android14 #1 SMP PREEMPT x86_64 Toybox\n")
    if "-m" in argv:
        return ok("x86_64\n")
    if "-r" in argv:
        return ok("6.1.23-android14\n")
    return ok("Linux\n")


@command("date")
def _date(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    if len(argv) > 1 and argv[1].startswith("+"):
        return ok(time.strftime(argv[1][1:].replace("%N", "000000000")) + "\n")
    return ok(time.strftime("%a %b %d %H:%M:%S %Z %Y") + "\n")


def _file_error(tool: str, path: str, exc: OSError) -> str:
    return f"{tool}: {path}: {exc.strerror}\n"


@command("cat")
def _cat(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    paths = [a for a in argv[1:] if a != "-"] if len(argv) > 1 else []
    if not paths:
        return _cat_stdin(sh, stdin)
    if len(paths) == 1:  # the stored bytes themselves: a raw screenshot (10 MB) is never copied
        try:
            return sh.phone.fs.read(sh.path(paths[0])), b"", 0
        except OSError as exc:
            return fail(_file_error("cat", paths[0], exc))
    out: list[bytes] = []
    err, code = [], 0
    for path in paths:
        try:
            out.append(sh.phone.fs.read(sh.path(path)))
        except OSError as exc:
            err.append(_file_error("cat", path, exc))
            code = 1
    return b"".join(out), "".join(err).encode(), code


def _cat_stdin(sh: Shell, stdin: bytes | Stdin) -> Result:
    """``cat`` of its input: each chunk passed on as it arrives when the output goes straight to the client."""
    kept = [chunk for chunk in stdin_chunks(sh, stdin) if not sh.stream(chunk)]
    return b"".join(kept), b"", 0


def _flags_and_args(argv: list[str], allowed: str) -> tuple[set[str], list[str]]:
    flags: set[str] = set()
    args: list[str] = []
    for arg in argv[1:]:
        if arg.startswith("-") and len(arg) > 1 and not args and all(ch in allowed for ch in arg[1:]):
            flags.update(arg[1:])
        else:
            args.append(arg)
    return flags, args


@command("ls")
def _ls(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    flags, paths = _flags_and_args(argv, "laR1dhs")
    fs = sh.phone.fs
    out, err, code = [], [], 0
    for path in paths or ["."]:
        full = sh.path(path)
        if not fs.exists(full):
            err.append(f"ls: {path}: No such file or directory\n")
            code = 1
            continue
        if fs.is_dir(full) and "d" not in flags:
            names = fs.listdir(full)
            if "a" in flags:
                names = [".", "..", *names]
            if len(paths) > 1:
                out.append(f"{path}:\n")
            for name in names:
                out.append(_ls_line(fs, posixpath.join(full, name), name, "l" in flags))
        else:
            out.append(_ls_line(fs, full, path, "l" in flags))
    return "".join(out).encode(), "".join(err).encode(), code


def _ls_line(fs, full: str, name: str, long: bool) -> str:
    if not long:
        return name + "\n"
    st = fs.stat(fs.normalize(full))
    kind = "d" if fs.is_dir(fs.normalize(full)) else "-"
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(st.mtime))
    return f"{kind}rw-rw---- 1 shell shell {st.size:>8} {stamp} {name}\n"


@command("rm")
def _rm(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    flags, paths = _flags_and_args(argv, "rRfv")
    if not paths:
        return fail("rm: Needs 1 argument\n") if "f" not in flags else ok()
    err, code = [], 0
    for path in paths:
        try:
            sh.phone.fs.remove(sh.path(path), recursive=bool(flags & {"r", "R"}))
        except FileNotFoundError as exc:
            if "f" not in flags:
                err.append(_file_error("rm", path, exc))
                code = 1
        except OSError as exc:
            err.append(_file_error("rm", path, exc))
            code = 1
    return b"", "".join(err).encode(), code


@command("mkdir")
def _mkdir(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    flags, paths = _flags_and_args(argv, "pv")
    if not paths:
        return fail("mkdir: Needs 1 argument\n")
    err, code = [], 0
    for path in paths:
        try:
            sh.phone.fs.mkdir(sh.path(path), parents="p" in flags)
        except OSError as exc:
            err.append(f"mkdir: '{path}': {exc.strerror}\n")
            code = 1
    return b"", "".join(err).encode(), code


@command("touch")
def _touch(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    err, code = [], 0
    for path in [a for a in argv[1:] if not a.startswith("-")]:
        full = sh.path(path)
        try:
            if not sh.phone.fs.exists(full):
                sh.phone.fs.write(full, b"")
        except OSError as exc:
            err.append(f"touch: '{path}': {exc.strerror}\n")
            code = 1
    return b"", "".join(err).encode(), code


@command("cp", "mv")
def _cp(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    tool = argv[0]
    _, args = _flags_and_args(argv, "rRfp")
    if len(args) != 2:
        return fail(f"{tool}: Needs 2 arguments\n")
    fs = sh.phone.fs
    src, dst = sh.path(args[0]), sh.path(args[1])
    if fs.is_dir(dst):
        dst = posixpath.join(dst, posixpath.basename(src))
    try:
        fs.write(dst, fs.read(src))
        if tool == "mv":
            fs.remove(src)
    except OSError as exc:
        return fail(_file_error(tool, args[0], exc))
    return ok()


def _input_lines(sh: Shell, files: list[str], stdin: bytes, tool: str) -> tuple[list[tuple[str, bytes]], list[str]]:
    if not files:
        return [("", read_stdin(sh, stdin))], []
    sources, errors = [], []
    for path in files:
        try:
            sources.append((path, sh.phone.fs.read(sh.path(path))))
        except OSError as exc:
            errors.append(_file_error(tool, path, exc))
    return sources, errors


@command("grep")
def _grep(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    flags: set[str] = set()
    args = argv[1:]
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "-e":
            break
        flags.update(args[0][1:])
        args = args[1:]
    if args and args[0] == "-e":
        args = args[1:]
    if not args:
        return fail("grep: no pattern\n", 2)
    pattern, files = args[0], args[1:]
    try:
        regex = re.compile(
            pattern if flags & {"E"} else pattern.replace(r"\|", "|"), re.IGNORECASE if "i" in flags else 0
        )
    except re.error as exc:
        return fail(f"grep: bad regex '{pattern}': {exc}\n", 2)
    sources, errors = _input_lines(sh, files, stdin, "grep")
    out, count = [], 0
    for name, data in sources:
        for line in data.decode("utf-8", "replace").splitlines():
            found = regex.search(line) is not None
            if found != ("v" in flags):
                count += 1
                prefix = f"{name}:" if len(files) > 1 else ""
                if "o" in flags and found:
                    out.extend(prefix + m.group() + "\n" for m in regex.finditer(line))
                else:
                    out.append(prefix + line + "\n")
    if "q" in flags:
        return b"", "".join(errors).encode(), 0 if count else 1
    text = f"{count}\n" if "c" in flags else "".join(out)
    return text.encode(), "".join(errors).encode(), (2 if errors else 0) if count else (2 if errors else 1)


def _head_tail(sh: Shell, argv: list[str], stdin: bytes, tail: bool) -> Result:
    count, by_bytes, files, args = 10, False, [], argv[1:]
    while args:
        arg = args.pop(0)
        if arg in ("-n", "-c") and args and args[0].isdigit():
            count, by_bytes = int(args.pop(0)), arg == "-c"
        elif re.fullmatch(r"-[nc]?\d+", arg):
            count, by_bytes = int(arg.lstrip("-nc")), arg.startswith("-c")
        else:
            files.append(arg)
    if not files and not tail and isinstance(stdin, Stdin):  # head stops reading once it has its lines
        enough = (lambda came: len(came) >= count) if by_bytes else (lambda came: came.count(b"\n") >= count)
        stdin = read_stdin_until(sh, stdin, enough) if count else b""
    sources, errors = _input_lines(sh, files, stdin, argv[0])
    out = bytearray()
    for _, data in sources:
        units = data if by_bytes else data.splitlines(keepends=True)
        part = (units[-count:] if tail else units[:count]) if count else units[:0]
        out += part if by_bytes else b"".join(part)
    return bytes(out), "".join(errors).encode(), 1 if errors else 0


@command("head")
def _head(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return _head_tail(sh, argv, stdin, tail=False)


@command("tail")
def _tail(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return _head_tail(sh, argv, stdin, tail=True)


@command("wc")
def _wc(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    flags, files = _flags_and_args(argv, "lwc")
    sources, errors = _input_lines(sh, files, stdin, "wc")
    out = []
    for name, data in sources:
        counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data)}
        shown = [str(counts[f]) for f in "lwc" if not flags or f in flags]
        out.append(" ".join(shown) + (f" {name}" if name else "") + "\n")
    return "".join(out).encode(), "".join(errors).encode(), 1 if errors else 0


@command("md5sum")
def _md5sum(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    sources, errors = _input_lines(sh, argv[1:], stdin, "md5sum")
    out = "".join(f"{hashlib.md5(data).hexdigest()}  {name or '-'}\n" for name, data in sources)
    return out.encode(), "".join(errors).encode(), 1 if errors else 0


# ------------------------------------------------------------------------- properties


@command("getprop")
def _getprop(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    props = sh.phone.props
    if len(argv) == 1:
        return ok("".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items())))
    default = argv[2] if len(argv) > 2 else ""
    return ok(props.get(argv[1], default) + "\n")


@command("setprop")
def _setprop(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    if len(argv) != 3:
        return fail("setprop: Need 2 arguments\n")
    if not sh.phone.setprop(argv[1], argv[2]):
        return fail(f"Failed to set property '{argv[1]}' to '{argv[2]}'.\nSee dmesg for error reason.\n")
    return ok()


# ---------------------------------------------------------------------------------- input

_INPUT_SOURCES = (
    "touchnavigation",
    "touchscreen",
    "joystick",
    "stylus",
    "touchpad",
    "gamepad",
    "dpad",
    "mouse",
    "keyboard",
    "trackball",
    "rotaryencoder",
)
_INPUT_FRAME = "com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:251)"
INPUT_HELP = (
    "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n\n"
    "The sources are: \n" + "".join(f"      {s}\n" for s in _INPUT_SOURCES[:-1]) + "\n"
    "-d: specify the display ID.\n"
    "      (Default: -1 for key event, 0 for motion event if not specified.)\n"
    "The commands and default sources are:\n"
    "      text <string> (Default: touchscreen)\n"
    "      keyevent [--longpress|--doubletap|--async|--delay <duration between keycodes in ms>] "
    "<key code number or name> ... (Default: keyboard)\n"
    "      tap <x> <y> (Default: touchscreen)\n"
    "      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n"
    "      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n"
    "      press (Default: trackball)\n"
    "      roll <dx> <dy> (Default: trackball)\n"
    "      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)\n"
    "      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard, the key order is "
    "important here.)\n"
)
#: Characters Android's virtual keyboard map can type; anything else fails the whole text.
TYPABLE = frozenset(chr(c) for c in range(0x20, 0x7F)) | {"\n", "\t"}


def decode_input_text(text: str) -> str:
    """What ``input text`` types for its argument: ``%s`` becomes a space (InputShellCommand.sendText)."""
    buff = list(text)
    escape = False
    i = 0
    while i < len(buff):
        if escape:
            escape = False
            if buff[i] == "s":
                buff[i] = " "
                del buff[i - 1]
                i -= 1
        if buff[i] == "%":
            escape = True
        i += 1
    return "".join(buff)


@command("input")
def _input(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    args = argv[1:]
    if args and args[0] in _INPUT_SOURCES:
        args = args[1:]
    if len(args) >= 2 and args[0] == "-d":
        args = args[2:]
    if not args or args[0] in ("help", "-h"):
        return ok(INPUT_HELP)
    sub, rest = args[0], args[1:]
    phone = sh.phone
    try:
        return _input_command(phone, sub, rest, args)
    except JavaException as exc:
        return java_exception_result(sub, exc)


def _required(rest: list[str], count: int, args: list[str]) -> list[str]:
    """The next ``count`` arguments; Android names the last argument it read when one is missing."""
    if len(rest) < count:
        raise _argument_expected(args[-1], _INPUT_FRAME)
    return rest[:count]


def _input_command(phone: PhoneCore, sub: str, rest: list[str], args: list[str]) -> Result:
    # Injected into input dispatch, as InputManager.injectInputEvent does: the input
    # hardware never sees these events, so `getevent` does not show them.
    if sub == "text":
        (text,) = _required(rest, 1, args)
        typed = decode_input_text(text)
        if any(ch not in TYPABLE for ch in typed):
            raise JavaException(
                "java.lang.NullPointerException",
                "Attempt to get length of null array",
                "com.android.server.input.InputShellCommand.sendText(InputShellCommand.java:338)",
            )
        for chunk in re.split(r"([\n])", typed):
            if chunk == "\n":
                phone.input.press_key(KEYCODE_ENTER)
            elif chunk:
                phone.input.type_text(chunk.replace("\t", ""))
        return ok()
    if sub == "keyevent":
        longpress = False
        while rest and rest[0].startswith("--"):
            flag = rest.pop(0)
            longpress = longpress or flag == "--longpress"
            if flag == "--delay" and rest:
                rest.pop(0)
        if not rest:
            raise _argument_expected(args[-1], _INPUT_FRAME)
        for name in rest:
            phone.input.press_key(keycode_from_string(name))
        return ok()
    if sub == "tap":
        x, y = (_java_float(v, sub, _INPUT_FRAME) for v in _required(rest, 2, args))
        if _finite(x, y):
            phone.input.tap(x, y)
        return ok()
    if sub in ("swipe", "draganddrop"):
        coords = [_java_float(v, sub, _INPUT_FRAME) for v in _required(rest, 4, args)]
        duration = 300
        if len(rest) > 4:
            try:
                duration = int(rest[4])
            except ValueError:
                raise JavaException(
                    "java.lang.IllegalArgumentException", f"Error: Invalid arguments for command: {sub}", _INPUT_FRAME
                ) from None
            duration = 300 if duration < 0 else duration
        if sub == "draganddrop":
            duration += int(phone.settings.get("secure", "long_press_timeout") or 400)
        if _finite(*coords):
            phone.input.swipe(*coords, duration_ms=duration)
        return ok()
    if sub == "motionevent":
        action, x, y = _required(rest, 3, args)
        x, y = _java_float(x, sub, _INPUT_FRAME), _java_float(y, sub, _INPUT_FRAME)
        return _motion_event(phone, action.upper(), x, y)
    if sub in ("press", "roll", "keycombination"):
        return ok()
    return ok(f"Unknown command: {sub}\n")


def _finite(*values: float) -> bool:
    return all(v == v and abs(v) != float("inf") for v in values)


def _motion_event(phone: PhoneCore, action: str, x: float, y: float) -> Result:
    """``input motionevent``: a DOWN ... UP pair becomes a tap, long press or swipe."""
    if action not in ("DOWN", "UP", "MOVE", "CANCEL"):
        raise JavaException("java.lang.IllegalArgumentException", f"Unknown action: {action}", _INPUT_FRAME)
    if action == "UP" and not _finite(x, y):
        action = "CANCEL"  # lifted nowhere: the touch ends without a gesture
    phone.input.motion_event(action, x, y)
    return ok()


# ------------------------------------------------------------------------------- screen

SCREENCAP_USAGE = (
    "usage: screencap [-hp] [-d display-id] [FILENAME]\n"
    "   -h: this message\n"
    "   -p: save the file as a png.\n"
    "   -d: specify the physical display ID to capture (default: " + DISPLAY_UNIQUE_ID + ")\n"
    '       see "dumpsys SurfaceFlinger --display-id" for valid display IDs.\n'
    "If FILENAME ends with .png it will be saved as a png.\n"
    "If FILENAME is not given, the results will be printed to stdout.\n"
)


@command("screencap")
def _screencap(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    png, args = False, argv[1:]
    target = None
    while args:
        arg = args.pop(0)
        if arg == "-p":
            png = True
        elif arg == "-d" and args:
            args.pop(0)
        elif arg.startswith("-"):
            return fail(SCREENCAP_USAGE)
        else:
            target = arg
    if target is not None:
        png = png or target.endswith(".png")
        data = sh.phone.screencap(png=png)
        try:
            sh.phone.fs.write(sh.path(target), data)
        except OSError as exc:
            return fail(f"Error opening file: {target} ({exc.strerror})\n")
        return ok()
    if png:
        return sh.phone.screencap(png=True), b"", 0
    header, pixels = sh.phone.display.screencap_parts()
    if sh.stream(header):  # to a client as it is written: the frame's own memory, not joined into a copy
        sh.stream(pixels)
        return ok()
    return header + pixels, b"", 0


UIAUTOMATOR_USAGE = (
    "Usage: uiautomator <subcommand> [options]\n\n"
    "Available subcommands:\n\n"
    "help: displays help message\n\n"
    "runtest: executes UI automation tests\n"
    "    runtest <class spec> [options]\n\n"
    "dump: creates an XML dump of current UI hierarchy\n"
    "    dump [--verbose][file]\n"
    "      [--compressed]: dumps compressed layout information.\n"
    "      [file]: the location where the dumped XML should be stored, default is\n"
    "      /sdcard/window_dump.xml\n\n"
    "events: prints out accessibility events until terminated\n"
)


@command("uiautomator")
def _uiautomator(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    if len(argv) < 2 or argv[1] != "dump":
        return ok(UIAUTOMATOR_USAGE)
    files = [a for a in argv[2:] if not a.startswith("-")]
    target = sh.path(files[0]) if files else "/sdcard/window_dump.xml"
    if not sh.phone.idle:
        return fail("ERROR: could not get idle state.\n", 0)
    xml = sh.phone.dump_ui()
    message = f"UI hierchary dumped to: {target}\n"
    if target == "/dev/tty":
        return (xml + message).encode(), b"", 0
    try:
        sh.phone.fs.write(target, xml.encode())
    except OSError as exc:
        return fail(f"java.io.FileNotFoundException: {target}: open failed: {exc.strerror}\n", 0)
    return ok(message)


@command("wm")
def _wm(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    phone = sh.phone
    args = argv[1:]
    if len(args) >= 2 and args[0] == "-d":
        args = args[2:]
    if not args:
        return ok(
            "Window manager (window) commands:\n  help\n      Print this help text.\n"
            "  size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]\n  density [reset|DENSITY] [-d DISPLAY_ID]\n"
        )
    sub, rest = args[0], args[1:]
    if sub == "size":
        if not rest:
            w, h = phone.physical_size
            text = f"Physical size: {w}x{h}\n"
            if phone.override_size:
                text += f"Override size: {phone.override_size[0]}x{phone.override_size[1]}\n"
            return ok(text)
        if rest[0] == "reset":
            phone.set_override_size(None)
            return ok()
        match = re.fullmatch(r"(\d+)(px|dp)?x(\d+)(px|dp)?", rest[0])
        if not match:
            return fail(f"Error: bad size {rest[0]}\n", 255)
        w, h = int(match.group(1)), int(match.group(3))
        if match.group(2) == "dp":
            w = round(w * phone.physical_density / 160)
        if match.group(4) == "dp":
            h = round(h * phone.physical_density / 160)
        if (w, h) == phone.physical_size:  # DisplayContent.setForcedSize: the physical size clears the override
            phone.set_override_size(None)
            return ok()
        most = 3 * max(phone.physical_size)  # and bounds the rest: 200 px up to 3x the larger side
        phone.set_override_size((min(max(w, 200), most), min(max(h, 200), most)))
        return ok()
    if sub == "density":
        if not rest:
            text = f"Physical density: {phone.physical_density}\n"
            if phone.override_density:
                text += f"Override density: {phone.override_density}\n"
            return ok(text)
        if rest[0] == "reset":
            phone.set_override_density(None)
            return ok()
        if not rest[0].isdigit():
            return fail(f'Error: bad number java.lang.NumberFormatException: For input string: "{rest[0]}"\n', 255)
        if int(rest[0]) < 72:
            return fail("Error: density must be >= 72\n", 255)
        phone.set_override_density(int(rest[0]))
        return ok()
    return f"Unknown command: {sub}\n".encode(), b"", 255


# --------------------------------------------------------------------------- activities

_AM_FRAME = "com.android.server.am.ActivityManagerShellCommand.onCommand(ActivityManagerShellCommand.java:204)"


def parse_intent(args: list[str]) -> tuple[Intent, dict[str, bool]]:
    """``Intent.parseCommandArgs`` plus ``am start``'s own options (-W, -S...)."""
    intent = Intent()
    options = {"wait": False, "stop": False}
    args = list(args)
    while args:
        arg = args.pop(0)
        if arg == "-a":
            intent.action = _next(args, arg)
        elif arg == "-c":
            intent.categories += (_next(args, arg),)
        elif arg == "-n":
            intent.component = _component(_next(args, arg))
        elif arg == "-p":
            intent.package = _next(args, arg)
        elif arg == "-d":
            intent.data = _next(args, arg)
        elif arg == "-f":
            value = _next(args, arg)
            intent.flags = int(value, 16) if value.lower().startswith("0x") else int(value)
        elif arg in ("--es", "--esn"):
            key = _next(args, arg)
            intent.extras[key] = None if arg == "--esn" else _next(args, key)
        elif arg in ("--ei", "--el"):
            key = _next(args, arg)
            value = _next(args, key)
            try:
                intent.extras[key] = int(value)
            except ValueError:
                raise JavaException(
                    "java.lang.NumberFormatException", f'For input string: "{value}"', _AM_FRAME
                ) from None
        elif arg == "--ef":
            key = _next(args, arg)
            intent.extras[key] = float(_next(args, key))
        elif arg == "--ez":
            key = _next(args, arg)
            value = _next(args, key).lower()
            intent.extras[key] = value in ("true", "t", "1")
        elif arg == "-W":
            options["wait"] = True
        elif arg == "-S":
            options["stop"] = True
        elif arg in (
            "--user",
            "-t",
            "--display",
            "--windowingMode",
            "--activityType",
            "-P",
            "--start-profiler",
            "--sampling",
            "--attach-agent",
            "-R",
        ):
            _next(args, arg)
        elif arg.startswith("-"):
            continue  # flags such as --activity-clear-task, -D, --track-allocation
        elif ":" in arg:
            intent.data = arg
        elif "/" in arg:
            intent.action = intent.action or "android.intent.action.MAIN"
            intent.categories += ("android.intent.category.LAUNCHER",)
            intent.component = _component(arg)
        else:
            intent.action = intent.action or "android.intent.action.MAIN"
            intent.categories += ("android.intent.category.LAUNCHER",)
            intent.package = arg
    return intent, options


def _next(args: list[str], prev: str) -> str:
    if not args:
        raise _argument_expected(prev, _AM_FRAME)
    return args.pop(0)


def _component(text: str) -> tuple[str, str]:
    if "/" not in text or text.startswith("/") or text.endswith("/"):
        raise JavaException("java.lang.IllegalArgumentException", f"Bad component name: {text}", _AM_FRAME)
    package, cls = text.split("/", 1)
    return package, package + cls if cls.startswith(".") else cls


@command("am")
def _am(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    if len(argv) < 2:
        return ok(
            "Activity manager (activity) commands:\n  help\n      Print this help text.\n"
            "  start [-D] [-N] [-W] [-P <FILE>] [--start-profiler <FILE>] [-S] <INTENT>\n"
            "  force-stop [--user <USER_ID> | all | current] <PACKAGE>\n"
            "  broadcast [--user <USER_ID> | all | current] <INTENT>\n"
        )
    sub, rest = argv[1], argv[2:]
    try:
        return _am_command(sh.phone, sub, rest)
    except JavaException as exc:
        return java_exception_result(sub, exc)


def _am_command(phone: PhoneCore, sub: str, rest: list[str]) -> Result:
    if sub in ("start", "start-activity"):
        intent, options = parse_intent(rest)
        out = []
        if options["stop"]:
            target = phone.resolve(intent)
            if target is not None:
                out.append(f"Stopping: {target[0].package}\n")
                phone.force_stop(target[0].package)
        out.append(f"Starting: {intent}\n")
        result = phone.start_activity(intent)
        messages = {
            "not-found": (
                f"Error type 3\nError: Activity class {{{intent.component[0]}/{intent.component[1]}}} does not exist.\n"
            )
            if intent.component
            else f"Error: Activity not started, unable to resolve {intent}\n",
            "brought-to-front": "Warning: Activity not started, its current task has been brought to the front\n",
        }
        err = messages.get(result, "")
        if options["wait"]:
            package, cls = phone.foreground()
            out.append(err)
            err = ""
            out.append(
                f"Status: ok\nLaunchState: {'HOT' if result == 'brought-to-front' else 'COLD'}\n"
                f"Activity: {short_component(package, cls)}\nTotalTime: 120\nWaitTime: 123\nComplete\n"
            )
        return "".join(out).encode(), err.encode(), 0
    if sub in ("force-stop", "kill", "stop-app"):
        args = [a for a in rest if not a.startswith("--")]
        if "--user" in rest:
            args = args[1:]
        if not args:
            raise _argument_expected(sub, _AM_FRAME)
        if sub != "kill":
            phone.force_stop(args[-1])
        return ok()
    if sub == "broadcast":
        intent, _ = parse_intent(rest)
        intent.flags |= 0x400000
        return ok(f"Broadcasting: {intent}\nBroadcast completed: result=0\n")
    if sub == "get-current-user":
        return ok("0\n")
    if sub == "stack" and int(phone.getprop("ro.build.version.sdk") or 34) <= 30 and rest[:1] == ["list"]:
        return ok(_stack_list(phone))  # Android 11 and before (android_env reads it)
    return f"Unknown command: {sub}\n".encode(), b"", 255


def _stack_list(phone: PhoneCore) -> str:
    """``am stack list`` (Android 10/11): each task, front first, with its top activity."""
    w, h = phone.size
    lines = []
    for index, task in enumerate(reversed(phone.activity_stack())):
        task_id = 10 + len(phone.activity_stack()) - index
        package, cls = task[-1].split("/", 1)
        lines.append(f"Stack id={task_id} bounds=[0,0][{w},{h}] displayId=0 userId=0")
        lines.append(
            f"  taskId={task_id}: {short_component(package, cls)} bounds=[0,0][{w},{h}] userId=0 "
            f"visible={str(index == 0).lower()} topActivity=ComponentInfo{{{package}/{cls}}}"
        )
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- packages


@command("pm")
def _pm(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return _package_command(sh, argv[1:], stdin)


_PM_FRAME = "com.android.server.pm.PackageManagerShellCommand.onCommand(PackageManagerShellCommand.java:232)"


def _package_command(sh: Shell, args: list[str], stdin: bytes) -> Result:
    phone = sh.phone
    if not args:
        return ok(
            "Package manager (package) commands:\n  help\n    Print this help text.\n"
            "  list packages [-f] [-d] [-e] [-s] [-3] [-i] [-l] [-u] [-U] [FILTER]\n"
            "  path [--user USER_ID] PACKAGE\n  clear [--user USER_ID] PACKAGE\n"
        )
    sub, rest = args[0], args[1:]
    if sub == "list" and rest and rest[0] in ("packages", "package"):
        flags = {a for a in rest[1:] if a.startswith("-")}
        words = [a for a in rest[1:] if not a.startswith("-")]
        needle = words[-1] if words else ""
        lines = []
        for app in phone.packages.installed():
            if ("-3" in flags and app.system) or ("-s" in flags and not app.system) or ("-d" in flags):
                continue
            if needle in app.package:
                prefix = f"{phone.packages.apk_path(app)}=" if "-f" in flags else ""
                uid = f" uid:{phone.processes.uid(app.package)}" if "-U" in flags else ""
                lines.append(f"package:{prefix}{app.package}{uid}\n")
        return ok("".join(lines))
    if sub == "path":
        names = [a for a in rest if not a.startswith("--")]
        app = phone.packages.get(names[-1]) if names else None
        return ok(f"package:{phone.packages.apk_path(app)}\n") if app else (b"", b"", 1)
    if sub == "clear":
        names = [a for a in rest if not a.startswith("--")]
        if not names:
            return fail("Error: no package specified\n")
        return ok("Success\n") if phone.packages.clear_data(names[-1]) else fail("Failed\n")
    if sub in ("install", "install-streamed"):
        return _install(sh, rest, stdin)
    names = [a for a in rest if not a.startswith("-")]
    if sub == "uninstall":
        if "--user" in rest:
            names = names[1:]
        app = phone.packages.get(names[-1]) if names else None
        if app is None or app.system and "--user" not in rest:
            return _pm_failure("Failure [DELETE_FAILED_INTERNAL_ERROR]\n")
        phone.packages.uninstall(app.package)
        return ok("Success\n")
    try:
        if sub in ("grant", "revoke"):
            if len(names) < 2:
                raise JavaException("java.lang.IllegalArgumentException", "Error: no permission specified", _PM_FRAME)
            app = _known_package(phone, names[0])
            if not names[1].startswith("android.permission."):
                raise JavaException("java.lang.IllegalArgumentException", f"Unknown permission: {names[1]}", _PM_FRAME)
            (phone.packages.grant if sub == "grant" else phone.packages.revoke)(app.package, names[1])
            return ok()
        if sub in ("disable-user", "disable", "enable", "default-state"):
            if "--user" in rest:
                names = names[1:]
            app = _known_package(phone, names[-1] if names else "")
            phone.packages.set_enabled(app.package, not sub.startswith("disable"))
            state = "disabled-user" if sub == "disable-user" else "disabled" if sub == "disable" else "enabled"
            return ok(f"Package {app.package} new state: {state}\n")
    except JavaException as exc:
        return java_exception_result(sub, exc)
    return f"Unknown command: {sub}\n".encode(), b"", 255


def _pm_failure(text: str) -> Result:
    """A failed install, uninstall or clear: PackageManagerShellCommand prints it on stdout and exits 1."""
    return text.encode(), b"", 1


def _known_package(phone: PhoneCore, package: str) -> App:
    app = phone.packages.get(package)
    if app is None:
        raise JavaException("java.lang.IllegalArgumentException", f"Unknown package: {package}", _PM_FRAME)
    return app


def _install(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """``pm install [-r] [-g] [-S SIZE] [PATH]``: the APK from a device file, or stdin (``adb install``)."""
    paths = [
        a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] not in ("-S", "--user", "-i"))
    ]
    if paths:
        try:
            data = sh.phone.fs.read(sh.path(paths[-1]))
        except OSError:
            return fail(f"Error: Can't open file: {paths[-1]}\nException occurred while executing 'install':\n", 1)
    else:
        data = read_stdin(sh, stdin)
    session = f"vmdl{zlib.crc32(data) % 2_000_000_000}.tmp"
    package = apk_package(data)
    if package is None:
        where = f"/data/app/{session}/base.apk"
        return _pm_failure(
            f"Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed parse during installPackageLI: {where} "
            f"(at Binary XML file line #-1): Failed to load asset path {where}]\n"
        )
    existing = sh.phone.packages.get(package)
    if existing is not None and "-r" not in args and existing.system:
        return _pm_failure(
            f"Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install {package} without first uninstalling.]\n"
        )
    sh.phone.packages.install(package)
    return ok("Success\n")


@command("settings")
def _settings(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    args = argv[1:]
    if len(args) >= 2 and args[0] == "--user":
        args = args[2:]
    if not args:
        return (
            b"Settings provider (settings) commands:\n  help\n      Print this help text.\n"
            b"  get [--user <USER_ID> | current] NAMESPACE KEY\n"
            b"  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]\n"
            b"  delete [--user <USER_ID> | current] NAMESPACE KEY\n"
            b"  list [--user <USER_ID> | current] NAMESPACE\n",
            b"",
            255,
        )
    verb, rest = args[0], args[1:]
    if len(rest) >= 2 and rest[0] == "--user":
        rest = rest[2:]
    if verb not in ("get", "put", "delete", "list"):
        return fail(f"Invalid command: {verb}\n", 255)
    if not rest:
        return fail("Bad arguments\n", 255)
    namespace = rest[0].lower()
    if namespace not in NAMESPACES:
        return fail(f"Invalid namespace '{rest[0]}'\n", 255)
    store = sh.phone.settings
    if verb == "list":
        return ok("".join(f"{k}={v}\n" for k, v in store.items(namespace)))
    if len(rest) < 2 or (verb == "put" and len(rest) < 3):
        return fail("Bad arguments\n", 255)
    key = rest[1]
    if verb == "get":
        value = store.get(namespace, key)
        return ok(f"{'null' if value is None else value}\n")
    if verb == "delete":
        return ok(f"Deleted {store.delete(namespace, key)} rows\n")
    store.put(namespace, key, rest[2])
    return ok()


# --------------------------------------------------------------------------- services


def _hash(text: str) -> str:
    return f"{zlib.crc32(text.encode()) & 0xFFFFFFF:x}"


def _sdk(phone: PhoneCore) -> int:
    return int(phone.getprop("ro.build.version.sdk") or 34)


@command("dumpsys")
def _dumpsys(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    phone = sh.phone
    service = argv[1] if len(argv) > 1 else ""
    package, cls = phone.foreground()
    short = short_component(package, cls)
    task_id = 10 + len(phone.activity_stack())
    record = f"ActivityRecord{{{_hash(short)} u0 {short} t{task_id}}}"
    pid = phone.processes.pid(package) or 0
    if service == "window":
        window = f"Window{{{_hash(package + cls)} u0 {package}/{cls}}}"
        return ok(
            "WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
            f"  Window #0 {window}:\n"
            f"    mDisplayId=0 rootTaskId={task_id} mSession=Session{{{_hash(package)} {pid}:u0a10000}}\n"
            f"  mCurrentFocus={window}\n"
            f"  mFocusedApp={record}\n\n" + _display_rotation()
        )
    if service == "activity":
        return ok(_dumpsys_activity(phone, argv[2] if len(argv) > 2 else "activities", record, task_id, pid))
    if service == "display":
        (w, h), (left, top, right, bottom), (pw, ph) = phone.size, phone.metrics.physical_frame, phone.physical_size
        viewport = (
            f"DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, "
            f"uniqueId='local:{DISPLAY_UNIQUE_ID}', physicalPort=0, orientation=0, "
            f"logicalFrame=Rect(0, 0 - {w}, {h}), physicalFrame=Rect({left}, {top} - {right}, {bottom}), "
            f"deviceWidth={pw}, deviceHeight={ph}}}"
        )
        return ok(
            f"DISPLAY MANAGER (dumpsys display)\n  mViewports=[{viewport}]\n"
            f'  mDefaultViewport={viewport}\n  Display 0:\n    mBaseDisplayInfo=DisplayInfo{{"Built-in '
            f'Screen", displayId 0, real {w} x {h}, rotation 0, density {phone.density}}}\n'
        )
    if service == "location":  # LocationManagerService.dump: the gps provider's last location
        fix = phone.location
        last = "null"
        if fix is not None:
            millis = int(fix.uptime * 1000)
            elapsed = f"+{millis // 60_000}m{millis // 1000 % 60}s{millis % 1000}ms"
            last = (
                f"Location[gps {fix.latitude:.6f},{fix.longitude:.6f} hAcc=5.0 et={elapsed} "
                f"alt={fix.altitude} vAcc=0.5]"
            )
        return ok(f"Location Manager State:\n  gps provider:\n    last location={last}\n")
    if service == "power":
        return ok("POWER MANAGER (dumpsys power)\n  mWakefulness=Awake\n  mHoldingDisplaySuspendBlocker=true\n")
    if service == "battery":  # BatteryService.dumpInternal
        return ok(
            "Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  Wireless powered: false\n"
            "  Dock powered: false\n  Max charging current: 500000\n  Max charging voltage: 5000000\n"
            "  Charge counter: 4000000\n  status: 2\n  health: 2\n  present: true\n  level: 100\n"
            "  scale: 100\n  voltage: 5000\n  temperature: 250\n  technology: Li-ion\n"
        )
    if service == "input":
        return ok(_dumpsys_input(phone))
    app = phone.packages.get(argv[2]) if service == "package" and len(argv) > 2 else None
    if app is not None:
        permissions = "".join(f"      {p}: granted=true\n" for p in phone.packages.granted(app.package))
        return ok(
            f"Packages:\n  Package [{argv[2]}] ({_hash(argv[2])}):\n    userId={phone.processes.uid(argv[2])}\n"
            "    versionCode=1 minSdk=29 targetSdk=34\n    versionName=1.0\n"
            "    pkgFlags=[ HAS_CODE ALLOW_CLEAR_USER_DATA ]\n"
            f"    User 0: ceDataInode=0 installed=true hidden=false suspended=false stopped=false "
            f"notLaunched=false enabled={1 if phone.packages.enabled(app) else 0}\n"
            f"    runtime permissions:\n{permissions}"
        )
    if not service:
        return ok(
            "Currently running services:\n  activity\n  battery\n  display\n  input\n  location\n  package\n"
            "  power\n  window\n"
        )
    return fail(f"Can't find service: {service}\n", 0)


def _display_rotation() -> str:
    """``dumpsys window``'s DisplayRotation section (DisplayRotation.dump, WindowOrientationListener.dump)."""
    return (
        "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0\n"
        "    DisplayRotation\n      mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED\n"
        "      mLastOrientation=-1\n      mRotation=0 mDeferredRotationPauseCount=0\n"
        "      mLandscapeRotation=ROTATION_90 mSeascapeRotation=ROTATION_270\n"
        "      mPortraitRotation=ROTATION_0 mUpsideDownRotation=ROTATION_180\n"
        "      mSupportAutoRotation=true\n      WindowOrientationListener\n        mEnabled=false\n"
        "        mCurrentRotation=ROTATION_0\n        mSensorType=null\n        mSensor=null\n        mRate=2\n\n"
        "      mUserRotationMode=USER_ROTATION_LOCKED mUserRotation=ROTATION_0 mCameraRotationMode=0"
        " mAllowAllRotations=unknown\n      mFixedToUserRotation=false\n"
    )


def _dumpsys_input(phone: PhoneCore) -> str:
    """``dumpsys input`` (InputManagerService.dump): its event hub and the touchscreen's viewport.

    The viewport line is ``DisplayViewport::toString()`` (frameworks/native
    include/input/DisplayViewport.h): the logical frame is the ``wm size`` the apps see, the
    physical frame where it lands on the panel.
    """
    (lw, lh), (pw, ph) = phone.size, phone.physical_size
    frame = ", ".join(map(str, phone.metrics.physical_frame))
    viewport = (
        f"Viewport INTERNAL: displayId=0, uniqueId=local:{DISPLAY_UNIQUE_ID}, port=0, orientation=0, "
        f"logicalFrame=[0, 0, {lw}, {lh}], physicalFrame=[{frame}], deviceSize=[{pw}, {ph}], isActive=[1]"
    )
    devices = list(enumerate(phone.evdev.devices, 1))  # EventHub numbers them as it opens them
    hub = "".join(f"    {i}: {d.name}\n      Classes: {d.classes}\n      Path: {d.path}\n" for i, d in devices)
    touch_id, touch = next((i, d) for i, d in devices if "TOUCH" in d.classes)
    return (
        "INPUT MANAGER (dumpsys input)\n\nInput Manager Service (Java) State:\n  Interactive: true\n\n"
        "Event Hub State:\n  BuiltInKeyboardId: -2\n  Devices:\n"
        "    -1: Virtual\n      Classes: KEYBOARD | ALPHAKEY\n      Path: <virtual>\n" + hub + "\n"
        f"Input Reader State (Nums of device: {len(devices)}):\n"
        f"  Device {touch_id}: {touch.name}\n    Sources: TOUCHSCREEN\n"
        "    Touch Input Mapper (mode - DIRECT):\n"
        f"      Raw Touch Axes:\n        X: min=0, max={TOUCH_MAX}, flat=0, fuzz=0, resolution=0\n"
        f"        Y: min=0, max={TOUCH_MAX}, flat=0, fuzz=0, resolution=0\n"
        f"      {viewport}\n      DisplayBounds: width={lw}, height={lh}\n"
        f"      PhysicalFrameInRotatedDisplay: [{frame}]\n      InputDeviceOrientation: 0\n"
    )


def _dumpsys_activity(phone: PhoneCore, section: str, record: str, task_id: int, pid: int) -> str:
    """``dumpsys activity activities|top|processes`` as the phone's Android release prints it."""
    package, cls = phone.foreground()
    short = short_component(package, cls)
    if section == "top":
        return f"TASK {task_id}:{package} id={task_id} userId=0\n  ACTIVITY {short} {_hash(short)} pid={pid}\n"
    if section == "processes":
        lines = ["ACTIVITY MANAGER RUNNING PROCESSES (dumpsys activity processes)"]
        for p in phone.processes.table():
            if p.uid:
                lines.append(f"  *APP* UID {p.uid} ProcessRecord{{{_hash(p.name)} {p.pid}:{p.name}/{p.user}}}")
        return "\n".join(lines) + "\n"
    head = "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\nDisplay #0 (activities from top to bottom):\n"
    uid = phone.processes.uid(package)
    task = f"  * Task{{{_hash(str(task_id))} #{task_id} type=standard A={uid}:{package} U=0 visible=true}}\n"
    if _sdk(phone) >= 33:  # Android 13 and 14: the task's top resumed activity, then the global one
        return (
            head + task + f"    topResumedActivity={record}\n    * Hist  #0: {record}\n\n"
            f"  ResumedActivity: {record}\n  mFocusedApp={record}\n"
        )
    return (  # up to Android 12
        head + task + f"    * Hist #0: {record}\n\n  mResumedActivity: {record}\n"
        f"  ResumedActivity: {record}\n  mFocusedApp={record}\n"
    )


@command("svc")
def _svc(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    phone = sh.phone
    if len(argv) == 3 and argv[1] in ("wifi", "bluetooth") and argv[2] in ("enable", "disable"):
        setter = phone.radios.set_wifi if argv[1] == "wifi" else phone.radios.set_bluetooth
        setter(argv[2] == "enable")
        return ok()
    if len(argv) >= 2 and argv[1] in ("data", "power", "usb", "nfc"):
        return ok()
    if len(argv) >= 2 and argv[1] == "wifi":
        return (
            b"Control the Wi-Fi manager\n\nusage: svc wifi [enable|disable]\n         Turn Wi-Fi on or off.\n\n",
            b"",
            1,
        )
    return ok(
        "Available commands:\n    help     Show information about the subcommands\n"
        "    power    Control the power manager\n    data     Control mobile data connectivity\n"
        "    wifi     Control the Wi-Fi manager\n    bluetooth Control Bluetooth service\n"
    )


@command("cmd")
def _cmd(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    if len(argv) < 2:
        return fail(
            "cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.\n",
            20,
        )
    service, rest = argv[1], argv[2:]
    phone = sh.phone
    if service == "-l":
        return ok(
            "Currently running services:\n  activity\n  bluetooth_manager\n  connectivity\n  input\n"
            "  package\n  settings\n  wifi\n  window\n"
        )
    routes = {"activity": "am", "package": None, "settings": "settings", "input": "input", "window": "wm"}
    if service in routes:
        if service == "package":
            return _package_command(sh, rest, stdin)
        name = routes[service]
        return COMMANDS[name](sh, [name, *rest], stdin)
    if service == "connectivity" and rest[:1] == ["airplane-mode"]:
        if len(rest) == 1:
            return ok("enabled\n" if phone.radios.airplane_enabled else "disabled\n")
        if rest[1] in ("enable", "disable"):
            phone.radios.set_airplane(rest[1] == "enable")
            return ok()
    if service == "wifi" and rest[:1] == ["set-wifi-enabled"] and len(rest) == 2:
        phone.radios.set_wifi(rest[1] == "enabled")
        return ok()
    if service == "wifi" and rest[:1] == ["status"]:
        return ok("Wifi is enabled\n" if phone.radios.wifi_enabled else "Wifi is disabled\n")
    if service == "bluetooth_manager" and rest[:1] in (["enable"], ["disable"]):
        phone.radios.set_bluetooth(rest[0] == "enable")
        return ok()
    if service in ("connectivity", "wifi", "bluetooth_manager"):
        return f"Unknown command: {' '.join(rest)}\n".encode(), b"", 255
    return fail(f"cmd: Can't find service: {service}\n", 20)


@command("monkey")
def _monkey(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    args = argv[1:]
    package = args[args.index("-p") + 1] if "-p" in args and args.index("-p") + 1 < len(args) else None
    app = sh.phone.packages.get(package) if package else None
    if app is None or not app.main:
        return fail("** No activities found to run, monkey aborted.\n", 252)
    sh.phone.start_activity(
        Intent(
            action="android.intent.action.MAIN",
            categories=("android.intent.category.LAUNCHER",),
            component=(app.package, app.main),
        )
    )
    return ok("Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n")


@command("reboot")
def _reboot(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    sh.phone.reboot(power_off="-p" in argv[1:])
    return ok()
