"""Vector envs over devices: one worker process per phone, faults kept inside their worker.

:func:`make_vector_env` builds a :class:`DeviceVectorEnv` — Gymnasium's ``AsyncVectorEnv``
with one worker per device spec (adb serials such as ``emulator-5554`` or
``127.0.0.1:6101``, or ``"virtual"`` for an in-process virtual phone in the worker), the
``SAME_STEP`` autoreset Stable-Baselines3 expects, shared memory, ``copy=True`` and a step
timeout. Two workers on one phone would corrupt each other's episodes, so a serial listed
twice is refused.

Fault isolation, in two layers:

* In each worker, :class:`DeviceFaultGuard` keeps a device fault inside its episode:
  AndroidEnv already turns a fault during a step into ``truncated=True``; when the device
  then stays unreachable, the guard answers every step at once with a blank observation,
  ``truncated=True`` and ``info["device_error"]`` — so the other devices keep stepping —
  and tries to reconnect every ``retry_interval`` seconds, giving up (with an error that
  names the serial) after ``max_down_seconds``.
* :class:`DeviceVectorEnv` reports a worker that times out or dies as a
  :class:`WorkerError` naming the worker and its device; the SB3 adapter
  (:mod:`androidrl.vec_sb3`) rebuilds the vector env and carries on.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AsyncVectorEnv, AutoresetMode
from gymnasium.vector.async_vector_env import AsyncState

from androidrl.device.base import Device
from androidrl.env import AndroidEnv
from androidrl.errors import DeviceError, TaskError

_VIRTUAL = re.compile(r"^virtual(?::(\d+)x(\d+)(?:@(\d+))?)?$")

Wrap = Callable[[gym.Env], gym.Env]


@dataclass(frozen=True)
class DeviceSpec:
    """A device for one worker: an adb serial, or a virtual phone created in the worker.

    Write it as a string: ``"emulator-5554"``, ``"192.168.1.7:5555"`` (adb serials), or
    ``"virtual"`` / ``"virtual:360x800"`` / ``"virtual:360x800@160"`` (a virtual phone of that
    size and density).
    """

    serial: str
    virtual: bool = False
    width: int = 1080
    height: int = 2400
    density: int = 420
    adb_host: str = "127.0.0.1"
    adb_port: int | None = None

    @classmethod
    def parse(cls, text: str, adb_host: str = "127.0.0.1", adb_port: int | None = None) -> DeviceSpec:
        """A spec from its string form.

        Raises:
            ValueError: The string is empty or a malformed ``virtual:...`` spec.
        """
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"a device is an adb serial or 'virtual[:WxH[@DPI]]', got {text!r}")
        text = text.strip()
        match = _VIRTUAL.match(text)
        if match:
            width, height, density = match.groups()
            if not width:
                return cls(text, True)
            # Without a density, keep a real phone's: 420 dpi at 1080 pixels wide.
            dpi = int(density) if density else max(72, round(420 * int(width) / 1080))
            return cls(text, True, int(width), int(height), dpi)
        if text.startswith("virtual"):
            raise ValueError(f"bad virtual device {text!r}: write virtual, virtual:360x800 or virtual:360x800@160")
        return cls(text, False, adb_host=adb_host, adb_port=adb_port)

    def screen_size(self) -> tuple[int, int] | None:
        """The screen size if known before connecting (virtual phones)."""
        return (self.width, self.height) if self.virtual else None

    def worker_serial(self, index: int) -> str:
        """The serial of worker ``index``'s device: the adb serial, or ``virtual-<index>``."""
        return f"virtual-{index}" if self.virtual else self.serial

    def make_device(self, index: int = 0, seed: int = 0) -> Device:
        """The Device (not connected yet)."""
        if self.virtual:
            from androidrl.device.virtual import VirtualDevice

            return VirtualDevice(
                serial=self.worker_serial(index),
                width=self.width,
                height=self.height,
                density=self.density,
                seed=seed + index,
            )
        from androidrl.device.adb import AdbDevice

        return AdbDevice(self.serial, host=self.adb_host, port=self.adb_port)


def parse_devices(
    devices: Sequence[str | DeviceSpec], adb_host: str = "127.0.0.1", adb_port: int | None = None
) -> list[DeviceSpec]:
    """Specs for a list of devices; an adb serial listed twice is an error.

    Raises:
        ValueError: An empty list, a bad spec, or a duplicate serial.
    """
    if isinstance(devices, str) or not devices:
        raise ValueError(f"devices must be a non-empty list of serials or 'virtual' specs, got {devices!r}")
    specs = [d if isinstance(d, DeviceSpec) else DeviceSpec.parse(d, adb_host, adb_port) for d in devices]
    seen: set[str] = set()
    for spec in specs:
        if not spec.virtual:
            if spec.serial in seen:
                raise ValueError(
                    f"device {spec.serial} is listed twice: two workers would drive the same phone and "
                    "corrupt each other's episodes; list each serial once (use 'virtual' for more virtual phones)"
                )
            seen.add(spec.serial)
    return specs


# ---------------------------------------------------------------------------- worker side


class DeviceFaultGuard(gym.Wrapper):
    """Keeps a worker alive while its device is away; the outermost wrapper of a worker env.

    Args:
        env: The worker's env (AndroidEnv plus wrappers).
        retry_interval: Seconds between reconnection attempts while the device is down.
        probe_timeout: How long one attempt waits for the device.
        max_down_seconds: Give up (raise) after the device was down this long.
    """

    def __init__(
        self, env: gym.Env, retry_interval: float = 5.0, probe_timeout: float = 3.0, max_down_seconds: float = 300.0
    ) -> None:
        super().__init__(env)
        self.retry_interval = retry_interval
        self.probe_timeout = probe_timeout
        self.max_down_seconds = max_down_seconds
        self._down_since: float | None = None
        self._faulted = False  # the last step ended in a device fault
        self._last_try = 0.0
        self._error = ""

    @property
    def serial(self) -> str:
        """The serial of the worker's device."""
        return self.env.unwrapped.device.serial

    def wrapper_chain(self) -> list[str]:
        """Class names of this env's wrappers, outermost first (for ``env_is_wrapped``)."""
        names, env = [], self
        while isinstance(env, gym.Wrapper):
            names.append(type(env).__name__)
            env = env.env
        return names

    @property
    def device_down(self) -> bool:
        """Whether the device is currently unreachable."""
        return self._down_since is not None

    def _blank(self) -> Any:
        return _zeros(self.observation_space)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        now = time.monotonic()
        if self._down_since is not None and now - self._last_try < self.retry_interval:
            self._check_give_up(now)
            return self._blank(), {"device_error": self._error, "device_down": True}
        android = self.env.unwrapped
        timeout = android.reset_timeout
        if self._down_since is not None or self._faulted:
            # After a fault, probe briefly: waiting a whole reboot would hold up every worker.
            android.reset_timeout = self.probe_timeout
        try:
            obs, info = self.env.reset(seed=seed, options=options)
        except (DeviceError, TaskError) as err:
            self._down_since = self._down_since or now
            self._last_try = time.monotonic()
            self._error = f"{type(err).__name__}: {err}"
            self._check_give_up(self._last_try)
            return self._blank(), {"device_error": self._error, "device_down": True}
        finally:
            android.reset_timeout = timeout
        self._down_since = None
        self._faulted = False
        return obs, info

    def step(self, action: Any):
        if self._down_since is not None:  # answer at once; the next reset tries to reconnect
            return self._blank(), 0.0, False, True, {"device_error": self._error, "device_down": True}
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._faulted = bool(info.get("device_error"))
        return obs, reward, terminated, truncated, info

    def _check_give_up(self, now: float) -> None:
        if self._down_since is not None and now - self._down_since > self.max_down_seconds:
            raise DeviceError(
                f"unreachable for {now - self._down_since:.0f} s (more than {self.max_down_seconds:g} s); "
                f"last error: {self._error}",
                serial=self.serial,
            )


def _zeros(space: gym.Space) -> Any:
    """A blank member of ``space``: black images, empty paths."""
    if isinstance(space, gym.spaces.Dict):
        return {k: _zeros(s) for k, s in space.spaces.items()}
    if isinstance(space, gym.spaces.Box):
        return np.zeros(space.shape, dtype=space.dtype)
    if isinstance(space, gym.spaces.Text):
        return ""
    return space.sample()


def env_factory(
    spec: DeviceSpec,
    index: int,
    task: Any = None,
    wrap: Wrap | None = None,
    env_kwargs: dict[str, Any] | None = None,
    monitor_dir: str | Path | None = None,
    seed: int = 0,
    guard: dict[str, float] | None = None,
) -> Callable[[], gym.Env]:
    """A function that builds one worker's env: device, AndroidEnv, wrappers, Monitor, guard.

    Building it never touches the device (Gymnasium builds one copy in the parent process
    to read the spaces). ``guard`` holds :class:`DeviceFaultGuard` settings.
    """

    def make() -> gym.Env:
        env: gym.Env = AndroidEnv(
            spec.make_device(index, seed), task, screen_size=spec.screen_size(), **(env_kwargs or {})
        )
        if wrap is not None:
            env = wrap(env)
        if monitor_dir is not None:
            from stable_baselines3.common.monitor import Monitor

            env = Monitor(env, str(_monitor_path(Path(monitor_dir), index)), info_keywords=("is_success",))
        return DeviceFaultGuard(env, **(guard or {}))

    return make


def _monitor_path(directory: Path, index: int) -> Path:
    """``worker_<i>``, or ``worker_<i>.<k>`` when a resumed run or a rebuilt worker starts again.

    One CSV per segment, as a Monitor's times count from its file's ``t_start`` header; a
    file without episodes (such as the one of the env Gymnasium builds to read the spaces)
    is started over.
    """
    directory.mkdir(parents=True, exist_ok=True)
    name, segment = f"worker_{index}", 0
    while _has_episodes(directory / f"{name}.monitor.csv"):
        segment += 1
        name = f"worker_{index}.{segment}"
    return directory / name


def _has_episodes(path: Path) -> bool:
    if not path.exists():
        return False
    with path.open() as f:
        return sum(1 for _, _line in zip(range(3), f)) == 3  # the JSON header, the CSV header, a row


# ---------------------------------------------------------------------------- parent side


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
