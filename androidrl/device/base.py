"""The Device interface: the only way androidrl talks to a phone.

A device runs shell commands (:meth:`Device.execute`) and takes screenshots; everything
else — screen size, UI dumps, taps, swipes, text and keys — is built here on Android's
own shell tools (``wm``, ``uiautomator``, ``input``), so an action means the same on the
virtual phone, an emulator and a real phone. Arguments are checked before anything is
sent: a coordinate off the screen raises :class:`ValueError` and never reaches the phone,
and typed text is quoted so that it is typed literally and can never run a command.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import shlex
import time
import xml.etree.ElementTree as ET
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

import numpy as np

from androidrl.errors import DeviceBusyError, DeviceCommandError, DeviceError
from androidrl.keycodes import KEYCODES
from androidrl.spaces import EnvAction, EnvActionType, swipe_end

#: Characters ``input text`` can type on stock Android (its virtual keyboard map).
TYPABLE = frozenset(chr(c) for c in range(0x20, 0x7F))
#: Friendly key names accepted by :meth:`Device.key`, besides Android's own ``KEYCODE_*`` names.
KEY_ALIASES = {"backspace": "DEL", "delete": "DEL", "return": "ENTER", "recents": "APP_SWITCH", "esc": "ESCAPE"}
_SIZE_RE = re.compile(r"(?:(Physical|Override) size:\s*)?(\d+)x(\d+)")
#: How long the swipes and long presses of :meth:`Device.perform` take (MetaGPT's values).
SWIPE_DURATION_MS = 400
LONG_PRESS_MS = 500
NOT_IDLE = "ERROR: could not get idle state."
#: What :meth:`Device.wake_and_unlock` sends: the screen on, an insecure keyguard away.
WAKE_AND_UNLOCK = "input keyevent WAKEUP; wm dismiss-keyguard"
_dump_ids = itertools.count()
T = TypeVar("T")


@dataclass(frozen=True)
class CommandResult:
    """Output and exit status of one shell command on a device."""

    stdout: bytes
    stderr: bytes
    exit_code: int

    @property
    def text(self) -> str:
        """Stdout decoded as UTF-8."""
        return self.stdout.decode("utf-8", "replace")


class Observed(NamedTuple):
    """What :meth:`Device.perform_and_observe` did and read after the action (None: not read)."""

    frame: np.ndarray | None
    xml: str | None
    res: str = ""  # the action's output (MetaGPT's ``info["res"]``)


class Device(ABC):
    """A phone: shell, screenshots and input, with checked arguments.

    Subclasses implement :meth:`execute` and :meth:`screenshot` (and may override
    :meth:`dump_ui` or the input methods with something faster that means the same).

    Attributes:
        serial: How the device is addressed (``emulator-5554``, ``127.0.0.1:6101``...).
        timeout: Default timeout of one device call, in seconds.
        ui_dump_retries: How often :meth:`dump_ui` retries a screen that is not idle.
    """

    serial: str = ""
    timeout: float = 10.0
    ui_dump_retries: int = 3

    def __init__(self) -> None:
        self._screen_size: tuple[int, int] | None = None
        # A file name of this object's own, so two clients of one phone never read each other's dump.
        self._ui_dump_path = f"/data/local/tmp/androidrl-ui-{os.getpid()}-{next(_dump_ids)}.xml"

    # ------------------------------------------------------------------ lifecycle

    def connect(self) -> None:
        """Make sure the device answers; idempotent. Constructors never connect."""

    def close(self) -> None:
        """Release connections; idempotent, and safe when never connected."""

    def reconnect(self) -> None:
        """Try to re-attach a device that stopped answering (nothing to do by default)."""

    def wait_ready(self, timeout: float = 60.0, poll: float = 0.2) -> None:
        """Block until the device answers a shell command (e.g. after a reboot), reconnecting as needed.

        Raises:
            DeviceError: Still not answering after ``timeout`` seconds (the last error).
        """
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.connect()
                self.execute("echo ready", timeout=min(self.timeout, max(0.5, deadline - time.monotonic())))
                self._screen_size = None  # a reboot may come back with another size
                return
            except DeviceError:
                if time.monotonic() >= deadline:
                    raise
            with contextlib.suppress(DeviceError):
                self.reconnect()
            time.sleep(poll)

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.serial!r})"

    # ------------------------------------------------------------------ primitives

    @abstractmethod
    def execute(self, command: str, *, timeout: float | None = None) -> CommandResult:
        """Run ``command`` with the device's shell and return its output and exit status.

        Raises:
            DeviceOfflineError: The device is offline or gone.
            DeviceTimeoutError: No answer within ``timeout`` (default :attr:`timeout`).
        """

    @abstractmethod
    def screenshot(self) -> np.ndarray:
        """The screen as a ``(height, width, 3)`` uint8 RGB array (treat it as read-only)."""

    def changed_regions(self, old: np.ndarray, new: np.ndarray) -> tuple[tuple[int, int, int, int], ...] | None:
        """Where screenshot ``new`` differs from the earlier screenshot ``old``, if the device knows.

        Returns (left, top, right, bottom) boxes in pixels, () for nowhere, or None when
        unknown (the default: a phone over adb does not say). Wrappers use it to redo only
        the changed part of an observation.
        """
        return None

    def shell(self, command: str, *, timeout: float | None = None, check: bool = True) -> str:
        """Run ``command`` and return its stdout as text.

        Raises:
            DeviceCommandError: The command exited non-zero (unless ``check=False``).
        """
        result = self.execute(command, timeout=timeout)
        if check and result.exit_code != 0:
            raise DeviceCommandError(
                command, result.exit_code, result.text, result.stderr.decode("utf-8", "replace"), serial=self.serial
            )
        return result.text

    def wake_and_unlock(self) -> None:
        """Turn the screen on and take an insecure keyguard away, as an episode's reset on a device must.

        ``input keyevent WAKEUP`` does nothing to an awake phone, ``wm dismiss-keyguard`` nothing
        to an unlocked one (one shell round trip either way).

        Raises:
            DeviceCommandError: The device refused it.
        """
        self.shell(WAKE_AND_UNLOCK)

    # ------------------------------------------------------------------ screen

    @property
    def screen_size(self) -> tuple[int, int]:
        """(width, height) in pixels from ``wm size``; an override size wins, as on screen."""
        if self._screen_size is None:
            self._screen_size = self.query_screen_size()
        return self._screen_size

    def query_screen_size(self) -> tuple[int, int]:
        """Ask ``wm size`` now (not from the cache); the answer becomes :attr:`screen_size`.

        Raises:
            DeviceError: The output holds no size.
        """
        output = self.shell("wm size")
        size = parse_wm_size(output)
        if size is None:
            raise DeviceError(f"cannot read the screen size from `wm size`: {output.strip()!r}", serial=self.serial)
        self._screen_size = size
        return size

    def dump_ui(self) -> str:
        """The UI hierarchy XML of the window in front (``uiautomator dump``).

        Retries a screen that is not idle :attr:`ui_dump_retries` times.

        Raises:
            DeviceBusyError: The screen never became idle.
        """
        return self._until_idle(self._dump_ui_once)

    def ui_tree(self) -> ET.Element | None:
        """The UI hierarchy as elements, when the device can build them without the XML text.

        None (the default: a phone over adb) means it cannot: read :meth:`dump_ui` and parse
        it. A device that can (the in-process virtual phone) returns exactly the elements the
        parsed :meth:`dump_ui` would hold, and may return the same object while the screen
        does not change; treat it as read-only.

        Raises:
            DeviceBusyError: The screen never became idle (as :meth:`dump_ui`).
        """
        return None

    def dump_ui_file(self, path: str) -> None:
        """``uiautomator dump`` to ``path`` on the device (MetaGPT's way), never leaving an older file there.

        Retries a failed dump :attr:`ui_dump_retries` times.

        Raises:
            DeviceBusyError: No dump succeeded.
        """
        quoted = shlex.quote(path)
        self._until_idle(
            lambda: self.execute(f"rm -f {quoted}; uiautomator dump {quoted} >&2 && ls {quoted}").exit_code == 0 or None
        )

    def _until_idle(self, attempt: Callable[[], T | None]) -> T:
        """The first result of ``attempt`` that is not None (None: the screen was not idle), retrying."""
        for tries in range(self.ui_dump_retries + 1):
            result = attempt()
            if result is not None:
                return result
            if tries < self.ui_dump_retries:
                time.sleep(0.05 * (tries + 1))
        raise DeviceBusyError(
            f"uiautomator dump: {NOT_IDLE} ({self.ui_dump_retries + 1} attempts); the screen keeps animating",
            serial=self.serial,
        )

    def _dump_ui_once(self) -> str | None:
        """One dump attempt: the XML, or None when the screen was not idle."""
        path = self._ui_dump_path
        # rm first, so a failed dump can never hand back an older file; nothing stays behind.
        result = self.execute(f"rm -f {path}; uiautomator dump {path} >&2 && cat {path}; rm -f {path}")
        if result.stdout.startswith(b"<?xml"):
            return result.text
        message = result.stderr.decode("utf-8", "replace").strip()
        if NOT_IDLE in message:
            return None
        raise DeviceError(f"uiautomator dump failed: {message or 'no output'}", serial=self.serial)

    # ------------------------------------------------------------------ input

    def check_point(self, x: float, y: float, what: str = "point") -> tuple[int, int]:
        """``(x, y)`` as ints if on screen, else :class:`ValueError` naming the screen size."""
        for v in (x, y):
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise TypeError(f"{what} coordinates must be numbers, got ({x!r}, {y!r})")
        width, height = self.screen_size
        if not (0 <= x <= width - 1 and 0 <= y <= height - 1):
            raise ValueError(
                f"{what} ({x}, {y}) is outside the {width}x{height} screen of {self.serial or 'the device'}"
                f" (x must be 0-{width - 1}, y 0-{height - 1})"
            )
        return int(round(x)), int(round(y))

    @staticmethod
    def _check_duration(duration_ms: int, what: str) -> int:
        if isinstance(duration_ms, bool) or not isinstance(duration_ms, (int, np.integer)):
            raise TypeError(f"{what} duration_ms must be an int, got {duration_ms!r}")
        if not 0 < duration_ms <= 60_000:
            raise ValueError(f"{what} duration_ms must be 1-60000, got {duration_ms}")
        return int(duration_ms)

    def tap(self, x: float, y: float) -> str:
        """Tap at ``(x, y)`` pixels."""
        px, py = self.check_point(x, y, "tap")
        return self.shell(f"input tap {px} {py}")

    def long_press(self, x: float, y: float, duration_ms: int = 500) -> str:
        """Touch and hold ``(x, y)`` for ``duration_ms`` (Android's long-press timeout is 400 ms)."""
        px, py = self.check_point(x, y, "long_press")
        ms = self._check_duration(duration_ms, "long_press")
        return self.shell(f"input swipe {px} {py} {px} {py} {ms}")

    def swipe(self, x1: float, y1: float, x2: float, y2: float, duration_ms: int = 300) -> str:
        """Drag from ``(x1, y1)`` to ``(x2, y2)`` over ``duration_ms``."""
        ax, ay = self.check_point(x1, y1, "swipe start")
        bx, by = self.check_point(x2, y2, "swipe end")
        ms = self._check_duration(duration_ms, "swipe")
        return self.shell(f"input swipe {ax} {ay} {bx} {by} {ms}")

    def text(self, text: str) -> str:
        """Type ``text`` into the focused field, literally.

        Every printable ASCII character is typed as itself — quotes, ``; & | $ ` ( ) < > # %``
        and spaces included. Android's ``input text`` cannot type other characters, so they
        raise :class:`ValueError` before anything is sent; use :meth:`key` for Enter or Tab.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        return "".join(self.shell(cmd) for cmd in input_text_commands(text))

    def key(self, key: str | int) -> str:
        """Press a key: ``"back"``, ``"home"``, ``"enter"``, ``"del"``, ``"KEYCODE_TAB"``, or a key code."""
        return self.shell(f"input keyevent {keycode(key)}")

    def back(self) -> str:
        """Press BACK."""
        return self.key("back")

    def home(self) -> str:
        """Press HOME."""
        return self.key("home")

    # ------------------------------------------------------------------ snapshots

    def snapshot_names(self) -> list[str]:
        """The device's saved snapshots (an emulator's or a virtual phone's).

        Raises:
            DeviceError: The device cannot keep snapshots (a real phone).
        """
        raise DeviceError(f"{self!r} cannot keep snapshots (an emulator or a virtual phone can)")

    def save_snapshot(self, name: str) -> None:
        """Save the whole device as snapshot ``name`` (``adb emu avd snapshot save``).

        Raises:
            DeviceError: The device cannot keep snapshots.
        """
        raise DeviceError(f"{self!r} cannot keep snapshots (an emulator or a virtual phone can)")

    def load_snapshot(self, name: str) -> None:
        """Put the device back as snapshot ``name`` has it (``adb emu avd snapshot load``).

        Raises:
            DeviceError: No such snapshot, or the device cannot keep snapshots.
        """
        raise DeviceError(f"{self!r} cannot keep snapshots (an emulator or a virtual phone can)")

    def perform_and_observe(self, action: EnvAction, *, frame: bool = True, xml: bool = True) -> Observed:
        """:meth:`perform`, and read the screen (``frame``) and the UI XML (``xml``) if that is cheaper now.

        A device that reads them faster together with the action (one round trip instead of
        three: :class:`~androidrl.device.adb.AdbDevice`) reads what is asked here; this one
        reads nothing ahead (None), and the caller reads what it needs when it needs it.

        Raises:
            ValueError: As :meth:`perform` (nothing is sent).
        """
        return Observed(None, None, self.perform(action))

    def perform(self, action: EnvAction) -> str:
        """Do what an :class:`~androidrl.spaces.EnvAction` says; the output of the command it ran.

        Raises:
            ValueError: A point off the screen, or text Android cannot type (nothing is sent).
        """
        kind = action.action_type
        x, y = (int(v) for v in action.coord)
        if kind == EnvActionType.NONE:
            return ""
        if kind == EnvActionType.SYSTEM_BACK:
            return self.back()
        if kind == EnvActionType.SYSTEM_HOME:
            return self.home()
        if kind == EnvActionType.SYSTEM_ENTER:
            return self.key("enter")
        if kind == EnvActionType.SYSTEM_TAP:
            return self.tap(x, y)
        if kind == EnvActionType.USER_LONGPRESS:
            return self.long_press(x, y, LONG_PRESS_MS)
        if kind == EnvActionType.USER_INPUT:
            return self.text(action.input_txt)
        if kind == EnvActionType.USER_SWIPE:
            return self.swipe(x, y, *swipe_end(x, y, action.orient, action.dist, self.screen_size), SWIPE_DURATION_MS)
        tx, ty = (int(v) for v in action.tgt_coord)
        return self.swipe(x, y, tx, ty, SWIPE_DURATION_MS)


def parse_wm_size(output: str) -> tuple[int, int] | None:
    """(width, height) from ``wm size`` output: the override size when set, else the physical one."""
    sizes = {kind: (int(w), int(h)) for kind, w, h in _SIZE_RE.findall(output)}
    return sizes.get("Override") or sizes.get("Physical") or sizes.get("")


def keycode(key: str | int) -> int:
    """The Android key code for a name (any case, with or without ``KEYCODE_``) or a code."""
    if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
        if not 0 < int(key) < 400:
            raise ValueError(f"key code must be 1-399, got {key}")
        return int(key)
    if not isinstance(key, str):
        raise TypeError(f"key must be a name or an int key code, got {key!r}")
    name = key.strip().upper()
    name = name[len("KEYCODE_") :] if name.startswith("KEYCODE_") else name
    name = KEY_ALIASES.get(name.lower(), name)
    if name not in KEYCODES or name == "UNKNOWN":
        raise ValueError(f"unknown key {key!r}; use a KEYCODE_* name such as 'back', 'home', 'enter' or an int")
    return KEYCODES[name]


def input_text_commands(text: str) -> list[str]:
    """The ``input text`` commands that type ``text`` literally on stock Android.

    Spaces become ``%s`` (which Android turns back into spaces); a literal ``%s`` in the
    text is split across two commands so Android cannot turn it into a space; each
    argument is single-quoted for the device shell.

    Raises:
        ValueError: ``text`` holds a character Android's ``input text`` cannot type.
    """
    for i, ch in enumerate(text):
        if ch not in TYPABLE:
            raise ValueError(
                f"cannot type {ch!r} (U+{ord(ch):04X}) at index {i}: Android's `input text` types only "
                "printable ASCII; send Enter/Tab with key()"
            )
    if not text:
        return []
    chunks = text.split("%s")
    pieces = [("s" if i else "") + chunk + ("%" if i < len(chunks) - 1 else "") for i, chunk in enumerate(chunks)]
    return [f"input text {shlex.quote(p.replace(' ', '%s'))}" for p in pieces if p]
