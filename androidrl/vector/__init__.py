"""Vector envs over devices: one worker per phone, faults kept inside their worker.

* :func:`make_vector_env` — a Gymnasium vector env (:class:`DeviceVectorEnv`), one worker
  process per device, with a step timeout and per-worker fault isolation; its layout and
  fault settings are one typed object, :class:`VectorSettings`.
* :func:`make_cluster_vector_env` — the same with each worker a Ray actor on the host that
  owns its device (:mod:`androidrl.vector.cluster`; Ray is imported only when it is called).
* :func:`~androidrl.vector.sb3.make_sb3_vec_env`, :class:`~androidrl.vector.sb3.SB3VecEnv` and
  :class:`~androidrl.vector.sb3.RayVecEnv` — the same as Stable-Baselines3 ``VecEnv`` s (or
  SB3's own ``SubprocVecEnv``/``DummyVecEnv`` over the same workers); they need SB3, so they
  are imported from :mod:`androidrl.vector.sb3` when first asked for.
"""

from typing import Any

from androidrl.device.spec import DeviceSpec, parse_devices
from androidrl.vector.async_env import DeviceVectorEnv, WorkerError, make_vector_env
from androidrl.vector.cluster import ClusterError, make_cluster_vector_env
from androidrl.vector.guard import DeviceFaultGuard
from androidrl.vector.settings import VectorSettings
from androidrl.vector.workers import env_factory

_SB3_NAMES = ("RayVecEnv", "SB3VecEnv", "make_sb3_vec_env")


def __getattr__(name: str) -> Any:
    if name in _SB3_NAMES:  # (SB3 is loaded only by those who use its faces)
        from androidrl.vector import sb3

        return getattr(sb3, name)
    raise AttributeError(f"module 'androidrl.vector' has no attribute {name!r}")


__all__ = [
    "ClusterError",
    "DeviceFaultGuard",
    "DeviceSpec",
    "DeviceVectorEnv",
    "RayVecEnv",
    "SB3VecEnv",
    "VectorSettings",
    "WorkerError",
    "env_factory",
    "make_cluster_vector_env",
    "make_sb3_vec_env",
    "make_vector_env",
    "parse_devices",
]
