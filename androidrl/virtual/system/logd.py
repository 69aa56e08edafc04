"""The phone's log (``logd``): ring buffers the system and apps write to and ``logcat`` reads.

The system writes to it as Android's does — ActivityTaskManager's ``START u0 {...}`` and
``Displayed pkg/.Act: +Nms`` in the system buffer, ``wm_on_resume_called`` in the events
buffer, the radio services' switches — and apps write under their own tags.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

BUFFERS = ("main", "system", "radio", "events", "crash")
DEFAULT_BUFFERS = ("main", "system", "crash")
PRIORITIES = "VDIWEFS"  # verbose ... fatal, silent
# Lines kept, all buffers together: a device keeps about 256 KiB a buffer, a few thousand lines; each
# line here is a Python object (~350 bytes), so a phone that runs for days holds about 3 MB of log.
CAPACITY = 8192


@dataclass(frozen=True)
class LogEntry:
    """One log line."""

    seq: int
    time: float  # seconds since the epoch
    pid: int
    tid: int
    priority: str  # one of VDIWEF
    tag: str
    message: str
    buffer: str


class LogBuffer:
    """The ring buffers of ``logd``: writers append, readers dump or follow.

    One ring in write order (each line knows its buffer), so the newest lines — what
    ``-t``, a follow and a task's log condition want — are read from the end, not found
    by scanning everything.

    Args:
        clock: Seconds since the epoch (the phone's clock).
        capacity: Lines kept; the oldest go first.
    """

    def __init__(self, clock: Callable[[], float] = time.time, capacity: int = CAPACITY) -> None:
        self.clock = clock
        self._lines: deque[LogEntry] = deque(maxlen=capacity)
        self._cleared: dict[str, int] = dict.fromkeys(BUFFERS, 0)  # lines up to this seq were cleared
        self._seq = 0
        self._changed = threading.Condition()

    def write(self, tag: str, message: str, priority: str = "I", buffer: str = "main", pid: int = 0) -> None:
        """Append a line (a multi-line message becomes one line each, as ``Log.i`` prints it)."""
        with self._changed:
            for line in message.split("\n"):
                self._seq += 1
                self._lines.append(LogEntry(self._seq, self.clock(), pid, pid, priority, tag, line, buffer))
            self._changed.notify_all()

    def entries(
        self,
        buffers: tuple[str, ...] = DEFAULT_BUFFERS,
        after: int = 0,
        since: float | None = None,
        keep: Callable[[LogEntry], bool] | None = None,
        newest: int | None = None,
    ) -> list[LogEntry]:
        """Lines of ``buffers``, oldest first.

        Args:
            buffers: Which buffers.
            after: Only lines with a greater sequence number.
            since: Only lines from this time on.
            keep: Only lines it accepts.
            newest: Only the last this many of those.
        """
        wanted = set(buffers)
        out: list[LogEntry] = []
        with self._changed:
            for entry in reversed(self._lines):
                if entry.seq <= after or (since is not None and entry.time < since) or newest == len(out):
                    break
                if entry.buffer in wanted and entry.seq > self._cleared[entry.buffer] and (keep is None or keep(entry)):
                    out.append(entry)
        out.reverse()
        return out

    def clear(self, buffers: tuple[str, ...] = DEFAULT_BUFFERS) -> None:
        """Empty ``buffers`` (``logcat -c``)."""
        with self._changed:
            for name in buffers:
                self._cleared[name] = self._seq

    def wait(self, after: int, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a line newer than ``after``; whether one came."""
        with self._changed:
            return self._changed.wait_for(lambda: self._seq > after, timeout)

    def state(self) -> tuple:
        """What a snapshot keeps of the log (lines are immutable: the ring is copied, not its lines)."""
        with self._changed:
            return list(self._lines), dict(self._cleared), self._seq

    def restore(self, state: tuple) -> None:
        """Put the log back as :meth:`state` saw it (an emulator's snapshot holds logd's memory too)."""
        lines, cleared, seq = state
        with self._changed:
            self._lines.clear()
            self._lines.extend(lines)
            self._cleared, self._seq = dict(cleared), seq
            self._changed.notify_all()

    @property
    def last_seq(self) -> int:
        """The sequence number of the newest line."""
        return self._seq


# ---------------------------------------------------------------------------- formats
