"""DeviceFaultGuard: keeps a worker alive while its device is away.

AndroidEnv already turns a fault during a step into ``truncated=True``; when the device
then stays unreachable, the guard answers every step at once with a blank observation,
``truncated=True`` and ``info["device_error"]`` — so the other devices keep stepping —
and tries to reconnect every ``retry_interval`` seconds, giving up (with an error that
names the serial) after ``max_down_seconds``.
"""

from __future__ import annotations

import time
from typing import Any

import gymnasium as gym
import numpy as np

from androidrl.errors import DeviceError, TaskError


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
        if self._down_since is not None or self._faulted:
            # After a fault, probe briefly: waiting a whole reboot would hold up every worker.
            options = {**(options or {}), "reset_timeout": self.probe_timeout}
        try:
            obs, info = self.env.reset(seed=seed, options=options)
        except (DeviceError, TaskError) as err:
            self._down_since = self._down_since or now
            self._last_try = time.monotonic()
            self._error = f"{type(err).__name__}: {err}"
            self._check_give_up(self._last_try)
            return self._blank(), {"device_error": self._error, "device_down": True}
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
