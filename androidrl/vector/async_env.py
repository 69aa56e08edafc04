"""Vector envs over devices: one worker process per phone, faults kept inside their worker.

:func:`make_vector_env` builds a :class:`DeviceVectorEnv` — Gymnasium's ``AsyncVectorEnv``
with one worker per device spec (adb serials such as ``emulator-5554`` or
``127.0.0.1:6101``, or ``"virtual"`` for an in-process virtual phone in the worker), the
``SAME_STEP`` autoreset Stable-Baselines3 expects, shared memory, ``copy=True`` and a step
timeout. Two workers on one phone would corrupt each other's episodes, so a serial listed
twice is refused.

Fault isolation, in two layers:

* In each worker, :class:`~androidrl.vector.guard.DeviceFaultGuard` keeps a device fault inside its episode:
  AndroidEnv already turns a fault during a step into ``truncated=True``; when the device
  then stays unreachable, the guard answers every step at once with a blank observation,
  ``truncated=True`` and ``info["device_error"]`` — so the other devices keep stepping —
  and tries to reconnect every ``retry_interval`` seconds, giving up (with an error that
  names the serial) after ``max_down_seconds``.
* :class:`DeviceVectorEnv` reports a worker that times out or dies as a
  :class:`WorkerError` naming the worker and its device; the SB3 adapter
  (:mod:`androidrl.vector.sb3`) rebuilds the vector env and carries on.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
from gymnasium.vector import AsyncVectorEnv, AutoresetMode
from gymnasium.vector.async_vector_env import AsyncState

from androidrl.device.spec import DeviceSpec, parse_devices
from androidrl.vector.workers import Wrap, env_factory


class WorkerError(RuntimeError):
    """A worker of a :class:`DeviceVectorEnv` died or timed out.

    Attributes:
        indices: The failed workers.
        serials: Their devices.
    """

    def __init__(self, message: str, indices: list[int], serials: list[str]) -> None:
        super().__init__(message)
        self.indices = indices
        self.serials = serials


class DeviceVectorEnv(AsyncVectorEnv):
    """``AsyncVectorEnv`` whose failures name the worker and device, with a step timeout."""

    def __init__(
        self,
        env_fns: Sequence[Callable[[], gym.Env]],
        serials: Sequence[str],
        step_timeout: float | None = None,
        **kwargs: Any,
    ) -> None:
        self.serials = list(serials)
        self.step_timeout = step_timeout
        super().__init__(env_fns, **kwargs)

    def reset(self, *, seed: Any = None, options: dict[str, Any] | None = None):
        """Reset every worker; a worker that hangs past ``step_timeout`` or dies raises :class:`WorkerError`."""
        with self._watch_workers():
            self.reset_async(seed=seed, options=options)
            return self.reset_wait(timeout=self.step_timeout)

    def step(self, actions: Any):
        """Step every worker; a worker that hangs past ``step_timeout`` or dies raises :class:`WorkerError`."""
        with self._watch_workers():
            self.step_async(actions)
            return self.step_wait(timeout=self.step_timeout)

    @contextlib.contextmanager
    def _watch_workers(self):
        """Turn a wait that timed out, or a broken pipe, into a :class:`WorkerError` naming the workers."""
        try:
            yield
        except multiprocessing.TimeoutError:
            hung = [i for i, pipe in enumerate(self.parent_pipes) if pipe is not None and not pipe.poll(0)]
            raise self._error(hung, f"did not answer within {self.step_timeout:g} s") from None
        except (EOFError, OSError):  # a worker process died: its pipe broke
            self._state = AsyncState.DEFAULT  # nothing to wait for any more; close(terminate=True) next
            for process in self.processes:
                process.join(timeout=0.1)  # reap it, so is_alive() tells
            dead = [i for i, process in enumerate(self.processes) if not process.is_alive()]
            raise self._error(dead, "died") from None

    def _error(self, indices: list[int], what: str) -> WorkerError:
        names = ", ".join(f"{i} ({self.serials[i]})" for i in indices)
        return WorkerError(f"workers {names} {what}", indices, [self.serials[i] for i in indices])

    def _raise_if_errors(self, successes: Any) -> None:
        # Gymnasium re-raises a worker's error as exctype(value), losing which worker it was
        # (and failing for exception types with other constructors): name it instead.
        successes = list(successes)
        if all(successes):
            return
        failures = []
        for _ in range(len(successes) - sum(successes)):
            index, exctype, value, _trace = self.error_queue.get()
            self.parent_pipes[index].close()
            self.parent_pipes[index] = None
            failures.append((index, f"{exctype.__name__}: {value}"))
        self._state = AsyncState.DEFAULT
        indices = [i for i, _ in failures]
        details = "; ".join(f"worker {i} ({self.serials[i]}): {m}" for i, m in failures)
        raise WorkerError(f"worker failed: {details}", indices, [self.serials[i] for i in indices])


def make_vector_env(
    devices: Sequence[str | DeviceSpec],
    task: Any = None,
    wrap: Wrap | None = None,
    *,
    env_kwargs: dict[str, Any] | None = None,
    step_timeout: float | None = 120.0,
    shared_memory: bool = True,
    context: str | None = None,
    monitor_dir: str | Path | None = None,
    seed: int = 0,
    adb_host: str = "127.0.0.1",
    adb_port: int | None = None,
    guard: dict[str, float] | None = None,
) -> DeviceVectorEnv:
    """An ``AsyncVectorEnv`` with one worker per device.

    Args:
        devices: adb serials and/or ``"virtual[:WxH[@DPI]]"`` specs, one per worker.
        task: The task of every worker (name, path, spec or Task).
        wrap: Applied to each worker's AndroidEnv (observation and action wrappers).
        env_kwargs: More AndroidEnv arguments (``dump_xml``, ``reset_timeout``...).
        step_timeout: Seconds a step may take before the worker counts as hung.
        shared_memory: Pass observations through shared memory (fast for images).
        context: multiprocessing start method (default: the platform's, fork on Linux).
        monitor_dir: Write SB3 Monitor CSVs (episode return, length, success) here.
        seed: Seeds the virtual phones (``seed + worker index``).
        adb_host: Host of the adb server for adb serials.
        adb_port: Port of that adb server.
        guard: Settings of each worker's :class:`DeviceFaultGuard` (``retry_interval``,
            ``probe_timeout``, ``max_down_seconds``).

    Raises:
        ValueError: No devices, a malformed spec or a duplicate serial.
    """
    specs = parse_devices(devices, adb_host, adb_port)
    fns = [env_factory(s, i, task, wrap, env_kwargs, monitor_dir, seed, guard) for i, s in enumerate(specs)]
    return DeviceVectorEnv(
        fns,
        [s.worker_serial(i) for i, s in enumerate(specs)],
        step_timeout,
        shared_memory=shared_memory,
        copy=True,
        context=context,
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
