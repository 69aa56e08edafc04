"""``am``: start, force-stop, broadcast, ``stack list`` and ``task lock``, as ActivityManagerShellCommand does.

``am start`` reports a failure (frameworks/base ActivityManagerShellCommand.runStartActivity)
on stderr, or on stdout with ``-W``, and exits 1; a thrown exception is a Java stack trace with
status 255 (:mod:`androidrl.virtual.shell.commands.java`). ``am stack list`` prints
``ActivityTaskManager.RootTaskInfo`` (Android 12+) or ``StackInfo`` (up to 11) of each task,
front first.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from androidrl.virtual.shell.commands.java import JavaException, argument_expected, java_exception_result
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, ok
from androidrl.virtual.system.core import PhoneCore
from androidrl.virtual.system.framework.configuration import configuration_string
from androidrl.virtual.system.framework.intent import FLAG_ACTIVITY_NEW_TASK, Intent, short_component

_AM_FRAME = "com.android.server.am.ActivityManagerShellCommand.onCommand(ActivityManagerShellCommand.java:204)"


def parse_intent(args: list[str], rest: list[str] | None = None) -> tuple[Intent, dict[str, bool]]:
    """``Intent.parseCommandArgs`` plus ``am start``'s own options (-W, -S...).

    As frameworks/base core/java/android/content/Intent.java. Extras keep their Java types as
    Python ones: ``--es`` str, ``--esn`` None, ``--ei``/``--el`` int, ``--ef`` float, ``--ez``
    bool, ``--eu`` the URI's text, ``--ecn`` a (package, class) pair, and the array and list
    kinds (``--eia``/``--eial``, ``--ela``/``--elal``, ``--efa``/``--efal``, ``--esa``/``--esal``) a list.

    Args:
        args: The arguments.
        rest: When given, parsing stops after the first operand (a component, package or URI),
            as ``Intent.parseCommandArgs`` does for a caller that reads on (``cmd notification
            post -c``); what is left is appended here.
    """
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
        elif arg == "-t":
            intent.type = _next(args, arg)
        elif arg == "-f":
            intent.flags = _decode(_next(args, arg), 32)
        elif arg in _EXTRAS:
            key = _next(args, arg)
            intent.extras[key] = None if arg == "--esn" else _EXTRAS[arg](_next(args, key))
        elif arg == "-W":
            options["wait"] = True
        elif arg == "-S":
            options["stop"] = True
        elif arg in (
            "--user",
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
        else:
            _operand(intent, arg)
            if rest is not None:
                rest.extend(args)
                break
    return intent, options


def _operand(intent: Intent, arg: str) -> None:
    """The one operand of an intent: a URI (its data), a component, or a package (to launch)."""
    if ":" in arg:
        intent.data = arg
        return
    intent.action = intent.action or "android.intent.action.MAIN"
    intent.categories += ("android.intent.category.LAUNCHER",)
    if "/" in arg:
        intent.component = _component(arg)
    else:
        intent.package = arg


def _number_error(text: str) -> JavaException:
    return JavaException("java.lang.NumberFormatException", f'For input string: "{text}"', _AM_FRAME)


def _decode(text: str, bits: int) -> int:
    """``Integer.decode``/``Long.decode``: a sign, then ``0x``/``#`` hex, ``0`` octal or decimal digits."""
    sign, body = (-1, text[1:]) if text.startswith("-") else (1, text[1:] if text.startswith("+") else text)
    base = 16 if body[:2].lower() == "0x" or body[:1] == "#" else 8 if len(body) > 1 and body[0] == "0" else 10
    digits = body[2:] if body[:2].lower() == "0x" else body[1:] if base != 10 else body
    try:
        if not digits or digits[0] in "+-" or not digits.isascii():
            raise ValueError
        value = sign * int(digits, base)
    except ValueError:
        raise _number_error(text) from None
    if not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
        raise _number_error(text)
    return value


def _long(text: str) -> int:
    """``Long.valueOf``: decimal only."""
    body = text[1:] if text[:1] in "+-" else text
    if not body.isascii() or not body.isdigit() or not -(2**63) <= int(text) < 2**63:
        raise _number_error(text)
    return int(text)


def _float(text: str) -> float:
    """``Float.valueOf``, as a Python float."""
    body = text.strip().rstrip("fFdD")
    try:
        if not body or "_" in body or body.lower().lstrip("+-").startswith(("inf", "nan")):
            raise ValueError
        return float(body)
    except ValueError:
        raise _number_error(text) from None


def _boolean(text: str) -> bool:
    """``--ez``: true/t, false/f, or a number (non-zero is true)."""
    value = text.lower()
    if value in ("true", "t", "false", "f"):
        return value in ("true", "t")
    try:
        return _decode(value, 32) != 0
    except JavaException:
        raise JavaException(
            "java.lang.IllegalArgumentException", f"Invalid boolean value: {value}", _AM_FRAME
        ) from None


def _strings(text: str) -> list[str]:
    r"""``--esa``: split on commas not escaped with a backslash (``\,`` is a comma)."""
    return [part.replace("\\,", ",") for part in re.split(r"(?<!\\),", text)]


_EXTRAS: dict[str, Callable[[str], Any]] = {
    "-e": str,
    "--es": str,
    "--esn": str,
    "--ei": lambda v: _decode(v, 32),
    "--el": _long,
    "--ef": _float,
    "--ez": _boolean,
    "--eu": str,
    "--ecn": lambda v: _component(v),
    "--eia": lambda v: [_decode(x, 32) for x in v.split(",")],
    "--eial": lambda v: [_decode(x, 32) for x in v.split(",")],
    "--ela": lambda v: [_long(x) for x in v.split(",")],
    "--elal": lambda v: [_long(x) for x in v.split(",")],
    "--efa": lambda v: [_float(x) for x in v.split(",")],
    "--efal": lambda v: [_float(x) for x in v.split(",")],
    "--esa": _strings,
    "--esal": _strings,
}


def _next(args: list[str], prev: str) -> str:
    if not args:
        raise argument_expected(prev, _AM_FRAME)
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
            "  stack list\n      List all of the activity stacks and their sizes.\n"
            "  task lock <TASK_ID>\n      Bring <TASK_ID> to the front and don't allow other tasks to run.\n"
            "  task lock stop\n      End the current task lock.\n"
        )
    sub, rest = argv[1], argv[2:]
    try:
        return _am_command(sh.phone, sub, rest)
    except JavaException as exc:
        return java_exception_result(sub, exc)


def _am_command(phone: PhoneCore, sub: str, rest: list[str]) -> Result:
    if sub in ("start", "start-activity"):
        return _start(phone, rest)
    if sub in ("force-stop", "kill", "stop-app"):
        args = [a for a in rest if not a.startswith("--")]
        if "--user" in rest:
            args = args[1:]
        if not args:
            raise argument_expected(sub, _AM_FRAME)
        if sub != "kill":
            phone.force_stop(args[-1])
        return ok()
    if sub == "broadcast":
        intent, _ = parse_intent(rest)
        intent.flags |= 0x400000
        return ok(f"Broadcasting: {intent}\nBroadcast completed: result=0\n")
    if sub == "get-current-user":
        return ok("0\n")
    if sub == "stack":
        return _stack(phone, rest)
    if sub == "task":
        return _task(phone, rest)
    return f"Unknown command: {sub}\n".encode(), b"", 255


#: What ``am start`` prints for a start that did not happen (ActivityManagerShellCommand.runStartActivity);
#: a pinned task refuses others with START_RETURN_LOCK_TASK_MODE_VIOLATION (101), which it has no words for.
_START_ERRORS = {"lock-task-violation": "Error: Activity not started, unknown error code 101\n"}


def _start(phone: PhoneCore, rest: list[str]) -> Result:
    """``am start``: "Starting: ...", then a warning or error; with ``-W`` the wait result on stdout."""
    intent, options = parse_intent(rest)
    out = []
    if options["stop"]:
        target = phone.resolve(intent)
        if target is not None:
            out.append(f"Stopping: {target[0].package}\n")
            phone.force_stop(target[0].package)
    out.append(f"Starting: {intent}\n")
    intent.flags |= FLAG_ACTIVITY_NEW_TASK  # (added after "Starting:" is printed, as runStartActivity does)
    result = phone.start_activity(intent)
    if result == "not-found":
        if intent.component:
            package, cls = intent.component  # ComponentName.toShortString(): {package/full.Class}
            message = f"Error type 3\nError: Activity class {{{package}/{cls}}} does not exist.\n"
        else:
            message = f"Error: Activity not started, unable to resolve {intent}\n"
    elif result == "brought-to-front":
        message = "Warning: Activity not started, its current task has been brought to the front\n"
    else:
        message = _START_ERRORS.get(result, "")
    failed = result in ("not-found", *_START_ERRORS)
    err = ""
    if options["wait"]:  # with -W the messages go to stdout (`out = mWaitOption ? pw : getErrPrintWriter()`)
        out.append(message)
    else:
        err = message
    if options["wait"] and not failed:
        package, cls = phone.foreground()
        out.append(
            f"Status: ok\nLaunchState: {'HOT' if result == 'brought-to-front' else 'COLD'}\n"
            f"Activity: {short_component(package, cls)}\nTotalTime: 120\nWaitTime: 123\nComplete\n"
        )
    return "".join(out).encode(), err.encode(), 1 if failed else 0


def _stack(phone: PhoneCore, rest: list[str]) -> Result:
    """``am stack list`` (``stack move-task|info|remove`` are not modelled)."""
    if not rest:
        raise argument_expected("stack", _AM_FRAME)
    if rest[0] != "list":
        return b"", f"Error: unknown command '{rest[0]}'\n".encode(), 255
    return ok(_stack_list(phone))


def _stack_list(phone: PhoneCore) -> str:
    """Each task as its own root task, front first: RootTaskInfo.toString (Android 12+), StackInfo (up to 11).

    Every task here is fullscreen, so only the one in front is visible; the name of a task is
    its root activity's ``flattenToString()``, its top activity a ComponentName's ``toString()``.
    """
    w, h = phone.size
    word = "RootTask" if int(phone.getprop("ro.build.version.sdk") or 34) >= 31 else "Stack"
    config = configuration_string(phone.metrics, phone.settings.get("system", "font_scale") or "1.0",
                                  phone.getprop("persist.sys.locale") or "en-US",
                                  phone.settings.get("secure", "ui_night_mode") == "2")  # fmt: skip
    blocks = []
    for index, task in enumerate(reversed(phone.activities.tasks)):
        blocks.append(
            f"{word} id={task.task_id} bounds=[0,0][{w},{h}] displayId=0 userId=0\n configuration={config}\n"
            f"  taskId={task.task_id}: {task[0].component} bounds=[0,0][{w},{h}] userId=0 "
            f"visible={str(index == 0).lower()} topActivity=ComponentInfo{{{task[-1].component}}}\n\n"
        )  # (`pw.println(info)` after a toString that ends in a newline: a blank line between)
    return "".join(blocks)


def _task(phone: PhoneCore, rest: list[str]) -> Result:
    """``am task lock ID|stop``: screen pinning (ActivityManagerShellCommand.runTaskLock)."""
    if not rest:
        raise argument_expected("task", _AM_FRAME)
    if rest[0] != "lock":
        return b"", f"Error: unknown command '{rest[0]}'\n".encode(), 255
    if len(rest) < 2:
        raise argument_expected("lock", _AM_FRAME)
    if rest[1] == "stop":
        phone.activities.stop_lock_task()
    else:
        try:
            task_id = int(rest[1])
        except ValueError:
            raise _number_error(rest[1]) from None
        phone.activities.start_lock_task(task_id)  # an unknown id changes nothing (startSystemLockTaskMode)
    locked = phone.activities.locked_task is not None
    return ok(f"Activity manager is {'' if locked else 'not '}in lockTaskMode\n")
