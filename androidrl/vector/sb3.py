"""Stable-Baselines3's ``VecEnv`` over a :class:`~androidrl.vector.async_env.DeviceVectorEnv`.

SB3 does not take Gymnasium vector envs. This face gives SB3 what it expects, straight
from the per-env results (no batching of infos to unbatch again): per-env info dicts with
``terminal_observation`` and ``TimeLimit.truncated`` on the step that ends an episode (the
worker already reset it, ``SAME_STEP``), the new episode's reset info in ``reset_infos``,
the Monitor's ``episode`` at the top level of the info, ``get_attr`` / ``env_method`` on
the chosen envs that check an attribute exists before asking (a missing one would be an
error in the worker), ``env_is_wrapped``, and seeding. Faults are the vector env's to
handle: a worker that fails is restarted alone, and its envs' episodes end with
``info["device_error"]``.

:class:`RayVecEnv` is the same face with each env in a Ray actor on the host that owns its
device (:mod:`androidrl.vector.cluster`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvWrapper

from androidrl.device.spec import DeviceSpec, parse_devices
from androidrl.vector.async_env import DeviceVectorEnv, make_vector_env
from androidrl.vector.monitor import MonitorWriter
from androidrl.vector.settings import VectorSettings
from androidrl.vector.workers import MONITOR_KEYWORDS, env_factory, monitor_path


class SB3VecEnv(VecEnv):
    """SB3's VecEnv over a :class:`~androidrl.vector.async_env.DeviceVectorEnv`.

    Args:
        venv: The vector env (this face closes it).
    """

    def __init__(self, venv: DeviceVectorEnv) -> None:
        self.venv = venv
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)

    @property
    def restarts(self) -> int:
        """Worker restarts so far."""
        return self.venv.restarts

    # ------------------------------------------------------------------ stepping

    def reset(self) -> Any:
        """Reset every env (with the seeds and options set before, as SB3 does)."""
        seeds = list(self._seeds) if any(s is not None for s in self._seeds) else None
        obs, self.reset_infos = self.venv.reset_envs(seed=seeds, options=self._options[0] if self._options else None)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self.venv.step_async(actions)

    def step_wait(self):
        obs, steps = self.venv.step_wait_envs()
        rewards = np.fromiter((s.reward for s in steps), dtype=np.float32, count=self.num_envs)
        dones = np.fromiter((s.terminated or s.truncated for s in steps), dtype=bool, count=self.num_envs)
        infos = []
        for i, step in enumerate(steps):
            info = step.info
            if step.final is not None:
                final_obs, self.reset_infos[i] = step.final
                info = {**info, "terminal_observation": final_obs}
                info["TimeLimit.truncated"] = step.truncated and not step.terminated
            infos.append(info)
        return obs, rewards, dones, infos

    def close(self) -> None:
        self.venv.close()

    def get_images(self) -> Sequence[np.ndarray | None]:
        """Each env's ``render()`` (with ``env: {render_mode: rgb_array}``: its screen), for SB3's ``render``."""
        if self.render_mode != "rgb_array":
            return [None] * self.num_envs
        return self.venv.command("call", ("render", (), {}), list(range(self.num_envs)))

    # ------------------------------------------------------------------ attributes

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        return list(self._get_indices(indices))

    def _has(self, name: str, indices: VecEnvIndices = None) -> bool:
        return all(self.venv.command("has", name, self._indices(indices)))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """An attribute of each chosen env; AttributeError (workers untouched) if any lacks it."""
        if not self._has(attr_name, indices):
            raise AttributeError(f"the envs have no attribute {attr_name!r}")
        return self.venv.command("get", attr_name, self._indices(indices))

    def has_attr(self, attr_name: str) -> bool:
        """Whether every env has ``attr_name``."""
        return self._has(attr_name)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute on the chosen envs (all of them: set through Gymnasium's face)."""
        if self._indices(indices) != list(range(self.num_envs)):
            raise NotImplementedError("set_attr on some envs only is not supported; set it on all of them")
        self.venv.set_attr(attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """Call a method of each chosen env (AttributeError, workers untouched, if it is missing)."""
        if not self._has(method_name, indices):
            raise AttributeError(f"the envs have no method {method_name!r}")
        return self.venv.command("call", (method_name, method_args, method_kwargs), self._indices(indices))

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        """Whether each env has ``wrapper_class`` in its wrapper chain (False if it cannot tell)."""
        if not self._has("wrapper_chain", indices):  # only DeviceFaultGuard, outermost, knows its chain
            return [False for _ in self._indices(indices)]
        chains = self.venv.command("call", ("wrapper_chain", (), {}), self._indices(indices))
        return [wrapper_class.__name__ in chain for chain in chains]

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next reset: env i gets ``seed + i``."""
        self._seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        return self._seeds


class RayVecEnv(SB3VecEnv):
    """SB3's VecEnv with each env in a Ray actor on the host that owns its device.

    The actor builds the AndroidEnv and ``wrap`` there, against that host's adb server, and
    sends back only the wrapped observation, reward, flags and info; faults end only their
    env's episode, with ``info["device_error"]`` naming the device and its host (see
    :mod:`androidrl.vector.cluster`). Needs Ray (``pip install "androidrl[ray]"``) and a
    cluster whose hosts run ``androidrl node``.

    Args:
        devices: Devices the cluster advertises (names ``<host>/<serial>`` as ``androidrl devices
            --cluster`` lists them, serials, or :func:`~androidrl.vector.cluster.pick_devices`'s
            results), and/or virtual phones (``"virtual[:WxH[@DPI]]"``), made in actors spread over
            the cluster.
        task: The task of every env.
        wrap: Observation and action wrappers, applied in the actors.
        address: The Ray cluster: ``"auto"`` (the one this host belongs to) or ``HOST:PORT``.
        **kwargs: More :func:`~androidrl.vector.cluster.make_cluster_vector_env` arguments
            (``settings``, ``env_kwargs``, ``seed``).

    Raises:
        ClusterError: Ray is missing, no cluster answers at ``address``, or a device cannot be had.

    Example:
        >>> env = RayVecEnv(["lab-2/emulator-5554", "virtual:360x800"], "tap-target", pixel_wrap)  # doctest: +SKIP
    """

    def __init__(
        self,
        devices: Sequence[Any],
        task: Any = None,
        wrap: Callable[[gym.Env], gym.Env] | None = None,
        *,
        address: str = "auto",
        **kwargs: Any,
    ) -> None:
        from androidrl.vector.cluster import make_cluster_vector_env

        super().__init__(make_cluster_vector_env(devices, task, wrap, address=address, **kwargs))


class MonitorFiles(VecEnvWrapper):
    """Writes each env's episodes (``info["episode"]``) to its own SB3 Monitor CSV, from the parent.

    For workers on other hosts (the ray backend), whose Monitors only add the ``episode``
    infos: the files are the same as a local Monitor writes (``worker_<i>.monitor.csv``,
    with its ``t_start`` and ``env_id`` header). Not SB3's ``VecMonitor``: that one adds up
    the rewards that reach the parent, after the config's wrappers (a ``ClipReward`` would
    clip the curve), in one file for all envs; these rows are the workers' Monitors', which
    wrap the AndroidEnv itself, as the local backends' do.
    """

    def __init__(self, venv: VecEnv, directory: str | Path) -> None:
        super().__init__(venv)
        self._start = time.time()
        ids = [spec.id if spec is not None else None for spec in venv.get_attr("spec")]
        self._writers = [
            MonitorWriter(
                monitor_path(Path(directory), i), {"t_start": self._start, "env_id": str(ids[i])}, MONITOR_KEYWORDS
            )
            for i in range(venv.num_envs)
        ]

    def reset(self) -> Any:
        return self.venv.reset()

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        for writer, info in zip(self._writers, infos):
            episode = info.get("episode")
            if episode is not None:
                row = {"r": episode["r"], "l": episode["l"], "t": round(time.time() - self._start, 6)}
                writer.write_row({**row, **{key: info.get(key) for key in MONITOR_KEYWORDS}})
        return obs, rewards, dones, infos

    def close(self) -> None:
        for writer in self._writers:
            writer.close()
        super().close()


def make_sb3_vec_env(
    devices: Sequence[str | DeviceSpec],
    task: Any = None,
    wrap: Callable[[gym.Env], gym.Env] | None = None,
    *,
    backend: str = "async",
    settings: VectorSettings | None = None,
    env_kwargs: dict[str, Any] | None = None,
    monitor_dir: str | Path | None = None,
    seed: int = 0,
    adb_host: str = "127.0.0.1",
    adb_port: int | None = None,
    address: str = "auto",
) -> VecEnv:
    """An SB3 VecEnv with one env per device.

    Args:
        devices: adb serials and/or ``"virtual[:WxH[@DPI]]"`` specs (or DeviceSpecs).
        task: The task of every env.
        wrap: Observation/action wrappers for each AndroidEnv.
        backend: ``"async"`` (:class:`SB3VecEnv` over
            :class:`~androidrl.vector.async_env.DeviceVectorEnv`, with fault recovery),
            ``"ray"`` (:class:`RayVecEnv`: the same, each env in a Ray actor on its device's
            host; ``devices`` are then the cluster's, see :class:`RayVecEnv`), or SB3's own
            ``"subproc"`` / ``"dummy"`` (whose workers keep only the device fault guard).
        settings: Layout and fault handling (:class:`~androidrl.vector.settings.VectorSettings`).
        env_kwargs: More AndroidEnv arguments.
        monitor_dir: Write SB3 Monitor CSVs (episode return, length, success) here.
        seed: Seeds the virtual phones (``seed + env index``).
        adb_host: Host of the adb server for adb serials (not ray: its workers use their own host's).
        adb_port: Port of that adb server.
        address: (ray) The Ray cluster: ``"auto"`` or ``HOST:PORT`` of its head.

    Raises:
        ValueError: Unknown backend, no devices, a duplicate serial, an adb server given to the
            ray backend, or ``envs_per_worker`` above 1 with it.
        ClusterError: (ray) Ray is missing, no cluster answers, or a device cannot be had.
    """
    common = {"settings": settings, "env_kwargs": env_kwargs, "seed": seed}
    if backend == "async":
        local = {"monitor_dir": monitor_dir, "adb_host": adb_host, "adb_port": adb_port}
        return SB3VecEnv(make_vector_env(devices, task, wrap, **local, **common))
    if backend == "ray":
        if adb_port is not None or adb_host != "127.0.0.1":
            raise ValueError(
                "adb_host, adb_port: the ray backend's workers are actors on the hosts that own the devices, "
                "each using its own host's adb server"
            )
        env = RayVecEnv(devices, task, wrap, address=address, **common)
        return MonitorFiles(env, monitor_dir) if monitor_dir is not None else env
    if backend not in ("subproc", "dummy"):
        raise ValueError(f"backend must be 'async', 'ray', 'subproc' or 'dummy', got {backend!r}")
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    specs = parse_devices(devices, adb_host, adb_port)
    fns = [
        env_factory(spec, i, task, wrap, env_kwargs, monitor_dir, seed, settings, Monitor)
        for i, spec in enumerate(specs)
    ]

    if backend == "dummy":
        return DummyVecEnv(fns)
    return SubprocVecEnv(fns, start_method=(settings or VectorSettings()).start_method)
