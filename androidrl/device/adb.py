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

import numpy as np

from androidrl.device.adb_client import AdbClient
from androidrl.device.base import CommandResult, Device
from androidrl.device.emulator_console import console_command
from androidrl.device.screencap import decode_screencap
from androidrl.errors import DeviceNotFoundError, DeviceOfflineError

_TCP_SERIAL = re.compile(r"^[^\s:]+:\d+$")
_EMULATOR_SERIAL = re.compile(r"^emulator-(\d+)$")


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
        with self._vanished_is_offline():
            return self.client.shell(self.serial, command, timeout)

    def screenshot(self) -> np.ndarray:
        """Raw ``screencap`` over ``exec:``, decoded to RGB on the host."""
        with self._vanished_is_offline():
            return decode_screencap(self.client.exec_out(self.serial, "screencap"))

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
