"""The composition root of training: a config in; envs, wrappers and a model out.

Training, evaluation and the benchmarks all build their envs here, so a run is
evaluated on exactly the envs it trained on.
"""

from __future__ import annotations

import functools
import os
import warnings
from pathlib import Path
from typing import Any

import gymnasium as gym
from gymnasium.envs.registration import EnvSpec
from pydantic import ValidationError

from androidrl.device.spec import DeviceSpec
from androidrl.plugins import import_class
from androidrl.train import checkpoints
from androidrl.train.config import Config, ConfigError, Devices, algo_class, check_rollout, hyperparams
from androidrl.train.seeds import AFTERWARDS, LATER_PHONES, PERIODIC_PHONES, evaluation_seed
from androidrl.validation import format_errors


def wrapper_settings(config: Config) -> dict[str, Any]:
    """The config's ``observation``, ``action`` and ``wrappers`` sections, as the gym ids take them.

    Plain data, the keywords of :func:`~androidrl.registration.wrap_env`; without ``frame_stack``
    (frames are stacked across the vector env, not in each env).
    """
    data = config.model_dump(mode="json")
    return {
        "observation": {k: v for k, v in data["observation"].items() if k != "frame_stack"},
        "action": data["action"],
        "wrappers": data["wrappers"],
    }


def make_wrap(config: Config):
    """The function that wraps each worker's AndroidEnv as the config says (:func:`~androidrl.registration.wrap_env`).

    The observation wrapper, then the action wrapper, then the config's own ``wrappers`` in order.
    """
    from androidrl.registration import wrap_env

    settings = wrapper_settings(config)
    return functools.partial(wrap_env, **settings)


def run_spec(
    config: Config, device: DeviceSpec, seed: int = 0, evaluation: bool = False, monitor: bool = False
) -> EnvSpec:
    """The gym spec of the config's env on ``device``: ``gym.make(spec)`` makes one env exactly as a worker's.

    It is what recordings (and so Minari datasets) carry, and what ``androidrl.make_env(run_dir,
    vector=False)`` makes: a ``...Pixels-v0`` id with the config's sections as its keywords.
    """
    from androidrl.registration import pixel_spec

    where = {"device": device.serial} if not device.virtual else {}
    if not device.virtual and (device.adb_host, device.adb_port) != ("127.0.0.1", None):
        where |= {"adb_host": device.adb_host, "adb_port": device.adb_port}
    screen = {"width": device.width, "height": device.height, "density": device.density} if device.virtual else {}
    if device.content:
        screen["content"] = dict(device.content)
    env = config.env.model_dump(mode="json", exclude_none=True)
    settings = wrapper_settings(config) | ({"monitor": True} if monitor else {})
    return pixel_spec(config.task_spec(evaluation), **where, **screen, seed=seed, **settings, **env)


def make_vec_env(
    config: Config,
    devices: Devices,
    monitor_dir: Path | None = None,
    seed: int = 0,
    backend: str | None = None,
    wrap: Any = None,
    evaluation: bool = False,
):
    """An SB3 VecEnv on ``devices`` with the config's task, wrappers (or ``wrap``) and frame stacking.

    Each worker's env has a Monitor first (writing to ``monitor_dir`` if given). With
    ``evaluation``, a suite takes its tasks in turn, so evaluations cover each evenly.

    Raises:
        ConfigError: The ray backend's devices cannot be had, or their number does not fit the batch size.
    """
    from stable_baselines3.common.vec_env import VecFrameStack

    backend = backend or config.vector.backend
    wrap = wrap or make_wrap(config)
    env_kwargs = config.env.model_dump(exclude_none=True)
    if backend == "ray":
        env = _cluster_env(config, devices, monitor_dir, seed, wrap, env_kwargs, evaluation)
    else:
        from androidrl.vector.sb3 import make_sb3_vec_env

        env = make_sb3_vec_env(
            devices.specs(),
            config.task_spec(evaluation),
            wrap,
            backend=backend,
            settings=config.vector.vector_settings(),
            env_kwargs=env_kwargs,
            monitor_dir=monitor_dir,
            seed=seed,
            adb_host=devices.adb.host,
            adb_port=devices.adb.port,
        )
    if config.observation.frame_stack > 1:
        env = VecFrameStack(env, n_stack=config.observation.frame_stack)
    return env


def evaluation_env(config: Config, devices: Devices | None = None, wrap: Any = None, periodic: bool = False):
    """The VecEnv a run is evaluated on: its evaluation devices (or ``devices``), one process, every task in turn.

    The same wrappers and frame stacking as training; under a reward-only ``VecNormalize``
    when training has one (SB3's EvalCallback syncs the two), so returns stay the task's.

    Raises:
        ConfigError: The run trained on phones and no ``devices`` are given.
    """
    devices = devices or play_devices(config)
    seed = config.seed + (PERIODIC_PHONES if periodic else LATER_PHONES)
    env = make_vec_env(config, devices, seed=seed, backend="dummy", wrap=wrap, evaluation=True)
    if config.algo.normalize_reward:
        from stable_baselines3.common.vec_env import VecNormalize

        env = VecNormalize(env, training=False, norm_obs=False, norm_reward=False)
    return env


def run_env(
    run_dir: str | Path,
    vector: bool = True,
    devices: list[str] | None = None,
    seed: int | None = None,
    trust_plugins: bool = False,
):
    """The env of a run directory, exactly as it evaluates (``androidrl.make_env``; see its documentation).

    Raises:
        ConfigError: Not a run; a run that trained on phones without ``devices``; ``vector=False``
            for a run that stacks frames (a vector env's wrapper).
    """
    from androidrl.train.runs import Run

    config = Run.open(run_dir, trust_plugins=trust_plugins).config
    chosen = play_devices(config, devices)
    seed = evaluation_seed(config.seed, 0, AFTERWARDS) if seed is None else seed
    if vector:
        env = evaluation_env(config, chosen)
        env.seed(seed)
        return env
    if config.observation.frame_stack > 1:
        raise ConfigError(
            f"{run_dir} stacks {config.observation.frame_stack} frames, which SB3 does across a vector env "
            "(VecFrameStack): use androidrl.make_env(run_dir), a vector env"
        )
    env = gym.make(run_spec(config, chosen.specs()[0], config.seed + LATER_PHONES, evaluation=True, monitor=True))
    env.reset(seed=seed)  # (SB3's evaluate_policy resets it again, from here on)
    return env


def _cluster_env(
    config: Config, devices: Devices, monitor_dir: Path | None, seed: int, wrap: Any, env_kwargs: dict, evaluation: bool
):
    """The ray backend: workers as Ray actors next to their devices (``devices.cluster``, or virtual phones)."""
    from androidrl.vector.cluster import ClusterError, connect, make_cluster_vector_env, pick_devices
    from androidrl.vector.sb3 import MonitorFiles, SB3VecEnv

    try:
        ray = connect(config.vector.address)
        chosen = pick_devices(ray, devices.cluster) if devices.cluster is not None else devices.specs()
        check_rollout(config, hyperparams(config), len(chosen))
        venv = make_cluster_vector_env(
            chosen,
            config.task_spec(evaluation),
            wrap,
            settings=config.vector.vector_settings(),
            env_kwargs=env_kwargs,
            seed=seed,
        )
    except ClusterError as err:
        raise ConfigError(f"vector.backend ray: {err}") from None
    env = SB3VecEnv(venv)
    return MonitorFiles(env, monitor_dir) if monitor_dir is not None else env


def eval_devices(config: Config) -> Devices | None:
    """Devices for periodic evaluation: the config's, or one virtual phone like the training ones."""
    if config.eval_devices is not None:
        return config.eval_devices
    if config.devices.virtual is not None:
        return Devices(virtual=config.devices.virtual.model_copy(update={"count": 1}))
    return None  # phones in use for training cannot also evaluate


def play_devices(config: Config, devices: list[str] | None = None) -> Devices:
    """The devices a run is evaluated (or watched) on: ``devices`` if given, else the run's evaluation devices.

    Raises:
        ConfigError: ``devices`` are malformed, or the run trained on phones and none are given.
    """
    if devices:
        try:
            return Devices(serials=devices, adb=config.devices.adb)
        except ValidationError as err:
            raise ConfigError(f"--devices: {format_errors(err)}") from None
    chosen = eval_devices(config)
    if chosen is None:
        raise ConfigError("the run trained on phones: say which devices to play on (--devices, or devices=[...])")
    return chosen


def set_torch_threads(config: Config) -> int:
    """Give the learner the cores the env workers leave free (at least one), unless the config says.

    On a small machine PyTorch's default (every core) makes its helper threads spin while the
    workers step, which slows both.
    """
    import torch

    local = config.n_envs if config.vector.backend != "ray" else 0  # (ray workers run on their hosts)
    threads = config.algo.torch_threads or max(1, (os.cpu_count() or 1) - (local or 0))
    torch.set_num_threads(threads)
    return threads


def make_model(config: Config, env, tensorboard_log: str | Path | None = None):
    """A new model for the config (logging to TensorBoard in ``tensorboard_log`` if given)."""
    cls = algo_class(config.algo.name)
    return cls(
        config.algo.policy,
        env,
        seed=config.seed,
        device=config.algo.device,
        policy_kwargs=config.algo.policy_kwargs.resolved() or None,
        tensorboard_log=str(tensorboard_log) if tensorboard_log is not None else None,
        verbose=config.algo.verbose,
        **hyperparams(config),
    )


def make_callbacks(config: Config) -> list:
    """The config's own SB3 callbacks (``training.callbacks``), constructed."""
    return [import_class(p.path)(**p.kwargs) for p in config.training.callbacks]


def template_env(config: Config):
    """An SB3 VecEnv with the config's spaces that never touches a device (to load a model without phones)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, VecFrameStack

    spec = next((s for s in config.devices.specs() if s.virtual), DeviceSpec.virtual_phone())
    env = DummyVecEnv([lambda: gym.make(run_spec(config, spec))])
    return VecFrameStack(env, config.observation.frame_stack) if config.observation.frame_stack > 1 else env


def load_model(config: Config, path: Path, env, **kwargs: Any):
    """The model saved at ``path``, loaded safely: every pickled field comes from the config, weights only.

    Raises:
        CheckpointError: The file is not a model, does not load, or holds fields the config cannot supply.
    """
    with warnings.catch_warnings():  # a template on one env: SB3 warns its batch does not divide that rollout
        warnings.filterwarnings("ignore", message="You have specified a mini-batch size")
        template = make_model(config, env)  # the trusted source of every pickled field
    return checkpoints.load_model(
        algo_class(config.algo.name), Path(path), template, env=env, device=config.algo.device, **kwargs
    )


def check_devices(config: Config, devices: Devices | None = None, timeout: float = 15.0) -> None:
    """Before any work: every adb device to train (and evaluate) on must answer a shell command.

    ``host:port`` serials are connected first (as training would). A device that does not
    answer within ``timeout`` seconds is an error naming it, what adb says about it, and what
    the server lists.

    Args:
        config: The config whose ``devices`` and ``eval_devices`` are checked.
        devices: Check these instead.
        timeout: Seconds each device may take to answer.

    Raises:
        ConfigError: A device that is missing, offline or silent, or no adb server at the address.
    """
    from androidrl.device.adb import AdbDevice
    from androidrl.device.adb_client import AdbClient
    from androidrl.errors import DeviceError

    groups = [("devices", devices)] if devices is not None else [("devices", config.devices)]
    if devices is None and config.eval_devices is not None:
        groups.append(("eval_devices", config.eval_devices))
    for key, group in groups:
        specs = [spec for spec in group.specs() if not spec.virtual]
        if not specs:
            continue
        client = AdbClient(group.adb.host, group.adb.port, timeout=10)
        try:
            listed = {e.serial: e.state for e in client.devices()}
        except DeviceError as err:
            raise ConfigError(f"{key}.adb: {err}") from None
        known = ", ".join(f"{serial} ({state})" for serial, state in listed.items()) or "none"
        for spec in specs:
            device = AdbDevice(spec.serial, host=spec.adb_host, port=spec.adb_port, timeout=min(10.0, timeout))
            if spec.serial not in listed and not device.is_tcp:  # (host:port serials are connected on demand)
                raise ConfigError(f"{key}.serials: {spec.serial} is not connected (adb lists: {known}); start it first")
            try:
                device.wait_ready(timeout=timeout)
            except DeviceError as err:
                raise ConfigError(
                    f"{key}.serials: {spec.serial} does not answer within {timeout:g} s ({err}); adb lists: {known}. "
                    "Start it, `adb connect` it, or run `androidrl devices` for help"
                ) from None
