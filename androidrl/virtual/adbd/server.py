"""adbd's server: serves a phone on a TCP port, going off the network while it is offline."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar

from androidrl.virtual.adbd.auth import PublicKey
from androidrl.virtual.adbd.daemon import Adbd
from androidrl.virtual.adbd.keys import TrustedKeys
from androidrl.virtual.adbd.services import route
from androidrl.virtual.adbd.transport import MAX_PAYLOAD, Connection, Service
from androidrl.virtual.phone import VirtualPhone

logger = logging.getLogger(__name__)


POWER_POLL_SECONDS = 0.02  # how often the server checks whether the phone went off or came back
#: How long a service whose phone went off may take to hand on what its command wrote before.
OFFLINE_GRACE_SECONDS = 1.0


ANNOUNCE_TIMEOUT = 2.0


LOOPBACK = ("127.0.0.1", "localhost", "::1")


#: Connections at once that have not finished the handshake (not signed in); more are closed at once.
MAX_UNAUTHENTICATED = 16


#: Seconds a connection has to finish the handshake (sign in) before it is closed.
AUTH_TIMEOUT = 30.0


_T = TypeVar("_T")


class AdbdServer(Adbd):
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
        auth_keys: Ask hosts for adb's RSA authentication and let in only those that sign with
            these keys (as a phone with ``ro.adb.secure=1`` and these ``adb_keys``): a list, or
            :class:`~androidrl.virtual.adbd.keys.TrustedKeys` (key files read as they change, and
            a keys directory for requests); None lets anyone in.
        allow_public: Allow listening beyond this machine (``host`` not a loopback address):
            without ``auth_keys`` anyone who reaches the port gets a shell.
        max_unauthenticated: Connections that have not finished the handshake at once; a
            further one is closed as it arrives.
        auth_timeout: Seconds a connection has to finish the handshake before it is closed.

    Raises:
        ValueError: A bad port, limit or timeout, or a non-loopback ``host`` without ``allow_public``.

    Attributes:
        port: The port; the actual one once started.
    """

    def __init__(
        self,
        phone: VirtualPhone,
        port: int = 0,
        host: str = "127.0.0.1",
        *,
        announce_port: int | None = None,
        auth_keys: list[PublicKey] | TrustedKeys | None = None,
        allow_public: bool = False,
        max_unauthenticated: int = MAX_UNAUTHENTICATED,
        auth_timeout: float = AUTH_TIMEOUT,
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
        if max_unauthenticated < 1:
            raise ValueError(f"max_unauthenticated must be >= 1, got {max_unauthenticated}")
        if not 0 < auth_timeout < float("inf"):
            raise ValueError(f"auth_timeout must be a positive number of seconds, got {auth_timeout}")
        if isinstance(auth_keys, list):
            auth_keys = TrustedKeys(auth_keys)
        super().__init__(phone, port, host, auth_keys)
        self.announce_port = announce_port
        self.max_unauthenticated = max_unauthenticated
        self.auth_timeout = auth_timeout
        self._refusing = False  # (the limit was reached: one warning until it is left again)
        self._listener: asyncio.Server | None = None
        self._connections: dict[Connection, asyncio.Task[Any]] = {}
        self._power_watch: asyncio.Task[None] | None = None
        self._listen_failed = False

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

    @property
    def listening(self) -> bool:
        """Whether adbd is on the network (it is not while its phone is off or rebooting)."""
        return self._listener is not None

    def open_service(self, name: str) -> Service | None:
        """The service an OPEN of ``name`` starts, or None to refuse it."""
        return route(self, name)

    def drop_connections(self, force: bool = True) -> None:
        """Go off the network: close the listening socket and abort the connections.

        Without ``force``, a connection whose service still hands on what its command wrote
        before the phone went off (``echo bye; reboot``) is left to that service's end. The
        server listens again once the phone is online.
        """
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        for conn in list(self._connections):
            if force or not conn.busy:
                conn.abort()

    async def _listen(self) -> None:
        self._listener = await asyncio.start_server(
            self._on_connection, self.host, self.port, reuse_address=True, limit=2 * MAX_PAYLOAD
        )
        self.port = self._listener.sockets[0].getsockname()[1]
        logger.info("adbd serving %s on %s", self.phone.getprop("ro.serialno"), self.serial)

    async def _watch_power(self) -> None:
        """Follow the phone's power: off the network while it is offline, back when it is online."""
        offline_since: float | None = None
        while True:
            await asyncio.sleep(POWER_POLL_SECONDS)
            online = self.phone.online
            if online:
                offline_since = None
                if self._listener is None:
                    await self._relisten()
                continue
            if offline_since is None:
                logger.info("adbd %s: phone offline, closing connections", self.serial)
                offline_since = time.monotonic()
            self.drop_connections(force=time.monotonic() - offline_since > OFFLINE_GRACE_SECONDS)

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
        waiting = sum(1 for conn in self._connections if not conn.online)
        if waiting >= self.max_unauthenticated:
            if not self._refusing:
                logger.warning(
                    "adbd %s: %d connections have not signed in yet; closing new ones until they do or time out",
                    self.serial,
                    waiting,
                )
            self._refusing = True
            writer.transport.abort()
            return
        self._refusing = False
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # small packets go out at once
            writer.transport.set_write_buffer_limits(high=4 * MAX_PAYLOAD)  # a whole packet never waits
        conn = Connection(self, reader, writer)
        conn.label = f"host-{sock.fileno() if sock is not None else len(self._connections)}"  # as adbd names it
        self._connections[conn] = asyncio.current_task()
        deadline = asyncio.get_running_loop().call_later(self.auth_timeout, self._expire, conn)
        try:
            await conn.run()
        finally:
            deadline.cancel()
            del self._connections[conn]
            # adbd removes a transport's reverse listeners with the transport
            self.reverse = {local: (c, remote) for local, (c, remote) in self.reverse.items() if c is not conn}

    def _expire(self, conn: Connection) -> None:
        """Close ``conn`` if it has not finished the handshake in time."""
        if not conn.online:
            logger.info(
                "adbd %s: closing a connection that did not sign in within %g s", self.serial, self.auth_timeout
            )
            conn.abort()


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
