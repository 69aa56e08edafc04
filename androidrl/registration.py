"""Gymnasium ids for the virtual phone, and the factory behind them."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from androidrl.device.virtual import VirtualDevice
from androidrl.env import AndroidEnv
from androidrl.tasks.base import Task
from androidrl.tasks.registry import builtin_specs, gym_id

VIRTUAL_PHONE_ID = "androidrl/VirtualPhone-v0"


def make_virtual_env(
    width: int = 1080,
    height: int = 2400,
    density: int = 420,
    seed: int = 0,
    task: Task | str | None = None,
    **env_kwargs: Any,
) -> AndroidEnv:
    """An :class:`AndroidEnv` on a new in-process virtual phone.

    Args:
        width: Screen width in pixels.
        height: Screen height in pixels.
        density: Screen density in dpi.
        seed: The phone's seed.
        task: The task: a Task, a built-in name, a spec or a YAML path (default: idle, reward 0).
        **env_kwargs: Passed to :class:`AndroidEnv` (``save_dir``, ``dump_xml``...).
    """
    device = VirtualDevice(width=width, height=height, density=density, seed=seed)
    return AndroidEnv(device, task, screen_size=(width, height), **env_kwargs)


def register_envs() -> None:
    """Register androidrl's ids with Gymnasium (done on ``import androidrl``).

    ``androidrl/VirtualPhone-v0`` is the idle phone; every built-in task gets an id of its
    own on the virtual phone, e.g. ``androidrl/WifiOn-v0`` for ``wifi-on``.
    """
    if VIRTUAL_PHONE_ID not in gym.registry:
        gym.register(VIRTUAL_PHONE_ID, entry_point=make_virtual_env)
    for name in builtin_specs():
        if gym_id(name) not in gym.registry:
            gym.register(gym_id(name), entry_point=make_virtual_env, kwargs={"task": name})
