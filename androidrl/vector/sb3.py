"""Stable-Baselines3's ``VecEnv`` over a :class:`~androidrl.vector.async_env.DeviceVectorEnv`.

SB3 does not take Gymnasium vector envs. This adapter gives SB3 what it expects: per-env
info dicts with ``terminal_observation`` and ``TimeLimit.truncated`` on the step that ends
an episode (Gymnasium's ``SAME_STEP`` autoreset already returns the reset observation on
that step), the Monitor's ``episode`` at the top level of the info, ``get_attr`` and
``env_method`` that check an attribute exists before asking the workers (a missing one
would kill them all), ``env_is_wrapped``, and seeding.

When a worker dies or hangs, the adapter closes the vector env, builds a new one, ends
every episode (``done``, with the last observation as the terminal one) and carries on —
up to ``max_rebuilds`` times, then it raises an error naming the devices.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from androidrl.device.spec import parse_devices
from androidrl.vector.async_env import DeviceVectorEnv, WorkerError, make_vector_env
from androidrl.vector.workers import env_factory

logger = logging.getLogger(__name__)


def unbatch_infos(infos: dict[str, Any], n: int) -> list[dict[str, Any]]:
    """Gymnasium's batched info dict (values per env plus ``_key`` masks) as one dict per env."""
    out: list[dict[str, Any]] = [{} for _ in range(n)]
    for key, value in infos.items():
        if key.startswith("_"):
            continue
        mask = infos.get(f"_{key}", np.ones(n, dtype=bool))
        parts = unbatch_infos(value, n) if isinstance(value, dict) else None
        for i in range(n):
            if mask[i]:
                item = parts[i] if parts is not None else value[i]
                out[i][key] = item.item() if isinstance(item, np.generic) else item
    return out


class SB3VecEnv(VecEnv):
    """SB3's VecEnv over a DeviceVectorEnv, rebuilding it when a worker fails.

    Args:
        make_venv: Builds the vector env (called again to rebuild it).
        max_rebuilds: How many times a failed vector env is rebuilt before giving up.
    """

    def __init__(self, make_venv: Callable[[], DeviceVectorEnv], max_rebuilds: int = 3) -> None:
        self._make_venv = make_venv
        self.max_rebuilds = max_rebuilds
        self.rebuilds = 0
        self.venv = make_venv()
        super().__init__(self.venv.num_envs, self.venv.single_observation_space, self.venv.single_action_space)
        self._actions: np.ndarray | None = None
        self._last_obs: Any = None

    # ------------------------------------------------------------------ stepping

    def reset(self) -> Any:
        """Reset every env (with the seeds and options set before, as SB3 does)."""
        seeds = [s for s in self._seeds] if any(s is not None for s in self._seeds) else None
        obs, infos = self._reset_venv(seed=seeds, options=self._options[0] if self._options else None)
        self.reset_infos = unbatch_infos(infos, self.num_envs)
        self._reset_seeds()
        self._reset_options()
        self._last_obs = obs
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self):
        try:
            obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        except WorkerError as err:
            return self._rebuild(err)
        dones = terminated | truncated
        per_env = unbatch_infos(infos, self.num_envs)
        for i, info in enumerate(per_env):
            final_info = info.pop("final_info", None)
            final_obs = info.pop("final_obs", None)
            if dones[i]:
                # The episode's last info for SB3 (Monitor's "episode" included); the new
                # episode's reset info goes where SB3 keeps those.
                self.reset_infos[i] = info
                per_env[i] = info = dict(final_info) if isinstance(final_info, dict) else {}
                info["terminal_observation"] = final_obs
                info["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        self._last_obs = obs
        return obs, rewards.astype(np.float32), dones, per_env

    def _reset_venv(self, **kwargs: Any):
        """Reset the vector env, rebuilding it (within ``max_rebuilds``) while a worker fails."""
        while True:
            try:
                return self.venv.reset(**kwargs)
            except WorkerError as err:
                self._replace_venv(err)

    def _replace_venv(self, err: WorkerError) -> None:
        self.rebuilds += 1
        self.venv.close(terminate=True)
        if self.rebuilds > self.max_rebuilds:
            raise RuntimeError(
                f"giving up after {self.max_rebuilds} rebuilds of the vector env; last failure: {err} "
                f"(devices: {', '.join(err.serials)})"
            ) from err
        logger.warning("rebuilding the vector env (%d/%d) after: %s", self.rebuilds, self.max_rebuilds, err)
        self.venv = self._make_venv()

    def _rebuild(self, err: WorkerError):
        """Replace a broken vector env; end every episode so the agent starts afresh."""
        self._replace_venv(err)
        last = self._last_obs
        obs, _ = self._reset_venv()
        infos = [
            {"terminal_observation": _index(last, i), "TimeLimit.truncated": True, "vector_rebuilt": str(err)}
            for i in range(self.num_envs)
        ]
        self._last_obs = obs
        return obs, np.zeros(self.num_envs, dtype=np.float32), np.ones(self.num_envs, dtype=bool), infos

    def close(self) -> None:
        self.venv.close()

    def render(self, mode: str | None = None) -> Any:
        return None

    # ------------------------------------------------------------------ attributes

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        return list(self._get_indices(indices))

    def _has(self, name: str) -> list[bool]:
        return list(self.venv.call("has_wrapper_attr", name))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """An attribute of each env; AttributeError (workers untouched) if any env lacks it."""
        if not all(self._has(attr_name)):
            raise AttributeError(f"the envs have no attribute {attr_name!r}")
        values = self.venv.get_attr(attr_name)
        return [values[i] for i in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        """Whether every env has ``attr_name`` (asked without risking the workers)."""
        return all(self._has(attr_name))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute on the chosen envs (all of them: Gymnasium sets it everywhere)."""
        if self._indices(indices) != list(range(self.num_envs)):
            raise NotImplementedError("set_attr on some envs only: the Gymnasium vector env sets every env")
        self.venv.set_attr(attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """Call a method of each env (AttributeError, workers untouched, if it is missing)."""
        if not all(self._has(method_name)):
            raise AttributeError(f"the envs have no method {method_name!r}")
        results = self.venv.call(method_name, *method_args, **method_kwargs)
        return [results[i] for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        """Whether each env has ``wrapper_class`` in its wrapper chain (False if it cannot tell)."""
        if not all(self._has("wrapper_chain")):  # only DeviceFaultGuard, outermost, knows its chain
            return [False for _ in self._indices(indices)]
        chains = self.venv.call("wrapper_chain")
        return [wrapper_class.__name__ in chains[i] for i in self._indices(indices)]

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next reset: env i gets ``seed + i``."""
        self._seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        return self._seeds


def make_sb3_vec_env(
    devices: Sequence[str],
    task: Any = None,
    wrap: Callable[[gym.Env], gym.Env] | None = None,
    *,
    backend: str = "async",
    max_rebuilds: int = 3,
    **kwargs: Any,
) -> VecEnv:
    """An SB3 VecEnv with one env per device.

    Args:
        devices: adb serials and/or ``"virtual[:WxH[@DPI]]"`` specs.
        task: The task of every env.
        wrap: Observation/action wrappers for each AndroidEnv.
        backend: ``"async"`` (:class:`SB3VecEnv` over :class:`~androidrl.vector.DeviceVectorEnv`,
            with fault isolation), or SB3's own ``"subproc"`` / ``"dummy"``.
        max_rebuilds: For ``"async"``: rebuilds after worker failures before giving up.
        **kwargs: More :func:`~androidrl.vector.make_vector_env` arguments (SB3's backends take
            ``env_kwargs``, ``monitor_dir``, ``seed``, ``guard``, ``adb_host`` and ``adb_port``).

    Raises:
        ValueError: Unknown backend, no devices, or a duplicate serial.
        TypeError: An argument the backend does not take.
    """
    async_only = sorted(set(kwargs) - {"env_kwargs", "monitor_dir", "seed", "guard", "adb_host", "adb_port"})
    if backend != "async" and async_only:
        raise TypeError(f"{', '.join(async_only)}: only the async backend takes these (backend is {backend!r})")
    if backend == "async":
        specs = parse_devices(devices, kwargs.get("adb_host", "127.0.0.1"), kwargs.get("adb_port"))
        return SB3VecEnv(lambda: make_vector_env(specs, task, wrap, **kwargs), max_rebuilds=max_rebuilds)
    if backend not in ("subproc", "dummy"):
        raise ValueError(f"backend must be 'async', 'subproc' or 'dummy', got {backend!r}")
    specs = parse_devices(devices, kwargs.pop("adb_host", "127.0.0.1"), kwargs.pop("adb_port", None))
    options = {k: kwargs[k] for k in ("env_kwargs", "monitor_dir", "seed", "guard") if k in kwargs}
    fns = [env_factory(spec, i, task, wrap, **options) for i, spec in enumerate(specs)]
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    return DummyVecEnv(fns) if backend == "dummy" else SubprocVecEnv(fns)


def _index(obs: Any, i: int) -> Any:
    if obs is None:
        return None
    if isinstance(obs, dict):
        return {k: v[i] for k, v in obs.items()}
    return obs[i]
