"""androidrl: a reinforcement-learning harness for Android phones, emulators and a virtual phone."""

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
    "make_virtual_env",
    "register_envs",
]
