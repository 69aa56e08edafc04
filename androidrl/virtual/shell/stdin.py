"""A client's standard input as it arrives, for the shell's commands to read."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable


class Stdin:
    """A client's standard input as it arrives.

    A command reads it as it comes (``head -n 1`` returns after the first line, ``cat``
    echoes each chunk at once) or all of it once the client closes it (``cat > f``).
    Commands that do not read their input never wait (``adb shell cat FILE`` from a client
    that keeps stdin open runs at once), as on a device, where the command's stdin is a pipe.
    """

    def __init__(self) -> None:
        self._chunks: deque[bytes] = deque()
        self._closed = False
        self._arrived = threading.Condition()

    @classmethod
    def of(cls, data: bytes) -> Stdin:
        """An input that holds ``data`` and ends after it (a pipe's or a file's, for the shell's own use)."""
        stdin = cls()
        if data:
            stdin.feed(data)
        stdin.close()
        return stdin

    def feed(self, data: bytes) -> None:
        """More input from the client (dropped once closed: no command reads it any more)."""
        with self._arrived:
            if self._closed:
                return
            self._chunks.append(data)
            self._arrived.notify_all()

    def close(self) -> None:
        """The client closed its stdin (or went away)."""
        with self._arrived:
            self._closed = True
            self._arrived.notify_all()

    def read(self, stopped: Callable[[], bool]) -> bytes:
        """What arrived since the last read, waiting for some; ``b""`` once the client closed it (or ``stopped()``)."""
        with self._arrived:
            while not self._chunks and not self._closed and not stopped():
                self._arrived.wait(0.05)  # a timeout: `stopped` (a cancel or a deadline) is not notified
            data = b"".join(self._chunks)
            self._chunks.clear()
            return data

    def read_line(self, stopped: Callable[[], bool]) -> bytes:
        """One line, its newline included; the rest stays for the next reader.

        As ``read`` takes it byte by byte from a pipe. What is left, without a newline, once the
        client closed it; ``b""`` at the end.
        """
        with self._arrived:
            while True:
                data = b"".join(self._chunks)
                end = data.find(b"\n")
                if end >= 0 or self._closed or stopped():
                    line, rest = (data[: end + 1], data[end + 1 :]) if end >= 0 else (data, b"")
                    self._chunks.clear()
                    if rest:
                        self._chunks.append(rest)
                    return line
                self._chunks = deque([data] if data else [])
                self._arrived.wait(0.05)

    def read_all(self, stopped: Callable[[], bool]) -> bytes:
        """Everything, once the client closed it (or what came, if the command is stopped)."""
        return b"".join(iter(lambda: self.read(stopped), b""))
