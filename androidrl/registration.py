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


def pixel_wrap(
    env: gym.Env, shape: tuple[int, int] = (84, 84), grayscale: bool = False, rows: int = 8, cols: int = 4
) -> gym.Env:
    """``env`` ready for SB3: screen images in, a Discrete grid of actions out.

    :class:`~androidrl.wrappers.ScreenshotObservation` (``shape``, ``grayscale``) under a
    :class:`~androidrl.wrappers.DiscreteGridAction` (``rows`` x ``cols`` taps, swipes, back, home).
    """
    from androidrl.wrappers import DiscreteGridAction, ScreenshotObservation

    return DiscreteGridAction(ScreenshotObservation(env, shape=shape, grayscale=grayscale), rows=rows, cols=cols)


def make_pixel_env(
    task: Task | str | None = None,
    shape: tuple[int, int] = (84, 84),
    grayscale: bool = False,
    rows: int = 8,
    cols: int = 4,
    width: int = 1080,
    height: int = 2400,
    density: int = 420,
    seed: int = 0,
    **env_kwargs: Any,
) -> gym.Env:
    """A virtual-phone env ready for SB3: screen images in, a Discrete grid of actions out (:func:`pixel_wrap`)."""
    env = make_virtual_env(width, height, density, seed, task, **env_kwargs)
    return pixel_wrap(env, shape, grayscale, rows, cols)


def pixel_id(env_id: str) -> str:
    """The id of the SB3-ready (pixels, Discrete actions) variant of ``env_id``."""
    return env_id.replace("-v0", "Pixels-v0")


def register_envs() -> None:
    """Register androidrl's ids with Gymnasium (done on ``import androidrl``).

    ``androidrl/VirtualPhone-v0`` is the idle phone; every built-in task gets an id of its
    own on the virtual phone, e.g. ``androidrl/WifiOn-v0`` for ``wifi-on``. Each id has a
    ``...Pixels-v0`` twin ready for SB3 (images in, Discrete actions out).
    """
    ids = {VIRTUAL_PHONE_ID: None, **{gym_id(name): name for name in builtin_specs()}}
    for env_id, task in ids.items():
        kwargs = {"task": task} if task else {}
        if env_id not in gym.registry:
            gym.register(env_id, entry_point=make_virtual_env, kwargs=kwargs)
        if pixel_id(env_id) not in gym.registry:
            gym.register(pixel_id(env_id), entry_point=make_pixel_env, kwargs=kwargs)
