"""Background jobs (mksh's ``jobs.c``): ``cmd &`` in a thread, ``$!`` its pid, which ``wait`` and ``kill`` take.

A job is a subshell: a copy of the shell that started it, its input empty (``/dev/null``,
as POSIX says for a shell without job control), its output going where the shell's went. A
signal sets the job's cancel event: whatever it runs stops as a device's process does on
that signal (``screenrecord`` finishes its file on ``SIGINT``), and the job then ends with
``128 + signal`` unless its command caught the signal and exited by itself.
"""

from __future__ import annotations

import signal as signals
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from androidrl.virtual.system.power import PhoneOfflineError

#: Signal names and numbers ``kill`` knows (Linux's, as on Android).
SIGNALS = {s.name[3:]: int(s) for s in signals.Signals if s.name.startswith("SIG") and not s.name.startswith("SIG_")}
SIGNAL_NAMES = {number: name for name, number in sorted(SIGNALS.items(), key=lambda item: -item[1])}


@dataclass
class Job:
    """One background job: its pid, the thread running it and, once done, its exit status."""

    pid: int
    cancel: threading.Event
    done: threading.Event = field(default_factory=threading.Event)
    status: int = 0
    signal: int = 0
    thread: threading.Thread | None = None


class Jobs:
    """The background jobs one shell started."""

    def __init__(self) -> None:
        self.jobs: dict[int, Job] = {}

    def start(self, pid: int, cancel: threading.Event, run: Callable[[Job], int]) -> Job:
        """Start ``run(job)`` in a thread (``cancel`` is what a signal sets); the job's status is what it returns."""
        job = Job(pid, cancel)

        def main() -> None:
            try:
                job.status = run(job)
            except PhoneOfflineError:  # (`reboot &`: the phone went down, and every process with it)
                job.status = 128 + 9
            finally:
                job.done.set()

        job.thread = threading.Thread(target=main, name=f"sh-job-{job.pid}", daemon=True)
        self.jobs[job.pid] = job
        job.thread.start()
        return job

    def get(self, pid: int) -> Job | None:
        """The job with ``pid``, if this shell started it."""
        return self.jobs.get(pid)

    def kill(self, pid: int, signal: int) -> bool:
        """Send ``signal`` to the job ``pid``; False when there is no such job (or it has ended)."""
        job = self.jobs.get(pid)
        if job is None or job.done.is_set():
            return False
        if signal:  # signal 0 only asks whether it exists
            job.signal = signal
            job.cancel.set()
        return True

    def wait(self, pid: int | None, interrupted: Callable[[], bool]) -> int | None:
        """Wait for job ``pid`` (all jobs when None) and forget it: its status (0 for all), None if there is none.

        Returns early, with 128 + SIGINT, when ``interrupted()``.
        """
        targets = list(self.jobs.values()) if pid is None else [self.jobs[pid]] if pid in self.jobs else None
        if targets is None:
            return None
        for job in targets:
            while not job.done.wait(0.05):
                if interrupted():
                    return 128 + signals.SIGINT
            self.jobs.pop(job.pid, None)
        return targets[-1].status if pid is not None else 0

    def stop_all(self, timeout: float = 5.0) -> None:
        """Stop every job still running (``SIGHUP``, as when a session ends) and wait for their threads."""
        for job in list(self.jobs.values()):
            if not job.done.is_set():
                job.signal = signals.SIGHUP
                job.cancel.set()
        for job in list(self.jobs.values()):
            if job.thread is not None:
                job.thread.join(timeout)
        self.jobs.clear()

    def running(self) -> bool:
        """Whether a job is still running."""
        return any(not job.done.is_set() for job in self.jobs.values())
