"""A thin client of the adb server (port 5037), in process: no ``adb`` process per call.

It speaks the server's "smart socket" protocol directly: a request is four hex digits of
length plus ASCII text, answered by ``OKAY`` or ``FAIL`` plus a length-prefixed message.
Device services run on a socket switched to a device with ``host:transport:SERIAL``:
``shell,v2,raw:CMD`` (stdout, stderr and exit code in shell-protocol packets), ``exec:CMD``
(raw bytes, for screenshots) and ``sync:`` (files). Every call has a timeout, reads into
buffers that grow geometrically (no quadratic copying, no sleeps), and maps adb's failures
to androidrl's typed device errors. Big answers (screenshots) are read straight into one
buffer, sized from a hint, with no chunk copied (:meth:`AdbClient.exec_out_view`).
"""

from __future__ import annotations

import contextlib
import os
import socket
import struct
import subprocess
import time
from dataclasses import dataclass

import numpy as np

from androidrl.device.adb_server import adb_env, adb_path
from androidrl.device.base import CommandResult
from androidrl.errors import DeviceError, DeviceNotFoundError, DeviceOfflineError, DeviceTimeoutError

DEFAULT_PORT = 5037
_MIN_BUFFER = 64 * 1024
_MAX_REQUEST = 0xFFFF  # the smart-socket length prefix is 4 hex digits
_SYNC_DATA_MAX = 64 * 1024
# shell protocol v2 packet ids
_STDOUT, _STDERR, _EXIT = 1, 2, 3


@dataclass(frozen=True)
class DeviceEntry:
    """One line of ``adb devices -l``."""

    serial: str
    state: str  # device, offline, unauthorized, no permissions, ...
    properties: dict[str, str]


def _server_port() -> int:
    value = os.environ.get("ANDROID_ADB_SERVER_PORT", "")
    return int(value) if value.isdigit() else DEFAULT_PORT


def _fail_error(message: str, serial: str | None) -> DeviceError:
    """The typed error for an adb FAIL message."""
    lowered = message.lower()
    if "not found" in lowered or "no devices" in lowered or "no emulators" in lowered:
        return DeviceNotFoundError(f"adb: {message}", serial=serial)
    if "unauthorized" in lowered:
        return DeviceOfflineError(
            f"adb: {message} (accept the 'Allow USB debugging' prompt on the phone)", serial=serial
        )
    # "closed": the device's connection closed while adb opened the service (it went away).
    if any(word in lowered for word in ("offline", "connecting", "authorizing", "closed")):
        return DeviceOfflineError(f"adb: {message}", serial=serial)
    return DeviceError(f"adb: {message}", serial=serial)


class _Received:
    """Bytes read from a socket straight into one buffer, doubled only when an answer outgrows it.

    The memory is not initialised (numpy's ``empty``): a 10 MB answer costs the socket's
    copy into it and nothing more.
    """

    def __init__(self, size_hint: int = 0) -> None:
        self._array = np.empty(max(size_hint + 1, _MIN_BUFFER), np.uint8)  # +1: room to see the end
        self.size = 0

    def spare(self, count: int | None = None) -> memoryview:
        """Where the next ``count`` bytes go (None: all the room there is, grown if there is none)."""
        needed = self.size + (count or 1)
        if needed > len(self._array):
            grown = np.empty(max(needed, 2 * len(self._array)), np.uint8)
            grown[: self.size] = self._array[: self.size]
            self._array = grown
        end = len(self._array) if count is None else self.size + count
        return memoryview(self._array)[self.size : end]

    def view(self) -> memoryview:
        """What was read, read-only (it keeps the buffer alive)."""
        return memoryview(self._array)[: self.size].toreadonly()


class _Connection:
    """One socket to the adb server, with exact reads and timeouts mapped to device errors."""

    def __init__(self, sock: socket.socket, serial: str | None) -> None:
        self.sock = sock
        self.serial = serial

    def close(self) -> None:
        self.sock.close()

    def send(self, data: bytes) -> None:
        try:
            self.sock.sendall(data)
        except TimeoutError:
            raise DeviceTimeoutError("adb server did not accept the request in time", serial=self.serial) from None
        except OSError as err:
            raise DeviceOfflineError(f"connection to the adb server broke: {err}", serial=self.serial) from None

    def request(self, text: str) -> None:
        """Send a smart-socket request and wait for OKAY.

        Raises:
            ValueError: The request is longer than the protocol's 4-hex-digit length allows.
        """
        data = text.encode()
        if len(data) > _MAX_REQUEST:
            raise ValueError(
                f"adb request of {len(data)} bytes is over the adb server's limit of {_MAX_REQUEST} "
                f"(shell command lines must be shorter): {text[:60]!r}..."
            )
        self.send(b"%04x" % len(data) + data)
        status = self.read_exact(4)
        if status == b"FAIL":
            raise _fail_error(self.read_message(), self.serial)
        if status != b"OKAY":
            raise DeviceError(f"adb server answered {status!r} to {text!r}", serial=self.serial)

    def read_message(self) -> str:
        """A length-prefixed message (4 hex digits, then text)."""
        length = int(self.read_exact(4), 16)
        return self.read_exact(length).decode("utf-8", "replace")

    def read_exact(self, size: int) -> bytearray:
        buf = bytearray(size)
        view = memoryview(buf)
        got = 0
        while got < size:
            n = self._recv_into(view[got:])
            if n == 0:
                raise DeviceOfflineError(
                    "the connection closed mid-answer (device disconnected or offline?)", serial=self.serial
                )
            got += n
        return buf

    def read_into(self, received: _Received, count: int | None = None) -> None:
        """``count`` more bytes into ``received`` (None: everything until the other side closes)."""
        end = None if count is None else received.size + count
        while end is None or received.size < end:
            n = self._recv_into(received.spare(None if end is None else end - received.size))
            if n == 0:
                if end is None:
                    return
                raise DeviceOfflineError(
                    "the connection closed mid-answer (device disconnected or offline?)", serial=self.serial
                )
            received.size += n

    def _recv_into(self, view: memoryview) -> int:
        try:
            return self.sock.recv_into(view)
        except TimeoutError:
            raise DeviceTimeoutError("no answer from the device in time", serial=self.serial) from None
        except OSError as err:
            raise DeviceOfflineError(f"connection to the adb server broke: {err}", serial=self.serial) from None


class AdbClient:
    """Client of one adb server.

    Args:
        host: Where the adb server runs (another host works with ``adb -a`` there).
        port: Its port; default ``$ANDROID_ADB_SERVER_PORT`` or 5037.
        timeout: Default timeout of one call, in seconds.
        start_server: Start a local server with ``adb start-server`` if none answers — only on
            the port adb itself would use (``$ANDROID_ADB_SERVER_PORT`` or 5037): a port given
            explicitly is where a server is expected, and nothing answering there is an error.
    """

    def __init__(
        self, host: str = "127.0.0.1", port: int | None = None, timeout: float = 10.0, start_server: bool = True
    ) -> None:
        self.host = host
        self.port = port or _server_port()
        self.timeout = timeout
        self.start_server = start_server and port is None and host in ("127.0.0.1", "localhost", "::1")
        self._server_checked = False

    def __repr__(self) -> str:
        return f"AdbClient({self.host}:{self.port})"

    # ------------------------------------------------------------------ plumbing

    def _open(self, serial: str | None, timeout: float | None) -> _Connection:
        limit = self.timeout if timeout is None else timeout
        try:
            sock = socket.create_connection((self.host, self.port), timeout=limit)
        except ConnectionRefusedError:
            if self.start_server and not self._server_checked:
                self._start_local_server()
                return self._open(serial, timeout)
            raise DeviceError(
                f"no adb server at {self.host}:{self.port}; start one with `adb -P {self.port} start-server` "
                "(or give the port of the server that knows your devices)",
                serial=serial,
            ) from None
        except TimeoutError:
            raise DeviceTimeoutError(f"adb server at {self.host}:{self.port} did not answer", serial=serial) from None
        except OSError as err:
            raise DeviceError(f"cannot reach the adb server at {self.host}:{self.port}: {err}", serial=serial) from None
        self._server_checked = True
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return _Connection(sock, serial)

    def _start_local_server(self) -> None:
        self._server_checked = True
        try:
            command = [adb_path(), "start-server"]
            subprocess.run(command, env=adb_env(self.port), capture_output=True, timeout=30, check=True)
        except (subprocess.SubprocessError, OSError) as err:
            raise DeviceError(f"could not start an adb server on port {self.port}: {err}") from None

    def host_query(self, request: str, timeout: float | None = None, reply: bool = True) -> str:
        """Run a ``host:`` service; return its length-prefixed reply ("" when it sends none)."""
        conn = self._open(None, timeout)
        try:
            conn.request(request)
            return conn.read_message() if reply else ""
        finally:
            conn.close()

    def _device(self, serial: str, service: str, timeout: float | None) -> _Connection:
        conn = self._open(serial, timeout)
        try:
            conn.request(f"host:transport:{serial}")
            conn.request(service)
        except BaseException:
            conn.close()
            raise
        return conn

    # ------------------------------------------------------------------ host services

    def version(self) -> int:
        """The adb server's protocol version (41 for adb 1.0.41)."""
        return int(self.host_query("host:version"), 16)

    def devices(self) -> list[DeviceEntry]:
        """Every device the server knows, in any state (``adb devices -l``)."""
        entries = []
        for line in self.host_query("host:devices-l").splitlines():
            parts = line.split()
            if len(parts) < 2:
                continue
            serial, rest = parts[0], parts[1:]
            state_words = []
            while rest and ":" not in rest[0]:
                state_words.append(rest.pop(0))
            props = dict(p.split(":", 1) for p in rest if ":" in p)
            entries.append(DeviceEntry(serial, " ".join(state_words), props))
        return entries

    def get_state(self, serial: str, timeout: float | None = None) -> str:
        """``device``, ``offline``, ``unauthorized``...; raises DeviceNotFoundError when unknown."""
        return self.host_query(f"host-serial:{serial}:get-state", timeout)

    def connect(self, address: str, timeout: float | None = None) -> str:
        """``adb connect HOST:PORT``; raises DeviceOfflineError when nothing answers there."""
        message = self.host_query(f"host:connect:{address}", timeout)
        if message.startswith(("connected", "already connected")):
            return message
        raise DeviceOfflineError(f"adb connect: {message}", serial=address)

    def disconnect(self, address: str, timeout: float | None = None) -> None:
        """``adb disconnect HOST:PORT`` (no error when it was not connected)."""
        with contextlib.suppress(DeviceError):
            self.host_query(f"host:disconnect:{address}", timeout)

    def announce_emulator(self, adb_port: int) -> None:
        """Ask the server to connect to an emulator's adb port on this host (``host:emulator:PORT``)."""
        self.host_query(f"host:emulator:{adb_port}", reply=False)

    # ------------------------------------------------------------------ device services

    def shell(self, serial: str, command: str, timeout: float | None = None) -> CommandResult:
        """Run ``command`` with shell protocol v2: separate stdout/stderr and the exit code."""
        out, err, code = self.shell_view(serial, command, timeout=timeout)
        return CommandResult(bytes(out), err, code)

    def shell_view(
        self, serial: str, command: str, *, size_hint: int = 0, timeout: float | None = None
    ) -> tuple[memoryview, bytes, int]:
        """:meth:`shell` with stdout read straight into one buffer (as :meth:`exec_out_view` reads).

        Returns:
            A read-only view of stdout, stderr, and the exit code.
        """
        conn = self._device(serial, f"shell,v2,raw:{command}", timeout)
        try:
            out, err = _Received(size_hint), bytearray()
            while True:
                header = conn.read_exact(5)
                kind, length = header[0], struct.unpack_from("<I", header, 1)[0]
                if kind == _STDOUT:
                    conn.read_into(out, length)
                    continue
                data = conn.read_exact(length)
                if kind == _STDERR:
                    err += data
                elif kind == _EXIT:
                    return out.view(), bytes(err), data[0] if data else 0
        finally:
            conn.close()

    def exec_out(self, serial: str, command: str, timeout: float | None = None) -> bytearray:
        """Raw output of ``command`` (``adb exec-out``): no shell framing, no pty."""
        return bytearray(self.exec_out_view(serial, command, timeout=timeout))

    def exec_out_view(
        self, serial: str, command: str, *, size_hint: int = 0, timeout: float | None = None
    ) -> memoryview:
        """:meth:`exec_out` read straight into one buffer: a read-only view, no chunk copied.

        Args:
            serial: The device.
            command: The command line.
            size_hint: How big the answer is likely to be (the last screenshot's size): a
                buffer of that size is read into, and grown (copied) only when it is too small.
            timeout: Seconds to wait for the answer (default the client's).
        """
        conn = self._device(serial, f"exec:{command}", timeout)
        try:
            received = _Received(size_hint)
            conn.read_into(received)
            return received.view()
        finally:
            conn.close()

    def pull(self, serial: str, remote: str, timeout: float | None = None) -> bytes:
        """Contents of a device file (``sync:`` RECV)."""
        conn = self._device(serial, "sync:", timeout)
        try:
            path = remote.encode()
            conn.send(b"RECV" + struct.pack("<I", len(path)) + path)
            out = bytearray()
            while True:
                kind, length = conn.read_exact(4), struct.unpack("<I", conn.read_exact(4))[0]
                if kind == b"DATA":
                    out += conn.read_exact(length)
                elif kind == b"DONE":
                    break
                elif kind == b"FAIL":
                    raise DeviceError(f"adb pull {remote}: {conn.read_exact(length).decode()}", serial=serial)
                else:
                    raise DeviceError(f"adb pull {remote}: unexpected sync reply {kind!r}", serial=serial)
            conn.send(b"QUIT" + struct.pack("<I", 0))
            return bytes(out)
        finally:
            conn.close()

    def push(self, serial: str, data: bytes, remote: str, mode: int = 0o644, timeout: float | None = None) -> None:
        """Write ``data`` to a device file (``sync:`` SEND)."""
        conn = self._device(serial, "sync:", timeout)
        try:
            spec = f"{remote},{mode}".encode()
            conn.send(b"SEND" + struct.pack("<I", len(spec)) + spec)
            view = memoryview(data)
            for start in range(0, len(data), _SYNC_DATA_MAX):
                chunk = view[start : start + _SYNC_DATA_MAX]
                conn.send(b"DATA" + struct.pack("<I", len(chunk)) + chunk)
            conn.send(b"DONE" + struct.pack("<I", int(time.time())))
            kind, length = conn.read_exact(4), struct.unpack("<I", conn.read_exact(4))[0]
            if kind == b"FAIL":
                raise DeviceError(f"adb push {remote}: {conn.read_exact(length).decode()}", serial=serial)
            conn.send(b"QUIT" + struct.pack("<I", 0))
        finally:
            conn.close()
