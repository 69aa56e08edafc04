"""``input``: text, key events, taps, swipes and motion events injected as Android's InputShellCommand does.

They go to input dispatch, as ``InputManager.injectInputEvent`` does: the input hardware
never sees them, so ``getevent`` does not show them.
"""

from __future__ import annotations

import re

from androidrl.keycodes import KEYCODE_ENTER, keycode_from_string
from androidrl.virtual.shell.commands.java import JavaException, argument_expected, java_exception_result, java_float
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, ok
from androidrl.virtual.system.core import PhoneCore

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
        raise argument_expected(args[-1], _INPUT_FRAME)
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
            raise argument_expected(args[-1], _INPUT_FRAME)
        for name in rest:
            phone.input.press_key(keycode_from_string(name))
        return ok()
    if sub == "tap":
        x, y = (java_float(v, sub, _INPUT_FRAME) for v in _required(rest, 2, args))
        if _finite(x, y):
            phone.input.tap(x, y)
        return ok()
    if sub in ("swipe", "draganddrop"):
        coords = [java_float(v, sub, _INPUT_FRAME) for v in _required(rest, 4, args)]
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
        x, y = java_float(x, sub, _INPUT_FRAME), java_float(y, sub, _INPUT_FRAME)
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
