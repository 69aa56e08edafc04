"""The phone's input hardware as the kernel reports it: evdev devices under ``/dev/input`` and their events.

A device's touchscreen and keyboard report what a finger or a key does as Linux input
events (``EV_ABS ABS_MT_POSITION_X ...``, ``EV_KEY BTN_TOUCH DOWN``, ``EV_SYN SYN_REPORT``);
Android's InputReader turns them into touches and keys, and ``getevent`` shows them raw.
Here the same happens both ways: a touch on the phone's hardware (:meth:`InputDevices.touch`,
:meth:`InputDevices.key`, which :class:`~androidrl.virtual.system.core.PhoneCore` uses for its
``tap``, ``swipe`` and ``press_key``) is reported as the emulator's virtio touchscreen reports
it, and events written to a device (``sendevent``) are read back into touches and keys.

What ``input tap`` or ``input keyevent`` inject never passes through here, as on Android,
where InputManager hands injected events straight to the dispatcher: ``getevent`` does not
show them.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field

from androidrl.virtual.system.framework.metrics import DisplayMetrics
from androidrl.virtual.system.input.dispatcher import KEY_CHARACTERS, InputDispatcher

EV_SYN, EV_KEY, EV_ABS = 0x00, 0x01, 0x03
SYN_REPORT = 0x00
BTN_TOUCH = 0x14A
ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR = 0x2F, 0x30
ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 0x35, 0x36
ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 0x39, 0x3A
#: The virtio touchscreen's range on both axes (the emulator's); InputReader scales it to the display.
TOUCH_MAX = 32767
TOUCH_PRESSURE = 0x400
CAPACITY = 4096  # events kept for followers

#: Labels of event types and codes, as ``getevent -l`` prints them (toolbox/getevent.h).
EV_LABELS = {EV_SYN: "EV_SYN", EV_KEY: "EV_KEY", EV_ABS: "EV_ABS"}
SYN_LABELS = {SYN_REPORT: "SYN_REPORT"}
ABS_LABELS = {
    ABS_MT_SLOT: "ABS_MT_SLOT",
    ABS_MT_TOUCH_MAJOR: "ABS_MT_TOUCH_MAJOR",
    ABS_MT_POSITION_X: "ABS_MT_POSITION_X",
    ABS_MT_POSITION_Y: "ABS_MT_POSITION_Y",
    ABS_MT_TRACKING_ID: "ABS_MT_TRACKING_ID",
    ABS_MT_PRESSURE: "ABS_MT_PRESSURE",
}
KEY_VALUE_LABELS = {0: "UP", 1: "DOWN", 2: "REPEAT"}

_LETTERS = "QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"  # rows of the Linux key codes, from KEY_Q (16), KEY_A, KEY_Z
#: Linux key code -> (label, Android key code), as Generic.kl maps them.
KEYS: dict[int, tuple[str, int]] = {
    1: ("KEY_ESC", 111),
    **{code: (f"KEY_{(code - 1) % 10}", 7 + (code - 1) % 10) for code in range(2, 12)},
    12: ("KEY_MINUS", 69),
    13: ("KEY_EQUAL", 70),
    14: ("KEY_BACKSPACE", 67),
    15: ("KEY_TAB", 61),
    **{
        start + i: (f"KEY_{ch}", 29 + ord(ch) - ord("A"))
        for row, start in zip(_LETTERS, (16, 30, 44))
        for i, ch in enumerate(row)
    },
    26: ("KEY_LEFTBRACE", 71),
    27: ("KEY_RIGHTBRACE", 72),
    28: ("KEY_ENTER", 66),
    39: ("KEY_SEMICOLON", 74),
    40: ("KEY_APOSTROPHE", 75),
    41: ("KEY_GRAVE", 68),
    42: ("KEY_LEFTSHIFT", 59),
    43: ("KEY_BACKSLASH", 73),
    51: ("KEY_COMMA", 55),
    52: ("KEY_DOT", 56),
    53: ("KEY_SLASH", 76),
    54: ("KEY_RIGHTSHIFT", 60),
    57: ("KEY_SPACE", 62),
    103: ("KEY_UP", 19),
    105: ("KEY_LEFT", 21),
    106: ("KEY_RIGHT", 22),
    108: ("KEY_DOWN", 20),
    111: ("KEY_DELETE", 112),
    114: ("KEY_VOLUMEDOWN", 25),
    115: ("KEY_VOLUMEUP", 24),
    116: ("KEY_POWER", 26),
    139: ("KEY_MENU", 82),
    158: ("KEY_BACK", 4),
    172: ("KEY_HOMEPAGE", 3),
    0x244: ("KEY_APPSELECT", 187),
}  # fmt: skip
KEY_LABELS = {code: label for code, (label, _) in KEYS.items()} | {BTN_TOUCH: "BTN_TOUCH"}
_LINUX_KEY = {android: code for code, (_, android) in sorted(KEYS.items(), reverse=True)}
_SHIFTS = {42, 54}


@dataclass(frozen=True)
class InputDevice:
    """One ``/dev/input/eventN`` node: what it is and which events it can report."""

    path: str
    name: str
    classes: str  # EventHub's device classes, as ``dumpsys input`` lists them
    keys: tuple[int, ...]
    axes: tuple[tuple[int, int, int], ...] = ()  # (code, min, max)
    props: tuple[str, ...] = ()
    ids: tuple[int, int, int, int] = (0x0006, 0x0000, 0x0000, 0x0000)  # bus, vendor, product, version


#: The phone's input hardware: the emulator's keyboard and its virtio multi-touch screen.
DEVICES = (
    InputDevice("/dev/input/event0", "qwerty2", "KEYBOARD | ALPHAKEY | DPAD", tuple(sorted(KEYS))),
    InputDevice(
        "/dev/input/event1",
        "virtio_input_multi_touch_1",
        "TOUCH | TOUCH_MT",
        (BTN_TOUCH,),
        (
            (ABS_MT_SLOT, 0, 9),
            (ABS_MT_TOUCH_MAJOR, 0, 2147483647),
            (ABS_MT_POSITION_X, 0, TOUCH_MAX),
            (ABS_MT_POSITION_Y, 0, TOUCH_MAX),
            (ABS_MT_TRACKING_ID, 0, 65535),
            (ABS_MT_PRESSURE, 0, 1024),
        ),
        ("INPUT_PROP_DIRECT",),
        (0x0006, 0x0000, 0x0000, 0x0001),
    ),
)
TOUCHSCREEN, KEYBOARD = DEVICES[1].path, DEVICES[0].path


@dataclass(frozen=True)
class InputEvent:
    """One event a device reported: ``time`` is ``time.monotonic()``, as the kernel stamps it."""

    seq: int
    time: float
    device: str
    type: int
    code: int
    value: int


@dataclass
class _Reader:
    """InputReader's state for one device: the touch being tracked and the keys held."""

    x: int = 0
    y: int = 0
    tracking: int = -1
    down: tuple[int, int, float] | None = None  # raw x, y and time of the touch's first frame
    keys: set[int] = field(default_factory=set)


class InputDevices:
    """The evdev devices of a phone: their event log (``getevent``) and InputReader (``sendevent``).

    Args:
        dispatcher: Where the touches and keys read from the devices go.
        metrics: The display the touchscreen's range is scaled to.
    """

    def __init__(self, dispatcher: InputDispatcher, metrics: DisplayMetrics) -> None:
        self.devices = DEVICES
        self._dispatcher = dispatcher
        self._metrics = metrics
        self._events: deque[InputEvent] = deque(maxlen=CAPACITY)
        self._seq = 0
        self._changed = threading.Condition()
        self._readers = {d.path: _Reader() for d in DEVICES}
        self._values: dict[str, dict[tuple[int, int], int]] = {}  # each device's current axis and key values
        self._pending: dict[str, bool] = {}  # whether a device has events since its last SYN_REPORT
        self._tracking_ids = 0

    def device(self, path: str) -> InputDevice:
        """The device at ``path``.

        Raises:
            FileNotFoundError: No such device node.
        """
        for device in self.devices:
            if device.path == path:
                return device
        raise FileNotFoundError(2, "No such file or directory", path)

    # ------------------------------------------------------------------ reading

    @property
    def last_seq(self) -> int:
        """The sequence number of the newest event (0 before any)."""
        return self._seq

    def events(self, after: int) -> list[InputEvent]:
        """The events reported after sequence number ``after``, oldest first."""
        with self._changed:
            return [e for e in self._events if e.seq > after]

    def wait(self, after: int, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for an event after ``after``; whether one came."""
        with self._changed:
            return self._changed.wait_for(lambda: self._seq > after, timeout)

    # ------------------------------------------------------------------ writing

    def write(self, path: str, type_: int, code: int, value: int) -> None:
        """An event written to a device node (``sendevent``): reported, then read as the device's input.

        Raises:
            FileNotFoundError: No such device node.
        """
        self.device(path)
        self._report([(path, type_, code, value)], time.monotonic())

    def touch(self, points: list[tuple[float, float]], duration_ms: int = 0) -> None:
        """A finger on the touchscreen along ``points`` (display pixels) for ``duration_ms``, then lifted.

        The frames are stamped as if the touch began ``duration_ms`` ago and ended now; the
        touch reaches the views through the same InputReader as ``sendevent``'s events.
        """
        self._tracking_ids += 1
        raw = [self._raw(x, y) for x, y in points]
        end = time.monotonic()
        start = end - duration_ms / 1000
        frames = [
            [
                (ABS_MT_TRACKING_ID, (self._tracking_ids - 1) % 65536),
                (ABS_MT_POSITION_X, raw[0][0]),
                (ABS_MT_POSITION_Y, raw[0][1]),
                (ABS_MT_PRESSURE, TOUCH_PRESSURE),
                (BTN_TOUCH, 1),
            ]
        ]
        frames += [[(ABS_MT_POSITION_X, x), (ABS_MT_POSITION_Y, y)] for x, y in raw[1:]]
        frames.append([(ABS_MT_PRESSURE, 0), (ABS_MT_TRACKING_ID, -1), (BTN_TOUCH, 0)])
        for i, frame in enumerate(frames):
            at = start + (end - start) * i / max(1, len(frames) - 1)
            events = [(TOUCHSCREEN, EV_KEY if code == BTN_TOUCH else EV_ABS, code, value) for code, value in frame]
            self._report([*events, (TOUCHSCREEN, EV_SYN, SYN_REPORT, 0)], at)

    def key(self, android_code: int) -> bool:
        """A press and release of the keyboard key for ``android_code``; False if the keyboard has no such key."""
        code = _LINUX_KEY.get(android_code)
        if code is None:
            return False
        now = time.monotonic()
        for value in (1, 0):
            self._report([(KEYBOARD, EV_KEY, code, value), (KEYBOARD, EV_SYN, SYN_REPORT, 0)], now)
        return True

    def _raw(self, x: float, y: float) -> tuple[int, int]:
        width, height = self._metrics.size
        return (
            min(TOUCH_MAX, max(0, round(x * (TOUCH_MAX + 1) / width))),
            min(TOUCH_MAX, max(0, round(y * (TOUCH_MAX + 1) / height))),
        )

    def _report(self, events: list[tuple[str, int, int, int]], at: float) -> None:
        """Pass events through the input core (which drops repeated values and empty frames), log and read them."""
        passed = []
        with self._changed:
            for path, type_, code, value in events:
                if type_ in (EV_ABS, EV_KEY):
                    current = self._values.setdefault(path, {})
                    if current.get((type_, code)) == value and not (type_ == EV_KEY and value == 2):
                        continue  # the input core drops an axis or key that did not change
                    current[(type_, code)] = value
                    self._pending[path] = True
                elif type_ == EV_SYN and code == SYN_REPORT and not self._pending.pop(path, False):
                    continue  # nothing to report in this frame
                passed.append((path, type_, code, value))
                self._seq += 1
                self._events.append(InputEvent(self._seq, at, path, type_, code, value))
            self._changed.notify_all()
        for path, type_, code, value in passed:
            self._read(path, type_, code, value, at)

    # ------------------------------------------------------------------ InputReader

    def _read(self, path: str, type_: int, code: int, value: int, at: float) -> None:
        """Turn one event into input, as InputReader's multi-touch and keyboard mappers do."""
        state = self._readers[path]
        if type_ == EV_ABS and code == ABS_MT_POSITION_X:
            state.x = value
        elif type_ == EV_ABS and code == ABS_MT_POSITION_Y:
            state.y = value
        elif type_ == EV_ABS and code == ABS_MT_TRACKING_ID:
            state.tracking = value if value >= 0 and value != 0xFFFFFFFF else -1
        elif type_ == EV_KEY and code in KEYS:
            self._key(state, code, value)
        elif type_ == EV_SYN and code == SYN_REPORT and path == TOUCHSCREEN:
            self._touch_frame(state, at)

    def _touch_frame(self, state: _Reader, at: float) -> None:
        if state.tracking >= 0 and state.down is None:
            state.down = (state.x, state.y, at)
        elif state.tracking < 0 and state.down is not None:
            x0, y0, start = state.down
            state.down = None
            width, height = self._metrics.size
            scale_x, scale_y = width / (TOUCH_MAX + 1), height / (TOUCH_MAX + 1)
            self._dispatcher.swipe(
                x0 * scale_x, y0 * scale_y, state.x * scale_x, state.y * scale_y, round((at - start) * 1000)
            )

    def _key(self, state: _Reader, code: int, value: int) -> None:
        if value == 1:
            state.keys.add(code)
            return
        if value != 0 or code not in state.keys:
            return
        state.keys.discard(code)
        if code in _SHIFTS:
            return
        android = KEYS[code][1]
        char = KEY_CHARACTERS.get(android, "")
        if char.isalpha() and state.keys & _SHIFTS:  # the key map's shifted letter
            self._dispatcher.type_text(char.upper())
        else:
            self._dispatcher.press_key(android)
