"""The processes a node starts, seen through ``/proc`` and stopped by process id (never ``ray stop``)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

STOP_GRACE = 5.0  # seconds a child has to stop on SIGTERM before what is left of it is killed


def descendants(pid: int) -> list[tuple[int, str]]:
    """The processes under ``pid`` as (pid, start time), from ``/proc`` (none where there is no ``/proc``)."""
    children: dict[int, list[tuple[int, str]]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # it ended meanwhile
            continue
        children.setdefault(int(fields[1]), []).append((int(stat.parent.name), fields[19]))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child[0])
    return found


def alive(process: tuple[int, str]) -> bool:
    """Whether a process seen as (pid, start time) still runs (not another one that took its pid, not a zombie)."""
    try:
        fields = Path(f"/proc/{process[0]}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return False
    return fields[19] == process[1] and fields[0] != "Z"


def stop(process: subprocess.Popen | None) -> None:
    """Stop a child started in a session of its own, and everything it started (even outside its group)."""
    if process is None or process.poll() is not None:
        return
    under = descendants(process.pid)
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(STOP_GRACE)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    deadline = time.monotonic() + STOP_GRACE
    while any(alive(p) for p in under) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid, _ in filter(alive, under):  # what left its group (Ray daemons) or ignored SIGTERM
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
