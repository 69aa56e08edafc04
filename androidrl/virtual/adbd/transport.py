"""adb's transport, device side: packets, the connection from an adb server, and the streams in it.

Packets are a 24-byte little-endian header (command, arg0, arg1, length, checksum, magic)
and a payload (AOSP ``adb/protocol.txt``). The host opens streams with OPEN; each side sends
WRTE packets and waits for the peer's OKAY before the next one, and CLSE ends a stream. A
connection answers the host's CNXN (after AUTH on a secure phone), then hands each OPEN to
the service its adbd routes it to.
"""

from __future__ import annotations

import asyncio
import logging
import struct
import threading
from collections.abc import Awaitable, Callable

import numpy as np

from androidrl.virtual.adbd.auth import AUTH_RSAPUBLICKEY, AUTH_SIGNATURE, AUTH_TOKEN, Authenticator, PublicKey
from androidrl.virtual.adbd.daemon import Adbd
from androidrl.virtual.adbd.keys import shown
from androidrl.virtual.system.power import PhoneOfflineError

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


# Before the handshake is done a packet is a CNXN banner, a signature or a public key, each a few
# hundred bytes: a bigger one is refused, so a host that never signs in cannot make us hold 1 MiB.
MAX_HANDSHAKE_PAYLOAD = 64 * 1024


APPROVAL_POLL_SECONDS = 0.25  # how often a host waiting for its key to be allowed checks the keys directory


_JOIN_BELOW = 256 * 1024  # payload parts smaller than this are joined into one write (64 KB pull chunks too)


_HEADER = struct.Struct("<6I")


class StreamClosed(Exception):
    """The host closed the stream, or the connection went away."""


class Stream:
    """One OPEN'd service: flow-controlled writes, and the host's data as it arrives.

    Each host WRTE is acknowledged when the service takes it, so a slow service holds the
    host back rather than piling data up.
    """

    def __init__(self, conn: Connection, local_id: int, remote_id: int) -> None:
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
            StreamClosed: The stream ended first.
        """
        while len(self._buffer) < size:
            data = await self._take()
            if data is None:
                raise StreamClosed
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
            StreamClosed: The stream or connection closed.
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
            StreamClosed: The stream or connection closed.
        """
        await self._writable.wait()
        if self.closed:
            raise StreamClosed

    def close(self) -> None:
        """End the stream from the device side (no-op if it is already closed)."""
        if not self.closed:
            self.closed = True
            self.cancel.set()
        if not self.closed_by_us:
            self.closed_by_us = True
            self.conn.send(A_CLSE, self.local_id, self.remote_id)
            self.conn.forget(self)


Service = Callable[[Stream], Awaitable[None]]


class Connection:
    """One TCP connection from an adb server: the handshake, then streams keyed by our id."""

    def __init__(self, adbd: Adbd, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.adbd = adbd
        self.max_payload = MAX_PAYLOAD
        self._reader = reader
        self._writer = writer
        self._streams: dict[int, Stream] = {}
        self._next_id = 1
        self._connected = False
        self._closed = False
        self._auth = Authenticator(adbd.auth) if adbd.auth is not None else None
        self._next_token: asyncio.TimerHandle | None = None
        self._approval: asyncio.Task[None] | None = None
        self._offered = False  # (a host's public key is considered once per connection)
        self._host_max_payload = MAX_PAYLOAD
        self.label = "host"  # the transport's name in `adb reverse --list`
        # Until the host's CNXN says otherwise, the oldest version: checksums on (as AOSP's transport starts)
        self.version = A_VERSION_MIN

    @property
    def online(self) -> bool:
        """Whether the handshake is done (authenticated, on a secure phone): the host may open streams."""
        return self._connected

    @property
    def busy(self) -> bool:
        """Whether a service still runs on one of its streams (handing on what its command wrote)."""
        return any(stream.task is not None and not stream.task.done() for stream in self._streams.values())

    async def run(self) -> None:
        """Read and dispatch packets until the connection ends."""
        try:
            while True:
                command, arg0, arg1, length, _checksum, magic = _HEADER.unpack(await self._reader.readexactly(24))
                if magic != command ^ 0xFFFFFFFF:
                    raise ValueError(f"bad packet magic {magic:#010x} for command {command:#010x}")
                limit = MAX_PAYLOAD if self._connected else MAX_HANDSHAKE_PAYLOAD
                if length > limit:
                    raise ValueError(f"packet payload of {length} bytes exceeds {limit}")
                data = await self._reader.readexactly(length) if length else b""
                self._dispatch(command, arg0, arg1, data)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the host closed the connection, or we aborted it
        except ValueError as exc:
            logger.warning("adbd %s: dropping connection: %s", self.adbd.serial, exc)
        finally:
            self.abort()

    def abort(self) -> None:
        """Drop the connection at once and stop every stream's service."""
        if self._closed:
            return
        self._closed = True
        self._stop_auth()
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
            checksum = sum(_payload_sum(part) for part in payload if part) & 0xFFFFFFFF
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
            raise StreamClosed
        self.send(command, arg0, arg1, *payload)
        try:
            await self._writer.drain()
        except ConnectionError as exc:
            raise StreamClosed from exc

    def forget(self, stream: Stream) -> None:
        self._streams.pop(stream.local_id, None)

    def _dispatch(self, command: int, arg0: int, arg1: int, data: bytes) -> None:
        if not self.adbd.phone.online and (command == A_OPEN or not self.busy):  # went off: answer nothing new
            self.abort()
            self.adbd.drop_connections(force=False)
            return
        if command == A_CNXN:
            self._on_connect(arg0, arg1, data)
        elif command == A_AUTH and self._auth is not None and not self._connected:
            self._on_auth(arg0, data)
        elif not self._connected:
            logger.debug("adbd %s: ignoring packet %#010x before CNXN", self.adbd.serial, command)
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
            logger.debug("adbd %s: ignoring packet %#010x", self.adbd.serial, command)

    def _on_connect(self, host_version: int, host_max_payload: int, banner: bytes) -> None:
        logger.debug("adbd %s: host connected: %r", self.adbd.serial, banner[:200])
        self._close_streams()  # a new CNXN restarts the session
        self._connected = False
        self._host_max_payload = host_max_payload
        self.version = max(A_VERSION_MIN, min(host_version, A_VERSION))
        if self._auth is not None:  # a secure phone: prove who you are first
            self._stop_auth()
            self._send_token()
            return
        self._accept()

    def _accept(self) -> None:
        self.max_payload = max(256, min(self._host_max_payload, MAX_PAYLOAD))  # 0 from a broken host would stall
        self._connected = True
        self.send(A_CNXN, A_VERSION, self.max_payload, self.adbd.banner().encode())

    def _send_token(self) -> None:
        self._next_token = None
        if not self._closed and not self._connected:
            self.send(A_AUTH, AUTH_TOKEN, 0, self._auth.new_token())

    def _stop_auth(self) -> None:
        """Forget a token due later and a wait for approval."""
        if self._next_token is not None:
            self._next_token.cancel()
            self._next_token = None
        if self._approval is not None:
            self._approval.cancel()
            self._approval = None

    def _on_auth(self, kind: int, data: bytes) -> None:
        if kind == AUTH_SIGNATURE:
            if self._auth.accepts_signature(data):
                self._stop_auth()
                self._accept()
            elif self._next_token is None:  # the host tries its next key, then offers its public key
                delay = self._auth.retry_delay()
                self._next_token = asyncio.get_running_loop().call_later(delay, self._send_token)
        elif kind == AUTH_RSAPUBLICKEY and not self._offered:
            self._offered = True
            self._on_public_key(data)

    def _on_public_key(self, data: bytes) -> None:
        """The host has no key we trust and offers its public key: never a way in by itself."""
        serial = self.adbd.serial
        try:
            key = PublicKey.parse(data)
        except ValueError as err:
            logger.warning("adbd %s: refused a host's offered key: %s", serial, err)
            return
        who = f"host {shown(key.comment) or '(no name)'} (key {key.fingerprint})"
        trust = self.adbd.auth
        if trust.trusts(key):  # a host holding this key would have signed with it
            logger.warning(
                "adbd %s: refused %s: it offers a trusted key without signing with it, so it does not hold "
                "the private key; it stays unauthorized",
                serial,
                who,
            )
            return
        if trust.keys_dir is None:
            logger.warning(
                "adbd %s: refused %s: not a trusted key; it stays unauthorized (add its adbkey.pub to --auth, "
                "or serve with --auth-prompt to allow new keys with `androidrl virtual-keys`)",
                serial,
                who,
            )
            return
        try:
            filed = trust.keys_dir.request(key)
        except OSError as err:
            logger.warning("adbd %s: cannot file the request of %s: %s", serial, who, err)
            return
        if not filed:
            logger.warning("adbd %s: refused %s: too many requests are waiting in %s", serial, who, trust.keys_dir.path)
            return
        logger.warning(
            "adbd %s: %s asks to connect; allow it with `androidrl virtual-keys --keys-dir %s --allow %s` "
            "(or refuse it with --deny)",
            serial,
            who,
            trust.keys_dir.path,
            key.fingerprint,
        )
        if self._approval is None:
            self._approval = asyncio.create_task(self._await_approval(key))

    async def _await_approval(self, key: PublicKey) -> None:
        """Once the user allows ``key``, ask the host to sign a fresh token: it gets in if it holds the key."""
        trust = self.adbd.auth
        while not self._closed and not self._connected:
            await asyncio.sleep(APPROVAL_POLL_SECONDS)
            if trust.trusts(key):
                logger.info(
                    "adbd %s: key %s allowed; asking the host to sign with it", self.adbd.serial, key.fingerprint
                )
                self._approval = None
                self._send_token()
                return
            if not trust.keys_dir.is_requested(key):
                logger.warning(
                    "adbd %s: key %s was denied; the host stays unauthorized", self.adbd.serial, key.fingerprint
                )
                self._approval = None
                return

    def _on_open(self, remote_id: int, data: bytes) -> None:
        name = (data[:-1] if data.endswith(b"\0") else data).decode("utf-8", "replace")
        service = self.adbd.open_service(name)
        if service is None:
            logger.debug("adbd %s: refusing service %r", self.adbd.serial, name)
            self.send(A_CLSE, 0, remote_id)
            return
        stream = Stream(self, self._next_id, remote_id)
        self._next_id += 1
        self._streams[stream.local_id] = stream
        self.send(A_OKAY, stream.local_id, remote_id)
        stream.task = asyncio.create_task(self._run_service(stream, service, name))

    async def _run_service(self, stream: Stream, service: Service, name: str) -> None:
        try:
            await service(stream)
            await stream.wait_writable()  # the host has taken the last WRTE before our CLSE
        except (StreamClosed, PhoneOfflineError):
            pass
        except Exception:
            logger.exception("adbd service %r failed", name)
        finally:
            if self.adbd.phone.online:
                stream.close()
            else:  # e.g. `shell reboot`: the phone went down under it; what it wrote before is out, no answer
                self.abort()
                self.adbd.drop_connections(force=False)  # (others drop once their services are done too)


def _payload_sum(data: bytes | memoryview) -> int:
    """The sum of the payload's bytes, as peers older than A_VERSION_SKIP_CHECKSUM check it."""
    return int(np.frombuffer(data, dtype=np.uint8).sum(dtype=np.uint64)) & 0xFFFFFFFF
