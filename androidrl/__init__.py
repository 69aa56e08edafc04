"""androidrl: a reinforcement-learning harness for Android phones, emulators and a virtual phone."""

from pathlib import Path

from androidrl.device import Device, VirtualDevice
from androidrl.env import AndroidEnv
from androidrl.errors import (
    AndroidRLError,
    ConfigError,
    DeviceCommandError,
    DeviceError,
    DeviceNotFoundError,
    DeviceOfflineError,
    DeviceTimeoutError,
    TaskError,
)
from androidrl.registration import VIRTUAL_PHONE_ID, make_virtual_env, register_envs
from androidrl.spaces import (
    EnvAction,
    EnvActionType,
    EnvObsParams,
    EnvObsType,
    get_action_space,
    get_observation_space,
)
from androidrl.tasks import Needs
from androidrl.virtual.phone import VirtualPhone

__version__ = "0.1.0"

register_envs()


def make_env(
    run_dir: str | Path,
    vector: bool = True,
    devices: list[str] | None = None,
    seed: int | None = None,
    trust_plugins: bool = False,
):
    """The env of a training run, rebuilt from its directory: what it evaluates on, exactly.

    The run's config says it all — the task, the screen, the observation and action wrappers,
    your own wrappers, frame stacking — so a model of the run fits the env, and SB3's tools
    take it as they take any env::

        env = androidrl.make_env("runs/quickstart-20261122-101500")
        model = PPO.load("runs/quickstart-20261122-101500/final_model.zip", env=env)
        mean_return, std_return = evaluate_policy(model, env, n_eval_episodes=10)

    Args:
        run_dir: A directory ``androidrl train`` made.
        vector: An SB3 ``VecEnv`` (the run's evaluation env: one process, a Monitor in each env,
            frames stacked as in training), or with False one ``gymnasium.Env`` whose ``spec``
            ``gym.make`` rebuilds (a run that stacks frames has only the vector form).
        devices: Devices to play on (adb serials or ``virtual[:WxH[@DPI]]``); default: the
            run's evaluation devices (a virtual phone like the training ones).
        seed: The first episode's seed; default: the one ``androidrl evaluate`` uses, from the run's seed.
        trust_plugins: Import the wrappers (callbacks, extractor) the run's config names by import
            path even from modules inside the run directory: code that came with the run. Which
            modules are imported, and from where, is printed either way.

    Raises:
        ConfigError: Not a run directory; a run that trained on phones and no ``devices``;
            ``vector=False`` for a run that stacks frames; or a class of the run's own (inside
            it), without ``trust_plugins``.
    """
    from androidrl.train.compose import run_env  # (the training application: loaded only when asked for)

    return run_env(run_dir, vector, devices, seed, trust_plugins)


__all__ = [
    "AndroidEnv",
    "AndroidRLError",
    "ConfigError",
    "Device",
    "DeviceCommandError",
    "DeviceError",
    "DeviceNotFoundError",
    "DeviceOfflineError",
    "DeviceTimeoutError",
    "EnvAction",
    "EnvActionType",
    "EnvObsParams",
    "EnvObsType",
    "Needs",
    "TaskError",
    "VIRTUAL_PHONE_ID",
    "VirtualDevice",
    "VirtualPhone",
    "get_action_space",
    "get_observation_space",
    "make_env",
    "make_virtual_env",
    "register_envs",
]
