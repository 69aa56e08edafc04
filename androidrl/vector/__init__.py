"""Vector envs over devices: one worker per phone, faults kept inside their worker.

* :func:`make_vector_env` — a Gymnasium vector env (:class:`DeviceVectorEnv`), one worker
  process per device, with a step timeout and per-worker fault isolation.
* :func:`androidrl.vector.sb3.make_sb3_vec_env` — the same as a Stable-Baselines3 ``VecEnv``
  (or SB3's own ``SubprocVecEnv``/``DummyVecEnv`` over the same workers); it needs SB3, so
  it is not imported here.
"""

from androidrl.device.spec import DeviceSpec, parse_devices
from androidrl.vector.async_env import DeviceVectorEnv, WorkerError, make_vector_env
from androidrl.vector.guard import DeviceFaultGuard
from androidrl.vector.workers import env_factory

__all__ = [
    "DeviceFaultGuard",
    "DeviceSpec",
    "DeviceVectorEnv",
    "WorkerError",
    "env_factory",
    "make_vector_env",
    "parse_devices",
]
