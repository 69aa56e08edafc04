"""adbd for the virtual phone: the device side of adb's wire protocol, over TCP, in pure asyncio.

With an :class:`AdbdServer` listening, the real ``adb`` binary treats a
:class:`~androidrl.virtual.phone.VirtualPhone` as a device: ``adb connect 127.0.0.1:PORT``,
then ``adb shell``, ``exec-out``, ``push``, ``pull``, ``ls``, ``install``, ``reboot``...
(the wire format follows AOSP's ``adb/protocol.txt`` and ``SYNC.TXT``). Like an emulator with ``ro.adb.secure=0``
it skips authentication.

Transport: packets of a 24-byte little-endian header (command, arg0, arg1, length,
checksum, magic) and a payload; the host opens streams with OPEN, each side sends WRTE
packets and waits for the peer's OKAY before the next one, and CLSE ends a stream.

Services: ``shell:`` and ``shell,v2,...:`` (shell protocol framing; an empty command is an
interactive shell fed from stdin), ``exec:``, ``sync:`` (stat, list, pull, push),
``abb_exec:`` (``adb install``), ``reboot:``, ``root:`` and ``unroot:``.

Shell commands run in worker threads; a stream closed by the host (the client went away)
sets the command's cancel event. While the phone is offline (rebooting or powered off)
the server closes its listening socket and every connection, as a rebooting device drops
off the network, and listens again on the same port once the phone is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import logging
import posixpath
import queue
import re
import shlex
import signal
import socket
import struct
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar

import numpy as np

from androidrl.virtual.adb_auth import AUTH_RSAPUBLICKEY, AUTH_SIGNATURE, AUTH_TOKEN, Authenticator, PublicKey
from androidrl.virtual.phone import PhoneOfflineError, VirtualPhone
from androidrl.virtual.shell.interpreter import Shell, ShellResult
from androidrl.virtual.shell.stdin import Stdin
from androidrl.virtual.system.fs import FileStat

logger = logging.getLogger(__name__)

A_CNXN = 0x4E584E43
A_AUTH = 0x48545541
A_OPEN = 0x4E45504F
A_OKAY = 0x59414B4F
A_CLSE = 0x45534C43
A_WRTE = 0x45545257
A_VERSION_MIN = 0x01000000  # the oldest protocol version (payload checksums required)
A_VERSION_SKIP_CHECKSUM = 0x01000001  # from this version on, checksums may be 0
A_VERSION = 0x01000001  # ours; a connection speaks min(host's, ours)
MAX_PAYLOAD = 1024 * 1024  # adb 29's own maximum; bigger packets make the host drop the device
_JOIN_BELOW = 256 * 1024  # payload parts smaller than this are joined into one write (64 KB pull chunks too)
FEATURES = ("shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir", "abb_exec")

SHELL_STDIN, SHELL_STDOUT, SHELL_STDERR, SHELL_EXIT, SHELL_CLOSE_STDIN = range(5)

SYNC_DATA_MAX = 64 * 1024
SYNC_PATH_MAX = 1024

POWER_POLL_SECONDS = 0.02  # how often the server checks whether the phone went off or came back
ANNOUNCE_TIMEOUT = 2.0
MAX_SHELLS = 1024  # commands one server runs at once (a thread each: sleepers never starve the others)
LOOPBACK = ("127.0.0.1", "localhost", "::1")

_HEADER = struct.Struct("<6I")
_SHELL_HEADER = struct.Struct("<BI")
_SYNC_HEADER = struct.Struct("<4sI")
_STAT_V1 = struct.Struct("<4sIII")  # id, mode, size, mtime
_STAT_V2 = struct.Struct("<4sIQQIIIIQqqq")  # id, error, dev, ino, mode, nlink, uid, gid, size, a/m/ctime
_DENT_V1 = struct.Struct("<4sIIII")  # id, mode, size, mtime, name length
_DENT_V2 = struct.Struct("<4sIQQIIIIQqqqI")  # stat v2 fields, name length
_BANNER_UNSAFE = re.compile(r"[:;=,\x00-\x1f]")
_EXIT_LINE = re.compile(rb"\s*exit(?:\s+(\d+))?\s*;?\s*")

_T = TypeVar("_T")


class _StreamClosed(Exception):
    """The host closed the stream, or the connection went away."""


class _SyncFailure(Exception):
    """A sync request failed; the message goes to the host in a FAIL reply."""


# ---------------------------------------------------------------------------- transport


class _Stream:
    """One OPEN'd service: flow-controlled writes, and the host's data as it arrives.

    Each host WRTE is acknowledged when the service takes it, so a slow service holds the
    host back rather than piling data up.
    """

    def __init__(self, conn: _Connection, local_id: int, remote_id: int) -> None:
        self.conn = conn
        self.local_id = local_id
        self.remote_id = remote_id
        self.cancel = threading.Event()  # set when the host goes away: stops running commands
        self.closed = False
        self.closed_by_us = False  # our CLSE went out
        self.task: asyncio.Task[None] | None = None
        self._inbox: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._buffer = bytearray()
        self._writable = asyncio.Event()
        self._writable.set()

    # -- events from the host

    def on_data(self, data: bytes) -> None:
        self._inbox.put_nowait(data)

    def on_okay(self) -> None:
        self._writable.set()

    def on_close(self) -> None:
        """The host closed the stream or the connection dropped: stop the service."""
        self.closed = True
        self.cancel.set()
        self._inbox.put_nowait(None)
        self._writable.set()
        if self.task is not None:
            self.task.cancel()

    # -- used by services

    async def read(self) -> bytes | None:
        """The host's next data (buffered bytes first), or None once the stream is closed."""
        if self._buffer:
            data = bytes(self._buffer)
            self._buffer.clear()
            return data
        return await self._take()

    async def read_exactly(self, size: int) -> bytes:
        """Exactly ``size`` bytes of the host's data.

        Raises:
            _StreamClosed: The stream ended first.
        """
        while len(self._buffer) < size:
            data = await self._take()
            if data is None:
                raise _StreamClosed
            self._buffer += data
        chunk = bytes(self._buffer[:size])
        del self._buffer[:size]
        return chunk

    async def _take(self) -> bytes | None:
        """The next WRTE's data, acknowledged so the host may send another; None at the end."""
        data = await self._inbox.get()
        if data is None:
            self._inbox.put_nowait(None)  # stay at the end for later reads
            return None
        self.conn.send(A_OKAY, self.local_id, self.remote_id)
        return data

    async def write(self, *parts: bytes | memoryview) -> None:
        """Send ``parts``, back to back, in WRTE packets, each after the host acknowledged the previous one.

        The parts are never joined into one buffer: a packet takes slices of them (a 10 MB
        screenshot and the few bytes framing it go out without a copy).

        Raises:
            _StreamClosed: The stream or connection closed.
        """
        step = self.conn.max_payload
        packet: list[memoryview] = []
        room = step
        for part in parts:
            view = memoryview(part).cast("B")
            while view:
                packet.append(view[:room])
                taken = len(packet[-1])
                room, view = room - taken, view[taken:]
                if not room:
                    await self._send_packet(packet)
                    packet, room = [], step
        if packet:
            await self._send_packet(packet)

    async def _send_packet(self, payload: list[memoryview]) -> None:
        await self.wait_writable()
        self._writable.clear()
        await self.conn.send_and_drain(A_WRTE, self.local_id, self.remote_id, *payload)

    async def wait_writable(self) -> None:
        """Wait until the host acknowledged our last WRTE.

        Raises:
            _StreamClosed: The stream or connection closed.
        """
        await self._writable.wait()
        if self.closed:
            raise _StreamClosed

    def close(self) -> None:
        """End the stream from the device side (no-op if it is already closed)."""
        if not self.closed:
            self.closed = True
            self.cancel.set()
        if not self.closed_by_us:
            self.closed_by_us = True
            self.conn.send(A_CLSE, self.local_id, self.remote_id)
            self.conn.forget(self)


Service = Callable[[_Stream], Awaitable[None]]


class _Connection:
    """One TCP connection from an adb server: the handshake, then streams keyed by our id."""

    def __init__(self, server: AdbdServer, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.server = server
        self.max_payload = MAX_PAYLOAD
        self._reader = reader
        self._writer = writer
        self._streams: dict[int, _Stream] = {}
        self._next_id = 1
        self._connected = False
        self._closed = False
        self._auth = Authenticator(server.auth_keys) if server.auth_keys else None
        self._host_max_payload = MAX_PAYLOAD
        self.label = "host"  # the transport's name in `adb reverse --list`
        # Until the host's CNXN says otherwise, the oldest version: checksums on (as AOSP's transport starts)
        self.version = A_VERSION_MIN

    async def run(self) -> None:
        """Read and dispatch packets until the connection ends."""
        try:
            while True:
                command, arg0, arg1, length, _checksum, magic = _HEADER.unpack(await self._reader.readexactly(24))
                if magic != command ^ 0xFFFFFFFF:
                    raise ValueError(f"bad packet magic {magic:#010x} for command {command:#010x}")
                if length > MAX_PAYLOAD:
                    raise ValueError(f"packet payload of {length} bytes exceeds {MAX_PAYLOAD}")
                data = await self._reader.readexactly(length) if length else b""
                self._dispatch(command, arg0, arg1, data)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the host closed the connection, or we aborted it
        except ValueError as exc:
            logger.warning("adbd %s: dropping connection: %s", self.server.serial, exc)
        finally:
            self.abort()

    def abort(self) -> None:
        """Drop the connection at once and stop every stream's service."""
        if self._closed:
            return
        self._closed = True
        self._close_streams()
        self._writer.transport.abort()

    def _close_streams(self) -> None:
        for stream in list(self._streams.values()):
            stream.on_close()
        self._streams.clear()

    def send(self, command: int, arg0: int, arg1: int, *payload: bytes | memoryview) -> None:
        """Queue one packet whose payload is the ``payload`` parts back to back (dropped once the connection is closed).

        Small parts go to the socket together with the header, in one write; big ones as
        they are, never copied into one buffer.
        """
        if self._closed:
            return
        length = sum(len(part) for part in payload)
        checksum = 0
        if self.version < A_VERSION_SKIP_CHECKSUM:
            checksum = sum(_checksum(part) for part in payload if part) & 0xFFFFFFFF
        small = [_HEADER.pack(command, arg0, arg1, length, checksum, command ^ 0xFFFFFFFF)]
        for part in payload:
            if len(part) < _JOIN_BELOW:
                small.append(part)
                continue
            self._writer.write(b"".join(small))
            small = []
            self._writer.write(part)
        if small:
            self._writer.write(b"".join(small))

    async def send_and_drain(self, command: int, arg0: int, arg1: int, *payload: bytes | memoryview) -> None:
        """Send one packet and wait until the socket takes it (back-pressure for big outputs)."""
        if self._closed:
            raise _StreamClosed
        self.send(command, arg0, arg1, *payload)
        try:
            await self._writer.drain()
        except ConnectionError as exc:
            raise _StreamClosed from exc

    def forget(self, stream: _Stream) -> None:
        self._streams.pop(stream.local_id, None)

    def _dispatch(self, command: int, arg0: int, arg1: int, data: bytes) -> None:
        if not self.server.phone.online:  # went off since the last power poll: answer nothing more
            self.server.drop_connections()
            return
        if command == A_CNXN:
            self._on_connect(arg0, arg1, data)
        elif command == A_AUTH and self._auth is not None and not self._connected:
            self._on_auth(arg0, data)
        elif not self._connected:
            logger.debug("adbd %s: ignoring packet %#010x before CNXN", self.server.serial, command)
        elif command == A_OPEN:
            self._on_open(arg0, data)
        elif command in (A_OKAY, A_WRTE, A_CLSE):
            stream = self._streams.get(arg1)
            if stream is None:
                return  # e.g. the host's CLSE answering ours
            if command == A_OKAY:
                stream.on_okay()
            elif command == A_WRTE:
                stream.on_data(data)
            else:  # the host closed a live stream: stop its service and answer with our CLSE, as adbd does
                self.forget(stream)
                stream.on_close()
                if not stream.closed_by_us:
                    stream.closed_by_us = True
                    self.send(A_CLSE, stream.local_id, stream.remote_id)
        else:
            logger.debug("adbd %s: ignoring packet %#010x", self.server.serial, command)

    def _on_connect(self, host_version: int, host_max_payload: int, banner: bytes) -> None:
        logger.debug("adbd %s: host connected: %r", self.server.serial, banner[:200])
        self._close_streams()  # a new CNXN restarts the session
        self._connected = False
        self._host_max_payload = host_max_payload
        self.version = max(A_VERSION_MIN, min(host_version, A_VERSION))
        if self._auth is not None:  # a secure phone: prove who you are first
            self.send(A_AUTH, AUTH_TOKEN, 0, self._auth.new_token())
            return
        self._accept()

    def _accept(self) -> None:
        self.max_payload = max(256, min(self._host_max_payload, MAX_PAYLOAD))  # 0 from a broken host would stall
        self._connected = True
        self.send(A_CNXN, A_VERSION, self.max_payload, self.server.banner().encode())

    def _on_auth(self, kind: int, data: bytes) -> None:
        if kind == AUTH_SIGNATURE:
            if self._auth.accepts_signature(data):
                self._accept()
            else:  # the host tries its next key, then offers its public key
                self.send(A_AUTH, AUTH_TOKEN, 0, self._auth.new_token())
        elif kind == AUTH_RSAPUBLICKEY:
            if self._auth.accepts_key(data):
                self._accept()
            else:  # no user here to say yes: the host stays "unauthorized"
                logger.warning("adbd %s: refused a host key not in the trusted list", self.server.serial)

    def _on_open(self, remote_id: int, data: bytes) -> None:
        name = (data[:-1] if data.endswith(b"\0") else data).decode("utf-8", "replace")
        service = _route(self.server, name)
        if service is None:
            logger.debug("adbd %s: refusing service %r", self.server.serial, name)
            self.send(A_CLSE, 0, remote_id)
            return
        stream = _Stream(self, self._next_id, remote_id)
        self._next_id += 1
        self._streams[stream.local_id] = stream
        self.send(A_OKAY, stream.local_id, remote_id)
        stream.task = asyncio.create_task(self._run_service(stream, service, name))

    async def _run_service(self, stream: _Stream, service: Service, name: str) -> None:
        try:
            await service(stream)
            await stream.wait_writable()  # the host has taken the last WRTE before our CLSE
        except (_StreamClosed, PhoneOfflineError):
            pass
        except Exception:
            logger.exception("adbd service %r failed", name)
        finally:
            stream.close()
            if not self.server.phone.online:  # e.g. `shell reboot`: drop off now, not at the next poll
                self.server.drop_connections()


# ---------------------------------------------------------------------------- services


def _route(server: AdbdServer, name: str) -> Service | None:
    """The service that answers an OPEN of ``name``, or None to refuse it."""
    kind, sep, arg = name.partition(":")
    if not sep:
        return None
    base, *options = kind.split(",")
    if base == "shell":
        return functools.partial(_shell_service, server, options, arg)
    handlers: dict[str, Callable[[AdbdServer, _Stream, str], Awaitable[None]]] = {
        "exec": _exec_service,
        "sync": _sync_service,
        "abb_exec": _abb_exec_service,
        "reboot": _reboot_service,
        "root": _root_service,
        "unroot": _unroot_service,
        "reverse": _reverse_service,
    }
    handler = handlers.get(kind)
    return functools.partial(handler, server, arg=arg) if handler else None


async def _exec_service(server: AdbdServer, stream: _Stream, arg: str) -> None:
    """``exec:CMD`` (``adb exec-out``, ``exec-in``): raw output as produced, stdin until the host closes.

    Like adbd's raw subprocess: stdout and stderr share the stream, and the host's data is the
    command's stdin (``adb exec-in 'cat > f' < file`` sends it, then closes the stream).
    """
    stdin = Stdin()
    feeder = asyncio.create_task(_feed(stdin, _raw_input(stream)))
    try:
        await _run_streaming(server, arg, stdin, stream.cancel, lambda chunks: stream.write(*(d for _, d in chunks)))
    finally:
        feeder.cancel()


async def _raw_input(stream: _Stream) -> AsyncIterator[bytes]:
    while (data := await stream.read()) is not None:
        yield data


async def _feed(stdin: Stdin, source: AsyncIterator[bytes]) -> None:
    """The client's input into ``stdin``, closing it when the client does."""
    try:
        async for data in source:
            stdin.feed(data)
    except _StreamClosed:
        pass
    finally:
        stdin.close()


async def _run_streaming(
    server: AdbdServer,
    command: str,
    stdin: bytes | Stdin,
    cancel: threading.Event,
    emit: Callable[[list[tuple[int, bytes]]], Awaitable[None]],
    session: Shell | None = None,
) -> int:
    """Run ``command``, handing its output to ``emit(chunks)`` as it is produced, in order; its exit status.

    ``chunks`` are ``(fd, data)`` pairs: every chunk written since the last call, so output
    written in pieces (``screencap``'s header and pixels) goes out in as few packets as fit.
    """
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[int, bytes] | None] = asyncio.Queue()

    def sink(fd: int, data: bytes) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, (fd, data))

    job = asyncio.ensure_future(server.run_shell(command, stdin, cancel, sink=sink, session=session))
    job.add_done_callback(lambda _: queue.put_nowait(None))  # after every chunk: those were queued first
    try:
        done = False
        while not done:
            chunks = [await queue.get()]
            while not queue.empty():
                chunks.append(queue.get_nowait())
            done = chunks[-1] is None  # the end comes last
            chunks = [chunk for chunk in chunks if chunk is not None]
            if chunks:
                await emit(chunks)
    except BaseException:
        cancel.set()  # the client went away: stop the command too
        raise
    return (await job).exit_code


class _ShellChannel:
    """Output to and input from an ``adb shell`` client, with or without shell protocol v2."""

    def __init__(self, stream: _Stream, framed: bool, pty: bool) -> None:
        self.stream = stream
        self.framed = framed
        self.pty = pty

    async def emit(self, stdout: bytes, stderr: bytes = b"") -> None:
        await self.emit_chunks([(1, stdout), (2, stderr)])

    async def emit_chunks(self, chunks: list[tuple[int, bytes]]) -> None:
        """Output in the order written: ``(fd, data)`` pairs (1 stdout, 2 stderr), in as few packets as fit."""
        if self.pty:  # a terminal turns \n into \r\n and has a single output
            await self.stream.write(b"".join(data for _, data in chunks).replace(b"\n", b"\r\n"))
        elif not self.framed:
            await self.stream.write(*(data for _, data in chunks))
        else:  # each chunk a shell packet, its header and data written as they are: big output is not copied
            kinds = {1: SHELL_STDOUT, 2: SHELL_STDERR}
            await self.stream.write(
                *(part for fd, data in chunks if data for part in (_SHELL_HEADER.pack(kinds[fd], len(data)), data))
            )

    async def exit(self, code: int) -> None:
        if self.framed:
            await self.stream.write(_SHELL_HEADER.pack(SHELL_EXIT, 1) + bytes([code & 0xFF]))

    async def stdin(self) -> AsyncIterator[bytes]:
        """The client's stdin, until it closes it (or the stream closes)."""
        if not self.framed:
            while (data := await self.stream.read()) is not None:
                yield data
            return
        while True:
            kind, length = _SHELL_HEADER.unpack(await self.stream.read_exactly(_SHELL_HEADER.size))
            data = await self.stream.read_exactly(length)
            if kind == SHELL_CLOSE_STDIN:
                return
            if kind == SHELL_STDIN:
                yield data
            # window-size packets change nothing without a real terminal


class _LineReader:
    """Splits a shell's stdin into command lines; with a pty, edits them as a terminal does."""

    def __init__(self, pty: bool) -> None:
        self.pty = pty
        self.line = bytearray()

    def feed(self, data: bytes) -> tuple[bytes, list[bytes | None]]:
        """Take input; return what the terminal echoes and the finished lines (None = Ctrl-D)."""
        if not self.pty:
            self.line += data
            *lines, rest = self.line.split(b"\n")
            self.line = bytearray(rest)
            return b"", [bytes(line) for line in lines]
        echo, lines = bytearray(), []
        for byte in data:
            if byte in b"\r\n":
                echo += b"\n"
                lines.append(bytes(self.line))
                self.line.clear()
            elif byte in b"\x7f\x08":
                if self.line:
                    del self.line[-1]
                    echo += b"\b \b"
            elif byte == 0x03:  # Ctrl-C drops the line
                echo += b"^C\n"
                self.line.clear()
                lines.append(b"")
            elif byte == 0x04:  # Ctrl-D on an empty line ends the session
                if not self.line:
                    lines.append(None)
            else:
                self.line.append(byte)
                echo.append(byte)
        return bytes(echo), lines


async def _shell_service(server: AdbdServer, options: list[str], command: str, stream: _Stream) -> None:
    """``shell[,v2][,raw|,pty][,TERM=...]:CMD``; an empty command is an interactive shell."""
    pty = "pty" in options or (not command and "raw" not in options)
    channel = _ShellChannel(stream, framed="v2" in options, pty=pty)
    if command:
        # stdin is forwarded as it comes; only commands that read it wait for it to close
        # (clients such as adbutils never close it, and their commands do not read it)
        stdin = Stdin()
        feeder = asyncio.create_task(_feed(stdin, channel.stdin()))
        try:
            code = await _run_streaming(server, command, stdin, stream.cancel, channel.emit_chunks)
        finally:
            feeder.cancel()
        await channel.exit(code)
    else:
        await channel.exit(await _interactive_shell(server, channel))


async def _interactive_shell(server: AdbdServer, channel: _ShellChannel) -> int:
    """Run stdin line by line as it arrives; return the exit status of the session.

    The lines run in one shell, as in a terminal (``cd`` and variables carry over); a line
    that is just ``exit [N]`` ends the session, as does the end of stdin.
    """
    device = _banner_value(server.phone.getprop("ro.product.device"))
    reader, status = _LineReader(channel.pty), 0
    session = server.phone.open_shell(channel.stream.cancel)

    def prompt() -> bytes:
        if not channel.pty:
            return b""
        return f"{device}:{session.cwd} $ ".encode()  # mksh's PS1 on Android: ${HOSTNAME}:${PWD} $

    async def run(line: bytes) -> int:
        command = line.decode("utf-8", "replace")
        return await _run_streaming(server, command, b"", channel.stream.cancel, channel.emit_chunks, session)

    await channel.emit(prompt())
    async for data in channel.stdin():
        echo, lines = reader.feed(data)
        await channel.emit(echo)
        for line in lines:
            if line is None:
                return status
            exit_request = _EXIT_LINE.fullmatch(line)
            if exit_request:
                return int(exit_request[1]) & 0xFF if exit_request[1] else status
            if line.strip():
                status = await run(line)
            await channel.emit(prompt())
    if reader.line.strip():  # a last line without a newline still runs, as in sh
        status = await run(bytes(reader.line))
    return status


async def _abb_exec_service(server: AdbdServer, stream: _Stream, arg: str) -> None:
    r"""``abb_exec:SERVICE\0ARG...``: a binder shell command (``cmd SERVICE ARG...``).

    With ``-S SIZE`` (``adb install``), that many bytes of the stream are the command's stdin.
    """
    args = arg.split("\0")
    stdin = b""
    sizes = [value for flag, value in zip(args, args[1:]) if flag == "-S"]
    if sizes:
        size = sizes[-1]  # adb puts its own -S last, to override the user's
        if not size.isdigit():
            await stream.write(f"Error: invalid size {size!r} after -S\n".encode())
            return
        stdin = await stream.read_exactly(int(size))
    command = shlex.join(["cmd", *args])
    result = await server.run_shell(command, stdin=stdin, cancel=stream.cancel)
    await stream.write(result.stdout + result.stderr)


async def _reboot_service(server: AdbdServer, stream: _Stream, arg: str) -> None:
    """``reboot:[TARGET]``: every target (bootloader, recovery...) simply reboots the phone."""
    server.phone.reboot()
    server.drop_connections()


async def _root_service(server: AdbdServer, stream: _Stream, arg: str) -> None:
    """``root:``: as adbd, by build type: refused on ``user`` builds, else adbd restarts as root."""
    await _switch_root(server, stream, True)


async def _unroot_service(server: AdbdServer, stream: _Stream, arg: str) -> None:
    """``unroot:``: adbd restarts as the shell user."""
    await _switch_root(server, stream, False)


async def _switch_root(server: AdbdServer, stream: _Stream, root: bool) -> None:
    phone = server.phone
    if root and phone.getprop("ro.build.type") == "user":
        await stream.write(b"adbd cannot run as root in production builds\n")
        return
    if phone.root == root:
        await stream.write(b"adbd is already running as root\n" if root else b"adbd not running as root\n")
        return
    await stream.write(b"restarting adbd as root\n" if root else b"restarting adbd as non root\n")
    await stream.wait_writable()
    phone.root = root
    # adbd restarts: every connection drops, and the host reconnects
    asyncio.get_running_loop().call_later(0.05, server.drop_connections)


def _protocol_string(text: str) -> bytes:
    data = text.encode()
    return b"%04x" % len(data) + data


async def _reverse_service(server: AdbdServer, stream: _Stream, arg: str) -> None:
    """``reverse:...`` (``adb reverse``): adbd's ``handle_forward_request`` on the device side.

    Listeners are kept per host connection, listed as ``host-N LOCAL REMOTE``, and go away with
    the connection, as adbd's do. Nothing on the virtual phone opens sockets, so no connection
    ever arrives at one; setting, listing and removing them answer as a device does.
    """
    try:
        reply = _reverse_request(server, stream.conn, arg)
    except _ReverseFailure as failure:
        reply = b"FAIL" + _protocol_string(str(failure))
    await stream.write(reply)


class _ReverseFailure(Exception):
    """An ``adb reverse`` request adbd refuses: answered ``FAIL`` and the message."""


def _reverse_request(server: AdbdServer, conn: _Connection, arg: str) -> bytes:
    """Carry out one reverse request; its reply, or _ReverseFailure with adbd's message."""
    if arg == "list-forward":
        return _protocol_string(
            "".join(f"{c.label} {local} {remote}\n" for local, (c, remote) in server.reverse.items())
        )
    if arg == "killforward-all":
        server.reverse = {local: entry for local, entry in server.reverse.items() if entry[0] is not conn}
        return b"OKAY"
    kill, rest = arg.startswith("killforward:"), arg.partition(":")[2]
    norebind = not kill and rest.startswith("norebind:")
    rest = rest.removeprefix("norebind:") if norebind else rest
    pieces = rest.split(";")
    if kill:
        if len(pieces) != 1 or not pieces[0]:
            raise _ReverseFailure(f"bad killforward: {rest}")
        if server.reverse.pop(pieces[0], None) is None:
            raise _ReverseFailure(f"listener '{rest}' not found")
        return b"OKAY"
    if not arg.startswith("forward:") or len(pieces) != 2 or not all(pieces) or pieces[1][0] == "*":
        raise _ReverseFailure(f"bad forward: {rest}")
    local, remote = pieces
    kind, _, port = local.partition(":")
    if kind not in ("tcp", "localabstract", "localreserved", "localfilesystem"):
        raise _ReverseFailure(f"cannot bind listener: unknown socket specification '{local}'")
    if kind == "tcp" and (not port.isdigit() or int(port) > 65535):
        raise _ReverseFailure(f"cannot bind listener: invalid port '{port}'")
    if norebind and local in server.reverse:
        raise _ReverseFailure("cannot rebind existing socket")
    resolved = b""
    if local == "tcp:0":  # adbd binds a free port and says which
        port = next(str(p) for p in range(38000, 65536) if f"tcp:{p}" not in server.reverse)
        local, resolved = f"tcp:{port}", _protocol_string(port)
    server.reverse[local] = (conn, remote)
    return b"OKAY" + resolved


# ---------------------------------------------------------------------------- sync


async def _sync_service(server: AdbdServer, stream: _Stream, arg: str) -> None:
    """``sync:``: file transfer requests until QUIT (``adb push``, ``pull``, ``ls``)."""
    session = _SyncSession(server.phone, stream)
    try:
        await session.run()
    except _SyncFailure as exc:  # like adbd: report the failure, then end the session
        message = str(exc).encode()
        await stream.write(_SYNC_HEADER.pack(b"FAIL", len(message)) + message)


class _SyncSession:
    """One ``sync:`` stream: each request is a 4-byte id, a u32 length and a path."""

    def __init__(self, phone: VirtualPhone, stream: _Stream) -> None:
        self.phone = phone
        self.stream = stream
        self.handlers: dict[bytes, Callable[[str], Awaitable[None]]] = {
            b"STAT": self._stat_v1,
            b"STA2": functools.partial(self._stat_v2, b"STA2"),
            b"LST2": functools.partial(self._stat_v2, b"LST2"),
            b"LIST": self._list_v1,
            b"LIS2": self._list_v2,
            b"RECV": self._recv,
            b"SEND": self._send,
        }

    async def run(self) -> None:
        while True:
            request, length = _SYNC_HEADER.unpack(await self.stream.read_exactly(_SYNC_HEADER.size))
            if request == b"QUIT":
                return
            handler = self.handlers.get(request)
            if handler is None:
                raise _SyncFailure(f"unknown sync request {request!r}")
            if length > SYNC_PATH_MAX:
                raise _SyncFailure(f"path too long: {length} bytes, at most {SYNC_PATH_MAX}")
            path = (await self.stream.read_exactly(length)).decode("utf-8", "replace")
            await handler(path)

    def _lstat(self, path: str) -> tuple[int, FileStat | None]:
        """(errno, stat) of ``path``: (0, stat), or (code, None) when it cannot be read."""
        try:
            with self.phone.lock:
                return 0, self.phone.fs.stat(self.phone.fs.normalize(path))
        except OSError as exc:
            return exc.errno or errno.EIO, None

    async def _stat_v1(self, path: str) -> None:
        _, st = self._lstat(path)
        fields = (st.mode, st.size & 0xFFFFFFFF, st.mtime) if st else (0, 0, 0)  # all zero: missing
        await self.stream.write(_STAT_V1.pack(b"STAT", *fields))

    async def _stat_v2(self, reply: bytes, path: str) -> None:
        error, st = self._lstat(path)
        await self.stream.write(_STAT_V2.pack(reply, error, *_stat_v2_fields(st)))

    def _entries(self, path: str) -> list[tuple[str, FileStat]]:
        """A directory's entries with their stats, ``.`` and ``..`` included as readdir has them."""
        fs = self.phone.fs
        with self.phone.lock:
            directory = fs.normalize(path)
            try:
                names = fs.listdir(directory)
            except OSError:
                return []  # adbd ends the listing at once when opendir fails
            parent = posixpath.dirname(directory)
            entries = [(".", fs.stat(directory)), ("..", fs.stat(parent))]
            return entries + [(name, fs.stat(posixpath.join(directory, name))) for name in names]

    async def _list_v1(self, path: str) -> None:
        packets = []
        for name, st in self._entries(path):
            raw = name.encode()
            packets.append(_DENT_V1.pack(b"DENT", st.mode, st.size & 0xFFFFFFFF, st.mtime, len(raw)) + raw)
        packets.append(_DENT_V1.pack(b"DONE", 0, 0, 0, 0))  # DONE is padded to a whole entry
        await self.stream.write(b"".join(packets))

    async def _list_v2(self, path: str) -> None:
        packets = []
        for name, st in self._entries(path):
            raw = name.encode()
            packets.append(_DENT_V2.pack(b"DNT2", 0, *_stat_v2_fields(st), len(raw)) + raw)
        packets.append(_DENT_V2.pack(b"DONE", 0, *_stat_v2_fields(None), 0))
        await self.stream.write(b"".join(packets))

    async def _recv(self, path: str) -> None:
        try:
            with self.phone.lock:
                data = self.phone.fs.read(self.phone.fs.normalize(path))
        except OSError as exc:
            raise _SyncFailure(f"open failed: {exc.strerror}") from exc
        view = memoryview(data)
        packets = []
        for start in range(0, len(view), SYNC_DATA_MAX):
            chunk = view[start : start + SYNC_DATA_MAX]
            packets += [_SYNC_HEADER.pack(b"DATA", len(chunk)), chunk]
        packets.append(_SYNC_HEADER.pack(b"DONE", 0))
        await self.stream.write(*packets)

    async def _send(self, spec: str) -> None:
        path, comma, _mode = spec.rpartition(",")
        data = await self._receive_file()
        fs = self.phone.fs
        try:
            with self.phone.lock:
                target = fs.normalize(path if comma else spec)
                fs.mkdir(posixpath.dirname(target), parents=True)  # the fixed_push_mkdir feature
                fs.write(target, data)
        except OSError as exc:
            raise _SyncFailure(f"couldn't create file: {exc.strerror}") from exc
        await self.stream.write(_SYNC_HEADER.pack(b"OKAY", 0))

    async def _receive_file(self) -> bytes:
        """The DATA chunks of a SEND, up to its DONE (whose argument, the mtime, is ignored)."""
        chunks = []
        while True:
            request, length = _SYNC_HEADER.unpack(await self.stream.read_exactly(_SYNC_HEADER.size))
            if request == b"DONE":
                return b"".join(chunks)
            if request != b"DATA" or length > SYNC_DATA_MAX:
                raise _SyncFailure(f"invalid data message {request!r} of {length} bytes")
            chunks.append(await self.stream.read_exactly(length))


def _stat_v2_fields(st: FileStat | None) -> tuple[int, ...]:
    """dev, ino, mode, nlink, uid, gid, size, atime, mtime, ctime (all 0 when missing)."""
    if st is None:
        return (0,) * 10
    return 0, 0, st.mode, 1, 0, 0, st.size, st.mtime, st.mtime, st.mtime


def _checksum(data: bytes | memoryview) -> int:
    """The sum of the payload's bytes, as peers older than A_VERSION_SKIP_CHECKSUM check it."""
    return int(np.frombuffer(data, dtype=np.uint8).sum(dtype=np.uint64)) & 0xFFFFFFFF


def _settle(future: asyncio.Future, result: Any, exc: BaseException | None) -> None:
    if future.done():  # (the awaiting coroutine was cancelled)
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)


class _ShellThreads:
    """Daemon threads for shell commands: an idle one takes the next command, a new one starts when none is idle.

    Not a fixed pool (forty sleepers never hold up a forty-first command), and no thread start per
    command either: starting one costs more than a short command such as ``input tap`` itself.
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._idle = 0
        self._lock = threading.Lock()

    def run(self, job: Callable[[], None]) -> None:
        """Run ``job`` in an idle thread, or in a new one."""
        with self._lock:
            start = self._idle == 0
            if not start:
                self._idle -= 1  # that idle thread is spoken for
        self._jobs.put(job)
        if start:
            threading.Thread(target=self._serve, name=self._name, daemon=True).start()

    def _serve(self) -> None:
        while True:
            self._jobs.get()()
            with self._lock:
                self._idle += 1


def _banner_value(value: str) -> str:
    """``value`` without the characters that separate the fields of a CNXN banner."""
    return _BANNER_UNSAFE.sub("_", value)[:200]


# ---------------------------------------------------------------------------- servers


class AdbdServer:
    """Serves one VirtualPhone on one TCP port.

    The server must be started and stopped on one running event loop (see
    :class:`AdbdThread` to run it in the background).

    Args:
        phone: The phone to serve.
        port: TCP port (0: a free one, see :attr:`port` once started).
        host: Address to listen on.
        announce_port: Port of an adb server to tell about this device with
            ``host:emulator:PORT`` at start and after each reboot, so it lists the phone as
            ``emulator-<PORT-1>``, as it lists a real emulator.
        auth_keys: Ask hosts for adb's RSA authentication and let in only these keys (as a
            phone with ``ro.adb.secure=1`` and these ``adb_keys``); None lets anyone in.
        allow_public: Allow listening beyond this machine (``host`` not a loopback address):
            without ``auth_keys`` anyone who reaches the port gets a shell.

    Raises:
        ValueError: A bad port, or a non-loopback ``host`` without ``allow_public``.

    Attributes:
        port: The port; the actual one once started.
        serial: ``host:port``, what ``adb connect`` takes and ``adb devices`` lists.
    """

    def __init__(
        self,
        phone: VirtualPhone,
        port: int = 0,
        host: str = "127.0.0.1",
        *,
        announce_port: int | None = None,
        auth_keys: list[PublicKey] | None = None,
        allow_public: bool = False,
    ) -> None:
        if not isinstance(phone, VirtualPhone):
            raise TypeError(f"AdbdServer serves a VirtualPhone, got {type(phone).__name__}")
        if not 0 <= port <= 65535:
            raise ValueError(f"port must be in 0..65535 (0: any free port), got {port}")
        if announce_port is not None and not 0 < announce_port <= 65535:
            raise ValueError(f"announce_port must be in 1..65535, got {announce_port}")
        if host not in LOOPBACK and not allow_public:
            raise ValueError(
                f"adbd would listen on {host}, beyond this machine, where anyone who reaches the port gets a shell; "
                "allow it explicitly (androidrl virtual --public) and add --auth"
            )
        self.phone = phone
        self.auth_keys = list(auth_keys or [])
        self.port = port
        self.host = host
        self.announce_port = announce_port
        self._listener: asyncio.Server | None = None
        self._connections: dict[_Connection, asyncio.Task[Any]] = {}
        self._power_watch: asyncio.Task[None] | None = None
        self._shells = threading.BoundedSemaphore(MAX_SHELLS)
        self._shell_threads = _ShellThreads("adbd-shell")
        self._listen_failed = False
        # `adb reverse` listeners on the phone: device socket spec -> (the host connection, host socket spec)
        self.reverse: dict[str, tuple[_Connection, str]] = {}

    @property
    def serial(self) -> str:
        """``host:port``: what ``adb connect`` takes and ``adb devices`` lists."""
        return f"{self.host}:{self.port}"

    def banner(self) -> str:
        """The device's CNXN banner: product properties and features."""
        props = "".join(
            f"{name}={_banner_value(self.phone.getprop(name))};"
            for name in ("ro.product.name", "ro.product.model", "ro.product.device")
        )
        return f"device::{props}features={','.join(FEATURES)}"

    async def start(self) -> None:
        """Listen on the port (listening when this returns) and announce the phone if asked.

        Raises:
            RuntimeError: The server is already running.
            OSError: The port cannot be bound.
        """
        if self._power_watch is not None:
            raise RuntimeError(f"adbd {self.serial} is already running")
        await self._listen()
        self._power_watch = asyncio.create_task(self._watch_power())
        if self.phone.online:
            await self._announce()

    async def stop(self) -> None:
        """Close the listening socket and every connection; cancel running commands."""
        if self._power_watch is not None:
            self._power_watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._power_watch
            self._power_watch = None
        tasks = list(self._connections.values())
        self.drop_connections()
        await asyncio.gather(*tasks, return_exceptions=True)

    def drop_connections(self) -> None:
        """Go off the network: close the listening socket and abort every connection.

        The server listens again once the phone is online.
        """
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        for conn in list(self._connections):
            conn.abort()

    async def run_shell(
        self,
        command: str,
        stdin: bytes | Stdin = b"",
        cancel: threading.Event | None = None,
        sink: Callable[[int, bytes], None] | None = None,
        session: Shell | None = None,
    ) -> ShellResult:
        """Run a command line on the phone in a thread of its own while it runs (commands may block, e.g. ``sleep``).

        With ``sink``, the output goes to it as produced (see :meth:`VirtualPhone.shell`).

        A thread each (idle ones are reused), not a fixed pool: forty clients sleeping never hold up a
        forty-first's ``echo``.

        Raises:
            PhoneOfflineError: The phone is rebooting or off.
            RuntimeError: More than ``MAX_SHELLS`` commands are running.
        """
        if not self._shells.acquire(blocking=False):
            raise RuntimeError(f"adbd {self.serial}: more than {MAX_SHELLS} commands running at once")
        loop = asyncio.get_running_loop()
        done: asyncio.Future[ShellResult] = loop.create_future()

        def work() -> None:
            try:
                outcome = (self.phone.shell(command, stdin, cancel, sink=sink, session=session), None)
            except BaseException as exc:  # noqa: BLE001 (handed to the awaiting coroutine)
                outcome = (None, exc)
            finally:
                self._shells.release()
            with contextlib.suppress(RuntimeError):  # the server stopped meanwhile: nobody awaits it
                loop.call_soon_threadsafe(_settle, done, *outcome)

        self._shell_threads.run(work)
        return await done

    async def _listen(self) -> None:
        self._listener = await asyncio.start_server(
            self._on_connection, self.host, self.port, reuse_address=True, limit=2 * MAX_PAYLOAD
        )
        self.port = self._listener.sockets[0].getsockname()[1]
        logger.info("adbd serving %s on %s", self.phone.getprop("ro.serialno"), self.serial)

    async def _watch_power(self) -> None:
        """Follow the phone's power: off the network while it is offline, back when it is online."""
        while True:
            await asyncio.sleep(POWER_POLL_SECONDS)
            online = self.phone.online
            if not online and self._listener is not None:
                logger.info("adbd %s: phone offline, closing connections", self.serial)
                self.drop_connections()
            elif online and self._listener is None:
                await self._relisten()

    async def _relisten(self) -> None:
        try:
            await self._listen()
        except OSError as exc:  # e.g. someone took the port meanwhile: keep trying
            if not self._listen_failed:
                logger.warning("adbd %s: cannot listen again, retrying: %s", self.serial, exc)
            self._listen_failed = True
            return
        self._listen_failed = False
        await self._announce()

    async def _announce(self) -> None:
        """Tell the adb server at ``announce_port`` about us, as an emulator does at boot."""
        if self.announce_port is None:
            return
        request = f"host:emulator:{self.port}".encode()
        try:
            _, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", self.announce_port), ANNOUNCE_TIMEOUT
            )
            writer.write(b"%04x%s" % (len(request), request))
            await writer.drain()
            writer.close()
            await writer.wait_closed()
        except (OSError, asyncio.TimeoutError) as exc:
            logger.warning("adbd %s: cannot announce to adb server port %d: %s", self.serial, self.announce_port, exc)

    async def _on_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.phone.online:
            writer.transport.abort()
            return
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # small packets go out at once
            writer.transport.set_write_buffer_limits(high=4 * MAX_PAYLOAD)  # a whole packet never waits
        conn = _Connection(self, reader, writer)
        conn.label = f"host-{sock.fileno() if sock is not None else len(self._connections)}"  # as adbd names it
        self._connections[conn] = asyncio.current_task()
        try:
            await conn.run()
        finally:
            del self._connections[conn]
            # adbd removes a transport's reverse listeners with the transport
            self.reverse = {local: (c, remote) for local, (c, remote) in self.reverse.items() if c is not conn}


class AdbdThread:
    """Runs AdbdServers on an asyncio loop in a daemon background thread (for tests and in-process use).

    Example:
        >>> with AdbdThread() as adbd:
        ...     server = adbd.serve(VirtualPhone(360, 800, 160))
        ...     # adb connect server.serial
    """

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._servers: list[Any] = []
        self._lock = threading.Lock()

    def serve(self, phone: VirtualPhone, port: int = 0, host: str = "127.0.0.1", **options: Any) -> AdbdServer:
        """Serve ``phone``; return once the server listens. Starts the thread if needed.

        Args:
            phone: The phone.
            port: TCP port (0: a free one).
            host: Address to listen on.
            **options: More :class:`AdbdServer` arguments (``announce_port``, ``auth_keys``).

        Raises:
            OSError: The port cannot be bound.
        """
        return self.run(AdbdServer(phone, port, host, **options))

    def run(self, server: _T) -> _T:
        """Start any server with async ``start()``/``stop()`` on this thread's loop (an emulator console...)."""
        self._call(server.start())
        with self._lock:
            self._servers.append(server)
        return server

    def stop_server(self, server: AdbdServer) -> None:
        """Stop one server, like killing its process: socket closed, connections dropped."""
        with self._lock:
            if server not in self._servers:
                return
            self._servers.remove(server)
        self._call(server.stop())

    def close(self) -> None:
        """Stop every server and the thread (idempotent)."""
        with self._lock:
            servers, self._servers = self._servers, []
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        for server in servers:
            asyncio.run_coroutine_threadsafe(server.stop(), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()

    def _call(self, coro: Coroutine[Any, Any, _T]) -> _T:
        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(target=self._loop.run_forever, name="adbd", daemon=True)
                self._thread.start()
            loop = self._loop
        return asyncio.run_coroutine_threadsafe(coro, loop).result()

    def __enter__(self) -> AdbdThread:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_forever(
    servers: Sequence[Any],
    on_ready: Callable[[], None] | None = None,
    background: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Start the servers on a new event loop and serve until SIGINT/SIGTERM, then stop them cleanly.

    Args:
        servers: The servers to run (anything with async ``start()`` and ``stop()``), started in order.
        on_ready: Called once every server listens (e.g. to print their serials).
        background: Run alongside once the servers listen (e.g. a fault plan); cancelled at the end.

    Must be called from the main thread (signal handlers).
    """

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        task = None
        try:
            for server in servers:
                await server.start()
            if on_ready is not None:
                on_ready()
            if background is not None:
                task = asyncio.create_task(background())
            await stop.wait()
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            for server in reversed(servers):
                await server.stop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(sig)

    asyncio.run(serve())
