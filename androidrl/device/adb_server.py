"""An adb server of one's own: for tests, benchmarks and tools that must not touch the user's.

``adb`` keeps one server per port, shared by every client on the machine; restarting or
filling it would disturb other users' devices. :class:`IsolatedAdbServer` starts the real
``adb`` binary's server on a free port with its own ``HOME`` (where it writes its key),
its own ``TMPDIR`` (its log), and with USB, mDNS and the emulator port scan off unless
asked for, and kills it on exit.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from androidrl.errors import DeviceError


def free_port(exclude: range = range(5554, 5586), count: int = 1) -> int:
    """The first of ``count`` consecutive free TCP ports on 127.0.0.1, outside ``exclude`` (adb's emulator scan)."""
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        ports = range(port, port + count)
        if ports[-1] <= 65535 and not any(p in exclude for p in ports) and all(_bindable(p) for p in ports[1:]):
            return port


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def accepts(port: int, timeout: float = 2.0) -> bool:
    """Whether something on 127.0.0.1 accepts a TCP connection on ``port`` now."""
    with socket.socket() as sock:
        sock.settimeout(timeout)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def adb_path() -> str:
    """Path of the ``adb`` binary.

    Raises:
        DeviceError: adb is not installed.
    """
    path = shutil.which("adb")
    if path is None:
        raise DeviceError("the `adb` command is not installed; on Debian/Ubuntu: sudo apt-get install adb")
    return path


def adb_env(port: int) -> dict[str, str]:
    """This process's environment with ``adb`` pointed at the server on ``port``."""
    return {**os.environ, "ANDROID_ADB_SERVER_PORT": str(port)}


class IsolatedAdbServer:
    """A private adb server on a free port.

    Args:
        port: Port for the server (default: a free one).
        emulator_scan: Let the server scan ports 5555-5585 for emulators at start.

    Example:
        >>> with IsolatedAdbServer() as server:
        ...     server.adb("connect", "127.0.0.1:6101")
    """

    def __init__(self, port: int | None = None, emulator_scan: bool = False) -> None:
        self.port = port or free_port()
        self._home = Path(tempfile.mkdtemp(prefix="androidrl-adb-home-"))
        self.env = {
            **adb_env(self.port),
            "HOME": str(self._home),
            "TMPDIR": str(self._home),
            "ADB_USB": "0",
            "ADB_MDNS": "0",
            "ADB_EMU": "1" if emulator_scan else "0",
        }
        self._started = False

    @property
    def home(self) -> Path:
        """The server's own HOME (its adb keys, and the emulator console token ``adb emu`` reads)."""
        return self._home

    def log_tail(self, lines: int = 40) -> str:
        """The last ``lines`` lines of the server's own log (``adb.UID.log`` in its TMPDIR), "" before it wrote one."""
        text = "".join(path.read_text(errors="replace") for path in sorted(self._home.glob("adb*.log")))
        return "\n".join(text.splitlines()[-lines:])

    def answers(self) -> bool:
        """Whether a server listens on the port now (``adb devices`` would reach it, not start one)."""
        return accepts(self.port)

    def adb(self, *args: str, timeout: float = 30.0, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run the ``adb`` command line against this server."""
        result = subprocess.run([adb_path(), *args], env=self.env, capture_output=True, text=True, timeout=timeout)
        if check and result.returncode != 0:
            raise DeviceError(
                f"`adb {' '.join(args)}` exited with {result.returncode}: {(result.stderr or result.stdout).strip()}"
            )
        return result

    def start(self) -> IsolatedAdbServer:
        """Start the server (idempotent)."""
        if not self._started:
            self.adb("start-server")
            self._started = True
        return self

    def stop(self) -> None:
        """Kill the server and remove its home directory (idempotent)."""
        if self._started:
            self.adb("kill-server", check=False, timeout=10)
            self._started = False
        shutil.rmtree(self._home, ignore_errors=True)

    def __enter__(self) -> IsolatedAdbServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
