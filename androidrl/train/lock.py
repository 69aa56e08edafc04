"""One trainer at a time in a run directory: a lock file naming its holder.

Two trainers in one run would delete each other's checkpoints and write each evaluation
twice. A trainer holds ``trainer.lock`` in the run directory with ``fcntl.lockf``: the
kernel frees the lock when the holder dies, however it dies, so a lock left by a killed
trainer is free and taken over (saying whose it was); a live holder's is refused, naming
its pid and host. The file says who holds it (JSON: pid, host, since); it is emptied,
never removed, on release (removing it would let a waiting trainer lock a file no one
else sees).

POSIX record locks (``lockf``), not ``flock``: they belong to the process, so the
workers it forks never hold them (a ``flock`` would stay locked while an orphaned worker
lived). They are also the kind NFS servers know. The other side of record locks is that
closing *any* descriptor of the file drops the process's lock: this process opens the
file once, and a second lock on the same run from this process is refused before the
file is opened again.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import socket
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from androidrl.train.config import ConfigError

LOCK_FILE = "trainer.lock"
#: The lock files this process holds (device, inode): one open descriptor each.
_HELD: set[tuple[int, int]] = set()


class RunInUse(ConfigError):
    """The run directory is held by another trainer (its ``holder``: pid, host, since)."""

    def __init__(self, message: str, holder: dict[str, Any]) -> None:
        super().__init__(message)
        self.holder = holder


class RunLock:
    """The lock of one run directory (see the module docstring); a context manager.

    Args:
        directory: The run directory (it must exist).
    """

    def __init__(self, directory: str | Path) -> None:
        self.path = Path(directory) / LOCK_FILE
        self._fd: int | None = None
        self._key: tuple[int, int] | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock; a lock left by a trainer that died is taken over, saying whose it was.

        Raises:
            RunInUse: Another trainer (another process, or this one) holds it.
            ConfigError: The lock file cannot be opened or written.
        """
        if self._fd is not None:
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as err:
            raise ConfigError(f"cannot lock the run directory {self.path.parent}: {err.strerror or err}") from None
        stat = os.fstat(fd)
        key = (stat.st_dev, stat.st_ino)
        if key in _HELD:  # (a second lockf in this process would succeed, and closing fd would drop the first)
            os.close(fd)
            raise self._in_use({"pid": os.getpid(), "host": socket.gethostname()}, " (this process)")
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            holder = _read(fd)
            os.close(fd)
            if err.errno in (errno.EACCES, errno.EAGAIN):
                raise self._in_use(holder) from None
            raise ConfigError(f"cannot lock the run directory {self.path.parent}: {err.strerror or err}") from None
        previous = _read(fd)
        if previous:  # its holder died without releasing it (a kill -9, a power cut)
            print(
                f"{self.path.parent}: taking over the run from pid {previous.get('pid', '?')} on host "
                f"{previous.get('host', '?')} (training since {previous.get('since', '?')}), which is gone",
                file=sys.stderr,
            )
        me = {"pid": os.getpid(), "host": socket.gethostname(), "since": datetime.now().isoformat(timespec="seconds")}
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(me).encode(), 0)
        except OSError as err:
            os.close(fd)
            raise ConfigError(f"cannot write {self.path}: {err.strerror or err}") from None
        self._fd, self._key = fd, key
        _HELD.add(key)

    def release(self) -> None:
        """Free the lock (emptying the file: a clean end leaves no holder behind). Idempotent."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        _HELD.discard(self._key)
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # (frees the lock)

    def __enter__(self) -> RunLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def _in_use(self, holder: dict[str, Any], note: str = "") -> RunInUse:
        since = f", training since {holder['since']}" if holder.get("since") else ""
        who = f"pid {holder.get('pid', '?')} on host {holder.get('host', '?')}{note}{since}"
        return RunInUse(
            f"run directory {self.path.parent} is in use by another trainer ({who}): two trainers in one run "
            "would delete each other's checkpoints; wait for it to finish, or stop it first",
            holder,
        )


def _read(fd: int) -> dict[str, Any]:
    """What the lock file says about its holder ({} when empty or unreadable)."""
    with contextlib.suppress(OSError, ValueError):
        data = json.loads(os.pread(fd, 4096, 0) or b"{}")
        if isinstance(data, dict):
            return data
    return {}
