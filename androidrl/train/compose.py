"""The composition root of training: a config in; envs, wrappers and a model out.

Training, evaluation and the benchmarks all build their envs here, so a run is
evaluated on exactly the envs it trained on.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import gymnasium as gym

from androidrl.train.config import Config, ConfigError, Devices, algo_class, hyperparams
from androidrl.train.runs import Run


def make_wrap(config: Config):
    """The function that wraps each worker's AndroidEnv as the config says (observation, then action wrapper)."""
    from androidrl.wrappers import ScreenshotObservation

    observation = config.observation.model_dump(exclude={"frame_stack"})
    action, settings = config.action.wrapper, config.action.settings

    def wrap(env: gym.Env) -> gym.Env:
        return action(ScreenshotObservation(env, **observation), **settings)

    return wrap


def make_env(
    config: Config,
    devices: Devices,
    monitor_dir: Path | None = None,
    seed: int = 0,
    backend: str | None = None,
    wrap: Any = None,
):
    """An SB3 VecEnv on ``devices`` with the config's task, wrappers (or ``wrap``) and frame stacking."""
    from stable_baselines3.common.vec_env import VecFrameStack

    from androidrl.vector.sb3 import make_sb3_vec_env

    options: dict[str, Any] = {
        "env_kwargs": config.env.model_dump(exclude_none=True),
        "monitor_dir": monitor_dir,
        "seed": seed,
        "adb_host": devices.adb.host,
        "adb_port": devices.adb.port,
        "guard": config.vector.guard(),
    }
    backend = backend or config.vector.backend
    if backend == "async":
        options.update(config.vector.recovery())
    env = make_sb3_vec_env(devices.specs(), config.task, wrap or make_wrap(config), backend=backend, **options)
    if config.observation.frame_stack > 1:
        env = VecFrameStack(env, n_stack=config.observation.frame_stack)
    return env


def eval_devices(config: Config) -> Devices | None:
    """Devices for periodic evaluation: the config's, or one virtual phone like the training ones."""
    if config.eval_devices is not None:
        return config.eval_devices
    if config.devices.virtual is not None:
        return Devices(virtual=config.devices.virtual.model_copy(update={"count": 1}))
    return None  # phones in use for training cannot also evaluate


def set_torch_threads(config: Config) -> int:
    """Give the learner the cores the env workers leave free (at least one), unless the config says.

    On a small machine PyTorch's default (every core) makes its helper threads spin while the
    workers step, which slows both.
    """
    import torch

    threads = config.algo.torch_threads or max(1, (os.cpu_count() or 1) - config.n_envs)
    torch.set_num_threads(threads)
    return threads


def make_model(config: Config, env, run: Run):
    """A new model for the config."""
    cls = algo_class(config.algo.name)
    return cls(
        config.algo.policy,
        env,
        seed=config.seed,
        device=config.algo.device,
        policy_kwargs=config.algo.policy_kwargs.resolved() or None,
        tensorboard_log=str(run.tensorboard),
        verbose=0,
        **hyperparams(config),
    )


def check_devices(config: Config, devices: Devices | None = None) -> None:
    """Before any work: every adb serial to train (and evaluate) on must be known to adb and online.

    Args:
        config: The config whose ``devices`` and ``eval_devices`` are checked.
        devices: Check these instead.

    Raises:
        ConfigError: A device that does not exist or is not usable.
    """
    from androidrl.device.adb import AdbDevice
    from androidrl.device.adb_client import AdbClient
    from androidrl.errors import DeviceError

    groups = [("devices", devices)] if devices is not None else [("devices", config.devices)]
    if devices is None and config.eval_devices is not None:
        groups.append(("eval_devices", config.eval_devices))
    for key, group in groups:
        serials = [spec.serial for spec in group.specs() if not spec.virtual]
        if not serials:
            continue
        client = AdbClient(group.adb.host, group.adb.port, timeout=10)
        try:
            states = {e.serial: e.state for e in client.devices()}
        except DeviceError as err:
            raise ConfigError(f"{key}: {err}") from None
        for serial in serials:
            if serial not in states and not AdbDevice(serial).is_tcp:  # host:port serials connect on demand
                known = ", ".join(states) or "none"
                raise ConfigError(f"{key}.serials: {serial} is not connected (adb lists: {known}); start it first")
            if states.get(serial, "device") != "device":
                raise ConfigError(f"{key}.serials: {serial} is {states[serial]}; run `androidrl devices` for help")
