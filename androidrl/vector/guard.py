"""DeviceFaultGuard: keeps a worker answering while its device is away.

AndroidEnv already turns a fault during a step into ``truncated=True``. The guard takes it
from there: the reset after a fault tries the device in a background thread, so it never
holds up the step (and so the other devices) for longer than a glance; until the device
answers, every step is answered at once with a blank observation, ``truncated=True`` and
``info["device_error"]`` / ``info["device_down"]``. A new attempt starts every
``retry_interval`` seconds; after ``max_down_seconds`` the guard gives up with an error
naming the serial. An ``OSError`` in a step or a reset (a full disk under the Monitor's
CSV or the observation files, say) ends that episode with its reason instead of killing
the worker.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import gymnasium as gym

from androidrl.errors import DeviceError, TaskError
from androidrl.vector.settings import VectorSettings
from androidrl.vector.shared import blank

# How long a reset after a fault waits for its attempt before answering blank: enough for
# a device that is back at once, short enough not to stall the other workers.
GLANCE_SECONDS = 0.1


class _Attempt(threading.Thread):
    """One reconnection attempt: a reset of the env that waits at most the probe timeout."""

    def __init__(self, env: gym.Env, seed: int | None, options: dict[str, Any]) -> None:
        super().__init__(daemon=True, name="androidrl-reconnect")
        self.env, self.seed, self.options = env, seed, options
        self.result: tuple[Any, dict[str, Any]] | None = None
        self.error = ""

    def run(self) -> None:
        try:
            self.result = self.env.reset(seed=self.seed, options=self.options)
        except (DeviceError, TaskError, OSError) as err:
            self.error = f"{type(err).__name__}: {err}"


class DeviceFaultGuard(gym.Wrapper):
    """Keeps a worker answering while its device is away; the outermost wrapper of a worker env.

    ``reset(options={"probe": True})`` treats the device as faulted (a restarted worker
    uses it, so a dead device never makes it wait the whole ``reset_timeout``).

    Args:
        env: The worker's env (AndroidEnv plus wrappers).
        settings: Its ``retry_interval`` (seconds between reconnection attempts while the
            device is down), ``probe_timeout`` (how long one attempt waits for the device) and
            ``max_down_seconds`` (give up, raising :class:`DeviceError`, after the device was
            down this long); default: :class:`~androidrl.vector.settings.VectorSettings`'s.
    """

    def __init__(self, env: gym.Env, settings: VectorSettings | None = None) -> None:
        super().__init__(env)
        settings = settings or VectorSettings()
        self.retry_interval = settings.retry_interval
        self.probe_timeout = settings.probe_timeout
        self.max_down_seconds = settings.max_down_seconds
        self._down_since: float | None = None
        self._faulted = False  # the last step ended in a device fault
        self._attempt: _Attempt | None = None
        self._started = 0.0  # when the last attempt started
        self._error = ""
        self._failed_reset = ""  # why the last reset could not finish (a write error): the next step ends it

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

    def _blank(self) -> tuple[Any, dict[str, Any]]:
        # (a new worker's first attempt may not have failed yet: there is no error to name, only the wait)
        return blank(self.observation_space), {"device_error": self._error or "reconnecting", "device_down": True}

    def _write_error(self, error: str) -> tuple[Any, dict[str, Any]]:
        """A blank observation and the info of an error on this machine, not the device's."""
        return blank(self.observation_space), {"device_error": error, "device_down": False}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        options = dict(options or {})
        probe = options.pop("probe", False)
        self._failed_reset = ""
        if not (probe or self._faulted or self._down_since is not None):
            return self._reset_now(seed, options)
        return self._reset_in_background(seed, options, glance=probe or self._faulted)

    def _reset_now(self, seed: int | None, options: dict[str, Any]):
        try:
            return self.env.reset(seed=seed, options=options or None)
        except (DeviceError, TaskError) as err:
            self._error = f"{type(err).__name__}: {err}"
            self._down_since = time.monotonic()
            return self._blank()
        except OSError as err:  # e.g. a full disk under the observation files: the device is fine
            self._failed_reset = f"{type(err).__name__}: {err}"
            return self._write_error(self._failed_reset)

    def _reset_in_background(self, seed: int | None, options: dict[str, Any], glance: bool):
        """Try the device in the background; wait a glance for it only right after a fault (or on a probe).

        While the device stays down, every step ends in a reset: waiting even a glance there
        would slow every step of the other devices for as long as this one is away.
        """
        now = time.monotonic()
        self._down_since = self._down_since or now
        self._faulted = False
        attempt = self._attempt
        if attempt is None and now - self._started >= self.retry_interval:
            # After a fault, probe briefly: waiting a whole reboot would hold up the worker.
            attempt = self._attempt = _Attempt(self.env, seed, {**options, "reset_timeout": self.probe_timeout})
            self._started = now
            attempt.start()
        if attempt is not None:
            attempt.join(GLANCE_SECONDS if glance else 0)
            if not attempt.is_alive():
                self._attempt = None
                if attempt.result is not None:
                    self._down_since, self._error, self._started = None, "", 0.0
                    return attempt.result
                self._error = attempt.error
        self._check_give_up(time.monotonic())
        return self._blank()

    def step(self, action: Any):
        if self._down_since is not None:  # answer at once; the next reset tries to reconnect
            obs, info = self._blank()
            return obs, 0.0, False, True, info
        if self._failed_reset:  # the episode never began: end it, so that the next reset tries again
            obs, info = self._write_error(self._failed_reset)
            self._failed_reset = ""
            return obs, 0.0, False, True, info
        try:
            obs, reward, terminated, truncated, info = self.env.step(action)
        except OSError as err:  # e.g. a full disk under the Monitor's CSV: end the episode, keep the worker
            obs, info = self._write_error(f"{type(err).__name__}: {err}")
            return obs, 0.0, False, True, info
        self._faulted = bool(info.get("device_error"))
        if self._faulted:
            self._error = info["device_error"]
        return obs, reward, terminated, truncated, info

    def _check_give_up(self, now: float) -> None:
        if self._down_since is not None and now - self._down_since > self.max_down_seconds:
            raise DeviceError(
                f"unreachable for {now - self._down_since:.0f} s (more than {self.max_down_seconds:g} s); "
                f"last error: {self._error}",
                serial=self.serial,
            )

    def close(self) -> None:
        if self._attempt is not None:
            self._attempt.join(self.probe_timeout + 1)  # it uses the device that close() releases
        super().close()
