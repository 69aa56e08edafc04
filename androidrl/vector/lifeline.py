"""A worker's tie to the trainer that started it: it ends when the trainer ends, however it ends, leaving nothing.

A trainer killed with SIGKILL cannot close its workers, and each would otherwise wait on
its pipe forever (about 200 MB each, adopted by init). Three ties, each enough alone:

* **The pipe.** A forked worker starts with a copy of every pipe end its trainer holds:
  its own parent end and its siblings'. It closes them (:attr:`Lifeline.inherited`), so
  the trainer's death closes the last copy of the parent end and the worker reads EOF.
* **The kernel.** On Linux, ``prctl(PR_SET_PDEATHSIG)`` has the kernel send the worker
  :data:`SIGNAL` when its parent dies, also while it is busy in a step and not reading.
* **A watcher thread** (every system) polls the parent's pid once a second, signals the
  worker's main thread when it changes, and ends the process if it is still there
  :data:`GRACE` seconds later (an env that will not close must not keep it alive).

The signal is SIGHUP, not SIGTERM: SIGTERM stays the trainer's way to stop a hung worker
at once, and a SIGHUP that comes while the parent lives (a closing terminal, or the exit
of the thread that started the worker, which also fires PDEATHSIG) is ignored.

A worker whose trainer died closes its envs and removes the trainer's temporary directories
(:attr:`Lifeline.leftovers`; the trainer removes them itself when it closes, and after
killing a worker). When the trainer and its workers are killed together (``kill -9`` of
the process group), no one is left to: the directory's name carries the trainer's pid
(:func:`temporary_directory`), and the next trainer removes those of processes that are gone.

Observations in shared memory need nothing: multiprocessing's blocks are unlinked files
(in ``/dev/shm``) from the start, freed with the last process that maps them. A virtual
phone lives inside its worker and goes with it. An adb server that a worker
started with ``adb start-server`` (only on adb's default port, when none answered) is the
machine's shared one, as any adb client would start it: it is meant to outlive its clients.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: What a worker receives when its parent dies.
SIGNAL = signal.SIGHUP
#: Seconds between two looks at the parent's pid.
POLL = 1.0
#: Seconds an orphaned worker has to close its envs before the watcher ends it.
GRACE = 5.0
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


class ParentGone(SystemExit):
    """Raised in a worker's main thread when its parent died (a quiet exit: multiprocessing prints nothing)."""


@dataclass
class Lifeline:
    """What a worker needs to end with its parent; made in the parent, held in the worker (:meth:`hold`).

    Attributes:
        parent: The parent's pid.
        inherited: File descriptors of the parent's pipe ends that a forked worker holds
            copies of (none for the spawn and forkserver start methods).
        leftovers: Directories of the parent's to remove when the parent dies.
    """

    parent: int
    inherited: tuple[int, ...] = ()
    leftovers: tuple[str, ...] = ()
    _ppid: int = field(default=0, init=False, repr=False)
    _told: bool = field(default=False, init=False, repr=False)

    def hold(self) -> None:
        """In the worker, first thing: close the inherited pipe ends and tie this process to its parent.

        Call it from the worker's main thread.

        Raises:
            ParentGone: The parent died already.
        """
        for fd in self.inherited:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._ppid = os.getppid()  # the parent, or a forkserver that ends with it
        signal.signal(SIGNAL, self._on_signal)
        _die_with_parent(SIGNAL)
        threading.Thread(target=self._watch, name="androidrl-lifeline", daemon=True).start()
        if self.orphaned():  # it died before the kernel was told
            self._tell()

    def orphaned(self) -> bool:
        """Whether the parent is gone."""
        ppid = os.getppid()
        return ppid != self._ppid or (ppid != self.parent and not _running(self.parent))

    def release(self, gone: bool = False) -> None:
        """In the worker, last thing: if the parent is gone, remove its temporary directories.

        Args:
            gone: The worker knows (it read EOF on its pipe: the parent's descriptors are closed
                as it exits, before its children are handed to another parent).
        """
        if gone or self.orphaned():
            for directory in self.leftovers:
                shutil.rmtree(directory, ignore_errors=True)

    def _on_signal(self, signum: int, frame: Any) -> None:
        if self.orphaned():
            self._tell()

    def _tell(self) -> None:
        if not self._told:  # once: the second would cut the worker's own cleanup short
            self._told = True
            raise ParentGone(0)

    def _watch(self) -> None:
        while not self.orphaned():
            time.sleep(POLL)
        if not self._told:  # (no PDEATHSIG here: interrupt the main thread as the kernel would)
            signal.pthread_kill(threading.main_thread().ident, SIGNAL)
        time.sleep(GRACE)
        self.release()  # the main thread is stuck: end the process ourselves
        os._exit(1)


def temporary_directory(prefix: str = "androidrl-vec-") -> str:
    """A new private temporary directory named after this process (``<prefix><pid>-<random>``).

    First, those of this user's processes that are gone are removed (a trainer killed with
    its workers leaves its directory behind).
    """
    for path in Path(tempfile.gettempdir()).glob(f"{prefix}*-*"):
        pid = path.name[len(prefix) :].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or _running(int(pid)):
            continue
        with contextlib.suppress(OSError):
            if path.is_dir() and not path.is_symlink() and path.stat().st_uid == os.getuid():
                shutil.rmtree(path, ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-")


def _die_with_parent(signum: int) -> None:
    """Ask Linux to send ``signum`` when the parent dies (``prctl(PR_SET_PDEATHSIG)``); elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signum), 0, 0, 0)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # (another user's process now has the pid)
        return True
    return True
