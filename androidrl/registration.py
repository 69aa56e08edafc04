"""Gymnasium ids for the virtual phone, the factories behind them, and the one wrapper chain.

``gym.make("androidrl/TapTargetPixels-v0", observation={...}, action={...}, wrappers=[...])``
takes the ``observation:``, ``action:`` and ``wrappers:`` sections of a training config with
the same keys and meanings (:func:`wrap_env` builds both), so an env made from an id can be
exactly the one a config trains on: ``androidrl.make_env(run_dir, vector=False)`` makes it,
and its ``spec`` rebuilds it with ``gym.make(spec)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
from gymnasium.envs.registration import EnvSpec

from androidrl.device.spec import DeviceSpec
from androidrl.device.virtual import VirtualDevice
from androidrl.env import AndroidEnv
from androidrl.plugins import import_class, parse_plugin
from androidrl.tasks.base import Task
from androidrl.tasks.family import family_gym_ids, family_names
from androidrl.tasks.registry import gym_id

VIRTUAL_PHONE_ID = "androidrl/VirtualPhone-v0"


def make_virtual_env(
    width: int = 1080,
    height: int = 2400,
    density: int = 420,
    seed: int = 0,
    task: Task | str | None = None,
    content: Mapping[str, int] | None = None,
    **env_kwargs: Any,
) -> AndroidEnv:
    """An :class:`AndroidEnv` on a new in-process virtual phone.

    Args:
        width: Screen width in pixels.
        height: Screen height in pixels.
        density: Screen density in dpi.
        seed: The phone's seed.
        task: The task: a Task, a built-in name, a spec or a YAML path (default: idle, reward 0).
        content: The phone's seeded content (``{"contacts": 20, "photos": 6}``; see ``VirtualPhone``).
        **env_kwargs: Passed to :class:`AndroidEnv` (``save_dir``, ``dump_xml``...).
    """
    device = VirtualDevice(width=width, height=height, density=density, seed=seed, content=content)
    return AndroidEnv(device, task, screen_size=(width, height), **env_kwargs)


def wrap_env(
    env: gym.Env,
    observation: Mapping[str, Any] | None = None,
    action: Mapping[str, Any] | None = None,
    wrappers: Sequence[Any] = (),
) -> gym.Env:
    """``env`` wrapped as a training config says: observation wrapper, action wrapper, then your own wrappers.

    Args:
        env: An AndroidEnv (or one already wrapped, e.g. in a Monitor).
        observation: :class:`~androidrl.wrappers.ScreenshotObservation`'s keyword arguments, with
            ``instruction`` (:class:`~androidrl.wrappers.InstructionObservation`'s, or None),
            ``elements`` (:class:`~androidrl.wrappers.ElementObservation`'s, or None) and
            ``frame_stack`` (1 only: stacking is SB3's ``VecFrameStack``, across a vector env).
        action: ``type`` (``grid``, ``multidiscrete``, ``box``, ``ui_elements``, ``elements``) and that action
            wrapper's keyword arguments.
        wrappers: Gymnasium wrappers by import path, alone or ``{path: {keyword: value}}``, in order.

    Raises:
        ValueError: An unknown action type, a frame stack above 1, or a wrapper that cannot be imported.
        TypeError: A keyword argument a wrapper does not take.
    """
    from androidrl.wrappers import ACTION_WRAPPERS, ElementObservation, InstructionObservation, ScreenshotObservation

    observation = dict(observation or {})
    instruction = observation.pop("instruction", None)
    elements = observation.pop("elements", None)
    frame_stack = observation.pop("frame_stack", 1)
    if frame_stack != 1:
        raise ValueError(
            f"observation frame_stack {frame_stack}: frames are stacked across a vector env (SB3's VecFrameStack); "
            "make the env with androidrl.make_env(run_dir), or wrap a DummyVecEnv of it in VecFrameStack"
        )
    action = dict(action or {})
    kind = action.pop("type", "grid")
    if kind not in ACTION_WRAPPERS:
        raise ValueError(f"action type must be one of {sorted(ACTION_WRAPPERS)}, got {kind!r}")
    env = ScreenshotObservation(env, **observation)
    if instruction is not None:
        env = InstructionObservation(env, **instruction)
    if elements is not None:
        env = ElementObservation(env, **elements)
    env = ACTION_WRAPPERS[kind](env, **action)
    for item in wrappers:
        path, kwargs = parse_plugin(item)
        env = import_class(path)(env, **kwargs)
    return env


def pixel_wrap(env: gym.Env) -> gym.Env:
    """``env`` ready for SB3 with every setting at its default: 84x84 images in, a Discrete 8x4 grid out."""
    return wrap_env(env)


def make_pixel_env(
    task: Task | str | Mapping[str, Any] | None = None,
    *,
    observation: Mapping[str, Any] | None = None,
    action: Mapping[str, Any] | None = None,
    wrappers: Sequence[Any] = (),
    device: str | None = None,
    width: int = 1080,
    height: int = 2400,
    density: int = 420,
    seed: int = 0,
    adb_host: str = "127.0.0.1",
    adb_port: int | None = None,
    monitor: bool = False,
    content: Mapping[str, int] | None = None,
    **env_kwargs: Any,
) -> gym.Env:
    """An env ready for SB3, wrapped as a training config's sections say (:func:`wrap_env`).

    Args:
        task: A built-in name, a YAML path, a spec, a suite (``{"suite": [...]}``) or a Task.
        observation: A config's ``observation:`` section (default: 84x84 RGB images).
        action: A config's ``action:`` section (default: an 8x4 grid of taps, swipes, back, home).
        wrappers: A config's ``wrappers:`` section.
        device: An adb serial or ``"virtual[:WxH[@DPI]]"``; default: a virtual phone of
            ``width`` x ``height`` at ``density``.
        width: The virtual phone's screen width in pixels.
        height: Its screen height.
        density: Its density in dpi.
        seed: The virtual phone's seed.
        adb_host: The adb server of an adb serial.
        adb_port: Its port.
        monitor: Wrap the AndroidEnv first in SB3's ``Monitor`` (as SB3's ``make_vec_env`` and a
            training run do), so that ``evaluate_policy`` reports the task's returns.
        content: The virtual phone's seeded content (``{"contacts": 20}``; see ``VirtualPhone``).
        **env_kwargs: A config's ``env:`` section (:class:`AndroidEnv` keywords: ``max_steps``...).
    """
    if device:
        spec = DeviceSpec.parse(device, adb_host, adb_port)
    else:
        spec = DeviceSpec.virtual_phone(width, height, density, content)
    env: gym.Env = AndroidEnv(spec.make_device(seed=seed), task, screen_size=spec.screen_size(), **env_kwargs)
    if monitor:
        from stable_baselines3.common.monitor import Monitor  # (SB3, the train extra: only when asked for)

        env = Monitor(env, info_keywords=("is_success", "task"))
    return wrap_env(env, observation, action, wrappers)


def pixel_spec(task: str | Mapping[str, Any] | None = None, **kwargs: Any) -> EnvSpec:
    """The spec of a :func:`make_pixel_env` env: ``gym.make(spec)`` builds it, ``spec.to_json()`` keeps it.

    Its id is the task's pixel id (``androidrl/TapTargetPixels-v0``; ``androidrl/AndroidEnvPixels-v0``
    for a task of your own); ``kwargs`` are :func:`make_pixel_env`'s (plain data, as a config's sections).
    """
    name = task if isinstance(task, str) and task in family_names() else None
    env_id = pixel_id(gym_id(name) if name else "androidrl/AndroidEnv-v0")
    entry_point = f"{__name__}:make_pixel_env"
    return EnvSpec(env_id, entry_point, kwargs={"task": task, **kwargs}, disable_env_checker=True)


def pixel_id(env_id: str) -> str:
    """The id of the SB3-ready (pixels, Discrete actions) variant of ``env_id``.

    ``androidrl/WifiOn-v0`` → ``androidrl/WifiOnPixels-v0``; ``androidrl/WifiOn-Hard-v0`` →
    ``androidrl/WifiOnPixels-Hard-v0``.
    """
    namespace, _, name = env_id.rpartition("/")
    stem, _, rest = name.partition("-")
    return f"{namespace}/{stem}Pixels-{rest}" if namespace else f"{stem}Pixels-{rest}"


def register_envs() -> None:
    """Register androidrl's ids with Gymnasium (done on ``import androidrl``).

    ``androidrl/VirtualPhone-v0`` is the idle phone; every built-in task gets an id of its
    own on the virtual phone, e.g. ``androidrl/WifiOn-v0`` for ``wifi-on``, and one per tier
    of its family (``androidrl/WifiOn-Easy-v0``, ``-Medium-v0``, ``-Hard-v0``). Each id has a
    ``...Pixels-v0`` twin ready for SB3 (images in, Discrete actions out), which takes a
    training config's ``observation``, ``action`` and ``wrappers`` sections as keywords.
    """
    # (from the file names alone: reading and checking every family's spec would take seconds at import)
    ids: dict[str, Any] = {VIRTUAL_PHONE_ID: None, **{gym_id(name): name for name in family_names()}}
    ids.update((env_id, kwargs["task"]) for env_id, kwargs in family_gym_ids())
    for env_id, task in ids.items():
        kwargs = {"task": task} if task else {}
        if env_id not in gym.registry:
            gym.register(env_id, entry_point=f"{__name__}:make_virtual_env", kwargs=kwargs)
        if pixel_id(env_id) not in gym.registry:
            gym.register(pixel_id(env_id), entry_point=f"{__name__}:make_pixel_env", kwargs=kwargs)
