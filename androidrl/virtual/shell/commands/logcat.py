"""``logcat``: the phone's log (:mod:`androidrl.virtual.system.logd`), in Android's formats.

It follows AOSP's ``logcat`` (``system/logging/logcat/logcat.cpp``) and its line formats
(``liblog/logprint.cpp``): ``-d``, ``-c``, ``-s``, ``TAG:PRIO`` filters (and
``$ANDROID_LOG_TAGS``), ``-v threadtime|brief|time|tag|process|epoch``, ``-b
main|system|events|crash|radio|all|default``, ``-t N|TIME``, ``-T N|TIME``, ``-e REGEX``,
``-m N``; without ``-d`` it streams new lines until the client goes away.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command
from androidrl.virtual.system.logd import BUFFERS, DEFAULT_BUFFERS, PRIORITIES, LogEntry


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
_TIME = re.compile(r"^(?:(\d{4})-)?(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?$")
USAGE = "Usage: logcat [options] [filterspecs]\n"


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


def _parse(argv: list[str], log_tags: str) -> _Options:
    options = _Options()
    buffers: list[str] = []
    specs: list[str] = []
    args = iter(argv[1:])
    for arg in args:
        flag, value = (arg[:2], arg[2:]) if arg.startswith("-") and len(arg) > 2 and arg[1] != "-" else (arg, None)
        if flag in ("-v", "-b", "-t", "-T", "-e", "-m"):
            value = value or next(args, None)
            if value is None:
                raise _Usage(f"Option {flag} requires an argument")
        if flag == "-d":
            options.dump = True
        elif flag == "-c":
            options.clear = True
        elif flag == "-s":
            options.default_priority = "S"
        elif flag == "-v":
            for word in value.split(","):
                if word in _FORMATS:
                    options.form = word
                elif word not in ("color", "usec", "year", "zone", "uid", "printable", "monotonic"):
                    raise _Usage(f"Invalid parameter '{word}' to -v")
        elif flag == "-b":
            for name in value.split(","):
                if name == "all":
                    buffers.extend(BUFFERS)
                elif name == "default":
                    buffers.extend(DEFAULT_BUFFERS)
                elif name in BUFFERS:
                    buffers.append(name)
                else:
                    raise _Usage(f"Unknown buffer '{name}' listed for -b")
        elif flag in ("-t", "-T"):
            options.dump = options.dump or flag == "-t"
            if value.isdigit():
                options.tail_count = int(value)
            else:
                options.since = _parse_time(value)
                if options.since is None:
                    raise _Usage(f"-{flag[1]} '{value}' not in time format")
        elif flag == "-e" or arg.startswith("--regex"):
            try:
                options.regex = re.compile(value)
            except re.error as err:
                raise _Usage(f"Invalid regex '{value}': {err}") from None
        elif flag == "-m":
            if not value.isdigit() or int(value) < 1:
                raise _Usage(f"-m '{value}' is not a positive integer")
            options.max_count = int(value)
        elif arg.startswith("-"):
            raise _Usage(f"Unknown option '{arg}'")
        else:
            specs.append(arg)
    if buffers:
        options.buffers = tuple(dict.fromkeys(buffers))
    if not specs and log_tags.strip("'\" "):
        specs = log_tags.split()
    filters = []
    for spec in specs:
        tag, _, priority = spec.partition(":")
        priority = (priority or "V").upper()
        if priority not in PRIORITIES:
            raise _Usage(f"Invalid filter expression '{spec}'")
        if tag == "*":
            options.default_priority = priority
        else:
            filters.append((tag, priority))
    options.filters = tuple(filters)
    return options


def _shown(entry: LogEntry, options: _Options) -> bool:
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
        return b"", f"logcat: {err}\n{USAGE}".encode(), 1
    if options.clear:
        log.clear(options.buffers)
        return b"", b"", 0
    lines = log.entries(
        options.buffers, since=options.since, keep=lambda e: _shown(e, options), newest=options.tail_count
    )
    out: list[str] = []
    started: set[str] = set()
    count = 0

    def put(entry: LogEntry) -> None:
        nonlocal count
        if entry.buffer not in started:  # logcat marks the first line it prints of each buffer
            out.append(f"--------- beginning of {entry.buffer}")
            started.add(entry.buffer)
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
    seen = log.last_seq
    while not sh.interrupted:  # follow until the client goes away (or -m lines)
        if not log.wait(seen, 0.25):
            continue
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
