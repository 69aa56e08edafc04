"""What the connections and services of one adbd share: the phone, its shell runner, its reverse forwards.

:class:`Adbd` is the device side without the network: :class:`~androidrl.virtual.adbd.server.AdbdServer`
extends it with a listening socket, and says which service an OPEN starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import re
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from androidrl.virtual.adbd.keys import TrustedKeys
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.shell.interpreter import Shell, ShellResult
from androidrl.virtual.shell.stdin import Stdin

FEATURES = ("shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir", "abb_exec")


MAX_SHELLS = 1024  # commands one adbd runs at once (a thread each: sleepers never starve the others)


_BANNER_UNSAFE = re.compile(r"[:;=,\x00-\x1f]")


def banner_value(value: str) -> str:
    """``value`` without the characters that separate the fields of a CNXN banner."""
    return _BANNER_UNSAFE.sub("_", value)[:200]


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


class Adbd:
    """One phone's adbd as its connections and services see it.

    Args:
        phone: The phone it serves.
        port: Its TCP port (0 until the server has bound one).
        host: The address it listens on.
        auth: The host keys it lets in after adb's RSA authentication; None lets anyone in.

    Attributes:
        reverse: ``adb reverse`` listeners on the phone: device socket spec -> (the host
            connection, host socket spec).
    """

    def __init__(self, phone: VirtualPhone, port: int, host: str, auth: TrustedKeys | None) -> None:
        self.phone = phone
        self.port = port
        self.host = host
        self.auth = auth
        self.reverse: dict[str, tuple[Any, str]] = {}
        self._shells = threading.BoundedSemaphore(MAX_SHELLS)
        self._shell_threads = _ShellThreads("adbd-shell")

    @property
    def serial(self) -> str:
        """``host:port``: what ``adb connect`` takes and ``adb devices`` lists."""
        return f"{self.host}:{self.port}"

    def banner(self) -> str:
        """The device's CNXN banner: product properties and features."""
        props = "".join(
            f"{name}={banner_value(self.phone.getprop(name))};"
            for name in ("ro.product.name", "ro.product.model", "ro.product.device")
        )
        return f"device::{props}features={','.join(FEATURES)}"

    def open_service(self, name: str) -> Callable[..., Awaitable[None]] | None:
        """The service an OPEN of ``name`` starts, or None to refuse it (the server routes)."""
        raise NotImplementedError

    def drop_connections(self, force: bool = True) -> None:
        """Go off the network: every connection is dropped (the server that listens does it).

        Without ``force``, one whose service still hands on its output is left to that service's end.
        """
        raise NotImplementedError

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
