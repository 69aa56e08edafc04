"""Gymnasium ids for the virtual phone, and the factory behind them."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from androidrl.device.virtual import VirtualDevice
from androidrl.env import AndroidEnv
from androidrl.tasks.base import Task

VIRTUAL_PHONE_ID = "androidrl/VirtualPhone-v0"


def make_virtual_env(
    width: int = 1080,
    height: int = 2400,
    density: int = 420,
    seed: int = 0,
    task: Task | None = None,
    **env_kwargs: Any,
) -> AndroidEnv:
    """An :class:`AndroidEnv` on a new in-process virtual phone.

    Args:
        width: Screen width in pixels.
        height: Screen height in pixels.
        density: Screen density in dpi.
        seed: The phone's seed.
        task: The task (default: idle, reward 0).
        **env_kwargs: Passed to :class:`AndroidEnv` (``save_dir``, ``dump_xml``...).
    """
    device = VirtualDevice(width=width, height=height, density=density, seed=seed)
    return AndroidEnv(device, task, screen_size=(width, height), **env_kwargs)


def register_envs() -> None:
    """Register androidrl's ids with Gymnasium (done on ``import androidrl``)."""
    if VIRTUAL_PHONE_ID not in gym.registry:
        gym.register(VIRTUAL_PHONE_ID, entry_point=make_virtual_env)
