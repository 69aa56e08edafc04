"""``dumpsys``: the system services' state, as frameworks/native cmds/dumpsys/dumpsys.cpp prints it.

Options as dumpsys.cpp parses them (``getopt_long`` with ``+t:T:l``): ``-l`` lists the
services, ``-t SEC``/``-T MS`` set the timeout, ``--priority CRITICAL|HIGH|NORMAL`` keeps the
services registered at that priority, ``--skip A B`` dumps all but those (each operand one
name: dumpsys.cpp splits no comma list, whatever its usage says), ``--pid`` prints the host
process, ``--dump`` is the default. More than one service gets the ``DUMP OF SERVICE``
header and the duration footer. Each service's own dump is in this package's modules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from androidrl.virtual.shell.commands.dumpsys.activity import dump_activity
from androidrl.virtual.shell.commands.dumpsys.alarm import dump_alarm
from androidrl.virtual.shell.commands.dumpsys.services import (
    dump_battery,
    dump_bluetooth,
    dump_connectivity,
    dump_display,
    dump_input,
    dump_input_method,
    dump_location,
    dump_notification,
    dump_package,
    dump_power,
    dump_settings,
    dump_statusbar,
    dump_uimode,
    dump_wifi,
)
from androidrl.virtual.shell.commands.dumpsys.window import dump_window
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command
from androidrl.virtual.system.core import PhoneCore
from androidrl.virtual.system.processes import SYSTEM_SERVER

CRITICAL, HIGH, NORMAL, DEFAULT = 1, 2, 4, 8  # IServiceManager::DUMP_FLAG_PRIORITY_*
_PRIORITIES = {"CRITICAL": CRITICAL, "HIGH": HIGH, "NORMAL": NORMAL}


@dataclass(frozen=True)
class Service:
    """A binder service the service manager lists: its dump priorities and its dump."""

    priority: int
    dump: Callable[[PhoneCore, list[str]], str]


#: The services of the phone, as ``dumpsys -l`` and ``cmd -l`` list them, with the priorities
#: system_server registers them at (ActivityManagerService.setSystemProcess, SystemServer).
SERVICES: dict[str, Service] = {
    "activity": Service(CRITICAL | NORMAL, dump_activity),
    "alarm": Service(DEFAULT, dump_alarm),
    "battery": Service(DEFAULT, dump_battery),
    "bluetooth_manager": Service(DEFAULT, dump_bluetooth),
    "connectivity": Service(HIGH | NORMAL, dump_connectivity),
    "display": Service(DEFAULT, dump_display),
    "input": Service(CRITICAL, dump_input),
    "input_method": Service(DEFAULT, dump_input_method),
    "location": Service(DEFAULT, dump_location),
    "notification": Service(DEFAULT, dump_notification),
    "package": Service(DEFAULT, dump_package),
    "power": Service(DEFAULT, dump_power),
    "settings": Service(DEFAULT, dump_settings),
    "statusbar": Service(DEFAULT, dump_statusbar),
    "uimode": Service(DEFAULT, dump_uimode),
    "wifi": Service(DEFAULT, dump_wifi),
    "window": Service(CRITICAL, dump_window),
}

USAGE = (
    "usage: dumpsys\n         To dump all services.\nor:\n"
    "       dumpsys [-t TIMEOUT] [--priority LEVEL] [--dump] [--pid] [--thread] [--help | -l | --skip SERVICES "
    "| SERVICE [ARGS]]\n"
    "         --help: shows this help\n         -l: only list services, do not dump them\n"
    "         -t TIMEOUT_SEC: TIMEOUT to use in seconds instead of default 10 seconds\n"
    "         -T TIMEOUT_MS: TIMEOUT to use in milliseconds instead of default 10 seconds\n"
    "         --dump: ask the service to dump itself (this is the default)\n"
    "         --pid: dump PID instead of usual dump\n"
    "         --priority LEVEL: filter services based on specified priority\n"
    "               LEVEL must be one of CRITICAL | HIGH | NORMAL\n"
    "         --skip SERVICES: dumps all services but SERVICES (comma-separated list)\n"
    "         SERVICE [ARGS]: dumps only service SERVICE, optionally passing ARGS to it\n"
)
_LONG = ("help", "dump", "pid", "priority", "skip")


class _Usage(Exception):
    """Bad options: dumpsys prints a reason, an empty line and its usage on stderr, and exits -1."""


def _options(args: list[str]) -> tuple[dict, list[str]]:
    """Parse as ``getopt_long(argc, argv, "+t:T:l", ...)``: options stop at the first operand."""
    found: dict = {"list": False, "skip": False, "pid": False, "dump": False, "priority": None, "help": False}
    rest = list(args)
    while rest and rest[0].startswith("-") and rest[0] != "-":
        arg = rest.pop(0)
        if arg == "--":
            break
        if arg.startswith("--"):
            name, _, value = arg[2:].partition("=")
            matches = [o for o in _LONG if o.startswith(name)] if name not in _LONG else [name]
            if len(matches) != 1:
                raise _Usage(f"dumpsys: {'unrecognized' if not matches else 'ambiguous'} option '{arg}'")
            name = matches[0]
            if name == "priority":
                value = value or (rest.pop(0) if rest else "")
                if not value:
                    raise _Usage("dumpsys: option '--priority' requires an argument")
                if value not in _PRIORITIES:
                    raise _Usage("")
                found["priority"] = value
            else:
                found[name] = True
            continue
        letters = arg[1:]
        while letters:
            letter, letters = letters[0], letters[1:]
            if letter == "l":
                found["list"] = True
            elif letter in "tT":
                value = letters or (rest.pop(0) if rest else "")
                letters = ""
                if not value:
                    raise _Usage(f"dumpsys: option requires an argument -- '{letter}'")
                unit = "seconds" if letter == "t" else "milliseconds"
                if not value.isdigit() or int(value) <= 0:
                    raise _TimeoutError(f"Error: invalid timeout({unit}) number: '{value}'")
            else:
                raise _Usage(f"dumpsys: invalid option -- '{letter}'")
    return found, rest


class _TimeoutError(Exception):
    """A bad ``-t``/``-T`` value: one line on stderr, exit -1."""


def _footer(sh: Shell, name: str) -> str:
    """Dumpsys::writeDumpFooter: the dump's duration and when it ended (the phone's local time)."""
    ended = sh.phone.clock.local(timezone=sh.phone.getprop("persist.sys.timezone"))
    return f"--------- 0.001s was the duration of dumpsys {name}, ending at: {ended:%Y-%m-%d %H:%M:%S}\n"


@command("dumpsys")
def _dumpsys(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    try:
        options, operands = _options(argv[1:])
    except _Usage as err:
        return b"", (f"{err}\n" if str(err) else "").encode() + b"\n" + USAGE.encode(), 255
    except _TimeoutError as err:
        return b"", f"{err}\n".encode(), 255
    if options["help"]:
        return b"", USAGE.encode(), 0
    skipped = set(operands) if options["skip"] else set()  # each operand one name: dumpsys.cpp splits no list
    if (options["skip"] and not skipped) or (options["list"] and operands and not options["skip"]):
        return b"", USAGE.encode(), 255
    priority = _PRIORITIES.get(options["priority"] or "", CRITICAL | HIGH | NORMAL | DEFAULT)
    if options["skip"] or options["list"] or not operands:
        names = sorted(name for name, service in SERVICES.items() if service.priority & priority)
        args = ["-a"] if priority in (CRITICAL | HIGH | NORMAL | DEFAULT, NORMAL) else []
        if options["priority"]:
            args = ["--dump-priority", options["priority"], *args]
    else:
        names, args = operands[:1], operands[1:]
    phone, out, err = sh.phone, [], []
    if len(names) > 1 or options["list"]:
        out.append("Currently running services:\n")
        out += [f"  {name}{' (skipped)' if name in skipped else ''}\n" for name in names]
    if options["list"]:
        return "".join(out).encode(), b"", 0
    for name in names:
        if name in skipped:
            continue
        service = SERVICES.get(name)
        if service is None:
            err.append(f"Can't find service: {name}\n")
            continue
        if len(names) > 1:
            out.append(f"{'-' * 79}\n")
            out.append(f"DUMP OF SERVICE {options['priority'] + ' ' if options['priority'] else ''}{name}:\n")
        if options["pid"]:
            out.append(f"{SYSTEM_SERVER}\n" if not options["dump"] else f"Service host process PID: {SYSTEM_SERVER}\n")
        if options["dump"] or not options["pid"]:
            out.append(service.dump(phone, args))
        if len(names) > 1:
            out.append(_footer(sh, name))
    return "".join(out).encode(), "".join(err).encode(), 0
