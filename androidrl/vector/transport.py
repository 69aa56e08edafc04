"""How a vector env reaches its workers: processes on this machine, or (in :mod:`androidrl.vector.cluster`) Ray actors.

A transport starts and stops workers and carries one message each way per command; the
vector env (:class:`~androidrl.vector.async_env.DeviceVectorEnv`) keeps the bookkeeping —
deadlines, recovery, waiting for devices — the same whatever the transport.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

import gymnasium as gym
from gymnasium.vector.utils import CloudpickleWrapper

from androidrl.vector.lifeline import Lifeline
from androidrl.vector.shared import ObservationBuffer, shareable
from androidrl.vector.workers import run_worker

KILL_GRACE = 1.0  # seconds between SIGTERM and SIGKILL for a worker process that must go
#: The parent ends of every local worker's pipe in this process (of every vector env): a forked worker closes them.
_PARENT_ENDS: weakref.WeakSet[Connection] = weakref.WeakSet()


class WorkerGone(Exception):
    """The worker died (its answers will never come)."""


@dataclass(eq=False)
class Worker:
    """One worker: its envs (``slots``) and the transport's handle on it."""

    index: int
    slots: list[int]
    env_fns: list[Callable[[], gym.Env]]
    handle: Any = None


class Transport(ABC):
    """Starts workers, sends them commands and collects their answers, one message each way.

    Attributes:
        buffer: Shared memory for the observations, or None (they travel in the answers).
        restarts_itself: Whether the transport brings a dead worker back by itself (then
            the vector env only waits for it, and never kills or restarts it).
    """

    buffer: ObservationBuffer | None = None
    restarts_itself = False

    def prepare(self, observation_space: gym.Space, num_envs: int) -> None:
        """Called once the spaces are known, before any worker starts."""

    @abstractmethod
    def start(self, worker: Worker) -> None:
        """Start ``worker`` (it builds its envs and waits for commands)."""

    def started(self, workers: Sequence[Worker]) -> None:
        """Called once every worker was started (a transport may wait for them to be placed)."""

    @abstractmethod
    def stop(self, worker: Worker) -> None:
        """Stop ``worker`` at once (killing it if need be)."""

    @abstractmethod
    def send(self, worker: Worker, command: str, data: Any) -> None:
        """Send one command. Raises :class:`WorkerGone`."""

    @abstractmethod
    def receive(self, worker: Worker) -> tuple[str, Any]:
        """The next answer, ``(status, payload)``. Raises :class:`WorkerGone`."""

    @abstractmethod
    def ready(self, workers: Sequence[Worker], timeout: float) -> list[Worker]:
        """The workers with an answer waiting (waits up to ``timeout`` seconds for one)."""

    def close(self, workers: Sequence[Worker]) -> None:
        """Stop every worker (quietly when possible)."""
        for worker in workers:
            self.stop(worker)

    def where(self, worker: Worker) -> str:
        """Where the worker runs, for messages ("" on this machine)."""
        return ""


class LocalProcesses(Transport):
    """A process per worker on this machine, a pipe each, observations in shared memory.

    Workers end with this process, however it ends (:mod:`androidrl.vector.lifeline`).

    Args:
        context: multiprocessing start method (default: the platform's, fork on Linux).
        shared_memory: Observations through shared memory (when the space allows it).
        leftovers: Directories of this process's that the workers remove if it dies (it
            removes them itself when it closes).
    """

    def __init__(
        self, context: str | None = None, shared_memory: bool = True, leftovers: Sequence[str | Path] = ()
    ) -> None:
        self._ctx = multiprocessing.get_context(context)
        if self._ctx.get_start_method() == "forkserver":
            # The server preloads what a worker runs instead of its default, the trainer's ``__main__`` (and with
            # it the training stack): workers start from what they need (env functions travel by value anyway).
            # Each worker still runs the trainer's script as ``__mp_main__``: ours import under their main guard.
            self._ctx.set_forkserver_preload(["androidrl.vector.workers"])
        self._shared_memory = shared_memory
        self._leftovers = tuple(str(p) for p in leftovers)

    def prepare(self, observation_space: gym.Space, num_envs: int) -> None:
        if self._shared_memory and shareable(observation_space):
            self.buffer = ObservationBuffer(observation_space, num_envs, self._ctx)

    def start(self, worker: Worker) -> None:
        parent, child = self._ctx.Pipe()
        fns = [CloudpickleWrapper(fn) for fn in worker.env_fns]  # (spawned workers cannot pickle closures)
        process = self._ctx.Process(
            target=run_worker,
            args=(child, fns, worker.slots, self.buffer, self._lifeline(parent)),
            name=f"androidrl-worker-{worker.index}",
            daemon=True,
        )
        process.start()
        child.close()
        _PARENT_ENDS.add(parent)
        worker.handle = (process, parent)

    def _lifeline(self, parent: Connection) -> Lifeline:
        """A new worker's tie to this process; a forked one also closes its copies of the parent ends."""
        inherited: tuple[int, ...] = ()
        if self._ctx.get_start_method() == "fork":  # (spawn and forkserver pass the child only its own end)
            inherited = tuple(end.fileno() for end in [*_PARENT_ENDS, parent] if not end.closed)
        return Lifeline(os.getpid(), inherited, self._leftovers)

    def stop(self, worker: Worker) -> None:
        if worker.handle is None:
            return
        process, conn = worker.handle
        if process.is_alive():
            process.terminate()
            process.join(KILL_GRACE)
            if process.is_alive():
                process.kill()
                process.join(KILL_GRACE)
        _PARENT_ENDS.discard(conn)
        conn.close()
        worker.handle = None

    def send(self, worker: Worker, command: str, data: Any) -> None:
        try:
            worker.handle[1].send((command, data))
        except (OSError, ValueError, TypeError):  # a broken or closed pipe: the worker is gone
            raise WorkerGone from None

    def receive(self, worker: Worker) -> tuple[str, Any]:
        try:
            return worker.handle[1].recv()
        except (EOFError, OSError, TypeError):
            raise WorkerGone from None

    def ready(self, workers: Sequence[Worker], timeout: float) -> list[Worker]:
        by_conn = {w.handle[1]: w for w in workers if w.handle is not None}
        return [by_conn[c] for c in wait(list(by_conn), timeout)] if by_conn else []

    def close(self, workers: Sequence[Worker]) -> None:
        for worker in workers:  # ask first: a worker that closes its envs leaves no files behind
            if worker.handle is not None and worker.handle[0].is_alive():
                with contextlib.suppress(WorkerGone):
                    self.send(worker, "close", None)
        deadline = time.monotonic() + KILL_GRACE
        for worker in workers:
            if worker.handle is not None:
                worker.handle[0].join(max(0.0, deadline - time.monotonic()))
            self.stop(worker)

    def process(self, worker: Worker) -> Any:
        """The worker's process."""
        return worker.handle[0] if worker.handle is not None else None
