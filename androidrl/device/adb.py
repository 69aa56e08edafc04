"""AdbDevice: the Device interface over the adb server, for emulators and phones.

Any serial the adb server knows works: ``emulator-5554``, a USB serial, or ``host:port``
for devices over TCP (the virtual phone's adbd included). The hot path spawns no
process: commands run through :class:`~androidrl.device.adb_client.AdbClient`, and
screenshots are raw ``screencap`` streamed over ``exec:`` and decoded on the host — no PNG
encoding on the phone, no file on the phone, no pull, no sleeps.
"""

from __future__ import annotations

import contextlib
import re
import threading

import numpy as np

from androidrl.device.adb_client import AdbClient
from androidrl.device.base import NOT_IDLE, CommandResult, Device, Observed
from androidrl.device.emulator_console import console_command
from androidrl.device.screencap import decode_screencap, screencap_length
from androidrl.errors import DeviceCommandError, DeviceError, DeviceNotFoundError, DeviceOfflineError
from androidrl.spaces import EnvAction

_TCP_SERIAL = re.compile(r"^[^\s:]+:\d+$")
_EMULATOR_SERIAL = re.compile(r"^emulator-(\d+)$")
_XML_START = b"<?xml"


class AdbDevice(Device):
    """A device reached through an adb server.

    Args:
        serial: The device's serial as ``adb devices`` lists it.
        host: Host of the adb server (default this machine).
        port: Port of the adb server (default ``$ANDROID_ADB_SERVER_PORT`` or 5037).
        timeout: Default timeout of one call, in seconds.

    Example:
        >>> device = AdbDevice("emulator-5554")
        >>> device.tap(540, 1200)
        ''
    """

    def __init__(self, serial: str, *, host: str = "127.0.0.1", port: int | None = None, timeout: float = 10.0):
        super().__init__()
        if not isinstance(serial, str) or not serial.strip():
            raise ValueError(f"serial must be a non-empty string such as 'emulator-5554', got {serial!r}")
        self.serial = serial
        self.timeout = timeout
        self.client = AdbClient(host, port, timeout=timeout)
        self._answered = False  # has the device ever answered?
        self._recording = threading.local()  # perform_and_observe collecting an action's commands
        self._answer_size = 0  # the biggest screen answer so far: the buffer size of the next one

    @property
    def is_tcp(self) -> bool:
        """Whether the serial is ``host:port`` (reconnected with ``adb connect``)."""
        return bool(_TCP_SERIAL.match(self.serial))

    def connect(self) -> None:
        """Check the device is online; ``adb connect`` a TCP serial the server does not know yet."""
        try:
            state = self.client.get_state(self.serial)
        except DeviceNotFoundError:
            if not self.is_tcp:
                raise
            self.client.connect(self.serial)
            state = self.client.get_state(self.serial)
        if state != "device":
            raise DeviceOfflineError(f"device is {state}", serial=self.serial)

    def reconnect(self) -> None:
        """Re-attach a lost device without touching the shared adb server.

        TCP serials are disconnected and connected again; an emulator serial is announced
        to the server again (as the emulator does when it boots); USB devices come back
        on their own.
        """
        if self.is_tcp:
            self.client.disconnect(self.serial)
            self.client.connect(self.serial)
        elif match := _EMULATOR_SERIAL.match(self.serial):
            self.client.announce_emulator(int(match.group(1)) + 1)

    def execute(self, command: str, *, timeout: float | None = None) -> CommandResult:
        """Run ``command`` in the device shell (shell protocol v2, exit code included)."""
        recorded = getattr(self._recording, "commands", None)
        if recorded is not None:  # an action's command, to run later in perform_and_observe's line
            recorded.append(command)
            return CommandResult(b"", b"", 0)
        with self._vanished_is_offline():
            return self.client.shell(self.serial, command, timeout)

    def screenshot(self) -> np.ndarray:
        """Raw ``screencap`` over ``exec:``, decoded to RGB on the host."""
        with self._vanished_is_offline():
            raw = self.client.exec_out_view(self.serial, "screencap", size_hint=self._answer_size)
        self._answer_size = max(self._answer_size, len(raw))
        return decode_screencap(raw)

    def perform_and_observe(self, action: EnvAction, *, frame: bool = True, xml: bool = True) -> Observed:
        """:meth:`perform`, then :meth:`screenshot` and :meth:`dump_ui`, in one command line: one round trip.

        It means what the three calls mean, in their order: the action first (a point off
        the screen or untypable text raises before anything is sent, as :meth:`perform`
        does; an action that fails raises :class:`DeviceCommandError` and nothing is read),
        then the screen, then the UI, dumped again as :meth:`dump_ui` does while the screen
        is not idle. What saves time is the connections not made: each call is one through
        the adb server and adbd, and this makes one where the three calls make three.

        Args:
            action: What to do (``EnvActionType.NONE``: nothing, only read).
            frame: Read the screen.
            xml: Read the UI hierarchy.

        Returns:
            The frame and the XML (None where not asked for). The action's own output is
            not kept: Android's ``input`` prints nothing when it works.
        """
        commands = self._commands_of(action)
        path = self._ui_dump_path
        line = []
        if commands:  # its output goes to stderr: stdout carries the frame and the XML alone
            line.append(" && ".join(f"{command} >&2" for command in commands) + " || exit $?")
        if frame:
            line.append("screencap")
        if xml:  # as Device.dump_ui: rm first, so a failed dump never hands back an older file
            line.append(f"rm -f {path}; uiautomator dump {path} >&2 && cat {path}; rm -f {path}")
        if not line:
            return Observed(None, None)
        with self._vanished_is_offline():
            out, err, code = self.client.shell_view(self.serial, "; ".join(line), size_hint=self._answer_size)
        self._answer_size = max(self._answer_size, len(out))
        stderr = err.decode("utf-8", "replace")
        if code:  # only the action's `exit $?` ends the line with a failure
            raise DeviceCommandError(" && ".join(commands), code, "", stderr, serial=self.serial)
        image = None
        if frame:
            end = screencap_length(out, _XML_START if xml else b"")
            image, out = decode_screencap(out[:end]), out[end:]
        if not xml:
            return Observed(image, None)
        if bytes(out[: len(_XML_START)]) == _XML_START:
            return Observed(image, bytes(out).decode("utf-8", "replace"))
        if NOT_IDLE in stderr:  # the screen was animating: dump again, with dump_ui's retries
            return Observed(image, self.dump_ui())
        raise DeviceError(f"uiautomator dump failed: {stderr.strip() or 'no output'}", serial=self.serial)

    def _commands_of(self, action: EnvAction) -> list[str]:
        """The shell commands :meth:`perform` runs for ``action``, collected instead of run."""
        self.screen_size  # noqa: B018  (known first: perform checks points against it, and its query must run)
        self._recording.commands = commands = []
        try:
            self.perform(action)
        finally:
            self._recording.commands = None
        return commands

    @contextlib.contextmanager
    def _vanished_is_offline(self):
        """A device adb stopped listing after it answered is offline, not unknown."""
        try:
            yield
            self._answered = True
        except DeviceNotFoundError as err:
            if not self._answered:
                raise
            raise DeviceOfflineError(f"disconnected ({err})", serial=self.serial) from None

    # ------------------------------------------------------------------ snapshots (emulators)

    def snapshot_names(self) -> list[str]:
        """The emulator's snapshots (its console's ``avd snapshot list``)."""
        return snapshot_list_names(console_command(self.serial, "avd snapshot list", self.timeout))

    def save_snapshot(self, name: str) -> None:
        """``adb emu avd snapshot save NAME``."""
        console_command(self.serial, f"avd snapshot save {_snapshot_name(name)}", max(self.timeout, 120.0))

    def load_snapshot(self, name: str) -> None:
        """``adb emu avd snapshot load NAME``; the device drops off adb for a moment on an emulator."""
        console_command(self.serial, f"avd snapshot load {_snapshot_name(name)}", max(self.timeout, 120.0))


def snapshot_list_names(listing: str) -> list[str]:
    """The names in an emulator console's ``avd snapshot list``, whichever form the emulator prints.

    QEMU's table (``ID TAG VM SIZE DATE VM CLOCK``, rows ``--  default_boot  75M ...`` or with a
    numeric ID; newer QEMU adds an ``ICOUNT`` column): the second column of each row. Newer
    emulators print bare names, one a line.
    """
    names = []
    for line in listing.splitlines():
        words = line.split()
        if len(words) == 1:
            names.append(words[0])
        elif len(words) >= 2 and (words[0] == "--" or words[0].isdigit()):
            names.append(words[1])
    return names


def _snapshot_name(name: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise ValueError(f"snapshot names are letters, digits, '_', '.' and '-': got {name!r}")
    return name
