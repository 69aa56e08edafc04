"""``logcat``: the phone's log (:mod:`androidrl.virtual.system.logd`), in Android's formats.

It follows AOSP's ``logcat`` (``system/logging/logcat/logcat.cpp``, options as its
``getopt_long`` reads them, errors as its ``error()`` prints them) and its line formats
(``liblog/logprint.cpp``): ``-d``, ``-c``/``--clear``, ``-s``, ``TAG:PRIO`` filters (and
``$ANDROID_LOG_TAGS``), ``-v``/``--format threadtime|brief|time|tag|process|epoch|long``,
``-b``/``--buffer main|system|events|crash|radio|all|default``, ``-t``/``--tail N|TIME``,
``-T N|TIME``, ``-e``/``--regex``, ``-m``/``--max-count``, ``-D``/``--dividers``,
``--pid=PID``, ``-g``/``--buffer-size``. Without ``-d`` it streams new lines until the client
goes away; a phone that logs nothing for a second writes a ``V/VirtualPhone: heartbeat`` line,
since a client such as adbutils notices that it was asked to stop only when a line comes (a
device's log is never quiet that long).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command
from androidrl.virtual.system.logd import BUFFERS, DEFAULT_BUFFERS, PRIORITIES, LogEntry
from androidrl.virtual.system.processes import SYSTEM_SERVER


def _stamp(entry: LogEntry, year: bool = False) -> str:
    moment = datetime.fromtimestamp(entry.time)
    return moment.strftime("%Y-%m-%d %H:%M:%S" if year else "%m-%d %H:%M:%S") + f".{int(entry.time * 1000) % 1000:03d}"


def format_line(entry: LogEntry, form: str) -> str:
    """One line in a ``logcat -v`` format (AOSP ``logprint.cpp``)."""
    head = {
        "brief": f"{entry.priority}/{entry.tag:<8}({entry.pid:5d}): ",
        "tag": f"{entry.priority}/{entry.tag:<8}: ",
        "process": f"{entry.priority}({entry.pid:5d}) ",
        "time": f"{_stamp(entry)} {entry.priority}/{entry.tag:<8}({entry.pid:5d}): ",
        "threadtime": f"{_stamp(entry)} {entry.pid:5d} {entry.tid:5d} {entry.priority} {entry.tag:<8}: ",
        "epoch": f"{entry.time:>12.3f} {entry.pid:5d} {entry.tid:5d} {entry.priority} {entry.tag:<8}: ",
        "long": f"[ {_stamp(entry)} {entry.pid:5d}:{entry.tid:5d} {entry.priority}/{entry.tag:<8} ]\n",
    }[form]
    if form == "process":
        return f"{head}{entry.message}  ({entry.tag})"
    return head + entry.message + ("\n" if form == "long" else "")


_FORMATS = ("brief", "tag", "process", "time", "threadtime", "epoch", "long")
_MODIFIERS = ("color", "usec", "year", "zone", "uid", "printable", "monotonic", "nsec", "descriptive", "UTC")
_TIME = re.compile(r"^(?:(\d{4})-)?(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?$")
USAGE = "Usage: logcat [options] [filterspecs]\n"
#: How long a followed log may stay quiet before the phone writes a line into it.
HEARTBEAT_SECONDS = 1.0
#: getopt_long's short options (":cdDhLt:T:gG:sQf:r:n:v:b:BSpP:m:e:") and long ones, by what they take.
_TAKES_VALUE = set("tTGfrnvbPme")
_LONG = {
    "binary": "B", "buffer": "b", "buffer-size": "g", "clear": "c", "dividers": "D", "file": "f", "format": "v",
    "grep": "e", "head": "m", "help": "h", "last": "L", "max-count": "m", "pid": "pid", "print": "print",
    "prune": "p", "regex": "e", "rotate-count": "n", "rotate-kbytes": "r", "statistics": "S", "tail": "t",
    "wrap": "wrap",
}  # fmt: skip
#: What logcat does that the virtual phone does not: refused with a message, never ignored.
_UNSUPPORTED = {"f": "-f (to a file)", "r": "-r", "n": "-n", "B": "-B (binary)", "S": "-S (statistics)",
                "p": "-p (prune list)", "P": "-P (prune list)", "L": "-L (the last boot's log)"}  # fmt: skip


@dataclass
class _Options:
    dump: bool = False
    clear: bool = False
    form: str = "threadtime"
    buffers: tuple[str, ...] = DEFAULT_BUFFERS
    tail_count: int | None = None
    since: float | None = None
    regex: re.Pattern | None = None
    max_count: int | None = None
    filters: tuple[tuple[str, str], ...] = ()
    default_priority: str = "V"
    dividers: bool = False
    pid: int | None = None
    sizes: bool = False
    help: bool = False


class _Usage(Exception):
    pass


def _parse_time(text: str) -> float | None:
    """``MM-DD hh:mm:ss.mmm``, ``YYYY-MM-DD hh:mm:ss.mmm`` or ``sssss.mmm`` (epoch) as seconds."""
    if re.fullmatch(r"\d+\.\d+", text):
        return float(text)
    match = _TIME.match(text)
    if match is None:
        return None
    year, month, day, hour, minute, second, fraction = match.groups()
    year = int(year) if year else datetime.now().year
    moment = datetime(year, int(month), int(day), int(hour), int(minute), int(second))
    return moment.timestamp() + (float(f"0.{fraction}") if fraction else 0.0)


def _split_options(argv: list[str]) -> tuple[list[tuple[str, str | None, str]], list[str]]:
    """``getopt_long``: the options as (letter or long name, value, as written), and the filter specs."""
    found, specs = [], []
    args = iter(argv)
    for arg in args:
        if arg == "--":
            specs += list(args)
            break
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            names = [n for n in _LONG if n.startswith(name)] if name not in _LONG else [name]
            if len(names) != 1:
                raise _Usage(f"Unknown option '{arg}'.")
            option = _LONG[names[0]]
            if option in _TAKES_VALUE | {"pid"} and not eq:
                value = next(args, None)
                if value is None:
                    raise _Usage(f"Option '{arg}' needs an argument.")
            found.append((option, value if (eq or option in _TAKES_VALUE | {"pid"}) else None, arg))
        elif arg.startswith("-") and len(arg) > 1:
            letters = arg[1:]
            while letters:
                letter, letters = letters[0], letters[1:]
                if letter not in "cdDhLtTgGsQfrnvbBSpPme":
                    raise _Usage(f"Unknown option '{arg}'.")
                value = None
                if letter in _TAKES_VALUE:
                    value, letters = letters or next(args, None), ""
                    if value is None:
                        raise _Usage(f"Option '{arg}' needs an argument.")
                found.append((letter, value, arg))
        else:
            specs.append(arg)
    return found, specs


def _parse(argv: list[str], log_tags: str) -> _Options:
    options = _Options()
    buffers: list[str] = []
    got_t = False
    found, specs = _split_options(argv[1:])
    for option, value, written in found:
        if option in _UNSUPPORTED:
            raise _Usage(f"{_UNSUPPORTED[option]} is not supported by the virtual phone ({written}).")
        if option == "h":
            options.help = True
        elif option == "d":
            options.dump = True
        elif option == "c":
            options.clear = True
        elif option == "s":
            options.default_priority = "S"
        elif option == "D":
            options.dividers = True
        elif option == "g":
            options.sizes = True
        elif option == "v":
            for word in value.split(","):
                if word in _FORMATS:
                    options.form = word
                elif word not in _MODIFIERS:
                    raise _Usage(f"Invalid -v '{word}'.")
        elif option == "b":
            for name in re.split(r"[,:; \t]+", value):
                if name == "all":
                    buffers.extend(BUFFERS)
                elif name == "default":
                    buffers.extend(DEFAULT_BUFFERS)
                elif name in BUFFERS:
                    buffers.append(name)
                elif name:
                    raise _Usage(f"Unknown -b buffer '{name}'.")
        elif option in ("t", "T"):
            options.dump = options.dump or option == "t"
            got_t = got_t or option == "t"
            if value.isdigit():
                options.tail_count = max(1, int(value))
            else:
                options.since = _parse_time(value)
                if options.since is None:
                    raise _Usage(f"-{option} '{value}' not in time format.")
        elif option == "e":
            try:
                options.regex = re.compile(value)
            except re.error as err:
                raise _Usage(f"Invalid regex '{value}': {err}") from None
        elif option == "m":
            if not value.isdigit() or int(value) < 1:
                raise _Usage(f"-m '{value}' isn't an integer greater than zero.")
            options.max_count = int(value)
        elif option == "pid":
            if options.pid is not None:
                raise _Usage("Only one --pid argument can be provided.")
            if not value.isdigit() or int(value) < 1:
                raise _Usage(f"pid '{value}' out of range.")
            options.pid = int(value)
    if options.max_count is not None and got_t:
        raise _Usage("Cannot use -m (--max-count) and -t together.")
    if buffers:
        options.buffers = tuple(dict.fromkeys(buffers))
    if not specs and log_tags.strip("'\" "):
        specs = log_tags.split()
    filters = []
    for spec in specs:
        tag, _, priority = spec.partition(":")
        priority = (priority or "V").upper()
        if priority not in PRIORITIES:
            raise _Usage(f"Invalid filter expression '{spec}'.")
        if tag == "*":
            options.default_priority = priority
        else:
            filters.append((tag, priority))
    options.filters = tuple(filters)
    return options


def _shown(entry: LogEntry, options: _Options) -> bool:
    if options.pid is not None and entry.pid != options.pid:
        return False
    wanted = next((p for tag, p in options.filters if tag == entry.tag), options.default_priority)
    if PRIORITIES.index(entry.priority) < PRIORITIES.index(wanted):
        return False
    if options.since is not None and entry.time < options.since:
        return False
    return options.regex is None or options.regex.search(entry.message) is not None


@command("logcat")
def _logcat(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """The ``logcat`` command (see the module docstring)."""
    log = sh.phone.log
    try:
        options = _parse(argv, sh.variables.get("ANDROID_LOG_TAGS", ""))
    except _Usage as err:
        return b"", f"logcat: {err}\n".encode(), 1
    if options.help:
        return b"", USAGE.encode(), 0
    if options.clear:
        log.clear(options.buffers)
        return b"", b"", 0
    if options.sizes:  # -g: each buffer's ring (a line here stands for about 32 bytes of logd's)
        held = len(log.entries(BUFFERS))
        return (
            "".join(
                f"{name}: ring buffer is 256 KiB ({held * 32 // 1024} KiB consumed, {held * 32 // 1024} KiB readable), "
                f"max entry is 5120 B, max payload is 4068 B\n"
                for name in options.buffers
            ).encode(),
            b"",
            0,
        )
    lines = log.entries(
        options.buffers, since=options.since, keep=lambda e: _shown(e, options), newest=options.tail_count
    )
    out: list[str] = []
    started: set[str] = set()
    count = 0
    last_buffer = ""

    def put(entry: LogEntry) -> None:
        nonlocal count, last_buffer
        if entry.buffer not in started:  # logcat marks the first line it prints of each buffer
            out.append(f"--------- beginning of {entry.buffer}")
            started.add(entry.buffer)
        elif options.dividers and entry.buffer != last_buffer:  # -D: and each switch between buffers
            out.append(f"--------- switch to {entry.buffer}")
        last_buffer = entry.buffer
        out.append(format_line(entry, options.form))
        count += 1

    for entry in lines:
        if options.max_count is not None and count >= options.max_count:
            break
        put(entry)
    text = "".join(line + "\n" for line in out)
    if options.dump or (options.max_count is not None and count >= options.max_count):
        return text.encode(), b"", 0
    if not sh.stream(text.encode()):  # collected, not streamed: a follow would never end
        return text.encode(), b"", 0
    seen, quiet = log.last_seq, 0.0
    while not sh.interrupted:  # follow until the client goes away (or -m lines)
        if not log.wait(seen, 0.25):
            quiet += 0.25
            if quiet >= HEARTBEAT_SECONDS:
                log.write("VirtualPhone", "heartbeat", "V", pid=SYSTEM_SERVER)
                quiet = 0.0
            continue
        quiet = 0.0
        fresh = log.entries(options.buffers, after=seen)
        seen = max([seen, *(e.seq for e in fresh)])
        out.clear()
        for entry in (e for e in fresh if _shown(e, options)):
            if options.max_count is not None and count >= options.max_count:
                break
            put(entry)
        if out:
            sh.stream("".join(line + "\n" for line in out).encode())
        if options.max_count is not None and count >= options.max_count:
            break
    return b"", b"", 0


#: toybox log's -p letters (toys/android/log.c: ``stridx("??vdiwefs", ...)``).
_LOG_PRIORITIES = {"v": "V", "d": "D", "i": "I", "w": "W", "e": "E", "f": "F", "s": "S"}


@command("log")
def _log(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``log [-p PRI] [-t TAG] MESSAGE...`` (toybox toys/android/log.c): one line into the main buffer."""
    args, priority, tag = list(argv[1:]), "I", "log"
    while args and args[0][:2] in ("-p", "-t"):
        written = args.pop(0)
        flag, value = written[:2], written[2:] or (args.pop(0) if args else None)
        if value is None:
            return b"", f"log: Missing argument to {flag}\n".encode(), 1
        if flag == "-t":
            tag = value
        elif len(value) != 1 or value.lower() not in _LOG_PRIORITIES:
            return b"", f"log: bad -p '{value}'\n".encode(), 1
        else:
            priority = _LOG_PRIORITIES[value.lower()]
    if not args:
        return b"", b"log: Need 1 argument\n", 1
    sh.phone.log.write(tag, " ".join(args)[:1023], priority)
    return b"", b"", 0
