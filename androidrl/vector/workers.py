"""What runs in a worker: the function that builds one device's env (device, AndroidEnv, wrappers, Monitor, guard)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym

from androidrl.device.spec import DeviceSpec
from androidrl.env import AndroidEnv
from androidrl.vector.guard import DeviceFaultGuard

Wrap = Callable[[gym.Env], gym.Env]


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
