"""Work due later on the phone's clock: a background shell job waiting out a ``sleep``.

On a device, ``(sleep 5; cmd statusbar expand-notifications) >/dev/null 2>&1 &`` leaves a process
that outlives the adb command (adbd reports the command's end once its output is closed, and this
job's output goes elsewhere) and acts five seconds later. The virtual phone has no thread of its own:
the job's rest is kept here with the uptime it is due at, and runs the next time the phone is looked
at after that (a frame, an input event, a shell command), as the alarm manager delivers its alarms.
On a stepped clock (a phone in an env) the time moves with the steps, so a job started by a task's
reset acts after the same number of steps every episode.

Nothing here is kept in a snapshot: loading one, or a reboot, ends the jobs waiting (their
processes are not part of the phone that comes back).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from androidrl.virtual.system.clock import Clock


class Scheduler:
    """What is due at which uptime, run in order of time (then of scheduling) when the phone is looked at.

    Args:
        clock: The phone's clock (uptime: ``elapsedRealtime``).
    """

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._queue: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()
        self._running = False

    def schedule(self, seconds: float, work: Callable[[], None]) -> None:
        """Run ``work()`` once ``seconds`` of uptime have passed from now (at the next look after that)."""
        self._queue.append((self.clock.uptime() + max(0.0, seconds), next(self._order), work))
        self._queue.sort(key=lambda entry: entry[:2])

    def run_due(self) -> None:
        """Run the work whose time has come, earliest first (cheap when nothing waits).

        What the work does may look at the phone again (a command draws the screen): that look
        runs nothing more; work it schedules for now runs in this same pass.
        """
        if not self._queue or self._running:
            return
        self._running = True
        try:
            while self._queue and self._queue[0][0] <= self.clock.uptime():
                _, _, work = self._queue.pop(0)
                work()
        finally:
            self._running = False

    def pending(self) -> int:
        """How many pieces of work wait."""
        return len(self._queue)

    def clear(self) -> None:
        """Forget everything waiting (a snapshot was loaded, the phone rebooted)."""
        self._queue.clear()
