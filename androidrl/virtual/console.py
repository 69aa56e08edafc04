"""The emulator console of a virtual phone served on an emulator's port pair.

An Android emulator answers a text console on its even port (5554) beside adbd on the odd
one (5555); ``adb emu COMMAND`` (AOSP ``adb/client/console.cpp``) connects to it, sends
``auth <token>`` with the token from ``~/.emulator_console_auth_token``, the command and
``quit``, and prints what follows the first two ``OK`` lines. This console answers the
same way: ``avd snapshot save|load|list|delete NAME`` (the phone's own snapshots),
``avd name``, ``geo fix LON LAT``, ``kill``, ``ping``, ``help`` and ``quit``; a command
it does not know is ``KO: unknown command``, as the emulator says.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Callable
from pathlib import Path

from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.core import SnapshotInfo

logger = logging.getLogger(__name__)
TOKEN_FILE = "~/.emulator_console_auth_token"
HELP = (
    "Android console commands:\r\n\r\n    help|h|?         print a list of commands\r\n"
    "    avd              control virtual device execution\r\n    geo              Geo-location commands\r\n"
    "    kill             kill the emulator instance\r\n    ping             check if the emulator is alive\r\n"
    "    quit|exit        quit control session\r\n"
)


def console_token(path: str | Path = TOKEN_FILE) -> str:
    """The console's auth token: the file's, made (random, private) as the emulator makes it if missing."""
    file = Path(path).expanduser()
    if file.is_file() and file.read_text().strip():
        return file.read_text().strip()
    token = secrets.token_urlsafe(12)
    file.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(token)
    return token


def _human_size(size: int) -> str:
    """QEMU's ``get_human_readable_size``: ``999``, ``1.5K``, ``75M``."""
    if size <= 999:
        return str(size)
    for exponent, suffix in enumerate("KMGT", 1):
        base = 1024**exponent
        if size < 10 * base:
            return f"{size / base:.1f}{suffix}"
        if size < 1000 * base or suffix == "T":
            return f"{(size + (base >> 1)) // base}{suffix}"
    raise AssertionError("unreachable")


def snapshot_listing(snapshots: list[SnapshotInfo]) -> str:
    """``avd snapshot list``: QEMU's ``bdrv_snapshot_dump`` table, as the emulator's ``qemu_listvms`` prints it.

    ``"%-10s%-20s%7s%20s%15s"`` per row, with ``--`` for the ID (the emulator keeps no IDs).
    """
    if not snapshots:
        return "There is no snapshot available.\r\n"
    header = f"{'ID':<10}{'TAG':<20}{'VM SIZE':>7}{'DATE':>20}{'VM CLOCK':>15}"
    rows = ["List of snapshots present on all disks:", header]
    for snap in snapshots:
        date = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(snap.saved_at))
        millis = int(snap.vm_clock * 1000)
        clock = f"{millis // 3_600_000:02d}:{millis // 60_000 % 60:02d}:{millis // 1000 % 60:02d}.{millis % 1000:03d}"
        rows.append(f"{'--':<10}{snap.name:<20}{_human_size(snap.size):>7}{date:>20}{clock:>15}")
    return "".join(row + "\r\n" for row in rows)


class ConsoleServer:
    """Serves one phone's emulator console on a TCP port of this machine.

    Args:
        phone: The phone whose snapshots the console saves and loads.
        port: The console port (the emulator's even port; its adbd is on ``port + 1``).
        avd_name: What ``avd name`` answers.
        token_path: The auth-token file (default ``~/.emulator_console_auth_token``).
        on_kill: Called for ``kill``, as the emulator exits (default: the phone powers off).
    """

    def __init__(
        self,
        phone: VirtualPhone,
        port: int,
        avd_name: str = "androidrl_virtual",
        token_path: str | Path = TOKEN_FILE,
        on_kill: Callable[[], None] | None = None,
    ) -> None:
        self.phone = phone
        self.port = port
        self.avd_name = avd_name
        self.token_path = token_path
        self.on_kill = on_kill or (lambda: phone.reboot(power_off=True))
        self.location: tuple[float, float] | None = None
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        """Listen on 127.0.0.1 (the emulator's console is loopback-only too)."""
        self.token = console_token(self.token_path)
        self._server = await asyncio.start_server(self._session, "127.0.0.1", self.port, reuse_address=True)

    async def stop(self) -> None:
        """Stop listening."""
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None

    async def _session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        path = Path(self.token_path).expanduser()
        writer.write(
            b"Android Console: Authentication required\r\nAndroid Console: type 'auth <auth_token>' to authenticate\r\n"
            b"Android Console: you can find your <auth_token> in \r\n'" + str(path).encode() + b"'\r\nOK\r\n"
        )
        authed = False
        try:
            while line := await reader.readline():
                words = line.decode("utf-8", "replace").split()
                if not words:
                    continue
                if words[0] in ("quit", "exit"):
                    break
                if not authed:
                    if words[0] == "auth" and len(words) == 2 and secrets.compare_digest(words[1], self.token):
                        authed = True
                        writer.write(b"Android Console: type 'help' for a list of commands\r\nOK\r\n")
                    elif words[0] == "auth":
                        writer.write(b"KO: authentication token does not match ~/.emulator_console_auth_token\r\n")
                    else:
                        writer.write(b"KO: unknown command, try 'help'\r\n")
                    continue
                if words[0] == "kill":
                    writer.write(b"OK: killing emulator, bye bye\r\n")
                    await writer.drain()
                    self.on_kill()
                    break
                writer.write(self.answer(words).encode())
                await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()

    def answer(self, words: list[str]) -> str:
        """The console's reply to one command (ending in ``OK`` or ``KO: ...``)."""
        if words[0] in ("help", "h", "?"):
            return HELP + "\r\nOK\r\n"
        if words[0] == "ping":
            return "I am alive!\r\nOK\r\n"
        if words[0] == "geo" and words[1:2] == ["fix"] and len(words) >= 4:
            values = []
            for label, text in zip(("longitude", "latitude", "altitude"), words[2:5]):
                try:
                    values.append(float(text))
                except ValueError:
                    return f"KO: argument '{label}' is not a number\r\n"
            longitude, latitude, *altitude = values
            self.location = (longitude, latitude)
            self.phone.set_location(latitude, longitude, altitude[0] if altitude else 0.0)  # the GPS reports it
            return "OK\r\n"
        if words[0] == "avd" and words[1:2] == ["name"]:
            return f"{self.avd_name}\r\nOK\r\n"
        if words[0] == "avd" and words[1:2] == ["snapshot"]:
            return self._snapshot(words[2:])
        return "KO: unknown command, try 'help'\r\n"

    def _snapshot(self, args: list[str]) -> str:
        phone = self.phone
        if args[:1] == ["list"]:
            return snapshot_listing(phone.snapshots()) + "OK\r\n"
        if len(args) != 2 or args[0] not in ("save", "load", "delete", "del"):
            return "KO: bad sub-command, try 'help avd snapshot'\r\n"
        verb, name = args
        if verb == "save":
            phone.save_snapshot(name)
            return "OK\r\n"
        if name not in phone.snapshot_names():
            return f"KO: snapshot '{name}' does not exist\r\n"
        if verb == "load":
            phone.load_snapshot(name)
        else:
            phone.delete_snapshot(name)
        return "OK\r\n"
