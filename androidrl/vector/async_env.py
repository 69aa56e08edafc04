"""DeviceVectorEnv: one worker process per device (or a few devices per worker), faults kept inside their worker.

:func:`make_vector_env` builds it from device specs (adb serials such as ``emulator-5554``
or ``127.0.0.1:6101``, or ``"virtual[:WxH[@DPI]]"`` for a virtual phone made in the
worker). Two workers on one phone would corrupt each other's episodes, so a serial listed
twice is refused.

A step costs what it must and no more: the workers write observations into shared memory
(:mod:`androidrl.vector.shared`), each worker gets one message and sends one answer, the
episode that ends resets in the worker at once (``SAME_STEP`` autoreset, as
Stable-Baselines3 expects), infos stay one dict per env (the SB3 face takes them as they
are; the Gymnasium face batches them), and one ``select`` waits on every worker with the
timeout.

Faults, in three layers:

* In each worker, :class:`~androidrl.vector.guard.DeviceFaultGuard` keeps a device fault
  inside its episode and answers blank, truncated steps at once while the device is away.
* A worker that answers later than ``fault_timeout`` (plus twice its slowest recent answer,
  a hang waited out not counted) after the step was sent is left behind: its envs' episodes end now (``truncated``,
  ``info["device_error"]``) and the others step on; it is reset in the background and its
  envs come back with a fresh episode once it answers. A worker that dies, fails or stays
  silent past ``step_timeout`` is killed (SIGKILL after a short grace) and restarted alone
  — at most ``max_restarts`` times in ``restart_window`` seconds, then a
  :class:`WorkerError` names it.
* While more than ``max_blank_share`` of the envs are down, stepping waits for devices
  (saying so in the log) instead of feeding blank steps to the learner; a device down for
  longer than ``max_down_seconds`` is a :class:`WorkerError` naming it.
"""

from __future__ import annotations

import logging
import shutil
import statistics
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array, iterate

from androidrl.device.spec import DeviceSpec, parse_devices
from androidrl.vector.lifeline import temporary_directory
from androidrl.vector.settings import VectorSettings
from androidrl.vector.shared import blank
from androidrl.vector.transport import LocalProcesses, Transport, Worker, WorkerGone
from androidrl.vector.workers import Wrap, env_factory

logger = logging.getLogger(__name__)

READY, BUSY, LATE, RECOVERING = "ready", "busy", "late", "recovering"
# Until a worker has answered a few times, it may be this much slower before it is left behind.
WARMUP_ANSWERS, WARMUP_SECONDS = 4, 10.0


class WorkerError(RuntimeError):
    """A worker of a :class:`DeviceVectorEnv` failed beyond recovery.

    Attributes:
        indices: The envs concerned.
        serials: Their devices.
    """

    def __init__(self, message: str, indices: list[int], serials: list[str]) -> None:
        super().__init__(message)
        self.indices = indices
        self.serials = serials


@dataclass
class EnvStep:
    """One env's part of a vector step (before packing for Gymnasium or SB3).

    ``obs`` is None when it is in the shared-memory slot; ``final`` is ``(final_obs,
    reset_info)`` when the episode ended and a new one began.
    """

    obs: Any
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]
    final: tuple[Any, dict[str, Any]] | None


@dataclass(eq=False)
class _Worker(Worker):
    """A worker and the vector env's bookkeeping about it."""

    state: str = READY
    pending: deque[str] = field(default_factory=deque)  # commands sent, answers awaited, oldest first
    sent_at: float = 0.0  # when the oldest pending command was sent
    reason: str = ""  # why the worker is recovering
    durations: deque[float] = field(default_factory=lambda: deque(maxlen=32))
    restarts: deque[float] = field(default_factory=deque)
    delivery: list[EnvStep] | None = None  # the first step of its envs after a recovery, not yet returned


def _failure(payload: str) -> tuple[str, str]:
    """A failed worker's answer (``Error: message`` then its traceback): the reason, and the traceback."""
    first, _, trace = payload.strip().partition("\n")
    return f"failed: {first}", trace


class DeviceVectorEnv(VectorEnv):
    """Envs over devices in worker processes, with per-worker fault recovery.

    Args:
        env_fns: One function per env that builds it (see :func:`~androidrl.vector.workers.env_factory`).
        serials: The device of each env, for messages.
        settings: Workers per process, how they start and how faults are handled (``step_timeout``,
            ``start_method``, ``max_restarts``...: see :class:`~androidrl.vector.settings.VectorSettings`).
        shared_memory: Observations through shared memory (when the space allows it).
        copy: Return copies of the observations (set False only if you copy them yourself).
        cleanup: Directories to remove on :meth:`close` (the workers' observation files); local
            workers remove them if this process dies.
        transport: How workers are reached (default: :class:`~androidrl.vector.transport.LocalProcesses`
            with the settings' ``start_method`` and ``shared_memory``; Ray actors in :mod:`androidrl.vector.cluster`).
    """

    def __init__(
        self,
        env_fns: Sequence[Callable[[], gym.Env]],
        serials: Sequence[str],
        settings: VectorSettings | None = None,
        *,
        shared_memory: bool = True,
        copy: bool = True,
        cleanup: Sequence[str | Path] = (),
        transport: Transport | None = None,
    ) -> None:
        if not env_fns or len(env_fns) != len(serials):
            raise ValueError(f"need one serial per env function, got {len(env_fns)} functions and {len(serials)}")
        self.settings = settings = settings or VectorSettings()
        self.num_envs = len(env_fns)
        self.serials = list(serials)
        self.step_timeout = settings.step_timeout
        self.fault_timeout = settings.fault_timeout
        self.max_restarts = settings.max_restarts
        self.restart_window = settings.restart_window
        self.max_down_seconds = settings.max_down_seconds
        self.max_blank_share = settings.max_blank_share
        self.copy = copy
        self._cleanup = [Path(p) for p in cleanup]
        self.transport = transport or LocalProcesses(settings.start_method, shared_memory, leftovers=self._cleanup)
        probe = env_fns[0]()  # built, never reset: constructors do not touch the device
        try:
            self.single_observation_space = probe.observation_space
            self.single_action_space = probe.action_space
            self.metadata = {**probe.metadata, "autoreset_mode": AutoresetMode.SAME_STEP}
            self.render_mode = probe.render_mode
        finally:
            probe.close()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._blank = blank(self.single_observation_space)
        self.transport.prepare(self.single_observation_space, self.num_envs)
        self._buffer = self.transport.buffer
        per = settings.envs_per_worker
        groups = [list(range(self.num_envs))[i : i + per] for i in range(0, self.num_envs, per)]
        self._workers = [_Worker(i, slots, [env_fns[s] for s in slots]) for i, slots in enumerate(groups)]
        self._down_since: list[float | None] = [None] * self.num_envs
        self.restarts = 0  # how many worker restarts so far
        self._closed = False
        try:
            for worker in self._workers:
                self._start(worker)
            self.transport.started(self._workers)
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ Gymnasium API

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        """Reset every env (``seed`` an int for ``seed + i``, or one per env); returns (obs, batched infos)."""
        obs, infos = self.reset_envs(seed=seed, options=options)
        batched: dict[str, Any] = {}
        for i, info in enumerate(infos):
            batched = self._add_info(batched, info, i)
        return obs, batched

    def step(self, actions: Any):
        """Step every env; returns Gymnasium's (obs, rewards, terminated, truncated, infos), ``SAME_STEP`` autoreset."""
        self.step_async(actions)
        obs, steps = self.step_wait_envs()
        infos: dict[str, Any] = {}
        for i, step in enumerate(steps):
            info = step.info
            if step.final is not None:
                info = {**step.final[1], "final_obs": step.final[0], "final_info": step.info}
            infos = self._add_info(infos, info, i)
        rewards = np.array([s.reward for s in steps], dtype=np.float64)
        terminated = np.array([s.terminated for s in steps], dtype=bool)
        truncated = np.array([s.truncated for s in steps], dtype=bool)
        return obs, rewards, terminated, truncated, infos

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call ``name`` (a method, or read an attribute) on every env."""
        return tuple(self.command("call", (name, args, kwargs)))

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """An attribute of every env (through its wrappers)."""
        return tuple(self.command("get", name))

    def set_attr(self, name: str, values: Any) -> None:
        """Set an attribute on every env: one value for all, or a list with one per env."""
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError(f"set_attr needs one value per env ({self.num_envs}), got {len(values)}")
        for worker in self._workers:
            self._ask(worker, "set", (name, [values[s] for s in worker.slots]))

    def close_extras(self, **kwargs: Any) -> None:
        """Stop every worker (quietly; a stuck one is killed) and remove the workers' files."""
        if self._closed:
            return
        self._closed = True
        self.transport.close(self._workers)
        for directory in self._cleanup:
            shutil.rmtree(directory, ignore_errors=True)

    # ------------------------------------------------------------------ the core, per env

    @property
    def processes(self) -> list[Any]:
        """The worker processes (local transport)."""
        return [self.transport.process(w) for w in self._workers]

    def worker_of(self, env_index: int) -> int:
        """The worker that runs env ``env_index``."""
        return next(w.index for w in self._workers if env_index in w.slots)

    def reset_envs(self, *, seed: Any = None, options: dict[str, Any] | None = None) -> tuple[Any, list[dict]]:
        """Reset every env; returns the batched observations and one info dict per env.

        Raises:
            WorkerError: A worker failed beyond its restart budget.
        """
        self._check_open()
        seeds = self._seeds(seed)
        for worker in self._workers:
            self._settle(worker)
            self._send(worker, "reset", ([seeds[s] for s in worker.slots], options))
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        items: list[Any] = [None] * self.num_envs
        for worker in self._workers:
            for slot, (obs, info) in zip(worker.slots, self._reset_answer(worker, seeds, options)):
                items[slot], infos[slot] = obs, info
            worker.delivery = None
        self._down_since = [time.monotonic() if info.get("device_down") else None for info in infos]
        return self._batch(items), infos

    def step_async(self, actions: Any) -> None:
        """Send each ready worker its envs' actions."""
        self._check_open()
        actions = list(iterate(self.action_space, actions))
        self._started = time.monotonic()
        self._expire(self._started)
        for worker in self._workers:
            if worker.state == READY and worker.delivery is None:
                self._send(worker, "step", [actions[s] for s in worker.slots])
                worker.state = BUSY

    def step_wait_envs(self) -> tuple[Any, list[EnvStep]]:
        """Gather the step: the batched observations and one :class:`EnvStep` per env.

        Raises:
            WorkerError: A worker failed beyond its restart budget, or a device stayed
                down longer than ``max_down_seconds``.
        """
        steps: list[EnvStep | None] = [None] * self.num_envs
        self._gather(steps, self._started)
        self._fill(steps)
        if self._down_share(steps) > self.max_blank_share:
            self._wait_for_devices(steps)
        self._track_down(steps)
        return self._batch([s.obs for s in steps]), steps

    def command(self, command: str, data: Any, indices: Sequence[int] | None = None) -> list[Any]:
        """Run a worker command (``call``, ``get``, ``has``) on the envs ``indices`` (default all), in order."""
        wanted = list(range(self.num_envs)) if indices is None else [int(i) for i in indices]
        by_slot: dict[int, Any] = {}
        for worker in self._workers:
            if any(s in wanted for s in worker.slots):
                by_slot.update(zip(worker.slots, self._ask(worker, command, data)))
        return [by_slot[i] for i in wanted]

    # ------------------------------------------------------------------ workers

    def _start(self, worker: _Worker) -> None:
        self.transport.start(worker)
        worker.pending.clear()
        worker.state = READY
        worker.delivery = None

    def _restart(self, worker: _Worker, reason: str, trace: str = "") -> None:
        """Replace a dead, failed or hung worker; its envs recover in the background.

        A transport that restarts its workers itself (Ray) is only waited for. ``trace`` (a failed
        worker's traceback) goes to the log and to the error of a worker given up on, not to the
        envs' ``device_error``: that one is a line the progress bar and a final error quote.
        """
        more = f"\n{trace}" if trace else ""
        worker.pending.clear()
        if self.transport.restarts_itself:
            self._recover(worker, f"worker {reason}")
            return
        self.transport.stop(worker)
        now = time.monotonic()
        while worker.restarts and now - worker.restarts[0] > self.restart_window:
            worker.restarts.popleft()
        if len(worker.restarts) >= self.max_restarts:
            times = f"restarted {len(worker.restarts)} times in {self.restart_window:g} s already"
            raise self._error(worker, f"{reason}; {times}, giving up{more}")
        worker.restarts.append(now)
        self.restarts += 1
        logger.warning("restarting worker %d (%s): %s%s", worker.index, self._names(worker), reason, more)
        self._start(worker)
        self._recover(worker, f"worker {reason}; restarted")

    def _recover(self, worker: _Worker, reason: str) -> None:
        """Queue a reset that probes the device briefly; its answer brings the envs back."""
        worker.state = RECOVERING
        worker.reason = worker.reason or reason
        self._send(worker, "reset", ([None] * len(worker.slots), {"probe": True}))

    def _send(self, worker: _Worker, command: str, data: Any) -> None:
        if not worker.pending:
            worker.sent_at = time.monotonic()
        worker.pending.append(command)
        try:
            self.transport.send(worker, command, data)
        except WorkerGone:  # its answer never comes
            self._restart(worker, "died")

    def _receive(self, worker: _Worker) -> tuple[str, str, Any, float] | None:
        """The next answer as (command, status, payload, seconds it took), or None when the worker died.

        A worker that died is restarted.
        """
        try:
            status, payload = self.transport.receive(worker)
        except WorkerGone:
            self._restart(worker, "died")
            return None
        now = time.monotonic()
        command = worker.pending.popleft()
        took, worker.sent_at = now - worker.sent_at, now
        return command, status, payload, took

    def _wait(self, workers: Sequence[_Worker], timeout: float) -> list[_Worker]:
        return self.transport.ready(workers, timeout) if workers else []

    def _ask(self, worker: _Worker, command: str, data: Any) -> Any:
        """Send a command to a quiet worker and wait for its answer (after what it owes)."""
        self._check_open()
        self._settle(worker)
        self._send(worker, command, data)
        while True:
            if not self._wait([worker], self.step_timeout):
                self._restart(worker, f"did not answer `{command}` within {self.step_timeout:g} s")
                raise self._error(worker, f"did not answer `{command}` within {self.step_timeout:g} s")
            answer = self._receive(worker)
            if answer is None:
                raise self._error(worker, f"died during `{command}`")
            got, status, payload, _ = answer
            if status == "error":
                raise RuntimeError(f"worker {worker.index} ({self._names(worker)}): {payload.splitlines()[0]}")
            if got == command and not worker.pending:
                return payload

    def _settle(self, worker: _Worker) -> None:
        """Take every answer a worker still owes (a recovery's comes back as a delivery)."""
        while worker.pending:
            if not self._wait([worker], self.step_timeout):
                self._restart(worker, f"did not answer within {self.step_timeout:g} s")
                continue
            self._answer(worker, None)

    # ------------------------------------------------------------------ stepping

    def _soft_deadline(self, worker: _Worker, started: float) -> float:
        if len(worker.durations) < WARMUP_ANSWERS:  # its first answers are slow (first frame, first dump)
            return started + min(self.step_timeout, self.fault_timeout + WARMUP_SECONDS)
        return started + self.fault_timeout + 2 * max(worker.durations)

    def _typical(self, worker: _Worker, took: float, payload: list[tuple]) -> bool:
        """Whether a step answered in time shows how long this worker's steps take (and so its deadline).

        An answer with a reset always does (a reset may legitimately take seconds). One
        without a reset that took several times the usual and over ``fault_timeout`` was
        a hang that ended in time: counting it would let the next fault hold every device
        that long (each such answer could double the deadline).
        """
        if took <= self.fault_timeout or len(worker.durations) < WARMUP_ANSWERS:
            return True
        return any(answer[-1] is not None for answer in payload) or took <= 4 * statistics.median(worker.durations)

    def _gather(self, steps: list[EnvStep | None], started: float) -> None:
        while True:
            watching = [w for w in self._workers if w.pending]
            busy = [w for w in watching if w.state == BUSY]
            now = time.monotonic()
            timeout = max(0.0, min(self._soft_deadline(w, started) for w in busy) - now) if busy else 0.0
            ready = self._wait(watching, timeout)
            if not ready:
                if not busy:
                    return
                now = time.monotonic()
                for worker in busy:
                    if now >= self._soft_deadline(worker, started):
                        late = now - started
                        worker.state = LATE
                        self._recover(worker, f"no answer within {late:.1f} s")
                continue
            for worker in ready:
                self._answer(worker, steps)

    def _answer(self, worker: _Worker, steps: list[EnvStep | None] | None) -> None:
        """Take one answer: a step's results, or a recovery that brings the envs back."""
        state = worker.state
        answer = self._receive(worker)
        if answer is None:
            return
        command, status, payload, took = answer
        if status == "error":
            self._restart(worker, *_failure(payload))
            return
        if command == "step" and state == BUSY:
            if self._typical(worker, took, payload):  # (a hang waited out must not widen the deadline)
                worker.durations.append(took)
            for slot, (obs, reward, terminated, truncated, info, final) in zip(worker.slots, payload):
                if info.get("device_error") and self.transport.where(worker):  # a device elsewhere: name its host
                    info = {**info, "device_error": self._fault(worker, slot, info["device_error"])}
                if steps is not None:
                    steps[slot] = EnvStep(obs, reward, terminated, truncated, info, final)
            worker.state = READY
        elif command == "reset" and state in (LATE, RECOVERING) and not worker.pending:
            reason, worker.reason = worker.reason, ""
            worker.delivery = [
                EnvStep(
                    obs,
                    0.0,
                    False,
                    True,
                    {
                        "device_error": self._fault(worker, slot, info.get("device_error") or reason),
                        "device_down": bool(info.get("device_down")),
                    },
                    (self._blank, info),
                )
                for slot, (obs, info) in zip(worker.slots, payload)
            ]
            worker.state = READY
        # else: the late answer to a step whose episode already ended for the learner

    def _fill(self, steps: list[EnvStep | None]) -> None:
        """Envs without an answer this step: the recovered ones come back, the others report down."""
        for worker in self._workers:
            if steps[worker.slots[0]] is not None:
                continue
            if worker.delivery is not None:
                for slot, step in zip(worker.slots, worker.delivery):
                    steps[slot] = step
                worker.delivery = None
                continue
            reason = worker.reason or "recovering"
            for slot in worker.slots:
                info = {"device_error": self._fault(worker, slot, reason), "device_down": True}
                steps[slot] = EnvStep(self._blank, 0.0, False, True, info, (self._blank, dict(info)))

    def _expire(self, now: float) -> None:
        """Kill and restart the workers silent for longer than ``step_timeout``.

        A transport that restarts its workers itself is only waited for: ``max_down_seconds`` ends the wait.
        """
        if self.transport.restarts_itself:
            return
        for worker in self._workers:
            if worker.pending and worker.state != BUSY and now - worker.sent_at > self.step_timeout:
                self._restart(worker, f"did not answer within {self.step_timeout:g} s")

    def _down_share(self, steps: list[EnvStep]) -> float:
        return sum(bool(s.info.get("device_down")) for s in steps) / self.num_envs

    def _wait_for_devices(self, steps: list[EnvStep]) -> None:
        """Hold the step while too many envs are down: try their devices until enough come back."""
        down = [i for i, s in enumerate(steps) if s.info.get("device_down")]
        names = ", ".join(self._device(self._workers[self.worker_of(i)], i) for i in down)  # (and their hosts)
        logger.warning("%d of %d devices are down (%s): waiting for them", len(down), self.num_envs, names)
        self._track_down(steps)
        while self._down_share(steps) > self.max_blank_share:
            for worker in self._workers:
                if worker.state == READY and worker.delivery is None and any(s in down for s in worker.slots):
                    self._recover(worker, "down")
            until = time.monotonic() + 1.0
            while any(w.pending for w in self._workers) and time.monotonic() < until:
                watching = [w for w in self._workers if w.pending]
                for worker in self._wait(watching, max(0.0, until - time.monotonic())):
                    self._answer(worker, None)
            self._expire(time.monotonic())
            for worker in self._workers:
                if worker.delivery is not None:
                    for slot, step in zip(worker.slots, worker.delivery):
                        steps[slot] = step
                    worker.delivery = None
            self._track_down(steps)
            down = [i for i, s in enumerate(steps) if s.info.get("device_down")]

    def _track_down(self, steps: list[EnvStep]) -> None:
        now = time.monotonic()
        for i, step in enumerate(steps):
            if not step.info.get("device_down"):
                self._down_since[i] = None
                continue
            since = self._down_since[i] = self._down_since[i] or now
            if now - since > self.max_down_seconds:
                worker = self._workers[self.worker_of(i)]
                raise self._error(
                    worker,
                    f"device {self.serials[i]} down for {now - since:.0f} s (more than max_down_seconds "
                    f"{self.max_down_seconds:g}); last error: {step.info.get('device_error')}",
                )

    def _reset_answer(self, worker: _Worker, seeds: list[Any], options: Any) -> list[tuple[Any, dict]]:
        """Wait for a worker's reset; a worker that dies, fails or hangs meanwhile is restarted and reset again."""
        again = ([seeds[s] for s in worker.slots], options)
        while True:
            if not self._wait([worker], self.step_timeout):
                self._restart(worker, f"did not answer `reset` within {self.step_timeout:g} s")
                self._send(worker, "reset", again)  # after the recovery's probe, which settles a dead device
                continue
            answer = self._receive(worker)
            if answer is None:
                self._send(worker, "reset", again)
                continue
            command, status, payload, took = answer
            if status == "error":
                self._restart(worker, *_failure(payload))
                self._send(worker, "reset", again)
                continue
            if command == "reset" and not worker.pending:
                worker.durations.append(took)
                worker.state, worker.reason = READY, ""
                return payload

    # ------------------------------------------------------------------ helpers

    def _batch(self, items: list[Any]) -> Any:
        if self._buffer is not None:
            batch = self._buffer.batch()
            for slot, obs in enumerate(items):
                if obs is not None:
                    if isinstance(batch, dict):
                        for key in batch:
                            batch[key][slot] = obs[key]
                    else:
                        batch[slot] = obs
            return batch
        out = create_empty_array(self.single_observation_space, self.num_envs)
        return concatenate(self.single_observation_space, items, out)

    def _seeds(self, seed: Any) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, (int, np.integer)):
            return [int(seed) + i for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"need one seed per env ({self.num_envs}), got {len(seeds)}")
        return seeds

    def _names(self, worker: _Worker) -> str:
        return ", ".join(self.serials[s] for s in worker.slots)

    def _device(self, worker: _Worker, slot: int) -> str:
        """Env ``slot``'s device, for messages: its serial, and its host when the worker runs on another one."""
        host = self.transport.where(worker)
        return f"{self.serials[slot]} on host {host}" if host else self.serials[slot]

    def _fault(self, worker: _Worker, slot: int, what: str) -> str:
        """A fault of env ``slot`` (``info["device_error"]``), naming its device (and host)."""
        return f"{self._device(worker, slot)}: {what}"

    def _error(self, worker: _Worker, what: str) -> WorkerError:
        serials = [self.serials[s] for s in worker.slots]
        devices = ", ".join(self._device(worker, s) for s in worker.slots)
        return WorkerError(f"worker {worker.index} ({devices}): {what}", list(worker.slots), serials)

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("this vector env is closed")


def make_vector_env(
    devices: Sequence[str | DeviceSpec],
    task: Any = None,
    wrap: Wrap | None = None,
    *,
    settings: VectorSettings | None = None,
    env_kwargs: dict[str, Any] | None = None,
    shared_memory: bool = True,
    monitor_dir: str | Path | None = None,
    seed: int = 0,
    adb_host: str = "127.0.0.1",
    adb_port: int | None = None,
) -> DeviceVectorEnv:
    """A :class:`DeviceVectorEnv` with one env per device.

    Args:
        devices: adb serials and/or ``"virtual[:WxH[@DPI]]"`` specs (or :class:`DeviceSpec`), one per env.
        task: The task of every env (name, path, spec or Task).
        wrap: Applied to each env's AndroidEnv (observation and action wrappers).
        settings: Workers per process and fault handling (:class:`~androidrl.vector.settings.VectorSettings`),
            shared by the vector env and each worker's :class:`~androidrl.vector.guard.DeviceFaultGuard`.
        env_kwargs: More AndroidEnv arguments (``dump_xml``, ``reset_timeout``...).
        shared_memory: Pass observations through shared memory.
        monitor_dir: Write SB3 Monitor CSVs (episode return, length, success) here.
        seed: Seeds the virtual phones (``seed + env index``).
        adb_host: Host of the adb server for adb serials.
        adb_port: Port of that adb server.

    Raises:
        ValueError: No devices, a malformed spec or a duplicate serial.
    """
    specs = parse_devices(devices, adb_host, adb_port)
    settings = settings or VectorSettings()
    env_kwargs = dict(env_kwargs or {})
    cleanup = []
    # Observation files (if any) go where close() removes them, even those of a killed worker; if this process is
    # killed, its workers remove them (see androidrl.vector.lifeline).
    if "save_dir" not in env_kwargs:
        root = temporary_directory()
        cleanup.append(root)
    fns = [
        env_factory(
            spec,
            i,
            task,
            wrap,
            {**env_kwargs, "save_dir": env_kwargs.get("save_dir") or Path(cleanup[0], f"env_{i}")},
            monitor_dir,
            seed,
            settings,
        )
        for i, spec in enumerate(specs)
    ]
    return DeviceVectorEnv(
        fns,
        [s.worker_serial(i) for i, s in enumerate(specs)],
        settings,
        shared_memory=shared_memory,
        cleanup=cleanup,
    )
